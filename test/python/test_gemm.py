"""examples/python/gemm.py: the tensor-core GEMM built from cp.async,
ldmatrix and mma.sync.

CPU: the loop body is the expected instruction mix (per 32-wide K step of a
warp: 16 mma.sync per k16, 4 ldmatrix x4 for A and 2 x4.trans for B per k16,
4 cp.async per thread, one barrier) and ptxas assembles it without spills. GPU and
simulator: C against numpy, exactly (small-integer inputs make every partial
sum exact in f32), on shapes with ragged edges in M, N and K, down to 1 row.
"""
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import warp_mlir as wm
from conftest import requires_gpu, requires_sim
from test_mma_sync import bf16_bits

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"))
import gemm  # noqa: E402


def ptx(element=wm.f16, chip="sm_90"):
    return wm.compile(gemm.build(element), chip=chip).ptx


def loop_body(text):
    """The K loop: from its header label to the backward branch."""
    labels = {m.group(1): m.start() for m in re.finditer(r"^(\$L__\w+):", text, re.M)}
    for branch in re.finditer(r"\bbra(?:\.uni)?\s+(\$L__\w+);", text):
        start = labels.get(branch.group(1))
        if start is not None and start < branch.start():
            return text[start:branch.start()]
    raise AssertionError("no loop in the kernel")


@pytest.mark.parametrize("element, name", [(wm.f16, "f16"), (wm.bf16, "bf16")])
def test_loop_instruction_mix(element, name):
    body = loop_body(ptx(element))
    assert body.count(f"mma.sync.aligned.m16n8k16.row.col.f32.{name}.{name}.f32") == 32
    assert body.count("ldmatrix.sync.aligned.m8n8.x4.shared.b16") == 8
    assert body.count("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") == 4
    assert body.count("cp.async.cg.shared.global") == 4
    # One group of copies per tile, and the empty group the wait names.
    assert body.count("cp.async.commit_group") == 2
    assert re.findall(r"cp\.async\.wait_group\s+(\d+)", body) == [str(gemm.STAGES - 1)]
    assert body.count("bar.sync") == 1
    assert "ld.global" not in body and "st.shared" not in body and "ld.shared" not in body


def test_assembles_without_spills(ptxas, tmp_path):
    path = tmp_path / "gemm.ptx"
    path.write_text(ptx())
    info = subprocess.run([ptxas, "-arch=sm_90", "-v", str(path), "-o", str(tmp_path / "g.cubin")],
                          check=True, capture_output=True, text=True).stderr
    assert "0 bytes spill stores, 0 bytes spill loads" in info
    registers = int(re.search(r"Used (\d+) registers", info).group(1))
    assert registers <= 128  # two 256-thread blocks per SM


def run_gemm(element, m, n, kk, backend):
    rng = np.random.default_rng(m * 7 + n * 3 + kk)
    a = rng.integers(-3, 4, (m, kk)).astype(np.float32)
    b = rng.integers(-3, 4, (kk, n)).astype(np.float32)
    if element == "f16":
        ga, gb = a.astype(np.float16), b.astype(np.float16)
    else:
        ga, gb = bf16_bits(a).view("V2"), bf16_bits(b).view("V2")
    c = np.full((m, n), np.nan, np.float32)
    compiled = wm.compile(gemm.build({"f16": wm.f16, "bf16": wm.bf16}[element]))
    wm.launch(compiled, "gemm", gemm.grid(m, n), gemm.THREADS, ga, gb, c, m, n, kk,
              backend=backend)
    np.testing.assert_array_equal(c, a @ b)


@requires_gpu
@pytest.mark.parametrize("element", ["f16", "bf16"])
@pytest.mark.parametrize("m, n, kk", [(1, 8, 8), (128, 128, 32), (300, 264, 200),
                                      (129, 136, 40), (256, 384, 520), (17, 1000, 96)])
def test_gemm_on_gpu(element, m, n, kk):
    run_gemm(element, m, n, kk, "cuda")


@requires_sim
@pytest.mark.parametrize("element, m, n, kk", [
    ("f16", 40, 24, 48),      # one block, two K tiles (the second zero-filled in part)
    ("bf16", 130, 72, 104),   # two block rows, ragged everywhere
    ("f16", 257, 136, 200),   # three block rows, two block columns, 7 K tiles
    ("f16", 300, 264, 520),   # 17 K tiles: every stage refilled five times
])
def test_gemm_on_simulator(element, m, n, kk):
    run_gemm(element, m, n, kk, "sim")


def test_rejects_unaligned_sizes():
    with pytest.raises(ValueError, match="multiples of 8"):
        gemm.gemm(None, np.zeros((4, 12), np.float16), np.zeros((12, 8), np.float16),
                  np.zeros((4, 8), np.float32))
