"""A melee-only and a team-only report in Debian's headless Chromium: their sections draw every chart they
declare (each with its rows laid out), every id of the page is unique, and a wide table scrolled sideways keeps
its first column in view."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reports.build import write_report
from reports.model import Chart
from tests.test_melee import make_melee_run
from tests.test_reports_browser import chromium
from tests.test_teams_report import make_team_run

PROBE = """<script>
window.addEventListener("load", function () {
  var root = document.documentElement, section = document.getElementById(root.getAttribute("data-section"));
  var svgs = section.querySelectorAll("svg.chart"), drawn = 0, rows = 0;
  Array.prototype.forEach.call(svgs, function (svg) {
    var box = svg.getBoundingClientRect(), groups = svg.querySelectorAll("g.row");
    var laid = Array.prototype.filter.call(groups, function (g) {
      var b = g.getBBox(); return b.width > 0 && b.height > 0; });
    rows += laid.length;
    if (box.width > 0 && box.height > 0 && groups.length && laid.length === groups.length) drawn += 1;
  });
  root.setAttribute("data-charts", svgs.length + " " + drawn + " " + rows);
  var seen = {}, repeated = [];
  Array.prototype.forEach.call(document.querySelectorAll("[id]"), function (e) {
    if (seen[e.id]) repeated.push(e.id);
    seen[e.id] = true;
  });
  root.setAttribute("data-repeated", repeated.join(" ") || "none");
  var table = document.getElementById(root.getAttribute("data-wide")), scroller = table.parentElement;
  var first = table.tBodies[0].rows[0].cells[0], second = table.tBodies[0].rows[0].cells[1];
  var before = second.getBoundingClientRect().left;
  scroller.scrollLeft = 300;
  var held = Math.abs(first.getBoundingClientRect().left - scroller.getBoundingClientRect().left) <= 2;
  var head = Math.abs(table.tHead.rows[0].cells[0].getBoundingClientRect().left
                      - scroller.getBoundingClientRect().left) <= 2;
  root.setAttribute("data-scroll", scroller.scrollLeft + " " + (before - second.getBoundingClientRect().left)
                    + " " + held + " " + head);
});
</script></body>"""


def build(tmp_path_factory: pytest.TempPathFactory, kind: str) -> tuple[Path, list[Chart]]:
    base = tmp_path_factory.mktemp(kind)
    run = make_melee_run(base / "run", 60) if kind == "melee" else make_team_run(base / "run", 48)
    report = write_report([run], html=base / "report.html")
    section = "melee" if kind == "melee" else "teams"
    assert [s.id for s in report.sections] == ["overview", section]  # no duel sections
    return base / "report.html", [b for s in report.sections if s.id == section for b in s.blocks
                                  if isinstance(b, Chart)]


@pytest.fixture(scope="module")
def melee_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Chart]]:
    return build(tmp_path_factory, "melee")


@pytest.fixture(scope="module")
def team_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Chart]]:
    return build(tmp_path_factory, "teams")


@pytest.mark.parametrize("kind, section, wide", [("melee", "melee", "t-melee_beings"),
                                                 ("teams", "teams", "t-team_beings")])
def test_the_section_draws_its_charts_with_unique_ids_and_a_held_first_column(
        kind: str, section: str, wide: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    page, declared = request.getfixturevalue("melee_page" if kind == "melee" else "team_page")
    probed = tmp_path / "probe.html"
    html = page.read_text().replace("<html", f'<html data-section="{section}" data-wide="{wide}"', 1)
    probed.write_text(html.replace("</body>", PROBE))
    dom, console = chromium(probed, "--dump-dom", "--window-size=1000,900")
    assert console == []
    assert re.search(r'<html[^>]*data-ready="yes"', dom), "the page script did not finish"
    charts, drawn, rows = map(int, re.search(r'data-charts="(\d+) (\d+) (\d+)"', dom).groups())
    assert charts == drawn == len(declared) >= 6  # every declared chart is in the page with all its rows laid out
    assert rows == sum(c.svg.count('<g class="row"') for c in declared)
    assert 'data-repeated="none"' in dom
    scrolled, moved, held, head = re.search(r'data-scroll="(\d+) ([\d.]+) (\w+) (\w+)"', dom).groups()
    assert int(scrolled) == 300 and float(moved) == pytest.approx(300, abs=2)  # the table scrolled sideways
    assert (held, head) == ("true", "true")  # and its first column stayed at the left edge
