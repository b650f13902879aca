#!/usr/bin/env python3
"""Device-wide kernels written with warp ops against CUB, hand-written CUDA,
Triton and torch, in one run on the GPU host (issue 12).

    python3 device_bench.py --ptx-dir DIR [--json out.json] [--svg out.svg]

DIR holds reduce.ptx, scan.ptx and block.ptx (benchmarks/device/*.mlir
lowered by warp-lower-to-ptx, chip=sm_90), reduce_idx32.ptx (reduce_idx32.mlir
lowered with device-index-bitwidth=32, for levers_sum_f32), block_idx32.ptx
(block.mlir lowered so, for the block benchmarks' @block_idx32) and baselines.cu
(compiled here with nvcc -O3 -arch=sm_90). Each benchmark runs in its own
process (a crash, a hang or a sticky CUDA error loses that benchmark only; a
hang is killed after --timeout seconds). In it every implementation is first checked
against a reference computed by cupy/numpy from the definition (not by the
compiler), then all of them are timed together (gpu_timing.py: --warmup
launches of each, then 6 rounds in which each implementation runs once
untimed and --iters / 6 times timed, the order rotating round by round;
each launch between CUDA events on the default stream, the stream held by
a short kernel while it is enqueued); a time is the median. Inputs are 2^28
elements (1 GiB for 32-bit types: 20x the H200's 50 MB L2); the block
micro-kernels read 4 MiB and get the L2 flushed (a 256 MiB write) before
each timed launch.

Printed per kernel: warp time, GB/s, % of device-to-device copy bandwidth,
and ratios baseline time / warp time (> 1: warp is faster) to CUB, to the
hand-written CUDA kernel and to the faster of Triton and torch.

--dry-run checks the plan without a GPU (kernel names present in the PTX,
baselines source present) and exits.
"""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from gpu_timing import Timer, time_together  # same directory, here and in the bundle

N_LOG2 = 28
BLOCK_THREADS_TOTAL = 1 << 20  # threads of the block micro-kernels
BLOCK_ROUNDS = 64  # rounds of the block micro-kernels (gen_kernels.py imports it)


# gen_kernels.py's select_kernel kernels: 256 threads x SELECT_ITEMS (24)
# items per tile, any n (the last tile may be partial).
ANY_N_ITEMS = {"select_gt_f32": 24, "select_gt_f32_direct": 24, "select_gt_f32_nested": 24}


def tile_of(kernel):
    """Elements per tile of a scan/select kernel (gen_kernels.py: 256
    threads x 16 items, or x N for *_itemsN, or ANY_N_ITEMS)."""
    if kernel in ANY_N_ITEMS:
        return 256 * ANY_N_ITEMS[kernel]
    m = re.search(r"_items(\d+)$", kernel)
    return 256 * (int(m.group(1)) if m else 16)


HAND_TILE = 256 * 16  # baselines.cu: TileThreads x TileItems


# The compaction kernels (gen_kernels.py), one list for the three fractions
# kept: the default (256 x 24 striped float4 loads, ballot ranks, adaptive
# stores), its direct-store lever, its stores nested in a branch per item
# (the default before), and the configuration before that (256 x 16,
# warp.exchange, always staged: *_transpose16) with its own levers.
SELECT_KERNELS = ["select_gt_f32", "select_gt_f32_direct", "select_gt_f32_nested", "select_gt_f32_transpose16",
                  "select_gt_f32_occ4", "select_gt_f32_unstaged", "select_gt_f32_blockx", "select_gt_f32_poll76",
                  "select_gt_f32_old_items8"]

# Benchmark name -> (PTX file, warp kernels, bytes moved per element or None).
BENCHES = {
    "copy": (None, [], None),
    "sum_f32": ("reduce", ["sum_f32", "finish_f32"], 4),
    "sum_i32": ("reduce", ["sum_i32", "finish_i32"], 4),
    "dot_f32": ("reduce", ["dot_f32", "finish_f32"], 8),
    # The first kernel is "warp"; the others are variants, printed as
    # variant time / warp time (> 1: the first kernel is faster).
    # scan_incl_i32's variants switch one lever of gen_kernels.py's
    # scan_like_kernel off (or change the items per thread); *_old_items8 is
    # the previous configuration with every lever off.
    "scan_incl_i32": ("scan", ["scan_incl_i32", "scan_incl_i32_direct", "scan_incl_i32_blockx",
                               "scan_incl_i32_acqrel", "scan_incl_i32_nopace", "scan_incl_i32_ticket",
                               "scan_incl_i32_items8",
                               "scan_incl_i32_old_items8"], 8),
    "scan_excl_i32": ("scan", ["scan_excl_i32"], 8),
    "scan_incl_f32": ("scan", ["scan_incl_f32"], 8),
    "scan_excl_f32": ("scan", ["scan_excl_f32"], 8),
    "select_f32_0pct": ("scan", SELECT_KERNELS, None),
    "select_f32_50pct": ("scan", SELECT_KERNELS, None),
    "select_f32_100pct": ("scan", SELECT_KERNELS, None),
    # Block micro-kernels: "warp" is warp.block_reduce / warp.block_scan with
    # the default algorithm; variants: each algorithm explicitly, the
    # recurrence composed of warp.reduce / warp.scan (gen_kernels.py), and
    # the default kernel lowered with device-index-bitwidth=32 (@block_idx32:
    # a 32-bit round counter, as CUB's kernel has).
    **{f"block_{k}_i32_{b}": ("block", [f"block_{k}_i32_{b}"]
                              + [f"block_{k}_i32_{b}_{alg}" for alg in algs]
                              + ([f"block_{k}_i32_{b}_composed"] if b % 32 == 0 else [])
                              + [f"block_{k}_i32_{b}@block_idx32"], None)
       for k, algs in (("reduce", ("warp_reductions", "raking")), ("scan", ("warp_scans", "raking")))
       for b in (32, 48, 64, 128, 256, 1024)},
    # Compiler levers on sum_f32 (vector loads, ld.global.nc, unrolling by 2),
    # each switched off alone, unrolling by 4, 32-bit index arithmetic in the
    # source (sum_f32_idx32) and by the pipeline option
    # (sum_f32_nonc@reduce_idx32: sum_f32_nonc from reduce_idx32.ptx, lowered
    # with device-index-bitwidth=32, which rejects the pointer-as-index of
    # the invariant-load kernels: compare it with sum_f32_nonc), and
    # ld.global.nc from argument attributes instead of invariant loads
    # (sum_f32_argattrs, at 64 and at 32 bits: compare with sum_f32 and
    # sum_f32_nonc@reduce_idx32); "warp" is sum_f32. Printed: variant time /
    # sum_f32 time, > 1 means sum_f32's setting wins.
    "levers_sum_f32": ("reduce", ["sum_f32", "sum_f32_novec", "sum_f32_nonc", "sum_f32_unroll1",
                                  "sum_f32_unroll4", "sum_f32_idx32", "sum_f32_idx32_unroll1",
                                  "sum_f32_idx32_unroll4", "sum_f32_nonc@reduce_idx32",
                                  "sum_f32_argattrs", "sum_f32_argattrs@reduce_idx32",
                                  "sum_f32_evenshare", "finish_f32"], 4),
}

STANDARD_IMPLS = ("warp", "copy", "cub", "hand", "triton", "torch")
SELECT_THRESHOLDS = {"select_f32_0pct": 2.0, "select_f32_50pct": 0.5, "select_f32_100pct": -1.0}


def kernel_location(ptx, kernel):
    """(PTX file stem, function) of a kernel of BENCHES: NAME@FILE is
    NAME from FILE.ptx, other names are in the benchmark's PTX file."""
    name, _, other = kernel.partition("@")
    return (other or ptx), name


# --------------------------------------------------------------------------
# Child side: one benchmark, results as "RESULT {json}" lines on stdout.
# --------------------------------------------------------------------------

class Hang(Exception):
    pass


class Ctx:
    def __init__(self, args):
        import cupy as cp
        import numpy as np
        self.cp, self.np, self.args = cp, np, args
        self.modules = {}
        self.lib = ctypes.CDLL(args.baselines_so) if args.baselines_so else None
        self.sms = cp.cuda.Device().attributes["MultiProcessorCount"]
        self.flush_buf = None
        self.timer = Timer(cp, np, wait=self.wait)
        self.pending = []  # (bench, impl, launch, flush) checked, to be timed

    def module(self, name):
        if name not in self.modules:
            self.modules[name] = self.cp.RawModule(path=os.path.join(self.args.ptx_dir, name + ".ptx"))
        return self.modules[name]

    def report(self, bench, impl, **fields):
        print("RESULT " + json.dumps(dict(bench=bench, impl=impl, **fields)), flush=True)

    def wait(self, event=None):
        """Waits for the GPU to reach `event` (recorded now when None) for at
        most --hang seconds, then raises Hang."""
        cp = self.cp
        if event is None:
            event = cp.cuda.Event()
            event.record()
        deadline = time.monotonic() + self.args.hang
        while not event.done:
            if time.monotonic() > deadline:
                # A kernel that faulted leaves the event "not done" too: name
                # the sticky error rather than calling it a hang.
                error = sticky_error(cp)
                if error:
                    raise RuntimeError(error)
                raise Hang(f"not finished after {self.args.hang} s")
            time.sleep(0.0002)

    def flush_l2(self):
        if self.flush_buf is None:
            self.flush_buf = self.cp.empty(1 << 26, dtype=self.cp.int32)  # 256 MiB > L2
        self.flush_buf.fill(1)

    def time_ms(self, launch, flush=False):
        """Median of --iters timed launches after --warmup launches (one
        implementation alone; block_probe.py's timing)."""
        return time_together(self.timer, {"one": (launch, self.flush_l2 if flush else None)},
                             self.args.iters, self.args.warmup, rounds=1)["one"]

    def guarded(self, bench, impl, action):
        """Runs action(); a failure is reported as impl's result (and ends
        the process where the context is lost or a launch hung: the parent
        runs the benchmark again without that implementation). Returns
        whether it succeeded."""
        try:
            action()
            return True
        except Hang as error:
            self.report(bench, impl, error=f"hang: {error}", fatal=True)
            os._exit(4)  # the driver ends the running kernel with the process
        except Exception as error:  # noqa: BLE001 - every failure is a result
            message = f"{type(error).__name__}: {str(error)[:300]}"
            try:
                self.cp.cuda.Device().synchronize()
            except Exception:  # noqa: BLE001 - sticky: nothing else can run here
                self.report(bench, impl, error=message, fatal=True)
                os._exit(3)
            self.report(bench, impl, error=message)
            return False

    def measure(self, bench, impl, launch, check, flush=False):
        """Runs launch once and checks its result now; a correct
        implementation is timed later, by time_all, together with the
        benchmark's others. Errors are reported, not raised."""
        if impl in self.args.skip.split(","):
            return

        problem = []

        def run_and_check():
            launch()
            self.wait()
            problem.append(check())
        if not self.guarded(bench, impl, run_and_check):
            return
        if problem[0]:
            self.report(bench, impl, error="wrong result: " + problem[0])
            return
        self.pending.append((bench, impl, launch, flush))

    def time_all(self):
        """Times the checked implementations of the benchmark together
        (gpu_timing.time_together) and reports each one's median."""
        pending, self.pending = self.pending, []
        bench = pending[0][0] if pending else None
        times = time_together(self.timer, {impl: (launch, self.flush_l2 if flush else None)
                                           for _, impl, launch, flush in pending},
                              self.args.iters, self.args.warmup,
                              run=lambda impl, action: self.guarded(bench, impl, action))
        for impl, ms in times.items():
            self.report(bench, impl, ms=ms)

    def blocks_for(self, func, threads):
        try:
            per_sm = self.cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(func.ptr, threads, 0)
        except Exception:  # noqa: BLE001
            regs = max(1, -(-func.num_regs // 8) * 8)
            per_sm = min(2048 // threads, 65536 // (regs * threads))
        return self.sms * max(1, per_sm)

    def cub_call(self, name, *args):
        """CUB's two-phase call: size query, then the run."""
        fn = getattr(self.lib, name)
        size = ctypes.c_size_t(0)
        err = fn(None, ctypes.byref(size), *args)
        if err:
            raise RuntimeError(f"{name} size query: cudaError {err}")
        temp = self.cp.empty(max(1, size.value), dtype=self.cp.uint8)

        def run():
            e = fn(ctypes.c_void_p(temp.data.ptr), ctypes.byref(size), *args)
            if e:
                raise RuntimeError(f"{name}: cudaError {e}")
        return run


def sticky_error(cp):
    """The CUDA error a faulted kernel left in the context, or None (also
    where this cupy has no getLastError: the H200 host's does not)."""
    get_last_error = getattr(cp.cuda.runtime, "getLastError", None)
    if get_last_error is None:
        return None
    try:
        status = get_last_error()
    except cp.cuda.runtime.CUDARuntimeError as error:
        return str(error)
    if status:
        return f"CUDA error {status}: {cp.cuda.runtime.getErrorName(status)}"
    return None


def ptr(a):
    return ctypes.c_void_p(a.data.ptr)


def memref(np, a):
    return [a, a, np.int64(0), np.int64(a.size), np.int64(1)]


def triton_kernels():
    import triton
    import triton.language as tl

    @triton.jit
    def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
        tl.atomic_add(out_ptr, tl.sum(x, axis=0))

    @triton.jit
    def block_dot(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
        y = tl.load(y_ptr + offs, mask=offs < n, other=0)
        tl.atomic_add(out_ptr, tl.sum(x * y, axis=0))

    @triton.jit
    def tile_sums(x_ptr, s_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
        tl.store(s_ptr + pid, tl.sum(x, axis=0))

    @triton.jit
    def tile_scan(x_ptr, off_ptr, y_ptr, n, BLOCK: tl.constexpr, EXCLUSIVE: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
        c = tl.cumsum(x, axis=0)
        if EXCLUSIVE:
            c = c - x
        tl.store(y_ptr + offs, c + tl.load(off_ptr + pid), mask=offs < n)

    return block_sum, block_dot, tile_sums, tile_scan


TRITON_SUM_BLOCK = 8192
TRITON_SCAN_BLOCK = 4096


def triton_sum(kernels, tx, tout, n):
    """A launch of Triton's sum of the n values of torch tensor tx into
    tout[0]: tl.sum per block of TRITON_SUM_BLOCK, one atomic add each."""
    block_sum = kernels[0]
    grid = (-(-n // TRITON_SUM_BLOCK),)
    return lambda: (tout.zero_(), block_sum[grid](tx, tout, n, BLOCK=TRITON_SUM_BLOCK, num_warps=8))


def triton_scan(kernels, tx, tout, n, exclusive, dtype):
    """A launch of the Triton scan of tx into tout: the tile sums (Triton),
    their exclusive scan (torch), then tl.cumsum of each tile plus its
    offset (Triton)."""
    import torch
    _, _, tile_sums, tile_scan = kernels
    tiles = -(-n // TRITON_SCAN_BLOCK)
    sums = torch.empty(tiles, dtype=dtype, device=tx.device)

    def run():
        tile_sums[(tiles,)](tx, sums, n, BLOCK=TRITON_SCAN_BLOCK, num_warps=8)
        offsets = torch.cumsum(sums, 0, dtype=dtype) - sums
        tile_scan[(tiles,)](tx, offsets, tout, n, BLOCK=TRITON_SCAN_BLOCK, EXCLUSIVE=exclusive, num_warps=8)
    return run


def triton_or_report(c, bench):
    """triton_kernels(), or None with the reason reported."""
    try:
        return triton_kernels()
    except Exception as error:  # noqa: BLE001 - Triton missing or broken is a result
        c.report(bench, "triton", error=f"{type(error).__name__}: {str(error)[:300]}")
        return None


def bench_copy(c, bench):
    cp = c.cp
    n = 1 << c.args.log2n
    src = cp.arange(n, dtype=cp.int32)
    dst = cp.empty_like(src)
    c.measure(bench, "copy", lambda: cp.copyto(dst, src),
              lambda: None if bool(cp.array_equal(dst, src)) else "copy differs")


def bench_reduce(c, bench):
    cp, np = c.cp, c.np
    n = 1 << c.args.log2n
    ty = "i32" if "i32" in bench else "f32"
    dot = bench.startswith("dot")
    dtype = cp.int32 if ty == "i32" else cp.float32
    rng = cp.random.default_rng(7)
    if ty == "i32":
        x = rng.integers(-1000, 1000, n, dtype=cp.int32)
        want = int(cp.sum(x, dtype=cp.int64).get())
        want = (want + (1 << 31)) % (1 << 32) - (1 << 31)
        scale = 0.0
    else:
        x = rng.standard_normal(n, dtype=cp.float32)
    y = rng.standard_normal(n, dtype=cp.float32) if dot else None
    if ty == "f32":
        if dot:
            prod = x.astype(cp.float64) * y.astype(cp.float64)
            want, scale = float(prod.sum().get()), float(cp.abs(prod).sum().get())
            del prod
        else:
            want = float(cp.sum(x, dtype=cp.float64).get())
            scale = float(cp.sum(cp.abs(x), dtype=cp.float64).get())
    out = cp.zeros(1, dtype=dtype)

    def check():
        got = out.get()[0]
        if ty == "i32":
            return None if int(got) == want else f"{int(got)} != {want}"
        # A float sum in any order is within a small multiple of eps * sum|x|.
        return None if abs(float(got) - want) <= 1e-5 * scale + 1e-3 else f"{float(got)} vs {want} (sum|x| {scale})"

    mod = c.module("reduce")
    finish = mod.get_function(f"finish_{ty}")
    kernels = BENCHES[bench][1][:-1]
    blocks = None
    for name in kernels:
        stem, function = kernel_location("reduce", name)
        f = c.module(stem).get_function(function)
        blocks = c.blocks_for(f, 256)
        part = cp.zeros(blocks, dtype=dtype)
        ins = memref(np, x) + (memref(np, y) if dot else [])

        def launch(f=f, blocks=blocks, part=part, ins=ins):
            f((blocks,), (256,), ins + memref(np, part) + [np.int64(n)])
            finish((1,), (1024,), memref(np, part) + memref(np, out) + [np.int64(blocks)])
        impl = "warp" if name == kernels[0] else name
        out.fill(0)
        c.measure(bench, impl, launch, check)
        c.report(bench, impl + "_blocks", value=blocks)
    if bench.startswith("levers"):
        return
    if c.lib:
        n64 = ctypes.c_longlong(n)
        try:
            args = (ptr(x), ptr(y), ptr(out), n64) if dot else (ptr(x), ptr(out), n64)
            out.fill(0)
            c.measure(bench, "cub", c.cub_call(f"cub_{bench}", *args), check)
        except Exception as error:  # noqa: BLE001
            c.report(bench, "cub", error=str(error)[:300])
        part = cp.zeros(blocks, dtype=dtype)
        hand = getattr(c.lib, f"hand_{bench}")

        def run_hand():
            a = (ptr(x), ptr(y)) if dot else (ptr(x),)
            e = hand(*a, ptr(part), ptr(out), n64, ctypes.c_int(blocks))
            if e:
                raise RuntimeError(f"hand_{bench}: cudaError {e}")
        out.fill(0)
        c.measure(bench, "hand", run_hand, check)
    try:
        import torch
    except ImportError as error:
        c.report(bench, "torch", error=f"not available: {error}")
        return
    tx = torch.from_dlpack(x)
    ty_ = torch.from_dlpack(y) if dot else None
    tout = torch.from_dlpack(out)
    if dot:
        run = lambda: tout.copy_(torch.dot(tx, ty_).reshape(1))
    elif ty == "i32":
        run = lambda: tout.copy_(torch.sum(tx).reshape(1).to(torch.int32))
    else:
        run = lambda: tout.copy_(torch.sum(tx).reshape(1))
    out.fill(0)
    c.measure(bench, "torch", run, check)
    kernels = triton_or_report(c, bench)
    if not kernels:
        return
    if dot:
        block_dot, grid = kernels[1], (-(-n // TRITON_SUM_BLOCK),)
        run = lambda: (tout.zero_(), block_dot[grid](tx, ty_, tout, n, BLOCK=TRITON_SUM_BLOCK, num_warps=8))
    else:
        run = triton_sum(kernels, tx, tout, n)
    out.fill(0)
    c.measure(bench, "triton", run, check)


def time_tile_kernels(c, bench, n, args, check, reset):
    """Checks and times the single-pass kernels of `bench` (scans, selects):
    one block per tile; a launch zeroes the tile status words (and the tile
    counter) first, as CUB's own init kernel does."""
    cp = c.cp
    kernels = BENCHES[bench][1]
    for name in kernels:
        f = c.module("scan").get_function(name)
        assert n % tile_of(name) == 0 or name in ANY_N_ITEMS
        tiles = -(-n // tile_of(name))
        status = cp.zeros(1 + tiles, dtype=cp.int64)

        def launch(f=f, tiles=tiles, status=status):
            cp.cuda.runtime.memsetAsync(status.data.ptr, 0, status.nbytes, 0)
            f((tiles,), (256,), args(status))
        reset()
        c.measure(bench, "warp" if name == kernels[0] else name, launch, check)


def time_hand_tile(c, bench, name, n, args, check, reset):
    """The hand-written single-pass kernel `name` of baselines.cu (tiles of
    HAND_TILE), its status words zeroed in each launch like the warp kernel's."""
    cp = c.cp
    status = cp.zeros(1 + n // HAND_TILE, dtype=cp.int64)

    def run():
        cp.cuda.runtime.memsetAsync(status.data.ptr, 0, status.nbytes, 0)
        e = getattr(c.lib, name)(*args(ptr(status)))
        if e:
            raise RuntimeError(f"{name}: cudaError {e}")
    reset()
    c.measure(bench, "hand", run, check)


def bench_scan(c, bench):
    cp, np = c.cp, c.np
    n = 1 << c.args.log2n
    ty = bench[-3:]
    exclusive = "_excl_" in bench
    dtype = cp.int32 if ty == "i32" else cp.float32
    rng = cp.random.default_rng(11)
    # f32 data are small integers: every partial sum of the run is exact in
    # f32 (|prefix| stays far below 2^24), so any summation order must give
    # the reference bit for bit.
    xi = rng.integers(-1000, 1001, n, dtype=cp.int32) if ty == "i32" else \
        rng.integers(-2, 3, n, dtype=cp.int32)
    x = xi.astype(dtype)
    ref = cp.cumsum(xi, dtype=cp.int64)
    if exclusive:
        ref -= xi
    assert int(cp.abs(ref).max().get()) < (1 << 24 if ty == "f32" else 1 << 31)
    out = cp.zeros(n, dtype=dtype)

    def check():
        got = out.astype(cp.int64) if ty == "f32" else out
        bad = got != (ref if ty == "f32" else ref.astype(cp.int32))
        nbad = int(bad.sum().get())
        if nbad == 0:
            return None
        first = int(cp.argmax(bad).get())
        return f"{nbad} of {n} differ, first at {first}: {out[first].get()} != {ref[first].get()}"

    time_tile_kernels(c, bench, n, lambda status: memref(np, x) + memref(np, out) + memref(np, status) +
                      [np.int64(n)], check, lambda: out.fill(0))
    if c.lib:
        try:
            out.fill(0)
            c.measure(bench, "cub", c.cub_call(f"cub_{bench}", ptr(x), ptr(out), ctypes.c_longlong(n)), check)
        except Exception as error:  # noqa: BLE001
            c.report(bench, "cub", error=str(error)[:300])
        time_hand_tile(c, bench, f"hand_{bench}", n, lambda status: (ptr(x), ptr(out), status, ctypes.c_longlong(n)),
                       check, lambda: out.fill(0))
    try:
        import torch
    except ImportError as error:
        c.report(bench, "torch", error=f"not available: {error}")
        return
    tx, tout = torch.from_dlpack(x), torch.from_dlpack(out)
    tdt = torch.int32 if ty == "i32" else torch.float32
    if exclusive:
        run = lambda: torch.sub(torch.cumsum(tx, 0, dtype=tdt), tx, out=tout)
    else:
        run = lambda: torch.cumsum(tx, 0, dtype=tdt, out=tout)
    out.fill(0)
    c.measure(bench, "torch", run, check)
    kernels = triton_or_report(c, bench)
    if not kernels:
        return
    out.fill(0)
    c.measure(bench, "triton", triton_scan(kernels, tx, tout, n, exclusive, tdt), check)


def bench_select(c, bench):
    cp, np = c.cp, c.np
    n = 1 << c.args.log2n
    thr = SELECT_THRESHOLDS[bench]
    x = cp.random.default_rng(13).random(n, dtype=cp.float32)
    want = x[x > thr]  # cupy's own selection (boolean mask), order preserving
    kept = int(want.size)
    c.report(bench, "kept", value=kept)
    out = cp.zeros(n, dtype=cp.float32)
    num = cp.zeros(1, dtype=cp.int32)

    def check():
        got = int(num.get()[0])
        if got != kept:
            return f"selected {got}, want {kept}"
        return None if bool(cp.array_equal(out[:kept], want)) else "selected values differ"

    time_tile_kernels(c, bench, n, lambda status: memref(np, x) + memref(np, out) + memref(np, num) +
                      memref(np, status) + [np.int64(n), np.float32(thr)], check,
                      lambda: (out.fill(0), num.fill(-1)))
    if c.lib:
        try:
            out.fill(0)
            num.fill(-1)
            c.measure(bench, "cub", c.cub_call("cub_select_gt_f32", ptr(x), ptr(out), ptr(num),
                                               ctypes.c_longlong(n), ctypes.c_float(thr)), check)
        except Exception as error:  # noqa: BLE001
            c.report(bench, "cub", error=str(error)[:300])
        time_hand_tile(c, bench, "hand_select_gt_f32", n,
                       lambda status: (ptr(x), ptr(out), ptr(num), status, ctypes.c_longlong(n), ctypes.c_float(thr)),
                       check, lambda: (out.fill(0), num.fill(-1)))
    try:
        import torch
        tx, tout, tnum = torch.from_dlpack(x), torch.from_dlpack(out), torch.from_dlpack(num)

        def run_torch():
            sel = torch.masked_select(tx, tx > thr)  # synchronizes for the size
            tout[:sel.numel()].copy_(sel)
            tnum.fill_(sel.numel())
        out.fill(0)
        c.measure(bench, "torch", run_torch, check)
    except ImportError as error:
        c.report(bench, "torch", error=f"not available: {error}")


def block_reference(cp, x, threads, kind):
    """What a block micro-kernel (gen_kernels.py block_recurrence) leaves
    in `out` for the i32 input `x` in blocks of `threads`, from the
    definition in uint32 (wrapping) arithmetic: BLOCK_ROUNDS rounds of
    a = sum or inclusive scan over the block of (x ^ r) + a."""
    xu = x.view(cp.uint32).reshape(-1, threads)
    a = cp.zeros_like(xu)
    for r in range(BLOCK_ROUNDS):
        v = (xu ^ cp.uint32(r)) + a
        if kind == "reduce":
            a = cp.broadcast_to(v.sum(axis=1, dtype=cp.uint32)[:, None], v.shape).copy()
        else:
            a = cp.cumsum(v, axis=1, dtype=cp.uint32)
    return a.reshape(-1).view(cp.int32)


def bench_block(c, bench):
    cp, np = c.cp, c.np
    kind = "reduce" if "reduce" in bench else "scan"
    threads = int(bench.rsplit("_", 1)[1])
    n = BLOCK_THREADS_TOTAL // threads * threads
    x = cp.random.default_rng(17).integers(-1000, 1000, n, dtype=cp.int32)
    want = block_reference(cp, x, threads, kind)
    out = cp.zeros(n, dtype=cp.int32)

    def check():
        nbad = int((out != want).sum().get())
        return None if nbad == 0 else f"{nbad} of {n} differ"

    kernels = BENCHES[bench][1]
    for name in kernels:
        stem, function = kernel_location("block", name)
        f = c.module(stem).get_function(function)
        out.fill(0)
        c.measure(bench, "warp" if name == kernels[0] else name,
                  lambda f=f: f((n // threads,), (threads,), memref(np, x) + memref(np, out)), check, flush=True)
    if c.lib:
        # The hand-written kernels take whole warps only.
        impls = [("cub", 0 if kind == "reduce" else 1)]
        if threads % 32 == 0:
            impls.append(("hand", 2 if kind == "reduce" else 3))
        for impl, k in impls:
            def run(k=k):
                e = c.lib.block_micro(k, threads, ptr(x), ptr(out), ctypes.c_longlong(n), BLOCK_ROUNDS)
                if e:
                    raise RuntimeError(f"block_micro({k}): cudaError {e}")
            out.fill(0)
            c.measure(bench, impl, run, check, flush=True)


def run_child(args):
    c = Ctx(args)
    bench = args.child
    if bench == "copy":
        bench_copy(c, bench)
    elif bench.startswith(("sum", "dot", "levers")):
        bench_reduce(c, bench)
    elif bench.startswith("scan"):
        bench_scan(c, bench)
    elif bench.startswith("select"):
        bench_select(c, bench)
    elif bench.startswith("block"):
        bench_block(c, bench)
    c.time_all()


# --------------------------------------------------------------------------
# Parent side: build the baselines, run each benchmark, print, write JSON.
# --------------------------------------------------------------------------

def build_baselines(args, tmp):
    src = os.path.join(args.ptx_dir, "baselines.cu")
    if not os.path.exists(src):
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "device", "baselines.cu")
    so = os.path.join(tmp, "libbaselines.so")
    t0 = time.time()
    try:
        subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-shared", "-Xcompiler", "-fPIC", "-o", so, src],
                       check=True, capture_output=True, text=True, timeout=300)
    except Exception as error:  # noqa: BLE001 - the warp kernels still run
        detail = getattr(error, "stderr", "") or str(error)
        print(f"baselines did not build, CUB/hand-written columns are empty: {detail[-800:]}")
        return None
    print(f"baselines built in {time.time() - t0:.1f} s")
    return so


def meta():
    info = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    try:
        import cupy as cp
        props = cp.cuda.runtime.getDeviceProperties(0)
        info["device"] = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
        info["sms"] = props["multiProcessorCount"]
        v = cp.cuda.runtime.driverGetVersion()
        info["cuda_driver_api"] = f"{v // 1000}.{v % 1000 // 10}"
        smi = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
        info["driver"] = smi.stdout.strip()
    except Exception as error:  # noqa: BLE001
        info["meta_error"] = str(error)[:200]
    for path in (os.path.join(os.path.dirname(os.path.abspath(__file__)), "COMMIT"),):
        if os.path.exists(path):
            info["commit"] = open(path).read().strip()
    return info


def summarize(bench, rows, copy_gbps, n):
    entry = {"kernel": bench}
    for row in rows:
        impl = row["impl"]
        if "ms" in row:
            entry[f"{impl}_ms"] = row["ms"]
        if "value" in row:
            entry[impl] = row["value"]
        if "error" in row:
            entry.setdefault("errors", {})[impl] = row["error"]
    per = BENCHES[bench][2]
    if bench.startswith("select"):
        nbytes = n * 4 + entry.get("kept", 0) * 4
    elif bench == "copy":
        nbytes = 2 * n * 4
    elif bench.startswith("block"):
        nbytes = 2 * BLOCK_THREADS_TOTAL * 4
    else:
        nbytes = n * per
    entry["bytes"] = nbytes
    main = "copy" if bench == "copy" else "warp"
    if f"{main}_ms" in entry:
        t = entry[f"{main}_ms"]
        entry["gbps"] = nbytes / t / 1e6
        if copy_gbps and not bench.startswith("block"):
            entry["pct_copy"] = 100.0 * entry["gbps"] / copy_gbps
        for base in ("cub", "hand"):
            if f"{base}_ms" in entry:
                entry[f"ratio_{base}"] = entry[f"{base}_ms"] / t
        best = [entry[k] for k in ("triton_ms", "torch_ms") if k in entry]
        if best:
            entry["ratio_triton_torch"] = min(best) / t
        for k in list(entry):
            if k.endswith("_ms") and k[:-3] not in STANDARD_IMPLS:
                entry[f"ratio_{k[:-3]}"] = entry[k] / t  # a variant; > 1: the first kernel wins
    return entry


def fmt(entry):
    def r(key):
        return f"{entry[key]:.3f}" if key in entry else "  -  "
    if "warp_ms" not in entry and "copy_ms" not in entry:
        times = " ".join(f"{k[:-3]} {v:.4f} ms" for k, v in entry.items() if k.endswith("_ms"))
        return f"{entry['kernel']:24s} warp FAILED ({times}): {json.dumps(entry.get('errors', {}))[:400]}"
    t = entry.get("warp_ms", entry.get("copy_ms"))
    line = (f"{entry['kernel']:24s} {t:8.4f} ms {entry.get('gbps', 0):7.0f} GB/s "
            f"{entry.get('pct_copy', 0):5.1f}% copy  cub/warp {r('ratio_cub')}  hand/warp {r('ratio_hand')}  "
            f"best(triton,torch)/warp {r('ratio_triton_torch')}")
    for k in sorted(entry):
        if k.startswith("ratio_") and k[6:] not in STANDARD_IMPLS + ("triton_torch",):
            line += f"  {k[6:]}/warp {entry[k]:.3f}"
    if entry.get("errors"):
        line += "  errors: " + json.dumps(entry["errors"])[:300]
    return line


def dry_run(args):
    problems = []
    for bench, (ptx, kernels, _) in BENCHES.items():
        if not ptx:
            continue
        for k in kernels:
            stem, function = kernel_location(ptx, k)
            path = os.path.join(args.ptx_dir, stem + ".ptx")
            if not os.path.exists(path):
                problems.append(f"{bench}: {path} missing")
            elif not re.search(r"\.entry\s+" + re.escape(function) + r"\(", open(path).read()):
                problems.append(f"{bench}: kernel {function} not in {path}")
    for bench in BENCHES:
        print(f"would run {bench}")
    if problems:
        print("\n".join(problems))
        return 1
    print("dry run: plan OK")
    return 0



def run_isolated(cmd, timeout):
    """Runs one benchmark's child process (`cmd`, which prints a `RESULT
    {json}` line per implementation), again without the implementations
    that hung or lost the context, at most four times: ({impl: result},
    a note on how the last process ended, or None)."""
    by_impl, note, skip = {}, None, []
    for _ in range(4):
        try:
            proc = subprocess.run(cmd + ["--skip", ",".join(skip)], capture_output=True, text=True,
                                  timeout=timeout)
            stdout, rc, stderr = proc.stdout, proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as error:
            stdout = error.stdout.decode() if isinstance(error.stdout, bytes) else (error.stdout or "")
            rc, stderr = None, f"killed after {timeout} s"
        results = [json.loads(line[7:]) for line in stdout.splitlines() if line.startswith("RESULT ")]
        for result in results:
            by_impl[result["impl"]] = result
        note = None if rc == 0 else f"process exit {rc}: {stderr.strip()[-600:]}"
        fatal = [r["impl"] for r in results if r.get("fatal") and r["impl"] not in skip]
        if rc == 0 or not fatal:
            break
        skip += fatal
    return by_impl, note

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ptx-dir", required=True)
    parser.add_argument("--json")
    parser.add_argument("--svg", help="chart of the ratios (benchmarks/chart.py)")
    parser.add_argument("--only", help="comma-separated benchmark names")
    parser.add_argument("--iters", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--log2n", type=int, default=N_LOG2)
    parser.add_argument("--timeout", type=int, default=60, help="seconds per benchmark")
    parser.add_argument("--hang", type=float, default=10.0,
                        help="seconds a launch may take before it counts as hung")
    parser.add_argument("--no-sass", action="store_true", help="skip the SASS summary (cuobjdump)")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--skip", default="", help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--baselines-so", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(args)
        return 0
    if args.dry_run:
        return dry_run(args)
    names = args.only.split(",") if args.only else list(BENCHES)
    unknown = [b for b in names if b not in BENCHES]
    if unknown:
        sys.exit(f"unknown benchmarks: {unknown}")
    if "copy" not in names:
        names.insert(0, "copy")
    n = 1 << args.log2n
    results = []
    copy_gbps = None
    t_all = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        so = build_baselines(args, tmp)
        for bench in names:
            cmd = [sys.executable, os.path.abspath(__file__), "--child", bench, "--ptx-dir", args.ptx_dir,
                   "--iters", str(args.iters), "--warmup", str(args.warmup), "--log2n", str(args.log2n),
                   "--hang", str(args.hang)]
            if so:
                cmd += ["--baselines-so", so]
            by_impl, note = run_isolated(cmd, args.timeout)
            rows = list(by_impl.values())
            entry = summarize(bench, rows, copy_gbps, n)
            if note:
                entry.setdefault("errors", {})["process"] = note
            if bench == "copy" and "gbps" in entry:
                copy_gbps = entry["gbps"]
            results.append(entry)
            print(fmt(entry), flush=True)
        print(f"total {time.time() - t_all:.0f} s")
        sass = None
        if not args.no_sass:
            # Registers and instruction mix of every kernel, warp and baselines.
            try:
                sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
                import sass_summary
                sass = sass_summary.summary(args.ptx_dir, [so] if so else [])
                print("\nSASS (sm_90), registers and instruction mix:")
                print(sass_summary.format_summary(sass))
            except Exception as error:  # noqa: BLE001
                print(f"SASS summary failed: {error}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta(), "n": n, "copy_gbps": copy_gbps, "results": results, "sass": sass},
                      f, indent=1)
    if args.svg and args.json:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        try:
            import chart
            chart.main([args.json, "-o", args.svg])
        except Exception as error:  # noqa: BLE001
            print(f"chart failed: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
