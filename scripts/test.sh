#!/usr/bin/env bash
# Set up if needed, then run the whole test suite: lint, the tests that need no Ray on two processes,
# then the tests that start real Ray instances one after another (two Ray clusters at once would fight
# over the two cores and the ports).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
status=0
.venv/bin/python -m pytest -q -n 2 -m "not ray" "$@" || status=$?
[ "$status" = 5 ] && status=0   # nothing selected in this half is not a failure
ray_status=0
.venv/bin/python -m pytest -q -n 0 -m ray "$@" || ray_status=$?
[ "$ray_status" = 5 ] && ray_status=0
exit $(( status != 0 ? status : ray_status ))
