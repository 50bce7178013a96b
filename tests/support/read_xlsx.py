"""Reads a workbook back with openpyxl (Debian's python3-openpyxl), a reader independent
of the rust_xlsxwriter that wrote it, for the tests of every XLSX the project writes.

    python3 tests/support/read_xlsx.py FILE [--typed]

prints JSON: {"order": [sheet names], "sheets": {name: {"freeze", "filter", "rows"}}},
each cell its value (null when empty); with --typed, [its Python type's name, value]
(int, float, str, bool, datetime), so a test sees what a cell was written as.
"""
import json
import sys

import openpyxl


def cell(c, typed):
    if c.value is None:
        return None
    return [type(c.value).__name__, c.value] if typed else c.value


def main():
    path, typed = sys.argv[1], "--typed" in sys.argv[2:]
    book = openpyxl.load_workbook(path)
    sheets = {
        sheet.title: {
            "freeze": sheet.freeze_panes,
            "filter": sheet.auto_filter.ref,
            "rows": [[cell(c, typed) for c in row] for row in sheet.iter_rows()],
        }
        for sheet in book.worksheets
    }
    print(json.dumps({"order": book.sheetnames, "sheets": sheets}, default=str))


main()
