#!/usr/bin/env python3
"""The host-level device-wide ops of warp_mlir.device (warp.device_reduce,
warp.device_scan, ...) against CUB and torch, interleaved in one run on the
GPU host.

    python3 device_ops_bench.py [--json out.json] [--only GROUPS] [--log2n 10,14,...]
                                [--dry-run]

Groups (--only takes these, comma-separated), each at n = 2^10, 2^14, 2^18,
2^22, 2^26 and 2^28 elements (--log2n; reduce_f64 only at the largest minus
one, 2^27):

  reduce_{i32,f32,f64}    wd.reduce(x, kind="add", out=out) vs
                          cub::DeviceReduce::Sum, torch.sum(x, 0,
                          keepdim=True, dtype=, out=) and Triton (tl.sum
                          per block, an atomic add each: device_bench's)
  scan_{incl,excl}_{i32,f32}
                          wd.scan(x, kind="add", exclusive=, out=out) vs
                          cub::DeviceScan::{Inclusive,Exclusive}Sum,
                          torch.cumsum (exclusive: cumsum - x; torch has no
                          exclusive scan) and Triton (tile sums, their
                          scan in torch, tl.cumsum per tile: device_bench's)
  select_if_f32           wd.select(x, pred=("gt", 0.0), out=, count=) (the
                          test in the kernel) vs cub::DeviceSelect::If with
                          x > 0 (baselines.cu's cub_select_gt_f32, an int
                          count) and torch.masked_select(x, x > 0), on
                          select_f32's data (about half kept)
  rle_i32                 wd.run_length_encode(x, unique=, counts=, num_runs=)
                          (int32 counts) vs cub::DeviceRunLengthEncode::Encode
                          and torch.unique_consecutive(x, return_counts=True),
                          on runs of 2 on average as unique_i32's
  radix_sort_i32          wd.radix_sort(x, out=out) vs
                          cub::DeviceRadixSort::SortKeys and
                          torch.sort(x, stable=True) (uniform keys over the
                          whole int32 range)
  scan_by_key_i32         wd.scan(x, kind="add", keys=keys, out=out) vs
                          cub::DeviceScan::InclusiveSumByKey (i32 keys in runs
                          of 32 on average; torch has no scan by key)
  segmented_sum_f32_l{32,4096}
                          wd.segmented_reduce(x, offsets, "add", out=out) vs
                          cub::DeviceSegmentedReduce::Sum(d_offsets,
                          d_offsets + 1) and torch.segment_reduce(x, "sum",
                          offsets=), the n elements in segments of random
                          lengths uniform in [0, 2L] (L = 32: many short
                          ones, a few empty; L = 4096: long ones), i32
                          offsets

and, timed with them at every n as the ceilings, a device-to-device copy
of the same bytes (cupy's copyto and torch's copy_; the faster counts) and,
for the reduces, a read-only stream of them (READ_SOURCE: 16-byte loads,
four in flight per thread, one atomic per warp).

CUB comes from benchmarks/device/baselines.cu (device_bench.py's baselines,
compiled here with nvcc -O3 -arch=sm_90 -shared, called through ctypes).
While nvcc runs, a first process calls every warp op once at every n with
a fresh compile cache (WARP_MLIR_CACHE_DIR in a temporary directory): its
first call is the cold compile, printed on the `compile` lines.

Each group runs in its own process (device_bench.run_isolated: a crash, a
hang or a sticky CUDA error loses that group only, and it runs again
without the implementation that caused it). In it, at each n, every
implementation is first checked against a reference that cupy computes in
int64 from the definition (the data are integers, in [-1000, 1000] for i32
and in [-4, 4] for floats, so every sum is exact in any order and results
must match bit for bit); a mismatch is printed as MISMATCH and makes the
exit status 1 (so does a warp op that fails). Then the checked ones are
timed together (gpu_timing.time_together: --warmup launches of each, then
6 rounds in which each runs once untimed and --iters / 6 times timed, the
order rotating; each launch between CUDA events on the legacy default
stream, where everything here runs, wd's calls too (stream=None); the
stream is held by a short kernel while a launch is enqueued, so a time is
the GPU's); a time is the median. The hold is 500 us here (--hold-us; 200
in gpu_timing.py): a warp call launches its kernels one by one, each
packing its arrays. `host us` is the host's work per call (20 calls back to
back, until the last returns: what a caller pays besides the GPU time,
which matters at small n); where it nears the hold, the time may include
host work and the run says so. The JSON has it for every implementation,
and call_us: the same 20 calls until the GPU has run them.

Printed per group and n: warp time (us), GB/s (reduce: the n elements
read; scan: read and written), % of the copy's GB/s, % of the read-only
stream's (reduces), CUB time / warp time and torch time / warp time (> 1:
warp is faster), and warp's host us. --json writes all of it. Takes about a
minute on the H200 (an estimate before the first run): nvcc and the warp
compiles in parallel, then 7 processes of a few seconds each.

GPU host, from an unpacked bundle (run.sh's bench stage; warp_mlir is the
bundle's wheel, installed in run.sh's virtual environment):
    $venv/bin/python device_ops_bench.py --json device_ops_bench.json
From the repository, warp_mlir is python/ with the build's C API library.

--dry-run checks the plan without a GPU: baselines.cu present with every
CUB entry point used, and whether warp_mlir.device imports (it is imported
lazily, by the GPU processes only).
"""
import argparse
import concurrent.futures
import ctypes
import json
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import device_bench  # noqa: E402 - same directory, here and in the bundle
import gpu_timing  # noqa: E402
from block_bench import equal  # noqa: E402

LOG2N = (10, 14, 18, 22, 26, 28)
# Group -> (op, element type, exclusive).
GROUPS = {
    "reduce_i32": ("reduce", "i32", False),
    "reduce_f32": ("reduce", "f32", False),
    "reduce_f64": ("reduce", "f64", False),
    "reduce_i32_c4": ("reduce", "i32", False),
    "scan_incl_i32": ("scan", "i32", False),
    "scan_excl_i32": ("scan", "i32", True),
    "scan_incl_f32": ("scan", "f32", False),
    "scan_excl_f32": ("scan", "f32", True),
    "scan_by_key_i32": ("scan_by_key", "i32", False),
    # The same scans in thread-block clusters of 2, 4 or 8 blocks
    # (warp.device_scan's cluster_blocks; CLUSTERS below), against the same
    # CUB call: the block-only rows above are the comparison.
    "scan_incl_i32_c2": ("scan", "i32", False),
    "scan_incl_i32_c4": ("scan", "i32", False),
    "scan_incl_i32_c8": ("scan", "i32", False),
    "scan_incl_f32_c4": ("scan", "f32", False),
    "select_f32": ("select", "f32", False),
    "select_if_f32": ("select_if", "f32", False),
    "partition_f32": ("partition", "f32", False),
    "unique_i32": ("unique", "i32", False),
    "rle_i32": ("rle", "i32", False),
    "histogram_u8": ("histogram", "u8", False),
    "radix_sort_i32": ("radix_sort", "i32", False),
    "segmented_sum_f32_l32": ("segmented_reduce", "f32", False),
    "segmented_sum_f32_l4096": ("segmented_reduce", "f32", False),
}
# A segmented reduction's mean segment length L (lengths uniform in [0, 2L]).
SEGMENT_LENGTHS = {"segmented_sum_f32_l32": 32, "segmented_sum_f32_l4096": 4096}
CLUSTERS = {"reduce_i32_c4": 4, "scan_incl_i32_c2": 2, "scan_incl_i32_c4": 4, "scan_incl_i32_c8": 8,
            "scan_incl_f32_c4": 4}
IMPLS = ("warp", "cub", "torch", "triton", "copy_cupy", "copy_torch", "read")
SIZES = {"u8": 1, "i32": 4, "f32": 4, "f64": 8}
DTYPES = {"u8": "uint8", "i32": "int32", "f32": "float32", "f64": "float64"}
HISTOGRAM_BINS = 256
CALLS = 20  # back-to-back calls of host_us and call_us
# The timer's hold (gpu_timing.HOLD_US, 200 us there): a warp call packs
# its arrays for each of its kernels, more host work than one launch.
HOLD_US = 500

READ_SOURCE = r"""
extern "C" __global__ void read_words(const uint4 *x, long long n4, unsigned *sum) {
  long long stride = (long long)gridDim.x * blockDim.x, i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = 0;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    uint4 p = __ldg(x + i), q = __ldg(x + i + stride), r = __ldg(x + i + 2 * stride), s = __ldg(x + i + 3 * stride);
    a += (p.x + p.y + p.z + p.w) + (q.x + q.y + q.z + q.w) + (r.x + r.y + r.z + r.w) + (s.x + s.y + s.z + s.w);
  }
  for (; i < n4; i += stride) {
    uint4 p = __ldg(x + i);
    a += p.x + p.y + p.z + p.w;
  }
  a = __reduce_add_sync(0xffffffffu, a);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, a);
}
"""


def sizes_of(group, log2n):
    return [max(log2n) - 1] if GROUPS[group][1] == "f64" else list(log2n)


# select_if's predicate: x > SELECT_IF_THRESHOLD (CUB's Greater functor).
SELECT_IF_THRESHOLD = 0.0


def cub_name(group):
    op, ty, exclusive = GROUPS[group]
    if op == "select_if":
        return f"cub_select_gt_{ty}"
    if op in ("select", "partition"):
        return f"cub_{op}_flagged_{ty}"
    if op == "unique":
        return f"cub_unique_{ty}"
    if op == "rle":
        return f"cub_rle_{ty}"
    if op == "histogram":
        return f"cub_histogram_{ty}"
    if op == "scan_by_key":
        return f"cub_scan_by_key_{ty}"
    if op == "radix_sort":
        return f"cub_radix_sort_keys_{ty}"
    if op == "segmented_reduce":
        return f"cub_segmented_sum_{ty}"
    return f"cub_sum_{ty}" if op == "reduce" else f"cub_scan_{'excl' if exclusive else 'incl'}_{ty}"


def import_device():
    """warp_mlir.device: the repository's python/ (with its build) where this
    runs from benchmarks/, else the installed package (the bundle's wheel)."""
    repo_python = os.path.join(os.path.dirname(HERE), "python")
    if os.path.isdir(os.path.join(repo_python, "warp_mlir")) and repo_python not in sys.path:
        sys.path.insert(0, repo_python)
    import warp_mlir.device as wd
    return wd


def warp_op(wd, group, chip):
    """The warp call of `group`: f(x, out), f(x, out, flags, count) for a
    selection, f(x, unique, counts, num_runs) for a run-length encoding,
    f(x, out, keys) for a scan by key, f(x, out, offsets) for a segmented
    reduction."""
    op, _, exclusive = GROUPS[group]
    if op == "histogram":
        return lambda x, out: wd.histogram(x, HISTOGRAM_BINS, out=out, chip=chip)
    if op in ("select", "partition"):
        call = wd.select if op == "select" else wd.partition
        return lambda x, out, flags, count: call(x, flags, out=out, count=count, chip=chip)
    if op == "select_if":  # the flags are unused: the kernel compares
        return lambda x, out, flags, count: wd.select(
            x, out=out, count=count, chip=chip, pred=("gt", SELECT_IF_THRESHOLD))
    if op == "unique":
        return lambda x, out, flags, count: wd.unique(x, out=out, count=count, chip=chip)
    if op == "rle":
        return lambda x, unique, counts, num_runs: wd.run_length_encode(
            x, unique=unique, counts=counts, num_runs=num_runs, chip=chip)
    if op == "radix_sort":
        return lambda x, out: wd.radix_sort(x, out=out, chip=chip)
    if op == "scan_by_key":
        return lambda x, out, keys: wd.scan(x, kind="add", exclusive=exclusive, out=out,
                                            keys=keys, chip=chip)
    if op == "segmented_reduce":
        return lambda x, out, offsets: wd.segmented_reduce(x, offsets, "add", out=out, chip=chip)
    cluster = CLUSTERS.get(group, 1)
    if op == "reduce":
        return lambda x, out: wd.reduce(x, kind="add", out=out, chip=chip,
                                        cluster_blocks=cluster)
    return lambda x, out: wd.scan(x, kind="add", exclusive=exclusive, out=out, chip=chip,
                                  cluster_blocks=cluster)


# --------------------------------------------------------------------------
# Child side: the compile process or one group, results as "RESULT {json}"
# lines on stdout (device_bench.py's protocol and its Ctx: hang detection,
# guarded runs, check-then-time).
# --------------------------------------------------------------------------

def child_compile(c, groups, log2n):
    """Every warp op once at every n, each call timed to its end: the first
    one compiles (the cache is fresh), a later one that is slow compiles per n."""
    cp = c.cp
    try:
        wd = import_device()
    except Exception as error:  # noqa: BLE001 - reported per group
        for group in groups:
            c.report("compile", group, error=f"warp_mlir.device: {type(error).__name__}: {str(error)[:300]}")
        return
    for group in groups:
        if group in c.args.skip.split(","):
            continue
        _, ty, _ = GROUPS[group]
        sizes = sizes_of(group, log2n)
        x = cp.zeros(1 << max(sizes), dtype=DTYPES[ty])
        out = cp.empty_like(x)
        call, first_ms = warp_op(wd, group, c.args.chip), []
        if GROUPS[group][0] in ("select", "select_if", "partition", "unique"):
            flags, count = cp.zeros(x.size, dtype=cp.int8), cp.zeros(1, dtype=cp.int64)
            call = lambda x, out, call=call, flags=flags, count=count: \
                call(x, out, flags[:x.size], count)  # noqa: E731
        if GROUPS[group][0] == "rle":
            counts, num_runs = cp.zeros(x.size, dtype=cp.int32), cp.zeros(1, dtype=cp.int64)
            call = lambda x, out, call=call, counts=counts, num_runs=num_runs: \
                call(x, out, counts[:x.size], num_runs)  # noqa: E731
        if GROUPS[group][0] == "histogram":
            hist = cp.zeros(HISTOGRAM_BINS, dtype=cp.int32)
            call = lambda x, out, call=call, hist=hist: call(x, hist)  # noqa: E731
        if GROUPS[group][0] == "scan_by_key":
            keys = cp.zeros(x.size, dtype=cp.int32)
            call = lambda x, out, call=call, keys=keys: call(x, out, keys[:x.size])  # noqa: E731
        if GROUPS[group][0] == "segmented_reduce":  # one segment of everything
            call = lambda x, out, call=call: call(  # noqa: E731
                x, out[:1], cp.asarray([0, x.size], dtype=cp.int32))

        def run():
            for log2 in sizes:
                n = 1 << log2
                t0 = time.perf_counter()
                call(x[:n], out[:1] if GROUPS[group][0] == "reduce" else out[:n])
                c.wait()
                first_ms.append((time.perf_counter() - t0) * 1e3)
        if c.guarded("compile", group, run):
            c.report("compile", group, first_ms=first_ms, log2n=sizes)


def call_us(c, launch):
    """(host, call) microseconds per call of CALLS calls back to back: until
    the last call returns (the host's work: the GPU queue does not fill),
    and until the GPU has run them all (what a caller waits for)."""
    launch()
    c.wait()
    t0 = time.perf_counter()
    for _ in range(CALLS):
        launch()
    t1 = time.perf_counter()
    c.wait()
    return (t1 - t0) / CALLS * 1e6, (time.perf_counter() - t0) / CALLS * 1e6


def time_size(c, group):
    """Times the implementations checked at one n together (gpu_timing) and
    reports each one's median, host us and call us."""
    pending, c.pending = c.pending, []
    launches = {key: launch for _, key, launch, _ in pending}
    calls = {}
    for key, launch in list(launches.items()):
        if not c.guarded(group, key, lambda key=key, launch=launch: calls.__setitem__(key, call_us(c, launch))):
            del launches[key]
    times = gpu_timing.time_together(c.timer, launches, c.args.iters, c.args.warmup,
                                     run=lambda key, action: c.guarded(group, key, action))
    for key, ms in times.items():
        c.report(group, key, ms=ms, host_us=calls[key][0], call_us=calls[key][1])


def implementations(c, group):
    """warp's call of `group` (or None and why not) and torch (or None)."""
    try:
        warp, warp_error = warp_op(import_device(), group, c.args.chip), None
    except Exception as error:  # noqa: BLE001 - the baselines still run
        warp, warp_error = None, f"warp_mlir.device: {type(error).__name__}: {str(error)[:300]}"
    try:
        import torch
    except ImportError:
        torch = None
    return warp, warp_error, torch


def measurer(c, group, log2, check, reset):
    """The `add(impl, launch)` of one size: resets the output, times
    `launch` as `impl` and checks the output (a call may pass its own
    `check` and `reset`)."""
    def add(impl, launch, check=check, reset=reset):
        reset()
        c.measure(group, f"{impl}@{log2}", launch, check)
    return add


def add_warp(c, group, log2, add, warp, warp_error, launch):
    """warp's row of one size, or the error that kept it from compiling."""
    if warp:
        add("warp", launch)
    else:
        c.report(group, f"warp@{log2}", error=warp_error)


def add_cub(c, group, log2, add, *args):
    """CUB's call of `group` on `args` (a --skip names it after it failed)."""
    if not c.lib or f"cub@{log2}" in c.args.skip.split(","):
        return
    try:
        add("cub", c.cub_call(cub_name(group), *args))
    except Exception as error:  # noqa: BLE001
        c.report(group, f"cub@{log2}", error=str(error)[:300])


def add_copies(c, add, torch, xv, dv):
    """The ceilings: xv copied to dv by torch (where it imports) and cupy."""
    cp = c.cp
    check = lambda: equal(cp, dv, xv)  # noqa: E731
    reset = lambda: cp.add(xv, 1, out=dv)  # noqa: E731 - every value wrong
    if torch:
        tx, tdst = torch.from_dlpack(xv), torch.from_dlpack(dv)
        add("copy_torch", lambda: tdst.copy_(tx), check, reset)
    add("copy_cupy", lambda: cp.copyto(dv, xv), check, reset)


def child_select(c, group, log2n):
    """A selection by flags (x > 0, about half kept): warp, CUB's
    DeviceSelect::Flagged and torch.masked_select, checked as numpy's
    x[flags] with its count, then timed with the copies (the copy moves n
    elements; a selection reads n elements and n flags and writes half).
    A partition (DevicePartition::Flagged) is checked as x[flags] then the
    rest reversed, and writes all n. select_if compares in the kernel
    instead of reading flags (CUB's DeviceSelect::If, torch's mask computed
    in the call), checked as the same x[x > 0]."""
    cp = c.cp
    op, ty, _ = GROUPS[group]
    sizes = sizes_of(group, log2n)
    big = 1 << max(sizes)
    rng = cp.random.default_rng(sum(map(ord, group)))
    x = rng.integers(-1000, 1001, big, dtype=cp.int32).astype(DTYPES[ty])
    if op == "unique":
        # Runs of 2 on average: each element repeats the one before or adds 1.
        x = cp.cumsum(rng.integers(0, 2, big, dtype=cp.int32), dtype=cp.int32).astype(DTYPES[ty])
        flags = cp.concatenate([cp.ones(1, dtype=cp.int8), (x[1:] != x[:-1]).astype(cp.int8)])
    else:
        flags = (x > SELECT_IF_THRESHOLD).astype(cp.int8)
    out, dst = cp.empty_like(x), cp.empty_like(x)
    count = cp.zeros(1, dtype=cp.int64)
    count32 = cp.zeros(1, dtype=cp.int32)  # cub_select_gt_f32's int count
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, fv, outv, dv = x[:n], flags[:n], out[:n], dst[:n]
        want = xv[fv != 0]
        if op == "partition":
            want = cp.concatenate([want, xv[fv == 0][::-1]])
        kept = int((fv != 0).sum())

        def check(outv=outv, want=want, kept=kept):
            got = int(count[0])
            if got != kept:
                return f"count {got} != {kept}"
            return equal(cp, outv[:want.size], want)

        def reset(outv=outv):
            count.fill(-1)
            outv.fill(7)
        add = measurer(c, group, log2, check, reset)

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv, outv=outv, fv=fv: warp(xv, outv, fv, count))
        if op == "unique":
            add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(outv),
                    device_bench.ptr(count), ctypes.c_longlong(n))
        elif op == "select_if":
            def check32(outv=outv, want=want, kept=kept):
                got = int(count32[0])
                if got != kept:
                    return f"count {got} != {kept}"
                return equal(cp, outv[:want.size], want)

            def reset32(outv=outv):
                count32.fill(-1)
                outv.fill(7)
            add_cub(c, group, log2,
                    lambda impl, launch: add(impl, launch, check=check32, reset=reset32),
                    device_bench.ptr(xv), device_bench.ptr(outv), device_bench.ptr(count32),
                    ctypes.c_longlong(n), ctypes.c_float(SELECT_IF_THRESHOLD))
        else:
            add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(fv),
                    device_bench.ptr(outv), device_bench.ptr(count), ctypes.c_longlong(n))
        if torch and op == "unique":
            tx, tout, tcount = (torch.from_dlpack(a) for a in (xv, outv, count))

            def consecutive(tx=tx, tout=tout, tcount=tcount):
                kept = torch.unique_consecutive(tx)
                tout[:kept.numel()].copy_(kept)
                tcount.fill_(kept.numel())
            add("torch", consecutive)
        elif torch and op == "select_if":
            tx, tout, tcount = (torch.from_dlpack(a) for a in (xv, outv, count))

            def compared(tx=tx, tout=tout, tcount=tcount):
                kept = torch.masked_select(tx, tx > SELECT_IF_THRESHOLD)
                tout[:kept.numel()].copy_(kept)
                tcount.fill_(kept.numel())
            add("torch", compared)
        elif torch:
            tx, tf = torch.from_dlpack(xv), torch.from_dlpack(fv).bool()
            tout, tcount = torch.from_dlpack(outv), torch.from_dlpack(count)

            def masked(tx=tx, tf=tf, tout=tout, tcount=tcount):
                kept = torch.masked_select(tx, tf)
                tout[:kept.numel()].copy_(kept)
                if op == "partition":
                    tout[kept.numel():tx.numel()].copy_(torch.masked_select(tx, ~tf).flip(0))
                tcount.fill_(kept.numel())
            add("torch", masked)
        add_copies(c, add, torch, xv, dv)
        time_size(c, group)


def child_rle(c, group, log2n):
    """A run-length encoding of runs of 2 on average (unique_i32's data):
    warp, CUB's DeviceRunLengthEncode::Encode (int lengths) and
    torch.unique_consecutive with counts, checked against cupy's heads
    (each run's first element, the distances between run starts as the
    lengths, n ending the last), timed with the copies of the input."""
    cp = c.cp
    _, ty, _ = GROUPS[group]
    sizes = sizes_of(group, log2n)
    big = 1 << max(sizes)
    rng = cp.random.default_rng(sum(map(ord, group)))
    x = cp.cumsum(rng.integers(0, 2, big, dtype=cp.int32), dtype=cp.int32).astype(DTYPES[ty])
    unique, counts, dst = cp.empty_like(x), cp.empty(big, dtype=cp.int32), cp.empty_like(x)
    num_runs = cp.zeros(1, dtype=cp.int64)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, uv, cv, dv = x[:n], unique[:n], counts[:n], dst[:n]
        starts = cp.flatnonzero(cp.concatenate([cp.ones(1, dtype=cp.bool_), xv[1:] != xv[:-1]]))
        want_unique = xv[starts]
        want_counts = cp.diff(cp.concatenate([starts, cp.array([n], dtype=starts.dtype)])).astype(cp.int32)
        runs = int(starts.size)

        def check(uv=uv, cv=cv, want_unique=want_unique, want_counts=want_counts, runs=runs):
            got = int(num_runs[0])
            if got != runs:
                return f"num_runs {got} != {runs}"
            return (equal(cp, uv[:runs], want_unique, "unique values")
                    or equal(cp, cv[:runs], want_counts, "counts"))

        def reset(uv=uv, cv=cv):
            num_runs.fill(-1)
            uv.fill(7)
            cv.fill(-7)
        add = measurer(c, group, log2, check, reset)

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv, uv=uv, cv=cv: warp(xv, uv, cv, num_runs))
        add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(uv), device_bench.ptr(cv),
                device_bench.ptr(num_runs), ctypes.c_longlong(n))
        if torch:
            tx, tu, tc, tn = (torch.from_dlpack(a) for a in (xv, uv, cv, num_runs))

            def consecutive(tx=tx, tu=tu, tc=tc, tn=tn):
                first, lengths = torch.unique_consecutive(tx, return_counts=True)
                tu[:first.numel()].copy_(first)
                tc[:lengths.numel()].copy_(lengths)
                tn.fill_(first.numel())
            add("torch", consecutive)
        add_copies(c, add, torch, xv, dv)
        time_size(c, group)


def child_histogram(c, group, log2n):
    """A 256-bin histogram of uniform bytes: warp (the bins counted in
    workgroup memory first), CUB's DeviceHistogram::HistogramEven and
    torch.bincount, checked against cupy's bincount, timed with the
    copies of the samples."""
    cp = c.cp
    sizes = sizes_of(group, log2n)
    rng = cp.random.default_rng(sum(map(ord, group)))
    x = rng.integers(0, 256, 1 << max(sizes), dtype=cp.int32).astype(cp.uint8)
    hist, dst = cp.zeros(HISTOGRAM_BINS, dtype=cp.int32), cp.empty_like(x)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, dv = x[:n], dst[:n]
        want = cp.bincount(xv, minlength=HISTOGRAM_BINS).astype(cp.int32)
        add = measurer(c, group, log2, lambda want=want: equal(cp, hist, want),
                       lambda: hist.fill(-1))

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv: warp(xv, hist))
        add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(hist),
                ctypes.c_longlong(n))
        if torch:
            tx, th = torch.from_dlpack(xv), torch.from_dlpack(hist)
            add("torch", lambda tx=tx, th=th: th.copy_(torch.bincount(tx, minlength=HISTOGRAM_BINS)))
        add_copies(c, add, torch, xv, dv)
        time_size(c, group)


def child_scan_by_key(c, group, log2n):
    """An inclusive sum by key (i32 values in [-1000, 1000], i32 keys that
    start a new run with probability 1/32): warp and CUB's
    DeviceScan::InclusiveSumByKey, checked against cupy's int64 cumsum
    less its value before each run (every prefix of n is the first n of
    the whole scan), timed with the copies of the values (the op reads
    keys and values and writes the values)."""
    cp = c.cp
    _, ty, _ = GROUPS[group]
    sizes = sizes_of(group, log2n)
    big = 1 << max(sizes)
    rng = cp.random.default_rng(sum(map(ord, group)))
    x = rng.integers(-1000, 1001, big, dtype=cp.int32)
    heads = rng.random(big) < 1 / 32
    heads[0] = True
    keys = cp.cumsum(heads, dtype=cp.int32)
    total = cp.cumsum(x, dtype=cp.int64)
    run = cp.cumsum(heads, dtype=cp.int64) - 1
    before = (total - x)[cp.flatnonzero(heads)]
    scanned = (total - before[run]).astype(cp.int32)
    del total, run, before
    out, dst = cp.empty_like(x), cp.empty_like(x)
    warp, warp_error, _ = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, kv, outv, dv = x[:n], keys[:n], out[:n], dst[:n]
        check = lambda outv=outv, want=scanned[:n]: equal(cp, outv, want)  # noqa: E731
        reset = lambda outv=outv, want=scanned[:n]: cp.add(want, 1, out=outv)  # noqa: E731
        add = measurer(c, group, log2, check, reset)

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv, outv=outv, kv=kv: warp(xv, outv, kv))
        add_cub(c, group, log2, add, device_bench.ptr(kv), device_bench.ptr(xv),
                device_bench.ptr(outv), ctypes.c_longlong(n))
        c.report(group, f"torch@{log2}", error="torch has no scan by key")
        add_copies(c, add, None, xv, dv)
        time_size(c, group)


def child_segmented_reduce(c, group, log2n):
    """A segmented sum of f32 integers in [-4, 4] over segments of random
    lengths (SEGMENT_LENGTHS: uniform in [0, 2L], i32 offsets; at each n
    the segments that start before n, the last cut at n): warp, CUB's
    DeviceSegmentedReduce::Sum and torch.segment_reduce, checked against
    cupy's int64 cumsum at the offsets (every sum is exact in any order),
    timed with the copies of the input."""
    cp = c.cp
    _, ty, _ = GROUPS[group]
    sizes = sizes_of(group, log2n)
    big = 1 << max(sizes)
    rng = cp.random.default_rng(sum(map(ord, group)))
    xi = rng.integers(-4, 5, big, dtype=cp.int32)
    x = xi.astype(DTYPES[ty])
    mean = SEGMENT_LENGTHS[group]
    # Twice the segments n needs on average: they reach past the largest n.
    lengths = rng.integers(0, 2 * mean + 1, 2 * (big // mean) + 2, dtype=cp.int64)
    starts = cp.concatenate([cp.zeros(1, cp.int64), cp.cumsum(lengths)])
    total = cp.concatenate([cp.zeros(1, cp.int64), cp.cumsum(xi, dtype=cp.int64)])
    out, dst = cp.empty(starts.size, dtype=x.dtype), cp.empty_like(x)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        offsets = cp.concatenate([starts[starts < n], cp.full(1, n, cp.int64)]).astype(cp.int32)
        segments = offsets.size - 1
        xv, outv, dv = x[:n], out[:segments], dst[:n]
        want = (total[offsets[1:]] - total[offsets[:-1]]).astype(x.dtype)
        check = lambda outv=outv, want=want: equal(cp, outv, want)  # noqa: E731
        reset = lambda outv=outv, want=want: cp.add(want, 1, out=outv)  # noqa: E731
        add = measurer(c, group, log2, check, reset)

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv, outv=outv, offsets=offsets: warp(xv, outv, offsets))
        add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(outv),
                device_bench.ptr(offsets), ctypes.c_longlong(segments))
        if torch:
            tx, tout = torch.from_dlpack(xv), torch.from_dlpack(outv)
            toff = torch.from_dlpack(offsets).long()
            add("torch", lambda tx=tx, tout=tout, toff=toff: tout.copy_(
                torch.segment_reduce(tx, "sum", offsets=toff, unsafe=True)))
        add_copies(c, add, torch, xv, dv)
        time_size(c, group)


def child_radix_sort(c, group, log2n):
    """An ascending sort of uniform i32 keys over their whole range (signed
    order): warp, CUB's DeviceRadixSort::SortKeys and torch.sort(stable=True),
    checked against cupy's sort, timed with the copies of the keys."""
    cp = c.cp
    _, ty, _ = GROUPS[group]
    sizes = sizes_of(group, log2n)
    big = 1 << max(sizes)
    rng = cp.random.default_rng(sum(map(ord, group)))
    info = cp.iinfo(DTYPES[ty])
    x = rng.integers(info.min, info.max, big, dtype=DTYPES[ty], endpoint=True)
    out, dst = cp.empty_like(x), cp.empty_like(x)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, outv, dv = x[:n], out[:n], dst[:n]
        want = cp.sort(xv)
        check = lambda outv=outv, want=want: equal(cp, outv, want)  # noqa: E731
        reset = lambda outv=outv: outv.fill(7)  # noqa: E731
        add = measurer(c, group, log2, check, reset)

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv, outv=outv: warp(xv, outv))
        add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(outv),
                ctypes.c_longlong(n))
        if torch:
            tx, tout = torch.from_dlpack(xv), torch.from_dlpack(outv)
            add("torch", lambda tx=tx, tout=tout: tout.copy_(torch.sort(tx, stable=True).values))
        add_copies(c, add, torch, xv, dv)
        time_size(c, group)


def child_group(c, group, log2n):
    cp, np = c.cp, c.np
    op, ty, exclusive = GROUPS[group]
    if op in ("select", "select_if", "partition", "unique"):
        return child_select(c, group, log2n)
    if op == "histogram":
        return child_histogram(c, group, log2n)
    if op == "rle":
        return child_rle(c, group, log2n)
    if op == "scan_by_key":
        return child_scan_by_key(c, group, log2n)
    if op == "radix_sort":
        return child_radix_sort(c, group, log2n)
    if op == "segmented_reduce":
        return child_segmented_reduce(c, group, log2n)
    dtype = DTYPES[ty]
    sizes = sizes_of(group, log2n)
    big = 1 << max(sizes)
    rng = cp.random.default_rng(sum(map(ord, group)))
    xi = rng.integers(-1000, 1001, big, dtype=cp.int32) if ty == "i32" else rng.integers(-4, 5, big, dtype=cp.int32)
    x = xi if ty == "i32" else xi.astype(dtype)
    out = cp.empty(1 if op == "reduce" else big, dtype=dtype)
    dst = cp.empty_like(x)
    if op == "scan":
        # Every prefix of n is the first n of the whole scan. i32 wraps as
        # the kernels do; floats stay far below 2^24, exact in f32.
        ref = cp.cumsum(xi, dtype=cp.int64)
        if exclusive:
            ref -= xi
        assert ty == "i32" or int(cp.abs(ref).max()) < (1 << 24)
        scanned = ref.astype(dtype)
        del ref
    warp, warp_error, torch = implementations(c, group)
    tdt = getattr(torch, DTYPES[ty]) if torch else None
    triton = device_bench.triton_or_report(c, group) if torch else None
    read = cp.RawKernel(READ_SOURCE, "read_words") if op == "reduce" else None
    words = cp.zeros(1, dtype=cp.uint32)

    for log2 in sizes:
        n = 1 << log2
        xv, dv = x[:n], dst[:n]
        outv = out if op == "reduce" else out[:n]
        want = cp.sum(xi[:n], dtype=cp.int64).reshape(1).astype(dtype) if op == "reduce" else scanned[:n]
        check = lambda outv=outv, want=want: equal(cp, outv, want)  # noqa: E731
        reset = lambda outv=outv, want=want: cp.add(want, 1, out=outv)  # noqa: E731 - every value wrong
        add = measurer(c, group, log2, check, reset)

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv, outv=outv: warp(xv, outv))
        add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(outv),
                ctypes.c_longlong(n))
        if torch:
            tx, tout = torch.from_dlpack(xv), torch.from_dlpack(outv)
            if op == "reduce":
                add("torch", lambda tx=tx, tout=tout: torch.sum(tx, 0, keepdim=True, dtype=tdt, out=tout))
            elif exclusive:
                add("torch", lambda tx=tx, tout=tout: torch.sub(torch.cumsum(tx, 0, dtype=tdt), tx, out=tout))
            else:
                add("torch", lambda tx=tx, tout=tout: torch.cumsum(tx, 0, dtype=tdt, out=tout))
        else:
            c.report(group, f"torch@{log2}", error="torch not available")
        if torch and triton:
            tx, tout = torch.from_dlpack(xv), torch.from_dlpack(outv)
            add("triton", device_bench.triton_sum(triton, tx, tout, n) if op == "reduce"
                else device_bench.triton_scan(triton, tx, tout, n, exclusive, tdt))
        add_copies(c, add, torch, xv, dv)
        if read is not None:
            n4 = n * SIZES[ty] // 16
            blocks = max(1, min(c.sms * 8, -(-n4 // 256)))
            total = int(xv.view(cp.uint32).sum(dtype=cp.uint64)) & 0xFFFFFFFF
            add("read", lambda xv=xv, n4=n4, blocks=blocks: read((blocks,), (256,), (xv, np.int64(n4), words)),
                lambda total=total: None if int(words[0]) == total else f"{int(words[0])} != {total}",
                lambda: words.fill(0))
        time_size(c, group)


def run_child(args):
    c = device_bench.Ctx(args)
    gpu_timing.HOLD_US = args.hold_us
    log2n = [int(v) for v in args.log2n.split(",")]
    if args.child == "compile":
        child_compile(c, args.only.split(","), log2n)
    else:
        child_group(c, args.child, log2n)


# --------------------------------------------------------------------------
# Parent side: nvcc and the warp compiles, each group, the table, JSON.
# --------------------------------------------------------------------------

def child_cmd(args, child, so):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", child, "--only", ",".join(args.groups),
           "--log2n", args.log2n, "--iters", str(args.iters), "--warmup", str(args.warmup),
           "--hang", str(args.hang), "--hold-us", str(args.hold_us), "--chip", args.chip]
    return cmd + (["--baselines-so", so] if so else [])


def summarize(group, log2, by_impl, note):
    op, ty, exclusive = GROUPS[group]
    n = 1 << log2
    # Bytes read and written: a scan by key reads its keys too; a
    # segmented reduction reads the input and an i32 offset per segment
    # and writes a result per segment (n / L of them, about).
    moved = n * SIZES[ty] * (1 if op in ("reduce", "histogram") else 3 if op == "scan_by_key" else 2)
    label = op if op != "scan" else f"scan_{'excl' if exclusive else 'incl'}"
    if op == "segmented_reduce":
        mean = SEGMENT_LENGTHS[group]
        moved = n * SIZES[ty] + n // mean * (4 + SIZES[ty])
        label = f"segsum_l{mean}"
    if group in CLUSTERS:
        label += f"_c{CLUSTERS[group]}"
    entry = {"group": group, "op": label,
             "type": ty, "log2n": log2, "n": n, "bytes": moved}
    for impl in IMPLS:
        result = by_impl.get(f"{impl}@{log2}", {})
        if "ms" in result:
            entry[f"{impl}_ms"] = result["ms"]
            entry[f"{impl}_host_us"] = result["host_us"]
            entry[f"{impl}_call_us"] = result["call_us"]
        elif "error" in result:
            entry.setdefault("errors", {})[impl] = result["error"]
        elif note and impl == "warp":
            entry.setdefault("errors", {})[impl] = "no result: the group's process failed"
    copies = [entry[k] for k in ("copy_cupy_ms", "copy_torch_ms") if k in entry]
    if copies:
        entry["copy_gbps"] = 2 * n * SIZES[ty] / min(copies) / 1e6
    if "read_ms" in entry:
        entry["read_gbps"] = n * SIZES[ty] / entry["read_ms"] / 1e6
    if "warp_ms" in entry:
        t = entry["warp_ms"]
        entry["gbps"] = moved / t / 1e6
        for ceiling in ("copy", "read"):
            if f"{ceiling}_gbps" in entry:
                entry[f"pct_{ceiling}"] = 100 * entry["gbps"] / entry[f"{ceiling}_gbps"]
        for base in ("cub", "torch", "triton"):
            if f"{base}_ms" in entry:
                entry[f"ratio_{base}"] = entry[f"{base}_ms"] / t
    return entry


HEADER = (f"{'op':10s} {'type':4s} {'n':>5s} {'warp us':>9s} {'GB/s':>6s} {'%copy':>6s} {'%read':>6s} "
          f"{'cub/warp':>8s} {'torch/warp':>10s} {'triton/warp':>11s} {'host us':>8s}")


def fmt(e):
    def col(key, width, spec):
        return f"{e[key]:{width}{spec}}" if key in e else f"{'-':>{width}s}"
    line = f"{e['op']:10s} {e['type']:4s} {'2^' + str(e['log2n']):>5s} "
    if "warp_ms" not in e:
        line += "warp MISMATCH" if e.get("errors", {}).get("warp", "").startswith("wrong result") else "warp FAILED"
    else:
        line += (f"{e['warp_ms'] * 1e3:9.1f} {e['gbps']:6.0f} {col('pct_copy', 6, '.1f')} {col('pct_read', 6, '.1f')} "
                 f"{col('ratio_cub', 8, '.3f')} {col('ratio_torch', 10, '.3f')} {col('ratio_triton', 11, '.3f')} "
                 f"{e['warp_host_us']:8.1f}")
    if e.get("errors"):
        line += "  errors: " + json.dumps(e["errors"])[:400]
    return line


def dry_run(args):
    problems = []
    src = os.path.join(HERE, "device", "baselines.cu")
    if not os.path.exists(src):
        problems.append(f"{src} missing")
    else:
        text = open(src).read()
        for group in args.groups:
            if not re.search(r"EXPORT int " + cub_name(group) + r"\(", text):
                problems.append(f"{group}: no {cub_name(group)} in {src}")
    try:
        import_device()
        print("warp_mlir.device imports")
    except Exception as error:  # noqa: BLE001 - it may not exist yet
        print(f"note: warp_mlir.device does not import here ({type(error).__name__}: {error}); "
              "the warp columns would be empty")
    log2n = [int(v) for v in args.log2n.split(",")]
    print("would run compile (every warp op once at every n) while nvcc builds the baselines")
    for group in args.groups:
        impls = IMPLS if GROUPS[group][0] == "reduce" else IMPLS[:-1]
        print(f"would run {group} at n = {', '.join(f'2^{k}' for k in sizes_of(group, log2n))}: "
              f"{', '.join(impls)} ({cub_name(group)})")
    if problems:
        print("\n".join(problems))
        return 1
    print("dry run: plan OK")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json")
    parser.add_argument("--only", help="comma-separated groups: " + ", ".join(GROUPS))
    parser.add_argument("--log2n", default=",".join(map(str, LOG2N)), help="comma-separated log2 sizes")
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--iters", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--timeout", type=int, default=120, help="seconds per group")
    parser.add_argument("--hang", type=float, default=10.0,
                        help="seconds a launch may take before it counts as hung")
    parser.add_argument("--hold-us", type=int, default=HOLD_US,
                        help="microseconds the timer holds the stream while a launch is enqueued")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--skip", default="", help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--baselines-so", help="the CUB baselines library built earlier (nvcc -O3 -arch=sm_90 "
                        "-shared -Xcompiler -fPIC benchmarks/device/baselines.cu); default: build it")
    args = parser.parse_args()
    args.groups = args.only.split(",") if args.only else list(GROUPS)
    unknown = [g for g in args.groups if g not in GROUPS]
    if unknown:
        sys.exit(f"unknown groups {unknown}: one of {', '.join(GROUPS)}")
    if args.child:
        run_child(args)
        return 0
    if args.dry_run:
        return dry_run(args)
    log2n = [int(v) for v in args.log2n.split(",")]
    entries, compile_results, notes = [], {}, {}
    t_all = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["WARP_MLIR_CACHE_DIR"] = os.path.join(tmp, "warp_mlir_cache")  # the children's
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # nvcc while warp compiles
            build = (pool.submit(lambda: args.baselines_so) if args.baselines_so else
                     pool.submit(device_bench.build_baselines,
                                 argparse.Namespace(ptx_dir=os.path.join(HERE, "device")), tmp))
            compile_results, note = device_bench.run_isolated(child_cmd(args, "compile", None),
                                                              max(args.timeout, 300))
            so = build.result()
        for group in args.groups:
            r = compile_results.get(group, {})
            if "first_ms" in r:
                later = r["first_ms"][1:]
                print(f"compile {group:14s} first call {r['first_ms'][0] / 1e3:.2f} s (cold cache)"
                      + (f", first call at each other n {min(later):.2f}-{max(later):.2f} ms" if later else ""))
            else:
                print(f"compile {group:14s} FAILED: {r.get('error', note)}")
        print(HEADER, flush=True)
        for group in args.groups:
            t0 = time.time()
            by_impl, note = device_bench.run_isolated(child_cmd(args, group, so), args.timeout)
            if note:
                notes[group] = note
            for log2 in sizes_of(group, log2n):
                entries.append(summarize(group, log2, by_impl, note))
                print(fmt(entries[-1]), flush=True)
            if note:
                print(f"{group}: {note}")
            print(f"{group}: {time.time() - t0:.0f} s", flush=True)
    print(f"total {time.time() - t_all:.0f} s")
    mismatches = [f"{e['group']} 2^{e['log2n']} {impl}: {error}" for e in entries
                  for impl, error in e.get("errors", {}).items() if error.startswith("wrong result")]
    warp_failures = [f"{e['group']} 2^{e['log2n']}" for e in entries if "warp_ms" not in e]
    host_bound = [f"{e['group']} 2^{e['log2n']} {impl} ({e[impl + '_host_us']:.0f} us)" for e in entries
                  for impl in IMPLS if e.get(f"{impl}_host_us", 0) > 0.9 * args.hold_us]
    if host_bound:
        print(f"note: host work per call near or over the timer's {args.hold_us} us hold at {', '.join(host_bound)}: "
              f"the time there may include host work; rerun with a larger --hold-us")
    for line in mismatches:
        print(f"MISMATCH {line}")
    if warp_failures:
        print(f"warp FAILED at {len(warp_failures)} of {len(entries)} sizes: {', '.join(warp_failures)}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": device_bench.meta(), "chip": args.chip, "log2n": log2n, "hold_us": args.hold_us,
                       "compile": compile_results, "notes": notes, "results": entries,
                       "mismatches": mismatches}, f, indent=1)
    return 1 if mismatches or warp_failures else 0


if __name__ == "__main__":
    sys.exit(main())
