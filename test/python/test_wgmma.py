"""warp.wgmma and warp.wgmma_descriptor (sm_90a), and
examples/python/gemm_wgmma.py built from them.

CPU: the PTX of one warpgroup multiply is one wgmma.mma_async per k16 of
the m64nNk16 shape asked for, with B's transpose flag where B is N-major,
and ptxas assembles it for sm_90a; the GEMM's K loop is the expected
instruction mix and assembles without spills. GPU (an sm_90 device): D
against numpy, exactly (small-integer inputs make every sum exact in f32),
for every n the tests name, f16 and bf16, B N-major and K-major; the GEMM
on shapes with ragged edges. The simulator does not model wgmma.
"""
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import warp_mlir as wm
from conftest import HAS_GPU
from test_mma_sync import bf16_bits

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"))
import gemm_wgmma  # noqa: E402
from test_gemm import loop_body  # noqa: E402


def _is_hopper():
    if not HAS_GPU:
        return False
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.get_device_capability() == (9, 0)


requires_hopper = pytest.mark.skipif(not _is_hopper(), reason="needs an sm_90 GPU (wgmma)")

K = 64  # the multiply's K: four k16 steps


def swizzled(row, col):
    """Element (row, col) of a tile of 128-byte rows (64 16-bit elements)
    under the 128-byte swizzle: as (row, column) of the shared buffer."""
    return row, ((col // 8) ^ (row % 8)) * 8 + col % 8


def build_multiply(n, element, b_mn_major):
    """One warpgroup: D (64 x n, f32) = A (64 x K) @ B (K x n). A in shared
    memory K-major; B N-major (panels of 64 columns, K rows each) or
    K-major (n rows of K); both 128-byte swizzled, filled element by
    element from global memory."""
    panels = max(1, n // 64)
    prog = wm.Program("wgmma_test")

    @prog.kernel(a=wm.memref(element, (64, K)), b=wm.memref(element, (K, n)),
                 d=wm.memref(wm.f32, (64, n)))
    def multiply(k, a, b, d):
        sa = k.shared(element, (64, 64), align=1024)
        sb = k.shared(element, (panels * K if b_mn_major else n, 64), align=1024)
        tid = k.thread_id("x")
        with k.loop(tid, 64 * K, 128) as i:
            row, col = i // K, i % K
            sa[swizzled(row, col)] = a[row, col]
        with k.loop(tid, K * n, 128) as i:
            kr, col = i // n, i % n
            if b_mn_major:
                r, c = swizzled(kr, col % 64)
                sb[(col // 64) * K + r, c] = b[kr, col]
            else:
                sb[swizzled(col, kr)] = b[kr, col]
        k.fence_async_shared()
        k.barrier()
        acc = k.constant(0.0, wm.vector(n // 2, wm.f32))
        k.wgmma_fence()
        for s in range(K // 16):
            da = k.wgmma_descriptor(sa, (0, 16 * s), swizzle=128, stride=1024)
            if b_mn_major:
                db = k.wgmma_descriptor(sb, (16 * s, 0), swizzle=128, leading=K * 128,
                                        stride=1024)
            else:
                db = k.wgmma_descriptor(sb, (0, 16 * s), swizzle=128, stride=1024)
            acc = k.wgmma(da, db, acc, input=element, b_mn_major=b_mn_major)
        k.wgmma_commit()
        k.wgmma_wait(0)
        # Thread t, position i: row 16 (t / 32) + (t % 32) / 4 + 8 (i / 2 % 2),
        # column 8 (i / 4) + 2 (t % 4) + i % 2 (the op's description).
        lane, warp = tid % 32, tid // 32
        for i in range(0, n // 2, 2):
            row = warp * 16 + lane // 4 + 8 * (i // 2 % 2)
            col = 8 * (i // 4) + 2 * (lane % 4)
            k.store_vector(d, (row, col), k.vector_slice(acc, i, 2))

    return prog


CASES = [(n, element, major) for n in (16, 64, 128, 256) for element in ("f16", "bf16")
         for major in (True, False)]


def case_id(case):
    n, element, major = case
    return f"n{n}-{element}-{'nmajor' if major else 'kmajor'}"


def elements(name):
    return {"f16": wm.f16, "bf16": wm.bf16}[name]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_multiply_ptx(case, ptxas, tmp_path):
    n, element, major = case
    text = wm.compile(build_multiply(n, elements(element), major), chip="sm_90a").ptx
    mmas = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.(\w+)\.(\w+) "
                      r"\{[^}]*\}, %rd\d+, %rd\d+, p, 1,\s*1, (\d),\s*(\d);", text)
    assert mmas == [(str(n), element, element, "0", "1" if major else "0")] * (K // 16)
    for fence in ("wgmma.fence.sync.aligned", "wgmma.commit_group.sync.aligned",
                  "fence.proxy.async.shared::cta"):
        assert text.count(fence) == 1
    assert re.findall(r"wgmma\.wait_group\.sync\.aligned\s+(\d+)", text) == ["0"]
    path = tmp_path / "m.ptx"
    path.write_text(text)
    subprocess.run([ptxas, "-arch=sm_90a", str(path), "-o", str(tmp_path / "m.cubin")],
                   check=True)


def test_needs_sm_90a():
    # The wgmma fences are rejected first (warp-check-lowerable); warp.wgmma
    # itself where no NVVM op says so (test/Conversion/WarpToNVVM/warp-wgmma.mlir).
    with pytest.raises(wm.MLIRError, match="'nvvm.wgmma.fence.aligned' op needs sm_90a; "
                                           "the pipeline's chip is sm_90"):
        wm.compile(build_multiply(64, wm.f16, True), chip="sm_90")


def host_inputs(element, *shapes, seed):
    rng = np.random.default_rng(seed)
    exact = [rng.integers(-3, 4, shape).astype(np.float32) for shape in shapes]
    if element == "f16":
        return exact, [x.astype(np.float16) for x in exact]
    return exact, [bf16_bits(x).view("V2") for x in exact]


@requires_hopper
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_multiply_on_gpu(case):
    n, element, major = case
    (a, b), (ga, gb) = host_inputs(element, (64, K), (K, n), seed=n)
    d = np.full((64, n), np.nan, np.float32)
    compiled = wm.compile(build_multiply(n, elements(element), major), chip="sm_90a")
    wm.launch(compiled, "multiply", 1, 128, ga, gb, d)
    np.testing.assert_array_equal(d, a @ b)


@pytest.mark.parametrize("bn", [128, 256])
def test_gemm_loop_instruction_mix(bn, ptxas, tmp_path):
    compiled, shared = gemm_wgmma.compile_gemm(wm.f16, bn)
    text = compiled.ptx
    body = loop_body(text)
    assert body.count(f"wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.f16.f16") == 4
    chunks = (gemm_wgmma.BM * 8 + gemm_wgmma.BK * bn // 8) // gemm_wgmma.THREADS
    assert body.count("cp.async.cg.shared.global") == chunks
    assert re.findall(r"cp\.async\.wait_group\s+(\d+)", body) == [str(gemm_wgmma.STAGES - 2)]
    assert re.findall(r"wgmma\.wait_group\.sync\.aligned\s+(\d+)", body) == ["1"]
    assert body.count("bar.sync") == 1 and body.count("fence.proxy.async.shared::cta") == 1
    assert "ld.global" not in body and "st.shared" not in body
    # Both stages' tiles, 1024-aligned at run time.
    tiles = gemm_wgmma.STAGES * gemm_wgmma.BK * (gemm_wgmma.BM + bn) * 2
    assert shared == tiles + 1024 - 16
    path = tmp_path / "g.ptx"
    path.write_text(text)
    info = subprocess.run([ptxas, "-arch=sm_90a", "-v", str(path), "-o", str(tmp_path / "g.cubin")],
                          check=True, capture_output=True, text=True).stderr
    assert "0 bytes spill stores, 0 bytes spill loads" in info


@requires_hopper
@pytest.mark.parametrize("element", ["f16", "bf16"])
@pytest.mark.parametrize("bn", [128, 256])
@pytest.mark.parametrize("splits", [1, 3])
@pytest.mark.parametrize("m, n, kk", [(1, 8, 8), (128, 256, 64), (300, 264, 200),
                                      (129, 136, 40), (1100, 520, 328), (17, 1000, 96),
                                      (130, 72, 1600)])
def test_gemm_on_gpu(element, bn, splits, m, n, kk):
    """Split K (3 parts) too: parts of 2 and 1 tiles, parts past the last
    tile (K = 8, 40, 64), 9-tile parts with a ragged end (K = 1600)."""
    (a, b), (ga, gb) = host_inputs(element, (m, kk), (kk, n), seed=m * 7 + n * 3 + kk)
    c = np.full((m, n), np.nan, np.float32)
    compiled, shared = gemm_wgmma.compile_gemm(elements(element), bn)
    gemm_wgmma.gemm(compiled, shared, ga, gb, c, bn, splits)
    np.testing.assert_array_equal(c, a @ b)


def test_tile_n():
    assert [gemm_wgmma.tile_n(n) for n in (8, 128, 136, 8192)] == [128, 128, 256, 256]


def test_splits_fill_the_sms():
    # 64 tiles of 128 x 256 on 132 SMs: two parts; 32 tiles: four; 512: one.
    assert gemm_wgmma.splits_for(8192, 128, 8192, 132) == 2
    assert gemm_wgmma.splits_for(128, 8192, 8192, 132) == 4
    assert gemm_wgmma.splits_for(4096, 4096, 4096, 132) == 1
    # Parts of at least 8 K tiles: K = 1024 is 16 tiles, at most two parts.
    assert gemm_wgmma.splits_for(128, 8192, 1024, 132) == 2


def test_rejects_unaligned_sizes():
    with pytest.raises(ValueError, match="multiples of 8"):
        gemm_wgmma.gemm(None, 0, np.zeros((4, 12), np.float16), np.zeros((12, 8), np.float16),
                        np.zeros((4, 8), np.float32))
