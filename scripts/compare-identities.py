#!/usr/bin/env python3
"""compare-identities.py LOG LOG — the `identity:` lines two runs of the USB gadget suite printed
(Tests/gadget/job.sh; one per listed device and situation), compared: the same gadget must come out
as the same device, with the same unique ID, name, type and formats, whatever the kernel, PipeWire
and WirePlumber. Prints each difference, then "N passed, N failed" (one per device)."""
import json
import sys


def identities(path):
    found = {}
    for line in open(path, errors="replace"):
        if line.startswith("identity: "):
            record = json.loads(line[len("identity: "):])
            found[(record["label"], record["unique_id"])] = record
    return found


def main():
    first, second = (identities(path) for path in sys.argv[1:3])
    passed = failed = 0
    if not first or not second:
        print(f"not ok - no identities recorded in {' or '.join(p for p, i in zip(sys.argv[1:3], (first, second)) if not i)}")
        failed += 1
    for key in sorted(first.keys() | second.keys()):
        a, b = first.get(key), second.get(key)
        if a == b:
            passed += 1
            continue
        failed += 1
        if a is None or b is None:
            print(f"not ok - {key[0]}: {key[1]} listed only in {sys.argv[1] if b is None else sys.argv[2]}")
        else:
            fields = ", ".join(f"{k}: {a.get(k)!r} / {b.get(k)!r}" for k in sorted(a.keys() | b.keys()) if a.get(k) != b.get(k))
            print(f"not ok - {key[0]}: {key[1]} differs ({fields})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
