"""The report as data: sections of tables and charts, rendered to HTML, Markdown and CSV alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reports.stats import Diff, Rate

# Column kinds: how a cell's value is shown, sorted and exported.
TEXT, INT, NUM, SHARE, RATE, DIFF, POINTS = "text", "int", "num", "share", "rate", "diff", "points"


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    kind: str = TEXT
    note: str = ""  # what the column means, shown as a tooltip
    digits: int = 1  # decimals for NUM


@dataclass
class Table:
    id: str  # also the CSV file name
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]
    note: str = ""


@dataclass
class Chart:
    id: str
    title: str
    svg: str  # built by reports.charts, every text in it already escaped
    note: str = ""


@dataclass
class Section:
    id: str
    title: str
    intro: str = ""
    blocks: list[Table | Chart] = field(default_factory=list)


@dataclass
class CardPage:
    """One card as its page in the HTML report shows it (reports/card_pages.py)."""

    id: str
    name: str
    kind: str  # e.g. "heroic being, etherweave deck"
    grid: list[list[str]]  # the pattern's rows of tokens, as ``tashkalar cards`` prints them; empty: none
    texts: list[str]  # its own effect texts
    notes: list[str]  # which card set the texts are from, where they may differ from the games'
    estimates: Table | None  # its estimates in this report
    trends: list[Chart]  # its measured effects over the recorded history
    trend_note: str  # why there is no trend, or where it was read


@dataclass
class Report:
    title: str
    facts: list[tuple[str, str]]  # (label, value) lines under the title
    summary: list[str]  # "what stands out", plain sentences
    sections: list[Section]
    cards: list[CardPage] = field(default_factory=list)  # the card pages of the HTML report

    def tables(self) -> list[Table]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Table)]


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def rate_text(r: Rate) -> str:
    """``52.3% (49.1–55.4%, n=1,234)``: a rate with its 95% interval and sample size."""
    if not r.n:
        return "– (n=0)"
    lo, hi = r.interval
    return f"{pct(r.value)} ({100 * lo:.1f}–{100 * hi:.1f}%, n={r.n:,})"


def diff_text(d: Diff) -> str:
    """``+5.2 pp (2.1 to 8.3)``, and the q-value when it is flagged."""
    if d.value is None:
        return "–"
    lo, hi = d.interval
    text = f"{100 * d.value:+.1f} pp ({100 * lo:+.1f} to {100 * hi:+.1f})"
    return text + (f" q={d.q:.2g}" if d.flagged and d.q is not None else "")


def plain(value: Any, column: Column) -> str:
    """The cell as plain text (Markdown, summaries)."""
    if value is None:
        return "–"
    if column.kind == RATE:
        return rate_text(value)
    if column.kind == DIFF:
        return diff_text(value)
    if column.kind == POINTS:
        return f"{100 * value:.1f} pp"
    if column.kind == SHARE:
        return pct(value)
    if column.kind == INT:
        return f"{value:,}"
    if column.kind == NUM:
        return f"{value:.{column.digits}f}"
    return str(value)
