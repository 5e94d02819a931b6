#!/usr/bin/env python3
"""Man pages for `ocellus` and each of its commands: SYNOPSIS and DESCRIPTION from the CLI's
own usage text (the one command table, so they cannot drift from it), OPTIONS, JSON OUTPUT,
EXAMPLES, ENVIRONMENT, FILES and EXIT STATUS from cli/manual.txt. Every flag a usage shows
must have its option there, and every option there a flag in the usage, or no page is made.

    scripts/man-pages.py OCELLUS_BINARY MANUAL OUTPUT_DIR VERSION
"""

import pathlib
import re
import sys

from cli_usage import GLOBAL_USAGE, commands, parse, usage_and_description

DATE = "2026"


def read_manual(path):
    sections, current = {}, None
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        kind, _, rest = line.partition(" ")
        if kind.endswith(":"):   # json: / example:
            current.append((kind[:-1], rest.strip()))
        else:                    # option FLAG [VALUE]: text; env NAME: text; file PATH: text; exit N: text
            head, _, text = rest.partition(": ")
            current.append((kind, (head.strip(), text.strip())))
    return sections


def roff(text):
    """Text as roff: backslashes and leading dots or quotes escaped, dashes of flags kept as minus signs."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"(?<![\w-])-(?=[\w-])", r"\\-", text)
    return "\\&" + text if text.startswith((".", "'")) else text


def flag_of(option_head):
    return option_head.split(" ", 1)[0]


def page(name, summary, version, sections):
    lines = [f'.TH {name.upper()} 1 "{DATE}" "ocellus {version}" "User Commands"', ".SH NAME", f"{roff(name)} \\- {roff(summary)}"]
    for title, body in sections:
        if body:
            lines.append(f".SH {title}")
            lines.extend(body)
    return "\n".join(lines) + "\n"


def options(entries):
    body = []
    for kind, (head, text) in entries:
        flag, _, value = head.partition(" ")
        body += [".TP", f"\\fB{roff(flag)}\\fR" + (f" \\fI{roff(value)}\\fR" if value else ""), roff(text)]
    return body


def paragraphs(entries, kind):
    body = []
    for each, text in entries:
        if each == kind:
            body += [".PP", roff(text)]
    return body


def examples(entries):
    body = []
    for each, text in entries:
        if each == "example":
            command, _, why = text.partition(" \u2014 ")
            body += [".PP", roff(why[:1].upper() + why[1:] + ":") if why else "", ".PP", ".RS 4", ".nf", roff(command), ".fi", ".RE"]
    return [line for line in body if line]


def listed(entries, kind):
    body = []
    for each, value in entries:
        if each == kind:
            head, text = value
            body += [".TP", f"\\fB{roff(head)}\\fR", roff(text)]
    return body


def check(name, flags, entries):
    documented = {flag_of(head) for kind, (head, _) in ((k, v) for k, v in entries if k == "option")}
    problems = [f"{name}: {flag} has no option in cli/manual.txt" for flag in sorted(set(flags) - documented)]
    problems += [f"{name}: option {flag} is not in its usage" for flag in sorted(documented - set(flags))]
    return problems


def main():
    binary, manual, out, version = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), sys.argv[4]
    out.mkdir(parents=True, exist_ok=True)
    manual_sections = read_manual(manual)
    names = commands(binary)
    global_entries = manual_sections.get("global", [])
    problems = check("ocellus", parse(GLOBAL_USAGE)[0], global_entries)
    problems += [f"cli/manual.txt: [{section}] is not a command" for section in manual_sections if section not in names + ["global"]]
    pages = {}
    see_also = ", ".join(f"\\fBocellus\\-{roff(each)}\\fR(1)" for each in names)
    command_list = []
    for name in names:
        synopsis, description = usage_and_description(binary, name)
        entries = manual_sections.get(name)
        if entries is None:
            problems.append(f"cli/manual.txt has no [{name}]")
            continue
        problems += check(f"ocellus {name}", parse(synopsis)[0], entries)
        summary = next((text for kind, text in entries if kind == "summary"), "")
        if not summary:
            problems.append(f"cli/manual.txt: [{name}] has no summary")
        command_list += [".TP", f"\\fB{roff(name)}\\fR", roff(summary)]
        body = [
            ("SYNOPSIS", [f"\\fBocellus\\fR [\\fIglobal options\\fR] \\fB{roff(name)}\\fR {roff(synopsis)}".rstrip()]),
            ("DESCRIPTION", [roff(description[:1].upper() + description[1:])] if description else []),
            ("OPTIONS", options([entry for entry in entries if entry[0] == "option"])),
            ("JSON OUTPUT", paragraphs(entries, "json")),
            ("EXAMPLES", examples(entries)),
            ("EXIT STATUS", [roff("0 on success, 1 when the command failed (the reason on stderr), 2 for a usage error; see ocellus(1).")]),
            ("SEE ALSO", ["\\fBocellus\\fR(1)"]),
        ]
        pages[f"ocellus-{name}"] = page(f"ocellus-{name}", summary, version, body)
    main_body = [
        ("SYNOPSIS", [f"\\fBocellus\\fR {roff(GLOBAL_USAGE)} \\fICOMMAND\\fR [\\fIoptions\\fR]"]),
        ("DESCRIPTION", [roff("Lists, watches and chooses cameras and microphones, streams, photographs and records them, "
                              "through PipeWire or raw V4L2. CAMERA is a unique ID, the # that list shows, a /dev/videoN node, "
                              "or a part of the name only one device has; where it is optional, none means the system "
                              "preferred camera. ocellus COMMAND --help shows one command's usage.")]),
        ("COMMANDS", command_list),
        ("OPTIONS", options([entry for entry in global_entries if entry[0] == "option"])),
        ("EXIT STATUS", listed(global_entries, "exit")),
        ("ENVIRONMENT", listed(global_entries, "env")),
        ("FILES", listed(global_entries, "file")),
        ("EXAMPLES", examples(global_entries)),
        ("SEE ALSO", [see_also + ", \\fBpw\\-cli\\fR(1), \\fBv4l2\\-ctl\\fR(1)"]),
    ]
    pages["ocellus"] = page("ocellus", "camera capture for Linux: list, choose, stream, photograph and record cameras", version,
                            main_body)
    if problems:
        sys.exit("man pages not made:\n  " + "\n  ".join(problems))
    for name, text in pages.items():
        (out / f"{name}.1").write_text(text)


if __name__ == "__main__":
    main()
