#!/usr/bin/env python3
"""docs-from-header.py HEADER LIB.rs — gives every item of the -sys crate the doc comment
the C header has for it: the first paragraph of the `/** … */` block above a function,
type, enum constant or struct field of the same name (struct fields matched within their
struct). Items already documented are left alone, so it can run again after the header
grows; `make rust-sys-docs` runs it."""
import re
import sys

header = open(sys.argv[1]).read()
lib_path = sys.argv[2]
lib = open(lib_path).read().splitlines()


def brief(comment):
    text = re.sub(r"^\s*/\*\*<?|\*/\s*$", "", comment.strip())
    lines = [re.sub(r"^\s*\* ?", "", line).rstrip() for line in text.splitlines()]
    paragraph = []
    for line in lines:
        if not line.strip():
            if paragraph:
                break
            continue
        if line.lstrip().startswith("\\"):
            break
        paragraph.append(line.strip())
    return " ".join(paragraph).replace("\\ref ", "")


docs, fields = {}, {}
for match in re.finditer(r"(/\*\*(?:(?!\*/).)*\*/)\s*([^;{}=]*?)\b(oc_\w+|OC_\w+)\s*(\(|=|;|,|\{)", header, re.S):
    comment, before, name = match.group(1), match.group(2), match.group(3)
    if "\n" in before.strip() or "#" in before or "*/" in before:
        continue
    docs.setdefault(name, brief(comment))
for match in re.finditer(r"typedef\s+(?:struct|enum)\s+(oc_\w+)\s*\{(.*?)\}\s*\1\s*;", header, re.S):
    struct, body = match.group(1), match.group(2)
    for field in re.finditer(r"(/\*\*(?:(?!\*/).)*\*/)\s*[^;/]*?\b(\w+)\s*(?:\[[^\]]*\])?\s*[;,=]", body, re.S):
        fields[(struct, field.group(2))] = brief(field.group(1))
for match in re.finditer(r"typedef\s+(?:struct|enum)\s+(oc_\w+)", header):
    before = header[:match.start()].rstrip()
    if before.endswith("*/"):
        start = before.rfind("/**")
        if start >= 0:
            docs.setdefault(match.group(1), brief(before[start:]))

out, struct = [], None
for index, line in enumerate(lib):
    stripped = line.strip()
    opened = re.match(r"pub struct (\w+)", stripped)
    if opened:
        struct = opened.group(1)
    item = re.match(r"pub (?:unsafe )?(?:fn|struct|type|const|static) (\w+)", stripped)
    field = re.match(r"pub (\w+):", stripped) if struct and not item else None
    documented = index > 0 and lib[index - 1].strip().startswith(("///", "#["))
    text = None
    if item:
        text = docs.get(item.group(1))
    elif field:
        text = fields.get((struct, field.group(1)))
    if text and not documented:
        indent = line[:len(line) - len(line.lstrip())]
        out.append(f"{indent}/// {text}")
    out.append(line)
    if stripped.startswith("}"):
        struct = None
open(lib_path, "w").write("\n".join(out) + "\n")
