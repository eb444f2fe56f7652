"""The README is the front door: short, starting with the two commands, its study file real, its links live."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipelines.study import load_study
from strategies import STRATEGIES, make_strategy
from strategies.registry import DEFAULT_STRATEGY

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
LINES = README.splitlines()
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _section(title: str) -> str:
    """The text of the README's ``## title`` section, up to the next ``## `` heading."""
    start = LINES.index(f"## {title}") + 1
    end = next((i for i in range(start, len(LINES)) if LINES[i].startswith("## ")), len(LINES))
    return "\n".join(LINES[start:end])


def _slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)  # no code blocks
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


def _default_claims(text: str, default: str, names: list[str]) -> list[str]:
    """The lines that call a strategy other than ``default`` the default ("the default `builder`",
    "`builder` (the default)", "builder is the default")."""
    found: set[str] = set()
    for name in names:
        if name == default:
            continue
        n = re.escape(name)
        for pattern in (rf"\bdefault\b[^.;|\n]{{0,20}}`{n}`", rf"\bdefault\s+(?:player\s+)?{n}\b",
                        rf"`?\b{n}\b`?[^.;|\n]{{0,12}}\bthe default\b", rf"\b{n}\b`?\s+is\s+the\s+default\b"):
            found |= {line for line in text.splitlines() if re.search(pattern, line, flags=re.I)}
    return sorted(found)


def test_readme_is_at_most_300_lines() -> None:
    assert len(LINES) <= 300


def test_readme_starts_with_the_two_commands() -> None:
    assert LINES[0] == "# tashkalar-balance"
    assert LINES[1:6] == ["", "```bash", LINES[3], LINES[4], "```"]
    assert LINES[3].startswith("bash scripts/quickstart.sh ")
    assert LINES[4].startswith("bash scripts/test.sh ")


def test_every_doc_is_in_the_index() -> None:
    index = set(LINK.findall(_section("Documentation")))
    docs = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert docs and docs <= index, sorted(docs - index)


def test_every_relative_link_points_to_an_existing_file_and_heading() -> None:
    targets = [t for t in LINK.findall(README) if not re.match(r"[a-z]+:", t)]
    assert targets
    for target in targets:
        path, _, anchor = target.partition("#")
        file = ROOT / path
        assert file.is_file(), target
        if anchor:
            assert anchor in _anchors(file), target


def test_the_study_shown_is_the_study_file_and_it_loads() -> None:
    blocks = list(re.finditer(r"^```toml\n(.*?)^```$", README, flags=re.S | re.M))
    assert blocks, "the README shows no study file"
    for block in blocks:
        named = re.findall(r"`(studies/[\w.-]+\.toml)`", README[:block.start()])
        assert named, "no study file is named before the TOML block"
        path = ROOT / named[-1]
        assert block.group(1) == path.read_text(encoding="utf-8"), named[-1]
        study = load_study(path)
        assert study.total_games > 0
        assert {p for pair in study.strategy_pairings for p in pair} == {DEFAULT_STRATEGY}
        assert len({d for pair in study.deck_pairings for d in pair}) == 2


def test_only_the_registry_default_is_called_the_default() -> None:
    make_strategy(DEFAULT_STRATEGY, 0, 1)  # registers every built-in strategy
    names = sorted(STRATEGIES)
    assert _default_claims(README, DEFAULT_STRATEGY, names) == []


@pytest.mark.parametrize(("text", "claims"), [
    ("| 600 games, `builder` (the default) | 1 |", 1),
    ("both forms, the default `builder`: 76,000 games", 1),
    ("the default builder player", 1),
    ("`builder` is the default", 1),
    ("the default player, `planner`, in both seats", 0),
    ("**the default player**. It plays like `builder`", 0),
    ("`builder`: places pieces to complete patterns", 0),
])
def test_the_default_check_catches_the_old_phrases(text: str, claims: int) -> None:
    assert len(_default_claims(text, "planner", ["builder", "planner", "random"])) == claims


def test_every_docs_file_named_in_the_project_exists() -> None:
    """A comment, doc or config naming a file under docs/ names a file that is there (a moved or deleted doc leaves
    no stale pointer behind)."""
    named = re.compile(r"docs/[A-Za-z0-9_-]+\.md")
    stale = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if not path.is_file() or parts[0] in {".venv", ".git", "runs", "out"} or "target" in parts \
                or path.suffix not in {".md", ".py", ".toml", ".yaml", ".yml", ".sh", ".rs", ".sql", ".html"}:
            continue
        for ref in set(named.findall(path.read_text(encoding="utf-8", errors="replace"))):
            if not (ROOT / ref).is_file():
                stale.append(f"{path.relative_to(ROOT)}: {ref}")
    assert not stale
