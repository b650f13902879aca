#!/usr/bin/env python3
"""Generates the block-op payload matrix of block-payload-matrix.test.

The rule it proves: warp.block_reduce, warp.block_scan and
warp.block_broadcast on every payload type the verifier accepts (the scalars
i1, i8, i16, i32, i64, index, f16, bf16, f32, f64 and fixed 1-D vectors of
them, ODS Warp_Payload) lower to PTX that ptxas accepts, or are rejected with
a located diagnostic, never a crash.

One kernel per (payload type, combine kind, algorithm, block) holds every
form of the two combining ops: block_reduce, and block_scan inclusive,
exclusive, with init, exclusive with init, and with the block totals (with
and without init), plus a block_broadcast. `algorithm` is none (the
lowering's choice), warp (warp_reductions / warp_scans) or raking; `block` is
no known_block_size (sizes read at run time) or one of KNOWN_BLOCKS, which
select the lowering's other paths (one whole or partial warp, a small ragged
block, 2 to 8 whole warps folded by every thread, padded raking segments kept
in registers). The kernels of kind add also hold the combiner-region forms
(the elementwise add of the type, arith.addi / arith.addf): block_reduce,
commutative or not, block_scan inclusive (no init: the shifted inclusive
scan) and exclusive with init and totals. Each gpu.module holds one kernel,
so its workgroup buffers are its own. The kernels whose buffers exceed
static shared memory (see rejected) are left out of the modules and make up
--rejected.

Usage:
  block_payload_matrix.py                 the lit subset as one module on
                                          stdout (see in_subset)
  block_payload_matrix.py --all           every kernel (but the rejected
                                          ones) as one module
  block_payload_matrix.py --check         the covering set (see in_check)
  block_payload_matrix.py --one-per-file D  every kernel (or the subset
                                          with --subset, the covering set
                                          with --check) in D/<kernel>.mlir
  block_payload_matrix.py --rejected      the kernels the pipeline rejects,
                                          each a -split-input-file chunk
                                          with its expected error

The module starts with `// kernels: N` and `// ENTRIES: N` (a FileCheck line
for the number of `.entry` kernels in the PTX).

Pure Python 3.9+, no third-party modules.
"""
import argparse
import os
import sys

INT_SCALARS = ["i1", "i8", "i16", "i32", "i64", "index"]
FLOAT_SCALARS = ["f16", "bf16", "f32", "f64"]
SCALARS = INT_SCALARS + FLOAT_SCALARS
VECTOR_LENGTHS = [1, 2, 3, 4, 8]
PAYLOADS = SCALARS + ["vector<%dx%s>" % (n, t) for t in SCALARS
                      for n in VECTOR_LENGTHS]

INT_ONLY_KINDS = ["minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
FLOAT_ONLY_KINDS = ["minnumf", "maxnumf", "minimumf", "maximumf"]
KINDS = ["add", "mul"] + INT_ONLY_KINDS + FLOAT_ONLY_KINDS
ALGORITHMS = [None, "warp", "raking"]
# Known block sizes (x, y, z): one partial warp, one whole warp, a ragged
# 48 (raking by default), 4 whole warps as 2-D (integer kinds fold the warp
# totals in every thread; raking by default for integer scans), 256 threads
# as 3-D (raking segments of 8: padded and memoized).
KNOWN_BLOCKS = [(20, 1, 1), (32, 1, 1), (48, 1, 1), (32, 4, 1), (8, 8, 4)]
BLOCKS = [None] + KNOWN_BLOCKS


def element(t):
    """`vector<4xf16>` -> `f16`; a scalar is its own element type."""
    return t[t.index("x") + 1:-1] if t.startswith("vector<") else t


def lanes(t):
    return int(t[len("vector<"):t.index("x")]) if t.startswith("vector<") else 1


def kinds_of(t):
    """The kinds the verifier accepts on `t` (verifyKindMatchesType)."""
    if element(t) in FLOAT_SCALARS:
        return ["add", "mul"] + FLOAT_ONLY_KINDS
    return ["add", "mul"] + INT_ONLY_KINDS


def mangle(t):
    return t.replace("vector<", "v").replace(">", "")


def bytes_of(t):
    """What LLVM allocates for one `t` in memory (index: 64 bits)."""
    bits = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64,
            "f16": 16, "bf16": 16, "f32": 32, "f64": 64}[element(t)]
    if not t.startswith("vector<"):
        return max(1, bits // 8)
    size = (lanes(t) * bits + 7) // 8
    power = 1
    while power < size:
        power *= 2
    return power


def rejected(t, algorithm, block):
    """The byte count of the raking buffer that warp-check-shared-memory
    must reject, or None: an unknown block size sizes it for 1024 threads
    and the block total, 1025 elements (16-byte aligned) besides the
    scratch array (2 halves of 66 slots) of the non-raking forms."""
    if algorithm != "raking" or block is not None:
        return None
    rake = -(-1025 * bytes_of(t) // 16) * 16
    scratch = -(-132 * bytes_of(t) // 16) * 16
    return rake + scratch if rake + scratch > 48 * 1024 else None


def kernel_name(t, kind, algorithm, block):
    parts = ["block", kind, algorithm or "auto",
             "rt" if block is None else "k" + "x".join(map(str, block))]
    return "_".join(parts) + "__" + mangle(t)


def combine_op(t):
    return "arith.addf" if element(t) in FLOAT_SCALARS else "arith.addi"


def kernel(t, kind, algorithm, block):
    """(name, text): a gpu.module with one kernel that loads this thread's
    value, runs every block op form and stores each result to a slot of its
    own (nothing is dead)."""
    name = kernel_name(t, kind, algorithm, block)
    reduce_alg = {None: "", "warp": " algorithm = <warp_reductions>",
                  "raking": " algorithm = <raking>"}[algorithm]
    scan_alg = {None: "", "warp": " algorithm = <warp_scans>",
                "raking": " algorithm = <raking>"}[algorithm]
    k = "<%s>" % kind
    ops = [
        "%%r0 = warp.block_reduce %s %%x%s : %s" % (k, reduce_alg, t),
        "%%r1 = warp.block_scan %s %%x%s : %s" % (k, scan_alg, t),
        "%%r2 = warp.block_scan %s %%x exclusive%s : %s" % (k, scan_alg, t),
        "%%r3 = warp.block_scan %s %%x init %%x0%s : %s" % (k, scan_alg, t),
        "%%r4 = warp.block_scan %s %%x exclusive init %%x0%s : %s" % (k, scan_alg, t),
        "%%r5, %%r6 = warp.block_scan %s %%x%s : %s, %s" % (k, scan_alg, t, t),
        "%%r7, %%r8 = warp.block_scan %s %%x exclusive init %%x0%s : %s, %s"
        % (k, scan_alg, t, t),
        "%r9 = warp.block_broadcast %x, %src : " + t,
    ]
    results = ["%%r%d" % i for i in range(10)]
    if kind == "add":
        region = ("combine (%%a: %s, %%b: %s) {\n"
                  "      %%c = %s %%a, %%b : %s\n"
                  "      warp.yield %%c : %s\n"
                  "    }" % (t, t, combine_op(t), t, t))
        ops += [
            "%%r10 = warp.block_reduce %%x%s : %s %s" % (reduce_alg, t, region),
            "%%r11 = warp.block_reduce %%x commutative%s : %s %s"
            % (reduce_alg, t, region),
            "%%r12 = warp.block_scan %%x%s : %s %s" % (scan_alg, t, region),
            "%%r13, %%r14 = warp.block_scan %%x exclusive init %%x0%s : %s, %s %s"
            % (scan_alg, t, t, region),
        ]
        results += ["%%r%d" % i for i in range(10, 15)]
    mem = "memref<?x%s>" % t
    body = ["%t = gpu.thread_id x",
            "%c0 = arith.constant 0 : index",
            "%%x = memref.load %%in[%%t] : %s" % mem,
            "%%x0 = memref.load %%in[%%c0] : %s" % mem]
    body += ops
    for i, r in enumerate(results):
        body += ["%%k%d = arith.constant %d : index" % (i, i * 1024),
                 "%%j%d = arith.addi %%t, %%k%d : index" % (i, i),
                 "memref.store %s, %%out[%%j%d] : %s" % (r, i, mem)]
    attrs = ""
    if block is not None:
        attrs = " attributes {known_block_size = array<i32: %s>}" % (
            ", ".join(map(str, block)))
    lines = ["gpu.module @%s {" % name,
             "  gpu.func @%s(%%in: %s, %%out: %s, %%src: i32) kernel%s {"
             % (name, mem, mem, attrs)]
    lines += ["    " + line for line in body]
    lines += ["    gpu.return", "  }", "}"]
    return name, "\n".join(lines)


def every_kernel():
    for t in PAYLOADS:
        for kind in kinds_of(t):
            for algorithm in ALGORITHMS:
                for block in BLOCKS:
                    yield t, kind, algorithm, block


def second_kind(t):
    """The kind besides add that runs under every algorithm and block."""
    return "maximumf" if element(t) in FLOAT_SCALARS else "maxsi"


def in_check(t, kind, algorithm, block):
    """The covering set (--check): every kind on every type with no known
    block size, under the lowering's choice and raking; add (with its region
    forms) and second_kind under every algorithm and block. A kind changes
    only the combine, an algorithm and block only the paths around it, so
    this meets every (form, type, kind) and every (form, type, algorithm,
    block)."""
    if block is None and algorithm in (None, "raking"):
        return True
    return kind in ("add", second_kind(t))


# The types the lit subset runs under every algorithm and block, and those
# it runs every kind on.
SUBSET_PATH_TYPES = ["vector<4xi32>", "vector<2xf16>"]
SUBSET_KIND_TYPES = ["vector<3xi16>", "vector<3xbf16>"]


def in_subset(t, kind, algorithm, block):
    """The lit subset (109 kernels): add (with its region forms) on every
    payload type, with no known block size, under the lowering's choice;
    every kind on SUBSET_KIND_TYPES (raking, no known block: a
    non-power-of-two vector through the raking buffer); add under every
    algorithm and block on SUBSET_PATH_TYPES."""
    if rejected(t, algorithm, block):
        return False
    if kind == "add" and algorithm is None and block is None:
        return True
    if t in SUBSET_KIND_TYPES and algorithm == "raking" and block is None:
        return True
    return kind == "add" and t in SUBSET_PATH_TYPES


def module(kernels):
    body = "\n".join(text for _, text in kernels)
    return ("// kernels: %d\n// ENTRIES: %d\n"
            "module attributes {gpu.container_module} {\n%s\n}\n"
            % (len(kernels), len(kernels), body))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--check", action="store_true",
                        help="the covering set (see in_check)")
    parser.add_argument("--subset", action="store_true",
                        help="with --one-per-file: the lit subset only")
    parser.add_argument("--one-per-file", metavar="DIR")
    parser.add_argument("--rejected", action="store_true",
                        help="only the kernels warp-check-shared-memory "
                             "rejects, one per -split-input-file chunk with "
                             "its expected error")
    args = parser.parse_args()
    cases = list(every_kernel())
    if args.rejected:
        chunks = []
        for case in cases:
            total = rejected(*case[:1], *case[2:])
            if not total:
                continue
            name, text = kernel(*case)
            chunks.append(
                "module attributes {gpu.container_module} {\n"
                "// expected-error @+2 {{kernel '%s' uses %d bytes of static "
                "shared memory, more than the 49152 a block can have}}\n%s\n}"
                % (name, total, text))
        sys.stdout.write("\n// -----\n".join(chunks) + "\n")
        return
    if args.one_per_file:
        os.makedirs(args.one_per_file, exist_ok=True)
        for case in cases:
            if args.subset and not in_subset(*case):
                continue
            if args.check and not in_check(*case):
                continue
            if rejected(case[0], *case[2:]):
                continue
            name, text = kernel(*case)
            with open(os.path.join(args.one_per_file, name + ".mlir"), "w") as f:
                f.write(module([(name, text)]))
        return
    if args.all:
        chosen = [c for c in cases if not rejected(c[0], *c[2:])]
    elif args.check:
        chosen = [c for c in cases if in_check(*c) and not rejected(c[0], *c[2:])]
    else:
        chosen = [c for c in cases if in_subset(*c)]
    sys.stdout.write(module([kernel(*case) for case in chosen]))


if __name__ == "__main__":
    main()
