#!/usr/bin/env python3
"""mirrors.py [--check] — the C header's mechanical mirrors, generated from include/ocellus.h
(SDL's dynapi idea: the header is the one source, the copies are made, never typed):

  Sources/OcellusCABI/exports.map      the linker's version script: a function stays in the
                                       release node it first shipped in; a new one joins the
                                       node of the version being made (Version.swift)
  debian/libocellus0.symbols           the same, as dpkg-gensymbols reads it
  bindings/python/ocellus/_native.py   ctypes structures, callback types and every function's
                                       argument and result types
  bindings/rust/ocellus-sys/src/lib.rs the -sys crate: types, constants, functions, each with
                                       the first paragraph of the header's comment as its doc

Without --check it writes them; with --check it writes nothing and exits 1 naming each file
that differs from what it would write (the test command runs that). The safe layers (the Python
modules, the `ocellus` crate) stay hand-written."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include/ocellus.h")
EXPORTS = "Sources/OcellusCABI/exports.map"
SYMBOLS = "debian/libocellus0.symbols"
PYTHON = "bindings/python/ocellus/_native.py"
RUST = "bindings/rust/ocellus-sys/src/lib.rs"


# ---- Reading the header ---------------------------------------------------------------------

def brief(comment):
    """The first paragraph of a doc comment, on one line, without its \\returns and the like."""
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
            # A comment that opens with its \returns says what the call returns.
            line = re.sub(r"^\\returns?\s*", "Returns ", line.strip())
            if line.startswith("\\"):
                break
        paragraph.append(line.strip())
    text = " ".join(paragraph).replace("\\ref ", "")
    return re.split(r"\s\\(?:threadsafety|ownership|returns?|param)\b", text)[0].strip()


def blank_comments(text):
    """`text` with every comment's characters turned to spaces (newlines kept), so that offsets
    into it are offsets into the header."""
    return re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def doc_before(header, start):
    """The doc comment right above offset `start` (only blank space between), else None. A
    comment above several declarations with no blank line between them documents each, and a
    line's trailing `/**< … */` belongs to that line, never to the next."""
    before = header[:start]
    while True:
        stripped = before.rstrip(" \t")
        if stripped.endswith("\n\n") or not stripped.rstrip():
            return None
        stripped = stripped.rstrip()
        if stripped.endswith("*/"):
            opening = stripped.rfind("/*")
            line_start = stripped.rfind("\n", 0, opening) + 1
            if stripped.startswith("/**", opening) and not stripped.startswith("/**<", opening) and not stripped[line_start:opening].strip():
                return brief(stripped[opening:])
            if stripped[line_start:opening].strip() and stripped.startswith("/**<", opening):
                before = stripped[:line_start]   # a declaration with its own comment: look above it
                continue
            return None
        line_start = stripped.rfind("\n") + 1
        if stripped[line_start:].lstrip().startswith(("#", "}")):
            return None
        before = stripped[:line_start]   # another declaration of the group: look above it


def trailing_doc(header, end):
    """A `/**< … */` on the line where a declaration ends."""
    line_end = header.find("\n", end)
    match = re.match(r"[^\n]*?/\*\*<(.*?)\*/", header[end:], re.S)
    return brief("/**" + match.group(1) + "*/") if match and end + match.start(1) < (line_end if line_end >= 0 else len(header)) else None


def parse_parameter(text):
    """(type, name, array length) of `const oc_x *name` or `char bus[16]`."""
    text = " ".join(text.split())
    match = re.match(r"(.*?)(\w+)\s*(?:\[(\d+)\])?$", text)
    kind, name, length = match.group(1).strip(), match.group(2), match.group(3)
    if not kind:   # an unnamed parameter: `void`, `oc_context *`
        return text, None, None
    return kind, name, int(length) if length else None


def parse(header):
    """The header's declarations, in order: dicts with `kind` (opaque, struct, enum, constants,
    callback, alias, define, function), `name`, `doc` and what the kind needs."""
    code = blank_comments(header)
    body_start = code.index('extern "C" {')
    items = []
    for match in re.finditer(
            r"^typedef struct (oc_\w+) (oc_\w+);"
            r"|^typedef (struct|enum) (oc_\w+) \{(.*?)\} \4;"
            r"|^enum \{(.*?)\};"
            r"|^typedef void \(\*(oc_\w+)\)\((.*?)\);"
            r"|^typedef (\w+) (oc_\w+);"
            r"|^#define (OC_\w+)[ \t]+([^\n]*?)[ \t]*$"
            r"|^([a-z][\w \t*]*?)\b(oc_\w+)\((.*?)\);",
            code, re.S | re.M):
        if match.start() < body_start:
            continue
        doc = doc_before(header, match.start())
        if match.group(1):
            items.append(dict(kind="opaque", name=match.group(1), doc=doc))
        elif match.group(3) == "struct":
            fields = []
            for field in re.finditer(r"([^;]+);", match.group(5)):
                kind, name, length = parse_parameter(field.group(1))
                start = match.start(5) + field.start(1) + len(field.group(1)) - len(field.group(1).lstrip())
                fields.append(dict(type=kind, name=name, length=length,
                                   doc=trailing_doc(header, match.start(5) + field.end()) or doc_before(header, start)))
            items.append(dict(kind="struct", name=match.group(4), doc=doc, fields=fields))
        elif match.group(3) == "enum" or match.group(6) is not None:
            body, offset = (match.group(5), match.start(5)) if match.group(3) else (match.group(6), match.start(6))
            values = []
            for value in re.finditer(r"(OC_\w+)\s*=\s*([^,]+?)\s*(?:,|$)", body, re.S):
                start = offset + value.start(1)
                values.append(dict(name=value.group(1), value=value.group(2).strip(),
                                   doc=trailing_doc(header, offset + value.end(2)) or doc_before(header, start)))
            if match.group(3):
                items.append(dict(kind="enum", name=match.group(4), doc=doc, values=values))
            else:
                items.append(dict(kind="constants", name=None, doc=doc, values=values))
        elif match.group(7):
            items.append(dict(kind="callback", name=match.group(7), doc=doc,
                              parameters=[parse_parameter(p) for p in match.group(8).split(",")]))
        elif match.group(9):
            items.append(dict(kind="alias", name=match.group(10), doc=doc, type=match.group(9)))
        elif match.group(11):
            items.append(dict(kind="define", name=match.group(11), value=match.group(12),
                              doc=trailing_doc(header, match.start(12)) or doc))
        else:
            parameters = [parse_parameter(p) for p in match.group(15).split(",")]
            items.append(dict(kind="function", name=match.group(14), doc=doc, returns=" ".join(match.group(13).split()),
                              parameters=[] if parameters == [("void", None, None)] else parameters))
    return items


# ---- The linker's version script and the Debian symbols file --------------------------------

def released(path):
    """{function: release} as the version script has them now."""
    found, node = {}, None
    for line in open(os.path.join(ROOT, path)).read().splitlines():
        opened = re.match(r"OCELLUS_(\d+\.\d+) \{", line)
        if opened:
            node = opened.group(1)
        name = re.match(r"\s+(oc_\w+);", line)
        if name:
            found[name.group(1)] = node
    return found


def current_release():
    version = open(os.path.join(ROOT, "Sources/OcellusCore/Version.swift")).read()
    major, minor = (re.search(rf"static let {part} = (\d+)", version).group(1) for part in ("major", "minor"))
    return f"{major}.{minor}"


def dated(release):
    """Whether CHANGELOG.md dates `release` (X.Y): then it shipped, and its node is closed."""
    changelog = open(os.path.join(ROOT, "CHANGELOG.md")).read()
    return re.search(rf"^## {re.escape(release)}\.\d+ — \d{{4}}-\d{{2}}-\d{{2}}", changelog, re.M) is not None


def releases(items):
    """Every function's release: the node it shipped in, or the one being made."""
    shipped, now = released(EXPORTS), current_release()
    functions = [item["name"] for item in items if item["kind"] == "function"]
    gone = sorted(set(shipped) - set(functions))
    if gone:
        sys.exit(f"mirrors.py: {', '.join(gone)} left the header: a released function stays (docs/ABI.md)")
    new = [name for name in functions if name not in shipped]
    if new and dated(now):
        sys.exit(f"mirrors.py: {now} has shipped (CHANGELOG.md dates it), so {', '.join(new)} cannot join its node: "
                 "set the next version first (docs/releasing.md)")
    return {name: shipped.get(name, now) for name in functions}


def exports_map(items):
    release = releases(items)
    nodes = sorted(set(release.values()), key=lambda v: tuple(int(p) for p in v.split(".")))
    text = ["/* The exported C ABI, by the release that added each function (as SDL3 does):",
            " * a program linked against a newer library records the version node of each",
            " * function it uses, so a distribution sees which release it needs. New functions",
            " * go into a new node; nothing ever moves between nodes (docs/ABI.md).",
            " * Generated from include/ocellus.h by scripts/mirrors.py. */"]
    for index, node in enumerate(nodes):
        text.append(f"OCELLUS_{node} {{")
        text.append("    global:")
        text += [f"        {name};" for name, version in release.items() if version == node]
        if index == 0:
            text.append("    local: *;")
        text.append("}" + (f" OCELLUS_{nodes[index - 1]};" if index else ";"))
        text.append("")
    return "\n".join(text)


def symbols_file(items):
    """As dpkg-gensymbols checks it (level 4: no more, no less). The library defines a symbol for
    a version node only for some nodes (0.3's, not 0.1's or 0.2's): a node keeps the line it has,
    and one that is new gets one, as 0.3's did."""
    release = releases(items)
    path = os.path.join(ROOT, SYMBOLS)
    listed = set(re.findall(r"^ OCELLUS_(\d+\.\d+)@", open(path).read(), re.M))
    shipped = set(released(EXPORTS).values())
    text = ["libocellus.so.0 libocellus0 #MINVER#", "* Build-Depends-Package: libocellus-dev"]
    nodes = sorted(set(release.values()), key=lambda v: tuple(int(p) for p in v.split(".")))
    for node in nodes:
        if node in listed or node not in shipped:
            text.append(f" OCELLUS_{node}@OCELLUS_{node} {node}.0")
        text += [f" {name}@OCELLUS_{version} {version}.0" for name, version in release.items() if version == node]
    return "\n".join(text) + "\n"


# ---- Python (ctypes) ----------------------------------------------------------------------

SCALARS_PY = {"bool": "ctypes.c_bool", "char": "ctypes.c_char", "int": "ctypes.c_int", "float": "ctypes.c_float",
              "double": "ctypes.c_double", "size_t": "ctypes.c_size_t", "uint8_t": "ctypes.c_uint8",
              "uint16_t": "ctypes.c_uint16", "uint32_t": "ctypes.c_uint32", "uint64_t": "ctypes.c_uint64",
              "int32_t": "ctypes.c_int32", "int64_t": "ctypes.c_int64", "oc_status": "c_status",
              "oc_callback_id": "c_callback_id"}


def camel(name):
    return "".join(part.capitalize() for part in name[3:].split("_"))


def python_type(kind, kinds):
    """The ctypes type of C type `kind`."""
    base = kind.replace("const ", "").replace("*", "").strip()
    depth = kind.count("*")
    what = kinds.get(base)
    if depth == 0:
        if what == "struct":
            return camel(base)
        if what == "enum":
            return "ctypes.c_int"
        if what == "callback":
            return base[3:].upper()
        return SCALARS_PY[base]
    if base == "char":   # a C string, or where the library writes one
        return "ctypes.c_char_p" if depth == 1 else "ctypes.POINTER(ctypes.c_char_p)"
    if base == "void" and depth == 1 or what == "opaque" and depth == 1:
        return "ctypes.c_void_p"
    if what == "opaque" or base == "void":
        return "ctypes.POINTER(ctypes.c_void_p)"
    inner = python_type(base, kinds)
    return f"ctypes.POINTER({inner})" if depth == 1 else f"ctypes.POINTER(ctypes.POINTER({inner}))"


def python_module(items):
    kinds = {item["name"]: item["kind"] for item in items if item["name"]}
    out = ['"""ctypes declarations of include/ocellus.h: its structures, callback types and every',
           "function's argument and result types (`FUNCTIONS`), which `_library.py` gives the library",
           "with its error check. Generated by scripts/mirrors.py: change the header, then run it.\"\"\"",
           "", "import ctypes", "from typing import Any, Dict, List, Tuple", "",
           "c_status = ctypes.c_int32", "c_callback_id = ctypes.c_uint64", ""]
    for item in items:
        if item["kind"] == "struct":
            out += ["", f"class {camel(item['name'])}(ctypes.Structure):", "    _fields_ = ["]
            for field in item["fields"]:
                kind = python_type(field["type"], kinds)
                if field["length"]:
                    kind = f"{kind} * {field['length']}"
                out.append(f'        ("{field["name"]}", {kind}),')
            out += ["    ]", ""]
        elif item["kind"] == "callback":
            arguments = ", ".join(python_type(kind, kinds) for kind, _, _ in item["parameters"])
            out += ["", f"{item['name'][3:].upper()}: Any = ctypes.CFUNCTYPE(None, {arguments})"]
    out += ["", "", "#: Every function: (argument types, result type).", "FUNCTIONS: Dict[str, Tuple[List[Any], Any]] = {"]
    for item in items:
        if item["kind"] == "function":
            arguments = ", ".join(python_type(kind, kinds) for kind, _, _ in item["parameters"])
            result = "None" if item["returns"] == "void" else python_type(item["returns"], kinds)
            out.append(f'    "{item["name"]}": ([{arguments}], {result}),')
    out.append("}")
    return "\n".join(out) + "\n"


# ---- Rust (the -sys crate) -----------------------------------------------------------------

SCALARS_RS = {"bool": "bool", "char": "c_char", "int": "c_int", "float": "f32", "double": "f64", "size_t": "usize",
              "uint8_t": "u8", "uint16_t": "u16", "uint32_t": "u32", "uint64_t": "u64", "int32_t": "i32", "int64_t": "i64",
              "void": "c_void"}
KEYWORDS = {"type", "ref", "match", "move", "self", "fn", "loop", "box", "impl", "in", "mod", "use", "where"}


def rust_type(kind):
    """The Rust type of C type `kind`: `const T *` is `*const T`, outer pointers are `*mut`."""
    const = kind.startswith("const ")
    base = kind.replace("const ", "").replace("*", "").strip()
    rust = SCALARS_RS.get(base, base)
    for level in range(kind.count("*")):
        rust = f"*{'const' if const and level == 0 else 'mut'} {rust}"
    return rust


def rust_name(name):
    return name + "_" if name in KEYWORDS else name


def rust_doc(doc, indent=""):
    """A doc line; brackets escaped (`dimensions[0]` is not a rustdoc link)."""
    return [f"{indent}/// " + doc.replace("[", "\\[").replace("]", "\\]")] if doc else []


def rust_value(value):
    fourcc = re.match(r"OC_FOURCC\('(.)', '(.)', '(.)', '(.)'\)", value)
    if fourcc:
        return f'oc_fourcc(*b"{"".join(fourcc.groups())}")'
    return value.replace("1u <<", "1 <<")


def rust_crate(items):
    out = ["//! Raw declarations of `include/ocellus.h`, generated from it by `scripts/mirrors.py`. See the",
           "//! header for ownership and threading of each function; the safe wrapper is the `ocellus` crate.",
           "#![allow(non_camel_case_types)]", "#![warn(missing_docs)]", "",
           "use std::os::raw::{c_char, c_int, c_void};", "",
           "/// `OC_FOURCC(a, b, c, d)`.", "pub const fn oc_fourcc(code: [u8; 4]) -> u32 {", "    u32::from_le_bytes(code)", "}", ""]
    functions = []
    for item in items:
        kind, name = item["kind"], item["name"]
        if kind == "opaque":
            out += rust_doc(item["doc"]) + ["#[repr(C)]", f"pub struct {name} {{", "    _private: [u8; 0],", "}"]
        elif kind == "struct":
            out += rust_doc(item["doc"]) + ["#[repr(C)]", "#[derive(Clone, Copy, Debug)]", f"pub struct {name} {{"]
            for field in item["fields"]:
                field_type = rust_type(field["type"])
                if field["length"]:
                    field_type = f"[{field_type}; {field['length']}]"
                out += rust_doc(field["doc"], "    ") + [f"    pub {rust_name(field['name'])}: {field_type},"]
            out.append("}")
        elif kind in ("enum", "constants"):
            integer = "i32" if any(value["value"].startswith("-") for value in item["values"]) else "u32"
            type_name = name or ("oc_status" if item["values"][0]["name"] == "OC_OK" else integer)
            if name:
                out += rust_doc(item["doc"]) + [f"pub type {name} = {integer};"]
            for value in item["values"]:
                out += rust_doc(value["doc"] or item["doc"] if not name else value["doc"])
                out.append(f"pub const {value['name']}: {type_name} = {rust_value(value['value'])};")
        elif kind == "callback":
            parameters = ", ".join(f"{rust_name(p)}: {rust_type(t)}" for t, p, _ in item["parameters"])
            out += rust_doc(item["doc"]) + [f'pub type {name} = Option<unsafe extern "C" fn({parameters})>;']
        elif kind == "alias":
            out += rust_doc(item["doc"]) + [f"pub type {name} = {SCALARS_RS[item['type']]};"]
        elif kind == "define" and item["value"].startswith("OC_FOURCC("):
            out += rust_doc(item["doc"]) + [f"pub const {name}: u32 = {rust_value(item['value'])};"]
        elif kind == "function":
            parameters = ", ".join(f"{rust_name(p)}: {rust_type(t)}" for t, p, _ in item["parameters"])
            returns = "" if item["returns"] == "void" else f" -> {rust_type(item['returns'])}"
            functions += rust_doc(item["doc"], "    ") + [f"    pub fn {name}({parameters}){returns};"]
    out += ["", '#[link(name = "ocellus")]', 'extern "C" {'] + functions + ["}"]
    return rustfmt("\n".join(out) + "\n")


def rustfmt(text):
    """`text` as `cargo fmt` leaves it (the crate's rustfmt.toml), so that the check of the
    bindings' formatting and this one agree."""
    config = os.path.join(ROOT, "bindings/rust/rustfmt.toml")
    try:
        done = subprocess.run(["rustfmt", "--edition", "2021", "--config-path", config, "--emit", "stdout"],
                              input=text, capture_output=True, text=True, check=True)
    except FileNotFoundError:
        sys.exit("mirrors.py: rustfmt is needed to write the -sys crate (apt install rustfmt, or rustup)")
    except subprocess.CalledProcessError as error:
        sys.exit(f"mirrors.py: rustfmt refused the -sys crate it was given:\n{error.stderr}")
    return done.stdout


def main():
    check = "--check" in sys.argv
    items = parse(open(HEADER).read())
    undocumented = [item["name"] for item in items if item["kind"] in ("function", "struct", "enum", "callback", "opaque")
                    and not item["doc"]]
    undocumented += [f"{item['name']}.{field['name']}" for item in items if item["kind"] == "struct"
                     for field in item["fields"] if not field["doc"]]
    if undocumented:
        sys.exit("mirrors.py: the header documents every declaration; these have no doc comment: " + ", ".join(undocumented))
    differ = []
    for path, make in ((EXPORTS, exports_map), (SYMBOLS, symbols_file), (PYTHON, python_module), (RUST, rust_crate)):
        text = make(items)
        full = os.path.join(ROOT, path)
        current = open(full).read()
        # Compared as this machine's rustfmt lays both out: another rustfmt's layout is no difference.
        if (rustfmt(current) if path == RUST else current) == text:
            continue
        differ.append(path)
        if not check:
            open(full, "w").write(text)
    if check and differ:
        sys.exit("mirrors.py: not what include/ocellus.h makes (run scripts/mirrors.py): " + ", ".join(differ))
    print(f"{'would write' if check else 'wrote'}: {', '.join(differ)}" if differ else "every mirror is the header's")


if __name__ == "__main__":
    main()
