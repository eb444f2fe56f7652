"""The report's card pages in Debian's headless Chromium: a card row opens the card's pattern and own texts
(as ``tashkalar cards`` prints them), the dropdowns filter the tables, a card's trend is drawn from a real
history database, and the address keeps the view so that a link reproduces it."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime
from html import unescape
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.study import parse_study
from reports import trends
from reports.build import build_report, write_report
from reports.calibration import STRONG, planted_card_set, run_local, study_config
from reports.regression.history import HistoryRow, RunIdentity, metric_history, record_metrics
from reports.regression.summary import run_metrics
from sim.cli import app
from tests.test_reports import make_run
from tests.test_reports_browser import chromium

CARD = "highland/clan-guardian"  # a being with marked squares in its pattern


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two real runs of one study, both recorded in a history database; the report of the first with that
    history, and without any."""
    tmp = tmp_path_factory.mktemp("card-pages")
    runs = [make_run(tmp / name, games=72, seed=seed, shards=1) for name, seed in (("run", 21), ("later", 22))]
    db = tmp / "history.duckdb"
    for day, run in enumerate(runs, 1):
        manifest = json.loads((run / "manifest.json").read_text())
        record_metrics(db, str(run), run_metrics(run), RunIdentity.of_manifest(manifest), datetime(2026, 1, day))
    write_report([runs[0]], html=tmp / "report.html", history=db)
    write_report([runs[0]], html=tmp / "bare.html", history=tmp / "absent.duckdb")
    return {"report": tmp / "report.html", "bare": tmp / "bare.html", "history": db, "run": runs[0]}


def dom_at(page: Path, fragment: str) -> str:
    """The page's DOM after its script ran, opened at ``#fragment``; it must log nothing to the console."""
    dom, console = chromium(page, "--dump-dom", fragment=fragment)
    assert console == []
    assert re.search(r'<html[^>]*data-ready="yes"', dom), "the page script did not finish"
    return dom


def article(dom: str, card: str) -> str:
    found = re.search(rf'<article class="card-page" data-card-page="{re.escape(card)}"[^>]*>.*?</article>', dom,
                      re.S)
    assert found, card
    return found.group(0)


def table_rows(dom: str, table: str) -> list[str]:
    body = re.search(rf'<table class="sortable" id="{table}">.*?<tbody>(.*?)</tbody>', dom, re.S)
    assert body, table
    return re.findall(r"<tr[^>]*>", body.group(1))


def test_the_address_restores_filters_and_the_open_card(pages: dict[str, Path]) -> None:
    dom = dom_at(pages["report"], f"form=deathmatch&deck=highland&player=random&card={CARD}")
    assert re.search(r'<html[^>]*data-view="form=deathmatch&amp;deck=highland&amp;player=random&amp;card='
                     rf'{re.escape(CARD)}"', dom)
    assert re.search(r'<dialog id="card-panel"[^>]*\bopen\b', dom)
    assert 'hidden=""' not in article(dom, CARD).split(">", 1)[0]  # its page is shown, every other one hidden
    shown = re.findall(r'<article class="card-page" data-card-page="([^"]+)">', dom)
    assert shown == [CARD]
    rows = table_rows(dom, "t-beings")
    visible = [r for r in rows if "hidden" not in r]
    assert visible and len(visible) < len(rows)
    assert all('data-mode="deathmatch"' in r and 'data-deck="highland"' in r for r in visible)
    assert all("hidden" in r for r in rows if 'data-deck="highland"' not in r or 'data-mode="deathmatch"' not in r)
    assert re.search(rf'class="count" data-table="t-beings">{len(visible)} of {len(rows)} rows<', dom)


def test_an_unknown_value_in_the_address_falls_back_to_all(pages: dict[str, Path]) -> None:
    dom = dom_at(pages["report"], "deck=no-such-deck&card=no/such-card")
    assert re.search(r'<html[^>]*data-view=""', dom)
    assert not re.search(r'<dialog id="card-panel"[^>]*\bopen\b', dom)
    assert all("hidden" not in r for r in table_rows(dom, "t-beings"))


CLICKS = """<script>
window.addEventListener("load", function () {
  var root = document.documentElement, log = [];
  var link = document.querySelector('#t-beings a.card-link[data-card="%s"]');
  link.click();
  var panel = document.getElementById("card-panel");
  log.push(["opened", panel.open, location.hash]);
  var deck = document.querySelector('select.facet[data-name="deck"]');
  deck.value = "imperial";
  deck.dispatchEvent(new Event("change"));
  var rows = document.querySelectorAll("#t-beings tbody tr");
  var shown = Array.prototype.filter.call(rows, function (r) { return !r.hidden; });
  log.push(["filtered", shown.every(function (r) { return r.getAttribute("data-deck") === "imperial"; }),
            shown.length, rows.length, location.hash]);
  var words = document.querySelector('input.filter[data-table="t-beings"]');
  words.value = "no such words";
  words.dispatchEvent(new Event("input"));
  var none = Array.prototype.every.call(rows, function (r) { return r.hidden; });
  words.value = "";
  words.dispatchEvent(new Event("input"));
  var again = Array.prototype.filter.call(rows, function (r) { return !r.hidden; }).length;
  log.push(["words", none, again === shown.length]);
  panel.querySelector("button.close").click();
  setTimeout(function () {
    log.push(["closed", panel.open, location.hash]);
    root.setAttribute("data-log", JSON.stringify(log));
  }, 50);
});
</script></body>"""


def test_clicks_open_a_card_filter_the_tables_and_update_the_address(pages: dict[str, Path], tmp_path: Path) -> None:
    clicked = tmp_path / "clicked.html"
    clicked.write_text(pages["report"].read_text().replace("</body>", CLICKS % CARD))
    dom, console = chromium(clicked, "--dump-dom", "--virtual-time-budget=2000")
    assert console == []
    log = json.loads(unescape(re.search(r'data-log="([^"]*)"', dom).group(1)))
    assert log[0] == ["opened", True, f"#card={CARD}"]
    assert log[1][:2] == ["filtered", True] and 0 < log[1][2] < log[1][3]
    assert log[1][4] == f"#deck=imperial&card={CARD}"
    assert log[2] == ["words", True, True]  # the words filter on top of the dropdowns, and off again
    assert log[3] == ["closed", False, "#deck=imperial"]


def test_a_card_page_shows_the_pattern_and_texts_of_tashkalar_cards(pages: dict[str, Path]) -> None:
    html = pages["report"].read_text()
    page = article(html, CARD)
    cli = CliRunner().invoke(app, ["cards", "--deck", "highland"]).stdout
    block = next(b for b in cli.split("\n\n") if b.startswith(f"Clan Guardian ({CARD}, heroic)"))
    grid = [line.split() for line in block.splitlines()[1:] if line.startswith("    ")]
    texts = [line.strip() for line in block.splitlines()[1:] if not line.startswith("    ")]
    shown = [re.findall(r'<td class="sq[^"]*">([^<]*)</td>', row)
             for row in re.findall(r"<tr>(.*?)</tr>", page.split('<table class="pattern"')[1].split("</table>")[0])]
    assert shown == [[t if t != "." else "" for t in row] for row in grid]
    assert "marked" in page and "summon" in page  # the marked squares and the summoning square are styled
    assert [unescape(t) for t in re.findall(r'<div class="texts"><p>(.*?)</p></div>', page)] == texts
    assert "Texts from the built-in card set." in page
    assert f'<a class="card-link" href="#card={CARD}" data-card="{CARD}">Clan Guardian</a>' in html


def test_a_card_page_draws_its_trend_from_the_history(pages: dict[str, Path]) -> None:
    recorded = [r for r in metric_history(pages["history"]) if r.metric == "card_position_effect"]
    runs = Counter((r.subject, r.mode, r.context) for r in recorded)
    card, mode, context = next(key for key, n in sorted(runs.items()) if n == 2)
    deck = context.split(", ")[0]
    dom = dom_at(pages["report"], f"form={mode}&card={card}")
    page = article(dom, card)
    chart = re.search(r'<figure id="trend-[^"]+-card-position-effect">.*?</figure>', page, re.S)
    assert chart, "no trend chart of the card's position effect"
    series = re.findall(r'<g class="filterable series" data-mode="([^"]+)" data-deck="([^"]+)"[^>]*>(.*?)</g>',
                        chart.group(0), re.S)
    line = next(body for m, d, body in series if (m, d) == (mode, deck))
    assert line.count("<circle") == 2 and "<polyline" in line  # two recorded runs, joined, with intervals
    assert line.count("<line") == 2
    assert "over 2 recorded runs" in chart.group(0)
    hidden = [m for m, d, body in re.findall(r'<g class="filterable series" data-mode="([^"]+)" data-deck="([^"]+)"'
                                             r'([^>]*)>', page) if "display: none" in body]
    assert all(m != mode for m in hidden)  # the form filter hides the other forms' lines
    assert "Trend: recorded runs of this study in" in page


def test_without_a_history_a_card_page_says_none_is_recorded(pages: dict[str, Path]) -> None:
    page = article(pages["bare"].read_text(), CARD)
    assert "<svg" not in page.split('<div class="trend">')[1]
    assert "No trend: no measured effect of this card is recorded (no history is recorded" in page


def test_the_report_command_reads_the_history_at_tashkalar_history(pages: dict[str, Path], tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASHKALAR_HISTORY", str(pages["history"]))
    out = tmp_path / "cli.html"
    result = CliRunner().invoke(app, ["report", str(pages["run"]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = article(out.read_text(), CARD)
    assert f"Trend: recorded runs of this study in {pages['history']}." in page and "<svg" in page


def test_a_long_history_shows_its_latest_runs() -> None:
    rows = [HistoryRow(datetime(2026, 1, day), f"runs/r{day}", "card_position_effect", "randomized", "deathmatch",
                       CARD, "highland, builder", 0.01 * day, None, None, 100, None, None, None, "s", "id", "fp",
                       "builder", "code") for day in range(1, 26)]
    chart = trends.trend_chart("trend", "card_position_effect", rows)
    assert chart.title.endswith(f", over the latest {trends.LATEST} of 25 recorded runs")
    assert chart.svg.count("<circle") == trends.LATEST and "2026-01-06 00:00" in chart.svg  # the 6th to the 25th
    assert "2026-01-05" not in chart.svg


def test_an_ablation_run_of_another_card_set_says_whose_text_is_shown(tmp_path: Path) -> None:
    """A run of an edited card set with vanilla arms, reported with the built-in names: the pages say the
    runs played another set, and that the arms played the card changed."""
    cards_dir = planted_card_set(tmp_path / "cards")
    config = study_config(3, 8, "random", ["deathmatch"], [STRONG], "vanilla", str(cards_dir))
    run = run_local(parse_study(config, tmp_path / "study.toml"), tmp_path / "run")
    pages = {p.id: p for p in build_report([run]).cards}
    strong = pages[STRONG]
    assert strong.notes[0] == "Texts from the built-in card set."
    assert any(n.startswith("The runs played another card set (") for n in strong.notes)
    assert any(n.startswith("Its ablation arms (vanilla) played it changed") for n in strong.notes)
    assert any(r["measure"] == "ablation, vanilla arm" for r in strong.estimates.rows)
    same = {p.id: p for p in build_report([run], cards_dir).cards}[STRONG]
    assert same.notes[0] == f"Texts from the card set {cards_dir}." and len(same.notes) == 2


PLACE = """<script>
window.addEventListener("load", function () {
  var root = document.documentElement;
  var deck = document.querySelector('select.facet[data-name="deck"]');
  deck.value = "imperial";
  deck.dispatchEvent(new Event("change"));
  document.querySelector('a[href="#beings"]').click();
  setTimeout(function () { root.setAttribute("data-log", JSON.stringify([location.hash, deck.value])); }, 50);
});
</script></body>"""


def test_a_contents_link_keeps_the_filters_in_the_address(pages: dict[str, Path], tmp_path: Path) -> None:
    clicked = tmp_path / "place.html"
    clicked.write_text(pages["report"].read_text().replace("</body>", PLACE))
    dom, console = chromium(clicked, "--dump-dom", "--virtual-time-budget=2000")
    assert console == []
    assert json.loads(unescape(re.search(r'data-log="([^"]*)"', dom).group(1))) == ["#deck=imperial&at=beings",
                                                                                    "imperial"]


def test_a_shared_address_with_a_place_restores_the_filters_and_the_place(pages: dict[str, Path]) -> None:
    dom = dom_at(pages["report"], "deck=highland&at=beings")
    assert re.search(r'<html[^>]*data-view="deck=highland&amp;at=beings"', dom)
    assert re.search(r'<html[^>]*data-view="at=beings"', dom_at(pages["report"], "beings"))  # a plain anchor
