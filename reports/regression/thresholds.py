"""The regression gates' thresholds, light enough for the command line to read its defaults from."""

from __future__ import annotations

from dataclasses import dataclass

from sim.errors import UserError


class ThresholdError(UserError):
    """A threshold out of its range; ``field`` names it so each caller can say where it came from."""

    def __init__(self, field_name: str, problem: str):
        super().__init__(f"{field_name}: {problem}")
        self.field = field_name
        self.problem = problem


@dataclass(frozen=True)
class Thresholds:
    """The gates' thresholds. These defaults are the only declaration of them: ``regress``, a suite without
    a [thresholds] table and ``plan`` all use them (studies/nightly.toml is sized for them)."""

    min_difference: float = 0.03  # absolute change in a rate that matters
    alpha: float = 0.05  # false discovery rate for the Benjamini-Hochberg procedure
    min_trials: int = 50  # comparisons with fewer games (trials) are not tested

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_difference <= 1.0:
            raise ThresholdError("min_difference", "expected a difference of rates between 0 and 1, "
                                 f"got {self.min_difference}")
        if not 0.0 < self.alpha < 1.0:
            raise ThresholdError("alpha", f"expected a false discovery rate strictly between 0 and 1, got {self.alpha}")
        if self.min_trials < 1:
            raise ThresholdError("min_trials", f"expected a whole number of at least 1, got {self.min_trials}")


DEFAULTS = Thresholds()
