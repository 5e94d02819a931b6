#!/usr/bin/env python3
"""Every code block of the README and docs/ is checked as the examples are: C blocks compile
with -std=c99 -Wall -Wextra -Werror -pedantic against the header, Python blocks pass mypy
--strict against the binding. (Rust blocks are the ocellus crate's doctests: docs_rust.rs.)

A C block with main() is a program. Another is a fragment, as the docs show them: its functions
at file scope and its statements in a function, where the names the docs' first program defines
are in scope (ctx, camera) with those the text around it speaks of (session, output,
capture_angle).

    scripts/doc-snippets.py ROOT INCLUDE_DIR   → exit 1 naming each block that fails
"""

import pathlib
import re
import subprocess
import sys
import tempfile

FRAGMENT_NAMES = """#include <ocellus.h>
#include <stdint.h>
#include <stdio.h>
oc_context *ctx;
oc_device *camera;
oc_capture_session *session;
oc_video_data_output *output;
int32_t capture_angle;
"""


def blocks(root):
    for path in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]:
        text = path.read_text()
        for match in re.finditer(r"^```(c|python)\n(.*?)^```$", text, re.M | re.S):
            line = text[:match.start()].count("\n") + 1
            yield path.relative_to(root), line, match.group(1), match.group(2)


def c_source(code):
    if re.search(r"\bint main\(", code):
        return code
    functions, statements, depth = [], [], 0
    lines = code.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if depth == 0 and re.match(r"static \w", line):   # a function at file scope, to its closing brace
            while True:
                functions.append(lines[index])
                depth += lines[index].count("{") - lines[index].count("}")
                if depth == 0 and "}" in lines[index]:
                    break
                index += 1
        else:
            statements.append(line)
        index += 1
    body = "\n".join("    " + line for line in statements)
    return FRAGMENT_NAMES + "\n".join(functions) + "\n\nvoid snippet(void);\nvoid snippet(void)\n{\n" + body + "\n}\n"


def main():
    root, include = pathlib.Path(sys.argv[1]), sys.argv[2]
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        work = pathlib.Path(scratch)
        for number, (path, line, language, code) in enumerate(blocks(root)):
            checked += 1
            if language == "c":
                source = work / f"snippet{number}.c"
                source.write_text(c_source(code))
                command = ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", include, "-c", str(source),
                           "-o", str(work / f"snippet{number}.o")]
            else:
                source = work / f"snippet{number}.py"
                source.write_text(code)
                command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(work / "cache"),
                           str(source)]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                failures.append(f"{path}:{line} ({language}):\n{result.stdout}{result.stderr}")
    for failure in failures:
        print(failure)
    print(f"{checked - len(failures)} of {checked} code blocks check")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
