"""The tile helpers (warp_mlir.tile) and the concise kernels
(examples/python/concise/): every warp_mlir kernel on the SIMT simulator and
on the GPU where there is one, against numpy references computed from the
definitions (concise_reference.py); the helpers' errors; the line-count table."""
import sys
from pathlib import Path

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS, ROOT

CONCISE = ROOT / "examples" / "python" / "concise"
sys.path.insert(0, str(CONCISE))
sys.path.insert(0, str(ROOT / "scripts"))
import argmax_warp  # noqa: E402
import block_sum_warp  # noqa: E402
import concision_table  # noqa: E402
import histogram_warp  # noqa: E402
import layernorm_warp  # noqa: E402
import concise_reference as ref  # noqa: E402
import segment_sum_warp  # noqa: E402
import softmax_warp  # noqa: E402

HERE = Path(__file__).name
# The simulator runs no sqrt/rsqrt (docs/Simulator.md: .approx instructions
# are refused): layernorm's normalisation runs on the GPU only; its Welford
# statistics are checked on the simulator by test_tile_reductions.
GPU_ONLY = [p for p in BACKENDS if p.values[0] == "cuda"] + [
    pytest.param("sim", marks=pytest.mark.skip(reason="the simulator has no rsqrt"))]
RAGGED = [1, 5, 31, 32, 33, 77, 1000]


# -- the six kernels -------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", RAGGED)
def test_softmax(backend, n):
    x = ref.rows(3, n, seed=n)
    np.testing.assert_allclose(softmax_warp.run(x, backend), ref.softmax(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", RAGGED)
@pytest.mark.parametrize("ties", [False, True])
def test_argmax(backend, n, ties):
    x = ref.rows(4, n, seed=n, ties=ties)
    assert (argmax_warp.run(x, backend) == ref.argmax(x)).all()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [1, 2, 33, 70])
def test_argmax_nan_counts_as_largest(backend, n):
    x = ref.rows(6, n, seed=n, ties=True, nan=True)
    assert np.isnan(x).any()
    assert (argmax_warp.run(x, backend) == ref.argmax(x)).all()


@pytest.mark.parametrize("backend", GPU_ONLY)
@pytest.mark.parametrize("n", RAGGED)
def test_layernorm(backend, n):
    rng = np.random.default_rng(n)
    x = (ref.rows(3, n, seed=n) * 3 + 1).astype(np.float32)
    w, b = rng.standard_normal((2, n)).astype(np.float32)
    np.testing.assert_allclose(layernorm_warp.run(x, w, b, 1e-5, backend),
                               ref.layernorm(x, w, b, 1e-5), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [1, 31, 255, 256, 257, 700])
def test_block_sum(backend, n):
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    np.testing.assert_allclose(block_sum_warp.run(x, backend), ref.block_sum(x, 256),
                               rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n,bins", [(0, 3), (1, 1), (33, 7), (1000, 64), (777, 1)])
def test_histogram(backend, n, bins):
    x = np.random.default_rng(n).integers(0, bins, n).astype(np.int32)
    assert (histogram_warp.run(x, bins, backend) == ref.histogram(x, bins)).all()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n,segments", [(1, 3), (31, 4), (100, 1), (600, 40), (513, 600)])
def test_segment_sum(backend, n, segments):
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    seg = ref.sorted_segments(n, segments, seed=n)
    expected = ref.segment_sum(x, seg, segments)
    assert (expected == 0).any() or segments == 1  # empty segments among them
    np.testing.assert_allclose(segment_sum_warp.run(x, seg, segments, backend), expected,
                               rtol=1e-5, atol=1e-4)


# -- the helpers one by one ------------------------------------------------------------
HELPERS = wm.Program("tile_helpers")
SIZE = 70  # three slots per lane, the last one partly past SIZE


@HELPERS.kernel(x=wm.memref(wm.f32, (-1, -1)), stats=wm.memref(wm.f32, (-1, -1)),
                at=wm.memref(wm.i32, (-1, -1)), scans=wm.memref(wm.f32, (-1, -1, )),
                n=wm.index)
def tile_ops(k, x, stats, at, scans, n):
    w = k.global_warp_id()
    r = k.row(x, w, n, size=SIZE)
    mean, var = r.mean_var()
    for j, v in enumerate([r.sum(), r.max(), r.min(), mean, var]):
        k.store_first(stats, (w, j), v)
    for j, v in enumerate([r.argmax()[1], r.argmin()[1]]):
        k.store_first(at, (w, j), v)
    r.cumsum().store(scans, w * 3)
    r.cumsum(exclusive=True).store(scans, w * 3 + 1)
    (2.0 - r * r.index.cast(wm.f32) / (3.5 + -r.map(lambda v: k.max(v, 0.0)))).store(
        scans, w * 3 + 2)


@HELPERS.kernel(x=wm.memref(wm.i32, (-1, -1)), out=wm.memref(wm.i32, (-1, -1)), n=wm.index)
def int_tile(k, x, out, n):
    w = k.global_warp_id()
    r = k.row(x, w, n, size=40)
    for j, v in enumerate([r.sum(), r.max(), r.min(), r.argmax()[1], r.argmin()[1]]):
        k.store_first(out, (w, j), v)


@HELPERS.kernel(x=wm.memref(wm.f32, (-1, -1)), y=wm.memref(wm.f32, (-1, -1)),
                out=wm.memref(wm.f32, (-1, -1)), n=wm.index)
def long_rows(k, x, y, out, n):
    row = k.global_warp_id()
    m = k.row_max(x, row, n)
    s = k.row_sum(x, row, n, fn=lambda v: k.exp(v - m))
    with k.loop(k.cast(k.lane_id(), wm.index), n, 32) as j:
        y[row, j] = k.exp(x[row, j] - m) / s
    with k.range(k.cast(k.lane_id(), wm.index), n, 32, total=0.0, positive=0) as L:
        L.total = L.total + x[row, L.i]
        L.positive = L.positive + k.cast(x[row, L.i] > 0.0, wm.i32)
    k.store_first(out, (row, 0), k.reduce("add", L.total))
    k.store_first(out, (row, 1), k.cast(k.reduce("add", L.positive), wm.f32))
    k.store_first(out, (row, 2), k.row_min(x, row, n))


@HELPERS.kernel(x=wm.memref(wm.f32, (-1, -1)), out=wm.memref(wm.f32, (-1, -1)), n=wm.index)
def block_rows(k, x, out, n):
    row = k.block_id()
    for j, v in enumerate([k.row_sum(x, row, n, block=True), k.row_max(x, row, n, block=True),
                           k.row_min(x, row, n, block=True)]):
        k.store_first(out, (row, j), v, scope="block")


@HELPERS.kernel(x=wm.memref(wm.f32, (-1, -1)), w=wm.memref(wm.f32), b=wm.memref(wm.f32),
                y=wm.memref(wm.f32, (-1, -1)), n=wm.index, eps=wm.f32)
def layernorm_scaled_by_var(k, x, w, b, y, n, eps):
    """layernorm_warp's kernel with var + eps in place of its rsqrt, which
    the simulator does not run."""
    r = k.row(x, k.global_warp_id(), n, size=SIZE)
    mean, var = r.mean_var()
    ((r - mean) * (var + eps) * r.load(w) + r.load(b)).store(y)


@pytest.fixture(scope="module")
def helpers():
    return wm.compile(HELPERS, chip="sm_90")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [0, 1, 31, 33, 64, 70])
def test_tile_reductions(helpers, backend, n):
    x = ref.rows(3, n, seed=n, ties=(n == 31))
    stats = np.zeros((3, 5), np.float32)
    at = np.zeros((3, 2), np.int32)
    scans = np.zeros((9, n), np.float32)
    wm.launch(helpers, "tile_ops", 3, 32, x, stats, at, scans, n, backend=backend)
    d = x.astype(np.float64)
    if n == 0:
        assert (stats[:, 0] == 0).all() and (stats[:, 1] == -np.inf).all()
        assert (stats[:, 2] == np.inf).all() and (stats[:, 3] == 0).all()
        assert np.isnan(stats[:, 4]).all()
        assert (at == -1).all()
        return
    np.testing.assert_allclose(stats[:, 0], d.sum(1), rtol=1e-5, atol=1e-5)
    assert (stats[:, 1] == x.max(1)).all() and (stats[:, 2] == x.min(1)).all()
    np.testing.assert_allclose(stats[:, 3], d.mean(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(stats[:, 4], d.var(1), rtol=1e-4, atol=1e-5)
    assert (at[:, 0] == np.argmax(x, 1)).all() and (at[:, 1] == np.argmin(x, 1)).all()
    inclusive = np.cumsum(d, 1)
    np.testing.assert_allclose(scans[0::3], inclusive, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(scans[1::3], inclusive - d, rtol=1e-5, atol=1e-4)
    columns = np.arange(n, dtype=np.float64)
    np.testing.assert_allclose(scans[2::3], 2.0 - d * columns / (3.5 - np.maximum(d, 0.0)),
                               rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [1, 5, 33, 70])
def test_layernorm_on_the_simulator(helpers, backend, n):
    rng = np.random.default_rng(n)
    x = (ref.rows(3, n, seed=n) * 3 + 1).astype(np.float32)
    w, b = rng.standard_normal((2, n)).astype(np.float32)
    y = np.zeros_like(x)
    wm.launch(helpers, "layernorm_scaled_by_var", 3, 32, x, w, b, y, n, 1e-5, backend=backend)
    d = x.astype(np.float64)
    mean, var = d.mean(1, keepdims=True), d.var(1, keepdims=True)
    np.testing.assert_allclose(y, (d - mean) * (var + 1e-5) * w + b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [0, 7, 40])
def test_int_tile(helpers, backend, n):
    x = np.random.default_rng(n).integers(-5, 6, (2, n)).astype(np.int32)
    out = np.zeros((2, 5), np.int32)
    wm.launch(helpers, "int_tile", 2, 32, x, out, n, backend=backend)
    if n == 0:
        assert (out == [[0, -2**31, 2**31 - 1, -1, -1]] * 2).all()
        return
    expected = np.stack([x.sum(1), x.max(1), x.min(1), x.argmax(1), x.argmin(1)], 1)
    assert (out == expected).all()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [1, 45, 300])
def test_rows_looped_over_memory(helpers, backend, n):
    x = ref.rows(2, n, seed=n)
    y, out = np.zeros_like(x), np.zeros((2, 3), np.float32)
    wm.launch(helpers, "long_rows", 2, 32, x, y, out, n, backend=backend)
    np.testing.assert_allclose(y, ref.softmax(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[:, 0], x.astype(np.float64).sum(1), rtol=1e-5, atol=1e-4)
    assert (out[:, 1] == (x > 0).sum(1)).all() and (out[:, 2] == x.min(1)).all()
    blocks = np.zeros((2, 3), np.float32)
    wm.launch(helpers, "block_rows", 2, 96, x, blocks, n, backend=backend)
    np.testing.assert_allclose(blocks[:, 0], x.astype(np.float64).sum(1), rtol=1e-5, atol=1e-4)
    assert (blocks[:, 1] == x.max(1)).all() and (blocks[:, 2] == x.min(1)).all()


def test_helpers_emit_only_existing_ops():
    text = str(HELPERS)
    for op in ("warp.reduce", "warp.scan", "scf.for", "scf.if", "warp.block_reduce"):
        assert op in text
    assert "tile" not in text.replace("tile_helpers", "").replace("tile_ops", "").replace(
        "int_tile", "")


# -- errors name the helper and the user's line --------------------------------------
def _kernel(body, **params):
    prog = wm.Program()
    params = params or {"x": wm.memref(wm.f32, (-1, -1)), "n": wm.index}

    def kernel(k, *args):
        body(k, *args)
    prog.kernel(**params)(kernel)


def _raises(error, call, body, **params):
    with pytest.raises(error, match=rf"^{call} at .*{HERE}:\d+: ") as info:
        _kernel(body, **params)
    return str(info.value)


def test_row_errors():
    _raises(TypeError, r"k\.row\(\)", lambda k, x, n: k.row(n, 0, n, size=32))
    _raises(TypeError, r"k\.row\(\)", lambda k, x, n: k.row(x, 0, n, size=32.0))
    _raises(ValueError, r"k\.row\(\)", lambda k, x, n: k.row(x, 0, n, size=0))
    _raises(TypeError, r"k\.row\(\)", lambda k, x, n: k.row(x, 1.5, n, size=32))
    _raises(TypeError, r"k\.row\(\)", lambda k, x, n: k.row(x, 0, x, size=32))


def test_tile_errors():
    def tile(k, x, n, size=64):
        return k.row(x, 0, n, size=size)
    _raises(TypeError, r"tile operator \+", lambda k, x, n: tile(k, x, n) + "a")
    _raises(ValueError, r"tile operator \*",
            lambda k, x, n: tile(k, x, n) * tile(k, x, n, size=128))
    _raises(TypeError, r"tile operator -", lambda k, x, n: tile(k, x, n) - k.constant(1, wm.i32))
    _raises(TypeError, r"tile\.mean_var\(\)",
            lambda k, x, n: tile(k, x, n).cast(wm.i32).mean_var())
    _raises(TypeError, r"tile\.map\(\)", lambda k, x, n: tile(k, x, n).map(3))
    _raises(TypeError, r"tile\.map\(\)", lambda k, x, n: tile(k, x, n).map(lambda v: 1.0))
    _raises(TypeError, r"tile\.store\(\)", lambda k, x, n: tile(k, x, n).store(n))
    _raises(TypeError, r"tile\.exp\(\)", lambda k, x, n: tile(k, x, n).cast(wm.i32).exp())
    with pytest.raises(TypeError, match="no Python truth value"):
        _kernel(lambda k, x, n: bool(tile(k, x, n)))


def test_range_errors():
    lane = lambda k: k.cast(k.lane_id(), wm.index)  # noqa: E731
    _raises(ValueError, r"k\.range\(\)", lambda k, x, n: k.range(0, n, i=0.0))
    _raises(TypeError, r"k\.range\(\)", lambda k, x, n: k.range(0, n, s="zero"))
    _raises(ValueError, r"k\.range\(\)", lambda k, x, n: k.range(0, n, 0, s=0.0))

    def wrong_type(k, x, n):
        with k.range(lane(k), n, 32, s=0.0) as L:
            L.s = L.s + k.constant(1, wm.i32)
    _raises(TypeError, r"operator \+", wrong_type)

    def wrong_assign(k, x, n):
        with k.range(lane(k), n, 32, s=0.0) as L:
            L.s = k.constant(1, wm.i32)
    _raises(TypeError, r"loop variable assignment", wrong_assign)

    def unknown(k, x, n):
        with k.range(0, n, s=0.0) as L:
            L.t = L.s
    _raises(ValueError, r"loop variable assignment", unknown)

    def after(k, x, n):
        with k.range(0, n, s=0.0) as L:
            pass
        L.s = 1.0
    _raises(ValueError, r"loop variable assignment", after)


def test_range_typing_and_results():
    seen = {}

    def body(k, x, n):
        with k.range(0, n, a=0.0, b=0, c=(1, wm.i64), d=x[0, 0]) as L:
            L.a, L.b = L.a + 1.0, L.b + 1
        seen.update(a=L.a.type, b=L.b.type, c=L.c.type, d=L.d.type, i=L.i.type)
    _kernel(body)
    assert seen == dict(a=wm.f32, b=wm.i32, c=wm.i64, d=wm.f32, i=wm.index)


def test_memory_helper_errors():
    _raises(TypeError, r"k\.load\(\)", lambda k, x, n: k.load(n, 0))
    _raises(TypeError, r"k\.load\(\)", lambda k, x, n: k.load(x, (0, 0), n))
    _raises(TypeError, r"k\.store\(\)", lambda k, x, n: k.store(n, 0, 1.0))
    _raises(ValueError, r"k\.store_first\(\)",
            lambda k, x, n: k.store_first(x, (0, 0), 1.0, scope="grid"))
    _raises(TypeError, r"k\.row_sum\(\)", lambda k, x, n: k.row_sum(x, 0, n, fn=3))
    _raises(TypeError, r"k\.row_max\(\)", lambda k, x, n: k.row_max(n, 0, n))
    _raises(TypeError, r"k\.segment_add\(\)",
            lambda k, x, n: k.segment_add(x, k.constant(0, wm.i32), 1.0))
    seg = {"out": wm.memref(wm.f32), "n": wm.index}
    _raises(TypeError, r"k\.segment_add\(\)",
            lambda k, out, n: k.segment_add(out, k.constant(1.0, wm.f32), 1.0), **seg)
    _raises(TypeError, r"k\.segment_add\(\)",
            lambda k, out, n: k.segment_add(out, k.constant(1, wm.i32), 1.0, valid=1.5), **seg)


def test_welford_combine_is_exported():
    assert wm.welford_combine is not None and wm.Tile.__name__ == "Tile"


# -- the table ---------------------------------------------------------------------------
def test_concision_table_is_current():
    assert concision_table.main(["--check", str(ROOT / "docs" / "results" / "concision.md")]) == 0


def test_warp_mlir_no_longer_than_triton():
    for title, warp, triton, _ in concision_table.counts():
        assert warp <= triton, title


def test_counting_rule(tmp_path):
    py = tmp_path / "k.py"
    py.write_text('import x\n\n@prog.kernel(a=1,\n   b=2)\ndef f(k,\n  a):\n    """doc\n    more"""\n'
                  '    # comment\n\n    a = 1\n    b = (2,\n         3)\n\n\ndef host():\n    pass\n')
    assert concision_table.python_lines(py) == 3
    cu = tmp_path / "k.cu"
    cu.write_text('#include <x>\n__device__ int g(int a) { return a; }\n'
                  'extern "C" __global__ void f(int *a,\n    int n) {\n  // c\n\n  if (n) {\n'
                  '    a[0] = 1;\n  }\n}\nint host() { return 0; }\n')
    assert concision_table.cuda_lines(cu) == 3
