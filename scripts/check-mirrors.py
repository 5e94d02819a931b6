#!/usr/bin/env python3
"""Checks that the API's mirrors are cut like include/ocellus.h: every section of the header
names its files in each mirror (the "Mirrors" comment under its heading), those files exist,
and every function the C ABI implements (`@c @implementation` in Sources/OcellusCABI) is in a
file its section names. Prints what is wrong; exits 1 then."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIRRORS = {"Sources/OcellusCABI/": "Sources/OcellusCABI", "cli/": "cli",
           "bindings/python/ocellus/": "bindings/python/ocellus", "bindings/rust/ocellus/src/": "bindings/rust/ocellus/src"}


def sections(header):
    """(title, {mirror directory: [files]}, [functions declared]) for each section."""
    found = []
    lines = header.split("\n")
    for index, line in enumerate(lines):
        if line.startswith("/* ----") and index + 2 < len(lines) and lines[index + 2].startswith("/* ----") \
                and not lines[index + 1].startswith("/* ----"):
            found.append([lines[index + 1].strip("/* ").strip(), index, {}, []])
    for number, section in enumerate(found):
        end = found[number + 1][1] if number + 1 < len(found) else len(lines)
        text = "\n".join(lines[section[1]:end])
        comment = re.search(r"/\*\s*\n \* Mirrors \(docs/contributing\.md\):(.*?)\*/", text, re.S)
        if comment:
            body = " ".join(part.strip(" *") for part in comment.group(1).split("\n"))
            for prefix, directory in MIRRORS.items():
                match = re.search(re.escape(prefix) + r"\s*([^;]*?)(?:;|\.\s*$)", body)
                if match:
                    names = [re.sub(r"\s*\(.*?\)", "", name).strip() for name in match.group(1).split(",")]
                    section[2][directory] = [name for name in names if name and name != "(none)"]
        section[3] = re.findall(r"^[a-z][^;(]*?\b(oc_[a-z0-9_]+)\s*\(", text, re.M)
    return found


def main():
    header = open(os.path.join(ROOT, "include/ocellus.h")).read()
    problems = []
    where = {}
    for title, _, mirrors, functions in sections(header):
        if set(mirrors) != set(MIRRORS.values()):
            problems.append(f"section \"{title}\" does not name its files in every mirror: {sorted(mirrors)}")
        for directory, names in mirrors.items():
            for name in names:
                if not os.path.exists(os.path.join(ROOT, directory, name)):
                    problems.append(f"section \"{title}\" names {directory}/{name}, which does not exist")
        for function in functions:
            where.setdefault(function, mirrors.get("Sources/OcellusCABI", []))
    for path in sorted(glob.glob(os.path.join(ROOT, "Sources/OcellusCABI/*.swift"))):
        for function in re.findall(r"@c @implementation public func (oc_[a-z0-9_]+)", open(path).read()):
            files = where.get(function)
            if files is None:
                problems.append(f"{function} is implemented but declared in no section of the header")
            elif os.path.basename(path) not in files:
                problems.append(f"{function} is in {os.path.basename(path)}; its header section names {', '.join(files)}")
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
