"""Block-level collectives from the builder: IR, PTX (barriers, shared
scratch) and, on a GPU, results over a ragged block against numpy."""
import subprocess

import numpy as np
import pytest

import warp_mlir as wm
from conftest import requires_gpu

PROG = wm.Program("block_ops")


@PROG.kernel(x=wm.memref(wm.i32), out=wm.memref(wm.i32), n=wm.i32)
def block_ops(k, x, out, n):
    i = k.global_id()
    m = k.cast(n, wm.index)
    v = x[i]
    total = k.block_reduce("add", v)
    incl = k.block_scan("add", v)
    excl, tile_total = k.block_scan("add", v, exclusive=True, init=100, total=True)
    last = k.block_broadcast(v, n - 1)
    out[i] = total
    out[i + m] = incl
    out[i + m + m] = excl
    out[i + m + m + m] = tile_total + last


def test_block_ops_build_and_verify():
    text = str(PROG)
    for op in ("warp.block_reduce <add>", "warp.block_scan <add>",
               "warp.block_scan <add> %", "exclusive init", "warp.block_broadcast"):
        assert op in text, op
    wm.Module.parse(text).verify()


def test_block_ops_checked_at_the_call():
    prog = wm.Program()
    with pytest.raises(TypeError, match="kind <xor> combines integers"):
        @prog.kernel(x=wm.memref(wm.f32))
        def bad(k, x):
            k.block_reduce("xor", x[k.global_id()])


def test_block_ops_compile_and_assemble(ptxas, tmp_path):
    compiled = wm.compile(PROG, chip="sm_90")
    ptx = tmp_path / "block.ptx"
    ptx.write_text(compiled.ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(ptx), "-o", str(tmp_path / "block.cubin")],
                   check=True)
    # Two barriers per block op (the broadcast's first one: earlier readers of
    # its slot are done).
    assert compiled.ptx.count("bar.sync") == 2 + 2 + 2 + 2
    assert "__warp_block_scratch" in compiled.ptx


@requires_gpu
@pytest.mark.parametrize("threads", [180, 1024, 33])
def test_block_ops_on_the_gpu(threads):
    compiled = wm.compile(PROG, chip="sm_90")
    rng = np.random.default_rng(threads)
    x = rng.integers(-1000, 1000, threads).astype(np.int32)
    out = np.zeros(4 * threads, np.int32)
    wm.launch(compiled, "block_ops", 1, threads, x, out, threads)
    incl = np.cumsum(x, dtype=np.int64).astype(np.int32)
    assert (out[:threads] == x.sum()).all()
    assert (out[threads:2 * threads] == incl).all()
    excl = 100 + np.concatenate([[0], incl[:-1]])
    assert (out[2 * threads:3 * threads] == excl).all()
    assert (out[3 * threads:] == x.sum() + x[threads - 1]).all()
