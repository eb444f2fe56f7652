#!/usr/bin/env bash
# Install everything the project needs: a virtual environment with the package and its dev tools, and
# Debian's headless Chromium for the report tests. Safe to run again; it only adds what is missing, and it
# rebuilds a .venv made with a Python the project does not support (3.11 and 3.12 are).
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "setup: $*" >&2; }
supported() { "$1" -c 'import sys; sys.exit(sys.version_info[:2] not in ((3, 11), (3, 12)))' 2>/dev/null; }

PY=${PYTHON:-}
if [ -z "$PY" ]; then
  for candidate in python3.11 python3.12 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && supported "$candidate"; then PY=$candidate; break; fi
  done
fi
if [ -z "$PY" ] || ! supported "$PY"; then
  say "error: need Python 3.11 or 3.12 (found: ${PY:-none}); set PYTHON=/path/to/python3.11"
  exit 1
fi
# The compiled engine core (core/, Rust) is built by pip through maturin: it needs cargo.
if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then export PATH="$HOME/.cargo/bin:$PATH"; fi
if ! command -v cargo >/dev/null 2>&1; then
  say "installing the Rust toolchain (rustup, minimal profile) to build the engine core"
  if ! { curl -sSf https://sh.rustup.rs | sh -s -- -y -q --profile minimal; } >&2; then
    say "error: no Rust toolchain; install one (https://rustup.rs) and run this again"
    exit 1
  fi
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if [ -e .venv ] && ! supported .venv/bin/python; then
  say "removing .venv: it was made with $(.venv/bin/python -V 2>&1 || echo 'a Python that no longer runs')"
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  say "creating .venv with $("$PY" -V 2>&1)"
  "$PY" -m venv .venv
fi
if ! .venv/bin/python -c "import sim, ray, duckdb, polars, pyarrow, typer, pytest" 2>/dev/null \
   || [ pyproject.toml -nt .venv/.installed ]; then
  say "upgrading pip"
  .venv/bin/python -m pip install -q --upgrade pip
  say "installing the project and its dev tools (Ray, DuckDB, Polars, PyArrow...; about a minute)"
  # pip's own progress, less the noise: each package as it is collected, then what was installed.
  log=$(mktemp)
  if ! .venv/bin/python -m pip install --progress-bar off -e '.[dev]' 2>&1 | tee "$log" \
       | { grep --line-buffered -E '^(Collecting|Installing collected|Successfully)' || true; } \
       | sed -u -E 's/ \(from .*//; s/^(Installing collected packages).*/\1/; s/^/  /' >&2; then
    tail -n 30 "$log" >&2
    say "error: pip install failed (the lines above are the end of its output)"
    exit 1
  fi
  rm -f "$log"
  touch .venv/.installed
  say "installed"
fi
# An editable install does not rebuild the core when its sources change: rebuild when any is newer.
core_lib=$(ls sim/_core*.so 2>/dev/null | head -n 1)
if [ -z "$core_lib" ] || [ -n "$(find core -path core/target -prune -o -newer "$core_lib" -type f -print | head -n 1)" ]; then
  say "building the engine core (cargo, release; a minute or two the first time)"
  if ! .venv/bin/python -m pip install -q --no-deps -e . >&2; then
    say "error: building the engine core failed (cargo's messages are above)"
    exit 1
  fi
fi
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    say "installing chromium (apt-get)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || say "warning: could not install chromium; the HTML report test will fail"
  else
    say "warning: chromium is not installed (run as root, or: sudo apt-get install chromium)"
  fi
fi
