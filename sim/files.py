"""Every file a user names is read (and every output path checked) here, so that a missing file, a directory,
an unreadable or binary file and a file that is not UTF-8 all give the same one-line error naming the file."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from sim.errors import UserError


class FileInputError(UserError):
    """A file that cannot be read as the text it should be; ``reason`` says why, without the path."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def read_text(path: Path | str) -> str:
    """The file's text (UTF-8), or FileInputError saying what is wrong with it."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FileInputError(path, "no such file") from None
    except IsADirectoryError:
        raise FileInputError(path, "is a directory, expected a file") from None
    except OSError as e:
        raise FileInputError(path, f"cannot be read ({e.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise FileInputError(path, f"line {line}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset "
                                   f"{e.start}); expected a UTF-8 text file") from None


def read_toml(path: Path | str) -> dict[str, Any]:
    """The file's TOML document, or FileInputError (unreadable, not text, or not valid TOML)."""
    path = Path(path)
    try:
        return tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as e:
        raise FileInputError(path, f"not valid TOML: {e}") from None


def check_writable(path: Path, option: str, makes_folders: bool = False) -> None:
    """Refuse, before any work starts, an output file that could not be written: a directory, a missing
    folder (unless the command ``makes_folders``) or a read-only one."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UserError(f"{option}: {path} is a directory, expected a file name")
    while makes_folders and not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise UserError(f"{option}: cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{option}: cannot write {path}: permission denied")


def write_text(path: Path, text: str, option: str) -> None:
    """Write an output file, an OS error (a full disk, say) naming the file."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UserError(f"{option}: cannot write {path}: {e.strerror}") from None
