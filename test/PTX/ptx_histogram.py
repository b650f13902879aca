"""Prints, per PTX kernel, how many warp-collective and floating-point
instructions it has, as one line: `NAME: op=count op=count ...` (sorted).

Counted: shfl, redux, vote, match, activemask, bar.warp.sync, popc and every
floating-point arithmetic instruction (add/sub/mul/fma/min/max/neg/abs on
.f16/.f16x2/.bf16/.bf16x2/.f32/.f64). Address arithmetic is integer and never
counted, so a line pins down the whole collective sequence of a kernel.
`--also REGEX` counts the opcodes it matches too (e.g. elect, atom, fns,
ld.shared, selp).
"""
import collections
import re
import sys

COUNTED = re.compile(
    r"^(shfl|redux|vote|match|activemask|bar\.warp|popc|"
    r"(add|sub|mul|fma|min|max|neg|abs)\.\S*(f16|f16x2|bf16|bf16x2|f32|f64)$)")


def histogram(text, also=None):
    kernels = []
    current = None
    for line in text.splitlines():
        entry = re.match(r"^\.visible \.entry (\w+)\(", line)
        if entry:
            current = (entry.group(1), collections.Counter())
            kernels.append(current)
            continue
        if current is None:
            continue
        if line.startswith("}"):
            current = None
            continue
        # An inline PTX block (`{ .reg ...; shfl...; @p add...; }`, the
        # predicated scan step) holds several instructions on one line.
        for statement in line.strip().strip("{}").split(";"):
            stripped = re.sub(r"^@!?%?\w+\s+", "", statement.strip())
            if not stripped or stripped[0] in ".$/{}":
                continue
            opcode = stripped.split()[0]
            if COUNTED.match(opcode) or (also and also.match(opcode)):
                current[1][opcode] += 1
    return kernels


args = sys.argv[1:]
also = None
if args[0] == "--also":
    also, args = re.compile(args[1]), args[2:]
for name, counts in histogram(open(args[0]).read(), also):
    ops = " ".join(f"{op}={n}" for op, n in sorted(counts.items()))
    print(f"{name}: {ops}".rstrip())
