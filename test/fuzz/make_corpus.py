#!/usr/bin/env python3
"""Writes the warp-fuzz seed corpus: every MLIR file of the lit suite and of
examples/, split on `// -----` with its comment lines (RUN, CHECK,
expected-error, prose) removed.

Each seed starts with the harness's option byte (tools/warp-fuzz/warp-fuzz.cpp:
bits 0-1 chip, 2-3 strategy, 6 opt-level), rotated over the seeds so every
chip and strategy appears. A snippet of bare `func.func`s (no gpu.module, no
module) is also written wrapped in `gpu.module @fuzz { ... }`, so its warp
ops reach the device lowering instead of the host-code diagnostic.

The snippets of test/Robustness (the reproducers of earlier crash classes)
are always in, whatever their length rank. Then a seed per op family
(family_seeds: every op of the dialect's .td files, block ops over tuples
with combine regions, atomic_rmw and lane_atomic_rmw in each address space, a reduce nested in
a combiner, the host-level device ops; the script fails when an op has no seed), and a small op x payload matrix the lit files do not have: for every
payload type (i1 ... f64, index, 1-D vectors), one seed per op family
(reduce, scan, data movement, forced redux) using every kind and clause
that verifies for that type. Text mutations rarely turn `i32` into `index`
or add `exclusive`; these seeds start from there.

Usage: make_corpus.py OUT_DIR [MAX_FILES]   (default 200)
"""
import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SELECTORS = "0123456789:;<=>?@ABCDEFGHIJKLMNO"


# Inputs that reach an LLVM fatal error on purpose (hand-written LLVM dialect
# the backend cannot select): the drivers report them as diagnostics, but the
# harness aborts on every fatal error, which a warp lowering must never cause.
DELIBERATE_FATAL_ERRORS = {os.path.join("test", "Robustness", "Inputs",
                                        "backend-cannot-select.mlir")}


def sources():
    for top in ("test", "examples"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames
                                 if d not in ("fuzz", "__pycache__"))
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                if (name.endswith(".mlir")
                        and os.path.relpath(path, ROOT) not in DELIBERATE_FATAL_ERRORS):
                    yield path


def snippets(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for chunk in re.split(r"^// -----.*$", text, flags=re.M):
        lines = [l for l in chunk.splitlines()
                 if not l.lstrip().startswith("//") and l.strip()]
        body = "\n".join(lines).strip()
        if body:
            yield body + "\n"


def wrapped(body):
    if "gpu.module" in body or re.search(r"^\s*module\b", body, re.M):
        return None
    if "func.func" not in body or "warp." not in body:
        return None
    inner = "\n".join("  " + l for l in body.splitlines())
    return "gpu.module @fuzz {\n" + inner + "\n}\n"


INT_KINDS = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
FLOAT_KINDS = ["add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"]
PAYLOADS = ["i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32",
            "f64", "vector<2xf16>", "vector<2xbf16>", "vector<4xi8>",
            "vector<2xi32>", "vector<3xf32>", "vector<2xi64>"]


def is_float(t):
    return re.search(r"f(16|32|64)>?$", t) is not None


def matrix_seeds():
    """One gpu.module per (payload, op family); every op stores its result."""
    for t in PAYLOADS:
        kinds = FLOAT_KINDS if is_float(t) else INT_KINDS
        k0 = kinds[0]
        families = {
            "reduce": [f"warp.reduce <{k}> %x : {t}" for k in kinds] + [
                f"warp.reduce <{k0}> %x lanes = <first> : {t}",
                f"warp.reduce <{kinds[-1]}> %x cluster_size = 8 : {t}",
                f"warp.reduce <{k0}> %x cluster_size = 4 cluster_stride = 8 : {t}",
                f"warp.reduce <{kinds[2]}> %x valid_lanes %n : {t}",
                f"warp.reduce <{k0}> %x mask %m : {t}",
                f"warp.reduce <{kinds[1]}> %x mask %m cluster_size = 16 lanes = <first> : {t}",
                f"warp.reduce <{k0}> %x strategy = <tree> : {t}",
                f"warp.reduce <{kinds[3]}> %x cluster_size = 2 strategy = <butterfly> : {t}",
            ],
            "scan": [f"warp.scan <{k}> %x exclusive : {t}" for k in kinds] + [
                f"warp.scan <{k0}> %x : {t}",
                f"warp.scan <{kinds[1]}> %x reverse width 8 : {t}",
                f"warp.scan <{k0}> %x exclusive reverse : {t}",
                f"warp.scan <{kinds[2]}> %x init %x : {t}",
                f"warp.scan <{k0}> %x exclusive width 4 init %x : {t}",
                f"warp.scan <{kinds[-1]}> %x valid_lanes %n : {t}",
                f"warp.scan <{k0}> %x mask %m : {t}",
                f"warp.scan <{kinds[3]}> %x heads %h : {t}",
                f"warp.scan <{k0}> %x exclusive heads %h : {t}",
            ],
            "move": [
                f"warp.shuffle <idx> %x, %o : {t}",
                f"warp.shuffle <xor> %x, %o width 16 : {t}",
                f"warp.shuffle <up> %x, %o width %w : {t}",
                f"warp.shuffle <down> %x, %o mask %m : {t}",
                f"warp.shuffle <up> %x, %o bound %n mask %m : {t}",
                f"warp.broadcast %x, %o : {t}",
                f"warp.broadcast %x, %o mask %m : {t}",
                f"warp.broadcast_first %x : {t}",
                f"warp.broadcast_first %x mask %m : {t}",
            ],
        }
        # The verifier allows a forced redux for what redux.sync takes only.
        redux = ([k for k in kinds if k != "mul"] if t in ("i1", "i8", "i16", "i32")
                 else FLOAT_KINDS[2:] if t == "f32" else [])
        if redux:
            families["redux"] = [
                f"warp.reduce <{k}> %x strategy = <redux> : {t}" for k in redux] + [
                f"warp.reduce <{redux[0]}> %x mask %m strategy = <redux> : {t}"]
        for family, ops in families.items():
            body = []
            for i, op in enumerate(ops):
                results = f"%r{i}"
                if op.startswith("warp.shuffle"):
                    results += f", %v{i}"
                body.append(f"    {results} = {op}")
                body.append(f"    memref.store %r{i}, %out[%c0] : memref<4x{t}>")
            text = (
                "gpu.module @fuzz {\n"
                f"  func.func @{family}(%x: {t}, %n: i32, %m: i32, %h: i1, "
                f"%o: i32, %w: i32, %out: memref<4x{t}>) {{\n"
                "    %c0 = arith.constant 0 : index\n"
                + "\n".join(body) + "\n    return\n  }\n}\n")
            yield text


def kernel(name, params, body, block=None):
    """A gpu.module with one kernel (known block size `block` if given)."""
    attrs = (" attributes {known_block_size = array<i32: %d, 1, 1>}" % block
             if block else "")
    lines = "\n".join("      " + l for l in body)
    return ("module attributes {gpu.container_module} {\n"
            "  gpu.module @fuzz {\n"
            f"    gpu.func @{name}({params}) kernel{attrs} {{\n"
            "      %c0 = arith.constant 0 : index\n"
            f"{lines}\n      gpu.return\n    }}\n  }}\n}}\n")


def combine(t, n, yield_op="warp.yield"):
    """A combine region over an n-tuple of t: element-wise addition."""
    add = "arith.addf" if is_float(t) else "arith.addi"
    lhs = ", ".join(f"%a{i}: {t}" for i in range(n))
    rhs = ", ".join(f"%b{i}: {t}" for i in range(n))
    ops = [f"  %s{i} = {add} %a{i}, %b{i} : {t}" for i in range(n)]
    ts = ", ".join([t] * n)
    return ([f"combine ({lhs}, {rhs}) {{"] + ops
            + ["  " + yield_op + " " + ", ".join(f"%s{i}" for i in range(n))
               + f" : {ts}", "}"])


def family_seeds():
    """One kernel per op family the lit files cover thinly or not at all:
    the lane queries, votes and matches, compaction, MMA fragments, block
    ops (tuples with combine regions), atomic_rmw in each address space,
    and a warp.reduce nested in a combine region. The structural mutations
    start from these."""
    yield kernel("queries", "%out: memref<8xi32>", [
        "%l = warp.lane_id : i32", "%w = warp.warp_id : i32",
        "%lt = warp.lanemask <lt> : i32", "%ge = warp.lanemask <ge> : i32",
        "%a = warp.activemask : i32", "warp.syncwarp", "warp.syncwarp mask %a",
        "%s0 = arith.addi %l, %w : i32", "%s1 = arith.addi %lt, %ge : i32",
        "%s2 = arith.addi %s0, %s1 : i32", "%s3 = arith.addi %s2, %a : i32",
        "memref.store %s3, %out[%c0] : memref<8xi32>"])
    yield kernel("votes", "%out: memref<8xi32>, %k: i64, %x: i32", [
        "%l = warp.lane_id : i32", "%c16 = arith.constant 16 : i32",
        "%p = arith.cmpi ult, %l, %c16 : i32",
        "%b = warp.ballot %p : i32", "%any = warp.vote <any> %p : i1",
        "%all = warp.vote <all> %p : i1", "%uni = warp.vote <uni> %p : i1",
        "%ma = warp.match_any %k : i64", "%mall:2 = warp.match_all %k : i64",
        "%e = warp.elect : i1", "%cp:2 = warp.compact %p : i32",
        "%cm:2 = warp.compact %p mask %b : i32",
        "%s0 = arith.addi %b, %ma : i32", "%s1 = arith.addi %s0, %mall#0 : i32",
        "%s2 = arith.addi %s1, %cp#0 : i32", "%s3 = arith.addi %s2, %cm#1 : i32",
        "%z = arith.extui %any : i1 to i32", "%s4 = arith.addi %s3, %z : i32",
        "%y = arith.extui %e : i1 to i32", "%s5 = arith.addi %s4, %y : i32",
        "memref.store %s5, %out[%c0] : memref<8xi32>"])
    yield kernel("mma", "%a: memref<16x16xf16>, %b: memref<16x16xf16>, "
                 "%c: memref<16x16xf32>", [
        "%fa = warp.mma_load %a[%c0, %c0] operand = a layout = row "
        "shape = m16n16k16 : memref<16x16xf16> -> vector<16xf16>",
        "%fb = warp.mma_load %b[%c0, %c0] operand = b layout = col "
        "shape = m16n16k16 : memref<16x16xf16> -> vector<16xf16>",
        "%fc = warp.mma_load %c[%c0, %c0] operand = c layout = row "
        "shape = m16n16k16 : memref<16x16xf32> -> vector<8xf32>",
        "%d = warp.mma_compute %fa, %fb, %fc shape = m16n16k16 "
        "a_layout = row b_layout = col : vector<16xf16>, vector<8xf32>",
        "warp.mma_store %d, %c[%c0, %c0] layout = row : vector<8xf32>, "
        "memref<16x16xf32>"])
    yield kernel("mma_sync", "%a: vector<8xbf16>, %b: vector<4xbf16>, "
                 "%c: vector<4xf32>, %out: memref<4xf32>, "
                 "%t: memref<32x8xbf16, #gpu.address_space<workgroup>>", [
        "%l = gpu.lane_id",
        "%x = warp.ldmatrix %t[%l, %c0] count = 4 : memref<32x8xbf16, "
        "#gpu.address_space<workgroup>> -> vector<8xbf16>",
        "%y = warp.ldmatrix %t[%l, %c0] count = 2 transpose : memref<32x8xbf16, "
        "#gpu.address_space<workgroup>> -> vector<4xbf16>",
        "warp.stmatrix %y, %t[%l, %c0] count = 2 : vector<4xbf16>, "
        "memref<32x8xbf16, #gpu.address_space<workgroup>>",
        "%d = warp.mma_sync %x, %b, %c shape = m16n8k16 : vector<8xbf16>, "
        "vector<4xbf16> -> vector<4xf32>",
        "%e = warp.mma_sync %a, %y, %d shape = m16n8k16 : vector<8xbf16>, "
        "vector<4xbf16> -> vector<4xf32>",
        "vector.store %e, %out[%c0] : memref<4xf32>, vector<4xf32>"])
    # fp8 (sm_89+, a PTX version above the chip's own), both formats mixed.
    yield kernel("mma_sync_fp8", "%a: vector<16xf8E4M3FN>, %b: vector<8xf8E5M2>, "
                 "%c: vector<4xf32>, %h: vector<4xf16>, %out: memref<4xf32>, "
                 "%outh: memref<4xf16>", [
        "%d = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E4M3FN>, "
        "vector<8xf8E5M2> -> vector<4xf32>",
        "%e = warp.mma_sync %a, %b, %h shape = m16n8k32 : vector<16xf8E4M3FN>, "
        "vector<8xf8E5M2> -> vector<4xf16>",
        "vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>",
        "vector.store %e, %outh[%c0] : memref<4xf16>, vector<4xf16>"])
    yield kernel("wgmma", "%acc: vector<64xf32>, %out: memref<64xf32>, "
                 "%t: memref<128x64xf16, #gpu.address_space<workgroup>>", [
        "%da = warp.wgmma_descriptor %t[%c0, %c0] swizzle = b128 "
        "{leading = 16, stride = 1024} : memref<128x64xf16, #gpu.address_space<workgroup>>",
        "%db = warp.wgmma_descriptor %t[%c0, %c0] swizzle = none "
        "{leading = 8192, stride = 1024} : memref<128x64xf16, #gpu.address_space<workgroup>>",
        "nvvm.wgmma.fence.aligned",
        "%d = warp.wgmma %da, %db, %acc {b_mn_major} : f16, vector<64xf32>",
        "nvvm.wgmma.commit.group.sync.aligned",
        "nvvm.wgmma.wait.group.sync.aligned 0",
        "vector.store %d, %out[%c0] : memref<64xf32>, vector<64xf32>"], block=128)
    for t in ("i32", "f32", "i64", "f16"):
        # i32: a tuple of 7, past the 6 values that fit in a SmallVector's
        # inline storage (issue 28's class 6 needed 7).
        n = {"i32": 7, "f32": 3}.get(t, 2)
        ts = ", ".join([t] * n)
        xs = ", ".join(["%x"] * n)
        body = [f"%br = warp.block_reduce <add> %x : {t}",
                f"%bs = warp.block_scan <add> %x exclusive : {t}",
                f"%bb = warp.block_broadcast %x, %th : {t}",
                f"%rt:{n} = warp.block_reduce {xs} : {ts}"] + combine(t, n) + [
                f"%st:{n} = warp.block_scan {xs} : {ts}"] + combine(t, n) + [
                f"%wt:{n} = warp.scan {xs} : {ts}"] + combine(t, n)
        # A reduce nested in the combine region of a reduce.
        nested = [f"%nr = warp.reduce %x : {t} combine (%p: {t}, %q: {t}) {{",
                  f"  %in = warp.reduce <add> %p : {t}",
                  f"  %sum = {'arith.addf' if is_float(t) else 'arith.addi'}"
                  f" %in, %q : {t}",
                  f"  warp.yield %sum : {t}", "}"]
        body += nested
        stores = ["%br", "%bs", "%bb", "%rt#0", f"%rt#{n - 1}", "%st#0",
                  f"%wt#{n - 1}", "%nr"]
        body += [f"memref.store {v}, %out[%c0] : memref<8x{t}>" for v in stores]
        yield kernel("block_" + t, f"%out: memref<8x{t}>, %x: {t}, %th: i32",
                     body, block=64)
    yield kernel("exchange", "%out: memref<4xvector<4xf32>>, %v: vector<4xf32>", [
        "%e = warp.exchange <blocked_to_striped> %v : vector<4xf32>",
        "%b = warp.block_exchange <striped_to_blocked> %e : vector<4xf32>",
        "memref.store %b, %out[%c0] : memref<4xvector<4xf32>>"], block=64)
    yield kernel("exchange_narrow", "%out: memref<4xvector<40xf16>>, %v: vector<40xf16>, "
                 "%r: vector<40xi32>, %h: vector<8xi8>, %o8: memref<4xvector<8xi8>>", [
        "%e = warp.exchange <striped_to_blocked> %v : vector<40xf16>",
        "%s = warp.scatter %e, %r striped : vector<40xf16>, vector<40xi32>",
        "%c = warp.exchange <blocked_to_striped> %h strategy = <shuffle> : vector<8xi8>",
        "memref.store %s, %out[%c0] : memref<4xvector<40xf16>>",
        "memref.store %c, %o8[%c0] : memref<4xvector<8xi8>>"], block=64)
    # A stable merge sort of pairs, then one of a ragged tile in logical
    # warps of 8 lanes (valid_items, the oob default), descending.
    yield kernel("merge_sort", "%out: memref<4xvector<4xi32>>, %k: vector<4xi32>, "
                 "%v: vector<4xf16>, %f: vector<3xf32>, %n: i32, "
                 "%of: memref<4xvector<3xf32>>", [
        "%s:2 = warp.merge_sort %k, %v : vector<4xi32>, vector<4xf16>"
        " compare(%a: i32, %b: i32) {",
        "  %lt = arith.cmpi slt, %a, %b : i32", "  warp.yield %lt : i1", "}",
        "%inf = arith.constant 0x7F800000 : f32",
        "%t = warp.merge_sort %f valid_items %n default %inf width 8 : vector<3xf32>"
        " compare(%a: f32, %b: f32) {",
        "  %gt = arith.cmpf ogt, %a, %b : f32", "  warp.yield %gt : i1", "}",
        "memref.store %s#0, %out[%c0] : memref<4xvector<4xi32>>",
        "memref.store %t, %of[%c0] : memref<4xvector<3xf32>>"], block=64)
    # Items per thread, a reverse scan, block loads and stores of a tile.
    yield kernel("block_items", "%in: memref<?xf32>, %out: memref<?xf32>, "
                 "%o: index, %n: i32", [
        "%z = arith.constant 0.0 : f32",
        "%v = warp.block_load %in[%o] valid %n default %z : memref<?xf32>, vector<4xf32>",
        "%r = warp.block_reduce <add> %v items : vector<4xf32>",
        "%s, %t = warp.block_scan <maxnumf> %v items exclusive reverse init %r"
        " : vector<4xf32>, f32",
        "warp.block_store %s, %out[%o] algorithm = <transpose> : vector<4xf32>, memref<?xf32>",
        "memref.store %t, %out[%o] : memref<?xf32>"], block=64)
    # A block scan's prefix region (CUB's BlockPrefixCallbackOp): a running
    # total in global memory, read by warp 0 and updated by its lane 0,
    # in both algorithms.
    yield kernel("block_scan_prefix", "%x: i32, %out: memref<?xi32>, "
                 "%run: memref<?xi32>", [
        "%s, %t = warp.block_scan <add> %x exclusive : i32, i32 prefix(%tot: i32) {",
        "  %old = memref.load %run[%c0] : memref<?xi32>",
        "  %lane = warp.lane_id : i32", "  %z = arith.constant 0 : i32",
        "  %first = arith.cmpi eq, %lane, %z : i32",
        "  scf.if %first {", "    %new = arith.addi %old, %tot : i32",
        "    memref.store %new, %run[%c0] : memref<?xi32>",
        "  }", "  warp.yield %old : i32", "}",
        "%r = warp.block_scan <maxsi> %x algorithm = <raking> : i32 prefix(%m: i32) {",
        "  warp.yield %m : i32", "}",
        "memref.store %s, %out[%c0] : memref<?xi32>",
        "memref.store %r, %out[%c0] : memref<?xi32>"], block=96)
    # A warp's tile: a partial one with a default, a transposed store.
    yield kernel("warp_memory", "%in: memref<?xi8>, %out: memref<?xi8>, "
                 "%o: index, %n: i32", [
        "%z = arith.constant 0 : i8",
        "%v = warp.load %in[%o] valid %n default %z : memref<?xi8>, vector<8xi8>",
        "warp.store %v, %out[%o] algorithm = <transpose> : vector<8xi8>, memref<?xi8>"],
        block=64)
    # Logical warps of 8 lanes (LOGICAL_WARP_THREADS): vectorized and
    # partial striped; a tile's ballot and votes (tiled_partition<N>).
    yield kernel("logical_warps", "%in: memref<?xf32>, %out: memref<?xf32>, "
                 "%o: index, %n: i32, %bits: memref<?xi32>", [
        "%v = warp.load %in[%o] width 8 : memref<?xf32>, vector<4xf32>",
        "warp.store %v, %out[%o] width 8 valid %n striped : vector<4xf32>, memref<?xf32>",
        "%l = warp.lane_id : i32", "%c5 = arith.constant 5 : i32",
        "%p = arith.cmpi ult, %l, %c5 : i32",
        "%b = warp.ballot %p width 4 : i32", "%m = warp.ballot %p mask %b width 16 : i32",
        "%any = warp.vote <any> %p width 2 : i1", "%uni = warp.vote <uni> %p width 8 : i1",
        "%all = warp.vote <all> %p width 1 : i1",
        "%x = arith.extui %any : i1 to i32", "%y = arith.extui %uni : i1 to i32",
        "%s0 = arith.addi %b, %m : i32", "%s1 = arith.addi %s0, %x : i32",
        "%s2 = arith.addi %s1, %y : i32",
        "%s3 = arith.select %all, %s2, %b : i32",
        "%i = arith.index_cast %l : i32 to index",
        "memref.store %s3, %bits[%i] : memref<?xi32>"],
        block=64)
    yield kernel("block_scatter", "%out: memref<4xvector<4xi32>>, %x: vector<4xi32>, "
                 "%f: vector<4xi1>", [
        "%y = warp.block_scatter %x, %x striped : vector<4xi32>, vector<4xi32>",
        "%z = warp.block_scatter %y, %x flags %f : vector<4xi32>, vector<4xi32>, vector<4xi1>",
        "memref.store %z, %out[%c0] : memref<4xvector<4xi32>>"], block=64)
    yield kernel("block_histogram", "%s: vector<4xi8>, %bins: memref<?xi32>", [
        "warp.block_histogram %s into %bins algorithm = <warp_aggregated> "
        ": vector<4xi8>, memref<?xi32>",
        "warp.block_histogram %s into %bins accumulate algorithm = <sort> "
        ": vector<4xi8>, memref<?xi32>"], block=64)
    yield kernel("block_radix_sort", "%out: memref<4xvector<4xf32>>, "
                 "%k: vector<4xf32>, %v: vector<4xi32>, %b: vector<2xi8>, "
                 "%o8: memref<4xvector<2xi8>>", [
        "%s:2 = warp.block_radix_sort %k, %v descending striped"
        " : vector<4xf32>, vector<4xi32>",
        "%t = warp.block_radix_sort %b signed bits 1 to 7 radix_bits = 1"
        " : vector<2xi8>",
        "memref.store %s#0, %out[%c0] : memref<4xvector<4xf32>>",
        "memref.store %t, %o8[%c0] : memref<4xvector<2xi8>>"], block=100)
    # A block merge sort of pairs over a block that is not a power of two,
    # then a ragged one (valid_items, the oob default), descending.
    yield kernel("block_merge_sort", "%out: memref<4xvector<4xi32>>, %k: vector<4xi32>, "
                 "%v: vector<4xbf16>, %f: vector<3xf64>, %n: i32, "
                 "%of: memref<4xvector<3xf64>>", [
        "%s:2 = warp.block_merge_sort %k, %v : vector<4xi32>, vector<4xbf16>"
        " compare(%a: i32, %b: i32) {",
        "  %lt = arith.cmpi slt, %a, %b : i32", "  warp.yield %lt : i1", "}",
        "%inf = arith.constant 0x7FF0000000000000 : f64",
        "%t = warp.block_merge_sort %f valid_items %n default %inf : vector<3xf64>"
        " compare(%a: f64, %b: f64) {",
        "  %gt = arith.cmpf ogt, %a, %b : f64", "  warp.yield %gt : i1", "}",
        "memref.store %s#0, %out[%c0] : memref<4xvector<4xi32>>",
        "memref.store %t, %of[%c0] : memref<4xvector<3xf64>>"], block=160)
    yield kernel("block_radix_rank", "%out: memref<4xvector<4xi32>>, "
                 "%k: vector<4xf32>, %b: vector<2xi8>, %o1: memref<4xvector<1xi32>>", [
        "%r, %p = warp.block_radix_rank %k descending bits 27 to 32"
        " : vector<4xf32>, vector<1xi32>",
        "%q = warp.block_radix_rank %b signed bits 7 to 8 : vector<2xi8>",
        "memref.store %r, %out[%c0] : memref<4xvector<4xi32>>",
        "memref.store %p, %o1[%c0] : memref<4xvector<1xi32>>"], block=100)
    # The custom keys: a digit region (a key type without an image), and a
    # sort of a tuple of key members with values.
    yield kernel("block_radix_rank_digit", "%out: memref<4xvector<2xi32>>, "
                 "%k: vector<2xindex>, %o1: memref<4xvector<1xi32>>", [
        "%r, %p = warp.block_radix_rank %k descending radix_bits = 3"
        " : vector<2xindex>, vector<1xi32> digit(%i: index) {",
        "  %d = arith.index_cast %i : index to i32", "  warp.yield %d : i32", "}",
        "memref.store %r, %out[%c0] : memref<4xvector<2xi32>>",
        "memref.store %p, %o1[%c0] : memref<4xvector<1xi32>>"], block=96)
    yield kernel("block_radix_sort_tuple", "%out: memref<4xvector<2xf32>>, "
                 "%a: vector<2xi16>, %f: vector<2xf32>, %v: vector<2xi64>", [
        "%s:3 = warp.block_radix_sort (%a, %f), %v descending signed"
        " : (vector<2xi16>, vector<2xf32>), vector<2xi64>",
        "memref.store %s#1, %out[%c0] : memref<4xvector<2xf32>>"], block=100)
    yield kernel("block_run_length_decode", "%out: memref<4xvector<4xf32>>, "
                 "%v: vector<2xf32>, %n: vector<2xi16>, %f: i32, %z: f32", [
        "%d:3 = warp.block_run_length_decode %v, %n from %f default %z"
        " : vector<2xf32>, vector<2xi16>, i32 -> vector<4xf32>, vector<4xi32>",
        "%e:2 = warp.block_run_length_decode %v, offsets %n from %f"
        " : vector<2xf32>, vector<2xi16>, i32 -> vector<4xf32>",
        "memref.store %d#0, %out[%c0] : memref<4xvector<4xf32>>",
        "memref.store %e#0, %out[%c0] : memref<4xvector<4xf32>>"], block=96)
    yield kernel("block_shuffle", "%out: memref<4xf32>, %x: f32, %d: i32", [
        "%r, %ok = warp.block_shuffle <offset> %x, %d : f32",
        "%q, %ok2 = warp.block_shuffle <rotate> %r, %d : f32",
        "%y, %ok3 = warp.block_shuffle <xor> %q, %d : f32",
        "%p = warp.block_reduce <add> %y valid_threads %d threads = <first> : f32",
        # The block's lane mask: a word per warp of the known block.
        "%m = warp.block_ballot %ok3 : vector<2xi32>",
        "memref.store %p, %out[%c0] : memref<4xf32>"], block=64)
    # Tiles of several warps: block ops with `tile N` and warp.tile_sync.
    yield kernel("block_tiles", "%out: memref<4xi32>, %x: i32, %d: i32", [
        "%r = warp.block_reduce <maxsi> %x valid_threads %d tile 64 : i32",
        "%s, %t = warp.block_scan <add> %r exclusive init %d tile 128 : i32, i32",
        "%b = warp.block_broadcast %s, %d tile 256 : i32",
        "%u, %ok = warp.block_shuffle <offset> %b, %d tile 64 : i32",
        "%w, %ok3 = warp.block_shuffle <xor> %u, %d tile 128 : i32",
        "warp.tile_sync 64",
        "%z = arith.constant 0 : i32",
        "%p = arith.cmpi sgt, %w, %z : i32",
        "%m = warp.block_ballot %p tile 256 : vector<8xi32>",
        "%v = vector.broadcast %w : i32 to vector<3xi32>",
        "%ri = warp.block_reduce <add> %v items algorithm = <raking> tile 128 : vector<3xi32>",
        "%si = warp.block_scan <maxsi> %v items exclusive tile 64 : vector<3xi32>",
        "memref.store %b, %out[%c0] : memref<4xi32>",
        "memref.store %ri, %out[%c0] : memref<4xi32>"], block=256)
    yield kernel("block_shift", "%out: memref<4xvector<3xf16>>, %e: memref<4xf16>, "
                 "%x: vector<3xf16>", [
        "%p, %s = warp.block_shift <up> %x : vector<3xf16>",
        "%n, %f = warp.block_shift <down> %p : vector<3xf16>",
        "memref.store %n, %out[%c0] : memref<4xvector<3xf16>>",
        "memref.store %f, %e[%c0] : memref<4xf16>"], block=100)
    spaces = ["", ", #gpu.address_space<global>", ", 1",
              ", #gpu.address_space<workgroup>", ", 3"]
    for i, space in enumerate(spaces):
        t = "f32" if i % 2 else "i32"
        yield kernel(f"atomic{i}", f"%h: memref<32x{t}{space}>, %v: {t}, "
                     f"%out: memref<32x{t}>", [
            "%l = warp.lane_id : i32", "%i = arith.index_cast %l : i32 to index",
            "%c7 = arith.constant 7 : index",
            "%bin = arith.remui %i, %c7 : index",
            f"%o = warp.atomic_rmw <add> %v, %h[%bin] : {t}, memref<32x{t}{space}>",
            f"%p = warp.lane_atomic_rmw <add> %o, %h[%i] : {t}, memref<32x{t}{space}>",
            f"memref.store %p, %out[%i] : memref<32x{t}>"])
    # The 16-bit atomics with a scope and an ordering (sm_90).
    yield kernel("atomic16", "%h: memref<32xvector<2xf16>>, %g: memref<32xbf16>, "
                 "%v: vector<2xf16>, %b: bf16", [
        "%l = warp.lane_id : i32", "%i = arith.index_cast %l : i32 to index",
        "%o = warp.atomic_rmw <add> %v, %h[%i] scope <gpu> ordering <release> "
        ": vector<2xf16>, memref<32xvector<2xf16>>",
        "%p = warp.lane_atomic_rmw <add> %b, %g[%i] scope <cta> : bf16, memref<32xbf16>",
        "memref.store %o, %h[%i] : memref<32xvector<2xf16>>",
        "memref.store %p, %g[%i] : memref<32xbf16>"])
    # The 16-bit compare-and-swap loops: exch on i16, the float min/max,
    # one with a scope and an ordering.
    yield kernel("atomic16_cas", "%h: memref<32xi16, 3>, %g: memref<32xf16>, "
                 "%w: i16, %b: f16", [
        "%l = warp.lane_id : i32", "%i = arith.index_cast %l : i32 to index",
        "%o = warp.atomic_rmw <exch> %w, %h[%i] scope <cta> ordering <acq_rel> "
        ": i16, memref<32xi16, 3>",
        "%p = warp.atomic_rmw <minnumf> %b, %g[%i] : f16, memref<32xf16>",
        "%q = warp.lane_atomic_rmw <maxnumf> %p, %g[%c0] : f16, memref<32xf16>",
        "memref.store %o, %h[%i] : memref<32xi16, 3>",
        "memref.store %q, %g[%i] : memref<32xf16>"])
    # The 32- and 64-bit float min/max loops (atom.cas.b32, .b64).
    yield kernel("atomic_cas_minmax", "%f: memref<32xf32>, %d: memref<32xf64, 3>, "
                 "%x: f32, %y: f64", [
        "%l = warp.lane_id : i32", "%i = arith.index_cast %l : i32 to index",
        "%p = warp.atomic_rmw <maxnumf> %x, %f[%i] : f32, memref<32xf32>",
        "%q = warp.atomic_rmw <minnumf> %y, %d[%c0] scope <cta> ordering <release> "
        ": f64, memref<32xf64, 3>",
        "%r = warp.lane_atomic_rmw <minnumf> %p, %f[%c0] ordering <acquire> "
        ": f32, memref<32xf32>",
        "memref.store %q, %d[%i] : memref<32xf64, 3>",
        "memref.store %r, %f[%i] : memref<32xf32>"])
    # The device-wide ops are host code: a func.func outside any gpu.module
    # (warp-expand-device-ops adds the gpu.modules of their kernels). Every
    # element type, static and dynamic shapes, alike ops sharing a module,
    # an exclusive and an in-place scan, scans by key, a selection, a
    # run-length encoding and non-trivial runs.
    yield ("func.func @device_ops(%x: memref<?xf32>, %s: memref<1xf32>, "
           "%i: memref<300xi64>, %j: memref<?xi64>, %k: memref<?xi32>, "
           "%d: memref<5000xf64>, %e: memref<1xf64>, %f: memref<?xi8>, "
           "%g: memref<?xf64>, %c: memref<1xi64>) {\n"
           "  warp.device_reduce <add> %x, %s : memref<?xf32>, memref<1xf32>\n"
           "  warp.device_reduce <maxnumf> %x, %s : memref<?xf32>, memref<1xf32>\n"
           "  warp.device_reduce <mul> %d, %e : memref<5000xf64>, memref<1xf64>\n"
           "  warp.device_reduce <xor> %k, %k : memref<?xi32>, memref<?xi32>\n"
           "  warp.device_scan <add> %x, %x : memref<?xf32>, memref<?xf32>\n"
           "  warp.device_scan <minui> %i, %j exclusive : memref<300xi64>, memref<?xi64>\n"
           "  warp.device_scan <minui> %j, %j exclusive : memref<?xi64>, memref<?xi64>\n"
           "  warp.device_scan <minimumf> %d, %d : memref<5000xf64>, memref<5000xf64>\n"
           "  warp.device_scan <maxsi> %k, %k exclusive : memref<?xi32>, memref<?xi32>\n"
           "  warp.device_scan <add> %x, %x keys %f : memref<?xf32>, memref<?xf32>, "
           "memref<?xi8>\n"
           "  warp.device_scan <minui> %i, %j keys %g exclusive : memref<300xi64>, "
           "memref<?xi64>, memref<?xf64>\n"
           "  warp.device_select %d, %f, %g, %c : memref<5000xf64>, memref<?xi8>, "
           "memref<?xf64>, memref<1xi64>\n"
           "  warp.device_partition %d, %f, %g, %c : memref<5000xf64>, memref<?xi8>, "
           "memref<?xf64>, memref<1xi64>\n"
           "  warp.device_histogram %f, %c : memref<?xi8>, memref<1xi64>\n"
           "  warp.device_histogram %k, %j : memref<?xi32>, memref<?xi64>\n"
           "  warp.device_unique %d, %g, %c : memref<5000xf64>, memref<?xf64>, memref<1xi64>\n"
           "  warp.device_run_length_encode %d, %g, %j, %c : memref<5000xf64>, memref<?xf64>, "
           "memref<?xi64>, memref<1xi64>\n"
           "  warp.device_non_trivial_runs %f, %k, %j, %c : memref<?xi8>, memref<?xi32>, "
           "memref<?xi64>, memref<1xi64>\n"
           "  warp.device_scan <add> %x, %x cluster_blocks = 4 : memref<?xf32>, memref<?xf32>\n"
           "  warp.device_reduce <maxsi> %k, %k cluster_blocks = 2 : memref<?xi32>, memref<?xi32>\n"
           "  return\n}\n")
    # Histograms with levels: even on floats (f32, f16) and integers, a
    # range of levels (static and dynamic bins).
    yield ("func.func @device_histogram_levels(%x: memref<?xf32>, %b: memref<10xi32>, "
           "%lo: f32, %hi: f32, %k: memref<?xi32>, %c: memref<?xi64>, %l: memref<?xi32>, "
           "%h: memref<?xf16>, %m: memref<5000xi32>, %hl: f16, %hh: f16, %z: memref<?xi8>, "
           "%zl: i8, %zh: i8, %fl: memref<11xf32>) {\n"
           "  warp.device_histogram %x, %b even(%lo, %hi : f32) : memref<?xf32>, memref<10xi32>\n"
           "  warp.device_histogram %x, %b range %fl : memref<?xf32>, memref<10xi32>, "
           "memref<11xf32>\n"
           "  warp.device_histogram %k, %c range %l : memref<?xi32>, memref<?xi64>, "
           "memref<?xi32>\n"
           "  warp.device_histogram %h, %m even(%hl, %hh : f16) : memref<?xf16>, "
           "memref<5000xi32>\n"
           "  warp.device_histogram %z, %b even(%zl, %zh : i8) : memref<?xi8>, memref<10xi32>\n"
           "  return\n}\n")
    # Multi-channel histograms: bin numbers (RGBA's RGB), even levels per
    # channel, a range of levels per channel with dynamic bins.
    yield ("func.func @device_histogram_channels(%x: memref<?xi8>, %b: memref<3x256xi32>, "
           "%f: memref<?xf32>, %c: memref<2x10xi64>, %l0: f32, %u0: f32, %l1: f32, %u1: f32, "
           "%k: memref<?xi32>, %d: memref<2x?xi32>, %r: memref<2x?xi32>, "
           "%uo: memref<?xi64>) {\n"
           "  warp.device_histogram %x, %b channels 4 : memref<?xi8>, memref<3x256xi32>\n"
           "  warp.device_histogram %f, %c channels 2 even(%l0, %u0, %l1, %u1 : f32) "
           ": memref<?xf32>, memref<2x10xi64>\n"
           "  warp.device_histogram %k, %d channels 3 range %r : memref<?xi32>, "
           "memref<2x?xi32>, memref<2x?xi32>\n"
           "  warp.device_histogram %k, %uo unsigned range %k : memref<?xi32>, memref<?xi64>, "
           "memref<?xi32>\n"
           "  return\n}\n")
    # Segmented reductions: i32 and i64 offsets (mixed, static and
    # dynamic), with and without init, a float, an 8-bit and a 16-bit
    # float element type, one begin array serving as both offsets.
    yield ("func.func @device_segmented_reduce(%x: memref<?xf32>, %s: memref<?xf32>, "
           "%b: memref<?xi32>, %e: memref<?xi64>, %k: memref<300xi8>, %t: memref<8xi8>, "
           "%h: memref<?xf16>, %u: memref<16xf16>, %i: f32, %j: i8) {\n"
           "  warp.device_segmented_reduce <add> %x, %s, %b, %e : memref<?xf32>, memref<?xf32>, "
           "memref<?xi32>, memref<?xi64>\n"
           "  warp.device_segmented_reduce <maximumf> %x, %s, %b, %b init %i : memref<?xf32>, "
           "memref<?xf32>, memref<?xi32>, memref<?xi32>, f32\n"
           "  warp.device_segmented_reduce <minui> %k, %t, %e, %b init %j : memref<300xi8>, "
           "memref<8xi8>, memref<?xi64>, memref<?xi32>, i8\n"
           "  warp.device_segmented_reduce <mul> %h, %u, %e, %e : memref<?xf16>, memref<16xf16>, "
           "memref<?xi64>, memref<?xi64>\n"
           "  return\n}\n")
    # The selections by a predicate region: a comparison, integer
    # arithmetic and a nested scf.if in the region, copied per item.
    yield ("func.func @device_select_if(%x: memref<?xf32>, %y: memref<?xf32>, "
           "%k: memref<?xi16>, %l: memref<300xi16>, %c: memref<1xi64>) {\n"
           "  warp.device_select_if %x, %y, %c : memref<?xf32>, memref<?xf32>, memref<1xi64> "
           "pred(%v: f32) {\n"
           "    %t = arith.constant 5.000000e-01 : f32\n"
           "    %keep = arith.cmpf ogt, %v, %t : f32\n"
           "    warp.yield %keep : i1\n"
           "  }\n"
           "  warp.device_partition_if %k, %l, %c : memref<?xi16>, memref<300xi16>, "
           "memref<1xi64> pred(%v: i16) {\n"
           "    %three = arith.constant 3 : i16\n"
           "    %zero = arith.constant 0 : i16\n"
           "    %r = arith.remui %v, %three : i16\n"
           "    %odd = arith.cmpi ne, %r, %zero : i16\n"
           "    %keep = scf.if %odd -> (i1) {\n"
           "      %neg = arith.cmpi slt, %v, %zero : i16\n"
           "      scf.yield %neg : i1\n"
           "    } else {\n"
           "      %true = arith.constant true\n"
           "      scf.yield %true : i1\n"
           "    }\n"
           "    warp.yield %keep : i1\n"
           "  }\n"
           "  return\n}\n")
    # Device reductions with a combine region: an argmax over (f32, i32)
    # with ties to the left, and a single i8 with static shapes.
    yield ("func.func @device_reduce_combine(%x: memref<?xf32>, %i: memref<?xi32>, "
           "%m: memref<1xf32>, %mi: memref<?xi32>, %b: memref<300xi8>, %c: memref<1xi8>, "
           "%v0: f32, %i0: i32, %b0: i8) {\n"
           "  warp.device_reduce_combine %x, %i init(%v0, %i0 : f32, i32) into %m, %mi "
           ": memref<?xf32>, memref<?xi32> -> memref<1xf32>, memref<?xi32> "
           "combine (%a: f32, %ai: i32, %r: f32, %ri: i32) {\n"
           "    %gt = arith.cmpf ogt, %r, %a : f32\n"
           "    %v = arith.select %gt, %r, %a : f32\n"
           "    %j = arith.select %gt, %ri, %ai : i32\n"
           "    warp.yield %v, %j : f32, i32\n"
           "  }\n"
           "  warp.device_reduce_combine %b init(%b0 : i8) into %c : memref<300xi8> -> "
           "memref<1xi8> combine (%l: i8, %r: i8) {\n"
           "    %s = arith.muli %l, %r : i8\n"
           "    warp.yield %s : i8\n"
           "  }\n"
           "  return\n}\n")
    # A segmented reduction with a combine region: an argmin over (f32,
    # i32) with ties to the left, i32 and i64 offsets, and a single i8
    # with static shapes and one array of S + 1 offsets as two views.
    yield ("func.func @device_segmented_reduce_combine(%x: memref<?xf32>, %i: memref<?xi32>, "
           "%m: memref<?xf32>, %mi: memref<?xi32>, %b: memref<?xi32>, %e: memref<?xi64>, "
           "%c: memref<300xi8>, %d: memref<4xi8>, %o: memref<4xi32>, %v0: f32, %i0: i32, "
           "%c0: i8) {\n"
           "  warp.device_segmented_reduce_combine %x, %i init(%v0, %i0 : f32, i32) into %m, %mi "
           "segments(%b, %e : memref<?xi32>, memref<?xi64>) "
           ": memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32> "
           "combine (%a: f32, %ai: i32, %r: f32, %ri: i32) {\n"
           "    %lt = arith.cmpf olt, %r, %a : f32\n"
           "    %v = arith.select %lt, %r, %a : f32\n"
           "    %j = arith.select %lt, %ri, %ai : i32\n"
           "    warp.yield %v, %j : f32, i32\n"
           "  }\n"
           "  warp.device_segmented_reduce_combine %c init(%c0 : i8) into %d "
           "segments(%o, %o : memref<4xi32>, memref<4xi32>) : memref<300xi8> -> "
           "memref<4xi8> combine (%l: i8, %r: i8) {\n"
           "    %s = arith.subi %l, %r : i8\n"
           "    warp.yield %s : i8\n"
           "  }\n"
           "  return\n}\n")
    # Device scans with a combine region: an inclusive running argmax over
    # (f32, i32) with ties to the left, and an exclusive composition of
    # affine maps in place with init (static shapes).
    yield ("func.func @device_scan_combine(%x: memref<?xf32>, %i: memref<?xi32>, "
           "%m: memref<?xf32>, %mi: memref<?xi32>, %a: memref<300xi32>, %b: memref<300xi32>, "
           "%a0: i32, %b0: i32) {\n"
           "  warp.device_scan_combine %x, %i into %m, %mi "
           ": memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32> "
           "combine (%l: f32, %li: i32, %r: f32, %ri: i32) {\n"
           "    %gt = arith.cmpf ogt, %r, %l : f32\n"
           "    %v = arith.select %gt, %r, %l : f32\n"
           "    %j = arith.select %gt, %ri, %li : i32\n"
           "    warp.yield %v, %j : f32, i32\n"
           "  }\n"
           "  warp.device_scan_combine %a, %b init(%a0, %b0 : i32, i32) into %a, %b exclusive "
           ": memref<300xi32>, memref<300xi32> -> memref<300xi32>, memref<300xi32> "
           "combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {\n"
           "    %a3 = arith.muli %a2, %a1 : i32\n"
           "    %t = arith.muli %a2, %b1 : i32\n"
           "    %b3 = arith.addi %t, %b2 : i32\n"
           "    warp.yield %a3, %b3 : i32, i32\n"
           "  }\n"
           "  return\n}\n")
    # Device scans by key with a combine region: a running max with an
    # equal region (keys of one tens digit), and an exclusive affine
    # composition with init and the keys' ==.
    yield ("func.func @device_scan_combine_by_key(%x: memref<?xi32>, %m: memref<?xi32>, "
           "%k: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>, %f: memref<?xf32>, "
           "%g: memref<?xf32>, %h: memref<?xi8>, %a0: f32, %b0: f32) {\n"
           "  warp.device_scan_combine %x into %m keys %k "
           ": memref<?xi32> -> memref<?xi32> keys memref<?xi32> "
           "combine (%l: i32, %r: i32) {\n"
           "    %v = arith.maxsi %l, %r : i32\n"
           "    warp.yield %v : i32\n"
           "  } equal(%p: i32, %q: i32) {\n"
           "    %ten = arith.constant 10 : i32\n"
           "    %pt = arith.divsi %p, %ten : i32\n"
           "    %qt = arith.divsi %q, %ten : i32\n"
           "    %same = arith.cmpi eq, %pt, %qt : i32\n"
           "    warp.yield %same : i1\n"
           "  }\n"
           "  warp.device_scan_combine %a, %b init(%a0, %b0 : f32, f32) into %f, %g keys %h "
           "exclusive : memref<?xf32>, memref<?xf32> -> memref<?xf32>, memref<?xf32> "
           "keys memref<?xi8> "
           "combine (%a1: f32, %b1: f32, %a2: f32, %b2: f32) {\n"
           "    %a3 = arith.mulf %a2, %a1 : f32\n"
           "    %t = arith.mulf %a2, %b1 : f32\n"
           "    %b3 = arith.addf %t, %b2 : f32\n"
           "    warp.yield %a3, %b3 : f32, f32\n"
           "  }\n"
           "  return\n}\n")
    # Device histograms with levels of another type than the samples: u8
    # samples with i32 even levels, i32 samples with f64 range levels,
    # unsigned levels.
    yield ("func.func @device_histogram_level_types(%x: memref<?xi8>, %b: memref<10xi32>, "
           "%lo: i32, %hi: i32, %k: memref<?xi32>, %c: memref<?xi64>, %l: memref<?xf64>, "
           "%u: memref<?xi64>, %ul: memref<11xi16>) {\n"
           "  warp.device_histogram %x, %b unsigned even(%lo, %hi : i32) "
           ": memref<?xi8>, memref<10xi32>\n"
           "  warp.device_histogram %k, %c range %l : memref<?xi32>, memref<?xi64>, "
           "memref<?xf64>\n"
           "  warp.device_histogram %k, %b unsigned_levels range %ul : memref<?xi32>, "
           "memref<10xi32>, memref<11xi16>\n"
           "  return\n}\n")
    # Device radix sorts: keys only and pairs, floats, signed and unsigned
    # integers, descending, a bit range of one and of two passes, static
    # and dynamic shapes; double-buffered, keys only and pairs.
    yield ("func.func @device_radix_sort(%x: memref<?xf32>, %y: memref<?xf32>, "
           "%i: memref<300xi64>, %j: memref<?xi64>, %k: memref<?xi16>, %l: memref<?xi16>, "
           "%b: memref<?xi8>, %c: memref<?xi8>) -> (i32, i32) {\n"
           "  warp.device_radix_sort %x, %y : memref<?xf32>, memref<?xf32>\n"
           "  warp.device_radix_sort %i, %j descending signed : memref<300xi64>, memref<?xi64>\n"
           "  warp.device_radix_sort %k, %l values %x, %y bits 3 to 14 : memref<?xi16>, "
           "memref<?xi16>, memref<?xf32>, memref<?xf32>\n"
           "  warp.device_radix_sort %b, %c values %i, %j signed bits 0 to 5 : memref<?xi8>, "
           "memref<?xi8>, memref<300xi64>, memref<?xi64>\n"
           "  %p = warp.device_radix_sort %x, %y double_buffer : memref<?xf32>, memref<?xf32> "
           "-> i32\n"
           "  %q = warp.device_radix_sort %k, %l values %b, %c descending double_buffer "
           ": memref<?xi16>, memref<?xi16>, memref<?xi8>, memref<?xi8> -> i32\n"
           "  return %p, %q : i32, i32\n}\n")
    # Device segmented radix sorts: keys only and pairs, i32 and i64
    # offsets (one array as both views, and two), descending, signed, a
    # bit range of two passes, static and dynamic shapes.
    yield ("func.func @device_segmented_radix_sort(%x: memref<?xf32>, %y: memref<?xf32>, "
           "%i: memref<300xi64>, %j: memref<?xi64>, %k: memref<?xi16>, %l: memref<?xi16>, "
           "%b: memref<?xi32>, %e: memref<?xi64>) {\n"
           "  warp.device_segmented_radix_sort %x, %y, %b, %b : memref<?xf32>, memref<?xf32>, "
           "memref<?xi32>, memref<?xi32>\n"
           "  warp.device_segmented_radix_sort %i, %j, %b, %e descending signed : "
           "memref<300xi64>, memref<?xi64>, memref<?xi32>, memref<?xi64>\n"
           "  warp.device_segmented_radix_sort %k, %l, %e, %e values %x, %y bits 3 to 14 : "
           "memref<?xi16>, memref<?xi16>, memref<?xi64>, memref<?xi64>, memref<?xf32>, "
           "memref<?xf32>\n"
           "  %p = warp.device_segmented_radix_sort %x, %y, %b, %b double_buffer : "
           "memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi32> -> i32\n"
           "  %q = warp.device_segmented_radix_sort %k, %l, %e, %e values %x, %y descending "
           "double_buffer : memref<?xi16>, memref<?xi16>, memref<?xi64>, memref<?xi64>, "
           "memref<?xf32>, memref<?xf32> -> i32\n"
           "  return\n}\n")
    # The thread-block cluster collectives, in a cluster of 4 blocks.
    yield ("module attributes {gpu.container_module} {\n"
           "  gpu.module @fuzz [#nvvm.target<chip = \"sm_90\">] {\n"
           "    gpu.func @cluster(%x: memref<?xf32>, %y: memref<?xi16>) kernel attributes "
           "{known_block_size = array<i32: 64, 1, 1>, known_cluster_size = array<i32: 4, 1, 1>} {\n"
           "      %c0 = arith.constant 0 : index\n"
           "      %c1 = arith.constant 1 : i32\n"
           "      %v = memref.load %x[%c0] : memref<?xf32>\n"
           "      %w = memref.load %y[%c0] : memref<?xi16>\n"
           "      %r = warp.cluster_reduce <maxnumf> %v : f32\n"
           "      %s, %t = warp.cluster_scan <add> %w exclusive : i16\n"
           "      %b = warp.cluster_broadcast %r, %c1, %c1 : f32\n"
           "      memref.store %b, %x[%c0] : memref<?xf32>\n"
           "      memref.store %s, %y[%c0] : memref<?xi16>\n"
           "      gpu.return\n    }\n  }\n}\n")


def td_ops():
    """Every op mnemonic that include/WarpDialect/IR/*.td defines."""
    td = os.path.join(ROOT, "include", "WarpDialect", "IR")
    ops = set()
    for name in os.listdir(td):
        if name.endswith(".td"):
            with open(os.path.join(td, name), encoding="utf-8") as f:
                ops |= set(re.findall(r'Warp_\w*Op<"(\w+)"', f.read()))
    return ops


def main():
    out = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    os.makedirs(out, exist_ok=True)
    # The reproducers of earlier crash classes (test/Robustness) go in
    # always: a class brought back is then found as the run starts.
    robustness = os.path.join(ROOT, "test", "Robustness") + os.sep
    seeds, regressions = [], []
    for path in sources():
        for body in snippets(path):
            seeds.append(body)
            if path.startswith(robustness):
                regressions.append(body)
            w = wrapped(body)
            if w:
                seeds.append(w)
    matrix = [m for m in list(family_seeds()) + list(matrix_seeds())
              if len(m.encode()) < 4095]
    unique = list(dict.fromkeys(seeds))
    # Short seeds first: libFuzzer mutates small inputs faster, and -max_len
    # caps every input at 4096 bytes anyway.
    unique = [s for s in unique if len(s.encode()) < 4095]
    unique.sort(key=len)
    regressions = [u for u in dict.fromkeys(regressions) if len(u.encode()) < 4095]
    taken = set(regressions)
    rest = [u for u in unique if u not in taken]
    unique = (regressions + rest[:max(0, limit - len(matrix) - len(regressions))]
              + matrix[:limit])
    seeds += matrix
    for name in os.listdir(out):
        if name.startswith("seed-"):
            os.remove(os.path.join(out, name))
    for i, body in enumerate(unique):
        data = SELECTORS[i % len(SELECTORS)].encode() + body.encode()
        digest = hashlib.sha1(data).hexdigest()[:16]
        with open(os.path.join(out, "seed-" + digest), "wb") as f:
            f.write(data)
    # Every op of the dialect must have a seed: the mutations change ops,
    # they do not invent them.
    missing = sorted(op for op in td_ops()
                     if not any(re.search(r"warp\.%s\b" % op, u) for u in unique))
    if missing:
        sys.exit("make_corpus.py: no seed has warp." + ", warp.".join(missing))
    print("corpus: %d seeds in %s (from %d snippets: duplicates, too long or over the limit dropped: %d)"
          % (len(unique), out, len(seeds), len(seeds) - len(unique)))


if __name__ == "__main__":
    main()
