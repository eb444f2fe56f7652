#!/usr/bin/env bash
# Set up if needed, then run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
exec .venv/bin/python -m pytest -q -n 2 --dist loadgroup "$@"
