"""The two readings of a device op's launch rules agree.

warp-expand-device-ops states how its kernels are launched twice: as host
code (gpu.launch_func ops under scf.if forks on n and on the grids) and as
attributes on the kernels, which the Python frontend reads (_Plan.launches)
to launch them itself. This test runs the host code of every module the
frontend compiles for the calls below through warp-cuda-runner against a
stand-in libcuda that logs each launch (test/Integration/CUDA/stub-driver:
no kernel runs) and compares the kernels and grids with the frontend's, at
0, 1 and the sizes either side of every threshold the plan states (a
grid's items, a cap's, a single block's, an alone launch's bounds, a
cluster's).
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import warp_mlir.device as wd

_BUILD = Path(os.environ.get("WARP_MLIR_LIBRARY", "/nonexistent")).resolve().parent.parent
RUNNER = _BUILD / "bin" / "warp-cuda-runner"
STUB = Path(__file__).resolve().parent.parent / "Integration" / "CUDA" / "stub-driver" / \
    "stub_libcuda.c"
CC = shutil.which("clang-22") or shutil.which("cc")

pytestmark = pytest.mark.skipif(not RUNNER.exists() or CC is None,
                                reason="needs the build's warp-cuda-runner and a C compiler")

# The allocation between two calls of the op in the runner's log.
MARK = 7777
# The largest input tried: the stand-in driver mallocs every buffer.
MOST = 1 << 22


def _calls():
    """The frontend calls whose modules are checked (launches stubbed out:
    only their plans are made), on arrays of 10 elements."""
    x, f = np.arange(10, dtype=np.int32), np.linspace(-1, 1, 10).astype(np.float32)
    flags = np.ones(10, np.int8)
    offsets = np.array([0, 4, 10], np.int32)
    return [
        lambda: wd.reduce(x), lambda: wd.reduce(f, "maxnumf", cluster_blocks=4),
        lambda: wd.scan(x), lambda: wd.scan(f, exclusive=True),
        lambda: wd.scan(x, cluster_blocks=2), lambda: wd.scan(f, keys=x),
        lambda: wd.select(f, flags), lambda: wd.partition(f, flags), lambda: wd.unique(x),
        lambda: wd.run_length_encode(x), lambda: wd.non_trivial_runs(x),
        lambda: wd.histogram(x.astype(np.uint8), 256),
        lambda: wd.histogram_even(f, 16, -1.0, 1.0),
        lambda: wd.radix_sort(x), lambda: wd.radix_sort(f, x),
        lambda: wd.radix_sort(x.copy(), out=np.empty_like(x), double_buffer=True),
        lambda: wd.segmented_radix_sort(x, offsets),
        lambda: wd.segmented_reduce(f, offsets),
        lambda: wd.select(f, pred=("gt", 0)), lambda: wd.partition(x, pred=("<", 3)),
        lambda: wd.histogram_range(f, np.linspace(-1, 1, 9).astype(np.float32)),
        lambda: wd.reduce((x, x), _affine, init=(1, 0)),
        lambda: wd.scan((x, x), _affine, init=(1, 0)),
        lambda: wd.scan((x, x), _affine, keys=x),
        lambda: wd.segmented_reduce((x, x), offsets, _affine, init=(1, 0)),
    ]


def _affine(k, left, right):
    """x -> a x + b, the left map first: a combiner over pairs."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


@pytest.fixture(scope="module")
def plans():
    """(host function text, plan) of every module the calls compile."""
    made = []
    original_plan_of, original_launch, kept = wd._plan_of, wd._launch, dict(wd._plans)

    def plan_of(key, text, chip):
        plan = original_plan_of(key, text, chip)
        if all(text != t for t, _ in made):
            made.append((text, plan))
        return plan

    wd._plan_of, wd._launch = plan_of, (lambda *args, **kwargs: None)
    wd._plans.clear()
    try:
        for call in _calls():
            try:
                call()
            except (TypeError, ValueError, AttributeError):
                pass  # outputs the stubbed launch did not fill; the plan is made
    finally:
        wd._plan_of, wd._launch = original_plan_of, original_launch
        wd._plans.clear()
        wd._plans.update(kept)
    return made


@pytest.fixture(scope="module")
def stub(tmp_path_factory):
    where = tmp_path_factory.mktemp("stub")
    subprocess.run([CC, "-shared", "-fPIC", "-o", str(where / "libcuda.so.1"), str(STUB)],
                   check=True)
    return where


def _sizes(plan):
    """0, 1 and either side of each threshold of the plan, up to MOST."""
    thresholds = {plan.scratch[2]}
    for k in plan.kernels:
        for value in (k.items, k.single, k.alone_up_to, k.alone_over):
            if value:
                thresholds.add(value)
        if k.items:
            thresholds.add(k.items * k.cluster)
            if k.most:
                thresholds.add(k.items * k.most)
        if k.least:
            # Where a block a tile stops adding blocks (B tiles), and
            # where the grid's own rule passes B.
            blocks, items = k.least
            thresholds.update({items, blocks * items})
            if k.items:
                thresholds.add(blocks * k.items)
    sizes = {0, 1}
    for t in thresholds:
        sizes.update(s for s in (t - 1, t, t + 1) if 0 <= s <= MOST)
    return sorted(sizes)


def _main(text, sizes):
    """A module of the host function `text` and a main that calls it once
    for each size (every dynamic memref that long, scalars 0), an
    allocation of MARK bytes after each call."""
    head = re.match(r"func\.func @device_op\((.*?)\)( -> (\S+))? \{", text, re.S)
    types = [part.split(":", 1)[1].strip() for part in re.split(r",\s*(?=%\w+:)", head.group(1))]
    result = head.group(3)
    lines = ["  func.func @main() {"]
    for s, n in enumerate(sizes):
        lines.append(f"    %n{s} = arith.constant {n} : index")
        args = []
        for i, type_ in enumerate(types):
            name = f"%v{s}_{i}"
            if type_.startswith("memref<?x"):
                lines.append(f"    {name} = gpu.alloc (%n{s}) : {type_}")
            elif type_.startswith("memref<"):
                lines.append(f"    {name} = gpu.alloc () : {type_}")
            else:
                zero = "0.0" if type_.startswith(("f", "bf")) else "0"
                lines.append(f"    {name} = arith.constant {zero} : {type_}")
            args.append(name)
        call = f"call @device_op({', '.join(args)}) : ({', '.join(types)}) -> ({result or ''})"
        lines.append(f"    {f'%r{s} = ' if result else ''}{call}")
        lines.append(f"    %mark{s} = gpu.alloc () : memref<{MARK}xi8>")
    lines += ["    return", "  }"]
    return "module {\n" + text + "\n" + "\n".join(lines) + "\n}\n"


def _logged_launches(log):
    """(kernel, grid x) of each call, in order, from the stand-in's log."""
    calls, current, kernel = [], [], None
    for line in log.splitlines():
        if line == f"cuda: cuMemAlloc bytes={MARK}":
            calls.append(current)
            current = []
        elif line.startswith("cuda: cuModuleGetFunction "):
            kernel = line.split()[-1]
        elif line.startswith("cuda: cuLaunchKernel grid=("):
            current.append((kernel, int(line.split("(")[1].split(",")[0])))
    return calls


def test_host_code_and_frontend_launch_alike(plans, stub, tmp_path):
    assert len(plans) >= len(_calls())  # every call made a module (some two)
    for index, (text, plan) in enumerate(plans):
        sizes = _sizes(plan)
        source = tmp_path / f"op{index}.mlir"
        source.write_text(_main(text, sizes))
        run = subprocess.run([str(RUNNER), str(source), "--entry-point-result=void"],
                             capture_output=True, text=True,
                             env=dict(os.environ, LD_LIBRARY_PATH=str(stub)))
        assert run.returncode == 0, f"{text}\n{run.stderr[-2000:]}"
        logged = _logged_launches(run.stderr)
        assert len(logged) == len(sizes), text
        for n, launched in zip(sizes, logged):
            arrays = [np.empty(n, np.int8)] * 8  # every operand's length: n
            want = [(kernel, grid) for kernel, grid, _ in plan.launches(n, arrays)]
            assert launched == want, f"n={n}\n{text}"
