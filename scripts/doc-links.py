#!/usr/bin/env python3
"""Every relative link of the README, the CHANGELOG and docs/ (pages in folders included) names a
file of the tree and, with `#anchor`, a heading of that file as GitHub slugs it. A page moved or a
heading renamed fails here instead of in a reader's browser.
    scripts/doc-links.py ROOT   → exit 1 naming each broken link"""
import re
import sys
from pathlib import Path

LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading):
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    text = re.sub(r"(?ms)^```.*?^```", "", path.read_text())
    return {slug(m.group(1)) for m in re.finditer(r"(?m)^#+ (.*)$", text)}


def main():
    root = Path(sys.argv[1]).resolve()
    pages = [root / "README.md", root / "CHANGELOG.md", *sorted((root / "docs").rglob("*.md"))]
    broken, checked = [], 0
    for page in pages:
        text = re.sub(r"(?ms)^```.*?^```", "", page.read_text())
        for match in LINK.finditer(text):
            target = match.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            checked += 1
            file, _, anchor = target.partition("#")
            resolved = (page.parent / file).resolve() if file else page
            where = f"{page.relative_to(root)}: ({target})"
            if not resolved.exists():
                broken.append(f"{where} names no file")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                broken.append(f"{where} names no heading of {resolved.relative_to(root)}")
    for line in broken:
        print(line)
    print(f"{checked} links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
