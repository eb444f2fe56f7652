"""The run directory on disk: one Parquet file per shard and table, written atomically and checked on resume;
a finished run's shards compacted into blocks (pipelines/compact.py).

Layout: ``RUN/manifest.json`` and ``RUN/<table>/shard-NNNNN.parquet``, or for a block of compacted shards
``RUN/<table>/shards-FIRST-LAST.parquet``. A file appears under its final name only once complete (written as
``*.tmp``, then renamed); within a shard or a block the ``games`` file is written last, so a game row always
has its events beside it, and a block counts only once its ``games`` file is there (``dataset_files``).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.schema import META_DATASET, META_SHARD, SCHEMA_VERSION, TABLES
from sim.errors import UserError

MANIFEST = "manifest.json"
MANIFEST_DAMAGED = "manifest.json.damaged"  # a manifest --repair replaced
LOCK = ".lock"
WRITE_ORDER = tuple(sorted(TABLES, key=lambda name: name == "games"))  # games last
REPORT_FILES = ("report.html", "report.md", "regression.md")  # what `report` and `suite` write by default
REPORT_DIRS = ("csv",)
_SHARD_FILE = re.compile(r"^shard-(\d+)\.parquet$")
_BLOCK_FILE = re.compile(r"^shards-(\d+)-(\d+)\.parquet$")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


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

    def block_name(self, first: int, last: int) -> str:
        return f"shards-{first:0{self._width}d}-{last:0{self._width}d}"

    def block_path(self, table: str, first: int, last: int) -> Path:
        return self.root / table / f"{self.block_name(first, last)}.parquet"

    def blocks_on_disk(self) -> set[tuple[int, int]]:
        """The (first, last) shards of every compacted file present, whole or not."""
        found = set()
        for name in TABLES:
            folder = self.root / name
            if folder.is_dir():
                found.update((int(m.group(1)), int(m.group(2))) for p in folder.iterdir()
                             if (m := _BLOCK_FILE.match(p.name)))
        return found

    def remove_block(self, first: int, last: int) -> None:
        for name in WRITE_ORDER[::-1]:  # games first: the block stops counting for a reader at once
            self.block_path(name, first, last).unlink(missing_ok=True)

    def block_checksums(self, first: int, last: int) -> dict[str, str]:
        return {name: sha256(self.block_path(name, first, last)) for name in TABLES}

    def block_rows(self, first: int, last: int) -> dict[str, int]:
        return {name: pq.read_metadata(self.block_path(name, first, last)).num_rows for name in TABLES}

    def verify_block(self, first: int, last: int, dataset_id: str, games: int, recorded: dict | None) -> bool:
        """``verify_shard`` for the compacted files of shards ``first`` to ``last`` (``games`` in all)."""
        sums = (recorded or {}).get("sha256")
        if sums:
            paths = {name: self.block_path(name, first, last) for name in TABLES}
            return all(p.is_file() and sums.get(name) == sha256(p) for name, p in paths.items())
        rows = (recorded or {}).get("rows")
        return all(_file_ok(self.block_path(name, first, last), schema, dataset_id, f"{first}-{last}",
                            games if name == "games" else (rows or {}).get(name))
                   for name, schema in TABLES.items())

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the run directory for this process; a second run on it is refused while the first lives."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            f = (self.root / LOCK).open("w")
        except OSError as e:
            raise UserError(f"--out {self.root}: cannot write a run directory there ({e.strerror})") from None
        with f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UserError(f"{self.root}: another run is writing to this directory") from None
            yield

    def foreign_entries(self) -> list[str]:
        """Entries that a run would not have written: a sign the directory is not a run directory."""
        ours = {MANIFEST, MANIFEST_DAMAGED, LOCK, *TABLES, *REPORT_FILES, *REPORT_DIRS}
        return sorted(p.name for p in self.root.iterdir() if p.name not in ours) if self.root.is_dir() else []

    def shard_datasets(self) -> dict[int, set[str]]:
        """The dataset ids the shard files (and compacted files) on disk carry, by shard (a file that cannot be
        read carries none)."""
        found: dict[int, set[str]] = {}
        files = {shard: [self.shard_path(name, shard) for name in TABLES] for shard in self.shards_on_disk()}
        for first, last in self.blocks_on_disk():  # a block's ids are listed under its first shard
            files.setdefault(first, []).extend(self.block_path(name, first, last) for name in TABLES)
        for shard, paths in files.items():
            ids = found.setdefault(shard, set())
            for path in paths:
                try:
                    meta = pq.read_schema(path).metadata or {}
                except (OSError, ValueError, pa.ArrowException):
                    continue
                if META_DATASET in meta:
                    ids.add(meta[META_DATASET].decode())
        return found

    def shards_on_disk(self) -> set[int]:
        """The shard numbers of every table file present, whole or not (not a scan of the study's range)."""
        found = set()
        for name in TABLES:
            folder = self.root / name
            if folder.is_dir():
                found.update(int(m.group(1)) for p in folder.iterdir() if (m := _SHARD_FILE.match(p.name)))
        return found

    def write_file(self, path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError as e:
            raise OSError(e.errno, e.strerror, str(path)) from None  # a full disk names the file

    def write_shard(self, shard: int, files: dict[str, bytes]) -> dict[str, str]:
        """Write the shard's files; returns each table's sha256, for the manifest."""
        for name in WRITE_ORDER:
            self.write_file(self.shard_path(name, shard), files[name])
        return {name: hashlib.sha256(files[name]).hexdigest() for name in TABLES}

    def row_counts(self, shard: int) -> dict[str, int]:
        return {name: pq.read_metadata(self.shard_path(name, shard)).num_rows for name in TABLES}

    def checksums(self, shard: int) -> dict[str, str]:
        return {name: sha256(self.shard_path(name, shard)) for name in TABLES}

    def remove_shard(self, shard: int) -> None:
        for name in TABLES:
            self.shard_path(name, shard).unlink(missing_ok=True)

    def remove_temp_files(self) -> None:
        for name in TABLES:
            for tmp in (self.root / name).glob("*.tmp"):
                tmp.unlink()

    def clear(self) -> None:
        """Remove what a run and its reports wrote here (for --force); anything else is left alone."""
        for name in (*TABLES, *REPORT_DIRS):
            shutil.rmtree(self.root / name, ignore_errors=True)
        for name in (MANIFEST, *REPORT_FILES):
            (self.root / name).unlink(missing_ok=True)

    def verify_shard(self, shard: int, dataset_id: str, games: int, recorded: dict | None) -> bool:
        """Whether every table file of the shard is present, intact and belongs here.

        ``games`` is the number of games the shard holds; ``recorded`` the manifest's entry for the shard,
        if it has one. With the checksums recorded when the shard was written, the files must match them;
        otherwise (an older manifest, or a shard written just before an interruption) every page is decoded
        and the row counts are checked against the recorded ones, if any.
        """
        sums = (recorded or {}).get("sha256")
        if sums:
            paths = {name: self.shard_path(name, shard) for name in TABLES}
            return all(p.is_file() and sums.get(name) == sha256(p) for name, p in paths.items())
        rows = (recorded or {}).get("rows")
        for name, schema in TABLES.items():
            expected = games if name == "games" else (rows or {}).get(name)
            if not _file_ok(self.shard_path(name, shard), schema, dataset_id, shard, expected):
                return False
        return True


def _file_ok(path: Path, schema: pa.Schema, dataset_id: str, shard: int | str, rows: int | None) -> bool:
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


def _rewrite_advice(schema_version: object) -> str:
    """How to get a missing or damaged file back: resuming the study rewrites it, but only in a run of today's
    schema version (an older run's dataset id differs, so `tashkalar run` refuses it, and --force deletes it)."""
    if schema_version in (None, SCHEMA_VERSION):
        return "rerun the study (`tashkalar run STUDY --out RUN` resumes the run and writes it again)"
    return (f"restore it from a copy of the run (a schema {schema_version} run cannot be rewritten by this "
            f"version: `tashkalar run` refuses it and --force would delete it)")


def check_recorded(root: Path) -> list[str]:
    """Check a run's files against what its manifest recorded when each shard (or compacted block) was
    written: the sha256 of every file, or (a manifest from before checksums) its row counts. Raises UserError
    naming the first damaged or missing file; returns warnings about what could not be checked.

    The tables checked are those the manifest lists (a run of an older schema version had fewer). A
    directory without a readable runner's manifest is left to the reader, which says what is wrong.
    """
    try:
        manifest = json.loads((root / MANIFEST).read_text())
        done = [s for s in manifest["shard_status"] if s.get("status") == "done"]
        run = RunDir(root, int(manifest["shards"]))
        tables = [str(t) for t in manifest.get("tables", TABLES)]
        blocks = [(b, {name: run.block_path(name, b["first"], b["last"]) for name in tables})
                  for b in manifest.get("compacted", [])]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return []
    advice = _rewrite_advice(manifest.get("schema_version"))
    unchecked = 0
    entries = [s for s in done if "block" not in s]  # a compacted shard is checked with its block
    files = [(e, {name: run.shard_path(name, e["shard"]) for name in tables}) for e in entries] + blocks
    hashed = [path for entry, paths in files for name, path in paths.items()
              if name in (entry.get("sha256") or {}) and path.is_file()]
    with ThreadPoolExecutor() as pool:  # hashlib lets go of the GIL: the files are hashed on every core
        digests = dict(zip(hashed, pool.map(sha256, hashed), strict=True))
    for entry, paths in files:
        for name, path in paths.items():
            sums, rows = entry.get("sha256") or {}, entry.get("rows") or {}
            if not path.is_file():
                raise UserError(f"{path}: recorded in the manifest but missing; {advice}")
            if name in sums:
                ok = digests[path] == sums[name]
            elif name in rows:
                try:
                    ok = pq.read_metadata(path).num_rows == rows[name]
                except (OSError, ValueError, pa.ArrowException):
                    ok = False
            else:
                ok, unchecked = True, unchecked + 1
            if not ok:
                raise UserError(f"{path}: damaged (it differs from what was written; the manifest recorded "
                                f"its {'sha256' if name in sums else 'row count'}); {advice}")
    warnings = []
    if any(not e.get("sha256") for e in entries):
        warnings.append(f"{run.manifest_path}: written before checksums were recorded; only row counts "
                        f"were checked")
    recorded = {e["shard"] for e in entries}
    extra = sorted(run.shards_on_disk() - recorded - {e["shard"] for e in done})
    if extra:
        warnings.append(f"{root}: {len(extra)} shard(s) not recorded in the manifest (an interrupted run?) "
                        f"were not checked; rerun the study to check them")
    if unchecked:
        warnings.append(f"{root}: {unchecked} file(s) had nothing recorded to check them against")
    return warnings
