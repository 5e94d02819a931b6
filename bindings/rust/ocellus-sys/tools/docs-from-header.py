#!/usr/bin/env python3
"""docs-from-header.py [--check] HEADER LIB.rs — gives every item of the -sys crate the doc
comment the C header has for it: the first paragraph of the `/** … */` block above a
function, type, enum constant or struct field of the same name (struct fields matched
within their struct), or the `/**< … */` after it on its line; a one-line doc that no longer
says what the header says is replaced, so it can run again after the header changes
(`make rust-sys-docs`). With --check it changes nothing and lists the items undocumented or
documented differently from the header (exit 1 if any): the header documents every
declaration, so the list is what the header is missing or what changed in it."""
import re
import sys

check = "--check" in sys.argv
paths = [arg for arg in sys.argv[1:] if arg != "--check"]
header = open(paths[0]).read()
lib_path = paths[1]
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
            if paragraph:
                break
            # A comment that opens with its \\returns says what the call returns.
            line = re.sub(r"^\\returns?\s*", "Returns ", line.strip())
            if line.startswith("\\"):
                break
        paragraph.append(line.strip())
    text = " ".join(paragraph).replace("\\ref ", "")
    # Inline \\threadsafety / \\ownership notes belong to the header, not the one-line summary.
    return re.split(r"\s\\(?:threadsafety|ownership|returns?|param)\b", text)[0].strip()


docs, fields = {}, {}
# Function-pointer typedefs: the comment above `typedef void (*oc_x_callback)(…)`.
for match in re.finditer(r"(/\*\*(?:(?!\*/).)*\*/)\s*typedef[^;(]*\(\s*\*\s*(oc_\w+)\s*\)", header, re.S):
    docs.setdefault(match.group(2), brief(match.group(1)))
# Trailing comments: `OC_X = 1, /**< … */`, `#define OC_Y … /**< … */`.
for match in re.finditer(r"^\s*(?:#define\s+)?(OC_\w+)\b[^\n]*?/\*\*<(.*?)\*/", header, re.M):
    docs.setdefault(match.group(1), brief("/**" + match.group(2) + "*/"))
for match in re.finditer(r"(/\*\*(?:(?!\*/).)*\*/)\s*([^;{}=]*?)\b(oc_\w+|OC_\w+)\s*(\(|=|;|,|\{)", header, re.S):
    comment, before, name = match.group(1), match.group(2), match.group(3)
    if "\n" in before.strip() or "#" in before or "*/" in before or "/*" in before:
        continue
    docs.setdefault(name, brief(comment))
for match in re.finditer(r"typedef\s+(?:struct|enum)\s+(oc_\w+)\s*\{(.*?)\}\s*\1\s*;", header, re.S):
    struct, body = match.group(1), match.group(2)
    # A `/**< … */` belongs to the field before it, never to the one after.
    for field in re.finditer(r"(/\*\*(?!<)(?:(?!\*/).)*\*/)\s*[^;/]*?\b(\w+)\s*(?:\[[^\]]*\])?\s*[;,=]", body, re.S):
        fields[(struct, field.group(2))] = brief(field.group(1))
    for field in re.finditer(r"\b(\w+)\s*(?:\[[^\]]*\])?\s*;[ \t]*/\*\*<(.*?)\*/", body):
        fields.setdefault((struct, field.group(1)), brief("/**" + field.group(2) + "*/"))
for match in re.finditer(r"typedef\s+(?:struct|enum)\s+(oc_\w+)", header):
    before = header[:match.start()].rstrip()
    if before.endswith("*/"):
        start = before.rfind("/*")   # the comment right above: a doc comment, or a section's (no doc)
        if before.startswith("/**", start):
            docs.setdefault(match.group(1), brief(before[start:]))

# A comment above several declarations with no blank line between them documents each
# ("Frame properties; …" above oc_frame_width, oc_frame_height, …); only top-level
# declarations, so an enum's last value does not lend its comment to the enum's name.
for match in re.finditer(r"(/\*\*(?:(?!\*/).)*\*/)\n((?:[^\s}/*][^\n]*\b(?:oc_\w+|OC_\w+)\s*(?:\(|=|;)[^\n]*\n)+)", header, re.S):
    text = brief(match.group(1))
    for line in match.group(2).splitlines():
        name = re.search(r"\b(oc_\w+|OC_\w+)\s*(?:\(|=|;)", line)
        if name and not line.lstrip().startswith(("/*", "*")):
            docs.setdefault(name.group(1), text)

out, struct, attributes, missing, stale = [], None, [], [], []
for index, line in enumerate(lib):
    stripped = line.strip()
    # Attributes (#[repr(C)]) stay between the doc comment and the item.
    if stripped.startswith("#[") and not stripped.startswith("#[link"):
        attributes.append(line)
        continue
    opened = re.match(r"pub struct (\w+)", stripped)
    if opened:
        struct = opened.group(1)
    item = re.match(r"pub (?:unsafe )?(?:fn|struct|type|const|static) (\w+)", stripped)
    field = re.match(r"pub (\w+):", stripped) if struct and not item else None
    documented = bool(out) and out[-1].strip().startswith("///")
    text = None
    if item:
        text = docs.get(item.group(1))
    elif field:
        text = fields.get((struct, field.group(1).rstrip("_")))  # type_ is C's `type`
    if (item or field) and not documented and not text:
        missing.append(f"{lib_path}:{index + 1}: {stripped}")
    indent = line[:len(line) - len(line.lstrip())]
    single = documented and not (len(out) > 1 and out[-2].strip().startswith("///"))
    if text and documented and single and out[-1].strip() != f"/// {text}":
        stale.append(f"{lib_path}:{index + 1}: {stripped}")
        out[-1] = f"{indent}/// {text}"
    if text and not documented:
        out.append(f"{indent}/// {text}")
    out.extend(attributes)
    attributes = []
    out.append(line)
    if stripped.startswith("}"):
        struct = None
if check:
    print("\n".join(missing + [f"{item} (its doc is not the header's)" for item in stale]) or "every item is documented as the header says")
    sys.exit(1 if missing or stale else 0)
open(lib_path, "w").write("\n".join(out) + "\n")
