"""Runs a command and passes unless it crashed: for the fuzz reproducers
under test/fuzz/crashes/, whose fixed behaviour may be success or a clean
error.

    no_crash.py COMMAND ARGS...

Fails (exit 1, echoing the command's stderr) when the command died from a
signal or exited with a status above 1, or printed a crash banner, an LLVM
fatal error (`LLVM ERROR`, or the diagnostic `error: LLVM fatal error:
...` that warp-opt reports one as: the words alone may be the input's,
quoted by another diagnostic), an assertion or a sanitizer report. Exit
status 0 or 1 (a diagnostic) is success.
"""
import re
import subprocess
import sys

BAD = re.compile(
    r"PLEASE submit a bug report|LLVM ERROR|error: LLVM fatal error:|Stack dump:|"
    r"==\d+==ERROR: \w+Sanitizer|runtime error:|Assertion .* failed")

result = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE, text=True, errors="replace")
crashed = result.returncode < 0 or result.returncode > 1
if crashed or BAD.search(result.stderr):
    sys.stderr.write(result.stderr)
    sys.stderr.write("no_crash.py: exit status %d\n" % result.returncode)
    sys.exit(1)
