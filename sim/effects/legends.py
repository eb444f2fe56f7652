"""Effect functions of the legends cards that the step vocabulary cannot express."""

from __future__ import annotations
