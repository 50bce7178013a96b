#!/usr/bin/env bash
# The store, the formats, the table and the audit read every source through aas-source
# and never link the HTTP client: a new kind of source must not pull reqwest into them,
# nor into the crates beneath them (the worker pool, file output).
# (Their tests may: they drive the crates with a real crawl of the demo service.)
set -euo pipefail
status=0
for crate in aas-source aas-in-order aas-output aas-snapshot aas-export aas-table aas-audit; do
  # Nothing found is a warning ("nothing to print") or, where reqwest is not even
  # among the crate's dev-dependencies, an error that names no package: both pass.
  found=$(cargo tree -p "$crate" -i reqwest -e normal,build 2>&1 || true)
  if grep -q '^reqwest v' <<<"$found"; then
    echo "$crate depends on the HTTP client:" >&2
    echo "$found" >&2
    status=1
  fi
done
exit $status
