"""warp.wgmma and warp.wgmma_descriptor (sm_90a), and
examples/python/gemm_wgmma.py built from them.

CPU: the PTX of one warpgroup multiply is one wgmma.mma_async per 32
bytes of K of the m64nNk shape asked for (f16, bf16, tf32, e4m3, e5m2, s8,
u8), with B's transpose flag where a 16-bit B is N-major, and ptxas
assembles it for sm_90a; the GEMM's K loop is the expected instruction mix
and assembles without spills. GPU (an sm_90 device): D against numpy,
exactly (small-integer inputs make every sum exact), for every n and input
the tests name; the GEMM on shapes with ragged edges, with and without
split K. The simulator does not model wgmma.
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

# The inputs: (name, element type in memory, the op's input type, bytes,
# unsigned). 8-bit tiles travel as i8 (the op's input type says how the
# tensor cores read the bytes).
INPUTS = {
    "f16": (wm.f16, wm.f16, 2, False),
    "bf16": (wm.bf16, wm.bf16, 2, False),
    "tf32": (wm.f32, wm.f32, 4, False),
    "e4m3": (wm.i8, wm.Type("f8E4M3FN"), 1, False),
    "e5m2": (wm.i8, wm.Type("f8E5M2"), 1, False),
    "s8": (wm.i8, wm.i8, 1, False),
    "u8": (wm.i8, wm.i8, 1, True),
}
STEPS = 4  # k steps of 32 bytes: K is one 128-byte row of A


def swizzled(row, col, per_chunk):
    """Element (row, col) of a tile of 128-byte rows under the 128-byte
    swizzle (16-byte chunks of `per_chunk` elements): as (row, column) of
    the shared buffer."""
    return row, ((col // per_chunk) ^ (row % 8)) * per_chunk + col % per_chunk


def build_multiply(n, name, b_mn_major):
    """One warpgroup: D (64 x n) = A (64 x K) @ B (K x n), K = 128 bytes of
    the input. A in shared memory K-major; B N-major (panels of 64 columns,
    K rows each; 16-bit inputs only) or K-major (n rows of K); both
    128-byte swizzled, filled element by element from global memory."""
    memory, input, size, unsigned = INPUTS[name]
    row, chunk, kk = 128 // size, 16 // size, 128 // size
    accumulator = wm.i32 if name in ("s8", "u8") else wm.f32
    panels = max(1, n // 64)
    prog = wm.Program("wgmma_test")

    @prog.kernel(a=wm.memref(memory, (64, kk)), b=wm.memref(memory, (kk, n)),
                 d=wm.memref(accumulator, (64, n)))
    def multiply(k, a, b, d):
        sa = k.shared(memory, (64, row), align=1024)
        sb = k.shared(memory, (panels * kk if b_mn_major else n, row), align=1024)
        tid = k.thread_id("x")
        with k.loop(tid, 64 * kk, 128) as i:
            r, c = i // kk, i % kk
            sa[swizzled(r, c, chunk)] = a[r, c]
        with k.loop(tid, kk * n, 128) as i:
            kr, col = i // n, i % n
            if b_mn_major:
                r, c = swizzled(kr, col % 64, chunk)
                sb[(col // 64) * kk + r, c] = b[kr, col]
            else:
                sb[swizzled(col, kr, chunk)] = b[kr, col]
        k.fence_async_shared()
        k.barrier()
        acc = k.constant(0, wm.vector(n // 2, accumulator))
        k.wgmma_fence()
        step = 32 // size
        for s in range(STEPS):
            da = k.wgmma_descriptor(sa, (0, step * s), swizzle=128, stride=1024)
            if b_mn_major:
                db = k.wgmma_descriptor(sb, (step * s, 0), swizzle=128, leading=kk * 128,
                                        stride=1024)
            else:
                db = k.wgmma_descriptor(sb, (0, step * s), swizzle=128, stride=1024)
            acc = k.wgmma(da, db, acc, input=input, b_mn_major=b_mn_major,
                          a_unsigned=unsigned, b_unsigned=unsigned)
        k.wgmma_commit()
        k.wgmma_wait(0)
        # Thread t, position i: row 16 (t / 32) + (t % 32) / 4 + 8 (i / 2 % 2),
        # column 8 (i / 4) + 2 (t % 4) + i % 2 (the op's description).
        lane, warp = tid % 32, tid // 32
        for i in range(0, n // 2, 2):
            r = warp * 16 + lane // 4 + 8 * (i // 2 % 2)
            col = 8 * (i // 4) + 2 * (lane % 4)
            k.store_vector(d, (r, col), k.vector_slice(acc, i, 2))

    return prog


CASES = ([(n, name, major) for n in (16, 64, 128, 256) for name in ("f16", "bf16")
          for major in (True, False)]
         + [(n, name, False) for n in (16, 64, 256) for name in ("tf32", "e4m3", "e5m2", "s8", "u8")])


def case_id(case):
    n, name, major = case
    return f"n{n}-{name}-{'nmajor' if major else 'kmajor'}"


def elements(name):
    return {"f16": wm.f16, "bf16": wm.bf16}[name]


PTX_TYPES = {"f16": "f32.f16.f16", "bf16": "f32.bf16.bf16", "tf32": "f32.tf32.tf32",
             "e4m3": "f32.e4m3.e4m3", "e5m2": "f32.e5m2.e5m2", "s8": "s32.s8.s8",
             "u8": "s32.u8.u8"}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_multiply_ptx(case, ptxas, tmp_path):
    n, name, major = case
    size = INPUTS[name][2]
    text = wm.compile(build_multiply(n, name, major), chip="sm_90a").ptx
    mmas = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k(\d+)\.(\w+\.\w+\.\w+) "
                      r"\{[^}]*\}, %rd\d+, %rd\d+, p(.*);", text)
    # 16-bit inputs carry the scale and transpose immediates; the others
    # the scales only (tf32, fp8) or nothing (integers).
    tail = {2: f", 1,  1, 0,  {1 if major else 0}", 4: ", 1,  1", 1: ", 1,  1"}[size]
    if name in ("s8", "u8"):
        tail = ""
    assert mmas == [(str(n), str(32 // size), PTX_TYPES[name], tail)] * STEPS
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
        wm.compile(build_multiply(64, "f16", True), chip="sm_90")


# fp8 bit patterns of -3 .. 3 (sign, exponent, mantissa; bias 7 and 15).
E4M3 = {0: 0x00, 1: 0x38, 2: 0x40, 3: 0x44}
E5M2 = {0: 0x00, 1: 0x3C, 2: 0x40, 3: 0x42}


def host_inputs(element, *shapes, seed):
    """Small-integer matrices (every product and sum exact) as the exact
    values and as the device's arrays of `element`."""
    rng = np.random.default_rng(seed)
    low, high = (0, 7) if element == "u8" else (-3, 4)
    exact = [rng.integers(low, high, shape).astype(np.float32) for shape in shapes]
    if element == "f16":
        return exact, [x.astype(np.float16) for x in exact]
    if element == "bf16":
        return exact, [bf16_bits(x).view("V2") for x in exact]
    if element == "tf32":
        return exact, exact
    if element in ("s8", "u8"):
        return exact, [x.astype(np.int8 if element == "s8" else np.uint8).view(np.int8)
                       for x in exact]
    table = E4M3 if element == "e4m3" else E5M2
    encode = np.vectorize(lambda v: table[abs(int(v))] | (0x80 if v < 0 else 0))
    return exact, [encode(x).astype(np.uint8).view(np.int8) for x in exact]


@requires_hopper
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_multiply_on_gpu(case):
    n, name, major = case
    kk = 128 // INPUTS[name][2]
    (a, b), (ga, gb) = host_inputs(name, (64, kk), (kk, n), seed=n)
    integer = name in ("s8", "u8")
    d = np.zeros((64, n), np.int32) if integer else np.full((64, n), np.nan, np.float32)
    compiled = wm.compile(build_multiply(n, name, major), chip="sm_90a")
    wm.launch(compiled, "multiply", 1, 128, ga, gb, d)
    np.testing.assert_array_equal(d, (a @ b).astype(d.dtype))


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
    # On 132 SMs: 128 x 8192 has 32 tiles 256 wide (64 at 128); 4096^2
    # has 512; 2048 x 4096 has 256, 256 x 8192 64.
    assert [gemm_wgmma.tile_n(n, m, 132) for m, n in
            ((128, 8192), (4096, 4096), (2048, 4096), (256, 8192), (8192, 128))] == \
        [128, 256, 256, 128, 128]


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
