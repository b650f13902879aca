#!/usr/bin/env python3
"""CUB's block primitives against the same primitives spelled with warp ops,
side by side in one run on the GPU host (issue 31).

    python3 block_bench.py --build DIR --warp-opt PATH   # bundle time: DIR/*.ptx
    python3 block_bench.py --ptx-dir DIR [--json out.json] [--only GROUPS] [--dry-run]

--build writes the warp kernels (MLIR text, one gpu.module per kernel, so
that each kernel's PTX holds only its own shared memory: the warp
lowering sizes a module's warp exchange buffer for its largest op; the
block ops' buffers are each kernel's own) and lowers
them with `warp-opt --warp-lower-to-ptx="chip=sm_90 format=isa
ptx-output=DIR/"` (one DIR/<kernel>.ptx each). A kernel that does not
lower (an op this build does not have, e.g. warp.block_radix_sort before
it lands; a configuration over the 48 KiB of static shared memory) is
listed with the first line of its error in DIR/skipped.json and reported
as skipped. --emit FILE writes the MLIR only.

The run: DIR holds the PTX and block_baselines.cu (CUB; compiled here with
nvcc -O3 -arch=sm_90 -cubin; without one in DIR, the one next to this
script). The warp PTX is assembled here by ptxas -arch=sm_90 in parallel
(the driver's JIT, which takes the PTX where ptxas is missing, would
compile the radix sorts one by one, about a second each). Each group runs in its own process (a crash, a hang or a sticky
CUDA error loses that group only, and it runs again without the
implementation that caused it). In it every kernel, warp's and CUB's, is
first checked against a reference that cupy computes from the definition,
then all of the group's kernels are timed together (gpu_timing.py: --warmup
launches of each, then 6 rounds in which each runs once untimed and
--iters / 6 times timed, the order rotating round by round; each launch
between CUDA events on the default stream, held by a short kernel while it
is enqueued); a time is the median. Every input is far larger than the
H200's 50 MB L2, so no flush is needed.

Groups (--only takes these, comma-separated; `histogram`, `sort`,
`merge_sort` and `block_merge_sort` name both of theirs). T x N: 128/256/512 threads x 4/8/16 items per thread,
one tile of T*N items per block:

  copy            cudaMemcpyAsync and cupy's copy of 2^28 f32: the ceiling
                  (the % copy column is of the faster).
  load_store      load_store_TxN_ALG: copy kernel, 2^28 f32, warp.block_load
                  + warp.block_store with algorithm ALG = direct, vectorize,
                  transpose, warp_transpose, or striped (the striped
                  arrangement, direct) vs CUB BlockLoad + BlockStore with
                  BLOCK_{LOAD,STORE}_{DIRECT,VECTORIZE,TRANSPOSE,WARP_TRANSPOSE}
                  (striped: LoadDirectStriped + StoreDirectStriped).
  block_reduce    block_reduce_{i32,f32}_TxN: 2^28 items, vectorize loads,
                  warp.block_reduce <add> items threads = <first> vs
                  BlockReduce::Sum(items); thread 0 writes the block's sum.
                  block_reduce_{i32,f32}_Tx4_ALG: the same with algorithm
                  = <ALG> vs BlockReduce<V, T, BLOCK_REDUCE_ALG>, ALG =
                  raking, raking_commutative_only.
  block_scan      block_scan_{i32,f32}_TxN: vectorize load,
                  warp.block_scan <add> items vs BlockScan::InclusiveSum(items,
                  items), vectorize store back.
  histogram       histogram_{uniform,skewed}_256xN_{atomic,warp_aggregated}
                  (N = 8, 16): 2^28 8-bit samples (uniform, or 90% one
                  value), vectorize load, warp.block_histogram into 256
                  shared bins, each thread adds one bin to the global
                  histogram with an atomic (empty bins skipped) vs CUB
                  BlockHistogram BLOCK_HISTO_ATOMIC and BLOCK_HISTO_SORT:
                  cub/warp is against the faster of the two, both are printed.
                  *_i32load: the warp kernel loads the samples as i32 words
                  (vector.bitcast to i8), where warp.block_load's vector of
                  i8 becomes byte loads in the PTX (CUB: 4-byte loads).
  sort            sort_keys_TxN, sort_pairs_TxN: 2^26 (--sort-log2n) u32 keys
                  (and u32 values), vectorize load, warp.block_radix_sort
                  striped + striped store vs BlockRadixSort::
                  SortBlockedToStriped + StoreDirectStriped (CUB's
                  example_block_radix_sort); *_blocked: blocked sort and a
                  vectorize store on both sides (Sort). Both sides load with
                  vectorize: the warp ops' shared buffers are not unions, so
                  a warp_transpose load would add its buffer to the sort's.
  merge_sort      merge_sort_keys_256xN, merge_sort_pairs_256xN (N = 4, 8,
                  16): 2^26 (--sort-log2n) u32 keys (and u32 values), each
                  warp's 32*N items sorted on their own (a warp tile),
                  vectorize load, warp.merge_sort with an unsigned `<`
                  region, vectorize store vs WarpMergeSort<unsigned, N, 32>
                  ::Sort (one TempStorage per warp) between the same
                  BlockLoad/BlockStore.
  block_merge_sort
                  block_merge_sort_keys_TxN, block_merge_sort_pairs_TxN
                  (T = 128, 256; N = 4, 8): 2^26 (--sort-log2n) u32 keys
                  (and u32 values), each block's tile of T*N items sorted,
                  vectorize load, warp.block_merge_sort with an unsigned
                  `<` region, vectorize store vs BlockMergeSort<unsigned,
                  T, N(, unsigned)>::Sort between the same
                  BlockLoad/BlockStore.
  radix_rank      radix_rank_Tx4_rR (T = 128, 256; R = 4, 8): 2^26
                  (--sort-log2n) u32 keys, vectorize loads, each key's rank
                  in its tile by bits [0, R) with warp.block_radix_rank, the
                  ranks stored (vectorize) vs BlockRadixRank::RankKeys with a
                  BFEDigitExtractor (R = 8: BlockRadixRankMatch, the basic
                  ranking's grid being over 48 KiB of static shared memory;
                  both sides load, rank and store warp-striped there).
  subwarp_reduce  subwarp_reduce_{f32,i32}_cC (C = 4, 8, 16): 2^28 items, one
                  per thread, warp.reduce <add> cluster_size = C
                  lanes = <first> vs WarpReduce<T, C>::Sum; the cluster's first
                  lane writes its sum.

Reduce and scan data are small integers (f32 ones too), so every sum is
exact in any order and results must match the reference bit for bit.

Printed per row: warp time, CUB time, cub/warp (> 1: warp is faster),
warp GB/s and % of the copy; at the end each group's rows at >= 1.00x and
the geometric mean. --json writes all of it. Expected to take about 2
minutes on the H200 (an estimate before the first run; most of it compiling,
starting processes and checking; --only, --iters and --sort-log2n shorten it).

GPU host, from an unpacked bundle (run.sh runs this in its bench stage):
    python3 block_bench.py --ptx-dir block --json block_bench.json

--dry-run checks the plan without a GPU: every warp kernel's PTX present
with its .entry (or listed in skipped.json), block_baselines.cu present
and, where nvcc is found, compiled with every CUB kernel in it.
"""
import argparse
import collections
import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gpu_timing import time_together  # noqa: E402 - same directory, here and in the bundle

N_LOG2 = 28
SORT_LOG2 = 26
CONFIGS = [(t, n) for t in (128, 256, 512) for n in (4, 8, 16)]
# BlockReduce's other algorithms (block_reduce_{ty}_Tx4_{alg}), each against
# CUB's of the same name, at 4 items a thread.
REDUCE_ALGORITHMS = ("raking", "raking_commutative_only")
REDUCE_ALGORITHM_CONFIGS = [(t, 4) for t in (128, 256, 512)]
LOAD_STORE_ALGS = ("direct", "vectorize", "transpose", "warp_transpose", "striped")
TYPES = ("i32", "f32")
HISTOGRAM_THREADS = 256
HISTOGRAM_ITEMS = (8, 16)
HISTOGRAM_WARP = ("atomic", "warp_aggregated")
HISTOGRAM_CUB = ("atomic", "sort")
# The warp kernels' sample loads: warp.block_load of vector<N x i8>
# (vectorize), and *_i32load: of vector<N/4 x i32>, vector.bitcast to
# vector<N x i8> (16- or 8-byte loads where the i8 load's PTX has N byte
# loads; the row isolates the histogram from that).
HISTOGRAM_LOADS = ("", "_i32load")
HISTOGRAM_SKEW = 0.9  # fraction of the skewed samples that are SKEW_VALUE
SKEW_VALUE = 7
CLUSTERS = (4, 8, 16)
SUBWARP_THREADS = 256
SORT_VARIANTS = ("", "_blocked")
MERGE_SORT_THREADS = 256
MERGE_SORT_ITEMS = (4, 8, 16)
BLOCK_MERGE_SORT_CONFIGS = [(t, n) for t in (128, 256) for n in (4, 8)]
RADIX_RANK_CONFIGS = [(t, r) for t in (128, 256) for r in (4, 8)]
RADIX_RANK_ITEMS = 4

CASES = ("copy", "load_store", "block_reduce", "block_scan", "histogram_uniform", "histogram_skewed",
         "sort_keys", "sort_pairs", "merge_sort_keys", "merge_sort_pairs", "block_merge_sort_keys",
         "block_merge_sort_pairs", "radix_rank", "subwarp_reduce")
ALIASES = {"histogram": ("histogram_uniform", "histogram_skewed"), "sort": ("sort_keys", "sort_pairs"),
           "merge_sort": ("merge_sort_keys", "merge_sort_pairs"),
           "block_merge_sort": ("block_merge_sort_keys", "block_merge_sort_pairs")}

# A row: the benchmark `name` of group `case`, its warp kernel, its CUB
# kernels ((label, kernel), ...; cub/warp is against the fastest) and the
# bytes it moves (for GB/s).
Row = collections.namedtuple("Row", "case name warp cubs nbytes")


def rows(n, sort_n):
    out = []
    for t, k in CONFIGS:
        for alg in LOAD_STORE_ALGS:
            name = f"load_store_{t}x{k}_{alg}"
            out.append(Row("load_store", name, "warp_" + name, (("cub", "cub_" + name),), 8 * n))
    for kind, per in (("reduce", 4), ("scan", 8)):
        for ty in TYPES:
            for t, k in CONFIGS:
                name = f"block_{kind}_{ty}_{t}x{k}"
                out.append(Row("block_" + kind, name, "warp_" + name, (("cub", "cub_" + name),), per * n))
    for ty in TYPES:
        for t, k in REDUCE_ALGORITHM_CONFIGS:
            for alg in REDUCE_ALGORITHMS:
                name = f"block_reduce_{ty}_{t}x{k}_{alg}"
                out.append(Row("block_reduce", name, "warp_" + name, (("cub", "cub_" + name),), 4 * n))
    for dist in ("uniform", "skewed"):
        for k in HISTOGRAM_ITEMS:
            base = f"histogram_{HISTOGRAM_THREADS}x{k}"
            cubs = tuple((f"cub_{a}", f"cub_{base}_{a}") for a in HISTOGRAM_CUB)
            for alg in HISTOGRAM_WARP:
                for load in HISTOGRAM_LOADS:
                    out.append(Row("histogram_" + dist, f"histogram_{dist}_{HISTOGRAM_THREADS}x{k}_{alg}{load}",
                                   f"warp_{base}_{alg}{load}", cubs, n))
    for what, per in (("keys", 8), ("pairs", 16)):
        for t, k in CONFIGS:
            for variant in SORT_VARIANTS:
                name = f"sort_{what}_{t}x{k}{variant}"
                out.append(Row("sort_" + what, name, "warp_" + name, (("cub", "cub_" + name),), per * sort_n))
    for what, per in (("keys", 8), ("pairs", 16)):
        for k in MERGE_SORT_ITEMS:
            name = f"merge_sort_{what}_{MERGE_SORT_THREADS}x{k}"
            out.append(Row("merge_sort_" + what, name, "warp_" + name, (("cub", "cub_" + name),),
                           per * sort_n))
    for what, per in (("keys", 8), ("pairs", 16)):
        for t, k in BLOCK_MERGE_SORT_CONFIGS:
            name = f"block_merge_sort_{what}_{t}x{k}"
            out.append(Row("block_merge_sort_" + what, name, "warp_" + name, (("cub", "cub_" + name),),
                           per * sort_n))
    for t, r in RADIX_RANK_CONFIGS:
        name = f"radix_rank_{t}x{RADIX_RANK_ITEMS}_r{r}"
        out.append(Row("radix_rank", name, "warp_" + name, (("cub", "cub_" + name),), 8 * sort_n))
    for ty in TYPES[::-1]:
        for c in CLUSTERS:
            name = f"subwarp_reduce_{ty}_c{c}"
            out.append(Row("subwarp_reduce", name, "warp_" + name, (("cub", "cub_" + name),), 4 * n + 4 * n // c))
    return out


# --------------------------------------------------------------------------
# The warp kernels (MLIR text; ABI: a memref<?xT> is the expanded descriptor
# (allocated ptr, aligned ptr, offset, size, stride), as device_bench.py's).
# --------------------------------------------------------------------------

ELEMENT = {"i32": "i32", "f32": "f32"}


def kernel(name, threads, args, body, globals_=()):
    """A gpu.module @name holding the one kernel @name of a known 1-D
    block of `threads`."""
    lines = [f"gpu.module @{name} {{"] + [f"  {g}" for g in globals_]
    lines.append(f"  gpu.func @{name}({args}) kernel attributes "
                 f"{{known_block_size = array<i32: {threads}, 1, 1>}} {{")
    lines += [f"    {line}" for line in body] + ["    gpu.return", "  }", "}"]
    return "\n".join(lines) + "\n"


def tile_offset(tile):
    return ["%bid = gpu.block_id x", f"%tile = arith.constant {tile} : index",
            "%off = arith.muli %bid, %tile : index"]


def load_store_kernel(t, k, alg):
    vt, mt = f"vector<{k}xf32>", "memref<?xf32>"
    how = "striped" if alg == "striped" else f"algorithm = <{alg}>"
    return kernel(f"warp_load_store_{t}x{k}_{alg}", t, f"%in: {mt}, %out: {mt}", tile_offset(t * k) + [
        f"%v = warp.block_load %in[%off] {how} : {mt}, {vt}",
        f"warp.block_store %v, %out[%off] {how} : {vt}, {mt}"])


def block_reduce_kernel(ty, t, k, alg=None):
    e = ELEMENT[ty]
    vt, mt = f"vector<{k}x{e}>", f"memref<?x{e}>"
    how = f" algorithm = <{alg}>" if alg else ""
    name = f"warp_block_reduce_{ty}_{t}x{k}" + (f"_{alg}" if alg else "")
    return kernel(name, t, f"%in: {mt}, %out: {mt}", tile_offset(t * k) + [
        f"%v = warp.block_load %in[%off] algorithm = <vectorize> : {mt}, {vt}",
        f"%sum = warp.block_reduce <add> %v items threads = <first>{how} : {vt}",
        "%tid = gpu.thread_id x",
        "%c0 = arith.constant 0 : index",
        "%first = arith.cmpi eq, %tid, %c0 : index",
        "scf.if %first {",
        f"  memref.store %sum, %out[%bid] : {mt}",
        "}"])


def block_scan_kernel(ty, t, k):
    e = ELEMENT[ty]
    vt, mt = f"vector<{k}x{e}>", f"memref<?x{e}>"
    return kernel(f"warp_block_scan_{ty}_{t}x{k}", t, f"%in: {mt}, %out: {mt}", tile_offset(t * k) + [
        f"%v = warp.block_load %in[%off] algorithm = <vectorize> : {mt}, {vt}",
        f"%s = warp.block_scan <add> %v items : {vt}",
        f"warp.block_store %s, %out[%off] algorithm = <vectorize> : {vt}, {mt}"])


def histogram_kernel(k, alg, load):
    t = HISTOGRAM_THREADS
    bt = "memref<256xi32, #gpu.address_space<workgroup>>"
    vt = f"vector<{k}xi8>"
    if load == "_i32load":
        mt, wt = "memref<?xi32>", f"vector<{k // 4}xi32>"
        head = tile_offset(t * k // 4) + [f"%w = warp.block_load %in[%off] algorithm = <vectorize> : {mt}, {wt}",
                                          f"%v = vector.bitcast %w : {wt} to {vt}"]
    else:
        mt = "memref<?xi8>"
        head = tile_offset(t * k) + [f"%v = warp.block_load %in[%off] algorithm = <vectorize> : {mt}, {vt}"]
    return kernel(f"warp_histogram_{t}x{k}_{alg}{load}", t, f"%in: {mt}, %hist: memref<?xi32>",
                  head + [
                      f"%bins = memref.get_global @bins : {bt}",
                      f"warp.block_histogram %v into %bins algorithm = <{alg}> : {vt}, {bt}",
                      "%tid = gpu.thread_id x",
                      f"%count = memref.load %bins[%tid] : {bt}",
                      "%zero = arith.constant 0 : i32",
                      "%some = arith.cmpi ne, %count, %zero : i32",
                      "scf.if %some {",
                      "  %old = memref.atomic_rmw addi %count, %hist[%tid] : (i32, memref<?xi32>) -> i32",
                      "}"],
                  globals_=[f'memref.global "private" @bins : {bt}'])


def sort_kernel(what, t, k, variant):
    vt, mt = f"vector<{k}xi32>", "memref<?xi32>"
    striped = variant == ""
    how = "striped" if striped else "algorithm = <vectorize>"
    body = tile_offset(t * k) + [f"%k = warp.block_load %keys_in[%off] algorithm = <vectorize> : {mt}, {vt}"]
    if what == "keys":
        args = f"%keys_in: {mt}, %keys_out: {mt}"
        body += [f"%sk = warp.block_radix_sort %k{' striped' if striped else ''} : {vt}"]
    else:
        args = f"%keys_in: {mt}, %values_in: {mt}, %keys_out: {mt}, %values_out: {mt}"
        body += [f"%v = warp.block_load %values_in[%off] algorithm = <vectorize> : {mt}, {vt}",
                 f"%sk, %sv = warp.block_radix_sort %k, %v{' striped' if striped else ''} : {vt}, {vt}",
                 f"warp.block_store %sv, %values_out[%off] {how} : {vt}, {mt}"]
    body += [f"warp.block_store %sk, %keys_out[%off] {how} : {vt}, {mt}"]
    return kernel(f"warp_sort_{what}_{t}x{k}{variant}", t, args, body)


def merge_sort_kernel(what, k, t=MERGE_SORT_THREADS, op="merge_sort"):
    """Each warp (warp.merge_sort) or the block (warp.block_merge_sort)
    sorts its keys (u32: an unsigned `<` region), the block's tile loaded
    and stored blocked (vectorize)."""
    vt, mt = f"vector<{k}xi32>", "memref<?xi32>"
    body = tile_offset(t * k) + [f"%k = warp.block_load %keys_in[%off] algorithm = <vectorize> : {mt}, {vt}"]
    compare = ["    compare(%a: i32, %b: i32) {", "  %lt = arith.cmpi ult, %a, %b : i32",
               "  warp.yield %lt : i1", "}"]
    if what == "keys":
        args = f"%keys_in: {mt}, %keys_out: {mt}"
        body += [f"%sk = warp.{op} %k : {vt}"] + compare
    else:
        args = f"%keys_in: {mt}, %values_in: {mt}, %keys_out: {mt}, %values_out: {mt}"
        body += [f"%v = warp.block_load %values_in[%off] algorithm = <vectorize> : {mt}, {vt}",
                 f"%sk, %sv = warp.{op} %k, %v : {vt}, {vt}"] + compare + [
                 f"warp.block_store %sv, %values_out[%off] algorithm = <vectorize> : {vt}, {mt}"]
    body += [f"warp.block_store %sk, %keys_out[%off] algorithm = <vectorize> : {vt}, {mt}"]
    return kernel(f"warp_{op}_{what}_{t}x{k}", t, args, body)


def radix_rank_kernel(t, r):
    """Each key's rank in its block's tile by its lowest r bits: for r <= 4
    u32 keys loaded blocked, the i32 ranks stored blocked, both vectorize;
    for r = 8 (the match ranking, as CUB's BlockRadixRankMatch) both
    warp-striped, the keys ranked so (CUB's arrangement there)."""
    k = RADIX_RANK_ITEMS
    vt, rt, mt = f"vector<{k}xi32>", f"vector<{k}xi32>", "memref<?xi32>"
    how = "algorithm = <vectorize>" if r <= 4 else "warp_striped"
    rank_how = "" if r <= 4 else " warp_striped"
    return kernel(f"warp_radix_rank_{t}x{k}_r{r}", t, f"%keys_in: {mt}, %ranks_out: {mt}",
                  tile_offset(t * k) + [
                      f"%k = warp.block_load %keys_in[%off] {how} : {mt}, {vt}",
                      f"%r = warp.block_radix_rank %k bits 0 to {r}{rank_how} : {vt}",
                      f"warp.block_store %r, %ranks_out[%off] {how} : {rt}, {mt}"])


def subwarp_kernel(ty, c):
    e = ELEMENT[ty]
    mt = f"memref<?x{e}>"
    return kernel(f"warp_subwarp_reduce_{ty}_c{c}", SUBWARP_THREADS, f"%in: {mt}, %out: {mt}", [
        "%bid = gpu.block_id x",
        "%tid = gpu.thread_id x",
        f"%threads = arith.constant {SUBWARP_THREADS} : index",
        "%base = arith.muli %bid, %threads : index",
        "%gid = arith.addi %base, %tid : index",
        f"%x = memref.load %in[%gid] : {mt}",
        f"%sum = warp.reduce <add> %x cluster_size = {c} lanes = <first> : {e}",
        f"%cluster = arith.constant {c} : index",
        "%lane = arith.remui %tid, %cluster : index",
        "%c0 = arith.constant 0 : index",
        "%first = arith.cmpi eq, %lane, %c0 : index",
        "scf.if %first {",
        "  %o = arith.divui %gid, %cluster : index",
        f"  memref.store %sum, %out[%o] : {mt}",
        "}"])


def warp_kernels():
    """{file stem: {kernel name: gpu.module text}}, a file per group."""
    files = collections.OrderedDict()
    files["load_store"] = {f"warp_load_store_{t}x{k}_{a}": load_store_kernel(t, k, a)
                           for t, k in CONFIGS for a in LOAD_STORE_ALGS}
    files["block_reduce"] = {f"warp_block_reduce_{ty}_{t}x{k}": block_reduce_kernel(ty, t, k)
                             for ty in TYPES for t, k in CONFIGS}
    files["block_reduce"].update(
        {f"warp_block_reduce_{ty}_{t}x{k}_{alg}": block_reduce_kernel(ty, t, k, alg)
         for ty in TYPES for t, k in REDUCE_ALGORITHM_CONFIGS for alg in REDUCE_ALGORITHMS})
    files["block_scan"] = {f"warp_block_scan_{ty}_{t}x{k}": block_scan_kernel(ty, t, k)
                           for ty in TYPES for t, k in CONFIGS}
    files["histogram"] = {f"warp_histogram_{HISTOGRAM_THREADS}x{k}_{a}{load}": histogram_kernel(k, a, load)
                          for k in HISTOGRAM_ITEMS for a in HISTOGRAM_WARP for load in HISTOGRAM_LOADS}
    files["sort"] = {f"warp_sort_{w}_{t}x{k}{v}": sort_kernel(w, t, k, v)
                     for w in ("keys", "pairs") for t, k in CONFIGS for v in SORT_VARIANTS}
    files["merge_sort"] = {f"warp_merge_sort_{w}_{MERGE_SORT_THREADS}x{k}": merge_sort_kernel(w, k)
                           for w in ("keys", "pairs") for k in MERGE_SORT_ITEMS}
    files["block_merge_sort"] = {
        f"warp_block_merge_sort_{w}_{t}x{k}": merge_sort_kernel(w, k, t, "block_merge_sort")
        for w in ("keys", "pairs") for t, k in BLOCK_MERGE_SORT_CONFIGS}
    files["radix_rank"] = {f"warp_radix_rank_{t}x{RADIX_RANK_ITEMS}_r{r}": radix_rank_kernel(t, r)
                           for t, r in RADIX_RANK_CONFIGS}
    files["subwarp_reduce"] = {f"warp_subwarp_reduce_{ty}_c{c}": subwarp_kernel(ty, c)
                               for ty in TYPES for c in CLUSTERS}
    return files


HEADER = ("// Generated by benchmarks/block_bench.py (--emit / --build): the warp side\n"
          "// of the block benchmarks (issue 31), one gpu.module per kernel.\n")


def module_text(modules):
    return HEADER + "module attributes {gpu.container_module} {\n" + "\n".join(modules) + "}\n"


def find_ptxas():
    for candidate in (shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def build(args):
    """Lowers every warp kernel to DIR/<kernel>.ptx; a file that does not
    lower is lowered module by module, and the kernels that still fail go
    to DIR/skipped.json (kernel: first error line). Where ptxas is found,
    every PTX is assembled for sm_90 too (a failure is skipped as well)."""
    out = os.path.abspath(args.build)
    os.makedirs(out, exist_ok=True)
    files = warp_kernels()
    if args.only:
        # A file per group stem: a case is its stem or starts with it.
        cases = selected_cases(args.only)
        files = collections.OrderedDict(
            (stem, kernels) for stem, kernels in files.items()
            if any(case == stem or case.startswith(stem + "_") for case in cases))
    for kernels in files.values():
        for name in kernels:
            path = os.path.join(out, name + ".ptx")
            if os.path.exists(path):
                os.remove(path)
    option = f"--warp-lower-to-ptx=chip=sm_90 format=isa ptx-output={out}/"

    def lower(path):
        return subprocess.run([args.warp_opt, path, "-o", os.devnull, option], capture_output=True, text=True)

    def first_error(proc):
        lines = [line.strip() for line in proc.stderr.splitlines() if "error" in line] or \
            [line.strip() for line in proc.stderr.splitlines() if line.strip()] or [f"exit {proc.returncode}"]
        line = lines[0]
        if line.startswith(tmp_prefix):  # "/tmp/.../name.mlir:11:16: error: ..." -> "error: ..."
            line = line.split(": ", 1)[-1]
        return line[:400]

    skipped = {}
    workers = max(1, min(16, os.cpu_count() or 1))
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(workers) as pool:
        tmp_prefix = tmp

        def write(stem, modules):
            path = os.path.join(tmp, stem + ".mlir")
            with open(path, "w") as f:
                f.write(module_text(modules))
            return path

        for stem, kernels in files.items():
            proc = lower(write(stem, kernels.values()))
            if proc.returncode == 0:
                print(f"{stem}: {len(kernels)} kernels lowered")
                continue
            print(f"{stem}: does not lower as a whole ({first_error(proc)}); one kernel at a time")
            procs = pool.map(lambda item: (item[0], lower(write(item[0], [item[1]]))), kernels.items())
            for name, proc in procs:
                if proc.returncode:
                    skipped[name] = first_error(proc)
                    print(f"  {name}: skipped: {skipped[name]}")
        ptxas = args.ptxas or find_ptxas()
        if ptxas:
            names = [n for kernels in files.values() for n in kernels if n not in skipped]

            def assemble(name):
                return name, subprocess.run([ptxas, "-arch=sm_90", os.path.join(out, name + ".ptx"),
                                             "-o", os.path.join(tmp, name + ".cubin")],
                                            capture_output=True, text=True)
            bad = 0
            for name, proc in pool.map(assemble, names):
                if proc.returncode:
                    skipped[name] = "ptxas: " + first_error(proc)
                    os.remove(os.path.join(out, name + ".ptx"))
                    bad += 1
                    print(f"  {name}: skipped: {skipped[name]}")
            print(f"ptxas -arch=sm_90: {len(names) - bad} of {len(names)} PTX files assemble")
        else:
            print("ptxas not found: the PTX is not assembled here")
    with open(os.path.join(out, "skipped.json"), "w") as f:
        json.dump(skipped, f, indent=1, sort_keys=True)
    total = sum(len(k) for k in files.values())
    print(f"{total - len(skipped)} of {total} warp kernels in {out}, {len(skipped)} skipped")
    return 0


def load_skipped(ptx_dir):
    path = os.path.join(ptx_dir, "skipped.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def baselines_source(args):
    src = os.path.join(args.ptx_dir, "block_baselines.cu")
    return src if os.path.exists(src) else os.path.join(HERE, "block_baselines.cu")


def find_nvcc():
    for candidate in (shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def build_cubin(args, tmp):
    """block_baselines.cu -> a cubin (nvcc -O3 -arch=sm_90), or None with
    the reason printed."""
    src, cubin = baselines_source(args), os.path.join(tmp, "block_baselines.cubin")
    nvcc = find_nvcc()
    if not os.path.exists(src) or not nvcc:
        print(f"CUB baselines did not build, the CUB columns are empty: "
              f"{'no ' + src if not os.path.exists(src) else 'nvcc not found'}")
        return None
    t0 = time.time()
    try:
        subprocess.run([nvcc, "-O3", "-arch=sm_90", "-cubin", "-o", cubin, src],
                       check=True, capture_output=True, text=True, timeout=600)
    except Exception as error:  # noqa: BLE001 - the warp kernels still run
        detail = getattr(error, "stderr", "") or str(error)
        print(f"CUB baselines did not build, the CUB columns are empty: {detail[-800:]}")
        return None
    print(f"CUB baselines built in {time.time() - t0:.1f} s")
    return cubin


def assemble_warp(args, tmp, names):
    """The warp kernels' PTX assembled for sm_90 by the host's ptxas, in
    parallel (a radix sort's PTX takes about a second; the driver would
    compile them one by one in the children): {kernel: cubin path}. A kernel
    that does not assemble here is loaded from its PTX (the driver's error,
    if any, becomes its result)."""
    ptxas = find_ptxas()
    if not ptxas:
        print("ptxas not found: the driver compiles the warp PTX")
        return {}
    out = os.path.join(tmp, "warp")
    os.makedirs(out, exist_ok=True)
    paths = [(name, os.path.join(args.ptx_dir, name + ".ptx")) for name in names]
    paths = [(name, ptx) for name, ptx in paths if os.path.exists(ptx)]

    def assemble(item):
        name, ptx = item
        cubin = os.path.join(out, name + ".cubin")
        proc = subprocess.run([ptxas, "-arch=sm_90", ptx, "-o", cubin], capture_output=True, text=True)
        return name, (cubin if proc.returncode == 0 else None)
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max(1, min(16, os.cpu_count() or 1))) as pool:
        done = dict(pool.map(assemble, paths))
    cubins = {name: cubin for name, cubin in done.items() if cubin}
    print(f"warp PTX assembled in {time.time() - t0:.1f} s ({len(cubins)} of {len(paths)} kernels)")
    return cubins


# --------------------------------------------------------------------------
# Child side: one group, results as "RESULT {json}" lines on stdout
# (device_bench.py's protocol and its Ctx: hang detection, guarded runs).
# --------------------------------------------------------------------------

def child_context(args):
    import device_bench  # same directory, here and in the bundle

    class BlockCtx(device_bench.Ctx):
        def __init__(self, args):
            args.baselines_so = None
            super().__init__(args)
            self.cub = self.cp.RawModule(path=args.cubin) if args.cubin else None
            self.skipped = load_skipped(args.ptx_dir)
            self.warp_cubins = json.loads(args.warp_cubins) if args.warp_cubins else {}

        def warp_function(self, name):
            """Kernel `name` from the parent's cubin of it, else its PTX."""
            if name not in self.warp_cubins:
                return self.module(name).get_function(name)
            if name not in self.modules:
                self.modules[name] = self.cp.RawModule(path=self.warp_cubins[name])
            return self.modules[name].get_function(name)

        def measure(self, case, impl, launch, check, reset=None, before=None):
            """Runs reset(), launch() once and checks the result now; a
            correct implementation is timed later by time_all, together
            with the group's others, `before` (outside the timed interval)
            ahead of each timed launch."""
            if impl in self.args.skip.split(","):
                return
            problem = []

            def run_and_check():
                if reset:
                    reset()
                launch()
                self.wait()
                problem.append(check())
            if not self.guarded(case, impl, run_and_check):
                return
            if problem[0]:
                self.report(case, impl, error="wrong result: " + problem[0])
                return
            self.pending.append((case, impl, launch, before))

        def time_all(self):
            pending, self.pending = self.pending, []
            case = pending[0][0] if pending else None
            times = time_together(self.timer, {impl: (launch, before) for _, impl, launch, before in pending},
                                  self.args.iters, self.args.warmup,
                                  run=lambda impl, action: self.guarded(case, impl, action))
            for impl, ms in times.items():
                self.report(case, impl, ms=ms)

        def add(self, case, impl, make_launch, check, reset=None, before=None):
            """Checks and queues kernel `impl`: make_launch(function) gives
            its launch; a warp kernel that was not built is reported as
            skipped, a CUB kernel without the cubin as missing."""
            if impl.startswith("warp_") and impl in self.skipped:
                self.report(case, impl, error="not built: " + self.skipped[impl], skipped=True)
                return
            if impl.startswith("cub_") and self.cub is None:
                self.report(case, impl, error="no CUB baselines", skipped=True)
                return
            got = []

            def prepare():
                if impl.startswith("cub_"):
                    got.append(make_launch(self.cub.get_function(impl)))
                else:
                    got.append(make_launch(self.warp_function(impl)))
            if self.guarded(case, impl, prepare):
                self.measure(case, impl, got[0], check, reset, before)

    return BlockCtx(args), device_bench.memref


def small_ints(c, n, seed):
    """n int32 in [-1000, 1000]: every sum of a tile or a cluster is exact
    in i32 and in f32 (|sum| <= 8192 * 1000 < 2^24)."""
    return c.cp.random.default_rng(seed).integers(-1000, 1001, n, dtype=c.cp.int32)


def equal(cp, got, want, what="values"):
    if bool(cp.array_equal(got, want)):
        return None
    bad = got != want
    first = int(cp.asnumpy(cp.argmax(bad)))
    return (f"{int(cp.asnumpy(bad.sum()))} of {got.size} {what} differ, first at {first}: "
            f"{cp.asnumpy(got[first])} != {cp.asnumpy(want[first])}")


def case_copy(c, memref):
    cp = c.cp
    n = 1 << c.args.log2n
    x = c.cp.random.default_rng(3).random(n, dtype=cp.float32) + 1
    out = cp.empty_like(x)

    def memcpy():
        cp.cuda.runtime.memcpyAsync(out.data.ptr, x.data.ptr, x.nbytes, cp.cuda.runtime.memcpyDeviceToDevice,
                                    cp.cuda.get_current_stream().ptr)
    check = lambda: equal(cp, out, x)  # noqa: E731
    reset = lambda: out.fill(0)  # noqa: E731
    c.measure("copy", "memcpy", memcpy, check, reset)
    c.measure("copy", "cupy_copy", lambda: cp.copyto(out, x), check, reset)


def case_load_store(c, memref):
    cp, np = c.cp, c.np
    n = 1 << c.args.log2n
    x = cp.random.default_rng(5).random(n, dtype=cp.float32) + 1  # no zeros: out is zeroed before a check
    out = cp.empty_like(x)
    for t, k in CONFIGS:
        blocks = n // (t * k)
        for alg in LOAD_STORE_ALGS:
            name = f"load_store_{t}x{k}_{alg}"
            for impl, args in (("warp_" + name, memref(np, x) + memref(np, out)), ("cub_" + name, (x, out))):
                c.add("load_store", impl, lambda f, args=args, t=t, blocks=blocks: lambda: f((blocks,), (t,), args),
                      lambda: equal(cp, out, x), lambda: out.fill(0))


def case_block(c, memref, kind):
    cp, np = c.cp, c.np
    n = 1 << c.args.log2n
    case = "block_" + kind
    xi = small_ints(c, n, 11)
    data = {"i32": xi, "f32": xi.astype(cp.float32)}
    # One output per type (a sum per block of the smallest tiles, or the
    # scanned items), shared by the kernels and filled before each check.
    min_tile = min(t * k for t, k in CONFIGS)
    outs = {ty: cp.empty(n // min_tile if kind == "reduce" else n, dtype=x.dtype) for ty, x in data.items()}
    for t, k in CONFIGS:
        tile = t * k
        blocks = n // tile
        if kind == "reduce":
            want = xi.reshape(-1, tile).sum(axis=1, dtype=cp.int32)
        else:
            want = cp.cumsum(xi.reshape(-1, tile), axis=1, dtype=cp.int32).reshape(-1)
        for ty in TYPES:
            x, out = data[ty], outs[ty]
            got = out[:want.size]
            want_ty = want.astype(x.dtype)
            names = [f"block_{kind}_{ty}_{t}x{k}"]
            if kind == "reduce" and (t, k) in REDUCE_ALGORITHM_CONFIGS:
                names += [f"{names[0]}_{alg}" for alg in REDUCE_ALGORITHMS]
            for name in names:
                for impl, args in (("warp_" + name, memref(np, x) + memref(np, out)),
                                   ("cub_" + name, (x, out))):
                    c.add(case, impl,
                          lambda f, args=args, t=t, blocks=blocks: lambda: f((blocks,), (t,), args),
                          lambda got=got, want_ty=want_ty: equal(cp, got, want_ty),
                          lambda out=out: out.fill(1 << 30))


def case_histogram(c, memref, dist):
    cp, np = c.cp, c.np
    n = 1 << c.args.log2n
    case = "histogram_" + dist
    rng = cp.random.default_rng(13)
    x = rng.integers(0, 256, n, dtype=cp.int32)
    if dist == "skewed":
        x = cp.where(rng.random(n, dtype=cp.float32) < HISTOGRAM_SKEW, cp.int32(SKEW_VALUE), x)
    want = cp.bincount(x, minlength=256).astype(cp.uint32)
    x = x.astype(cp.uint8)
    hist = cp.zeros(256, dtype=cp.uint32)
    zero = lambda: hist.fill(0)  # noqa: E731
    t = HISTOGRAM_THREADS
    for k in HISTOGRAM_ITEMS:
        blocks = n // (t * k)
        base = f"histogram_{t}x{k}"
        impls = [(f"warp_{base}_{a}", memref(np, x) + memref(np, hist)) for a in HISTOGRAM_WARP]
        impls += [(f"warp_{base}_{a}_i32load", memref(np, x.view(cp.int32)) + memref(np, hist))
                  for a in HISTOGRAM_WARP]
        impls += [(f"cub_{base}_{a}", (x, hist)) for a in HISTOGRAM_CUB]
        for impl, args in impls:
            c.add(case, impl, lambda f, args=args, blocks=blocks: lambda: f((blocks,), (t,), args),
                  lambda: equal(cp, hist, want, "bins"), zero, zero)


def sort_buffers(c, seed):
    """2^sort_log2n u32 keys (seeded), their indices as values (the stable
    order is checkable), the outputs and what zeroes them."""
    cp = c.cp
    n = 1 << c.args.sort_log2n
    keys = cp.random.default_rng(seed).integers(0, 1 << 32, n, dtype=cp.uint32)
    values = cp.arange(n, dtype=cp.uint32)
    keys_out, values_out = cp.empty_like(keys), cp.empty_like(values)

    def reset():
        keys_out.fill(0)
        values_out.fill(0)
    return keys, values, keys_out, values_out, reset


def sorted_tiles(cp, keys, tile, what):
    """Each tile of `tile` keys sorted, and for pairs the values (the keys'
    indices) in the stable order: (key, index in the tile) sorted as one
    u64."""
    if what == "keys":
        return cp.sort(keys.reshape(-1, tile), axis=1).reshape(-1), None
    local = cp.arange(tile, dtype=cp.uint64)[None, :]
    packed = cp.sort((keys.reshape(-1, tile).astype(cp.uint64) << cp.uint64(32)) | local, axis=1)
    want_keys = (packed >> cp.uint64(32)).astype(cp.uint32).reshape(-1)
    base = cp.arange(0, keys.size, tile, dtype=cp.uint64)[:, None]
    want_values = ((packed & cp.uint64(0xFFFFFFFF)) + base).astype(cp.uint32).reshape(-1)
    return want_keys, want_values


def add_sort(c, memref, case, name, what, buffers, wants, t, blocks):
    """The warp and CUB kernels of one sort row, checked against `wants`."""
    np, cp = c.np, c.cp
    keys, values, keys_out, values_out, reset = buffers
    want_keys, want_values = wants

    def check():
        return equal(cp, keys_out, want_keys, "keys") or \
            (equal(cp, values_out, want_values, "values") if want_values is not None else None)
    if what == "keys":
        warp_args = memref(np, keys) + memref(np, keys_out)
        cub_args = (keys, keys_out)
    else:
        warp_args = memref(np, keys) + memref(np, values) + memref(np, keys_out) + memref(np, values_out)
        cub_args = (keys, values, keys_out, values_out)
    for impl, args in (("warp_" + name, warp_args), ("cub_" + name, cub_args)):
        c.add(case, impl, lambda f, args=args: lambda: f((blocks,), (t,), args), check, reset)


def case_sort(c, memref, what):
    buffers = sort_buffers(c, 17)
    n = buffers[0].size
    for t, k in CONFIGS:
        wants = sorted_tiles(c.cp, buffers[0], t * k, what)
        for variant in SORT_VARIANTS:
            add_sort(c, memref, "sort_" + what, f"sort_{what}_{t}x{k}{variant}", what, buffers, wants,
                     t, n // (t * k))


def case_merge_sort(c, memref, what):
    """Each warp's tile of 32*N keys sorted on its own (stable: pairs are
    checked as sort_pairs's)."""
    buffers = sort_buffers(c, 23)
    n, t = buffers[0].size, MERGE_SORT_THREADS
    for k in MERGE_SORT_ITEMS:
        add_sort(c, memref, "merge_sort_" + what, f"merge_sort_{what}_{t}x{k}", what, buffers,
                 sorted_tiles(c.cp, buffers[0], 32 * k, what), t, n // (t * k))


def case_block_merge_sort(c, memref, what):
    """Each block's tile of T*N keys sorted (stable: pairs are checked as
    sort_pairs's)."""
    buffers = sort_buffers(c, 29)
    n = buffers[0].size
    for t, k in BLOCK_MERGE_SORT_CONFIGS:
        add_sort(c, memref, "block_merge_sort_" + what, f"block_merge_sort_{what}_{t}x{k}", what, buffers,
                 sorted_tiles(c.cp, buffers[0], t * k, what), t, n // (t * k))


def case_radix_rank(c, memref):
    """Each tile's ranks by the keys' lowest r bits: the stable order of
    (digit, index in the tile), sorted as one u64."""
    cp, np = c.cp, c.np
    keys = sort_buffers(c, 29)[0]
    n, k = keys.size, RADIX_RANK_ITEMS
    ranks = cp.empty(n, dtype=cp.int32)
    for t, r in RADIX_RANK_CONFIGS:
        tile = t * k
        digits = (keys & cp.uint32((1 << r) - 1)).astype(cp.uint64).reshape(-1, tile)
        packed = cp.sort((digits << cp.uint64(32)) | cp.arange(tile, dtype=cp.uint64)[None, :], axis=1)
        want = cp.empty((n // tile, tile), dtype=cp.int32)
        rows = cp.arange(n // tile)[:, None]
        want[rows, (packed & cp.uint64(0xFFFFFFFF)).astype(cp.int64)] = cp.arange(tile, dtype=cp.int32)[None, :]
        want = want.reshape(-1)
        name = f"radix_rank_{t}x{k}_r{r}"
        for impl, args in (("warp_" + name, memref(np, keys) + memref(np, ranks)), ("cub_" + name, (keys, ranks))):
            c.add("radix_rank", impl, lambda f, args=args, t=t, tile=tile: lambda: f((n // tile,), (t,), args),
                  lambda want=want: equal(cp, ranks, want, "ranks"), lambda: ranks.fill(-1))


def case_subwarp(c, memref):
    cp, np = c.cp, c.np
    n = 1 << c.args.log2n
    xi = small_ints(c, n, 19)
    t = SUBWARP_THREADS
    for ty in TYPES[::-1]:
        x = xi if ty == "i32" else xi.astype(cp.float32)
        out = cp.empty(n // min(CLUSTERS), dtype=x.dtype)
        for cluster in CLUSTERS:
            want = xi.reshape(-1, cluster).sum(axis=1, dtype=cp.int32).astype(x.dtype)
            got = out[:n // cluster]
            name = f"subwarp_reduce_{ty}_c{cluster}"
            for impl, args in (("warp_" + name, memref(np, x) + memref(np, out)), ("cub_" + name, (x, out))):
                c.add("subwarp_reduce", impl, lambda f, args=args: lambda: f((n // t,), (t,), args),
                      lambda got=got, want=want: equal(cp, got, want), lambda out=out: out.fill(1 << 30))


def run_child(args):
    c, memref = child_context(args)
    case = args.child
    if case == "copy":
        case_copy(c, memref)
    elif case == "load_store":
        case_load_store(c, memref)
    elif case in ("block_reduce", "block_scan"):
        case_block(c, memref, case.split("_")[1])
    elif case.startswith("histogram_"):
        case_histogram(c, memref, case.split("_")[1])
    elif case.startswith("block_merge_sort_"):
        case_block_merge_sort(c, memref, case.split("_")[3])
    elif case.startswith("merge_sort_"):
        case_merge_sort(c, memref, case.split("_")[2])
    elif case.startswith("sort_"):
        case_sort(c, memref, case.split("_")[1])
    elif case == "radix_rank":
        case_radix_rank(c, memref)
    elif case == "subwarp_reduce":
        case_subwarp(c, memref)
    c.time_all()


# --------------------------------------------------------------------------
# Parent side: build the CUB cubin, run each group, print, write JSON.
# --------------------------------------------------------------------------

def run_case(args, case, cubin, warp_cubins):
    """{impl: result row} of one group's child (run again without an
    implementation that hung or lost the context), and a note on its exit."""
    cmd = [sys.executable, os.path.abspath(__file__), "--child", case, "--ptx-dir", args.ptx_dir,
           "--iters", str(args.iters), "--warmup", str(args.warmup), "--log2n", str(args.log2n),
           "--sort-log2n", str(args.sort_log2n), "--hang", str(args.hang)]
    if cubin:
        cmd += ["--cubin", cubin]
    mine = {r.warp: warp_cubins[r.warp] for r in rows(1, 1) if r.case == case and r.warp in warp_cubins}
    if mine:
        cmd += ["--warp-cubins", json.dumps(mine)]
    import device_bench  # same directory, here and in the bundle
    return device_bench.run_isolated(cmd, args.timeout)


def summarize(row, by_impl, copy_gbps, note):
    entry = {"kernel": row.name, "group": row.case, "bytes": row.nbytes}
    errors = {}
    for label, impl in (("warp", row.warp),) + row.cubs:
        result = by_impl.get(impl, {})
        if "ms" in result:
            entry[f"{label}_ms"] = result["ms"]
        elif "error" in result:
            errors[label] = result["error"]
            if result.get("skipped"):
                entry.setdefault("skipped", []).append(label)
        elif note:
            errors[label] = "no result: the group's process failed"
    cub_times = [entry[f"{label}_ms"] for label, _ in row.cubs if f"{label}_ms" in entry]
    if len(row.cubs) > 1 and cub_times:
        entry["cub_ms"] = min(cub_times)
    if "cub_ms" in entry:
        entry["cub_gbps"] = row.nbytes / entry["cub_ms"] / 1e6
    if "warp_ms" in entry:
        entry["gbps"] = row.nbytes / entry["warp_ms"] / 1e6
        if copy_gbps:
            entry["pct_copy"] = 100 * entry["gbps"] / copy_gbps
        if "cub_ms" in entry:
            entry["ratio_cub"] = entry["cub_ms"] / entry["warp_ms"]
        if len(row.cubs) > 1:
            for label, _ in row.cubs:
                if f"{label}_ms" in entry:
                    entry[f"ratio_{label}"] = entry[f"{label}_ms"] / entry["warp_ms"]
    if errors:
        entry["errors"] = errors
    return entry


def fmt(entry):
    name = f"{entry['kernel']:38s}"
    cub = f"cub {entry['cub_ms']:9.4f} ms" if "cub_ms" in entry else "cub      -    "
    if "warp_ms" not in entry:
        state = "skipped" if "warp" in entry.get("skipped", []) else "FAILED"
        return f"{name} warp {state} ({cub}): {json.dumps(entry.get('errors', {}))[:400]}"
    line = f"{name} warp {entry['warp_ms']:9.4f} ms  {cub}  cub/warp "
    line += f"{entry['ratio_cub']:6.3f}" if "ratio_cub" in entry else "   -  "
    line += f"  {entry['gbps']:6.0f} GB/s"
    if "pct_copy" in entry:
        line += f" {entry['pct_copy']:5.1f}% copy"
    for k in sorted(entry):
        if k.startswith("ratio_") and k != "ratio_cub":
            line += f"  {k[6:]}/warp {entry[k]:.3f}"
    if entry.get("errors"):
        line += "  errors: " + json.dumps(entry["errors"])[:300]
    return line


def copy_entry(by_impl, n, note):
    entry = {"kernel": "copy", "group": "copy", "bytes": 8 * n}
    for impl in ("memcpy", "cupy_copy"):
        result = by_impl.get(impl, {})
        if "ms" in result:
            entry[f"{impl}_ms"] = result["ms"]
            entry[f"{impl}_gbps"] = 8 * n / result["ms"] / 1e6
        elif "error" in result or note:
            entry.setdefault("errors", {})[impl] = result.get("error", "no result: the group's process failed")
    speeds = [entry[k] for k in ("memcpy_gbps", "cupy_copy_gbps") if k in entry]
    if speeds:
        entry["gbps"] = max(speeds)
    return entry


def fmt_copy(entry):
    parts = [f"{impl} {entry[impl + '_ms']:.4f} ms {entry[impl + '_gbps']:.0f} GB/s"
             for impl in ("memcpy", "cupy_copy") if impl + "_ms" in entry]
    line = f"{'copy':38s} " + ("  ".join(parts) if parts else "FAILED")
    if entry.get("errors"):
        line += "  errors: " + json.dumps(entry["errors"])[:300]
    return line


def group_summary(entries):
    """Per group: rows with a ratio, how many at >= 1.00x, the geometric
    mean and the lowest."""
    by_group = collections.OrderedDict()
    for e in entries:
        if "ratio_cub" in e:
            by_group.setdefault(e["group"], []).append(e)
    out = {}
    for group, es in by_group.items():
        ratios = [e["ratio_cub"] for e in es]
        low = min(es, key=lambda e: e["ratio_cub"])
        out[group] = {"rows": len(es), "at_least_1": sum(r >= 1.0 for r in ratios),
                      "geomean": math.exp(sum(math.log(r) for r in ratios) / len(ratios)),
                      "min": low["ratio_cub"], "min_kernel": low["kernel"]}
    return out


def selected_cases(only):
    if not only:
        return list(CASES)
    names = []
    for token in only.split(","):
        token = token.strip()
        if token in ALIASES:
            names += ALIASES[token]
        elif token in CASES:
            names.append(token)
        else:
            sys.exit(f"unknown group {token!r}: one of {', '.join(CASES + tuple(ALIASES))}")
    return [c for c in CASES if c in names]


def dry_run(args):
    problems = []
    skipped = load_skipped(args.ptx_dir)
    if not os.path.exists(os.path.join(args.ptx_dir, "skipped.json")):
        print(f"note: {args.ptx_dir}/skipped.json missing (written by --build)")
    cases = selected_cases(args.only)
    plan = [r for r in rows(1 << args.log2n, 1 << args.sort_log2n) if r.case in cases]
    warp_names = sorted({r.warp for r in plan})
    for name in warp_names:
        path = os.path.join(args.ptx_dir, name + ".ptx")
        if name in skipped:
            print(f"skipped {name}: {skipped[name]}")
        elif not os.path.exists(path):
            problems.append(f"{name}: {path} missing")
        else:
            with open(path) as f:
                if f".entry {name}(" not in f.read():
                    problems.append(f"{name}: no .entry {name} in {path}")
    src = baselines_source(args)
    cub_names = sorted({impl for r in plan for _, impl in r.cubs})
    if not os.path.exists(src):
        problems.append(f"{src} missing")
    elif cub_names:
        nvcc = find_nvcc()
        if not nvcc:
            print(f"nvcc not found: {src} present, its {len(cub_names)} kernels not checked")
        else:
            with tempfile.TemporaryDirectory() as tmp:
                cubin = os.path.join(tmp, "b.cubin")
                proc = subprocess.run([nvcc, "-O3", "-arch=sm_90", "-cubin", "-o", cubin, src],
                                      capture_output=True, text=True)
                if proc.returncode:
                    problems.append(f"{src} does not compile: {proc.stderr[-800:]}")
                else:
                    with open(cubin, "rb") as f:
                        blob = f.read()
                    missing = [k for k in cub_names if b"\0" + k.encode() + b"\0" not in blob]
                    problems += [f"{k}: not in the cubin of {src}" for k in missing]
                    print(f"{src}: compiled, {len(cub_names) - len(missing)} of {len(cub_names)} CUB kernels in it")
    for case in (["copy"] if "copy" not in cases else []) + cases:
        n_rows = sum(r.case == case for r in plan)
        print(f"would run {case}" + (f": {n_rows} rows" if n_rows else ""))
    print(f"{len(warp_names) - sum(n in skipped for n in warp_names)} warp kernels, {len(cub_names)} CUB kernels")
    if problems:
        print("\n".join(problems))
        return 1
    print("dry run: plan OK")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ptx-dir", help="the warp PTX (--build's DIR) and block_baselines.cu")
    parser.add_argument("--build", metavar="DIR", help="lower the warp kernels to DIR/*.ptx and exit")
    parser.add_argument("--warp-opt", default="build/bin/warp-opt", help="for --build")
    parser.add_argument("--ptxas", help="for --build (default: found on PATH or in /usr/local/cuda/bin)")
    parser.add_argument("--emit", metavar="FILE", help="write the warp kernels' MLIR to FILE and exit")
    parser.add_argument("--json")
    parser.add_argument("--only", help="comma-separated groups: " + ", ".join(CASES + tuple(ALIASES)))
    parser.add_argument("--iters", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--log2n", type=int, default=N_LOG2)
    parser.add_argument("--sort-log2n", type=int, default=SORT_LOG2)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per group")
    parser.add_argument("--hang", type=float, default=10.0,
                        help="seconds a launch may take before it counts as hung")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--skip", default="", help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--cubin", help=argparse.SUPPRESS)
    parser.add_argument("--warp-cubins", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit:
        with open(args.emit, "w") as f:
            f.write(module_text([m for kernels in warp_kernels().values() for m in kernels.values()]))
        return 0
    if args.build:
        return build(args)
    if not args.ptx_dir:
        parser.error("--ptx-dir is required (or --build / --emit)")
    if args.child:
        run_child(args)
        return 0
    if args.dry_run:
        return dry_run(args)
    cases = selected_cases(args.only)
    if "copy" not in cases:
        cases.insert(0, "copy")
    n, sort_n = 1 << args.log2n, 1 << args.sort_log2n
    plan = rows(n, sort_n)
    entries, groups, copy_gbps = [], {}, None
    t_all = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # nvcc while ptxas works
            cub_build = pool.submit(build_cubin, args, tmp)
            warp_cubins = assemble_warp(args, tmp, sorted({r.warp for r in plan if r.case in cases}))
            cubin = cub_build.result()
        for case in cases:
            t0 = time.time()
            by_impl, note = run_case(args, case, cubin, warp_cubins)
            if case == "copy":
                entry = copy_entry(by_impl, n, note)
                copy_gbps = entry.get("gbps")
                entries.append(entry)
                print(fmt_copy(entry), flush=True)
            else:
                for row in plan:
                    if row.case == case:
                        entry = summarize(row, by_impl, copy_gbps, note)
                        entries.append(entry)
                        print(fmt(entry), flush=True)
            groups[case] = {"seconds": time.time() - t0}
            if note:
                groups[case]["note"] = note
                print(f"{case}: {note}")
            print(f"{case}: {groups[case]['seconds']:.0f} s", flush=True)
    summary = group_summary(entries)
    print(f"total {time.time() - t_all:.0f} s")
    for group, s in summary.items():
        print(f"summary {group:16s} {s['at_least_1']:3d} of {s['rows']:3d} rows at cub/warp >= 1.00, "
              f"geomean {s['geomean']:.3f}, lowest {s['min']:.3f} ({s['min_kernel']})")
    if args.json:
        import device_bench
        with open(args.json, "w") as f:
            json.dump({"meta": device_bench.meta(), "n": n, "sort_n": sort_n, "copy_gbps": copy_gbps,
                       "groups": groups, "results": entries, "summary": summary}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
