"""Dynamic shared memory (k.dynamic_shared) beside static shared memory (a
k.shared buffer, a block collective's buffers) in one kernel: each keeps
its own bytes. Upstream's lowering had declared the dynamic base as a
one-byte static variable ahead of the static ones, so the dynamic buffer's
bytes lay over theirs (docs/Robustness.md; warp-extern-dynamic-shared).
Expected values from numpy, on the simulator (and a GPU)."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS

THREADS = 128


@functools.lru_cache(maxsize=None)
def program(align):
    """Thread t writes t to a static buffer and 1000 + t to a dynamic one
    (of `align`-byte alignment), block-reduces t, then reads both buffers
    mirrored: out_static[t] = 127 - t, out_dynamic[t] = 1127 - t, sums[t]
    = 0 + ... + 127."""
    prog = wm.Program(f"dynamic_shared_{align}")

    @prog.kernel(out_static=wm.memref(wm.i32), out_dynamic=wm.memref(wm.i32),
                 sums=wm.memref(wm.i32))
    def both(k, out_static, out_dynamic, sums):
        k.known_block_size(THREADS)
        fixed = k.shared(wm.i32, THREADS)
        dynamic = k.dynamic_shared(wm.i32, THREADS, align=align)
        tid = k.thread_id("x")
        t = k.cast(tid, wm.i32)
        fixed[tid] = t
        dynamic[tid] = t + 1000
        total = k.block_reduce("add", t)
        k.barrier()
        mirror = THREADS - 1 - tid
        out_static[tid] = fixed[mirror]
        out_dynamic[tid] = dynamic[mirror]
        sums[tid] = total

    return wm.compile(prog, chip="sm_90"), both.dynamic_shared_bytes


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("align", [16, 1024])
def test_dynamic_beside_static(backend, align):
    compiled, shared_bytes = program(align)
    out_static = np.zeros(THREADS, np.int32)
    out_dynamic = np.zeros(THREADS, np.int32)
    sums = np.zeros(THREADS, np.int32)
    wm.launch(compiled, "both", 1, THREADS, out_static, out_dynamic, sums,
              shared_bytes=shared_bytes, backend=backend)
    mirror = np.arange(THREADS - 1, -1, -1, dtype=np.int32)
    np.testing.assert_array_equal(out_static, mirror)
    np.testing.assert_array_equal(out_dynamic, mirror + 1000)
    np.testing.assert_array_equal(sums, np.full(THREADS, THREADS * (THREADS - 1) // 2, np.int32))


def test_ptx_declares_the_dynamic_window():
    compiled, _ = program(16)
    assert ".extern .shared .align 16 .b8 __dynamic_shmem__" in compiled.ptx
