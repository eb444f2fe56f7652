#!/usr/bin/env bash
# Set up, then run the main job on the embedded local Ray: a small study and its report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/tashkalar run studies/quick.toml --out runs/quick
.venv/bin/tashkalar report runs/quick --out runs/quick/report.html --md runs/quick/report.md
echo "report: runs/quick/report.html"
