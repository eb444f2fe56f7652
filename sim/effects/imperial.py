"""Effect functions of the imperial cards that the step vocabulary cannot express."""

from __future__ import annotations
