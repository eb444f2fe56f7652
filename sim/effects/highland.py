"""Effect functions of the highland cards that the step vocabulary cannot express."""

from __future__ import annotations
