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
  non_trivial_runs_i32    wd.non_trivial_runs(x, offsets=, lengths=, num_runs=)
                          vs cub::DeviceRunLengthEncode::NonTrivialRuns (int
                          offsets and lengths) and torch.unique_consecutive
                          with counts, those of 2 or more kept, on rle_i32's
                          data
  radix_sort_pairs_i32    wd.radix_sort(keys, values, out=, values_out=) vs
                          cub::DeviceRadixSort::SortPairs and torch.sort
                          with its indices gathering the values (radix_sort's
                          keys, each one's index as its i32 value)
  radix_sort_db_i32       wd.radix_sort(keys, out=alternate, double_buffer=True)
                          vs SortKeys on a cub::DoubleBuffer (the sorted keys
                          in either buffer; each launch first copies the
                          keys back into the first, the copy row's work)
  segmented_radix_sort_i32_l{32,4096}
                          wd.segmented_radix_sort(keys, offsets, out=) vs
                          cub::DeviceSegmentedRadixSort::SortKeys, radix_sort's
                          keys in segments drawn as segmented_sum's (fewer
                          iterations: SLOW_GROUPS)
  segmented_radix_sort_db_i32_l32
                          wd.segmented_radix_sort(keys, offsets, out=alternate,
                          double_buffer=True) vs SortKeys on a
                          cub::DoubleBuffer, segmented_radix_sort_i32_l32's
                          segments (each launch first copies the keys back
                          into the first buffer, as radix_sort_db_i32's)
  histogram_rgba_u8       wd.histogram(x, 256, channels=4, active=3) vs
                          cub::DeviceHistogram::MultiHistogramEven<4, 3> and
                          torch.bincount (n samples: n / 4 RGBA pixels of
                          histogram_u8's bytes, the first 3 channels counted)
  scan_combine_affine_i32 wd.scan((a, b), affine_then, out=(out_a, out_b)) vs
                          cub::DeviceScan::InclusiveScan over a zip iterator
                          of the two with the same functor: x -> a x + b
                          maps composed in order (a in {-1, 1}); torch has
                          no scan with a custom combiner. The timer's hold
                          is 10 ms here (GROUP_HOLD_US: warp's call builds
                          its combiner's text every time)
  scan_combine_by_key_i32 wd.scan((a, b), affine_then, keys=, equal=same_run,
                          out=) vs cub::DeviceScan::InclusiveScanByKey over
                          the zip iterators with the same functors:
                          scan_combine_affine_i32's pairs in segments of
                          keys that agree above their low 4 bits (run r's
                          keys 16 r + a random digit, the runs of 32 on
                          average as scan_by_key_i32's; == would see runs of
                          about 1); torch has no scan by key. Hold 10 ms
  histogram_range_u8_f32  wd.histogram_range(x, levels, out=) with float32
                          levels (CUB's LevelT apart from the samples') vs
                          cub::DeviceHistogram::HistogramRange with the same
                          levels, k^2 / 16 for k = 0..64 (64 bins, each
                          sample converted to float and searched among
                          them), and torch.bucketize then torch.bincount,
                          on histogram_u8's bytes
  histogram_even_u8_i32   wd.histogram_even(x, 100, 0, 250, level_dtype="int32",
                          out=) vs cub::DeviceHistogram::HistogramEven with
                          int levels (101 levels, 0 and 250: bin 2 v / 5,
                          bytes from 250 up not counted) and torch.bincount
                          of that bin (the others in a bin past the last),
                          on histogram_u8's bytes

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
    "non_trivial_runs_i32": ("non_trivial_runs", "i32", False),
    "radix_sort_pairs_i32": ("radix_sort_pairs", "i32", False),
    "radix_sort_db_i32": ("radix_sort_db", "i32", False),
    "segmented_radix_sort_i32_l32": ("segmented_radix_sort", "i32", False),
    "segmented_radix_sort_i32_l4096": ("segmented_radix_sort", "i32", False),
    "segmented_radix_sort_db_i32_l32": ("segmented_radix_sort_db", "i32", False),
    "histogram_rgba_u8": ("histogram_rgba", "u8", False),
    "scan_combine_affine_i32": ("scan_combine", "i32", False),
    "scan_combine_by_key_i32": ("scan_combine_by_key", "i32", False),
    "histogram_range_u8_f32": ("histogram_range", "u8", False),
    "histogram_even_u8_i32": ("histogram_even", "u8", False),
}
# A segmented op's mean segment length L (lengths uniform in [0, 2L]).
SEGMENT_LENGTHS = {"segmented_sum_f32_l32": 32, "segmented_sum_f32_l4096": 4096,
                   "segmented_radix_sort_i32_l32": 32, "segmented_radix_sort_i32_l4096": 4096,
                   "segmented_radix_sort_db_i32_l32": 32}
# Groups whose calls are long at the largest n: (iters, warmup, calls) at
# most, for --iters, --warmup and host_us's back-to-back calls (CALLS), so
# that the group stays within a few tens of seconds.
SLOW_GROUPS = {"segmented_radix_sort_i32_l32": (6, 1, 5), "segmented_radix_sort_i32_l4096": (12, 2, 10),
               "segmented_radix_sort_db_i32_l32": (6, 1, 5)}
# Groups whose warp call does more host work than --hold-us covers: the
# hold at least (microseconds) in their processes. scan with a combiner
# function builds the combiner's region text on every call (the plan
# cache's key), several milliseconds of Python.
GROUP_HOLD_US = {"scan_combine_affine_i32": 10000, "scan_combine_by_key_i32": 10000}
# The ops without a torch row (their copy row is cupy's alone).
NO_TORCH = ("scan_by_key", "radix_sort_db", "segmented_radix_sort", "segmented_radix_sort_db",
            "scan_combine", "scan_combine_by_key")
# The table's op column where the op's name is too long for it.
LABELS = {"non_trivial_runs": "nontrivial", "radix_sort_pairs": "sort_pairs", "radix_sort_db": "sort_db",
          "histogram_rgba": "hist_rgba", "scan_combine": "scan_affine", "scan_combine_by_key": "affine_key",
          "histogram_range": "hist_range", "histogram_even": "hist_even"}
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
# histogram_rgba_u8: pixels of RGBA_CHANNELS interleaved u8 samples, the
# first RGBA_ACTIVE of them counted (CUB's MultiHistogramEven<4, 3>).
RGBA_CHANNELS, RGBA_ACTIVE = 4, 3
# histogram_range_u8_f32's float32 levels: k^2 / 16 for k = 0..RANGE_BINS
# (exact in float32), so a byte v is in bin floor(4 sqrt(v)).
RANGE_BINS = 64
# histogram_even_u8_i32: EVEN_BINS bins over [0, EVEN_UPPER) in int32
# levels (a byte v < EVEN_UPPER is in bin v * EVEN_BINS // EVEN_UPPER).
EVEN_BINS, EVEN_UPPER = 100, 250
# scan_combine_by_key_i32: keys in one segment agree above their low
# KEY_DIGIT_BITS bits (same_run; baselines.cu's SameRun).
KEY_DIGIT_BITS = 4


def affine_then(k, left, right):
    """scan_combine_affine_i32's combiner: (a, b) is x -> a x + b (i32,
    wrapping), the left map applied first (baselines.cu's AffineThen)."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


def same_run(k, p, q):
    """scan_combine_by_key_i32's key equality: p and q agree above their
    low KEY_DIGIT_BITS bits (arithmetic shifts; baselines.cu's SameRun)."""
    return (p >> KEY_DIGIT_BITS) == (q >> KEY_DIGIT_BITS)


# The CUB baseline kernel of each op whose name is not cub_{op}_{type}
# ({} stands for the element type).
CUB_NAMES = {
    "select_if": "cub_select_gt_{}",
    "select": "cub_select_flagged_{}",
    "partition": "cub_partition_flagged_{}",
    "unique": "cub_unique_{}",
    "rle": "cub_rle_{}",
    "histogram": "cub_histogram_{}",
    "scan_by_key": "cub_scan_by_key_{}",
    "radix_sort": "cub_radix_sort_keys_{}",
    "segmented_reduce": "cub_segmented_sum_{}",
    "scan_combine": "cub_scan_combine_affine_{}",
    "histogram_range": "cub_histogram_range_{}_f32",
    "histogram_even": "cub_histogram_even_{}_i32",
    "reduce": "cub_sum_{}",
}


def cub_name(group):
    op, ty, exclusive = GROUPS[group]
    if op == "scan":
        return f"cub_scan_{'excl' if exclusive else 'incl'}_{ty}"
    return CUB_NAMES.get(op, f"cub_{op}_{{}}").format(ty)


def import_device():
    """warp_mlir.device: the repository's python/ where this runs from
    benchmarks/ and the checkout has a library for it (its build's, or
    WARP_MLIR_LIBRARY), else, or with WARP_TEST_INSTALLED=1 (as the tests
    take it), the installed package (the bundle's wheel: a GPU host's
    copy of the checkout has no build)."""
    root = os.path.dirname(HERE)
    repo_python = os.path.join(root, "python")
    built = (os.environ.get("WARP_MLIR_LIBRARY") or
             os.path.exists(os.path.join(root, "build", "lib", "libWarpCAPI.so")) or
             os.path.exists(os.path.join(repo_python, "warp_mlir", "_lib", "libWarpCAPI.so")))
    if (os.environ.get("WARP_TEST_INSTALLED") != "1" and built and
            os.path.isdir(os.path.join(repo_python, "warp_mlir")) and repo_python not in sys.path):
        sys.path.insert(0, repo_python)
    import warp_mlir.device as wd
    return wd


def warp_op(wd, group, chip):
    """The warp call of `group`: f(x, out), f(x, out, flags, count) for a
    selection, f(x, unique, counts, num_runs) for a run-length encoding,
    f(x, out, keys) for a scan by key, f(x, out, offsets) for a segmented
    reduction or sort, f(x, offsets, lengths, num_runs) for the non-trivial
    runs, f(keys, out, values, values_out) for a sort of pairs, f(keys,
    alternate) for the double-buffer sort (returns the buffer that holds
    the sorted keys; segmented: f(keys, alternate, offsets)), f(a, b,
    out_a, out_b) for the affine scan (by key: f(a, b, out_a, out_b,
    keys)), f(x, levels, hist) for the range histogram, f(x, hist) for the
    even one."""
    op, _, exclusive = GROUPS[group]
    if op == "non_trivial_runs":
        return lambda x, offsets, lengths, num_runs: wd.non_trivial_runs(
            x, offsets=offsets, lengths=lengths, num_runs=num_runs, chip=chip)
    if op == "radix_sort_pairs":
        return lambda x, out, values, values_out: wd.radix_sort(
            x, values, out=out, values_out=values_out, chip=chip)
    if op == "radix_sort_db":
        return lambda keys, alternate: wd.radix_sort(keys, out=alternate, double_buffer=True, chip=chip)
    if op == "segmented_radix_sort":
        return lambda x, out, offsets: wd.segmented_radix_sort(x, offsets, out=out, chip=chip)
    if op == "segmented_radix_sort_db":
        return lambda keys, alternate, offsets: wd.segmented_radix_sort(
            keys, offsets, out=alternate, double_buffer=True, chip=chip)
    if op == "histogram_rgba":
        return lambda x, hist: wd.histogram(x, HISTOGRAM_BINS, out=hist, channels=RGBA_CHANNELS,
                                            active=RGBA_ACTIVE, chip=chip)
    if op == "scan_combine":
        return lambda a, b, out_a, out_b: wd.scan((a, b), affine_then, out=(out_a, out_b), chip=chip)
    if op == "scan_combine_by_key":
        return lambda a, b, out_a, out_b, keys: wd.scan((a, b), affine_then, out=(out_a, out_b), keys=keys,
                                                        equal=same_run, chip=chip)
    if op == "histogram_range":
        return lambda x, levels, hist: wd.histogram_range(x, levels, out=hist, chip=chip)
    if op == "histogram_even":
        return lambda x, hist: wd.histogram_even(x, EVEN_BINS, 0, EVEN_UPPER, out=hist, level_dtype="int32",
                                                 chip=chip)
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
        if GROUPS[group][0] in ("segmented_radix_sort", "segmented_radix_sort_db"):
            # segments of L (a block each)
            call = lambda x, out, call=call, mean=SEGMENT_LENGTHS[group]: call(  # noqa: E731
                x, out, cp.arange(0, x.size + 1, mean, dtype=cp.int32))
        if GROUPS[group][0] == "non_trivial_runs":
            offsets, lengths = cp.zeros(x.size // 2, dtype=cp.int32), cp.zeros(x.size // 2, dtype=cp.int32)
            num_runs = cp.zeros(1, dtype=cp.int64)
            call = lambda x, out, call=call, offsets=offsets, lengths=lengths, num_runs=num_runs: \
                call(x, offsets, lengths, num_runs)  # noqa: E731
        if GROUPS[group][0] in ("radix_sort_pairs", "scan_combine"):
            values, values_out = cp.zeros_like(x), cp.zeros_like(x)
            call = lambda x, out, call=call, values=values, values_out=values_out: \
                call(x, out, values[:x.size], values_out[:x.size])  # noqa: E731
        if GROUPS[group][0] == "histogram_rgba":
            hist = cp.zeros((RGBA_ACTIVE, HISTOGRAM_BINS), dtype=cp.int32)
            call = lambda x, out, call=call, hist=hist: call(x, hist)  # noqa: E731
        if GROUPS[group][0] == "scan_combine_by_key":  # one segment of everything
            values, values_out, keys = cp.zeros_like(x), cp.zeros_like(x), cp.zeros_like(x)
            call = lambda x, out, call=call, values=values, values_out=values_out, keys=keys: \
                call(x, out, values[:x.size], values_out[:x.size], keys[:x.size])  # noqa: E731
        if GROUPS[group][0] == "histogram_range":
            levels, hist = range_levels(cp), cp.zeros(RANGE_BINS, dtype=cp.int32)
            call = lambda x, out, call=call, levels=levels, hist=hist: call(x, levels, hist)  # noqa: E731
        if GROUPS[group][0] == "histogram_even":
            hist = cp.zeros(EVEN_BINS, dtype=cp.int32)
            call = lambda x, out, call=call, hist=hist: call(x, hist)  # noqa: E731

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
    calls = getattr(c.args, "calls", CALLS)
    launch()
    c.wait()
    t0 = time.perf_counter()
    for _ in range(calls):
        launch()
    t1 = time.perf_counter()
    c.wait()
    return (t1 - t0) / calls * 1e6, (time.perf_counter() - t0) / calls * 1e6


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


def run_keys(c, group, log2n):
    """The group's sizes and keys in runs of 2 on average (a running sum
    of random 0s and 1s, as many as its largest size)."""
    cp = c.cp
    _, ty, _ = GROUPS[group]
    sizes = sizes_of(group, log2n)
    rng = cp.random.default_rng(sum(map(ord, group)))
    steps = rng.integers(0, 2, 1 << max(sizes), dtype=cp.int32)
    return sizes, cp.cumsum(steps, dtype=cp.int32).astype(DTYPES[ty])


def run_starts(cp, x):
    """The positions where a run of equal keys starts in `x`."""
    return cp.flatnonzero(cp.concatenate([cp.ones(1, dtype=cp.bool_), x[1:] != x[:-1]]))


def time_runs(c, group, log2, warp, warp_error, torch, xv, dv, outs, num_runs, wants, names,
              torch_runs):
    """Times a run-length op at one size: warp (`warp(xv, *outs, num_runs)`),
    CUB (the same operands and n) and torch (`torch_runs(tx)`: the runs'
    two output arrays), each checked against `wants` (the first
    len(wants[0]) elements of `outs`, then the count), with the copies of
    the input."""
    cp = c.cp
    runs = int(wants[0].size)

    def check():
        got = int(num_runs[0])
        if got != runs:
            return f"num_runs {got} != {runs}"
        return (equal(cp, outs[0][:runs], wants[0], names[0])
                or equal(cp, outs[1][:runs], wants[1], names[1]))

    def reset():
        num_runs.fill(-1)
        for out in outs:
            out.fill(-7)
    add = measurer(c, group, log2, check, reset)
    add_warp(c, group, log2, add, warp, warp_error, lambda: warp(xv, *outs, num_runs))
    add_cub(c, group, log2, add, *(device_bench.ptr(a) for a in (xv, *outs, num_runs)),
            ctypes.c_longlong(1 << log2))
    if torch:
        tx, ta, tb, tn = (torch.from_dlpack(a) for a in (xv, *outs, num_runs))

        def torch_call():
            first, second = torch_runs(torch, tx)
            ta[:first.numel()].copy_(first)
            tb[:second.numel()].copy_(second)
            tn.fill_(first.numel())
        add("torch", torch_call)
    add_copies(c, add, torch, xv, dv)
    time_size(c, group)


def consecutive_runs(torch, tx):
    """torch's run-length encoding: each run's value and length."""
    return torch.unique_consecutive(tx, return_counts=True)


def non_trivial_runs(torch, tx):
    """torch's runs of two or more: each one's offset and length."""
    _, counts = torch.unique_consecutive(tx, return_counts=True)
    kept = counts >= 2
    return (torch.cumsum(counts, 0) - counts)[kept], counts[kept]


def child_rle(c, group, log2n):
    """A run-length encoding of runs of 2 on average (unique_i32's data):
    warp, CUB's DeviceRunLengthEncode::Encode (int lengths) and
    torch.unique_consecutive with counts, checked against cupy's heads
    (each run's first element, the distances between run starts as the
    lengths, n ending the last), timed with the copies of the input."""
    cp = c.cp
    sizes, x = run_keys(c, group, log2n)
    big = 1 << max(sizes)
    unique, counts, dst = cp.empty_like(x), cp.empty(big, dtype=cp.int32), cp.empty_like(x)
    num_runs = cp.zeros(1, dtype=cp.int64)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, uv, cv, dv = x[:n], unique[:n], counts[:n], dst[:n]
        starts = run_starts(cp, xv)
        want_unique = xv[starts]
        want_counts = cp.diff(cp.concatenate([starts, cp.array([n], dtype=starts.dtype)])).astype(cp.int32)
        time_runs(c, group, log2, warp, warp_error, torch, xv, dv, (uv, cv), num_runs,
                  (want_unique, want_counts), ("unique values", "counts"), consecutive_runs)


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


def segment_starts(cp, rng, group, big):
    """The starts of random segments (lengths uniform in [0, 2L], L the
    group's SEGMENT_LENGTHS), twice as many as `big` elements need on
    average, so that they reach past it."""
    mean = SEGMENT_LENGTHS[group]
    lengths = rng.integers(0, 2 * mean + 1, 2 * (big // mean) + 2, dtype=cp.int64)
    return cp.concatenate([cp.zeros(1, cp.int64), cp.cumsum(lengths)])


def segment_offsets(cp, starts, n):
    """The i32 offsets of the segments over n elements (those that start
    before n, the last cut at n) and how many segments they are."""
    offsets = cp.concatenate([starts[starts < n], cp.full(1, n, cp.int64)]).astype(cp.int32)
    return offsets, offsets.size - 1


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
    starts = segment_starts(cp, rng, group, big)
    total = cp.concatenate([cp.zeros(1, cp.int64), cp.cumsum(xi, dtype=cp.int64)])
    out, dst = cp.empty(starts.size, dtype=x.dtype), cp.empty_like(x)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        offsets, segments = segment_offsets(cp, starts, n)
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


def uniform_keys(c, group, log2n):
    """The group's sizes, uniform keys of its element type over their whole
    range (as many as its largest size) and the generator that drew them
    (seeded by the group's name), for the group's other data."""
    cp = c.cp
    _, ty, _ = GROUPS[group]
    sizes = sizes_of(group, log2n)
    info = cp.iinfo(DTYPES[ty])
    rng = cp.random.default_rng(sum(map(ord, group)))
    return sizes, rng.integers(info.min, info.max, 1 << max(sizes), dtype=DTYPES[ty], endpoint=True), rng


def child_radix_sort(c, group, log2n):
    """An ascending sort of uniform i32 keys over their whole range (signed
    order): warp, CUB's DeviceRadixSort::SortKeys and torch.sort(stable=True),
    checked against cupy's sort, timed with the copies of the keys."""
    cp = c.cp
    sizes, x, _ = uniform_keys(c, group, log2n)
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


def child_radix_sort_pairs(c, group, log2n):
    """radix_sort_i32's keys with i32 values (each key's index): warp,
    CUB's DeviceRadixSort::SortPairs and torch.sort(stable=True) with the
    values gathered by its indices, checked against cupy's sort of the
    int64 pairs key << 32 | index (a stable sort's order), timed with the
    copies of the keys."""
    cp = c.cp
    sizes, x, _ = uniform_keys(c, group, log2n)
    big = 1 << max(sizes)
    values = cp.arange(big, dtype=cp.int32)
    out, values_out, dst = cp.empty_like(x), cp.empty_like(values), cp.empty_like(x)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, vv, outv, voutv, dv = x[:n], values[:n], out[:n], values_out[:n], dst[:n]
        pairs = cp.sort((xv.astype(cp.int64) << 32) | vv.astype(cp.int64))
        want_keys, want_values = (pairs >> 32).astype(cp.int32), (pairs & 0xFFFFFFFF).astype(cp.int32)
        del pairs

        def check(outv=outv, voutv=voutv, want_keys=want_keys, want_values=want_values):
            return equal(cp, outv, want_keys, "keys") or equal(cp, voutv, want_values, "values")

        def reset(outv=outv, voutv=voutv):
            outv.fill(7)
            voutv.fill(-7)
        add = measurer(c, group, log2, check, reset)

        add_warp(c, group, log2, add, warp, warp_error,
                 lambda xv=xv, outv=outv, vv=vv, voutv=voutv: warp(xv, outv, vv, voutv))
        add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(outv), device_bench.ptr(vv),
                device_bench.ptr(voutv), ctypes.c_longlong(n))
        if torch:
            tx, tv, tout, tvout = (torch.from_dlpack(a) for a in (xv, vv, outv, voutv))

            def pairs_sort(tx=tx, tv=tv, tout=tout, tvout=tvout):
                keys, order = torch.sort(tx, stable=True)
                tout.copy_(keys)
                torch.index_select(tv, 0, order, out=tvout)
            add("torch", pairs_sort)
        add_copies(c, add, torch, xv, dv)
        time_size(c, group)


def child_radix_sort_db(c, group, log2n):
    """radix_sort_i32's sort in CUB's DoubleBuffer form: the keys and a
    second buffer of n, both overwritten, the sorted keys in the one the
    call names (warp's return value, CUB's selector). Each launch first
    copies the keys into the first buffer (cupy, on the same stream: the
    previous launch overwrote them), in warp's and CUB's alike, so their
    times include that copy of n keys, the copy row's. Checked against
    cupy's sort, timed with the copies of the keys; torch has no such
    form."""
    cp = c.cp
    sizes, x, _ = uniform_keys(c, group, log2n)
    first, second, dst = cp.empty_like(x), cp.empty_like(x), cp.empty_like(x)
    selector = ctypes.c_int(-1)  # CUB's: 0 first, 1 second
    warp, warp_error, _ = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, av, bv, dv = x[:n], first[:n], second[:n], dst[:n]
        want = cp.sort(xv)
        returned = []  # warp's buffer of the sorted keys

        def reset(av=av, bv=bv, returned=returned):
            av.fill(7)
            bv.fill(7)
            selector.value = -1
            returned.clear()

        def warp_check(want=want, returned=returned):
            return "no buffer returned" if not returned else equal(cp, returned[-1], want)

        def cub_check(av=av, bv=bv, want=want):
            if selector.value not in (0, 1):
                return f"selector {selector.value}"
            return equal(cp, (av, bv)[selector.value], want)
        add = measurer(c, group, log2, warp_check, reset)

        def warp_launch(xv=xv, av=av, bv=bv, returned=returned):
            cp.copyto(av, xv)
            returned[:] = [warp(av, bv)]
        add_warp(c, group, log2, add, warp, warp_error, warp_launch)
        if c.lib and f"cub@{log2}" not in c.args.skip.split(","):
            try:
                sort = c.cub_call(cub_name(group), device_bench.ptr(av), device_bench.ptr(bv),
                                  ctypes.byref(selector), ctypes.c_longlong(n))

                def cub_launch(xv=xv, av=av, sort=sort):
                    cp.copyto(av, xv)
                    sort()
                add("cub", cub_launch, check=cub_check)
            except Exception as error:  # noqa: BLE001
                c.report(group, f"cub@{log2}", error=str(error)[:300])
        c.report(group, f"torch@{log2}", error="torch has no double-buffer sort")
        add_copies(c, add, None, xv, dv)
        time_size(c, group)


def child_segmented_radix_sort(c, group, log2n):
    """radix_sort_i32's keys sorted in segments drawn as segmented_sum's
    (SEGMENT_LENGTHS: lengths uniform in [0, 2L], i32 offsets, the
    segments that start before n, the last cut at n): warp and CUB's
    DeviceSegmentedRadixSort::SortKeys, checked against cupy's sort of
    the int64 pairs segment << 32 | (key + 2^31), timed with the copies of
    the keys; torch has no segmented sort. The double-buffer group
    (segmented_radix_sort_db): both buffers overwritten, the sorted keys
    in the one the call names, each launch first copying the keys into
    the first (radix_sort_db_i32's rule)."""
    cp = c.cp
    sizes, x, rng = uniform_keys(c, group, log2n)
    big = 1 << max(sizes)
    starts = segment_starts(cp, rng, group, big)
    out, dst = cp.empty_like(x), cp.empty_like(x)
    double = GROUPS[group][0] == "segmented_radix_sort_db"
    first = cp.empty_like(x) if double else None
    selector = ctypes.c_int(-1)  # CUB's: 0 first, 1 out
    warp, warp_error, _ = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        offsets, segments = segment_offsets(cp, starts, n)
        xv, outv, dv = x[:n], out[:n], dst[:n]
        # Element i is in the segment whose end is the first one past i.
        segment = cp.searchsorted(offsets[1:], cp.arange(n, dtype=cp.int32), side="right")
        pairs = cp.sort((segment.astype(cp.int64) << 32) | (xv.astype(cp.int64) + (1 << 31)))
        want = ((pairs & 0xFFFFFFFF) - (1 << 31)).astype(cp.int32)
        del segment, pairs
        if double:
            add = time_segmented_double_buffer(c, group, log2, warp, warp_error, xv, first[:n],
                                               outv, offsets, segments, want, selector)
        else:
            check = lambda outv=outv, want=want: equal(cp, outv, want)  # noqa: E731
            reset = lambda outv=outv: outv.fill(7)  # noqa: E731
            add = measurer(c, group, log2, check, reset)
            add_warp(c, group, log2, add, warp, warp_error,
                     lambda xv=xv, outv=outv, offsets=offsets: warp(xv, outv, offsets))
            add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(outv),
                    device_bench.ptr(offsets), ctypes.c_longlong(segments), ctypes.c_longlong(n))
        c.report(group, f"torch@{log2}", error="torch has no segmented sort")
        add_copies(c, add, None, xv, dv)
        time_size(c, group)


def time_segmented_double_buffer(c, group, log2, warp, warp_error, xv, av, bv, offsets, segments,
                                 want, selector):
    """The measurer and the launches of a double-buffered segmented sort:
    the keys copied into `av` before each, the sorted keys checked in the
    buffer warp returns and in the one CUB's selector names."""
    cp = c.cp
    returned = []  # warp's buffer of the sorted keys

    def reset():
        av.fill(7)
        bv.fill(7)
        selector.value = -1
        returned.clear()

    def cub_check():
        if selector.value not in (0, 1):
            return f"selector {selector.value}"
        return equal(cp, (av, bv)[selector.value], want)
    add = measurer(c, group, log2,
                   lambda: "no buffer returned" if not returned else equal(cp, returned[-1], want),
                   reset)

    def warp_launch():
        cp.copyto(av, xv)
        returned[:] = [warp(av, bv, offsets)]
    add_warp(c, group, log2, add, warp, warp_error, warp_launch)
    if c.lib and f"cub@{log2}" not in c.args.skip.split(","):
        try:
            sort = c.cub_call(cub_name(group), device_bench.ptr(av), device_bench.ptr(bv),
                              ctypes.byref(selector), device_bench.ptr(offsets),
                              ctypes.c_longlong(segments), ctypes.c_longlong(len(xv)))

            def cub_launch():
                cp.copyto(av, xv)
                sort()
            add("cub", cub_launch, check=cub_check)
        except Exception as error:  # noqa: BLE001
            c.report(group, f"cub@{log2}", error=str(error)[:300])
    return add


def child_non_trivial_runs(c, group, log2n):
    """The runs of two or more in rle_i32's data (runs of 2 on average, so
    about n / 4 of them): warp, CUB's DeviceRunLengthEncode::NonTrivialRuns
    (int offsets and lengths) and torch.unique_consecutive with counts,
    those of 2 or more kept, checked against cupy's run starts and their
    distances, timed with the copies of the input."""
    cp = c.cp
    sizes, x = run_keys(c, group, log2n)
    big = 1 << max(sizes)
    offsets, lengths = cp.empty(big // 2, dtype=cp.int32), cp.empty(big // 2, dtype=cp.int32)
    dst = cp.empty_like(x)
    num_runs = cp.zeros(1, dtype=cp.int64)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, ov, lv, dv = x[:n], offsets[:n // 2], lengths[:n // 2], dst[:n]
        starts = run_starts(cp, xv)
        runs_all = cp.diff(cp.concatenate([starts, cp.array([n], dtype=starts.dtype)]))
        kept = runs_all >= 2
        want_offsets, want_lengths = starts[kept].astype(cp.int32), runs_all[kept].astype(cp.int32)
        time_runs(c, group, log2, warp, warp_error, torch, xv, dv, (ov, lv), num_runs,
                  (want_offsets, want_lengths), ("offsets", "lengths"), non_trivial_runs)


def child_histogram_rgba(c, group, log2n):
    """histogram_u8's uniform bytes as pixels of RGBA_CHANNELS interleaved
    channels (n samples, n / 4 pixels), the first RGBA_ACTIVE counted in
    256 bins each: warp (channels=, active=), CUB's
    DeviceHistogram::MultiHistogramEven<4, 3> and torch.bincount of the
    samples shifted by 256 per channel, checked against cupy's bincount of
    each channel, timed with the copies of the samples."""
    cp = c.cp
    sizes = sizes_of(group, log2n)
    rng = cp.random.default_rng(sum(map(ord, group)))
    x = rng.integers(0, 256, 1 << max(sizes), dtype=cp.int32).astype(cp.uint8)
    hist, dst = cp.zeros((RGBA_ACTIVE, HISTOGRAM_BINS), dtype=cp.int32), cp.empty_like(x)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, dv = x[:n], dst[:n]
        pixels = xv.reshape(-1, RGBA_CHANNELS)
        want = cp.stack([cp.bincount(pixels[:, a], minlength=HISTOGRAM_BINS) for a in range(RGBA_ACTIVE)])
        add = measurer(c, group, log2, lambda want=want.astype(cp.int32).reshape(-1): equal(cp, hist.reshape(-1), want),
                       lambda: hist.fill(-1))

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv: warp(xv, hist))
        add_cub(c, group, log2, add, device_bench.ptr(xv), device_bench.ptr(hist),
                ctypes.c_longlong(n // RGBA_CHANNELS))
        if torch:
            tx, th = torch.from_dlpack(xv), torch.from_dlpack(hist)
            shift = torch.arange(RGBA_ACTIVE, device=tx.device, dtype=torch.int64) * HISTOGRAM_BINS

            def bincount(tx=tx, th=th, shift=shift):
                bins = tx.view(-1, RGBA_CHANNELS)[:, :RGBA_ACTIVE].long() + shift
                th.view(-1).copy_(torch.bincount(bins.view(-1), minlength=RGBA_ACTIVE * HISTOGRAM_BINS))
            add("torch", bincount)
        add_copies(c, add, torch, xv, dv)
        time_size(c, group)


def child_scan_combine(c, group, log2n):
    """An inclusive scan of (a, b) pairs of i32 arrays with affine_then (a
    in {-1, 1}, b in [-1000, 1000]): warp (a combiner function over a
    tuple of arrays) and CUB's DeviceScan::InclusiveScan over a zip
    iterator of the two with the same functor, checked against the closed
    form cupy computes in int64: with P_i = a_0 ... a_i (its own inverse)
    and S_i = sum_j<=i P_j b_j, output i is (P_i, P_i S_i), wrapped to
    i32. By key (scan_combine_by_key): i32 keys, run r's 16 r + a random
    digit in [0, 16), a run starting with probability 1/32 as
    scan_by_key_i32's; warp with keys= and equal=same_run (the keys agree
    above their low 4 bits), CUB's InclusiveScanByKey with AffineThen and
    SameRun; with s the start of i's segment, output i is (P_i P_{s-1},
    P_i (S_i - S_{s-1})) (P_{-1} = 1, S_{-1} = 0). Timed with the copies of
    a (the op reads two arrays, and the keys, and writes two); torch has
    no scan with a custom combiner, nor by key."""
    cp = c.cp
    keyed = GROUPS[group][0] == "scan_combine_by_key"
    sizes = sizes_of(group, log2n)
    big = 1 << max(sizes)
    rng = cp.random.default_rng(sum(map(ord, group)))
    a = (rng.integers(0, 2, big, dtype=cp.int32) * 2 - 1).astype(cp.int32)
    b = rng.integers(-1000, 1001, big, dtype=cp.int32)
    signs = cp.cumprod(a, dtype=cp.int64)
    total = cp.cumsum(signs * b, dtype=cp.int64)
    keys = None
    if keyed:
        heads = rng.random(big) < 1 / 32
        heads[0] = True
        keys = (cp.cumsum(heads, dtype=cp.int32) << KEY_DIGIT_BITS) | rng.integers(
            0, 1 << KEY_DIGIT_BITS, big, dtype=cp.int32)
        starts = cp.flatnonzero(heads)
        segment = cp.cumsum(heads, dtype=cp.int64) - 1
        del heads
        # P_{s-1} = P_s a_s and S_{s-1} = S_s - P_s b_s at each segment start s.
        total -= (total[starts] - signs[starts] * b[starts])[segment]
        want_a = (signs * (signs[starts] * a[starts])[segment]).astype(cp.int32)
        del starts, segment
    else:
        want_a = signs.astype(cp.int32)
    want_b = (signs * total).astype(cp.int32)
    del signs, total
    out_a, out_b, dst = cp.empty_like(a), cp.empty_like(b), cp.empty_like(a)
    warp, warp_error, _ = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        av, bv, oav, obv, dv = a[:n], b[:n], out_a[:n], out_b[:n], dst[:n]
        kv = [] if keys is None else [keys[:n]]  # warp's last operand, CUB's first

        def check(oav=oav, obv=obv, n=n):
            return equal(cp, oav, want_a[:n], "a") or equal(cp, obv, want_b[:n], "b")

        def reset(oav=oav, obv=obv):
            oav.fill(7)
            obv.fill(7)
        add = measurer(c, group, log2, check, reset)

        add_warp(c, group, log2, add, warp, warp_error,
                 lambda av=av, bv=bv, oav=oav, obv=obv, kv=kv: warp(av, bv, oav, obv, *kv))
        add_cub(c, group, log2, add, *(device_bench.ptr(v) for v in kv + [av, bv, oav, obv]),
                ctypes.c_longlong(n))
        c.report(group, f"torch@{log2}",
                 error="torch has no scan by key" if keyed else "torch has no scan with a custom combiner")
        add_copies(c, add, None, av, dv)
        time_size(c, group)


def range_levels(cp):
    """histogram_range_u8_f32's float32 levels: k^2 / 16, k = 0..RANGE_BINS."""
    return (cp.arange(RANGE_BINS + 1, dtype=cp.float32) ** 2 / 16).astype(cp.float32)


# A byte histogram's bins: its op's bin count and the CUB call's scalars
# after its arrays (before n).
BYTE_HISTOGRAMS = {"histogram": (HISTOGRAM_BINS, ()),
                   "histogram_range": (RANGE_BINS, (ctypes.c_int(RANGE_BINS + 1),)),
                   "histogram_even": (EVEN_BINS, (ctypes.c_int(EVEN_BINS), ctypes.c_int(0),
                                                  ctypes.c_int(EVEN_UPPER)))}


def byte_bins(cp, op, xv):
    """Each byte's bin in `op`'s histogram from its closed form (int64),
    the op's bin count for a byte it does not count."""
    v = xv.astype(cp.int64)
    if op == "histogram_range":  # k^2 / 16 <= v < (k + 1)^2 / 16 (sqrt exact here)
        return cp.floor(cp.sqrt(16 * v.astype(cp.float64))).astype(cp.int64)
    if op == "histogram_even":
        return cp.where(v < EVEN_UPPER, v * EVEN_BINS // EVEN_UPPER, EVEN_BINS)
    return v


def torch_histogram(torch, op, tx, tl, th):
    """torch's counts of `op`'s histogram of the bytes `tx` into `th`: a
    bincount of the bytes, of the bucket of each (range levels `tl`), or of
    each one's even bin (those past the levels in one more, dropped)."""
    bins = BYTE_HISTOGRAMS[op][0]
    if op == "histogram_range":
        th.copy_(torch.bincount(torch.bucketize(tx.to(tl.dtype), tl, right=True) - 1, minlength=bins))
    elif op == "histogram_even":
        v = tx.long()
        inside = torch.where(v < EVEN_UPPER, v * EVEN_BINS // EVEN_UPPER, EVEN_BINS)
        th.copy_(torch.bincount(inside, minlength=bins + 1)[:bins])
    else:
        th.copy_(torch.bincount(tx, minlength=bins))


def child_histogram(c, group, log2n):
    """A histogram of uniform bytes, checked against cupy's bincount of
    each byte's bin from its closed form (byte_bins), timed with the
    copies of the samples: histogram_u8, 256 bins of the byte values (warp
    counts them in workgroup memory first; CUB's
    DeviceHistogram::HistogramEven, torch.bincount); histogram_range_u8_f32,
    the float32 levels of range_levels (bin k is [k^2 / 16, (k + 1)^2 /
    16): floor(sqrt(16 v))), warp's and CUB's HistogramRange with them,
    torch's bucketize (right=True, less 1) then bincount;
    histogram_even_u8_i32, EVEN_BINS even bins over [0, EVEN_UPPER) in
    int32 levels (v * EVEN_BINS // EVEN_UPPER below EVEN_UPPER), warp's
    level_dtype="int32" and CUB's HistogramEven with int levels, torch's
    bincount of each byte's bin."""
    cp = c.cp
    op = GROUPS[group][0]
    bins, scalars = BYTE_HISTOGRAMS[op]
    sizes = sizes_of(group, log2n)
    rng = cp.random.default_rng(sum(map(ord, group)))
    x = rng.integers(0, 256, 1 << max(sizes), dtype=cp.int32).astype(cp.uint8)
    levels = [range_levels(cp)] if op == "histogram_range" else []  # warp's and CUB's operand after x
    hist, dst = cp.zeros(bins, dtype=cp.int32), cp.empty_like(x)
    warp, warp_error, torch = implementations(c, group)
    for log2 in sizes:
        n = 1 << log2
        xv, dv = x[:n], dst[:n]
        want = cp.bincount(byte_bins(cp, op, xv), minlength=bins + 1)[:bins].astype(cp.int32)
        add = measurer(c, group, log2, lambda want=want: equal(cp, hist, want),
                       lambda: hist.fill(-1))

        add_warp(c, group, log2, add, warp, warp_error, lambda xv=xv: warp(xv, *levels, hist))
        add_cub(c, group, log2, add, *(device_bench.ptr(v) for v in [xv] + levels + [hist]), *scalars,
                ctypes.c_longlong(n))
        if torch:
            tx, th = torch.from_dlpack(xv), torch.from_dlpack(hist)
            tl = torch.from_dlpack(levels[0]) if levels else None
            add("torch", lambda tx=tx, tl=tl, th=th: torch_histogram(torch, op, tx, tl, th))
        add_copies(c, add, torch, xv, dv)
        time_size(c, group)


CHILDREN = {"radix_sort_pairs": child_radix_sort_pairs, "radix_sort_db": child_radix_sort_db,
            "segmented_radix_sort": child_segmented_radix_sort,
            "segmented_radix_sort_db": child_segmented_radix_sort,
            "non_trivial_runs": child_non_trivial_runs,
            "histogram_rgba": child_histogram_rgba, "scan_combine": child_scan_combine,
            "scan_combine_by_key": child_scan_combine, "histogram_range": child_histogram,
            "histogram_even": child_histogram}


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
    if op in CHILDREN:
        return CHILDREN[op](c, group, log2n)
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
    if args.child in SLOW_GROUPS:
        iters, warmup, calls = SLOW_GROUPS[args.child]
        args.iters, args.warmup, args.calls = min(args.iters, iters), min(args.warmup, warmup), calls
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

def hold_us(args, group):
    """The timer's hold in `group`'s process: --hold-us, or more
    (GROUP_HOLD_US)."""
    return max(args.hold_us, GROUP_HOLD_US.get(group, 0))


def child_cmd(args, child, so):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", child, "--only", ",".join(args.groups),
           "--log2n", args.log2n, "--iters", str(args.iters), "--warmup", str(args.warmup),
           "--hang", str(args.hang), "--hold-us", str(hold_us(args, child)), "--chip", args.chip]
    return cmd + (["--baselines-so", so] if so else [])


def summarize(group, log2, by_impl, note):
    op, ty, exclusive = GROUPS[group]
    n = 1 << log2
    # Bytes read and written: a scan by key reads its keys too; a
    # segmented reduction reads the input and an i32 offset per segment
    # and writes a result per segment (n / L of them, about).
    # The non-trivial runs write an i32 offset and length per run of two
    # or more (about n / 4); a sort of pairs and the affine scan read and
    # write two arrays; a segmented sort reads an offset per segment; the
    # double-buffer sort counts its own keys, not the copy before it; the
    # affine scan by key reads its keys too.
    moved = n * SIZES[ty] * (1 if op in ("reduce", "histogram", "histogram_rgba", "histogram_range",
                                         "histogram_even") else
                             3 if op == "scan_by_key" else
                             4 if op in ("radix_sort_pairs", "scan_combine") else
                             5 if op == "scan_combine_by_key" else 2)
    label = LABELS.get(op, op) if op != "scan" else f"scan_{'excl' if exclusive else 'incl'}"
    if op == "non_trivial_runs":
        moved = n * SIZES[ty] + n // 4 * 8
    if op == "segmented_reduce":
        mean = SEGMENT_LENGTHS[group]
        moved = n * SIZES[ty] + n // mean * (4 + SIZES[ty])
        label = f"segsum_l{mean}"
    if op in ("segmented_radix_sort", "segmented_radix_sort_db"):
        mean = SEGMENT_LENGTHS[group]
        moved = 2 * n * SIZES[ty] + n // mean * 4
        label = f"segsort{'_db' * (op != 'segmented_radix_sort')}_l{mean}"
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
        op = GROUPS[group][0]
        impls = [impl for impl in IMPLS if (impl != "read" or op == "reduce")
                 and (impl != "triton" or op in ("reduce", "scan"))
                 and (impl not in ("torch", "copy_torch") or op not in NO_TORCH)]
        slow = SLOW_GROUPS.get(group)
        print(f"would run {group} at n = {', '.join(f'2^{k}' for k in sizes_of(group, log2n))}: "
              f"{', '.join(impls)} ({cub_name(group)})"
              + (f", at most {slow[0]} iters, {slow[1]} warmup, {slow[2]} host calls" if slow else "")
              + (f", hold {hold_us(args, group)} us" if hold_us(args, group) != args.hold_us else ""))
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

        def write_json(mismatches=None, final=False):
            """--json's file of the groups timed so far (after each group:
            a run cut short by a time limit keeps what it timed; the meta,
            which opens a CUDA context in this process, only at the end)."""
            if not args.json:
                return
            with open(args.json, "w") as f:
                json.dump({"meta": device_bench.meta() if final else {"partial": True},
                           "chip": args.chip, "log2n": log2n,
                           "hold_us": args.hold_us,
                           "group_hold_us": {g: hold_us(args, g) for g in args.groups
                                             if hold_us(args, g) != args.hold_us},
                           "compile": compile_results, "notes": notes, "results": entries,
                           "mismatches": mismatches}, f, indent=1)

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
            write_json()
    print(f"total {time.time() - t_all:.0f} s")
    mismatches = [f"{e['group']} 2^{e['log2n']} {impl}: {error}" for e in entries
                  for impl, error in e.get("errors", {}).items() if error.startswith("wrong result")]
    warp_failures = [f"{e['group']} 2^{e['log2n']}" for e in entries if "warp_ms" not in e]
    host_bound = [f"{e['group']} 2^{e['log2n']} {impl} ({e[impl + '_host_us']:.0f} of "
                  f"{hold_us(args, e['group'])} us)" for e in entries
                  for impl in IMPLS if e.get(f"{impl}_host_us", 0) > 0.9 * hold_us(args, e["group"])]
    if host_bound:
        print(f"note: host work per call near or over the timer's hold at {', '.join(host_bound)}: "
              f"the time there may include host work; rerun with a larger --hold-us")
    for line in mismatches:
        print(f"MISMATCH {line}")
    if warp_failures:
        print(f"warp FAILED at {len(warp_failures)} of {len(entries)} sizes: {', '.join(warp_failures)}")
    write_json(mismatches, final=True)
    return 1 if mismatches or warp_failures else 0


if __name__ == "__main__":
    sys.exit(main())
