#!/usr/bin/env bash
# The plant table in the app (issue 27) in one command: build, first paint, scrolling,
# sort, filter and memory over a snapshot of `aasmd demo-service --demo ASSETS` (80,000
# assets: 10,000 machines), in the real window (bench/in-window.sh); prints a Markdown
# table. The CLI's figures are bench/table.sh's.
#
#   bench/table-app.sh [ASSETS] [RUNS]   (defaults 80000 and 3)
set -euo pipefail
export TABLE_ASSETS=${1:-80000} TABLE_RUNS=${2:-3}
exec "$(dirname "$0")/in-window.sh" table_app
