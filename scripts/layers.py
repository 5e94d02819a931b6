#!/usr/bin/env python3
"""The layer diagram of docs/DESIGN.md, drawn from Package.swift (`swift package dump-package`
on standard input): each Swift target of the library and its tools, by layer, with what it
depends on. A target sits one layer above the highest of its dependencies, so every line
points down. `--check FILE` compares the diagram between the markers in FILE instead."""
import json
import sys

BEGIN, END = "<!-- layers: scripts/layers.py -->", "<!-- /layers -->"


def diagram(package):
    targets = {t["name"]: t for t in package["targets"] if t["type"] != "test" and not t["name"].endswith("TestSupport")}
    deps = {name: [list(d.values())[0][0] for d in t.get("dependencies", [])] for name, t in targets.items()}
    layer = {}

    def depth(name):
        if name not in layer:
            layer[name] = 1 + max((depth(d) for d in deps[name] if d in targets), default=-1)
        return layer[name]

    for name in targets:
        depth(name)
    lines = []
    for level in sorted(set(layer.values()), reverse=True):
        for name in sorted(n for n in targets if layer[n] == level):
            kind = {"system": "system library", "executable": "program"}.get(targets[name]["type"], "")
            below = ", ".join(deps[name]) or "(nothing of ours)"
            lines.append(f"{level}  {name:<26} {('[' + kind + '] ') if kind else ''}→ {below}")
    return "\n".join(lines) + "\n"


def main():
    drawn = diagram(json.load(sys.stdin))
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        text = open(sys.argv[2]).read()
        start, end = text.find(BEGIN), text.find(END)
        shown = text[start + len(BEGIN):end].strip().strip("`").strip() + "\n" if start >= 0 and end > start else ""
        if shown != drawn:
            sys.stderr.write(f"{sys.argv[2]}: the layer diagram is not Package.swift's; put this between the markers:\n{drawn}")
            sys.exit(1)
        return
    sys.stdout.write(drawn)


if __name__ == "__main__":
    main()
