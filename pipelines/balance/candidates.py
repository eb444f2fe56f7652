"""A candidate of the search as card files: the tuned set's files with the chosen values written in place, so
that a candidate is a card-set directory like any designer's edited copy (``card_set`` of a study, ``--cards``).

Only the text of each changed value is replaced (the rest of every file is kept byte for byte, so a diff shows
the change and nothing else); every edit is checked by parsing the card's table again and comparing it with the
table the change should give.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import os
import re
import shutil
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from pipelines.balance.space import PATH_TOKEN, Balance, Change
from sim.cards import load_card_set
from sim.errors import UserError

Choice = tuple[Any, ...]  # one value per change of the balance file, in its order
HEADER = re.compile(r"^\[\[(being|flare|task)\]\]", re.M)


def changed(balance: Balance, choice: Choice) -> list[tuple[Change, Any]]:
    """The changes whose chosen value differs from the card's."""
    return [(c, v) for c, v in zip(balance.changes, choice, strict=True) if v != c.current]


def size(balance: Balance, choice: Choice) -> tuple[int, int]:
    """(values changed, cards changed): what the change cost counts."""
    moved = changed(balance, choice)
    return len(moved), len({c.card for c, _ in moved})


def digest(balance: Balance, choice: Choice) -> str:
    """A short name of the candidate's card set: a hash of the values changed (the unchanged set: ``base``)."""
    moved = changed(balance, choice)
    if not moved:
        return "base"
    text = "\n".join(f"{c.label}={v!r}" for c, v in moved)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def describe(balance: Balance, choice: Choice) -> str:
    """The changes in words: ``imperial/time-mage effect[0].n: 1 -> 2; ...`` (``no change``)."""
    return "; ".join(f"{c.label}: {c.current} -> {v}" for c, v in changed(balance, choice)) or "no change"


def _assign(table: dict[str, Any], field: str, value: Any) -> None:
    tokens = PATH_TOKEN.findall(field)
    target: Any = table
    for key, index in tokens[:-1]:
        target = target[key] if key else target[int(index)]
    key, index = tokens[-1]
    target[key if key else int(index)] = value


def _block(text: str, card: str) -> tuple[int, int, str]:
    """(start, end, kind) of the table of ``card`` in a card file's text."""
    starts = [m.start() for m in HEADER.finditer(text)] + [len(text)]
    for a, b in zip(starts, starts[1:], strict=False):
        if re.search(rf'^id\s*=\s*"{re.escape(card)}"', text[a:b], re.M):
            return a, b, HEADER.match(text, a).group(1)
    raise UserError(f"{card}: not found in its card file")


def _table(block: str, kind: str) -> dict[str, Any]:
    return tomllib.loads(block)[kind][0]


def _edit_value(block: str, kind: str, change: Change, value: Any) -> str:
    table = _table(block, kind)
    expected = copy.deepcopy(table)
    _assign(expected, change.field, change.template.format(value) if change.template else value)
    key = [k for k, _ in PATH_TOKEN.findall(change.field) if k][-1]
    if change.template:
        old, new = (f'"{change.template.format(change.current)}"', f'"{change.template.format(value)}"')
    elif isinstance(value, str):
        old, new = f'"{change.current}"', f'"{value}"'
    else:
        old, new = str(change.current), str(value)
    for m in re.finditer(rf"(?<![A-Za-z_]){key}\s*=\s*{re.escape(old)}(?![0-9A-Za-z_])", block):
        edited = block[:m.start()] + f"{key} = {new}" + block[m.end():]
        try:
            if _table(edited, kind) == expected:
                return edited
        except tomllib.TOMLDecodeError:
            continue
    raise UserError(f"{change.label}: cannot find its value {old} in the card's text")


def _edit_cell(block: str, kind: str, change: Change, value: str) -> str:
    m = re.search(r'pattern\s*=\s*"""(.*?)"""', block, re.S)
    if m is None:
        raise UserError(f"{change.label}: the card's pattern is not a \"\"\" string")
    grid = m.group(1)
    lines = grid.split("\n")
    rows = [i for i, line in enumerate(lines) if line.strip()]
    line_no = rows[change.row - 1]
    token = list(re.finditer(r"\S+", lines[line_no]))[change.column - 1]
    marked = token.group().endswith("*")
    new = (("" if value == "." else value) + "*") if marked else value
    line = lines[line_no]
    lines[line_no] = line[:token.start()] + new + line[token.end():]
    edited = block[:m.start(1)] + "\n".join(lines) + block[m.end(1):]
    got = [r.split() for r in _table(edited, kind)["pattern"].strip("\n").splitlines() if r.strip()]
    want = [r.split() for r in grid.strip("\n").splitlines() if r.strip()]
    want[change.row - 1][change.column - 1] = new
    if got != want:
        raise UserError(f"{change.label}: the edited pattern does not read back as intended")
    return edited


def edit(balance: Balance, choice: Choice) -> dict[str, str]:
    """The tuned set's card files (name -> text) with the chosen values written in; unchanged files as they are."""
    out = dict(balance.files)
    for change, value in changed(balance, choice):
        text = out[change.file]
        a, b, kind = _block(text, change.card)
        block = text[a:b]
        block = _edit_cell(block, kind, change, value) if change.field == "pattern" else (
            _edit_value(block, kind, change, value))
        out[change.file] = text[:a] + block + text[b:]
    return out


def write_cards(balance: Balance, choice: Choice, target: Path) -> Path:
    """Write the candidate's card files into ``target`` (kept when it is there already: its name says what it
    holds) and check that the set loads; a UserError when it does not."""
    if target.is_dir():
        return target
    texts = edit(balance, choice)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for name, text in texts.items():
            (staging / name).write_text(text, encoding="utf-8")
        load_card_set(staging)
        try:
            os.rename(staging, target)
        except OSError:  # written meanwhile by another trial, with the same content
            shutil.rmtree(staging, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def diff(balance: Balance, choice: Choice, label: str = "proposed") -> str:
    """A unified diff of the card files, tuned set to candidate (empty without a change)."""
    before = balance.files
    after = edit(balance, choice)
    out: list[str] = []
    for name in before:
        if before[name] != after[name]:
            out += _unified(before[name].splitlines(keepends=True), after[name].splitlines(keepends=True),
                            f"a/{name}", f"{label}/{name}")
    return "".join(out)


def _unified(a: list[str], b: list[str], name_a: str, name_b: str) -> list[str]:
    """``difflib.unified_diff`` without its junk heuristic (which, in a file of 200 lines or more, ignores lines
    that recur, such as a pattern's rows, and so shows a one-line change as several)."""
    out = [f"--- {name_a}\n", f"+++ {name_b}\n"]
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(3):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{i1 + 1},{i2 - i1} +{j1 + 1},{j2 - j1} @@\n")
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                out += [" " + line for line in a[a1:a2]]
                continue
            out += ["-" + line for line in a[a1:a2]] + ["+" + line for line in b[b1:b2]]
    return out
