#!/usr/bin/env python3
"""Checks the book (docs/, an mdBook) and the README for what mdBook does not:

- every link and image in README.md, CONTRIBUTING.md and the book's Markdown points to a
  file that exists and, for `FILE.md#anchor` or `#anchor`, to a heading that exists
  (anchors as GitHub and mdBook make them: lower case, spaces to hyphens, punctuation
  dropped, -1, -2 for repeats);
- a link in the book stays inside docs/ (mdBook copies only docs/, so a link to
  ../bench/RESULTS.md would be broken in the built book: name such files as `code`);
- every chapter in docs/ is listed in docs/SUMMARY.md, and every image in docs/ is shown
  by some page (a screenshot no page shows is a page's content lost);
- README.md has at most 250 lines.

Links to other sites (https:, mailto: …) are not followed. Prints every problem as
FILE:LINE: what, and exits 1 if there is any.

Usage: scripts/check-book.py [REPO_ROOT]        (make docs runs it after mdbook build)
"""
import os
import re
import sys
import unicodedata
from urllib.parse import unquote

README_MAX_LINES = 250
BOOK = "docs"
BUILD_DIRS = {os.path.join(BOOK, "book")}  # mdbook build docs's default output
IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)+?\1", re.S)
INLINE_LINK = re.compile(
    r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>\n]*>|[^()\s]+(?:\([^()\s]*\)[^()\s]*)*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)"
)
REF_DEF = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)", re.M)
HTML_LINK = re.compile(r"<(img|a)\b[^>]*?\b(src|href)\s*=\s*[\"']([^\"']+)[\"']", re.I)
INCLUDE = re.compile(r"\{\{#(?:include|rustdoc_include)\s+([^}\s:]+)")
ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def blank(match):
    """The match as spaces, its line breaks kept, so offsets still give line numbers."""
    return re.sub(r"[^\n]", " ", match.group(0))


def strip_fences(text):
    """The text with fenced code blocks blanked out."""
    out, fence = [], None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append("")
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                fence = None
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def strip_code(text):
    """The text with fenced code blocks and code spans blanked out."""
    return CODE_SPAN.sub(blank, strip_fences(text))


def heading_text(raw):
    """What a heading shows: links by their text, code and emphasis marks dropped."""
    raw = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    raw = re.sub(r"<[^>]+>", "", raw)
    return raw.replace("`", "").replace("*", "")


def slug(text):
    """A heading's anchor as GitHub and mdBook make it."""
    out = []
    for ch in text.strip().lower():
        if ch.isalnum() or ch in "_-" or unicodedata.category(ch) == "Mn":
            out.append(ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


_anchors = {}


def anchors(path):
    """The anchors of the headings of a Markdown file."""
    if path in _anchors:
        return _anchors[path]
    with open(path, encoding="utf-8") as f:
        lines = strip_fences(f.read()).split("\n")
    found, seen = set(), {}
    for i, line in enumerate(lines):
        m = ATX.match(line)
        text = m.group(2) if m else None
        if text is None and i > 0 and lines[i - 1].strip() and re.match(r"^ {0,3}(=+|-+)[ \t]*$", line) \
                and not lines[i - 1].lstrip().startswith(("|", "-", "*", "+", ">")):
            text = lines[i - 1].strip()
        if text is None:
            continue
        explicit = re.search(r"\{#([^}\s]+)[^}]*\}\s*$", text)
        if explicit:
            found.add(explicit.group(1))
            continue
        base = slug(heading_text(text))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    _anchors[path] = found
    return found


def markdown_files(root):
    files = [f for f in ("README.md", "CONTRIBUTING.md") if os.path.exists(os.path.join(root, f))]
    for folder, dirs, names in os.walk(os.path.join(root, BOOK)):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if os.path.join(rel, d) not in BUILD_DIRS]
        files += [os.path.join(rel, n) for n in sorted(names) if n.endswith(".md")]
    return files


def links(text):
    """(line, kind, destination) of every link, image and include in a Markdown text."""
    text = strip_code(text)
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    for m in INLINE_LINK.finditer(text):
        yield line_of(m.start()), "image" if m.group(1) else "link", m.group(3).strip("<>")
    for m in REF_DEF.finditer(text):
        yield line_of(m.start()), "link", m.group(1).strip("<>")
    for m in HTML_LINK.finditer(text):
        yield line_of(m.start()), "image" if m.group(1).lower() == "img" else "link", m.group(3)
    for m in INCLUDE.finditer(text):
        yield line_of(m.start()), "include", m.group(1)


def check(root):
    problems, shown, counts = [], set(), {"link": 0, "image": 0, "include": 0}
    book = os.path.join(root, BOOK)
    files = markdown_files(root)
    for rel in files:
        path = os.path.join(root, rel)
        in_book = rel.startswith(BOOK + os.sep)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, kind, dest in links(text):
            if SCHEME.match(dest) or dest.startswith("//"):
                continue  # another site: not followed
            counts[kind] += 1
            where = f"{rel}:{line}"
            target, _, anchor = dest.partition("#")
            target = unquote(target)
            if target.startswith("/"):
                problems.append(f"{where}: {kind} {dest!r} is absolute; make it relative to {rel}")
                continue
            full = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
            if not os.path.exists(full):
                problems.append(f"{where}: {kind} {dest!r}: no such file {os.path.relpath(full, root)}")
                continue
            if kind == "image":
                shown.add(os.path.realpath(full))
            if in_book and kind != "include" and os.path.commonpath([full, book]) != book:
                problems.append(f"{where}: {kind} {dest!r} leaves the book ({BOOK}/): it would be "
                                f"broken in the built book; name {os.path.relpath(full, root)} as `code`")
            if anchor and full.endswith(".md") and anchor not in anchors(full):
                problems.append(f"{where}: {kind} {dest!r}: no heading #{anchor} in "
                                f"{os.path.relpath(full, root)}")

    summary = os.path.join(book, "SUMMARY.md")
    if not os.path.exists(summary):
        problems.append(f"{BOOK}/SUMMARY.md: missing")
    else:
        with open(summary, encoding="utf-8") as f:
            listed = {os.path.normpath(os.path.join(book, unquote(d.partition("#")[0])))
                      for _, _, d in links(f.read()) if not SCHEME.match(d)}
        for rel in files:
            full = os.path.normpath(os.path.join(root, rel))
            if rel.startswith(BOOK + os.sep) and full != os.path.normpath(summary) and full not in listed:
                problems.append(f"{rel}: a chapter that {BOOK}/SUMMARY.md does not list")

    for folder, dirs, names in os.walk(book):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if os.path.join(rel, d) not in BUILD_DIRS]
        for n in sorted(names):
            full = os.path.join(folder, n)
            if n.lower().endswith(IMAGE_EXTS) and os.path.realpath(full) not in shown:
                problems.append(f"{os.path.relpath(full, root)}: an image no page of the book or README shows")

    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        n = sum(1 for _ in f)
    if n > README_MAX_LINES:
        problems.append(f"README.md: {n} lines, more than {README_MAX_LINES}: move the rest into the book")
    return problems, counts, len(files)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    problems, counts, nfiles = check(root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check-book: {len(problems)} broken link(s) or problem(s) in the book or README",
              file=sys.stderr)
        return 1
    print(f"check-book: {counts['link']} links, {counts['image']} images and {counts['include']} "
          f"includes in {nfiles} Markdown files resolve; README.md within {README_MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
