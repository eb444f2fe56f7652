#!/usr/bin/env bash
# Set up if needed, then run the whole test suite: lint (ruff, clippy), the core's Rust tests, the tests
# that need no Ray on two processes, then the tests that start real Ray instances one after another (two
# Ray clusters at once would fight over the two cores and the ports). pytest runs through
# scripts/run_pytest.py, which ends the process without the interpreter's teardown (its docstring says why).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
# The engine core: lint (clippy, warnings are errors) and its own tests.
export PYO3_PYTHON="$PWD/.venv/bin/python" PATH="$HOME/.cargo/bin:$PATH"
(cd core && cargo clippy --quiet --workspace --all-targets -- -D warnings && cargo test --quiet -p tk_engine)
status=0
.venv/bin/python scripts/run_pytest.py -q -n 2 -m "not ray" "$@" || status=$?
[ "$status" = 5 ] && status=0   # nothing selected in this half is not a failure
ray_status=0
.venv/bin/python scripts/run_pytest.py -q -n 0 -m ray "$@" || ray_status=$?
[ "$ray_status" = 5 ] && ray_status=0
exit $(( status != 0 ? status : ray_status ))
