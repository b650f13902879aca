"""warp.mma_sync, warp.ldmatrix and warp.stmatrix: register fragments whose
lane layout is part of the contract (docs/WarpDialect/WarpOps.md).

Every kernel here moves fragments between global memory and registers by
lane (lane l's vector at l * length), so the test, not the compiler, puts
each matrix element where the documented layout says. The layout is written
out below from the PTX ISA's fragment figures ("Matrix fragments for
mma.m16n8k*"; "ldmatrix"), independently of the compiler's sources; the
expected D is numpy's A @ B + C. Small-integer inputs make every partial sum
exact, so any summation order gives the same bits.

Runs on the GPU (the tensor cores decide) and on warp's SIMT simulator.
"""
import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from probes import cuda_compute_capability

RNG = np.random.default_rng(20261203)


# ---------------------------------------------------------------------------
# The fragment layouts: (row, column) of position i of lane l's vector.
# ---------------------------------------------------------------------------

def c_position(lane, i):
    g, t = divmod(lane, 4)
    return g + 8 * (i // 2), 2 * t + i % 2


def a_position(lane, i, kind, k):
    g, t = divmod(lane, 4)
    if kind == "16bit":
        return g + 8 * ((i // 2) % 2), 2 * t + i % 2 + 8 * (i // 4)
    if kind == "tf32":
        return g + 8 * (i % 2), t + 4 * (i // 2)
    return g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8)  # 8-bit


def b_position(lane, i, kind, k):
    g, t = divmod(lane, 4)
    if kind == "16bit":
        return 2 * t + i % 2 + 8 * (i // 2), g
    if kind == "tf32":
        return t + 4 * i, g
    return 4 * t + i % 4 + 16 * (i // 4), g  # 8-bit


def scatter(matrix, length, position):
    """Each lane's fragment of `matrix`, lane after lane: (32 * length,)."""
    out = np.empty(32 * length, matrix.dtype)
    for lane in range(32):
        for i in range(length):
            out[lane * length + i] = matrix[position(lane, i)]
    return out


def gather(fragments, shape, length, position):
    out = np.zeros(shape, fragments.dtype)
    for lane in range(32):
        for i in range(length):
            out[position(lane, i)] = fragments[lane * length + i]
    return out


def test_layouts_cover_each_element_once():
    # The tables are bijections from (lane, position) onto the tiles.
    for kind, ks in (("16bit", (8, 16)), ("tf32", (4, 8)), ("8bit", (16, 32))):
        for k in ks:
            a = {a_position(l, i, kind, k) for l in range(32) for i in range(k // 2)}
            b = {b_position(l, i, kind, k) for l in range(32) for i in range(k // 4)}
            assert a == {(r, c) for r in range(16) for c in range(k)}
            assert b == {(r, c) for r in range(k) for c in range(8)}
    assert {c_position(l, i) for l in range(32) for i in range(4)} == \
        {(r, c) for r in range(16) for c in range(8)}


# ---------------------------------------------------------------------------
# mma_sync
# ---------------------------------------------------------------------------

# (A/B element, k, C/D element, attributes, kind)
FORMS = [
    ("f16", 16, "f32", "", "16bit"),
    ("f16", 16, "f16", "", "16bit"),
    ("f16", 8, "f32", "", "16bit"),
    ("bf16", 16, "f32", "", "16bit"),
    ("bf16", 8, "f32", "", "16bit"),
    ("f32", 8, "f32", "", "tf32"),
    ("f32", 4, "f32", "", "tf32"),
    ("i8", 32, "i32", "", "8bit"),
    ("i8", 16, "i32", "", "8bit"),
    ("i8", 32, "i32", "{a_unsigned}", "8bit"),
    ("i8", 32, "i32", "{b_unsigned, satfinite}", "8bit"),
]


def mma_module(input_type, k, acc_type, attrs):
    na, nb = k // 2, k // 4
    return f"""
module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @mma(%a: memref<{32 * na}x{input_type}>, %b: memref<{32 * nb}x{input_type}>,
                  %c: memref<128x{acc_type}>, %d: memref<128x{acc_type}>) kernel
        attributes {{known_block_size = array<i32: 32, 1, 1>}} {{
      %lane = gpu.lane_id
      %cna = arith.constant {na} : index
      %cnb = arith.constant {nb} : index
      %c4 = arith.constant 4 : index
      %ia = arith.muli %lane, %cna : index
      %ib = arith.muli %lane, %cnb : index
      %ic = arith.muli %lane, %c4 : index
      %fa = vector.load %a[%ia] : memref<{32 * na}x{input_type}>, vector<{na}x{input_type}>
      %fb = vector.load %b[%ib] : memref<{32 * nb}x{input_type}>, vector<{nb}x{input_type}>
      %fc = vector.load %c[%ic] : memref<128x{acc_type}>, vector<4x{acc_type}>
      %fd = warp.mma_sync %fa, %fb, %fc shape = m16n8k{k} {attrs}
          : vector<{na}x{input_type}>, vector<{nb}x{input_type}> -> vector<4x{acc_type}>
      vector.store %fd, %d[%ic] : memref<128x{acc_type}>, vector<4x{acc_type}>
      gpu.return
    }}
  }}
}}
"""


def bf16_bits(values):
    """bf16 bit patterns of small integers (exact: the top half of f32)."""
    return (np.asarray(values, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def needs_sm80(backend):
    if backend == "cuda":
        capability = cuda_compute_capability()
        if capability is None or capability < (8, 0):
            pytest.skip("mma.sync m16n8 needs sm_80")


def launch_mma(backend, text, a, b, c):
    d = np.zeros_like(c)
    wm.launch(wm.compile(text), "mma", 1, 32,
              a, b, c, d, backend=backend)
    return d


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("form", FORMS, ids=lambda f: f"{f[0]}-k{f[1]}-{f[2]}{f[3]}")
def test_mma_sync(backend, form):
    needs_sm80(backend)
    input_type, k, acc_type, attrs, kind = form
    a_unsigned = "a_unsigned" in attrs
    b_unsigned = "b_unsigned" in attrs
    saturate = "satfinite" in attrs
    if kind == "8bit":
        a = RNG.integers(0 if a_unsigned else -128, 256 if a_unsigned else 128, (16, k))
        b = RNG.integers(0 if b_unsigned else -128, 256 if b_unsigned else 128, (k, 8))
        c = RNG.integers(-2 ** 31, 2 ** 31, (16, 8))
        # Rows 0-1 sum past INT32_MAX, rows 2-3 below INT32_MIN.
        c[0:2] = 2 ** 31 - 5
        c[2:4] = -2 ** 31 + 5
        a[0:2] = 127 if not a_unsigned else 255
        a[2:4] = -128 if not a_unsigned else 255
        b[:, :] = np.where(np.arange(8) % 2 == 0, 127 if not b_unsigned else 255, b)
        if a_unsigned and not b_unsigned:
            b[:, :] = np.where(np.arange(8) % 2 == 0, -128, b)  # rows 2-3 negative too
        exact = a.astype(np.int64) @ b.astype(np.int64) + c
        want = (np.clip(exact, -2 ** 31, 2 ** 31 - 1) if saturate
                else ((exact + 2 ** 31) % 2 ** 32) - 2 ** 31).astype(np.int32)
        fa = scatter(a.astype(np.int64) % 256, k // 2,
                     lambda l, i: a_position(l, i, kind, k)).astype(np.uint8).view(np.int8)
        fb = scatter(b.astype(np.int64) % 256, k // 4,
                     lambda l, i: b_position(l, i, kind, k)).astype(np.uint8).view(np.int8)
        fc = scatter(c.astype(np.int32), 4, c_position)
    else:
        a = RNG.integers(-3, 4, (16, k)).astype(np.float32)
        b = RNG.integers(-3, 4, (k, 8)).astype(np.float32)
        c = RNG.integers(-8, 9, (16, 8)).astype(np.float32)
        want = a @ b + c  # exact: |sum| <= 32 * 9 + 8
        fa = scatter(a, k // 2, lambda l, i: a_position(l, i, kind, k))
        fb = scatter(b, k // 4, lambda l, i: b_position(l, i, kind, k))
        fc = scatter(c, 4, c_position)
        if input_type == "f16":
            fa, fb = fa.astype(np.float16), fb.astype(np.float16)
        elif input_type == "bf16":
            fa, fb = bf16_bits(fa).view("V2"), bf16_bits(fb).view("V2")
        if acc_type == "f16":
            fc = fc.astype(np.float16)
    d = launch_mma(backend, mma_module(input_type, k, acc_type, attrs), fa, fb, fc)
    got = gather(d, (16, 8), 4, c_position)
    np.testing.assert_array_equal(got.astype(want.dtype), want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf32_reads_the_top_19_bits(backend):
    # 1 + 2^-11 and 1 + 2^-20 are not tf32 values: the tensor cores read
    # their top 19 bits, 1.0, so the product sum is k (k = 8) exactly.
    needs_sm80(backend)
    a = np.full((16, 8), 1 + 2.0 ** -11, np.float32)
    b = np.full((8, 8), 1 + 2.0 ** -20, np.float32)
    fa = scatter(a, 4, lambda l, i: a_position(l, i, "tf32", 8))
    fb = scatter(b, 2, lambda l, i: b_position(l, i, "tf32", 8))
    d = launch_mma(backend, mma_module("f32", 8, "f32", ""), fa, fb, np.zeros(128, np.float32))
    np.testing.assert_array_equal(d, np.full(128, 8.0, np.float32))


def test_mma_sync_ptx_is_one_instruction():
    text = mma_module("bf16", 16, "f32", "")
    ptx = wm.compile(text, chip="sm_80").ptx
    assert ptx.count("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == 1
    # The fragments are the instruction's registers: no moves, no shuffles.
    assert "shfl" not in ptx and "mov.b32" not in ptx


@pytest.mark.parametrize("form, error", [
    ("%fd = warp.mma_sync %fa, %fb, %fh shape = m16n8k16 : vector<8xbf16>, vector<4xbf16> "
     "-> vector<4xf16>", "a multiply of 'bf16' accumulates into f32, not 'f16'"),
    ("%fd = warp.mma_sync %fa, %fb, %fc shape = m16n8k32 : vector<8xbf16>, vector<4xbf16> "
     "-> vector<4xf32>", "PTX mma.sync has no m16n8k32 multiply of 'bf16'; it has m16n8k8, "
     "m16n8k16"),
])
def test_mma_sync_mistakes(form, error):
    text = ("func.func @f(%fa: vector<8xbf16>, %fb: vector<4xbf16>, %fc: vector<4xf32>, "
            "%fh: vector<4xf16>) {\n  "
            + form + "\n  return\n}")
    with pytest.raises(wm.MLIRError, match=error):
        wm.compile(text, chip="sm_90")


def test_mma_sync_chip_gate():
    with pytest.raises(wm.MLIRError, match="PTX mma.sync.m16n8k16.bf16 needs sm_80 or newer; "
                                           "the target chip is sm_75"):
        wm.compile(mma_module("bf16", 16, "f32", ""), chip="sm_75")


# ---------------------------------------------------------------------------
# ldmatrix / stmatrix
# ---------------------------------------------------------------------------

ROWS = 64  # the shared tile: 64 rows of 16 f16, two 8-element slots a row


def matrix_module(count, transpose, store):
    n = 2 * count
    trans = " transpose" if transpose else ""
    tile = f"memref<{ROWS}x16xf16, #gpu.address_space<workgroup>>"
    if store:
        body = f"""
      %v = vector.load %values[%iv] : memref<{32 * n}xf16>, vector<{n}xf16>
      warp.stmatrix %v, %t[%row, %col] count = {count}{trans} : vector<{n}xf16>, {tile}
      gpu.barrier
      scf.for %r = %c0 to %cR step %c32 {{
        %rr = arith.addi %r, %lane : index
        %x = vector.load %t[%rr, %c0] : {tile}, vector<16xf16>
        vector.store %x, %out[%rr, %c0] : memref<{ROWS}x16xf16>, vector<16xf16>
      }}"""
    else:
        body = f"""
      scf.for %r = %c0 to %cR step %c32 {{
        %rr = arith.addi %r, %lane : index
        %x = vector.load %in[%rr, %c0] : memref<{ROWS}x16xf16>, vector<16xf16>
        vector.store %x, %t[%rr, %c0] : {tile}, vector<16xf16>
      }}
      gpu.barrier
      %v = warp.ldmatrix %t[%row, %col] count = {count}{trans} : {tile} -> vector<{n}xf16>
      vector.store %v, %values[%iv] : memref<{32 * n}xf16>, vector<{n}xf16>"""
    return f"""
module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    memref.global "private" @tile : {tile} {{alignment = 16 : i64}}
    gpu.func @move(%in: memref<{ROWS}x16xf16>, %out: memref<{ROWS}x16xf16>,
                   %rows: memref<32xi32>, %cols: memref<32xi32>,
                   %values: memref<{32 * n}xf16>) kernel
        attributes {{known_block_size = array<i32: 32, 1, 1>}} {{
      %t = memref.get_global @tile : {tile}
      %lane = gpu.lane_id
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %cR = arith.constant {ROWS} : index
      %cn = arith.constant {n} : index
      %iv = arith.muli %lane, %cn : index
      %row32 = memref.load %rows[%lane] : memref<32xi32>
      %col32 = memref.load %cols[%lane] : memref<32xi32>
      %row = arith.index_cast %row32 : i32 to index
      %col = arith.index_cast %col32 : i32 to index{body}
      gpu.return
    }}
  }}
}}
"""


def row_slots():
    """Each lane's (row, column) of a distinct 8-element slot of the tile:
    rows anywhere (a swizzle is just another permutation)."""
    slots = RNG.permutation(ROWS * 2)[:32]
    return (slots // 2).astype(np.int32), (8 * (slots % 2)).astype(np.int32)


def matrix_element(count, transpose):
    """(lane, position) -> (matrix m, row, column) of that matrix."""
    def where(lane, position):
        m, j = divmod(position, 2)
        g, t = divmod(lane, 4)
        return (m, 2 * t + j, g) if transpose else (m, g, 2 * t + j)
    return where


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("count", [1, 2, 4])
@pytest.mark.parametrize("transpose", [False, True], ids=["plain", "trans"])
def test_ldmatrix(backend, count, transpose):
    tile = RNG.integers(-1000, 1000, (ROWS, 16)).astype(np.float16)
    rows, cols = row_slots()
    values = np.zeros(32 * 2 * count, np.float16)
    wm.launch(wm.compile(matrix_module(count, transpose, store=False)), "move", 1, 32,
              tile, np.zeros_like(tile), rows, cols, values, backend=backend)
    where = matrix_element(count, transpose)
    want = np.empty_like(values)
    for lane in range(32):
        for position in range(2 * count):
            m, r, c = where(lane, position)
            want[lane * 2 * count + position] = tile[rows[8 * m + r], cols[8 * m + r] + c]
    np.testing.assert_array_equal(values, want)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("count", [1, 2, 4])
@pytest.mark.parametrize("transpose", [False, True], ids=["plain", "trans"])
def test_stmatrix(backend, count, transpose):
    if backend == "cuda" and (cuda_compute_capability() or (0, 0)) < (9, 0):
        pytest.skip("stmatrix needs sm_90")
    rows, cols = row_slots()
    values = RNG.integers(-1000, 1000, 32 * 2 * count).astype(np.float16)
    out = np.zeros((ROWS, 16), np.float16)
    # The tile starts undefined: only the slots the lanes name are compared.
    wm.launch(wm.compile(matrix_module(count, transpose, store=True)), "move", 1, 32,
              np.zeros_like(out), out, rows, cols, values, backend=backend)
    where = matrix_element(count, transpose)
    for lane in range(32):
        for position in range(2 * count):
            m, r, c = where(lane, position)
            assert out[rows[8 * m + r], cols[8 * m + r] + c] == values[lane * 2 * count + position]


def test_matrix_ops_ptx():
    ptx = wm.compile(matrix_module(4, True, store=False), chip="sm_80").ptx
    assert ptx.count("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") == 1
    ptx = wm.compile(matrix_module(2, False, store=True), chip="sm_90").ptx
    assert ptx.count("stmatrix.sync.aligned.m8n8.x2.shared.b16") == 1
    with pytest.raises(wm.MLIRError, match="PTX stmatrix needs sm_90 or newer"):
        wm.compile(matrix_module(2, False, store=True), chip="sm_80")


# ---------------------------------------------------------------------------
# The Python builder: one m16n8k16 tile as a frontend writes it
# ---------------------------------------------------------------------------

def build_tile_program(input_type):
    """C (16 x 8, f32) = A (16 x 16) x B (16 x 8): both tiles copied to
    shared memory row-major, A's fragment by ldmatrix x4 (lane 8m + r names
    A row r + 8 (m % 2), column 8 (m // 2)), B's by ldmatrix x2 transposed
    (lane 8m + r names B row 8m + r), one mma_sync, D stored lane by lane."""
    element = {"f16": wm.f16, "bf16": wm.bf16}[input_type]
    prog = wm.Program("mma_tile")

    @prog.kernel(a=wm.memref(element, (16, 16)), b=wm.memref(element, (16, 8)),
                 d=wm.memref(wm.f32, (128,)))
    def tile(k, a, b, d):
        sa = k.shared(element, (16, 16), align=16)
        sb = k.shared(element, (16, 8), align=16)
        lane = k.lane_id()
        with k.loop(0, 16) as r:
            with k.if_(lane < 16):
                sa[r, lane] = a[r, lane]
            with k.if_(lane < 8):
                sb[r, lane] = b[r, lane]
        k.barrier()
        m, r = lane // 8, lane % 8
        fa = k.ldmatrix(sa, (r + (m % 2) * 8, (m // 2) * 8), count=4)
        fb = k.ldmatrix(sb, (lane % 16, 0), count=2, transpose=True)
        fd = k.mma_sync(fa, fb, k.constant(0.0, wm.vector(4, wm.f32)))
        k.store_vector(d, lane * 4, fd)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("input_type", ["f16", "bf16"])
def test_builder_tile(backend, input_type):
    needs_sm80(backend)
    a = RNG.integers(-4, 5, (16, 16)).astype(np.float32)
    b = RNG.integers(-4, 5, (16, 8)).astype(np.float32)
    if input_type == "f16":
        ga, gb = a.astype(np.float16), b.astype(np.float16)
    else:
        ga, gb = bf16_bits(a).view("V2"), bf16_bits(b).view("V2")
    d = np.zeros(128, np.float32)
    wm.launch(wm.compile(build_tile_program(input_type)), "tile", 1, 32, ga, gb, d,
              backend=backend)
    np.testing.assert_array_equal(gather(d, (16, 8), 4, c_position), a @ b)


def test_builder_ops():
    text = str(build_tile_program("f16"))
    assert "warp.ldmatrix %shared0[" in text and "count = 4 :" in text
    assert "count = 2 transpose :" in text
    assert "warp.mma_sync" in text and "shape = m16n8k16" in text
    ptx = wm.compile(build_tile_program("bf16"), chip="sm_80").ptx
    assert ptx.count("ldmatrix.sync.aligned.m8n8.x4.shared.b16") == 1
    assert ptx.count("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16") == 1
    assert ptx.count("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == 1


@pytest.mark.parametrize("build, error, match", [
    (lambda k, v, s: k.mma_sync(v, v, v), TypeError, "a vector of 2, 4, 8 or 16 elements"),
    (lambda k, v, s: k.ldmatrix(s, (0, 0), count=3), ValueError, "must be 1, 2 or 4"),
    (lambda k, v, s: k.ldmatrix(s, (0, 0), transpose=1), TypeError, "transpose must be True"),
    (lambda k, v, s: k.stmatrix(k.ldmatrix(s, (0, 0), count=1), s, (0, 0), transpose="yes"),
     TypeError, "transpose must be True or False"),
    (lambda k, v, s: k.mma_sync(k.ldmatrix(s, (0, 0)), k.ldmatrix(s, (0, 0)),
                                k.constant(0.0, wm.vector(4, wm.f32))),
     wm.MLIRError, "B must be 'vector<4xf16>'"),
])
def test_builder_mistakes(build, error, match):
    prog = wm.Program()
    with pytest.raises(error, match=match):
        @prog.kernel(x=wm.f32)
        def bad(k, x):
            build(k, x, k.shared(wm.f16, (16, 16), align=16))
