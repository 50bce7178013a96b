#!/usr/bin/python3
"""Validates an AAS V3 XML file, or the XML spec part of an AASX package, against the
published XML schema of its version (tests/v3-schemas/, chosen by the root element's
namespace) with lxml (Debian's python3-lxml).

    xsd_valid.py FILE    exit 0 when valid; else 1, each error on stdout
"""

import sys
import zipfile
from pathlib import Path

from lxml import etree

SCHEMAS = Path(__file__).resolve().parents[1] / "v3-schemas"
BY_NAMESPACE = {
    "https://admin-shell.io/aas/3/0": "AAS-3.0.xsd",
    "https://admin-shell.io/aas/3/1": "AAS-3.1.xsd",
}


def xml_of(path):
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as package:
            parts = [n for n in package.namelist() if n.startswith("aasx/") and n.endswith(".xml")]
            if len(parts) != 1:
                sys.exit(f"{path}: {len(parts)} XML spec parts, expected 1")
            return etree.fromstring(package.read(parts[0]))
    return etree.parse(str(path)).getroot()


def main():
    root = xml_of(sys.argv[1])
    namespace = etree.QName(root).namespace
    if namespace not in BY_NAMESPACE:
        sys.exit(f"{sys.argv[1]}: namespace {namespace!r} is no AAS V3 one")
    schema = etree.XMLSchema(etree.parse(str(SCHEMAS / BY_NAMESPACE[namespace])))
    if schema.validate(root):
        print(f"{sys.argv[1]}: valid ({BY_NAMESPACE[namespace]})")
        return
    for error in schema.error_log:
        print(f"{error.line}: {error.message}")
    sys.exit(1)


if __name__ == "__main__":
    main()
