#!/usr/bin/env python3
"""Lines per kernel of the concise kernels (examples/python/concise/), in
warp_mlir, Triton and CUDA, as a markdown table.

The rule, the same for all three: the physical lines of each kernel
function's body that are neither blank nor only a comment; the decorator,
the signature (however many lines it takes), a docstring and the closing
brace are not counted; a statement split over two lines counts two. A
kernel is every function of its file decorated with `@<program>.kernel(...)`
(warp_mlir) or `@triton.jit` (Triton, its helper functions included), and
every `__global__` or `__device__` function of the .cu file. Imports,
constants at file scope and the host code that launches the kernel are not
counted in any language.

    python3 scripts/concision_table.py                        # print the table
    python3 scripts/concision_table.py --check docs/results/concision.md

--check fails (exit 1) when the table committed between the
`<!-- concision-table:begin -->` and `<!-- concision-table:end -->` lines
differs from the counts, or a warp_mlir kernel is longer than Triton's.
"""
import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "examples" / "python" / "concise"
KERNELS = [("softmax", "row softmax"), ("argmax", "row argmax"),
           ("layernorm", "layernorm (Welford)"), ("block_sum", "block sum"),
           ("histogram", "histogram"), ("segment_sum", "segmented sum")]
BEGIN, END = "<!-- concision-table:begin -->", "<!-- concision-table:end -->"


def _is_kernel_decorator(node) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
        return isinstance(node, ast.Attribute) and node.attr == "kernel"
    return isinstance(node, ast.Attribute) and node.attr == "jit" and \
        isinstance(node.value, ast.Name) and node.value.id == "triton"


def _counted(lines) -> int:
    return sum(1 for line in lines if line.strip() and not line.strip().startswith(("#", "//")))


def python_lines(path: Path) -> int:
    source = path.read_text()
    lines = source.splitlines()
    total = 0
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef) or \
                not any(_is_kernel_decorator(d) for d in node.decorator_list):
            continue
        body = node.body
        if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
                isinstance(body[0].value.value, str) and len(body) > 1:
            body = body[1:]
        total += _counted(lines[body[0].lineno - 1:node.end_lineno])
    if not total:
        raise SystemExit(f"{path}: no kernel function found")
    return total


def cuda_lines(path: Path) -> int:
    lines = path.read_text().splitlines()
    # Comments out, line structure kept.
    code = [re.sub(r"//.*", "", line) for line in lines]
    total, row = 0, 0
    while row < len(code):
        if not re.search(r"\b__(global|device)__\b", code[row]):
            row += 1
            continue
        while "{" not in code[row]:  # the signature
            row += 1
        opened, depth, end = row, 0, None
        for at in range(row, len(code)):
            depth += code[at].count("{") - code[at].count("}")
            if depth == 0:
                end = at
                break
        if end is None:
            raise SystemExit(f"{path}:{opened + 1}: unbalanced braces")
        total += _counted(lines[opened + 1:end])
        row = end + 1
    if not total:
        raise SystemExit(f"{path}: no __global__ function found")
    return total


def counts():
    return [(title, python_lines(FOLDER / f"{name}_warp.py"),
             python_lines(FOLDER / f"{name}_triton.py"), cuda_lines(FOLDER / f"{name}.cu"))
            for name, title in KERNELS]


def table(rows) -> str:
    out = ["| kernel | warp_mlir | Triton | CUDA |", "| --- | ---: | ---: | ---: |"]
    out += [f"| {title} | {w} | {t} | {c} |" for title, w, t, c in rows]
    sums = [sum(r[i] for r in rows) for i in (1, 2, 3)]
    out.append(f"| total | {sums[0]} | {sums[1]} | {sums[2]} |")
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", metavar="FILE",
                        help="fail unless FILE holds this table and warp_mlir <= Triton")
    args = parser.parse_args(argv)
    rows = counts()
    text = table(rows)
    if not args.check:
        print(text)
        return 0
    failed = False
    for title, warp, triton, _ in rows:
        if warp > triton:
            print(f"{title}: warp_mlir takes {warp} lines, Triton {triton}", file=sys.stderr)
            failed = True
    committed = Path(args.check).read_text()
    if BEGIN not in committed or END not in committed:
        print(f"{args.check}: no {BEGIN} ... {END} block", file=sys.stderr)
        return 1
    block = committed.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    if block != text:
        print(f"{args.check}: the committed table differs from the counts:\n{text}",
              file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
