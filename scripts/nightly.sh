#!/usr/bin/env bash
# The nightly balance job: what .github/workflows/nightly.yml runs, and what a crontab line can run.
#
#   bash scripts/nightly.sh [SUITE.toml]       (default suites/nightly.toml)
#
# Runs the suite with the history database in $TASHKALAR_HISTORY, whatever happens leaves the report in the
# suite's runs_dir/latest/, and exits with the suite's status: 0 nothing moved, 1 a gate moved or a study
# could not be compared, 2 refused (no baseline and NEW_BASELINE not set, or a bad input).
# Environment:
#   PROMOTE       if-unchanged (default), always or never: when a new run becomes its study's baseline
#   NEW_BASELINE  true: a study without a baseline is run and becomes its baseline (else refused)
#   NOTIFY        a shell command run when the status is not 0, with STATUS and SUMMARY (the summary file,
#                 when the suite got that far) in its environment, e.g. 'mail -s "nightly: $STATUS" me < "$SUMMARY"'
set -uo pipefail
cd "$(dirname "$0")/.."
suite=${1:-suites/nightly.toml}
flags=(--no-progress)
case "${PROMOTE:-if-unchanged}" in
  if-unchanged) flags+=(--promote-if-unchanged) ;;
  always) flags+=(--promote) ;;
  never) ;;
  *) echo "nightly: PROMOTE must be if-unchanged, always or never, got '${PROMOTE}'" >&2; exit 2 ;;
esac
[ "${NEW_BASELINE:-false}" = true ] && flags+=(--new-baseline)
status=0
.venv/bin/tashkalar suite "$suite" "${flags[@]}" || status=$?
latest=$(.venv/bin/python -c 'import sys; from reports.regression.suite import load_suite
print(load_suite(sys.argv[1]).runs_dir / "latest")' "$suite" 2>/dev/null || true)
echo "nightly: suite exit status $status; report in ${latest:-(none)}"
if [ "$status" != 0 ] && [ -n "${NOTIFY:-}" ]; then
  STATUS=$status SUMMARY="${latest:+$latest/summary.md}" bash -c "$NOTIFY" || echo "nightly: the NOTIFY command failed" >&2
fi
exit "$status"
