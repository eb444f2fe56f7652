"""A card's trend: its measured effects over the runs the history database recorded of the report's study.

Only runs of the same study are read (their study id, reports/regression/identity.py), so a trend moves with
the cards or the code, never with the study's design. Each chart is one metric (the ablation effect, the
position dose-response, early access; a task's effect when dealt), one line per form, deck and player, with
its 95% intervals.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from reports import charts
from reports.dataset import Run
from reports.model import Chart
from reports.regression.history import HistoryRow, metric_history
from reports.regression.identity import study_id
from reports.regression.summary import DEFINITIONS
from sim.errors import UserError

TREND_METRICS = {  # the card and task metrics the history records, strength first
    "card_ablation_effect": "ablation effect",
    "card_position_effect": "earlier in deck (position dose-response)",
    "card_early_access": "early access (opening hand effect)",
    "task_dealt_effect": "dealt at setup",
}
WIDTH, LEFT, TOP, PLOT_H, LEGEND_H = 560, 52, 14, 130, 15
LATEST = 20  # the recorded runs a chart shows, the latest: the page stays small however long the history


@dataclass
class History:
    """The recorded card metrics of the report's study, by card id; ``note`` says where they came from."""

    rows: dict[str, list[HistoryRow]] = field(default_factory=dict)
    note: str = "no history database was given"


def read_history(runs: list[Run], db: Path | None) -> History:
    """The card metrics recorded for the study of ``runs``; a history that cannot be read is a note, not a
    failed report (the report does not need it)."""
    if db is None:
        return History()
    if not db.exists():
        return History(note=f"no history is recorded ({db} does not exist)")
    by_card: dict[str, list[HistoryRow]] = defaultdict(list)
    try:
        for sid in sorted({study_id(run.manifest) for run in runs}):
            for row in metric_history(db, study=sid):
                if row.metric in TREND_METRICS and row.value is not None:
                    by_card[row.subject].append(row)
    except UserError as e:
        return History(note=f"the history was not read: {e}")
    return History(dict(by_card), f"recorded runs of this study in {db}")


def series_cell(row: HistoryRow) -> tuple[str, str]:
    """(deck, player) of a card metric's context: ``deck, strategy``, after ``arm; `` for an ablation arm."""
    deck, _, strategy = row.context.rpartition("; ")[2].partition(", ")
    return deck, strategy


def _label(key: tuple[str, str]) -> str:
    mode, context = key
    return f"{mode} · {context}"


def trend_chart(chart_id: str, metric: str, rows: list[HistoryRow]) -> Chart:
    """One metric's recorded values over the latest runs: one line per form and cell, 95% intervals as
    whiskers."""
    recorded = sorted({(r.recorded_at, r.run_path) for r in rows})
    runs = recorded[-LATEST:]
    shown = set(runs)
    rows = [r for r in rows if (r.recorded_at, r.run_path) in shown]
    x_of = {run: i for i, run in enumerate(runs)}
    series: dict[tuple[str, str], list[HistoryRow]] = defaultdict(list)
    for r in rows:
        series[(r.mode, r.context)].append(r)
    values = [v for r in rows for v in (r.value, r.low, r.high) if v is not None] + [0.0]
    lo, hi = min(values), max(values)
    pad = (hi - lo) * 0.08 or 0.05
    lo, hi = lo - pad, hi + pad
    plot_w = WIDTH - LEFT - 16
    step = plot_w / max(len(runs) - 1, 1)

    def x(i: int) -> float:
        return LEFT + (i * step if len(runs) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + PLOT_H * (hi - v) / (hi - lo)

    body = []
    for t in charts._ticks(lo, hi, 4):
        body.append(f'<line x1="{LEFT}" x2="{WIDTH - 16}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="{charts.GRID}"/>')
        body.append(charts._text(LEFT - 6, y(t) + 3, f"{100 * t:+.0f}" if t else "0", "end", 10))
    body.append(f'<line x1="{LEFT}" x2="{WIDTH - 16}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="{charts.NEUTRAL}"/>')
    for i in sorted({0, len(runs) - 1}):
        anchor = "start" if i == 0 and len(runs) > 1 else "end" if i else "middle"
        body.append(charts._text(x(i), TOP + PLOT_H + 13, f"{runs[i][0]:%Y-%m-%d %H:%M}", anchor, 10))
    legend_y = TOP + PLOT_H + 30
    for n, (key, points) in enumerate(sorted(series.items())):
        colour = charts.SERIES[n % len(charts.SERIES)]
        deck, strategy = series_cell(points[0])
        parts = []
        coords = [(x(x_of[(p.recorded_at, p.run_path)]), p) for p in sorted(points, key=lambda p: p.recorded_at)]
        if len(coords) > 1:
            path = " ".join(f"{px:.1f},{y(p.value):.1f}" for px, p in coords)  # type: ignore[arg-type]
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.6"/>')
        for px, p in coords:
            tip = f"{_label(key)}, {p.recorded_at:%Y-%m-%d %H:%M}: {100 * p.value:+.1f} points"  # type: ignore[operator]
            if p.low is not None and p.high is not None:
                tip += f" ({100 * p.low:+.1f} to {100 * p.high:+.1f}), n={p.n:,}" if p.n else ""
                parts.append(f'<line x1="{px:.1f}" x2="{px:.1f}" y1="{y(p.low):.1f}" y2="{y(p.high):.1f}" '
                             f'stroke="{colour}" stroke-opacity="0.55"/>')
            parts.append(f'<circle cx="{px:.1f}" cy="{y(p.value):.1f}" r="3" fill="{colour}">'  # type: ignore[arg-type]
                         f"<title>{escape(tip)}</title></circle>")
        ly = legend_y + n * LEGEND_H
        parts.append(f'<rect x="{LEFT}" y="{ly - 8}" width="10" height="10" fill="{colour}"/>')
        parts.append(charts._text(LEFT + 16, ly + 1, _label(key), size=11))
        body.append(f'<g class="filterable series" data-mode="{escape(key[0])}" data-deck="{escape(deck)}" '
                     f'data-strategy="{escape(strategy)}">' + "".join(parts) + "</g>")
    height = legend_y + len(series) * LEGEND_H
    latest = f"the latest {len(runs)} of {len(recorded)}" if len(recorded) > len(runs) else f"{len(runs)}"
    title = f"{TREND_METRICS[metric]}, over {latest} recorded run{'s' if len(runs) != 1 else ''}"
    note = f"{DEFINITIONS[metric].meaning}; in points, with 95% intervals."
    return Chart(chart_id, title, charts._svg(WIDTH, height, title, body), note)


def card_trends(card_id: str, chart_id: str, history: History) -> list[Chart]:
    """The card's trend charts, strongest metric first; none when the history holds nothing of it."""
    rows = history.rows.get(card_id, [])
    return [trend_chart(f"{chart_id}-{metric.replace('_', '-')}", metric, [r for r in rows if r.metric == metric])
            for metric in TREND_METRICS if any(r.metric == metric for r in rows)]
