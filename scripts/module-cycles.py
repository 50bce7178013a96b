#!/usr/bin/env python3
"""Fails when the modules of a crate import each other in a circle (issue 24).

    scripts/module-cycles.py [CRATE_SRC ...]   # default: every crates/*/src and src-tauri/src

A module is a top-level file or folder of a crate's src/. It depends on another when it
names `crate::other…`, or an item the crate root re-exports from `other`
(`pub use other::{Item}` in lib.rs or main.rs), in code (links in comments do not
count). Prints each circle and exits 1 if there
is one; prints the edges with -v.
"""

import glob
import os
import re
import sys

MOD = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", re.M)
REEXPORT = re.compile(r"^\s*pub\s+use\s+(\w+)::(\{[^;]*\}|\w+)\s*;", re.M | re.S)
CRATE_PATH = re.compile(r"crate::(\{[^;]*?\}|\w+)", re.S)


def names(group):
    """The first segment of each path in `a` or `{a, b::c, d as e}`."""
    group = group.strip("{} \n")
    found, depth, part = [], 0, ""
    for ch in group + ",":
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            part = part.strip()
            if part:
                found.append(re.split(r"::|\s", part)[0])
            part = ""
        else:
            part += ch
    return found


def module_files(src, module):
    single = os.path.join(src, module + ".rs")
    folder = os.path.join(src, module)
    files = [single] if os.path.exists(single) else []
    files += glob.glob(os.path.join(folder, "**", "*.rs"), recursive=True)
    return files


def graph(src):
    root = next(p for p in (os.path.join(src, "lib.rs"), os.path.join(src, "main.rs")) if os.path.exists(p))
    text = open(root).read()
    modules = set(MOD.findall(text))
    owner = {}
    for module, group in REEXPORT.findall(text):
        if module in modules:
            for name in names(group):
                owner[name] = module
    edges = {m: set() for m in modules}
    for module in modules:
        for path in module_files(src, module):
            # A comment's link to another module is no dependency.
            body = re.sub(r"^\s*//.*$", "", open(path).read(), flags=re.M)
            for group in CRATE_PATH.findall(body):
                for name in names(group):
                    target = name if name in modules else owner.get(name)
                    if target and target != module:
                        edges[module].add(target)
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main(argv):
    verbose = "-v" in argv
    srcs = [a for a in argv if a != "-v"] or sorted(glob.glob("crates/*/src")) + ["src-tauri/src"]
    failed = False
    for src in srcs:
        edges = graph(src)
        if verbose:
            for m in sorted(edges):
                print(f"{src}: {m} -> {', '.join(sorted(edges[m])) or '-'}")
        for component in cycles(edges):
            failed = True
            print(f"{src}: modules import each other in a circle: {' ↔ '.join(component)}", file=sys.stderr)
    if not failed:
        print(f"module-cycles: no circle in {len(srcs)} crates", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
