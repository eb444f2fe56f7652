#!/usr/bin/env bash
# The sampled mutation score (scripts/mutation.py; docs/mutation.md). Options go to the script, e.g.
#   bash scripts/mutation.sh --per-package 40 --seed 10 --jobs 2
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python scripts/mutation.py "$@"
