#!/usr/bin/env python3
"""Generates the bad-input cases of the C ABI from include/ocellus.h.

Every function the header declares is called with NULL, stale, foreign and
wrongly typed handles, NULL outputs, callbacks and strings, non-UTF-8 strings,
out-of-range and huge numbers, malformed structs — and, for every object that
takes callbacks, from inside its own callback. A function with a parameter this
generator cannot classify fails the generation, so a function added to the
header later is covered or the suite says why not.

Every status a call returns must be one its comment in the header states (or
one the header's opening rules give every call: OC_ERROR_INVALID_HANDLE for a
bad handle, OC_ERROR_INVALID_ARGUMENT for a bad pointer, string or value,
OC_ERROR_WRONG_STATE from inside a callback); an oc_status function whose
comment states none fails the generation. Besides the bad input, every
function is also called once with good arguments on fresh objects, so the
statuses of ordinary states are checked too.

Writes cases.c (one C function per case, `badinput N` runs case N) and
cases.tsv (number, name, expectation) for run.py.
"""
import re
import sys

HANDLE_TYPES = ["oc_context", "oc_device", "oc_device_list", "oc_control_list", "oc_discovery_session",
                "oc_capture_session", "oc_video_data_output", "oc_frame", "oc_audio_data_output",
                "oc_photo_output", "oc_movie_file_output", "oc_rotation_coordinator", "oc_depth_data_output",
                "oc_output_synchronizer", "oc_metadata_output", "oc_multi_cam_session"]
# Every `typedef enum … NAME;` of the header (filled by parse): a new enum is covered without
# being listed here.
ENUM_TYPES = set()
# Structs the caller fills, each opening with struct_size (filled by parse from the header, so a
# new one is covered without being listed): set up with its `_init` function where the header has
# one, else by setting struct_size.
SIZED_STRUCTS = {}

# Where NULL means something (documented in the header), not an error.
NULL_MEANS_SOMETHING = {
    ("oc_capture_session_set_audio_input", "microphone"),       # no microphone
    ("oc_context_set_preferred_microphone", "microphone"),      # no preference
    ("oc_context_create", "options"),                           # defaults
    ("oc_photo_output_capture", "settings"),                    # defaults
    ("oc_rotation_coordinator_follow_host_sensor", "bus_address"),  # the system bus
    ("oc_video_data_output_set_frame_callback", "callback"),    # clears
    ("oc_audio_data_output_set_callback", "callback"),          # clears
    ("oc_discovery_session_set_callback", "callback"),          # clears
    ("oc_depth_data_output_set_frame_callback", "callback"),    # clears
    ("oc_output_synchronizer_set_callback", "callback"),        # clears
    ("oc_metadata_output_set_callback", "callback"),            # clears
    ("oc_metadata_output_create", "face_model"),                # the system's model
}
# Functions that free: NULL is ignored; anything else invalid must leave a message.
FREEING = re.compile(r"_(destroy|free|release)$")
# Callback-taking objects: how a case gets inside the callback, and which functions it tries there.
# Besides the object's own family, the objects it belongs to: destroying the session from a
# photo's callback, or the context from a frame callback, must not hang or crash either.
INSIDE = {
    "frame": ["oc_video_data_output_", "oc_frame_", "oc_capture_session_", "oc_context_"],
    "audio": ["oc_audio_data_output_", "oc_capture_session_", "oc_context_"],
    "session_event": ["oc_capture_session_", "oc_context_"],
    "context": ["oc_context_", "oc_discovery_session_"],
    "discovery": ["oc_discovery_session_", "oc_context_"],
    "rotation": ["oc_rotation_coordinator_", "oc_context_"],
    "photo": ["oc_photo_output_", "oc_capture_session_"],
    "recording": ["oc_movie_file_output_", "oc_capture_session_"],
    "metadata": ["oc_metadata_output_", "oc_capture_session_"],
    "multi_cam_event": ["oc_multi_cam_session_", "oc_context_"],
}


def c_source_without_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"(?m)^\s*#.*$", " ", text)


def parse(header):
    text = c_source_without_comments(header)
    ENUM_TYPES.update(re.findall(r"typedef\s+enum\s+\w*\s*\{[^}]*\}\s*(\w+)\s*;", text))
    for struct in re.findall(r"typedef\s+struct\s+\w*\s*\{\s*uint32_t\s+struct_size\s*;[^}]*\}\s*(\w+)\s*;", text):
        initializer = re.search(rf"\b{struct}_init\s*\(", text)
        SIZED_STRUCTS[struct] = f"{struct}_init(&{{v}})" if initializer else "{v}.struct_size = sizeof {v}"
    typedefs = {}
    for match in re.finditer(r"typedef\s+void\s*\(\s*\*\s*(\w+)\s*\)\s*\(([^;]*)\)\s*;", text):
        typedefs[match.group(1)] = [p.strip() for p in match.group(2).split(",")]
    functions = []
    # Declarations are the statements (split at ';' and braces) of the form `type name(params)`.
    for statement in re.split(r"[;{}]", text):
        match = re.fullmatch(r"\s*((?:const\s+)?[\w ]+?\s*\**)\s*\b(oc_\w+)\s*\(([^()]*)\)\s*", statement)
        if not match:
            continue
        returns, name, params = match.group(1).strip(), match.group(2), match.group(3).strip()
        if returns.startswith("typedef") or name in typedefs:
            continue
        parsed = []
        if params != "void":
            for param in params.split(","):
                param = " ".join(param.split())
                m = re.match(r"(.*?)(\w+)$", param)
                parsed.append((m.group(1).strip(), m.group(2)))
        functions.append((returns, name, parsed))
    return typedefs, functions


def documented_statuses(header, functions, kinds_of):
    """For each oc_status function, the statuses its doc comment names (following
    "as oc_other()" to that function's), plus those the header's opening rules give
    every call with such parameters."""
    comments = {}
    for match in re.finditer(r"/\*\*((?:(?!\*/).)*)\*/\s*((?:(?!/\*\*)[^;{}])*?)\b(oc_\w+)\s*\(", header, re.S):
        comments[match.group(3)] = match.group(1)
    own, references = {}, {}
    for returns, name, params in functions:
        if returns.replace(" ", "") != "oc_status":
            continue
        comment = comments.get(name)
        if comment is None:
            sys.exit(f"generate.py: {name} has no doc comment right above it in the header")
        own[name] = set(re.findall(r"\bOC_(?:OK|ERROR_[A-Z_]+)\b", comment))
        references[name] = re.findall(r"\bas (oc_\w+)\(\)", comment)
        if not own[name] and not references[name]:
            sys.exit(f"generate.py: {name}'s comment states none of its statuses; document them (\\returns)")
    documented = {}
    for returns, name, params in functions:
        if name not in own:
            continue
        statuses, pending, seen = set(), [name], set()
        while pending:
            current = pending.pop()
            if current in seen or current not in own:
                continue
            seen.add(current)
            statuses |= own[current]
            pending += references[current]
        kinds = {kind for kind, _ in kinds_of(name, params)}
        statuses.add("OC_OK")
        if "handle" in kinds:
            statuses.add("OC_ERROR_INVALID_HANDLE")
        if kinds - {"handle", "integer"}:
            statuses.add("OC_ERROR_INVALID_ARGUMENT")
        documented[name] = sorted(statuses)
    return documented


def status_check(name, documented, inside=False):
    """C statement that fails the case when `r` is a status the header does not state for `name`."""
    if name not in documented:
        return None
    allowed = documented[name] + (["OC_ERROR_WRONG_STATE"] if inside else [])
    condition = " && ".join(f"r != {status}" for status in allowed)
    if inside:
        return f"if ({condition}) inside_undocumented(\"{name}\", r);"
    return f"if ({condition}) return verdict_undocumented(\"{name}\", r, \"{', '.join(allowed)}\");"


def classify(function, ptype, pname, typedefs):
    """The kind of a parameter: handle, out, optional_out, callback, string, buffer, size,
    enum, integer, fraction, sized_struct, user_data."""
    base = ptype.replace("const", "").replace(" ", "")
    stars = base.count("*")
    core = base.rstrip("*")
    if core in HANDLE_TYPES and stars == 1:
        return ("handle", core)
    if core in HANDLE_TYPES and stars == 2:
        return ("out", core)
    if core in typedefs and stars == 0:
        return ("callback", core)
    if core == "void" and stars == 1:
        return ("user_data", None)
    if core == "char" and stars == 1:
        return ("string", None) if "const" in ptype else ("buffer", None)
    if core in SIZED_STRUCTS and stars == 1:
        return ("sized_struct", core)
    if core == "oc_fraction" and stars == 0:
        return ("fraction", None)
    if core in ("oc_callback_id", "oc_fraction") and stars == 1:
        return ("optional_out", core)
    if core in ("size_t", "uint32_t", "int32_t", "int64_t", "uint64_t", "int") and stars == 1:
        return ("optional_out", core)
    if core == "char" and stars == 2:
        return ("optional_out", "constchar*")
    if core in ENUM_TYPES and stars == 0:
        return ("enum", core)
    if core in ENUM_TYPES and stars == 1:
        return ("optional_out", core)
    if core in ("size_t", "uint32_t", "int32_t", "int", "int64_t", "uint64_t", "oc_callback_id", "bool", "double", "oc_status") and stars == 0:
        return ("integer", core)
    sys.exit(f"generate.py: {function}: cannot classify parameter '{ptype} {pname}'; teach generate.py what bad input for it is")


def benign(function, kind, ctype, pname, index):
    """(declarations, expression) for a valid argument."""
    v = f"a{index}"
    if kind == "handle":
        return "", f"fx_{ctype}()"
    if kind == "out":
        return f"{ctype} *{v} = NULL;", f"&{v}"
    if kind in ("optional_out", "required_out"):
        t = "const char *" if ctype == "constchar*" else ctype
        return f"{t} {v}; memset(&{v}, 0, sizeof {v});", f"&{v}"
    if kind == "callback":
        return "", f"noop_{ctype}"
    if kind == "user_data":
        return "", "NULL"
    if kind == "string":
        if "path" in pname:
            return "", "fx_path()"
        return "", {"name": '"brightness"', "key": '"device.name"', "app_id": '"org.ocellus.badinput"',
                    "bus_address": '"unix:path=/nonexistent/bus"'}.get(pname, '"x"')
    if kind == "buffer":
        return f"static char {v}[64];", v
    if kind == "sized_struct":
        return f"{ctype} {v}; memset(&{v}, 0, sizeof {v}); {SIZED_STRUCTS[ctype].format(v=v)};", f"&{v}"
    if kind == "fraction":
        return "", "(oc_fraction){15, 1}"
    if kind == "enum":
        return "", f"({ctype})0"
    if kind == "integer":
        value = {"degrees": "90", "fourcc": "0x56595559", "size": "64", "timeout_ms": "100", "value": "0",
                 "mirrored": "0", "device_types": "0", "object_types": "OC_METADATA_OBJECT_CODE",
                 "per_second": "10"}.get(pname, "0")
        if pname == "id":
            value = "987654321"
        return "", f"({ctype}){value}"
    raise AssertionError(kind)


def bad_values(function, kind, ctype, pname):
    """(label, expression or None for a special form, must_fail)."""
    freeing = bool(FREEING.search(function))
    values = []
    if kind == "handle":
        null_ok = (function, pname) in NULL_MEANS_SOMETHING or freeing
        values.append(("NULL", f"({ctype} *)NULL", not null_ok))
        values.append(("stale", f"stale_{ctype}()", True))
        values.append(("foreign", f"({ctype} *)(void *)foreign_bytes", True))
        other = "oc_device" if ctype == "oc_context" else "oc_context"
        values.append(("wrong-type", f"({ctype} *)(void *)fx_{other}()", True))
    elif kind == "out":
        values.append(("NULL", "NULL", True))
    elif kind == "required_out":
        values.append(("NULL", "NULL", True))
    elif kind == "optional_out":
        values.append(("NULL", "NULL", False))
    elif kind == "callback":
        values.append(("NULL", "NULL", (function, pname) not in NULL_MEANS_SOMETHING))
    elif kind == "string":
        values.append(("NULL", "NULL", (function, pname) not in NULL_MEANS_SOMETHING))
        # A path or a name that is not UTF-8 must be refused, never rewritten.
        must = "path" in pname or pname in ("app_id", "bus_address")
        values.append(("non-UTF-8", "fx_bad_utf8(\"" + pname + "\")", must))
        values.append(("huge", "fx_huge_string()", False))
    elif kind == "buffer":
        values.append(("NULL-with-size", "NULL", False))
    elif kind == "sized_struct":
        null_ok = (function, pname) in NULL_MEANS_SOMETHING
        values.append(("NULL", "NULL", not null_ok))
        if not function.endswith("_init"):   # an init function is what sets struct_size
            values.append(("struct_size-0", "&zeroed", True))
    elif kind == "fraction":
        values.append(("zero-denominator", "(oc_fraction){30, 0}", True))
        values.append(("huge", "(oc_fraction){UINT32_MAX, 1}", False))
        values.append(("tiny", "(oc_fraction){1, UINT32_MAX}", False))
    elif kind == "enum":
        values.append(("99", f"({ctype})99", not ctype.endswith("_event") and function != "oc_discovery_session_create"))
        values.append(("-1", f"({ctype})-1", not ctype.endswith("_event") and function != "oc_discovery_session_create"))
    elif kind == "integer":
        if ctype in ("size_t",):
            values.append(("SIZE_MAX", "SIZE_MAX", pname in ("index", "item")))
        if ctype in ("uint32_t",):
            values.append(("UINT32_MAX", "UINT32_MAX", pname in ("plane", "object_types")))
            if pname == "object_types":
                values.append(("0", "0", True))
        if ctype == "double":
            # A rate must be a finite number in its range.
            values.append(("NaN", "(double)NAN", pname == "per_second"))
            values.append(("infinity", "(double)INFINITY", pname == "per_second"))
            values.append(("-1", "-1.0", pname == "per_second"))
        if ctype in ("int32_t", "int", "oc_status"):
            # A question ("is X supported?") answers false without an error.
            out_of_range = pname in ("degrees", "mirrored") and "_is_" not in function
            values.append(("INT32_MIN", "INT32_MIN", out_of_range))
            values.append(("INT32_MAX", "INT32_MAX", out_of_range))
            # -1 is OC_INTERFACE_FOLLOWS_DEVICE for the interface orientation.
            values.append(("-1", "-1", out_of_range and pname == "degrees" and "interface" not in function))
        if ctype in ("int64_t",):
            values.append(("INT64_MIN", "INT64_MIN", False))
            values.append(("INT64_MAX", "INT64_MAX", False))
        if ctype in ("uint64_t", "oc_callback_id"):
            values.append(("UINT64_MAX", "UINT64_MAX", pname == "id"))
            values.append(("0", "0", pname == "id"))
    return values


def failure_check(returns):
    """C expression over `r` that is true when the call reported failure."""
    r = returns.replace(" ", "")
    if r in ENUM_TYPES:   # every value is a valid answer: the message tells
        return None
    if r == "oc_status":
        return "r != OC_OK"
    if r.endswith("*"):
        return "r == NULL"
    if r == "bool":
        return "!r"
    if r == "void":
        return None
    return "r == 0"


def call_expression(returns, name, args):
    call = f"{name}({', '.join(args)})"
    if returns.replace(" ", "") == "void":
        return f"{call};"
    rtype = returns
    return f"{rtype} r = {call}; (void)r;"


def noop_callbacks(typedefs):
    out = []
    for name, params in typedefs.items():
        decl = ", ".join(f"{p}" if re.search(r"\w$", p) else p for p in params)
        names = [re.match(r".*?(\w+)$", p).group(1) for p in params]
        body = " ".join(f"(void){n};" for n in names)
        out.append(f"static void noop_{name}({decl}) {{ {body} noop_calls++; }}")
    return "\n".join(out)


def main():
    header_path, out_c, out_tsv = sys.argv[1:4]
    header = open(header_path).read()
    typedefs, functions = parse(header)
    kinds_of = lambda name, params: [classify(name, t, n, typedefs) for t, n in params]
    documented = documented_statuses(header, functions, kinds_of)
    cases = []   # (name, expectation, body)
    for returns, name, params in functions:
        kinds = kinds_of(name, params)
        # Good arguments on fresh objects: whatever the answer, the header states it.
        if name in documented:
            decls, args = [], []
            for j, ((t2, n2), (k2, c2)) in enumerate(zip(params, kinds)):
                d, value = benign(name, k2, c2, n2, j)
                if d:
                    decls.append(d)
                decls.append(f"{t2} v{j} = {value};")
                args.append(f"v{j}")
            lines = decls + ["prepare_case();", call_expression(returns, name, args),
                             status_check(name, documented), "return after_case();"]
            cases.append((f"{name}(fresh objects)", "documented-status", lines))
        for index, ((ptype, pname), (kind, ctype)) in enumerate(zip(params, kinds)):
            for label, expression, must_fail in bad_values(name, kind, ctype, pname):
                # Arguments are evaluated (fixtures made) before the call, so that the message
                # checked afterwards is the call's own.
                decls, args = [], []
                for j, ((t2, n2), (k2, c2)) in enumerate(zip(params, kinds)):
                    if j == index:
                        value = expression
                        if expression == "&zeroed":
                            decls.append(f"{ctype} zeroed; memset(&zeroed, 0, sizeof zeroed);")
                    else:
                        d, value = benign(name, k2, c2, n2, j)
                        if d:
                            decls.append(d)
                    decls.append(f"{t2} v{j} = {value};")
                    args.append(f"v{j}")
                check = failure_check(returns)
                freeing = bool(FREEING.search(name))
                lines = decls + ["prepare_case();", call_expression(returns, name, args)]
                if name in documented:
                    lines.append(status_check(name, documented))
                if must_fail:
                    if check:
                        lines.append(f'if (!({check})) return verdict_ok_for_bad_input("{name}");')
                    lines.append(f'if (!message_left()) return verdict_no_message("{name}");')
                lines.append("return after_case();")
                cases.append((f"{name}({pname}={label})", "must-fail" if must_fail else "no-crash", lines))
    for context, prefixes in INSIDE.items():
        for returns, name, params in functions:
            if not any(name.startswith(p) for p in prefixes) or name.endswith("_create"):
                continue
            kinds = [classify(name, t, n, typedefs) for t, n in params]
            variants = [("", {})]
            if any(k == "callback" for k, _ in kinds) and any((name, n) in NULL_MEANS_SOMETHING for _, n in params):
                variants.append((" clearing", {i: "NULL" for i, (k, _) in enumerate(kinds) if k == "callback"}))
            for suffix, overrides in variants:
                decls, args = [], []
                for j, ((t2, n2), (k2, c2)) in enumerate(zip(params, kinds)):
                    if j in overrides:
                        args.append(overrides[j])
                        continue
                    d, e = benign(name, k2, c2, n2, j)
                    if d:
                        decls.append(d)
                    args.append(e)
                body = decls + [call_expression(returns, name, args)]
                if name in documented:
                    body.append(status_check(name, documented, inside=True))
                lines = [f"inside_body = inside_{len(cases)};", f'return run_inside(INSIDE_{context.upper()}, "{name}");']
                cases.append((f"inside {context} callback: {name}{suffix}", "no-hang", lines, body))
    with open(out_c, "w") as out:
        out.write("/* Generated by Tests/badinput/generate.py from include/ocellus.h: do not edit. */\n")
        out.write('#include "fixtures.h"\n\n')
        out.write(noop_callbacks(typedefs) + "\n\n")
        for number, case in enumerate(cases):
            if len(case) == 4:
                out.write(f"static void inside_{number}(void)\n{{\n    " + "\n    ".join(case[3]) + "\n}\n")
            out.write(f"static int case_{number}(void)\n{{\n    " + "\n    ".join(case[2]) + "\n}\n")
        out.write("static int (*const cases[])(void) = {\n")
        out.write(",\n".join(f"    case_{n}" for n in range(len(cases))))
        out.write("\n};\n\nint main(int argc, char **argv)\n{\n    if (argc != 2) return 64;\n")
        out.write(f"    int number = atoi(argv[1]);\n    if (number < 0 || number >= {len(cases)}) return 64;\n")
        out.write("    return cases[number]();\n}\n")
    with open(out_tsv, "w") as out:
        for number, case in enumerate(cases):
            out.write(f"{number}\t{case[0]}\t{case[1]}\n")
    print(f"generate.py: {len(functions)} functions, {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
