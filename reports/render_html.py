"""The report as one self-contained HTML page: inline CSS, script and SVG; nothing fetched from anywhere."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

from reports.card_pages import row_card
from reports.model import DIFF, INT, NUM, POINTS, RATE, SHARE, CardPage, Chart, Column, Report, Section, Table, pct
from reports.stats import Estimate, Rate
from sim.card_export import PATTERN_KEY

TEMPLATES = Path(__file__).parent / "templates"
FOOTER = ("Rates show the 95% Wilson interval and the sample size under the value; differences are in "
          "percentage points with Newcombe's interval. Click a column to sort it, a card to open its page. Metric "
          "definitions: docs/reports.md.")


def _num_attr(v: float | None) -> str:
    return "" if v is None else f"{v:.6g}"


def _empty(value: Any, column: Column) -> str:
    if column.kind == "text":
        return "<td>–</td>"
    n = '<span class="ci">n=0</span>' if isinstance(value, Rate) else ""
    return f'<td class="{column.kind}" data-v="">–{n}</td>'


def _rate(r: Rate) -> str:
    lo, hi = r.interval
    return (f'<td class="rate" data-v="{_num_attr(r.value)}"><span class="v">{pct(r.value)}</span>'
            f'<span class="ci">{100 * lo:.1f}–{100 * hi:.1f} · n={r.n:,}</span></td>')


def _diff(d: Estimate) -> str:
    lo, hi = d.interval
    value = d.value or 0.0
    classes = "diff" + (" flagged " + ("up" if value > 0 else "down") if d.flagged else "")
    q = f" · q={d.q:.2g}" if d.q is not None else ""
    return (f'<td class="{classes}" data-v="{_num_attr(value)}"><span class="v">{100 * value:+.1f}</span>'
            f'<span class="ci">{100 * lo:+.1f} to {100 * hi:+.1f}{q}</span></td>')


def _cell(value: Any, column: Column) -> str:
    """One table cell; numbers carry their sort key in data-v (empty when there is no value)."""
    kind = column.kind
    missing = isinstance(value, Rate) and not value.n or isinstance(value, Estimate) and not value.defined
    if value is None or missing:
        return _empty(value, column)
    if kind == RATE:
        return _rate(value)
    if kind == DIFF:
        return _diff(value)
    if kind == POINTS:
        return f'<td class="share" data-v="{_num_attr(value)}">{100 * value:.1f} pp</td>'
    if kind == SHARE:
        return f'<td class="share" data-v="{_num_attr(value)}">{pct(value)}</td>'
    if kind == INT:
        return f'<td class="int" data-v="{value}">{value:,}</td>'
    if kind == NUM:
        return f'<td class="num" data-v="{_num_attr(value)}">{value:.{column.digits}f}</td>'
    css = ' class="flags"' if column.key == "flags" else ""
    return f"<td{css}>{escape(str(value))}</td>"


FILTERS = (("mode", "form", "Form"), ("deck", "deck", "Deck"), ("strategy", "player", "Player level"))
NAME_KEYS = ("card", "task", "subject")  # the column that names a card's row: its link to the card's page


def _row(row: dict[str, Any], columns: list[Column]) -> str:
    """A table row: its form, deck and player as data attributes for the dropdowns; a card's row links its page."""
    attrs = "".join(f' data-{key}="{escape(row[key])}"' for key, _, _ in FILTERS if isinstance(row.get(key), str))
    card = row_card(row)
    cells = []
    for c in columns:
        if card is not None and c.key in NAME_KEYS and row.get(c.key):
            cells.append(f'<td><a class="card-link" href="#card={escape(card)}" data-card="{escape(card)}">'
                         f"{escape(str(row[c.key]))}</a></td>")
        else:
            cells.append(_cell(row.get(c.key), c))
    css = ' class="filterable"' if attrs else ""
    return f"<tr{css}{attrs}>" + "".join(cells) + "</tr>"


def _table(t: Table) -> str:
    head = "".join(f'<th data-kind="{c.kind}" title="{escape(c.note)}">{escape(c.label)}</th>'
                   for c in t.columns)
    body = "\n".join(_row(row, t.columns) for row in t.rows)
    tid = f"t-{t.id}"
    note = f'<p class="note">{escape(t.note)}</p>' if t.note else ""
    return (f'<div class="table-block"><h3>{escape(t.title)}</h3>{note}'
            f'<div class="table-tools"><input class="filter" type="search" data-table="{escape(tid)}" '
            f'placeholder="Filter rows (words)" aria-label="Filter {escape(t.title)}">'
            f'<span class="count" data-table="{escape(tid)}"></span></div>'
            f'<div class="scroll"><table class="sortable" id="{escape(tid)}"><thead><tr>{head}</tr></thead>'
            f"<tbody>\n{body}\n</tbody></table></div></div>")


def _chart(c: Chart) -> str:
    note = f'<p class="note">{escape(c.note)}</p>' if c.note else ""
    return f'<figure id="{escape(c.id)}"><figcaption>{escape(c.title)}</figcaption>{c.svg}{note}</figure>'


def _section(s: Section) -> str:
    intro = f'<p class="intro">{escape(s.intro)}</p>' if s.intro else ""
    blocks = "\n".join(_table(b) if isinstance(b, Table) else _chart(b) for b in s.blocks)
    return f'<section id="{escape(s.id)}"><h2>{escape(s.title)}</h2>{intro}\n{blocks}</section>'


def _filters(report: Report) -> str:
    """The dropdowns over every table: the forms, decks and player levels the report's rows show."""
    rows = [r for t in report.tables() for r in t.rows]
    out = []
    for key, name, label in FILTERS:
        values = sorted({r[key] for r in rows if isinstance(r.get(key), str) and r[key]})
        if not values:
            continue
        options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
        out.append(f'<label>{label} <select class="facet" data-key="{key}" data-name="{name}">'
                   f'<option value="">all</option>{options}</select></label>')
    if not out:
        return ""
    return ('<div class="filters" id="filters">' + "".join(out)
            + '<span class="note">Filters every table; the address keeps them, and the open card, to share '
              "the view.</span></div>")


def _pattern(grid: list[list[str]]) -> str:
    """The pattern as a grid of squares, each with the token ``tashkalar cards`` prints for it."""
    def square(token: str) -> str:
        classes = ["sq"] + (["summon"] if token.startswith("@") else [])
        rank = token.lstrip("@").rstrip("*+")
        classes += [f"rank-{rank}"] if rank in ("c", "h", "l") else []
        classes += ["marked"] if token.endswith("*") else ["marked-other"] if token.endswith("+") else []
        return f'<td class="{" ".join(classes)}">{escape("" if token == "." else token)}</td>'
    rows = "".join("<tr>" + "".join(square(t) for t in line) + "</tr>" for line in grid)
    key = PATTERN_KEY + (" + a second kind of marked square." if any("+" in t for r in grid for t in r) else "")
    return (f'<div class="pattern"><table class="pattern" aria-label="pattern">{rows}</table>'
            f'<p class="note">{escape(key)}</p></div>')


def _card_page(page: CardPage) -> str:
    pattern = _pattern(page.grid) if page.grid else ""
    texts = "".join(f"<p>{escape(t)}</p>" for t in page.texts)
    notes = "".join(f'<p class="note">{escape(n)}</p>' for n in page.notes)
    estimates = _table(page.estimates) if page.estimates is not None else ""
    trends = "".join(_chart(c) for c in page.trends)
    return (f'<article class="card-page" data-card-page="{escape(page.id)}" hidden>'
            f'<h2>{escape(page.name)}</h2><p class="kind">{escape(page.kind)} · <code>{escape(page.id)}</code></p>'
            f'<div class="card-face">{pattern}<div class="texts">{texts}</div></div>{notes}{estimates}'
            f'<div class="trend">{trends}<p class="note">{escape(page.trend_note)}</p></div></article>')


def _card_panel(pages: list[CardPage]) -> str:
    return ('<dialog id="card-panel" aria-label="Card"><form method="dialog"><button class="close">Close'
            "</button></form>" + "\n".join(_card_page(p) for p in pages) + "</dialog>") if pages else ""


def _body(report: Report) -> str:
    facts = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in report.facts)
    links = [("stands-out", "What stands out")] + [(s.id, s.title) for s in report.sections]
    toc = "".join(f'<a href="#{escape(i)}">{escape(t)}</a>' for i, t in links)
    summary = "".join(f"<li>{escape(line)}</li>" for line in report.summary)
    sections = "\n".join(_section(s) for s in report.sections)
    return (f"<header><h1>{escape(report.title)}</h1><dl class=\"facts\">{facts}</dl></header>"
            f'<nav class="toc">{toc}</nav>{_filters(report)}<main>'
            f'<section id="stands-out" class="summary"><h2>What stands out</h2><ul>{summary}</ul></section>\n'
            f"{sections}</main><footer>{escape(FOOTER)}</footer>{_card_panel(report.cards)}")


def render_html(report: Report) -> str:
    parts = {
        "title": escape(report.title),
        "style": (TEMPLATES / "report.css").read_text() + (TEMPLATES / "card_pages.css").read_text(),
        "script": (TEMPLATES / "report.js").read_text(),
        "body": _body(report),
    }
    template = (TEMPLATES / "report.html").read_text()
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], template)
