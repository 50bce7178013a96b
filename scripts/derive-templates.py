#!/usr/bin/env python3
"""Derives the template audit's rule files (crates/aas-audit/templates/*.json) from the
submodel templates IDTA publishes in github.com/admin-shell-io/submodel-templates.

    python3 scripts/derive-templates.py --git-dir DIR [--commit REV] [--out DIR]

DIR is a clone (bare or not) of that repository; each template is read from it by path
at REV (default HEAD), and the path and commit are written into the file derived from
it. Python 3.11, standard library only.

Per element the file keeps what an audit judges: idShort (placeholders as published),
semanticId, model type, value type (as `xs:` names, so V2 `string` and V3 `xs:string`
are one), cardinality and the children. Reading choices (docs/templates.md says why):
- cardinality comes from the qualifier named `SMT/Cardinality`, `Cardinality` or
  `Multiplicity`, of any kind; when two disagree the newest name wins (and a line on
  stderr says so); when none is there the key is left out (the engine reads ZeroToMany:
  the template states no bound);
- `arbitrary` marks the elements that stand for "any elements here" (idShort with
  `arbitrary` in it, or a semanticId of https://admin-shell.io/SMT/General/Arbitrary...
  or .../SemanticIdNotAvailable/...); the engine neither requires nor descends into them.
"""

import argparse
import json
import subprocess
import sys

REPOSITORY = "https://github.com/admin-shell-io/submodel-templates"

# (file name, name, version, the publication it is, path in the repository). The newest
# bug-fix release of each version is read; its semanticIds are the version's.
SOURCES = [
    (
        "digital-nameplate-1.0",
        "Digital Nameplate",
        "1.0",
        "ZVEI Digital Nameplate for industrial equipment 1.0",
        "deprecated/ZVEI_Digital_Nameplate/1/0/SMT_qualified_ZVEI_Digital_Nameplate_V10.json",
    ),
    (
        "digital-nameplate-2.0",
        "Digital Nameplate",
        "2.0",
        "IDTA 02006-2-0 Digital Nameplate for industrial equipment",
        "deprecated/Digital nameplate/2/0/IDTA 02006-2-0_Template_Digital Nameplate.json",
    ),
    (
        "digital-nameplate-3.0",
        "Digital Nameplate",
        "3.0",
        "IDTA 02006-3-0-1 Digital Nameplate for industrial equipment",
        "published/Digital nameplate/3/0/1/IDTA 02006-3-0-1_Template_Digital Nameplate.json",
    ),
    (
        "technical-data-1.2",
        "Technical Data",
        "1.2",
        "IDTA 02003-1-2-1 Generic Frame for Technical Data for Industrial Equipment",
        "deprecated/Technical_Data/1/2/1/IDTA_02003-1-2-1_Template_TechnicalData.json",
    ),
    (
        "technical-data-2.0",
        "Technical Data",
        "2.0",
        "IDTA 02003-2-0-1 Technical Data",
        "published/Technical_Data/2/0/1/IDTA 02003_2-0-1_Template_TechnicalData.json",
    ),
    (
        "handover-documentation-1.2",
        "Handover Documentation",
        "1.2",
        "IDTA 02004-1-2 Handover Documentation",
        "deprecated/Handover Documentation/1/2/IDTA 02004-1-2_Template_Handover Documentation.json",
    ),
    (
        "handover-documentation-2.0",
        "Handover Documentation",
        "2.0",
        "IDTA 02004-2-0-1 Handover Documentation",
        "published/Handover Documentation/2/0/1/IDTA 02004-2-0-1_Template_HandoverDocumentation.json",
    ),
    (
        "contact-information-1.0",
        "Contact Information",
        "1.0",
        "IDTA 02002-1-0-1 Contact Information",
        "published/Contact Information/1/0/1/IDTA 02002-1-0-1_Template_ContactInformation.json",
    ),
]

# Newest first: when two disagree, the newer name is the template's current word.
CARDINALITY_NAMES = ["SMT/Cardinality", "Cardinality", "Multiplicity"]
CARDINALITIES = {
    "one": "One",
    "1": "One",
    "zerotoone": "ZeroToOne",
    "0..1": "ZeroToOne",
    "zerotomany": "ZeroToMany",
    "0..*": "ZeroToMany",
    "*": "ZeroToMany",
    "onetomany": "OneToMany",
    "1..*": "OneToMany",
}
XSD_TYPES = """anyURI base64Binary boolean byte date dateTime dateTimeStamp decimal double
duration dayTimeDuration yearMonthDuration float gDay gMonth gMonthDay gYear gYearMonth
hexBinary int integer long negativeInteger nonNegativeInteger nonPositiveInteger
positiveInteger short string time unsignedByte unsignedInt unsignedLong unsignedShort
langString""".split()
ARBITRARY_SEMANTICS = (
    "https://admin-shell.io/smt/general/arbitrary",
    "https://admin-shell.io/semanticidnotavailable",
)
# Where each model type keeps its children, in V2 and V3 JSON alike.
CHILDREN = {
    "SubmodelElementCollection": "value",
    "SubmodelElementList": "value",
    "Entity": "statements",
}


def git(git_dir, *args):
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], check=True, capture_output=True
    ).stdout


def model_type(e):
    t = e.get("modelType")
    return t.get("name") if isinstance(t, dict) else t


def semantic_id(e):
    keys = (e.get("semanticId") or {}).get("keys") or []
    return keys[-1]["value"].strip() if keys else None


def value_type(e):
    t = e.get("valueType")
    if isinstance(t, dict):  # V2 as AASX Package Explorer writes it
        t = (t.get("dataObjectType") or {}).get("name")
    if not t:
        return None
    bare = t.split(":")[-1].strip()
    for name in XSD_TYPES:
        if name.lower() == bare.lower():
            return "xs:" + name
    return t


def cardinality(e, where):
    found = {}
    for q in e.get("qualifiers") or []:
        name = q.get("type")
        if name in CARDINALITY_NAMES and name not in found:
            value = str(q.get("value", "")).strip()
            read = CARDINALITIES.get(value.lower().replace(" ", ""))
            if read is None:
                sys.exit(f"{where}: {name} {value!r} is no cardinality")
            found[name] = read
    if len(set(found.values())) > 1:
        print(f"{where}: cardinalities disagree {found}; the newest name wins", file=sys.stderr)
    return next((found[n] for n in CARDINALITY_NAMES if n in found), None)


def arbitrary(e):
    sem = (semantic_id(e) or "").lower()
    return "arbitrary" in (e.get("idShort") or "").lower() or sem.startswith(ARBITRARY_SEMANTICS)


def element(e, where):
    id_short = e.get("idShort") or None
    where = f"{where}/{id_short or '[item]'}"
    out = {}
    for key, value in [
        ("id_short", id_short),
        ("semantic_id", semantic_id(e)),
        ("model_type", model_type(e)),
        ("value_type", value_type(e)),
        ("cardinality", cardinality(e, where)),
        ("arbitrary", arbitrary(e) or None),
    ]:
        if value is not None:
            out[key] = value
    children = e.get(CHILDREN.get(out.get("model_type"), ""), None)
    if isinstance(children, list) and children and not out.get("arbitrary"):
        out["elements"] = [element(c, where) for c in children]
    return out


def derive(git_dir, commit, stem, name, version, document, path):
    env = json.loads(git(git_dir, "show", f"{commit}:{path}").decode("utf-8-sig"))
    submodels = env.get("submodels") or []
    if len(submodels) != 1:
        sys.exit(f"{path}: {len(submodels)} submodels, expected one")
    sm = submodels[0]
    return {
        "format": "aas-audit-template/1",
        "name": name,
        "version": version,
        "document": document,
        "id_short": sm.get("idShort"),
        "semantic_ids": [semantic_id(sm)],
        "source": {"repository": REPOSITORY, "path": path, "commit": commit},
        "elements": [element(e, stem) for e in sm.get("submodelElements") or []],
    }


def write(value, indent=0):
    """JSON with one element to a line, its children indented below it."""
    pad = " " * indent
    if isinstance(value, dict) and "elements" in value:
        head = {k: v for k, v in value.items() if k != "elements"}
        inner = json.dumps(head, ensure_ascii=False)[:-1]
        rows = ",\n".join(write(c, indent + 1) for c in value["elements"])
        sep = ", " if head else ""
        return f'{pad}{inner}{sep}"elements": [\n{rows}\n{pad}]}}'
    return pad + json.dumps(value, ensure_ascii=False)


def dump(template):
    head = {k: v for k, v in template.items() if k != "elements"}
    lines = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    rows = ",\n".join(write(e, 2) for e in template["elements"])
    return "{\n" + "\n".join(lines) + f'\n "elements": [\n{rows}\n ]\n}}\n'


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--git-dir", required=True, help="a clone of admin-shell-io/submodel-templates")
    p.add_argument("--commit", default="HEAD")
    p.add_argument("--out", default="crates/aas-audit/templates")
    a = p.parse_args()
    commit = git(a.git_dir, "rev-parse", a.commit + "^{commit}").decode().strip()
    for stem, name, version, document, path in SOURCES:
        template = derive(a.git_dir, commit, stem, name, version, document, path)
        text = dump(template)
        json.loads(text)  # what is written reads back
        with open(f"{a.out}/{stem}.json", "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{stem}.json  <-  {path} @ {commit[:12]}")


if __name__ == "__main__":
    main()
