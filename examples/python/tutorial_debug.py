"""Tutorial, Python part 2 (docs/Tutorial.md): debugging a kernel that
computes the wrong result, without a GPU.

The task: x holds rows of 8 int32 values, one lane per value (4 rows per
warp); out[i] is the inclusive prefix sum of x[i]'s row up to x[i].

    python3 examples/python/tutorial_debug.py

runs three versions on the SIMT simulator of PTX (and on the GPU with --gpu): `buggy` forgets the scan's width, so the prefix sums run
on across rows; `fixed` is the correction; `typo` (a half-warp variant)
names a member mask without the lanes that execute the scan, which warp-lint
reports at its Python line and the simulator as undefined behaviour.
"""
import os
import warnings

import numpy as np

import warp_mlir as wm

ROW = 8
BLOCK = 32
PARAMS = dict(x=wm.memref(wm.i32, (64,)), out=wm.memref(wm.i32, (64,)))

buggy = wm.Program("buggy")


@buggy.kernel(**PARAMS)
def row_prefix(k, x, out):
    i = k.global_id()
    out[i] = k.scan("add", x[i])                     # bug: scans the whole warp


fixed = wm.Program("fixed")


@fixed.kernel(**PARAMS)
def row_prefix(k, x, out):  # noqa: F811 (one kernel of the same name per program)
    i = k.global_id()
    out[i] = k.scan("add", x[i], width=ROW)          # segments of 8 lanes


typo = wm.Program("typo")


@typo.kernel(**PARAMS)
def row_prefix(k, x, out):  # noqa: F811
    i = k.global_id()
    with k.if_(k.lane_id() < 16):                    # rows 0 and 1 of each warp only
        out[i] = k.scan("add", x[i], width=ROW, mask=0xFFF)   # bug: 0xFFFF meant


def reference(x: np.ndarray) -> np.ndarray:
    """What out should hold: a prefix sum per row of 8."""
    return np.cumsum(x.reshape(-1, ROW), axis=1, dtype=np.int32).reshape(-1)


# ---------------------------------------------------------------- simulator

# The simulator's report of undefined behaviour (instruction, lane, why).
UndefinedBehaviour = wm.sim.SimError


def simulate(compiled: wm.CompiledModule, kernel: str, grid: int, block: int,
             *arrays: np.ndarray) -> list:
    """Runs a kernel on the SIMT simulator (wm.launch(..., backend="sim"))
    and returns its arrays as they are after the launch. Raises
    UndefinedBehaviour with the simulator's report."""
    arrays = [a.copy() for a in arrays]
    wm.launch(compiled, kernel, grid, block, *arrays, backend="sim")
    return arrays


def run_kernel(compiled: wm.CompiledModule, x: np.ndarray, on_gpu: bool = False) -> np.ndarray:
    """out for input x, from the simulator or (on_gpu) a GPU launch."""
    out = np.zeros_like(x)
    grid = len(x) // BLOCK
    if on_gpu:
        wm.launch(compiled, "row_prefix", grid, BLOCK, x, out)   # numpy arrays: copied in and out
        return out
    return simulate(compiled, "row_prefix", grid, BLOCK, x, out)[1]


# ---------------------------------------------------------------- the steps

def first_differences(out: np.ndarray, want: np.ndarray, count: int = 4) -> list:
    """(index, got, expected) of the first elements that differ."""
    wrong = np.flatnonzero(out != want)
    return [(int(i), int(out[i]), int(want[i])) for i in wrong[:count]]


def lint_warnings(program: wm.Program) -> list:
    """warp-lint's warnings about a program, as (file, line, message)."""
    module = wm.Module.parse(program.to_mlir())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", wm.MLIRWarning)
        module.run("warp-lint")
    return [(w.filename, w.lineno, str(w.message)) for w in caught
            if issubclass(w.category, wm.MLIRWarning)]


def main(on_gpu: bool = False) -> None:
    x = np.arange(1, 65, dtype=np.int32)
    want = reference(x)

    print("1. run it and compare with the reference")
    compiled = wm.compile(buggy, chip="sm_90")
    out = run_kernel(compiled, x, on_gpu)
    for i, got, expected in first_differences(out, want):
        print(f"   out[{i}] = {got}, expected {expected}")

    print("2. read the IR: the scan, and the Python line that wrote it")
    for line in str(buggy).splitlines():
        if "warp.scan" in line:
            print("  ", line.strip())

    print("3. read the PTX: a whole-warp scan is 5 shfl.sync.up, a scan over 8 lanes 3")
    for line in compiled.ptx.splitlines():
        if "shfl.sync.up" in line:
            print("  ", line.strip())

    print("4. the fix: width=ROW")
    out = run_kernel(wm.compile(fixed, chip="sm_90"), x, on_gpu)
    print("   matches the reference:", bool((out == want).all()))

    print("5. a wrong mask: warp-lint names the Python line")
    for file, line, message in lint_warnings(typo):
        print(f"   {os.path.basename(file)}:{line}: warning: {message}")
    try:
        simulate(wm.compile(typo, chip="sm_90"), "row_prefix", 2, BLOCK, x, np.zeros_like(x))
    except UndefinedBehaviour as report:
        print("  ", report)


if __name__ == "__main__":
    import sys
    main(on_gpu="--gpu" in sys.argv[1:])
