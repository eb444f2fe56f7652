"""Where a run lives: a local directory, or an object store (``s3://``, ``gs://``) mirrored in a local cache.

The runner and the reports work on a local directory. A run at a URI is pulled into a cache first (only the
files that differ from the cache are fetched), and the runner pushes each file back as soon as it has written
it, shard files before the manifest that records them, so a resume from any machine starts from what the
store holds. The store is reached through pyarrow's filesystems (credentials and endpoint from the usual
environment: ``AWS_*`` for S3, including ``AWS_ENDPOINT_URL``; Google's for GCS); DuckDB's own S3 support
would need an extension downloaded at run time.

Nothing locks a URI: two drivers writing one run at the same URI from different machines are not stopped.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.fs as pafs

from pipelines.schema import TABLES
from pipelines.store import LOCK, MANIFEST, RunDir, sha256
from sim.errors import UserError

CACHE_ENV = "TASHKALAR_CACHE"
# A URI given where a path was expected arrives as a Path, which folds "s3://b/r" to "s3:/b/r".
_URI = re.compile(r"^(s3|gs):/+(.+)$")


def uri_of(value: str | Path) -> str | None:
    """The object-store URI ``value`` names, or None when it is a local path."""
    m = _URI.match(str(value))
    return f"{m.group(1)}://{m.group(2).rstrip('/')}" if m else None


def cache_root() -> Path:
    """``$TASHKALAR_CACHE``, else ``~/.cache/tashkalar``."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "tashkalar")


class Mirror:
    """A run at ``uri`` and its local copy, ``local``."""

    def __init__(self, uri: str):
        self.uri = uri
        try:
            self.fs, self.base = pafs.FileSystem.from_uri(uri)
        except (pa.ArrowException, ValueError) as e:
            raise UserError(f"{uri}: cannot open this object store ({_first_line(e)})") from None
        digest = hashlib.sha256(uri.encode()).hexdigest()[:12]
        self.local = cache_root() / "runs" / f"{uri.rsplit('/', 1)[-1]}-{digest}"

    def _remote_files(self) -> dict[str, int]:
        """The run's files in the store, as paths relative to the run, with their sizes."""
        selector = pafs.FileSelector(self.base, recursive=True, allow_not_found=True)
        try:
            infos = self.fs.get_file_info(selector)
        except (pa.ArrowException, OSError) as e:
            raise UserError(f"{self.uri}: cannot list the run ({_first_line(e)})") from None
        prefix = self.base.rstrip("/") + "/"
        return {i.path[len(prefix):]: i.size for i in infos if i.type == pafs.FileType.File}

    def _local_files(self) -> dict[str, int]:
        if not self.local.is_dir():
            return {}
        return {p.relative_to(self.local).as_posix(): p.stat().st_size for p in self.local.rglob("*")
                if p.is_file() and p.name != LOCK and not p.name.endswith(".tmp")}

    def pull(self) -> Path:
        """Make the cache hold what the store holds (a file whose size, and checksum where the manifest has
        one, match is kept); returns the local directory."""
        remote = self._remote_files()
        self.local.mkdir(parents=True, exist_ok=True)
        for rel in self._local_files().keys() - remote.keys():
            (self.local / rel).unlink()
        if MANIFEST in remote:
            self._download(MANIFEST)
        sums = _recorded_sums(self.local)
        for rel, size in sorted(remote.items()):
            path = self.local / rel
            if rel == MANIFEST or (path.is_file() and path.stat().st_size == size
                                   and (rel not in sums or sha256(path) == sums[rel])):
                continue
            self._download(rel)
        return self.local

    def push(self, paths: Iterable[Path]) -> None:
        """Upload these files of the local copy (an object appears whole, so no temp names are needed)."""
        for path in paths:
            rel = path.relative_to(self.local).as_posix()
            try:
                with self.fs.open_output_stream(f"{self.base}/{rel}") as f:
                    f.write(path.read_bytes())
            except (pa.ArrowException, OSError) as e:
                raise OSError(None, f"upload failed: {_first_line(e)}", f"{self.uri}/{rel}") from None

    def publish(self) -> None:
        """Make the store hold what the cache holds: remove what the cache lost (shards a resume found
        damaged, a run --force discarded), upload what it gained, and the manifest."""
        remote, local = self._remote_files(), self._local_files()
        for rel in remote.keys() - local.keys():
            self.fs.delete_file(f"{self.base}/{rel}")
        changed = [rel for rel, size in local.items() if rel == MANIFEST or remote.get(rel) != size]
        self.push(self.local / rel for rel in sorted(changed, key=lambda rel: rel == MANIFEST))

    def _download(self, rel: str) -> None:
        path = self.local / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        try:
            with self.fs.open_input_stream(f"{self.base}/{rel}") as f:
                tmp.write_bytes(f.read())
        except (pa.ArrowException, OSError) as e:
            raise UserError(f"{self.uri}/{rel}: cannot download ({_first_line(e)})") from None
        os.replace(tmp, path)


def local_run(value: Path) -> Path:
    """A run directory to read: ``value`` itself, or the cache of the run at that URI, brought up to date."""
    uri = uri_of(value)
    if uri is None:
        return value
    mirror = Mirror(uri)
    local = mirror.pull()
    if not (local / MANIFEST).exists():
        raise UserError(f"{uri}: no run there (no {MANIFEST})")
    return local


def _recorded_sums(root: Path) -> dict[str, str]:
    """The sha256 the manifest in ``root`` records, by file path relative to the run."""
    try:
        manifest = json.loads((root / MANIFEST).read_text())
        run = RunDir(root, int(manifest["shards"]))
        shards = {run.shard_path(name, s["shard"]).relative_to(root).as_posix(): digest
                  for s in manifest["shard_status"] for name, digest in (s.get("sha256") or {}).items()
                  if name in TABLES}
        return shards | {run.block_path(name, b["first"], b["last"]).relative_to(root).as_posix(): digest
                         for b in manifest.get("compacted", []) for name, digest in b["sha256"].items()
                         if name in TABLES}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]
