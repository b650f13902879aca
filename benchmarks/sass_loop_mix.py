#!/usr/bin/env python3
"""The instruction mix of a GEMM's main loop in SASS (cuobjdump -sass
output, or the CSV of `ncu --page source --print-source sass --csv` for
kernels that are not in a file, such as cuBLAS's): for each innermost loop of each function (a backward branch and
the instructions from its target up to it) that holds a tensor-core
instruction (HGMMA, HMMA, IMMA), the instruction count and a histogram of
mnemonics (predicates and modifiers dropped, e.g.
SYNCS.PHASECHK.TRANS64.TRYWAIT as SYNCS).

    python3 sass_loop_mix.py FILE.sass [FILE.sass ...]
"""
import collections
import csv
import io
import re
import sys

FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)([.A-Z0-9_]*)\s*([^;]*);")
NCU_SOURCE = re.compile(r"\s*(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)([.A-Z0-9_]*)\s*(.*)$")
TENSOR = ("HGMMA", "HMMA", "IMMA", "QGMMA", "IGMMA")


def functions(text):
    """(name, [(address, mnemonic, operands, predicated)]) for each function."""
    name, body = None, []
    for line in text.splitlines():
        match = FUNCTION.match(line)
        if match:
            if name:
                yield name, body
            name, body = match.group(1), []
            continue
        match = INSTRUCTION.search(line)
        if match and name:
            body.append((int(match.group(1), 16), match.group(3), match.group(5),
                         bool(match.group(2))))
    if name:
        yield name, body


def ncu_functions(text):
    """The same from ncu's CSV: a "Kernel Name" row, then Address, Source."""
    name, body = None, []
    for row in csv.reader(io.StringIO(text)):
        if len(row) == 2 and row[0] == "Kernel Name":
            if name:
                yield name, body
            name, body = row[1], []
            continue
        match = NCU_SOURCE.match(row[1]) if len(row) == 2 and row[0].startswith("0x") else None
        if match and name:
            body.append((int(row[0], 16), match.group(2), match.group(4), bool(match.group(1))))
    if name:
        yield name, body


def loops(body):
    """The [start, end] address ranges of backward branches' loops: ranges
    that no unconditional branch or exit leaves before their end (which
    the out-of-line retry paths of barrier waits would)."""
    for address, mnemonic, operands, _ in body:
        target = re.search(r"0x([0-9a-f]+)", operands)
        if mnemonic != "BRA" or not target or int(target.group(1), 16) > address:
            continue
        start = int(target.group(1), 16)
        if not any(start <= a < address and m in ("BRA", "EXIT") and not p
                   and not re.match(r"!?U?P[T0-9]+\s*,", o) for a, m, o, p in body):
            yield start, address


def main():
    for path in sys.argv[1:]:
        with open(path) as f:
            text = f.read()
        parse = ncu_functions if '"Kernel Name"' in text else functions
        for name, body in parse(text):
            tensor = [(s, e) for s, e in set(loops(body))
                      if any(m in TENSOR for a, m, _, _ in body if s <= a <= e)]
            innermost = [(s, e) for s, e in tensor
                         if not any((s2, e2) != (s, e) and s <= s2 and e2 <= e
                                    for s2, e2 in tensor)]
            for start, end in sorted(innermost):
                inside = [m for a, m, _, _ in body if start <= a <= end]
                mix = collections.Counter(inside)
                print(f"{path}: {name} loop 0x{start:x}-0x{end:x}: {len(inside)} instructions")
                print("  " + ", ".join(f"{m} {n}" for m, n in mix.most_common()))


if __name__ == "__main__":
    main()
