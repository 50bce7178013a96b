#!/usr/bin/env bash
# The store, the formats, the table and the audit read every source through aas-source
# and never link the HTTP client: a new kind of source must not pull reqwest into them,
# nor into the crates beneath them (the worker pool, file output).
# (Their tests may: they drive the crates with a real crawl of the demo service.)
# The formats do not build the spreadsheet writer either: only the table and the audit
# write workbooks (aas-output's xlsx feature).
set -euo pipefail
status=0
# must_not_link CRATE DEPENDENCY WHAT
must_not_link() {
  # Nothing found is a warning ("nothing to print") or, where the dependency is not
  # even among the crate's dev-dependencies, an error that names no package: both pass.
  found=$(cargo tree -p "$1" -i "$2" -e normal,build 2>&1 || true)
  if grep -q "^$2 v" <<<"$found"; then
    echo "$1 depends on $3:" >&2
    echo "$found" >&2
    status=1
  fi
}
for crate in aas-source aas-in-order aas-output aas-file aas-snapshot aas-export aas-table aas-audit; do
  must_not_link "$crate" reqwest "the HTTP client"
done
for crate in aas-source aas-in-order aas-file aas-snapshot aas-export; do
  must_not_link "$crate" rust_xlsxwriter "the spreadsheet writer"
done
exit $status
