"""TMA loads, mbarriers and setmaxnreg from the builder (sm_90/sm_90a),
warp_mlir.cuda.tensor_map, and examples/python/gemm_tma.py built from them.

CPU: the PTX each builder method gives and that ptxas assembles it for
sm_90a; the chip rule of warp-check-lowerable on them; the argument checks
of the methods and of tensor_map (fake device arrays: the checks come
before the driver); the GEMM's instruction mix, shared memory and
registers. GPU (an sm_90 device): one TMA load of a box reaching past the
array's edges, element by element (zeros outside); the GEMM against an
exact reference (small-integer inputs: every sum exact in f32) for f16 and
bf16, both tile widths, ragged shapes, whole and with K split in three.
"""
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import warp_mlir as wm
from test_wgmma import requires_hopper

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"))
import gemm_tma  # noqa: E402


def build_load(box, at, max_registers=False):
    """One block of 128 threads: thread 0 loads the box at `at` (row, col)
    of an f16 array by TMA into shared memory; after the barrier's phase 0
    every thread copies the box out to `out` as it lies there."""
    box_rows, box_cols = box
    prog = wm.Program("tma_test")

    @prog.kernel(tensor_map=wm.i64, out=wm.memref(wm.f16, box))
    def load(k, tensor_map, out):
        tile = k.dynamic_shared(wm.f16, box, align=1024)
        full = k.mbarrier(1)
        tid = k.thread_id("x")
        if max_registers:
            k.set_max_registers(40, increase=False)
        with k.if_(tid == 0):
            k.mbarrier_arrive_expect_tx(full, box_rows * box_cols * 2)
            k.tma_load(tensor_map, (at[1], at[0]), tile, (0, 0), full)
        k.mbarrier_wait(full, 0)
        with k.loop(tid, box_rows * box_cols, 128) as i:
            out[i // box_cols, i % box_cols] = tile[i // box_cols, i % box_cols]
        # Phase 1, once every thread is past its wait for phase 0.
        k.barrier()
        with k.if_(tid == 0):
            k.mbarrier_arrive(full)

    return prog, load.dynamic_shared_bytes


def assemble(ptxas, text, tmp_path, *flags):
    path = tmp_path / "k.ptx"
    path.write_text(text)
    return subprocess.run([ptxas, "-arch=sm_90a", *flags, str(path), "-o",
                           str(tmp_path / "k.cubin")], check=True, capture_output=True,
                          text=True).stderr


def test_load_ptx(ptxas, tmp_path):
    prog, _ = build_load((8, 64), (3, 0), max_registers=True)
    text = wm.compile(prog, chip="sm_90a").ptx
    assert text.count("mbarrier.init.shared.b64") == 1
    assert text.count("fence.mbarrier_init.release.cluster") == 1
    assert text.count("mbarrier.arrive.expect_tx.shared.b64") == 1
    assert text.count("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                      "mbarrier::complete_tx::bytes") == 1
    assert len(re.findall(r"mbarrier\.try_wait\.parity\.shared\.b64", text)) == 1
    assert text.count("mbarrier.arrive.shared.b64") == 1
    assert text.count("setmaxnreg.dec.sync.aligned.u32 \t40") == 1
    assemble(ptxas, text, tmp_path)


@pytest.mark.parametrize("chip", ["sm_80", "sm_89"])
def test_needs_sm_90(chip):
    prog, _ = build_load((8, 64), (0, 0))
    with pytest.raises(wm.MLIRError) as error:
        wm.compile(prog, chip=chip)
    for op in ("fence.mbarrier.init", "mbarrier.arrive.expect_tx", "mbarrier.try_wait.parity",
               "cp.async.bulk.tensor.shared.cluster.global"):
        assert f"'nvvm.{op}' op needs sm_90 or newer; the pipeline's chip is {chip}" \
            in str(error.value)


def test_setmaxnreg_needs_sm_90a():
    prog, _ = build_load((8, 64), (0, 0), max_registers=True)
    with pytest.raises(wm.MLIRError, match="'nvvm.setmaxregister' op needs sm_90a; the "
                                           "pipeline's chip is sm_90"):
        wm.compile(prog, chip="sm_90")


def build_with(body):
    prog = wm.Program("checks")

    @prog.kernel(tensor_map=wm.i64, x=wm.i32, g=wm.memref(wm.f16, (8, 64)))
    def kernel(k, tensor_map, x, g):
        body(k, tensor_map, x, g)


@pytest.mark.parametrize("body, error, text", [
    (lambda k, t, x, g: k.mbarrier(0), ValueError, "count"),
    (lambda k, t, x, g: k.mbarrier(1 << 20), ValueError, "count"),
    (lambda k, t, x, g: k.mbarrier(1, 0), ValueError, "number of mbarriers"),
    (lambda k, t, x, g: k.set_max_registers(44, True), ValueError, "multiple of 8"),
    (lambda k, t, x, g: k.set_max_registers(16, True), ValueError, "count"),
    (lambda k, t, x, g: k.mbarrier_arrive(g), TypeError, "1-D shared buffer of i64"),
    (lambda k, t, x, g: k.mbarrier_arrive(k.shared(wm.i32, 2)), TypeError, "i64"),
    (lambda k, t, x, g: k.mbarrier_arrive_expect_tx(k.mbarrier(1), 1 << 20), ValueError,
     "bytes"),
    (lambda k, t, x, g: k.mbarrier_wait(k.mbarrier(1), t), TypeError, "type mismatch"),
    (lambda k, t, x, g: k.tma_load(x, (0, 0), k.shared(wm.f16, (8, 64)), (0, 0),
                                   k.mbarrier(1)), TypeError, "i64 address or a global memref"),
    (lambda k, t, x, g: k.tma_load(t, (0, 0), g, (0, 0), k.mbarrier(1)), TypeError,
     "shared \\(workgroup\\) memory"),
    (lambda k, t, x, g: k.tma_load(t, (0,) * 6, k.shared(wm.f16, (8, 64)), (0, 0),
                                   k.mbarrier(1)), ValueError, "1 to 5 coordinates"),
    (lambda k, t, x, g: k.tma_load(k.shared(wm.i64, 16), (0, 0), k.shared(wm.f16, (8, 64)),
                                   (0, 0), k.mbarrier(1)), TypeError, "global memory"),
])
def test_argument_checks(body, error, text):
    with pytest.raises(error, match=text):
        build_with(body)


class FakeDeviceArray:
    """An array by the CUDA array interface only (no GPU needed until the
    driver is called, which the checks come before)."""

    def __init__(self, shape, typestr="<f2", address=1 << 32, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (address, False), "strides": strides,
                                         "version": 3}


@pytest.mark.parametrize("array, box, kwargs, text", [
    (np.zeros((8, 64), np.float16), (8, 64), {}, "needs a device array"),
    (FakeDeviceArray((8, 64), "<i4"), (8, 32), {}, "float16, bfloat16 or float32"),
    (FakeDeviceArray((512,)), (8, 64), {}, "2-D array"),
    (FakeDeviceArray((4, 8, 64)), (8, 64), {}, "2-D array"),
    (FakeDeviceArray((8, 0)), (8, 64), {}, "non-empty"),
    (FakeDeviceArray((8, 12)), (8, 8), {}, "multiple of 16 bytes apart"),
    (FakeDeviceArray((8, 64), address=(1 << 32) + 8), (8, 64), {}, "multiple of 16 bytes"),
    (FakeDeviceArray((8, 64), strides=(2, 16)), (8, 64), {}, "contiguous"),
    (FakeDeviceArray((8, 64)), (8, 128), {}, "at most 128 bytes"),
    (FakeDeviceArray((8, 64)), (8, 4), {}, "box row is a multiple of 16"),
    (FakeDeviceArray((8, 64)), (257, 64), {}, "box rows"),
    (FakeDeviceArray((8, 64)), (8,), {}, "box is \\(rows, columns\\)"),
    (FakeDeviceArray((8, 64)), (8, 64), {"swizzle": 96}, "swizzle is 0"),
    (FakeDeviceArray((8, 64)), (8, 64), {"l2_promotion": 32}, "l2_promotion"),
])
def test_tensor_map_checks(array, box, kwargs, text):
    with pytest.raises(ValueError, match=text):
        wm.cuda.tensor_map(array, box, **kwargs)


def test_stages_fill_shared_memory():
    assert [gemm_tma.stages_for(bn) for bn in (128, 256)] == [7, 4]
    for bn in (128, 256):
        _, shared = gemm_tma.build(wm.f16, bn)
        assert shared + 2 * gemm_tma.stages_for(bn) * 8 <= gemm_tma.SHARED_LIMIT
        assert shared + gemm_tma.stage_bytes(bn) > gemm_tma.SHARED_LIMIT - 1024


@pytest.mark.parametrize("bn", [128, 256])
@pytest.mark.parametrize("max_registers", [True, False])
def test_gemm_instruction_mix(bn, max_registers, ptxas, tmp_path):
    compiled, shared = gemm_tma.compile_gemm(wm.bf16, bn, max_registers=max_registers)
    text = compiled.ptx
    stages, panels = gemm_tma.stages_for(bn), bn // 64
    # The producer's loop: one wait (empty), one expect_tx, A's load and
    # B's panels; the consumers': one wait (full), four wgmmas, one
    # release. Nothing else waits: the barriers at the start only.
    assert text.count("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                      "mbarrier::complete_tx::bytes") == 1 + panels
    assert text.count("mbarrier.arrive.expect_tx.shared.b64") == 1
    assert len(re.findall(r"mbarrier\.try_wait\.parity\.shared\.b64", text)) == 2
    assert text.count(f"wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.bf16.bf16") == 4
    assert text.count("mbarrier.arrive.shared.b64") == 1
    assert text.count("mbarrier.init.shared.b64") == 2 * stages
    assert text.count("bar.sync") == 2
    assert re.findall(r"wgmma\.wait_group\.sync\.aligned\s+(\d+)", text) == ["1", "0"]
    assert "cp.async.cg" not in text and "ld.global" not in text
    assert ".maxntid 384, 1, 1" in text
    assert text.count("setmaxnreg") == (2 if max_registers else 0)
    assert shared == stages * gemm_tma.stage_bytes(bn) + 1024 - 16
    info = assemble(ptxas, text, tmp_path, "-v")
    assert "0 bytes spill stores, 0 bytes spill loads" in info
    assert "C7508" not in info  # setmaxnreg taken, not ignored


def test_rejects_unaligned_sizes():
    with pytest.raises(ValueError, match="multiples of 8"):
        gemm_tma.gemm(None, 0, np.zeros((4, 12), np.float16), np.zeros((12, 8), np.float16),
                      np.zeros((4, 8), np.float32))


# -- on the GPU -------------------------------------------------------------


@requires_hopper
@pytest.mark.parametrize("swizzle", [0, 128])
@pytest.mark.parametrize("at", [(0, 0), (3, 16), (12, 40), (-2, -8)])
def test_load_on_gpu(swizzle, at):
    """A 16 x 64 box of a 20 x 72 array: what lies outside reads as zeros.
    With the 128-byte swizzle the box's 16-byte chunk c of row r lies at
    chunk c ^ (r % 8) of shared row r."""
    import torch

    rows, cols, box = 20, 72, (16, 64)
    x = torch.arange(rows * cols, device="cuda", dtype=torch.float32).reshape(rows, cols)
    x = (x % 2039).half()  # exact in f16
    want = torch.zeros(box, dtype=torch.float16)
    r0, c0 = at
    for r in range(box[0]):
        for c in range(box[1]):
            if 0 <= r0 + r < rows and 0 <= c0 + c < cols:
                want[r, c] = x[r0 + r, c0 + c].cpu()
    if swizzle:
        unswizzled = want.clone()
        for r in range(box[0]):
            for chunk in range(8):
                place = chunk ^ (r % 8)
                want[r, place * 8:place * 8 + 8] = unswizzled[r, chunk * 8:chunk * 8 + 8]
    tensor_map = wm.cuda.tensor_map(x, box, swizzle=swizzle)
    out = torch.full(box, float("nan"), device="cuda", dtype=torch.float16)
    prog, shared = build_load(box, at)
    wm.launch(wm.compile(prog, chip="sm_90a"), "load", 1, 128, tensor_map.address, out,
              shared_bytes=shared)
    assert torch.equal(out.cpu(), want)


@requires_hopper
def test_tensor_map_on_gpu():
    import torch

    x = torch.zeros(300, 264, device="cuda", dtype=torch.bfloat16)
    tensor_map = wm.cuda.tensor_map(x, (64, 64))
    assert tensor_map.address % 64 == 0 and tensor_map.shape == (300, 264)
    assert tensor_map.__cuda_array_interface__["shape"] == (16,)


@requires_hopper
@pytest.mark.parametrize("element", ["f16", "bf16"])
@pytest.mark.parametrize("bn", [128, 256])
@pytest.mark.parametrize("splits", [1, 3])
@pytest.mark.parametrize("m, n, kk", [(1, 8, 8), (128, 256, 64), (300, 264, 200),
                                      (129, 136, 72), (17, 1000, 96), (512, 512, 4096)])
def test_gemm_on_gpu(element, bn, splits, m, n, kk):
    import torch

    dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[element]
    gen = torch.Generator(device="cuda").manual_seed(m * 7 + n * 3 + kk)
    a = torch.randint(-3, 4, (m, kk), device="cuda", generator=gen).to(dtype)
    b = torch.randint(-3, 4, (kk, n), device="cuda", generator=gen).to(dtype)
    c = torch.full((m, n), float("nan"), device="cuda")
    compiled, shared = gemm_tma.compile_gemm({"f16": wm.f16, "bf16": wm.bf16}[element], bn)
    gemm_tma.gemm(compiled, shared, a, b, c, bn, splits)
    want = a.cpu().double() @ b.cpu().double()
    np.testing.assert_array_equal(c.cpu().numpy(), want.float().numpy())
