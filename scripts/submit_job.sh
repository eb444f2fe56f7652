#!/usr/bin/env bash
# Submit a study to a Ray cluster as a Ray job, the product shipped as a wheel in the job's runtime_env.
#
#   RAY_ADDRESS=http://HEAD:8265 scripts/submit_job.sh STUDY.toml OUT [-- more `tashkalar run` options]
#
# OUT is where the run is written: an object store (s3://BUCKET/PATH, gs://BUCKET/PATH), since the job's
# driver runs on the head and a local path would be the head's disk. Run the same command again to resume.
# The job's working_dir is a copy of the study file's folder (card sets named relative to the study travel
# with it) and the wheel; every node installs the wheel into the job's virtualenv without dependencies and
# without an index (the nodes have the dependencies already: cluster.yaml), so a node needs no Rust and no
# network. Docs: docs/studies.md ("Running on a cluster").
#
# TASHKALAR_WHEEL=FILE: submit this wheel rather than building one (maturin build --release, into dist/).
# TASHKALAR_HISTORY=FILE: the history database, a path on the head, that the job records the run in.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 2 ]; then
  echo "usage: RAY_ADDRESS=http://HEAD:8265 $0 STUDY.toml OUT [-- tashkalar run options]" >&2
  exit 2
fi
study="$1" out="$2"
shift 2
if [ "${1:-}" = "--" ]; then shift; fi
if [ ! -f "$study" ]; then echo "error: $study: no such study file" >&2; exit 2; fi
folder="$(cd "$(dirname "$study")" && pwd)"
for package in sim strategies pipelines reports; do  # a working_dir comes first on the workers' sys.path
  if [ -e "$folder/$package" ]; then
    echo "error: $folder: holds $package/, which would hide the wheel's on the cluster; keep study files in a" \
      "folder of their own" >&2
    exit 2
  fi
done
wheel="${TASHKALAR_WHEEL:-}"
if [ -z "$wheel" ]; then
  rm -f "$root"/dist/tashkalar_balance-*.whl
  (cd "$root" && maturin build --release --quiet --out dist >&2)
  wheel="$(ls "$root"/dist/tashkalar_balance-*.whl)"
fi
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -R "$folder/." "$stage/"
cp "$wheel" "$stage/"
runtime_env="$(python3 - "$stage" "$(basename "$wheel")" <<'EOF'
import json, os, sys

stage, wheel = sys.argv[1:]
env = {"working_dir": stage,
       "pip": {"packages": ["${RAY_RUNTIME_ENV_CREATE_WORKING_DIR}/" + wheel],
               "pip_install_options": ["--no-deps", "--force-reinstall", "--no-index", "--disable-pip-version-check",
                                       "--no-cache-dir"]}}
if os.environ.get("TASHKALAR_HISTORY"):
    env["env_vars"] = {"TASHKALAR_HISTORY": os.environ["TASHKALAR_HISTORY"]}
print(json.dumps(env))
EOF
)"
exec ray job submit --runtime-env-json "$runtime_env" -- \
  tashkalar run "$(basename "$study")" --out "$out" --no-progress "$@"
