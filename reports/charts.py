"""Inline SVG charts: forest plots, bars with intervals, heat maps and distribution lines.

Every text that reaches the SVG goes through ``html.escape``; sizes are in CSS pixels. Each row of a forest
plot or bar chart carries its value and interval in ``data-value``, ``data-lo`` and ``data-hi``, so a test
(or a reader's script) can check the chart against the table beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

POSITIVE, NEGATIVE, NEUTRAL, INK, GRID = "#1b6fb5", "#c8541a", "#9aa3ad", "#1d2733", "#dde3ea"
SERIES = ("#1b6fb5", "#c8541a", "#2e8b57", "#7b4fb5", "#b5892e", "#3a9fa8")
LABEL_W, PLOT_W, ROW_H, PAD = 230, 440, 17, 28
LABEL_CHAR_W = 6.2  # the width of one character of an 11px label, near enough to size the label column
LONG_PLOT = 25  # rows above which the axis is drawn at the top as well as the bottom


@dataclass(frozen=True)
class Interval:
    """One row of a forest plot or bar chart: a value with its 95% interval."""

    label: str
    value: float
    lo: float
    hi: float
    flagged: bool = False
    note: str = ""  # tooltip text


def _svg(width: float, height: float, title: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="{escape(title)}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}">'
            f"<title>{escape(title)}</title>" + "".join(body) + "</svg>")


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 11, fill: str = INK,
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{fill}" '
            f'font-weight="{weight}">{escape(text)}</text>')


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    span = hi - lo
    raw = span / count
    steps = (s * 10 ** e for e in range(-4, 5) for s in (1, 2, 2.5, 5))
    step = min((s for s in steps if s >= raw), default=span)
    first = -(-lo // step) * step
    out, v = [], first
    while v <= hi + 1e-12:
        out.append(round(v, 10))
        v += step
    return out


def _axis(scale, lo: float, hi: float, top: float, bottom: float, fmt, at_top: bool = False) -> list[str]:
    """Grid lines with tick labels under the plot, and over it too when ``at_top`` (a long plot)."""
    parts = []
    for t in _ticks(lo, hi):
        x = scale(t)
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top:.1f}" y2="{bottom:.1f}" stroke="{GRID}"/>')
        parts.append(_text(x, bottom + 13, fmt(t), "middle", 10))
        if at_top:
            parts.append(_text(x, top - 5, fmt(t), "middle", 10))
    return parts


def _frame(rows: Sequence[Interval]) -> tuple[float, float, bool]:
    """The left edge of the plot (past the longest label), its top, and whether it is long enough to carry
    its axis at the top as well."""
    left = max(LABEL_W, max((len(r.label) for r in rows), default=0) * LABEL_CHAR_W + 16)
    long = len(rows) > LONG_PLOT
    return left, (22 if long else 8), long


def _row(r: Interval, shapes: str) -> str:
    """One row's group: its tooltip, its numbers as data attributes, and its drawn shapes."""
    return (f'<g class="row" data-value="{r.value:.6g}" data-lo="{r.lo:.6g}" data-hi="{r.hi:.6g}">'
            f"<title>{escape(r.note or r.label)}</title>{shapes}</g>")


def signed_points(v: float) -> str:
    """A difference of rates as signed percentage points, with a plain 0 (never -0)."""
    points = round(100 * v)
    return f"{points:+d}" if points else "0"


def forest(title: str, rows: Sequence[Interval], x_label: str, fmt=signed_points) -> str:
    """Dots with 95% whiskers around a zero line; flagged rows coloured by direction, the rest grey."""
    lo = min([r.lo for r in rows] + [0.0])
    hi = max([r.hi for r in rows] + [0.0])
    if hi - lo < 1e-9:
        lo, hi = -0.01, 0.01
    pad = (hi - lo) * 0.04
    lo, hi = lo - pad, hi + pad
    left, top, long = _frame(rows)

    def scale(v: float) -> float:
        return left + (v - lo) / (hi - lo) * PLOT_W

    bottom = top + ROW_H * len(rows)
    body = _axis(scale, lo, hi, top, bottom, fmt, long)
    body.append(f'<line x1="{scale(0):.1f}" x2="{scale(0):.1f}" y1="{top}" y2="{bottom}" stroke="{INK}" '
                'stroke-width="1"/>')
    for i, r in enumerate(rows):
        y = top + ROW_H * i + ROW_H / 2
        colour = (POSITIVE if r.value > 0 else NEGATIVE) if r.flagged else NEUTRAL
        body.append(_row(r, _text(left - 8, y + 4, r.label, "end", 11, INK, "bold" if r.flagged else "normal")
                         + f'<line x1="{scale(r.lo):.1f}" x2="{scale(r.hi):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                           f'stroke="{colour}" stroke-width="2"/>'
                         + f'<circle cx="{scale(r.value):.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>'))
    body.append(_text(left + PLOT_W / 2, bottom + 28, x_label, "middle", 11))
    return _svg(left + PLOT_W + 20, bottom + PAD + 10, title, body)


def bars(title: str, rows: Sequence[Interval], x_label: str, fmt=lambda v: f"{100 * v:.0f}%",
         reference: tuple[float, str] | None = None) -> str:
    """Horizontal bars from zero with 95% whiskers; flagged rows in the accent colour. ``reference`` (value,
    label) draws a dashed line across the rows, such as a fair share."""
    most = max([r.hi for r in rows] + [reference[0] if reference else 0.0, 0.01])
    ticks = _ticks(0.0, most)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else most
    hi = ticks[-1] if ticks[-1] >= most else ticks[-1] + step  # end the axis on a tick
    left, top, long = _frame(rows)

    def scale(v: float) -> float:
        return left + v / hi * PLOT_W

    bottom = top + ROW_H * len(rows)
    body = _axis(scale, 0.0, hi, top, bottom, fmt, long)
    for i, r in enumerate(rows):
        y = top + ROW_H * i
        colour = NEGATIVE if r.flagged else POSITIVE
        body.append(_row(r, _text(left - 8, y + ROW_H / 2 + 4, r.label, "end")
                         + f'<rect x="{left:.1f}" y="{y + 3:.1f}" width="{max(scale(r.value) - left, 0.5):.1f}" '
                           f'height="{ROW_H - 6}" fill="{colour}" opacity="0.8"/>'
                         + f'<line x1="{scale(r.lo):.1f}" x2="{scale(r.hi):.1f}" y1="{y + ROW_H / 2:.1f}" '
                           f'y2="{y + ROW_H / 2:.1f}" stroke="{INK}" stroke-width="1.2"/>'))
    if reference:
        x = scale(reference[0])
        body.append(f'<g class="reference"><title>{escape(reference[1])}: {escape(fmt(reference[0]))}</title>'
                    f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top - 3:.1f}" y2="{bottom + 3:.1f}" stroke="{INK}" '
                    'stroke-width="1" stroke-dasharray="4 3"/></g>')
        x_label = f"{x_label} (dashed: {reference[1]})"
    body.append(_text(left + PLOT_W / 2, bottom + 28, x_label, "middle", 11))
    return _svg(left + PLOT_W + 20, bottom + PAD + 10, title, body)


def _heat_colour(v: float) -> str:
    """White at 50%, towards blue above and orange below, saturating 15 points away."""
    t = max(-1.0, min(1.0, (v - 0.5) / 0.15))
    end = (27, 111, 181) if t > 0 else (200, 84, 26)
    r, g, b = (round(255 + (c - 255) * abs(t)) for c in end)
    return f"rgb({r},{g},{b})"


def heatmap(title: str, row_labels: Sequence[str], col_labels: Sequence[str],
            cells: dict[tuple[int, int], tuple[float, str]], corner: str = "") -> str:
    """A matrix of rates: cell (i, j) is (rate, tooltip); the rate is printed in the cell."""
    cw, ch, left, top = 92, 30, 110, 40
    body = [_text(left - 8, top - 14, corner, "end", 10)]
    for j, label in enumerate(col_labels):
        body.append(_text(left + cw * j + cw / 2, top - 14, label, "middle", 11, INK, "bold"))
    for i, label in enumerate(row_labels):
        y = top + ch * i
        body.append(_text(left - 8, y + ch / 2 + 4, label, "end", 11, INK, "bold"))
        for j in range(len(col_labels)):
            x = left + cw * j
            cell = cells.get((i, j))
            if cell is None:
                body.append(f'<rect x="{x}" y="{y}" width="{cw - 2}" height="{ch - 2}" fill="#f3f5f7"/>')
                continue
            value, tip = cell
            body.append(f'<g><title>{escape(tip)}</title><rect x="{x}" y="{y}" width="{cw - 2}" '
                        f'height="{ch - 2}" fill="{_heat_colour(value)}"/>'
                        + _text(x + cw / 2 - 1, y + ch / 2 + 4, f"{100 * value:.1f}%", "middle", 12) + "</g>")
    return _svg(left + cw * len(col_labels) + 10, top + ch * len(row_labels) + 10, title, body)


def lines(title: str, series: dict[str, Sequence[tuple[float, float]]], x_label: str, y_label: str,
          fmt_y=lambda v: f"{100 * v:.0f}%") -> str:
    """Distributions as lines with dots, one colour per series, with a legend."""
    points = [p for s in series.values() for p in s]
    if not points:
        return _svg(300, 40, title, [_text(10, 24, "no data")])
    x_lo, x_hi = min(p[0] for p in points), max(p[0] for p in points)
    y_hi = max(p[1] for p in points) * 1.08 or 1.0
    if x_hi == x_lo:
        x_lo, x_hi = x_lo - 1, x_hi + 1
    left, top, w, h = 56, 14, 560, 220

    def sx(v: float) -> float:
        return left + (v - x_lo) / (x_hi - x_lo) * w

    def sy(v: float) -> float:
        return top + h - v / y_hi * h

    body = []
    for t in _ticks(0.0, y_hi, 4):
        body.append(f'<line x1="{left}" x2="{left + w}" y1="{sy(t):.1f}" y2="{sy(t):.1f}" stroke="{GRID}"/>')
        body.append(_text(left - 6, sy(t) + 4, fmt_y(t), "end", 10))
    for t in _ticks(x_lo, x_hi, 8):
        body.append(_text(sx(t), top + h + 14, f"{t:g}", "middle", 10))
    body.append(f'<line x1="{left}" x2="{left + w}" y1="{top + h}" y2="{top + h}" stroke="{INK}"/>')
    for k, (name, pts) in enumerate(series.items()):
        colour = SERIES[k % len(SERIES)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in sorted(pts))
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in pts:
            body.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2.2" fill="{colour}">'
                        f'<title>{escape(f"{name}: {x:g} → {fmt_y(y)}")}</title></circle>')
        lx = left + w + 14
        ly = top + 12 + 18 * k
        body.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="12" fill="{colour}"/>'
                    + _text(lx + 18, ly + 1, name))
    body.append(_text(left + w / 2, top + h + 32, x_label, "middle", 11))
    body.append(f'<text transform="translate(14 {top + h / 2:.0f}) rotate(-90)" text-anchor="middle" '
                f'font-size="11" fill="{INK}">{escape(y_label)}</text>')
    return _svg(left + w + 150, top + h + 44, title, body)
