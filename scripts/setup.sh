#!/usr/bin/env bash
# Install everything the project needs: a virtual environment with the package and its dev tools, and
# Debian's headless Chromium for the report tests. Safe to run again; it only adds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
if ! .venv/bin/python -c "import sim, ray, duckdb, polars, pyarrow, typer, pytest" 2>/dev/null \
   || [ pyproject.toml -nt .venv/.installed ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev]'
  touch .venv/.installed
fi
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "warning: could not install chromium; the HTML report test will fail" >&2
  else
    echo "warning: chromium is not installed (run as root, or: sudo apt-get install chromium)" >&2
  fi
fi
