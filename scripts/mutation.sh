#!/usr/bin/env bash
# The sampled mutation scores (docs/mutation.md). The first argument picks the population, the rest go to its
# script:
#   bash scripts/mutation.sh [python] --per-package 40 --seed 10 --jobs 2   # sim, pipelines, reports (mutmut)
#   bash scripts/mutation.sh rust --sample 60 --seed 10                      # the Rust rules (cargo-mutants)
#   bash scripts/mutation.sh sql --sample 40 --seed 10                       # reports/**/*.sql
# Everything heavy runs under `nice -n 19` (the machine is shared). cargo-mutants is installed from crates.io
# when missing or of another version.
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO_MUTANTS_VERSION=27.1.0
population=python
case "${1:-}" in python|rust|sql) population=$1; shift ;; esac
case "$population" in
  python) exec nice -n 19 .venv/bin/python scripts/mutation.py "$@" ;;
  sql) exec nice -n 19 .venv/bin/python scripts/mutation_sql.py "$@" ;;
  rust)
    if [ "$(cargo mutants --version 2>/dev/null)" != "cargo-mutants $CARGO_MUTANTS_VERSION" ]; then
      nice -n 19 cargo install --locked cargo-mutants --version "$CARGO_MUTANTS_VERSION"
    fi
    exec nice -n 19 .venv/bin/python scripts/mutation_rust.py "$@" ;;
esac
