#!/usr/bin/env python3
"""The instruction mix of a GEMM's main loop in SASS (cuobjdump -sass
output): for each innermost loop of each function (a backward branch and
the instructions from its target up to it) that holds a tensor-core
instruction (HGMMA, HMMA, IMMA), the instruction count and a histogram of
mnemonics (predicates and modifiers dropped, e.g.
SYNCS.PHASECHK.TRANS64.TRYWAIT as SYNCS). Out-of-line retry paths that
branch back into a loop make larger ranges overlapping it: of ranges that
overlap, the shortest is the loop.

    python3 sass_loop_mix.py FILE.sass [FILE.sass ...]
"""
import collections
import re
import sys

FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)([.A-Z0-9_]*)\s*([^;]*);")
TENSOR = ("HGMMA", "HMMA", "IMMA", "QGMMA", "IGMMA")


def functions(text):
    """(name, [(address, mnemonic, operands)]) for each function."""
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
            body.append((int(match.group(1), 16), match.group(2), match.group(4)))
    if name:
        yield name, body


def loops(body):
    """The [start, end] address ranges of backward branches' loops."""
    for address, mnemonic, operands in body:
        target = re.match(r"(?:`\(\.L_x_\d+\)|0x([0-9a-f]+))", operands.strip())
        if mnemonic == "BRA" and target and target.group(1):
            start = int(target.group(1), 16)
            if start <= address:
                yield start, address


def main():
    for path in sys.argv[1:]:
        with open(path) as f:
            text = f.read()
        for name, body in functions(text):
            tensor = [(s, e) for s, e in set(loops(body))
                      if any(m in TENSOR for a, m, _ in body if s <= a <= e)]
            innermost = []
            for s, e in sorted(tensor, key=lambda r: r[1] - r[0]):
                if all(e < s2 or e2 < s for s2, e2 in innermost):
                    innermost.append((s, e))
            for start, end in sorted(innermost):
                inside = [m for a, m, _ in body if start <= a <= end]
                mix = collections.Counter(inside)
                print(f"{path}: {name} loop 0x{start:x}-0x{end:x}: {len(inside)} instructions")
                print("  " + ", ".join(f"{m} {n}" for m, n in mix.most_common()))


if __name__ == "__main__":
    main()
