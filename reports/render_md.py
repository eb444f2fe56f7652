"""The report as Markdown: the summary and every table; charts are only in the HTML page."""

from __future__ import annotations

import re

from reports.model import Report, Table, plain

_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|#])")


def md_escape(text: str) -> str:
    """Text from the data, made inert: Markdown and HTML punctuation backslash-escaped, lines joined."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def _table(t: Table) -> list[str]:
    lines = [f"### {md_escape(t.title)}", ""]
    if t.note:
        lines += [md_escape(t.note), ""]
    lines.append("| " + " | ".join(md_escape(c.label) for c in t.columns) + " |")
    lines.append("|" + "|".join("---" if c.kind == "text" else "---:" for c in t.columns) + "|")
    for row in t.rows:
        lines.append("| " + " | ".join(md_escape(plain(row.get(c.key), c)) for c in t.columns) + " |")
    return lines + [""]


def render_markdown(report: Report) -> str:
    lines = [f"# {md_escape(report.title)}", ""]
    lines += [f"- **{md_escape(k)}:** {md_escape(v)}" for k, v in report.facts]
    lines += ["", "## What stands out", ""] + [f"- {md_escape(s)}" for s in report.summary] + [""]
    for section in report.sections:
        lines += [f"## {md_escape(section.title)}", ""]
        if section.intro:
            lines += [md_escape(section.intro), ""]
        for block in section.blocks:
            if isinstance(block, Table):
                lines += _table(block)
    lines.append("Rates: value (95% Wilson interval, sample size). Differences: percentage points with their "
                 "95% interval (Newcombe's for two rates, t for paired ablation differences, OLS for the "
                 "position slope); q: Benjamini-Hochberg adjusted p-value of a flagged estimate. Columns "
                 "marked (descriptive) are never tested. Charts are in the HTML report.")
    return "\n".join(lines) + "\n"
