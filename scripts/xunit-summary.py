#!/usr/bin/env python3
"""Prints "N passed, N failed" (skipped tests in neither) from the xUnit reports
`swift test --xunit-output` writes: the console summary of Swift Testing can be
garbled when test threads write at once, the report cannot."""
import sys
import xml.etree.ElementTree as ElementTree

passed = failed = skipped = 0
reports = 0
for path in sys.argv[1:]:
    try:
        root = ElementTree.parse(path).getroot()
    except FileNotFoundError:
        continue
    except ElementTree.ParseError as error:
        sys.exit(f"{path}: unreadable test report ({error})")
    reports += 1
    for suite in root.iter("testsuite"):
        bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skip = int(suite.get("skipped", 0))
        failed += bad
        skipped += skip
        passed += int(suite.get("tests", 0)) - bad - skip
if reports == 0:
    sys.exit("no test report written: the test run did not finish")
print(f"({skipped} skipped)")
print(f"{passed} passed, {failed} failed")
