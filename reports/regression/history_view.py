"""The history as text: one block per study, so a metric's movement is read within one study."""

from __future__ import annotations

from itertools import groupby

from reports.regression.history import HistoryRow
from reports.stats import wilson


def render_history(rows: list[HistoryRow]) -> str:
    """Rows grouped by study (older runs recorded without one form their own group)."""
    lines: list[str] = []
    for (name, sid), group in groupby(rows, key=lambda r: (r.study_name, r.study_id)):
        block = list(group)
        if lines:
            lines.append("")
        if sid is None:
            lines.append("study: unknown (recorded before runs carried their study)")
        else:
            lines.append(f"study: {name} (id {sid}; strategies {block[0].strategies})")
        lines.append(f"{'recorded (UTC)':<20} {'subject':<28} {'metric':<30} {'mode':<11} {'rate':>6} "
                     f"{'95% CI':>15} {'n':>7}  {'card set':<16} {'code':<18} run")
        for r in block:
            lo, hi = wilson(r.successes, r.trials)
            rate = r.successes / r.trials if r.trials else 0.0
            lines.append(f"{r.recorded_at:%Y-%m-%d %H:%M:%S}  {r.subject:<28} {r.metric:<30} {r.mode:<11} "
                         f"{rate:6.3f} [{lo:.3f}, {hi:.3f}] {r.trials:7d}  {r.card_set or '-':<16} "
                         f"{r.code_version or '-':<18} {r.run_path}")
    return "\n".join(lines)
