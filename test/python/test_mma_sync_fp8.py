"""warp.mma_sync with fp8 inputs (f8E4M3FN and f8E5M2, PTX e4m3 and e5m2):
m16n8k32, f32 or f16 accumulators, sm_89 and newer.

The fragments follow the 8-bit layout of warp.mma_sync's description
(test_mma_sync.py writes it out from the PTX ISA's figures and checks that
it covers each element once). The expected D comes from numpy: the fp8
bytes are decoded here from the formats' definitions (OCP 8-bit floating
point: E4M3 with bias 7, no infinities and S.1111.111 its only NaN; E5M2
with bias 15, IEEE-like), independently of the compiler and the simulator,
and A @ B + C is taken in float64. Runs on the GPU (sm_89+) and on warp's
SIMT simulator.
"""
import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from probes import cuda_compute_capability
from test_mma_sync import a_position, b_position, c_position, gather, scatter

RNG = np.random.default_rng(20261205)

FORMATS = {"e4m3": "f8E4M3FN", "e5m2": "f8E5M2"}


def decode(bits, fmt):
    """The float64 value of each fp8 byte in `bits` (uint8) for `fmt`."""
    bits = np.asarray(bits, np.uint8).astype(np.int64)
    sign = np.where(bits >> 7, -1.0, 1.0)
    if fmt == "e4m3":
        exponent, mantissa, bias, man_bits = (bits >> 3) & 0xF, bits & 0x7, 7, 3
    else:
        exponent, mantissa, bias, man_bits = (bits >> 2) & 0x1F, bits & 0x3, 15, 2
    fraction = mantissa / 2.0 ** man_bits
    value = np.where(exponent == 0,
                     fraction * 2.0 ** (1 - bias),  # subnormal
                     (1 + fraction) * 2.0 ** (exponent - bias))  # normal
    if fmt == "e4m3":
        value = np.where((exponent == 15) & (mantissa == 7), np.nan, value)
    else:
        value = np.where(exponent == 31, np.where(mantissa == 0, np.inf, np.nan), value)
    return sign * value


def test_decoder_fixed_points():
    # The formats' documented landmarks.
    e4m3 = decode([0x7E, 0x01, 0x08, 0x38, 0xC0, 0x7F, 0xFF], "e4m3")
    np.testing.assert_array_equal(e4m3[:5], [448.0, 2.0 ** -9, 2.0 ** -6, 1.0, -2.0])
    assert np.isnan(e4m3[5:]).all()
    e5m2 = decode([0x7B, 0x01, 0x04, 0x3C, 0x7C, 0xFC, 0x7D], "e5m2")
    np.testing.assert_array_equal(e5m2[:6], [57344.0, 2.0 ** -16, 2.0 ** -14, 1.0,
                                             np.inf, -np.inf])
    assert np.isnan(e5m2[6])


def needs_sm89(backend):
    if backend == "cuda":
        capability = cuda_compute_capability()
        if capability is None or capability < (8, 9):
            pytest.skip("fp8 mma.sync needs sm_89")


def fp8_module(a_format, b_format, acc_type):
    """A kernel whose lane l loads its 16 A bytes at a[16 l], its 8 B bytes
    at b[8 l] and its 4 C elements at c[4 l], and stores D like C."""
    a_type, b_type = FORMATS[a_format], FORMATS[b_format]
    return f"""
module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @mma(%a: memref<512xi8>, %b: memref<256xi8>,
                  %c: memref<128x{acc_type}>, %d: memref<128x{acc_type}>) kernel
        attributes {{known_block_size = array<i32: 32, 1, 1>}} {{
      %lane = gpu.lane_id
      %c16 = arith.constant 16 : index
      %c8 = arith.constant 8 : index
      %c4 = arith.constant 4 : index
      %ia = arith.muli %lane, %c16 : index
      %ib = arith.muli %lane, %c8 : index
      %ic = arith.muli %lane, %c4 : index
      %ba = vector.load %a[%ia] : memref<512xi8>, vector<16xi8>
      %bb = vector.load %b[%ib] : memref<256xi8>, vector<8xi8>
      %fa = vector.bitcast %ba : vector<16xi8> to vector<16x{a_type}>
      %fb = vector.bitcast %bb : vector<8xi8> to vector<8x{b_type}>
      %fc = vector.load %c[%ic] : memref<128x{acc_type}>, vector<4x{acc_type}>
      %fd = warp.mma_sync %fa, %fb, %fc shape = m16n8k32
          : vector<16x{a_type}>, vector<8x{b_type}> -> vector<4x{acc_type}>
      vector.store %fd, %d[%ic] : memref<128x{acc_type}>, vector<4x{acc_type}>
      gpu.return
    }}
  }}
}}
"""


def run(backend, a_format, b_format, acc_type, a_bits, b_bits, c):
    """D of the 16x32 A and 32x8 B fp8 bytes and the 16x8 C, as a matrix."""
    fa = scatter(a_bits, 16, lambda l, i: a_position(l, i, "8bit", 32)).view(np.int8)
    fb = scatter(b_bits, 8, lambda l, i: b_position(l, i, "8bit", 32)).view(np.int8)
    fc = scatter(c, 4, c_position)
    d = np.zeros_like(fc)
    wm.launch(wm.compile(fp8_module(a_format, b_format, acc_type)), "mma", 1, 32,
              fa, fb, fc, d, backend=backend)
    return gather(d, (16, 8), 4, c_position)


def finite_codes(fmt):
    """Every byte that encodes a finite value in `fmt`."""
    codes = np.arange(256, dtype=np.uint8)
    return codes[np.isfinite(decode(codes, fmt))]


PAIRS = [("e4m3", "e4m3"), ("e5m2", "e5m2"), ("e4m3", "e5m2"), ("e5m2", "e4m3")]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]}x{p[1]}")
def test_random_codes_f32(backend, pair):
    # Any finite byte, subnormals and the largest values included: every
    # product is exact, the sum is the tensor cores' (the GPU's is not
    # IEEE), so the bound is relative to the sum of the magnitudes.
    needs_sm89(backend)
    a_format, b_format = pair
    a_bits = RNG.choice(finite_codes(a_format), (16, 32))
    b_bits = RNG.choice(finite_codes(b_format), (32, 8))
    c = RNG.normal(0, 1000, (16, 8)).astype(np.float32)
    a, b = decode(a_bits, a_format), decode(b_bits, b_format)
    want = a @ b + c
    bound = 2.0 ** -12 * (np.abs(a) @ np.abs(b) + np.abs(c))
    got = run(backend, a_format, b_format, "f32", a_bits, b_bits, c)
    assert got.dtype == np.float32
    assert (np.abs(got - want) <= bound).all(), np.abs(got - want) / np.maximum(bound, 1e-300)


def small_integer_codes(fmt, limit):
    """The bytes of the integers -limit..limit (exact in both formats)."""
    codes = np.arange(256, dtype=np.uint8)
    values = decode(codes, fmt)
    keep = np.isfinite(values) & (np.abs(values) <= limit) & (values == np.round(values))
    return codes[keep]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("pair, acc_type", [(("e4m3", "e5m2"), "f32"), (("e4m3", "e4m3"), "f16"),
                                            (("e5m2", "e5m2"), "f16")],
                         ids=["e4m3xe5m2-f32", "e4m3-f16", "e5m2-f16"])
def test_small_integers_exact(backend, pair, acc_type):
    # Integer inputs and C: every partial sum is exact in the accumulator
    # (|sum| <= 32 * 64 + 64 < 2^11 for f16), so D is exact on any chip.
    needs_sm89(backend)
    a_format, b_format = pair
    a_bits = RNG.choice(small_integer_codes(a_format, 8), (16, 32))
    b_bits = RNG.choice(small_integer_codes(b_format, 8), (32, 8))
    c = RNG.integers(-64, 65, (16, 8)).astype(acc_type.replace("f", "float"))
    want = decode(a_bits, a_format) @ decode(b_bits, b_format) + c
    got = run(backend, a_format, b_format, acc_type, a_bits, b_bits, c)
    assert got.dtype == c.dtype
    np.testing.assert_array_equal(got.astype(np.float64), want)


# Row r of D is A[r, r] * B[r, :] + C[r, :]: A's diagonal holds the
# notable values of each format (NaN and infinities only in A, so that they
# reach their own row), B's rows the same finite ones in every column.
SPECIAL_A = {
    # 448, -448, 2^-9 and its negative (smallest subnormals), 7/8 * 2^-6
    # (largest subnormal), 2^-6 (smallest normal), 1, NaN, -NaN, 240, 256 and
    # 416 (exponent field 15 holds numbers), 2, +0, -0, 0.5
    "e4m3": [0x7E, 0xFE, 0x01, 0x81, 0x07, 0x08, 0x38, 0x7F,
             0xFF, 0x77, 0x78, 0x7D, 0x40, 0x00, 0x80, 0x30],
    # 57344, -57344, 2^-16 and its negative, 3/4 * 2^-14, 2^-14, 1, +inf,
    # -inf, three NaNs, 2^15, +0, -0, 0.5
    "e5m2": [0x7B, 0xFB, 0x01, 0x81, 0x03, 0x04, 0x3C, 0x7C,
             0xFC, 0x7D, 0x7E, 0xFF, 0x78, 0x00, 0x80, 0x38],
}
SPECIAL_B = {
    # largest, smallest subnormal, largest subnormal, smallest normal, 1,
    # -1, 0.5, 0 (an infinity times it is NaN)
    "e4m3": [0x7E, 0x01, 0x07, 0x08, 0x38, 0xB8, 0x30, 0x00],
    "e5m2": [0x7B, 0x01, 0x03, 0x04, 0x3C, 0xBC, 0x38, 0x00],
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_special_values(backend, fmt):
    needs_sm89(backend)
    a_bits = np.zeros((16, 32), np.uint8)
    b_bits = np.zeros((32, 8), np.uint8)
    for r in range(16):
        a_bits[r, r] = SPECIAL_A[fmt][r]
        b_bits[r, :] = SPECIAL_B[fmt]
    # C is zero in the even columns (the bare products, 2^-18 and 2^-32
    # included), a small integer in the odd ones.
    c = np.zeros((16, 8), np.float32)
    c[:, 1::2] = RNG.integers(-4, 5, (16, 4))
    with np.errstate(invalid="ignore"):
        want = (decode(a_bits, fmt) @ decode(b_bits, fmt) + c).astype(np.float32)
    assert np.isnan(want).any() and (want == 448.0 ** 2 if fmt == "e4m3" else
                                     want == -np.inf).any()
    got = run(backend, fmt, fmt, "f32", a_bits, b_bits, c)
    np.testing.assert_array_equal(got, want)


def test_fp8_ptx_is_one_instruction():
    for acc_type, version in (("f32", "8.4"), ("f16", "8.7")):
        ptx = wm.compile(fp8_module("e4m3", "e5m2", acc_type), chip="sm_89").ptx
        assert f".version {version}" in ptx
        name = f"mma.sync.aligned.m16n8k32.row.col.{acc_type}.e4m3.e5m2.{acc_type}"
        assert ptx.count(name) == 1
        assert "shfl" not in ptx


def test_fp8_chip_gate():
    with pytest.raises(wm.MLIRError, match="PTX mma.sync.m16n8k32.e4m3 needs sm_89 or newer; "
                                           "the target chip is sm_80"):
        wm.compile(fp8_module("e4m3", "e4m3", "f32"), chip="sm_80")


def test_builder_mma_sync_fp8():
    # The builder takes fp8 fragments as it does others (k = 2 * len(A)),
    # made from i8 vectors by vector_bitcast.
    prog = wm.Program("fp8")
    e4m3, e5m2 = wm.Type("f8E4M3FN"), wm.Type("f8E5M2")

    @prog.kernel(a=wm.memref(wm.i8, (512,)), b=wm.memref(wm.i8, (256,)),
                 c=wm.memref(wm.f32, (128,)), d=wm.memref(wm.f32, (128,)))
    def mma(k, a, b, c, d):
        lane = k.lane_id()
        fa = k.vector_bitcast(k.load_vector(a, lane * 16, 16), e4m3)
        fb = k.vector_bitcast(k.load_vector(b, lane * 8, 8), e5m2)
        k.store_vector(d, lane * 4, k.mma_sync(fa, fb, k.load_vector(c, lane * 4, 4)))

    text = prog.to_mlir()
    assert "shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E5M2> -> vector<4xf32>" in text
    ptx = wm.compile(prog, chip="sm_90").ptx
    assert ptx.count("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32") == 1
    with pytest.raises(ValueError, match="no whole number"):
        @prog.kernel(x=wm.memref(wm.i8, (8,)))
        def bad(k, x):
            k.vector_bitcast(k.load_vector(x, 0, 3), wm.i16)


# ldmatrix moves 16-bit elements, but an 8-bit fragment is the same bits: an
# i16 ldmatrix x4 of the 16 x 32-byte A tile, bitcast to fp8, is A's
# fragment; an x2 of B stored N x K (8 rows of 32 bytes) is B's.
LDMATRIX_MODULE = """
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @ta : memref<16x16xi16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    memref.global "private" @tb : memref<8x16xi16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @mma(%a: memref<16x16xi16>, %b: memref<8x16xi16>, %d: memref<128xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %ta = memref.get_global @ta : memref<16x16xi16, #gpu.address_space<workgroup>>
      %tb = memref.get_global @tb : memref<8x16xi16, #gpu.address_space<workgroup>>
      %lane = gpu.lane_id
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      // Lane l copies half a row of A (row l / 2) and a quarter of B's.
      %ar = arith.divui %lane, %c2 : index
      %ah = arith.remui %lane, %c2 : index
      %ac = arith.muli %ah, %c8 : index
      %va = vector.load %a[%ar, %ac] : memref<16x16xi16>, vector<8xi16>
      vector.store %va, %ta[%ar, %ac] : memref<16x16xi16, #gpu.address_space<workgroup>>, vector<8xi16>
      %br = arith.divui %lane, %c4 : index
      %bq = arith.remui %lane, %c4 : index
      %bc = arith.muli %bq, %c4 : index
      %vb = vector.load %b[%br, %bc] : memref<8x16xi16>, vector<4xi16>
      vector.store %vb, %tb[%br, %bc] : memref<8x16xi16, #gpu.address_space<workgroup>>, vector<4xi16>
      gpu.barrier
      // A: lane 8m + r names row r + 8 (m % 2), 16-bit column 8 (m / 2).
      %m = arith.divui %lane, %c8 : index
      %r = arith.remui %lane, %c8 : index
      %mlow = arith.remui %m, %c2 : index
      %mhigh = arith.divui %m, %c2 : index
      %rowoff = arith.muli %mlow, %c8 : index
      %row = arith.addi %r, %rowoff : index
      %col = arith.muli %mhigh, %c8 : index
      %xa = warp.ldmatrix %ta[%row, %col] count = 4
          : memref<16x16xi16, #gpu.address_space<workgroup>> -> vector<8xi16>
      // B: lane 8m + r (m < 2) names row r, 16-bit column 8 m.
      %bcol = arith.muli %mlow, %c8 : index
      %xb = warp.ldmatrix %tb[%r, %bcol] count = 2
          : memref<8x16xi16, #gpu.address_space<workgroup>> -> vector<4xi16>
      %fa = vector.bitcast %xa : vector<8xi16> to vector<16xf8E4M3FN>
      %fb = vector.bitcast %xb : vector<4xi16> to vector<8xf8E5M2>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %fd = warp.mma_sync %fa, %fb, %zero shape = m16n8k32
          : vector<16xf8E4M3FN>, vector<8xf8E5M2> -> vector<4xf32>
      %ic = arith.muli %lane, %c4 : index
      vector.store %fd, %d[%ic] : memref<128xf32>, vector<4xf32>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_ldmatrix_makes_fp8_fragments(backend):
    needs_sm89(backend)
    a_bits = RNG.choice(small_integer_codes("e4m3", 8), (16, 32))
    b_bits = RNG.choice(small_integer_codes("e5m2", 8), (32, 8))
    want = decode(a_bits, "e4m3") @ decode(b_bits, "e5m2")
    # A row-major (16 x 32 bytes), B as N x K (8 x 32 bytes): little-endian
    # byte pairs as i16.
    a16 = np.ascontiguousarray(a_bits).view(np.int16)
    b16 = np.ascontiguousarray(b_bits.T).view(np.int16)
    d = np.zeros(128, np.float32)
    wm.launch(wm.compile(LDMATRIX_MODULE), "mma", 1, 32, a16, b16, d, backend=backend)
    np.testing.assert_array_equal(gather(d, (16, 8), 4, c_position), want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_fp8_memrefs_take_uint8_arrays(backend):
    # A memref of fp8 takes the bytes as a uint8 array (an int8 one is refused).
    needs_sm89(backend)
    text = fp8_module("e5m2", "e4m3", "f32")
    text = text.replace("%a: memref<512xi8>", "%a: memref<512xf8E5M2>")
    text = text.replace("%ba = vector.load %a[%ia] : memref<512xi8>, vector<16xi8>",
                        "%fa = vector.load %a[%ia] : memref<512xf8E5M2>, vector<16xf8E5M2>")
    text = text.replace("%fa = vector.bitcast %ba : vector<16xi8> to vector<16xf8E5M2>", "")
    a_bits = RNG.choice(small_integer_codes("e5m2", 4), (16, 32))
    b_bits = RNG.choice(small_integer_codes("e4m3", 4), (32, 8))
    fa = scatter(a_bits, 16, lambda l, i: a_position(l, i, "8bit", 32))
    fb = scatter(b_bits, 8, lambda l, i: b_position(l, i, "8bit", 32)).view(np.int8)
    c = np.zeros(128, np.float32)
    d = np.zeros(128, np.float32)
    kernel = wm.compile(text)
    wm.launch(kernel, "mma", 1, 32, fa, fb, c, d, backend=backend)
    want = decode(a_bits, "e5m2") @ decode(b_bits, "e4m3")
    np.testing.assert_array_equal(gather(d, (16, 8), 4, c_position), want)
    with pytest.raises(wm.LaunchError, match="needs uint8"):
        wm.launch(kernel, "mma", 1, 32, fa.view(np.int8), fb, c, d, backend=backend)
