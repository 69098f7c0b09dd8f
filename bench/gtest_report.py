#!/usr/bin/env python3
"""A markdown table from a GoogleTest XML file: one row per test (its last
name part), passed or FAILED, seconds, and the properties the test
recorded. Used by the bench scripts that run a conformance test wider than
the suite does.

  gtest_report.py XML[,XML...] TITLE COMMAND EXIT_STATUS [INTRO...]
"""
import os
import sys
import xml.etree.ElementTree as ET

xml_path, title, command, status = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
intro = sys.argv[5:]
cases = [case for path in xml_path.split(",") for case in ET.parse(path).getroot().iter("testcase")]
keys = []
for case in cases:
    for prop in case.iter("property"):
        if prop.get("name") not in keys:
            keys.append(prop.get("name"))
print(f"# {title}")
print()
print(f"Made by `{command}`.")
for line in intro:
    print(line)
print()
print("| test | result | time (s) | " + " | ".join(keys) + " |")
print("|---|---|---:|" + "---|" * len(keys))
failed = 0
for case in cases:
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    bad = case.find("failure") is not None
    failed += bad
    cells = [props.get(k, "") for k in keys]
    print(f"| {case.get('name').split('/')[-1]} | {'FAILED' if bad else 'passed'} | "
          f"{float(case.get('time')):.1f} | " + " | ".join(cells) + " |")
print()
if status == 0:
    print(f"All {len(cases)} passed.")
else:
    print(f"{failed} of {len(cases)} FAILED (exit status {status}); the failure messages are in the test's own output.")
    for case in cases:
        failure = case.find("failure")
        if failure is not None:
            print()
            # The message's first line is the failing assertion's place; the
            # next one what failed. Paths are shown relative to the checkout.
            lines = [line.replace(os.getcwd() + "/", "") for line in (failure.get("message") or "").splitlines()]
            print(f"- {case.get('name').split('/')[-1]}: " + " ".join(lines[:3])[:300])
