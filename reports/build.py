"""Build the report from run directories and write it as HTML, Markdown and CSV."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import duckdb

from reports.analysis import ablation_records, card_records, estimates, task_deck_records, task_records
from reports.card_pages import card_pages
from reports.dataset import Run, open_runs
from reports.levels import strength_levels
from reports.model import Report
from reports.names import Names
from reports.pooling import ALLOW_MIXED_FLAG, check_pooling, mix_kinds
from reports.queries import run_queries
from reports.sections_ablation import ablation_section
from reports.sections_cards import beings_section, flares_section, legends_section
from reports.sections_games import games_section, overview_section
from reports.sections_levels import levels_section
from reports.sections_melee import melee_data, melee_section, melee_summary
from reports.sections_skill import skill_depth, skill_section, skill_summary
from reports.sections_tasks import tasks_section
from reports.sections_teams import team_data, team_section, team_summary
from reports.stats import flag
from reports.summary import what_stands_out
from reports.trends import read_history
from sim.cards import load_card_set


def _labels(rows: list[dict], key: str) -> str:
    return ", ".join(sorted({str(r[key]) for r in rows}))


def _input_notes(runs: list[Run], mix: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """The header's facts and the summary's first lines about the input: a mix of conditions pooled on
    request (reports.pooling), and what an older run's schema version lacks (reports.legacy)."""
    facts, lines = [], []
    if mix:
        facts.append(("Pooled runs differ", f"{'; '.join(mix)}; pooled with {ALLOW_MIXED_FLAG}"))
        lines.append(f"These runs differ in their {mix_kinds(mix)} and are pooled ({ALLOW_MIXED_FLAG}): every "
                     f"figure over more than one run mixes them (the header says how they differ).")
    older = [(run, lack) for run in runs for lack in run.lacks]
    if older:
        facts.append(("Older runs", "; ".join(f"{run.label} (schema {run.schema_version}): {lack}"
                                              for run, lack in older)))
        lines += [f"{run.label} is a schema {run.schema_version} run: {lack}." for run, lack in older]
    return facts, lines


def build_report(paths: list[Path], cards_dir: Path | None = None, allow_mixed: bool = False,
                 history: Path | None = None) -> Report:
    """The report over the runs at ``paths``; runs that cannot be pooled are refused (reports.pooling), runs
    of different card sets, players or code only pooled with ``allow_mixed``. The card pages show each card's
    trend from the ``history`` database (none: no trends)."""
    runs, con = open_runs(paths)  # the one connection of every part of the report
    where = ", ".join(str(run.path) for run in runs)
    try:
        return _build(runs, con, where, cards_dir, allow_mixed, history)
    finally:
        con.close()


def _build(runs: list[Run], con: duckdb.DuckDBPyConnection, where: str, cards_dir: Path | None,
           allow_mixed: bool, history: Path | None) -> Report:
    mix = check_pooling(runs, allow_mixed)
    q = run_queries(con, where)
    input_facts, input_lines = _input_notes(runs, mix)
    card_set = load_card_set(cards_dir)
    names = Names(card_set)
    melee = melee_data(runs, names, where, con)
    teams = team_data(runs, names, where, con)
    cards = card_records(q, names)
    tasks = task_records(q, names)
    by_deck = task_deck_records(q, names)
    ablation, ablation_opp = ablation_records(q, names)
    flag(estimates(cards) + estimates(by_deck))  # the randomized family (descriptive ones are not tested)
    flag(estimates(ablation))
    flag(estimates(ablation_opp))
    covered = q | {key: q[key] + (melee.q[of] if melee else []) + (teams.q[of_teams] if teams else [])
                   for key, of, of_teams in (("overview", "melee_overview", "team_overview"),
                                             ("deck_baseline", "deck_baseline", "deck_baseline"))}
    sections = [overview_section(runs, covered)]
    levels = None
    skill: list[str] = []  # the skill-depth headlines
    if q["overview"]:  # the duels' sections
        sections += [games_section(q), beings_section(cards, ablation), legends_section(cards, ablation),
                     flares_section(cards, ablation)]
        if tasks:
            sections.append(tasks_section(tasks, by_deck))
        if ablation:
            sections.append(ablation_section(ablation, ablation_opp))
        levels = strength_levels(runs, q, names, where, con)
        if levels is not None:
            depth = skill_depth(q, levels.names)
            sections += [levels_section(levels), skill_section(depth)]
            skill = skill_summary(depth)
    if melee:
        sections.append(melee_section(melee))
    if teams:
        sections.append(team_section(teams, names))
    summary = (input_lines + what_stands_out(q, cards, tasks, by_deck, ablation, levels) + skill
               + (melee_summary(melee) if melee else []) + (team_summary(teams) if teams else []))
    q = covered
    fingerprints = {fp for r in q["overview"] for fp in r["card_sets"]}
    names_note = f"{'built-in card set' if cards_dir is None else cards_dir} ({card_set.fingerprint()})"
    if fingerprints != {card_set.fingerprint()}:
        names_note += "; the runs used other card sets: " + ", ".join(sorted(fingerprints))
    facts = [
        ("Runs", ", ".join(run.label for run in runs)),
        ("Games", f"{sum(r['games'] for r in q['overview']):,}"),
        ("Forms", _labels(q["overview"], "mode")),
        ("Decks", _labels(q["deck_baseline"], "deck")),
        ("Strategies", _labels(q["deck_baseline"], "strategy")),
        ("Card names from", names_note),
        *input_facts,
        ("Statistics", "95% Wilson intervals (scipy); differences with Newcombe intervals, paired t intervals "
                       "(ablation) and OLS slopes (position); flags by Benjamini-Hochberg at a 5% false "
                       "discovery rate, one family for the randomized estimates and one per ablation table (across "
                       "strength levels, one for the deck pairings' edges and one for the changes between levels, "
                       "Cochran's Q); descriptive columns are never tested"),
        ("Generated", datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")),
    ]
    title = "Balance report: " + ", ".join(run.label for run in runs)
    records = cards + by_deck + (melee.cards if melee else []) + (teams.cards if teams else [])
    source = "built-in card set" if cards_dir is None else f"card set {cards_dir}"
    pages = card_pages(sections, card_set, source, runs, fingerprints, records, ablation, read_history(runs, history))
    return Report(title, facts, summary, sections, pages)


def write_report(paths: list[Path], html: Path | None = None, md: Path | None = None,
                 csv_dir: Path | None = None, cards_dir: Path | None = None, allow_mixed: bool = False,
                 history: Path | None = None) -> Report:
    from reports.render_csv import write_csv
    from reports.render_html import render_html
    from reports.render_md import render_markdown

    report = build_report(paths, cards_dir, allow_mixed, history)
    if html is not None:
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text(render_html(report), encoding="utf-8")
    if md is not None:
        md.parent.mkdir(parents=True, exist_ok=True)
        md.write_text(render_markdown(report), encoding="utf-8")
    if csv_dir is not None:
        write_csv(report, csv_dir)
    return report
