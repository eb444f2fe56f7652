"""The typed stubs of the compiled core (sim/_core.pyi) name exactly what the module exports."""

from __future__ import annotations

import ast
from pathlib import Path

from sim import _core

STUB = Path(__file__).resolve().parent.parent / "sim" / "_core.pyi"


def _stub_names() -> tuple[set[str], dict[str, set[str]]]:
    tree = ast.parse(STUB.read_text())
    names: set[str] = set()
    members: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names, members


def _public(names) -> set[str]:
    return {n for n in names if not n.startswith("_") or n == "__version__"}


def test_stub_names_every_export_of_the_module() -> None:
    names, members = _stub_names()
    assert _public(dir(_core)) == names
    for cls, methods in members.items():
        exported = _public(vars(getattr(_core, cls))) | ({"__new__"} if "__new__" in methods else set())
        exported |= {m for m in methods if m.startswith("__") and hasattr(getattr(_core, cls), m)}
        assert exported == methods, cls
