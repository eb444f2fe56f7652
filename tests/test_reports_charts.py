"""The report's charts: the melee and team sections chart their estimates with the tables' numbers, long plots
carry their axis at the top too, legends name only what is drawn, and a report of duels, melees and team games
together gives every element a different id."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from reports import charts
from reports.build import build_report, write_report
from reports.model import Chart, Report, Table
from reports.sections_tasks import tasks_section
from reports.stats import Rate
from tests.test_melee import make_melee_run
from tests.test_reports import make_run
from tests.test_teams_report import _pass_run, make_team_run

ROW = re.compile(r'<g class="row" data-value="([^"]+)" data-lo="([^"]+)" data-hi="([^"]+)"><title>([^<]*)</title>')


def chart_rows(chart: Chart) -> list[tuple[float, float, float, str]]:
    """Each drawn row's value, interval and tooltip, top to bottom."""
    return [(float(v), float(lo), float(hi), tip) for v, lo, hi, tip in ROW.findall(chart.svg)]


def block(report: Report, block_id: str) -> Table | Chart:
    return next(b for s in report.sections for b in s.blocks if b.id == block_id)


def charts_of(report: Report, section: str) -> list[Chart]:
    return [b for s in report.sections if s.id == section for b in s.blocks if isinstance(b, Chart)]


@pytest.fixture(scope="module")
def melee(tmp_path_factory: pytest.TempPathFactory) -> Report:
    return build_report([make_melee_run(tmp_path_factory.mktemp("melee") / "run", 60)])


@pytest.fixture(scope="module")
def teams(tmp_path_factory: pytest.TempPathFactory) -> Report:
    return build_report([make_team_run(tmp_path_factory.mktemp("teams") / "run", 48)])


def test_the_melee_charts_show_the_tables_win_rates_and_colour_scores(melee: Report) -> None:
    ids = {c.id for c in charts_of(melee, "melee")}
    assert {"melee-positions-melee-3", "melee-positions-melee-4", "melee-decks-melee-3", "melee-colours-chart",
            "melee-decided-chart", "strength-being-melee-3-random", "early-access-legend-melee-4-random"} <= ids
    positions = block(melee, "melee_positions")
    for mode in ("melee-3", "melee-4"):
        table = [r for r in positions.rows if r["mode"] == mode]
        drawn = chart_rows(block(melee, f"melee-positions-{mode}"))
        assert len(drawn) == len(table) == int(mode[-1])
        for (value, lo, hi, tip), r in zip(drawn, table, strict=True):
            assert (value, lo, hi) == pytest.approx((r["win"].value, *r["win"].interval), abs=1e-5)
            assert tip.startswith(f"{mode}, place {r['position']}: ")
        assert "(dashed: fair share, 1 in" in block(melee, f"melee-positions-{mode}").svg
    colours = {r["mode"]: r for r in block(melee, "melee_colours").rows}
    colour_chart = block(melee, "melee-colours-chart")
    drawn = {tip.split(":")[0]: (value, lo, hi) for value, lo, hi, tip in chart_rows(colour_chart)}
    for mode, r in colours.items():
        value, lo, hi = drawn[f"{mode}, lowest colour"]
        assert value == pytest.approx(r["mean_lowest"], abs=1e-5) and lo < value < hi
    assert "melee-3, middle colour" not in drawn and "melee-4, middle colour" in drawn  # 3 players: no middle


def test_the_team_charts_show_the_turn_order_estimate_and_the_cards(teams: Report) -> None:
    order = block(teams, "team_order")
    drawn = chart_rows(block(teams, "team-order-chart"))
    assert len(drawn) == len(order.rows) == 2
    for (value, lo, hi, tip), r in zip(drawn, order.rows, strict=True):
        assert (value, lo, hi) == pytest.approx((r["effect"].value, *r["effect"].interval), abs=1e-5)
        assert tip.startswith(f"{r['mode']}: first team ")
    ids = {c.id for c in charts_of(teams, "teams")}
    assert {"team-results-team-deathmatch", "strength-being-team-deathmatch-random"} <= ids
    being = block(teams, "strength-being-team-deathmatch-random")
    table = {(r["card"], r["deck"]): r["position_effect"] for r in block(teams, "team_beings").rows
             if r["mode"] == "team-deathmatch"}
    for value, lo, hi, tip in chart_rows(being)[:5]:
        card, deck = re.match(r"(.+) \((\w+)\): ", tip).groups()
        assert (value, lo, hi) == pytest.approx((table[card, deck].value, *table[card, deck].interval), abs=1e-5)


def test_the_gain_of_passing_is_charted_with_its_interval(tmp_path: Path) -> None:
    report = build_report([_pass_run(tmp_path / "planted", 400, 0.6, balanced=True)])
    [row] = block(report, "team_pass_effect").rows
    [(value, lo, hi, tip)] = chart_rows(block(report, "team-pass-effect-chart"))
    assert (value, lo, hi) == pytest.approx((row["effect"].value, *row["effect"].interval), abs=1e-5)
    assert tip.endswith(", controlled") and "(descriptive)" not in block(report, "team-pass-effect-chart").svg


def axis_labels(svg: str) -> list[str]:
    return re.findall(r'font-size="10" fill="[^"]+" font-weight="normal">([^<]+)</text>', svg)


def test_a_long_forest_plot_carries_its_axis_at_the_top_too() -> None:
    def rows(n: int) -> list[charts.Interval]:
        return [charts.Interval(f"card {i}", 0.01 * (i % 9), 0.01 * (i % 9) - 0.1, 0.01 * (i % 9) + 0.1)
                for i in range(n)]

    short, long = charts.forest("short", rows(charts.LONG_PLOT), "points"), charts.forest("long", rows(40), "points")
    ticks = len(axis_labels(short))
    assert ticks >= 3 and len(axis_labels(long)) == 2 * ticks
    assert 'aria-label="long"' in long and "<title>long</title>" in long


def test_labels_longer_than_the_label_column_widen_it() -> None:
    label = "highland+imperial (random+random) vs imperial+sylvan (random+random)"
    svg = charts.bars("wide", [charts.Interval(label, 0.5, 0.4, 0.6)], "win rate")
    left = float(re.search(r'<rect x="([\d.]+)"', svg).group(1))
    assert left >= len(label) * charts.LABEL_CHAR_W


def test_the_task_chart_names_orange_bars_only_when_it_draws_them() -> None:
    def record(task: str, claimed: int, status: str) -> dict:
        return {"pairing": "random-random", "task": task, "claim_rate": Rate(claimed, 40), "status": status}

    def note(records: list[dict]) -> str:
        return block(Report("", [], [], [tasks_section(records, [])]), "claims-random-random").note

    assert note([record("Assault", 20, ""), record("Siege", 12, "")]) == ""
    assert note([record("Assault", 20, ""), record("Siege", 0, "never claimed")]) == "Orange: rarely or never claimed."


class Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id":
                self.ids[value or ""] += 1
            elif name == "href" and value and value.startswith("#"):
                self.links.append(value[1:])


def test_every_id_of_a_report_of_duels_melees_and_team_games_is_unique(tmp_path: Path) -> None:
    runs = [make_run(tmp_path / "duels", games=48, seed=3, shards=1), make_melee_run(tmp_path / "melee", 30),
            make_team_run(tmp_path / "teams", 24)]
    report = write_report(runs, html=tmp_path / "r.html")
    assert {"games", "beings", "legends", "flares", "tasks", "melee", "teams"} <= {s.id for s in report.sections}
    page = Ids()
    page.feed((tmp_path / "r.html").read_text())
    assert len(page.ids) > 50
    assert [i for i, n in page.ids.items() if n > 1] == []
    anchors = {link for link in page.links if "=" not in link}  # "#card=..." links set the view, not a place
    assert anchors <= set(page.ids)  # every link of the contents finds its section
