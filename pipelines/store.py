"""The run directory on disk: one Parquet file per shard and table, written atomically and checked on resume.

Layout: ``RUN/manifest.json`` and ``RUN/<table>/shard-NNNNN.parquet``. A file appears under its final name
only once complete (written as ``*.tmp``, then renamed); within a shard the ``games`` file is written last,
so a game row always has its events beside it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.schema import TABLES
from pipelines.shard import META_DATASET, META_SHARD
from sim.errors import UserError

MANIFEST = "manifest.json"
LOCK = ".lock"
WRITE_ORDER = tuple(sorted(TABLES, key=lambda name: name == "games"))  # games last


class RunDir:
    def __init__(self, root: Path, shard_count: int):
        self.root = root
        self.shard_count = shard_count
        self._width = max(5, len(str(shard_count - 1)))

    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST

    def shard_path(self, table: str, shard: int) -> Path:
        return self.root / table / f"shard-{shard:0{self._width}d}.parquet"

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the run directory for this process; a second run on it is refused while the first lives."""
        self.root.mkdir(parents=True, exist_ok=True)
        with (self.root / LOCK).open("w") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UserError(f"{self.root}: another run is writing to this directory") from None
            yield

    def foreign_entries(self) -> list[str]:
        """Entries that a run would not have written: a sign the directory is not a run directory."""
        ours = {MANIFEST, LOCK, *TABLES}
        return sorted(p.name for p in self.root.iterdir() if p.name not in ours) if self.root.is_dir() else []

    def write_file(self, path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)

    def write_shard(self, shard: int, files: dict[str, bytes]) -> None:
        for name in WRITE_ORDER:
            self.write_file(self.shard_path(name, shard), files[name])

    def remove_shard(self, shard: int) -> None:
        for name in TABLES:
            self.shard_path(name, shard).unlink(missing_ok=True)

    def remove_temp_files(self) -> None:
        for name in TABLES:
            for tmp in (self.root / name).glob("*.tmp"):
                tmp.unlink()

    def clear(self) -> None:
        """Remove everything a run wrote here (for --force); anything else is left alone."""
        for name in TABLES:
            shutil.rmtree(self.root / name, ignore_errors=True)
        self.manifest_path.unlink(missing_ok=True)

    def verify_shard(self, shard: int, dataset_id: str, games: int, rows: dict[str, int] | None) -> bool:
        """Whether every table file of the shard is present, readable to the last page and belongs here.

        ``games`` is the number of games the shard holds; ``rows`` the row counts the manifest recorded
        when the shard was written, if it recorded them.
        """
        for name, schema in TABLES.items():
            expected = games if name == "games" else (rows or {}).get(name)
            if not _file_ok(self.shard_path(name, shard), schema, dataset_id, shard, expected):
                return False
        return True


def _file_ok(path: Path, schema: pa.Schema, dataset_id: str, shard: int, rows: int | None) -> bool:
    if not path.is_file():
        return False
    try:
        f = pq.ParquetFile(path, page_checksum_verification=True)
        meta = f.schema_arrow.metadata or {}
        if (not f.schema_arrow.equals(schema) or meta.get(META_DATASET) != dataset_id.encode()
                or meta.get(META_SHARD) != str(shard).encode()):
            return False
        table = f.read()  # decodes every page: catches corruption the footer does not show
    except (OSError, ValueError, pa.ArrowException):
        return False
    return table.num_rows == f.metadata.num_rows and (rows is None or table.num_rows == rows)
