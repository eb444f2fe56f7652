"""Parameters, presets and the step vocabulary are declared once, in the core, and read by Python: no Python
module may declare them again, and the docs' tables must agree with the core (tests/test_core_stub.py checks
the stubs)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import sim.steps
from sim import _core
from sim.steps import validate_steps
from strategies import STRATEGIES, make_strategy
from strategies.params import declared, presets, resolve

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [p for d in ("sim", "strategies", "pipelines", "reports", "scripts") for p in (ROOT / d).rglob("*.py")]


def _collections_of(groups: list[set[str]], tree: ast.AST) -> list[tuple[int, list[str]]]:
    """The literal collections (and keyword calls) in ``tree`` naming more than half of one of ``groups``
    (and three at least): a declaration written again."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            items = node.keys
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            items = node.elts
        elif isinstance(node, ast.Call):
            items = [ast.Constant(k.arg) for k in node.keywords]
        else:
            continue
        named = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
        if any(len(named & g) >= 3 and len(named & g) > len(g) / 2 for g in groups):
            found.append((node.lineno, sorted(named)))
    return found


def _declarations_in_python(groups: list[set[str]]) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{line}: {named}" for path in SOURCES
            for line, named in _collections_of(groups, ast.parse(path.read_text()))]


def test_every_registered_strategy_is_declared_by_the_core():
    make_strategy("random", 0, 0)  # registers the built-in strategies
    assert set(STRATEGIES) == set(declared()) == set(_core.strategy_params())
    assert set(presets()) <= set(declared())


def test_no_python_module_declares_parameters():
    calls = [f"{p.relative_to(ROOT)}:{n.lineno}" for p in SOURCES for n in ast.walk(ast.parse(p.read_text()))
             if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Param"
             and p != ROOT / "strategies" / "params.py"]
    assert calls == []
    assert _declarations_in_python([{p.name for p in params} for params in declared().values()]) == []


def test_no_python_module_declares_the_step_vocabulary():
    v = _core.step_vocabulary()
    assert _declarations_in_python([set(v["steps"]), set(v["conditions"]), set(v["where"])]) == []
    # and the docstring of sim.steps explains every word of it
    words = set(v["common_keys"]) | set(v["steps"]) | set(v["conditions"]) | set(v["where"])
    words |= {k for keys in v["steps"].values() for k in keys}
    assert [w for w in sorted(words) if f"``{w}" not in sim.steps.__doc__] == []


def test_declarations_are_typed_and_the_core_plays_them():
    for strategy, params in declared().items():
        assert resolve(strategy, {}) == {p.name: p.default for p in params}
        player = make_strategy(strategy, 0, 0)
        for p in params:
            assert type(p.default) in (bool, int, float, str) and p.doc
            if p.kind is not str:
                assert player.player.setting(p.name) == p.default, (strategy, p.name)


def test_the_presets_are_the_lookahead_defaults_changed():
    base = {p.name: p.default for p in declared()["greedy"]}
    for name, changes in presets().items():
        assert {p.name: p.default for p in declared()[name]} == base | changes


def test_the_step_vocabulary_still_refuses_unknown_words():
    with pytest.raises(ValueError, match="unknown step 'smash'; expected one of convert, custom"):
        validate_steps([{"do": "smash"}])
    with pytest.raises(ValueError, match=r"unknown condition 'later'; expected one of previous, not_previous"):
        validate_steps([{"do": "upgrade", "if": "later"}])
    with pytest.raises(ValueError, match=r"step 1 \(move\): unknown key\(s\) to"):
        validate_steps([{"do": "move", "to": "any"}])
    validate_steps([{"do": "leap", "to": "within:2", "where": "within:3", "if": "not_self_gateway"}])


def _cell(text: str) -> str:
    return text.strip().strip("`")


def _tables(text: str):
    """The parameter tables of docs/strategies.md: (header cells, rows of cells)."""
    for block in re.findall(r"^\| parameter \|.*?(?=^[^|]|\Z)", text, flags=re.M | re.S):
        lines = [line for line in block.strip().splitlines() if not line.startswith("|---")]
        cells = [[_cell(c) for c in line.strip("|").split("|")] for line in lines]
        yield cells[0], cells[1:]


def _same(doc: str, default: object) -> bool:
    if isinstance(default, bool):
        return doc == str(default).lower()
    return doc == default if isinstance(default, str) else float(doc) == float(default)


def test_the_docs_tables_agree_with_the_core():
    docs = (ROOT / "docs" / "strategies.md").read_text()
    defaults = {s: {p.name: p.default for p in params} for s, params in declared().items()}
    tables = list(_tables(docs))
    assert len(tables) >= 4
    for header, rows in tables:
        columns = header[1:-1]
        if columns == ["default"]:  # one strategy's table: some strategy has every row's default
            assert any(all(r[0] in d and _same(r[1], d[r[0]]) for r in rows) for d in defaults.values()), rows
        else:
            for row in rows:
                for strategy, value in zip(columns, row[1:-1], strict=True):
                    assert _same(value, defaults[strategy][row[0]]), (strategy, row[0], value)
