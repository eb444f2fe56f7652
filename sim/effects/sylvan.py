"""Effect functions of the sylvan cards that the step vocabulary cannot express."""

from __future__ import annotations
