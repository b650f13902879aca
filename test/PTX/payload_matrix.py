#!/usr/bin/env python3
"""Generates the payload matrix of payload-matrix.test.

It proves the rule "every op x every payload type the verifier accepts lowers
to PTX that ptxas accepts, on every chip the compiler accepts"
(docs/semantics.md). There is one kernel per (op, kind or mode, form, payload
type) the verifier accepts, named after it (`scan_maxsi_exclusive__v3xi16`,
`shuffle_up_w8__bf16`), so an error in the merged module's PTX names its pair.

Usage:
  payload_matrix.py                   the whole matrix as one module on stdout
  payload_matrix.py --chip-subset     the part of it that the chip can change
                                      (see in_chip_subset), for the other chips
  payload_matrix.py --one-per-file D  each kernel in its own module,
                                      D/<kernel>.mlir, to find a failing pair
  payload_matrix.py --rejected        every (op, type) pair of the candidate
                                      space that the rule below leaves out, one
                                      per -split-input-file chunk with an
                                      expected error: `warp-opt
                                      -split-input-file -verify-diagnostics`
                                      on it proves the verifier rejects each,
                                      so the matrix misses nothing it accepts.

The module starts with `// kernels: N` and `// ENTRIES: N` (a FileCheck line
for the number of `.entry` kernels in the PTX).

Pure Python 3.9+, no third-party modules.
"""
import argparse
import os
import sys

# ---------------------------------------------------------------------------
# The candidate space: every op of the dialect x every payload type.
# ---------------------------------------------------------------------------

INT_SCALARS = ["i1", "i8", "i16", "i32", "i64"]
FLOAT_SCALARS = ["f16", "bf16", "f32", "f64"]
SCALARS = INT_SCALARS + ["index"] + FLOAT_SCALARS
VECTOR_LENGTHS = [1, 2, 3, 4, 8]
PAYLOADS = SCALARS + ["vector<%dx%s>" % (n, t) for t in SCALARS
                      for n in VECTOR_LENGTHS]

SHUFFLE_MODES = ["idx", "xor", "up", "down"]
SHUFFLE_WIDTHS = [32, 8]
INT_ONLY_KINDS = ["minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
FLOAT_ONLY_KINDS = ["minnumf", "maxnumf", "minimumf", "maximumf"]
KINDS = ["add", "mul"] + INT_ONLY_KINDS + FLOAT_ONLY_KINDS
SCAN_FORMS = ["inclusive", "exclusive", "reverse"]
ATOMIC_KINDS = ["add", "exch"] + INT_ONLY_KINDS + ["minnumf", "maxnumf"]


def element(t):
    """`vector<4xf16>` -> `f16`; a scalar is its own element type."""
    return t[t.index("x") + 1:-1] if t.startswith("vector<") else t


def candidates():
    """(op, kind, form, type) for every op of the matrix, accepted or not.
    `kind` is the shuffle mode or combine kind; `form` the shuffle width or
    the scan form."""
    for t in PAYLOADS:
        for mode in SHUFFLE_MODES:
            for width in SHUFFLE_WIDTHS:
                yield "shuffle", mode, width, t
        yield "broadcast", None, None, t
        yield "broadcast_first", None, None, t
        for kind in KINDS:
            yield "reduce", kind, None, t
        for form in SCAN_FORMS:
            for kind in KINDS:
                yield "scan", kind, form, t
        yield "match_any", None, None, t
        yield "match_all", None, None, t
        for kind in ATOMIC_KINDS:
            yield "atomic_rmw", kind, None, t


# ---------------------------------------------------------------------------
# The rule: which pairs the verifier accepts (the ODS type constraints of
# include/WarpDialect/IR/WarpOps.td and WarpBase.td, and the verifiers of
# lib/IR/WarpDialect.cpp). The matrix holds exactly these; --rejected checks
# that the verifier rejects all the others, so the rule cannot drift.
# ---------------------------------------------------------------------------

def accepts(op, kind, t):
    """Whether the verifier accepts `op` with combine `kind` on type `t`."""
    elem = element(t)
    if op in ("shuffle", "broadcast", "broadcast_first"):
        # ODS Warp_Payload: every scalar payload and fixed 1-D vector of one.
        return True
    if op in ("match_any", "match_all"):
        # ODS Warp_MatchPayload: scalar i32, i64, f32, f64 (compared bit for
        # bit, as CUDA's __match_*_sync).
        return t in ("i32", "i64", "f32", "f64")
    if op in ("reduce", "scan"):
        # ODS Warp_Payload, then the verifier (verifyKindMatchesType) lets
        # the kind decide: the float min/max kinds need a floating-point
        # element, the integer min/max and bitwise kinds an integer or index
        # element; add and mul take every element type.
        if kind in FLOAT_ONLY_KINDS:
            return elem in FLOAT_SCALARS
        if kind in INT_ONLY_KINDS:
            return elem in INT_SCALARS or elem == "index"
        return True
    if op == "atomic_rmw":
        # ODS Warp_AtomicType (scalar i16, i32, i64, f16, bf16, f32, f64
        # and the pairs vector<2xf16>, vector<2xbf16>), then the verifier:
        # add on all but i16, exch on the scalars, minnumf and maxnumf on
        # the float scalars (a CAS loop, as a 16-bit exch is), the other
        # kinds on i32 and i64 (PTX atom).
        if kind in ("minnumf", "maxnumf"):
            return t in ("f16", "bf16", "f32", "f64")
        if t == "i16":
            return kind == "exch"
        if t in ("f16", "bf16"):
            return kind in ("add", "exch")
        if t in ("vector<2xf16>", "vector<2xbf16>"):
            return kind == "add"
        if t not in ("i32", "i64", "f32", "f64"):
            return False
        return kind in ("add", "exch") or t in ("i32", "i64")
    raise ValueError(op)


# ---------------------------------------------------------------------------
# MLIR text.
# ---------------------------------------------------------------------------

def mangle(t):
    """A type as part of a symbol name: `vector<4xbf16>` -> `v4xbf16`."""
    return t.replace("vector<", "v").replace(">", "")


def storage(t):
    """The memref element type that holds a `t`: i1 (scalar or vector
    element) is kept as i32, as i1 memrefs are awkward."""
    if t == "i1":
        return "i32"
    return t.replace("xi1>", "xi32>")


def load(t, mem, name):
    """Lines loading this lane's element of `mem`, of type `t`, as `name`."""
    st = storage(t)
    if st == t:
        return ["%s = memref.load %s[%%t] : memref<?x%s>" % (name, mem, t)]
    return ["%s.wide = memref.load %s[%%t] : memref<?x%s>" % (name, mem, st),
            "%s = arith.trunci %s.wide : %s to %s" % (name, name, st, t)]


def store(t, value, mem):
    """Lines storing `value`, of type `t`, to this lane's element of `mem`."""
    st = storage(t)
    if st == t:
        return ["memref.store %s, %s[%%t] : memref<?x%s>" % (value, mem, t)]
    return ["%s.wide = arith.extui %s : %s to %s" % (value, value, t, st),
            "memref.store %s.wide, %s[%%t] : memref<?x%s>" % (value, mem, st)]


def kernel_name(op, kind, form, t):
    """`scan_add_exclusive__f32`, `shuffle_up_w8__v2xbf16`, `broadcast__i1`."""
    parts = [op]
    if kind:
        parts.append(kind)
    if op == "shuffle":
        parts.append("w%d" % form)
    elif form:
        parts.append(form)
    return "_".join(parts) + "__" + mangle(t)


def gpu_func(name, args, body):
    lines = ["  gpu.func @%s(%s) kernel {" % (name, ", ".join(args)),
             "    %t = gpu.thread_id x"]
    lines += ["    " + line for line in body]
    lines += ["    gpu.return", "  }"]
    return "\n".join(lines)


def payload_kernel(op, kind, form, t):
    """(name, text) of the kernel of one pair: it loads this lane's value of
    type `t` from %in, runs the op (a run-time shuffle offset or broadcast
    lane comes from %offset) and stores every result (to %out, and i1/i32
    side results to %aux), so nothing is dead."""
    name = kernel_name(op, kind, form, t)
    out = "i1" if op in ("match_any", "match_all") else t
    args = ["%%in: memref<?x%s>" % storage(t),
            "%%out: memref<?x%s>" % storage(out),
            "%aux: memref<?xi32>", "%offset: i32"]
    body = load(t, "%in", "%x")
    if op == "shuffle":
        width = "" if form == 32 else " width %d" % form
        body.append("%%r, %%ok = warp.shuffle <%s> %%x, %%offset%s : %s"
                    % (kind, width, t))
        body += store(t, "%r", "%out") + store("i1", "%ok", "%aux")
    elif op == "broadcast":
        body.append("%%r = warp.broadcast %%x, %%offset : %s" % t)
        body += store(t, "%r", "%out")
    elif op == "broadcast_first":
        body.append("%%r = warp.broadcast_first %%x : %s" % t)
        body += store(t, "%r", "%out")
    elif op == "reduce":
        body.append("%%r = warp.reduce <%s> %%x : %s" % (kind, t))
        body += store(t, "%r", "%out")
    elif op == "scan":
        attrs = "" if form == "inclusive" else " " + form
        body.append("%%r = warp.scan <%s> %%x%s : %s" % (kind, attrs, t))
        body += store(t, "%r", "%out")
    elif op == "match_any":
        body.append("%%r = warp.match_any %%x : %s" % t)
        body += store("i32", "%r", "%aux")
    elif op == "match_all":
        body.append("%%r, %%same = warp.match_all %%x : %s" % t)
        body += store("i32", "%r", "%aux") + store("i1", "%same", "%out")
    elif op == "atomic_rmw":
        body.append("%bin = arith.index_cast %offset : i32 to index")
        body.append("%%r = warp.atomic_rmw <%s> %%x, %%out[%%bin] : %s, memref<?x%s>"
                    % (kind, t, t))
        body += store(t, "%r", "%out")
    else:
        raise ValueError(op)
    return name, gpu_func(name, args, body)


def fixed_kernels():
    """The ops without a payload type: votes, compaction, ids, masks,
    syncwarp."""
    kernels = []

    def add(name, body, extra_args=()):
        args = ["%in: memref<?xi32>", "%out: memref<?xi32>"] + list(extra_args)
        kernels.append((name, gpu_func(name, args, body)))

    pred = load("i32", "%in", "%x") + ["%c0 = arith.constant 0 : i32",
                                       "%p = arith.cmpi sgt, %x, %c0 : i32"]
    add("ballot", pred + ["%r = warp.ballot %p : i32"]
        + store("i32", "%r", "%out"))
    add("ballot_popc", pred + ["%b = warp.ballot %p : i32",
                               "%r = math.ctpop %b : i32"]
        + store("i32", "%r", "%out"))
    for kind in ["any", "all", "uni"]:
        add("vote_" + kind, pred + ["%%r = warp.vote <%s> %%p : i1" % kind]
            + store("i1", "%r", "%out"))
    add("compact", pred + ["%o, %n = warp.compact %p : i32",
                           "%r = arith.addi %o, %n : i32"]
        + store("i32", "%r", "%out"))
    for name, op in [("lane_id", "warp.lane_id"), ("warp_id", "warp.warp_id"),
                     ("warp_id_linear", "warp.warp_id linear"),
                     ("activemask", "warp.activemask")] + [
                         ("lanemask_" + k, "warp.lanemask <%s>" % k)
                         for k in ["lt", "le", "eq", "ge", "gt"]]:
        add(name, ["%%r = %s : i32" % op] + store("i32", "%r", "%out"))
    # syncwarp orders a store before it against a load after it.
    for name, op, extra in [("syncwarp", "warp.syncwarp", ()),
                            ("syncwarp_mask", "warp.syncwarp mask %mask",
                             ["%mask: i32"])]:
        add(name, load("i32", "%in", "%x") + store("i32", "%x", "%out") + [op]
            + load("i32", "%out", "%y") + store("i32", "%y", "%in"), extra)
    return kernels


# ---------------------------------------------------------------------------
# The chip subset. The whole matrix takes about 25 s of CPU per chip (lowering
# and ptxas), too long to run for five chips in one test, so the test runs it
# for one chip and this subset for the others. The subset keeps every op, kind,
# mode, form and type, and leaves out only what the chip cannot change: the
# exclusive and reverse scans of each kind other than `add`. The chip enters
# the lowering through the reduction strategy (redux.sync, Chip::supportsRedux)
# and the PTX version, and in the NVPTX backend through the instructions that
# do the arithmetic of each kind on each type; a scan's form changes only its
# shuffle pattern and identity constant (neither depends on the chip), and the
# arithmetic of every (kind, type) stays in the subset, in the reduction and
# the inclusive scan.
# ---------------------------------------------------------------------------

def in_chip_subset(op, kind, form, t):
    # The bf16 pair's atomic needs sm_90 (Chip::checkAtomic; an error at the
    # op below, test/Transforms/expand-atomics-chip.mlir): sm_90's whole
    # matrix has it.
    if op == "atomic_rmw" and t == "vector<2xbf16>":
        return False
    return op != "scan" or form == "inclusive" or kind == "add"


def accepted_kernels(chip_subset=False):
    return [payload_kernel(op, kind, form, t)
            for op, kind, form, t in candidates()
            if accepts(op, kind, t)
            and (not chip_subset or in_chip_subset(op, kind, form, t))
            ] + fixed_kernels()


def module(kernels):
    lines = ["// Generated by test/PTX/payload_matrix.py; do not edit.",
             "// kernels: %d" % len(kernels),
             "// ENTRIES: %d" % len(kernels),
             "module attributes {gpu.container_module} {",
             "gpu.module @kernels {"]
    lines += [text for _, text in kernels]
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def rejected():
    """-split-input-file chunks, one per (op, kind, form, type) the rule
    leaves out, each expecting an error from that op."""
    chunks = []
    for op, kind, form, t in candidates():
        if accepts(op, kind, t):
            continue
        if op == "reduce":
            text = "%%r = warp.reduce <%s> %%x : %s" % (kind, t)
        elif op == "scan":
            attrs = "" if form == "inclusive" else " " + form
            text = "%%r = warp.scan <%s> %%x%s : %s" % (kind, attrs, t)
        elif op == "match_any":
            text = "%%r = warp.match_any %%x : %s" % t
        elif op == "match_all":
            text = "%%r, %%p = warp.match_all %%x : %s" % t
        elif op == "atomic_rmw":
            text = "%%r = warp.atomic_rmw <%s> %%x, %%m[%%i] : %s, memref<?x%s>" % (kind, t, t)
        else:
            raise ValueError(op)
        # The message is the verifier's or the parser's (a type constraint
        # of the custom assembly format); both name the op.
        chunks.append("\n".join([
            "func.func @%s(%%x: %s, %%m: memref<?x%s>, %%i: index) {"
            % (kernel_name(op, kind, form, t), t, t),
            "  // expected-error @+1 {{'warp.%s'}}" % op,
            "  " + text,
            "  return",
            "}"]))
    return "\n\n// -----\n\n".join(chunks) + "\n"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--one-per-file", metavar="DIR",
                       help="write each kernel to DIR/<kernel>.mlir")
    group.add_argument("--rejected", action="store_true",
                       help="print the pairs the verifier must reject")
    parser.add_argument("--chip-subset", action="store_true",
                        help="only the part of the matrix that the chip can "
                             "change (see in_chip_subset)")
    options = parser.parse_args()
    if options.rejected:
        sys.stdout.write(rejected())
        return
    kernels = accepted_kernels(options.chip_subset)
    if options.one_per_file:
        os.makedirs(options.one_per_file, exist_ok=True)
        for name, text in kernels:
            path = os.path.join(options.one_per_file, name + ".mlir")
            with open(path, "w") as f:
                f.write(module([(name, text)]))
        print("%d kernels written to %s" % (len(kernels), options.one_per_file))
        return
    sys.stdout.write(module(kernels))


if __name__ == "__main__":
    main()
