#!/usr/bin/env bash
# The Quality view's time and memory (issue 28) in one command, over a snapshot of
# `aasmd demo-service --demo ASSETS`, in the real window (bench/in-window.sh); prints a
# Markdown table.
#
#   bench/quality.sh [ASSETS] [RUNS]   (defaults 10000 and 3)
set -euo pipefail
export QUALITY_ASSETS=${1:-10000} QUALITY_RUNS=${2:-3}
exec "$(dirname "$0")/in-window.sh" quality
