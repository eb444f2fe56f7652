"""Every test writes its run history to a database of its own, never to the user's."""

import pytest


@pytest.fixture(autouse=True)
def _private_history(tmp_path, monkeypatch):
    monkeypatch.setenv("TASHKALAR_HISTORY", str(tmp_path / "history.duckdb"))
