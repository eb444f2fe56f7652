"""The HTML report in Debian's headless Chromium: it renders its tables and charts, runs its script without
errors, sorts a table on a click, and needs nothing from the network."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

from reports.build import write_report
from tests.test_reports import make_run

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
OFFLINE = ["--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9"]  # any fetch would fail


def chromium(page: Path, *mode: str, fragment: str = "") -> tuple[str, list[str]]:
    """Run headless Chromium on ``page`` (opened at ``#fragment``, if any) with a fresh profile; its stdout and
    the page's console messages."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *OFFLINE, *mode,
             page.as_uri() + (f"#{fragment}" if fragment else "")],
            capture_output=True, text=True, timeout=120)
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, console


def png_size_and_colours(path: Path) -> tuple[int, int, int]:
    """Width, height and the number of distinct byte values in the image data (a blank page has few)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos < len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        if data[pos + 4:pos + 8] == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return width, height, len(set(zlib.decompress(idat)))


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("browser")
    run = make_run(tmp / "run", games=72, seed=21, shards=1)
    write_report([run], html=tmp / "report.html")
    return tmp / "report.html"


PROBE = """<script>
window.addEventListener("load", function () {
  var requested = performance.getEntriesByType("resource").map(function (e) { return e.name; });
  document.documentElement.setAttribute("data-requested", requested.join(" ") || "nothing");
  var table = document.getElementById("t-beings");
  if (!table) return;
  var header = table.tHead.rows[0].cells[4];  // games in hand
  header.click();
  var values = Array.prototype.map.call(table.tBodies[0].rows, function (r) {
    return parseFloat(r.cells[4].getAttribute("data-v")); });
  var sorted = values.every(function (v, i) { return i === 0 || values[i - 1] >= v; });
  document.documentElement.setAttribute("data-sorted", sorted && header.getAttribute("aria-sort"));
});
</script></body>"""


def probe(html: str, tmp_path: Path) -> tuple[str, list[str]]:
    """The page with PROBE appended: it records what the page requested and sorts the beings table."""
    probed = tmp_path / "probe.html"
    probed.write_text(html.replace("</body>", PROBE))
    return chromium(probed, "--dump-dom")


def test_page_renders_sorts_and_requests_nothing(page: Path, tmp_path: Path) -> None:
    dom, console = probe(page.read_text(), tmp_path)
    assert console == []  # no script error, no blocked request
    assert re.search(r'<html[^>]*data-ready="yes"', dom), "the page script did not finish"
    assert dom.count('<table class="sortable"') >= 12
    assert dom.count("<svg") >= 8
    assert re.search(r'class="count" data-table="t-beings">\d+ of \d+ rows<', dom)  # filled in by the script
    assert 'data-sorted="descending"' in dom
    assert 'data-requested="nothing"' in dom


def test_screenshot_shows_the_page(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    chromium(page, f"--screenshot={shot}", "--window-size=1280,1800")
    width, height, colours = png_size_and_colours(shot)
    assert (width, height) == (1280, 1800)
    assert colours > 50  # a blank or unstyled page has far fewer


def test_a_script_error_is_caught_by_the_console_check(tmp_path: Path) -> None:
    broken = tmp_path / "broken.html"
    broken.write_text("<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>")
    _, console = chromium(broken, "--dump-dom")
    assert any("undefinedFunction" in line for line in console)


def test_a_page_that_fetches_from_the_network_is_caught(tmp_path: Path) -> None:
    html = '<!DOCTYPE html><html><body><script src="https://cdn.example.com/x.js"></script></body></html>'
    dom, _ = probe(html, tmp_path)
    assert 'data-requested="https://cdn.example.com/x.js"' in dom
