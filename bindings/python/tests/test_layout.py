"""The binding's ctypes structures against the C header, as a C compiler lays them out: every
field's offset and every structure's size (a field added to the header and not here, or typed
differently, would read the wrong bytes)."""

import ctypes
import pathlib
import re
import subprocess

from ocellus import _native

HEADER = pathlib.Path(__file__).resolve().parents[3] / "include" / "ocellus.h"


def structures():
    """The binding's structures, by the C type each stands for (OcContextOptions → oc_context_options)."""
    found = {}
    for name, value in vars(_native).items():
        if isinstance(value, type) and issubclass(value, ctypes.Structure):
            found["oc" + re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)] = value
    return found


def test_every_structure_of_the_header_is_bound():
    declared = set(re.findall(r"^typedef struct (oc_\w+) \{", HEADER.read_text(), re.M))
    assert declared == set(structures()), "bound and declared differ"


def test_offsets_and_sizes_are_the_compilers(tmp_path):
    lines = []
    for c_name, structure in structures().items():
        lines.append(f'printf("{c_name} size %zu\\n", sizeof({c_name}));')
        for field, _ in structure._fields_:
            lines.append(f'printf("{c_name} {field} %zu\\n", offsetof({c_name}, {field}));')
    program = tmp_path / "layout.c"
    program.write_text('#include <stddef.h>\n#include <stdio.h>\n#include "ocellus.h"\nint main(void) {\n'
                       + "\n".join(lines) + "\nreturn 0;\n}\n")
    subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", "-I", str(HEADER.parent), str(program), "-o", str(tmp_path / "layout")],
                   check=True)
    compiled = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True, check=True).stdout.split("\n")
    expected = []
    for c_name, structure in structures().items():
        expected.append(f"{c_name} size {ctypes.sizeof(structure)}")
        expected += [f"{c_name} {field} {getattr(structure, field).offset}" for field, _ in structure._fields_]
    assert [line for line in compiled if line] == expected
