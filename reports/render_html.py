"""The report as one self-contained HTML page: inline CSS, script and SVG; nothing fetched from anywhere."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

from reports.model import DIFF, INT, NUM, POINTS, RATE, SHARE, Chart, Column, Report, Section, Table, pct
from reports.stats import Estimate, Rate

TEMPLATES = Path(__file__).parent / "templates"
FOOTER = ("Rates show the 95% Wilson interval and the sample size under the value; differences are in "
          "percentage points with Newcombe's interval. Click a column to sort it. Metric definitions: "
          "docs/reports.md.")


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


def _table(t: Table) -> str:
    head = "".join(f'<th data-kind="{c.kind}" title="{escape(c.note)}">{escape(c.label)}</th>'
                   for c in t.columns)
    body = "\n".join("<tr>" + "".join(_cell(row.get(c.key), c) for c in t.columns) + "</tr>"
                     for row in t.rows)
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


def _body(report: Report) -> str:
    facts = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in report.facts)
    links = [("stands-out", "What stands out")] + [(s.id, s.title) for s in report.sections]
    toc = "".join(f'<a href="#{escape(i)}">{escape(t)}</a>' for i, t in links)
    summary = "".join(f"<li>{escape(line)}</li>" for line in report.summary)
    sections = "\n".join(_section(s) for s in report.sections)
    return (f"<header><h1>{escape(report.title)}</h1><dl class=\"facts\">{facts}</dl></header>"
            f'<nav class="toc">{toc}</nav><main>'
            f'<section id="stands-out" class="summary"><h2>What stands out</h2><ul>{summary}</ul></section>\n'
            f"{sections}</main><footer>{escape(FOOTER)}</footer>")


def render_html(report: Report) -> str:
    parts = {
        "title": escape(report.title),
        "style": (TEMPLATES / "report.css").read_text(),
        "script": (TEMPLATES / "report.js").read_text(),
        "body": _body(report),
    }
    template = (TEMPLATES / "report.html").read_text()
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], template)
