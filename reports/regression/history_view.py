"""The history as text: one block per study, so a metric's movement is read within one study; in each block
the trusted metrics first (randomized, ablation, controlled), the descriptive ones after."""

from __future__ import annotations

from reports.regression.history import HistoryRow
from reports.regression.summary import ABLATION, DEFINITIONS, DIFFERENCE, KIND_NOTES, KINDS, MEAN, Definition

HEADER = (f"{'recorded (UTC)':<20} {'subject':<28} {'context':<34} {'metric':<30} {'mode':<16} {'value':>7} "
          f"{'95% CI':>17} {'n':>7} {'MDE':>6}  {'card set':<16} {'code':<18} run")


def by_study(rows: list[HistoryRow]) -> list[tuple[str | None, list[str], list[HistoryRow]]]:
    """Rows by study id (older runs recorded without one form their own group), each study once: a study's
    name is not part of its identity (reports/regression/identity.py), so one study may carry several names;
    grouping by name too printed a study once per change of name among its rows."""
    groups: dict[str | None, list[HistoryRow]] = {}
    for r in rows:
        groups.setdefault(r.study_id, []).append(r)
    return [(sid, sorted({r.study_name for r in block if r.study_name}), block) for sid, block in groups.items()]


def render_history(rows: list[HistoryRow]) -> str:
    """Rows grouped by study, then by kind."""
    lines: list[str] = []
    for sid, names, block in by_study(rows):
        if lines:
            lines.append("")
        if sid is None:
            lines.append("study: unknown (recorded before runs carried their study)")
        else:
            lines.append(f"study: {', '.join(names)} (id {sid}; strategies {block[0].strategies})")
        for kind in sorted({r.kind for r in block}, key=_kind_rank):
            of_kind = [r for r in block if r.kind == kind]
            lines += ["", f"{kind}: {KIND_NOTES.get(kind, '')}"]
            lines += [f"  {m}: {_definition(m).meaning}" for m in sorted({r.metric for r in of_kind})]
            lines.append(HEADER)
            lines += [_line(r) for r in of_kind]
    return "\n".join(lines)


def _kind_rank(kind: str) -> int:
    return KINDS.index(kind) if kind in KINDS else len(KINDS)


def _definition(metric: str) -> Definition:
    return DEFINITIONS.get(metric, Definition("(no longer recorded)"))


def _line(r: HistoryRow) -> str:
    shape = _definition(r.metric).shape
    if r.value is None:
        value, interval = "-", ""
    elif shape == MEAN or r.low is None or r.high is None:
        value, interval = f"{r.value:7.2f}", "(no interval)"
    elif r.kind == ABLATION and r.low == r.high == r.value == 0.0:
        value, interval = f"{r.value:+7.3f}", "no pair differed"
    else:
        form = "+.3f" if shape == DIFFERENCE else ".3f"
        value, interval = f"{r.value:{form}}".rjust(7), f"[{r.low:{form}}, {r.high:{form}}]"
    mde = f"{r.mde:6.3f}" if r.mde is not None else "     -"
    n = f"{r.n:7d}" if r.n is not None else "      -"
    return (f"{r.recorded_at:%Y-%m-%d %H:%M:%S}  {r.subject:<28} {r.context:<34} {r.metric:<30} {r.mode:<16} "
            f"{value} {interval:>17} {n} {mde}  {r.card_set or '-':<16} {r.code_version or '-':<18} {r.run_path}")

