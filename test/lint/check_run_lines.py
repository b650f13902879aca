"""Fails when a lit test file under the given root has no working RUN line.

A file counts as a test when lit would pick it up (.mlir or .test outside
Inputs/ folders). A line that names RUN without the colon is reported too:
lit ignores it, so the test would pass without running anything.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
problems = []
tests = 0
for path in sorted(root.rglob("*")):
    if path.suffix not in (".mlir", ".test") or "Inputs" in path.parts:
        continue
    tests += 1
    text = path.read_text()
    if not re.search(r"^\s*(//|#)\s*RUN:", text, re.M):
        problems.append(f"{path}: no 'RUN:' line")
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(r"^\s*(//|#)\s*RUN\b(?!:)", line):
            problems.append(f"{path}:{number}: 'RUN' without ':' never runs")
for problem in problems:
    print(problem)
print(f"checked {tests} test files, {len(problems)} problems")
sys.exit(1 if problems or tests == 0 else 0)
