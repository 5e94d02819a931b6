#!/usr/bin/env python3
"""Checks the C header's documentation markup (docs/contributing.md): text without tabs or
control characters (a doc comment written through an escaping tool once lost its
"\\returns" and "\\threadsafety" to a line break and a tab), every line of a doc comment
inside its " *" margin, and every function documented, with how threads may call it.

Usage: header-docs.py include/ocellus.h"""
import re
import sys


def problems(text):
    found = []
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        bad = [c for c in line if ord(c) < 32 or ord(c) == 127]
        if bad:
            found.append(f"line {number}: control character {bad[0]!r}")
    in_doc = False
    for number, line in enumerate(lines, 1):
        if in_doc and not re.match(r"^\s*\*", line):
            found.append(f"line {number}: a doc comment line outside its ' *' margin: {line[:40]!r}")
        # Block comments ("/**" alone on its line) keep the margin; shorter ones continue
        # aligned with their text.
        if line.strip() == "/**":
            in_doc = True
        elif "*/" in line:
            in_doc = False
    # Every documented function says how it may be called from threads (docs/contributing.md).
    for match in re.finditer(r"(/\*\*(?:(?!\*/).)*\*/)\s*\n(?:[A-Za-z_][^;{}()]*?)\b(oc_[a-z0-9_]+)\s*\(", text, re.S):
        if "\\threadsafety" not in match.group(1):
            found.append(f"{match.group(2)}: its doc comment does not say \\threadsafety")
    # Every function is documented: a doc comment right before it, or before the prototypes
    # it is grouped with (no blank line between them).
    previous = ""
    for number, line in enumerate(lines, 1):
        declared = re.match(r"^[A-Za-z_][^;{}()#/*]*?\b(oc_[a-z0-9_]+)\s*\(", line)
        if declared and not (previous.rstrip().endswith("*/") or previous.rstrip().endswith(";")
                             or previous.rstrip().endswith(",")):
            found.append(f"{declared.group(1)}: no doc comment right before it")
        previous = line
    return found


def main():
    with open(sys.argv[1], encoding="utf-8") as header:
        found = problems(header.read())
    for problem in found:
        print(f"{sys.argv[1]}: {problem}", file=sys.stderr)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
