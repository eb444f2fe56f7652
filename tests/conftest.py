"""The tests never read or write the user's own state: history database, home directory, Ray token.

The variables are set when pytest loads this file, before any fixture (a session-scoped Ray instance
included) runs, and every process the tests start inherits them.
"""

import os
import tempfile
from pathlib import Path

import pytest

_PRIVATE = Path(tempfile.mkdtemp(prefix="tashkalar-tests-"))
os.environ["HOME"] = str(_PRIVATE / "home")
os.environ["TASHKALAR_HISTORY"] = str(_PRIVATE / "history.duckdb")
(_PRIVATE / "home").mkdir()


@pytest.fixture(autouse=True)
def _private_history(tmp_path, monkeypatch):
    """Each test has a history database of its own."""
    monkeypatch.setenv("TASHKALAR_HISTORY", str(tmp_path / "history.duckdb"))
