"""The builder's MMA methods (k.mma_fill, k.mma_load, k.mma, k.mma_store and
fragment-carrying loops): the IR they write and its locations, the PTX of
examples/python/mma_matmul.py, the mistakes raised at the call, and (on a
GPU) the any-size matmul against numpy."""
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import mma_matmul
import warp_mlir as wm
from conftest import requires_gpu
from test_mma_any import (F16_ULP, F32_ULP, SHAPES, backward_branches, kernel_body,
                          small_integers, summation_bound)

HERE = str(Path(__file__).resolve())
LOC = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)')


def tile_program(lines=None):
    """One 16x16x16 f16 multiply with an f32 accumulator, from and to
    static global memory; `lines` gets the line of each builder call."""
    prog = wm.Program("tile")
    lines = {} if lines is None else lines

    def here():
        return sys._getframe(1).f_lineno

    @prog.kernel(a=wm.memref(wm.f16, (16, 16)), b=wm.memref(wm.f16, (16, 16)),
                 c=wm.memref(wm.f32, (16, 16)))
    def tile(k, a, b, c):
        fa, lines["load"] = k.mma_load(a, (0, 0), "a"), here()
        fb = k.mma_load(b, (0, 0), "b")
        acc, lines["fill"] = k.mma_fill(0.0), here()
        d, lines["mma"] = k.mma(fa, fb, acc), here()
        k.mma_store(d, c, (0, 0)), lines.setdefault("store", here())

    return prog


def op_line(text, op):
    line = next(line for line in text.splitlines() if op in line)
    file, number, _ = LOC.search(line).groups()
    return file, int(number)


def test_ops_types_and_locations():
    lines = {}
    text = str(tile_program(lines))
    assert re.search(r'gpu.subgroup_mma_load_matrix %a\[%\w+, %\w+\] \{leadDimension = 16 : '
                     r'index\} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">', text)
    assert '-> !gpu.mma_matrix<16x16xf16, "BOp">' in text
    assert 'gpu.subgroup_mma_constant_matrix %' in text
    assert ('!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> '
            '!gpu.mma_matrix<16x16xf32, "COp">') in text
    assert re.search(r'gpu.subgroup_mma_store_matrix %\w+, %c\[%\w+, %\w+\] '
                     r'\{leadDimension = 16 : index\} : !gpu.mma_matrix<16x16xf32, "COp">, '
                     r'memref<16x16xf32>', text)
    for op, call in [("gpu.subgroup_mma_load_matrix %a", "load"),
                     ("gpu.subgroup_mma_constant_matrix", "fill"),
                     ("gpu.subgroup_mma_compute", "mma"), ("gpu.subgroup_mma_store_matrix", "store")]:
        assert op_line(text, op) == (HERE, lines[call])
    wm.Module.parse(text).verify()


def test_tile_ptx():
    ptx = wm.compile(tile_program(), chip="sm_90").ptx
    assert ptx.count("wmma.load.a.sync.aligned.row.m16n16k16.f16") == 1
    assert ptx.count("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32") == 1
    assert ptx.count("wmma.store.d.sync.aligned.row.m16n16k16.f32") == 1


@pytest.mark.parametrize("acc, mma", [(wm.f32, "m16n16k16.f32.f32"), (wm.f16, "m16n16k16.f16.f16")])
def test_example_ptx(acc, mma):
    prog = mma_matmul.build(acc)
    text = str(prog)
    # The accumulator travels through the loop as a fragment.
    assert re.search(r"scf.for .* iter_args\(%\w+ = %\w+\) -> "
                     rf'\(!gpu.mma_matrix<16x16x{acc}, "COp">\)', text)
    assert text.count("{llvm.align = 32 : i64}") == 3
    body = kernel_body(wm.compile(prog, chip="sm_90").ptx, "matmul")
    assert ".shared .align 32" in body or "align 32" in wm.compile(prog, chip="sm_90").ptx
    assert len(backward_branches(body)) == 1
    assert body.count("wmma.mma.sync.aligned.row.row." + mma) == 1
    assert body.count("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16") == 1
    assert body.count("bar.warp.sync") == 3


def raises_at_call(error, match, build):
    """`build(k)` inside a fresh kernel raises `error` whose message starts
    with the call's name and this file's line of the marked statement."""
    prog = wm.Program()
    with pytest.raises(error) as info:
        @prog.kernel(g16=wm.memref(wm.f16, (16, 16)), g32=wm.memref(wm.f32, (16, 16)),
                     gbf=wm.memref(wm.bf16, (16, 16)), dyn=wm.memref(wm.f16, (-1, -1)),
                     gi=wm.memref(wm.i32, (16, 16)))
        def bad(k, g16, g32, gbf, dyn, gi):
            build(k, g16, g32, gbf, dyn, gi)
    message = str(info.value)
    assert re.search(match, message), message
    return message


CASES = [
    # bf16 goes through warp's own ops (test_mma_bf16.py); their table.
    (TypeError, r"^k\.mma_load\(\) at .*test_mma_builder\.py:\d+: PTX wmma has no m16n16k16 "
     r"C fragment of bf16",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_load(gbf, (0, 0), "c")),
    (ValueError, r"give lead_dimension .* memref<\?x\?xf16> has no static row length",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_load(dyn, (0, 0), "a")),
    (ValueError, r"lead_dimension 20 must be at least the fragment's 16 columns and a "
     r"multiple of 8",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_load(dyn, (0, 0), "b", lead_dimension=20)),
    (ValueError, r"^k\.mma_load\(\) at .*: wmma needs 32-byte aligned fragments: make "
     r"%shared0 with k\.shared\(\.\.\., align=32\)",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_load(k.shared(wm.f16, (16, 16)), (0, 0), "a")),
    (ValueError, r"an MMA operand must be one of",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_load(g16, (0, 0), "d")),
    (wm.VerificationError, r"operands must be in the order AOp, BOp, COp",
     lambda k, g16, g32, gbf, dyn, gi: k.mma(k.mma_load(g16, (0, 0), "b"),
                                             k.mma_load(g16, (0, 0), "b"), k.mma_fill(0.0))),
    (wm.VerificationError, r"operand shapes do not satisfy matmul constraints",
     lambda k, g16, g32, gbf, dyn, gi: k.mma(
         k.mma_load(k.shared(wm.f16, (32, 16), align=32), (0, 0), "a", shape=(32, 16)),
         k.mma_load(g16, (0, 0), "b"), k.mma_fill(0.0))),
    (wm.VerificationError, r"expected the operand matrix being stored to have 'COp'",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_store(k.mma_load(g16, (0, 0), "a"), g16, (0, 0))),
    (TypeError, r"mma_store needs a memref of f32, not memref<16x16xf16>",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_store(k.mma_fill(1.0), g16, (0, 0))),
    (TypeError, r"^operator \+ at .*: no arithmetic on an MMA fragment",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_fill(0.0) + k.mma_fill(1.0)),
    (wm.VerificationError, r"'warp.shuffle' op operand #0 must be .*, but got "
     r"'!gpu.mma_matrix<16x16xf32, \"COp\">'",
     lambda k, g16, g32, gbf, dyn, gi: k.shuffle("xor", k.mma_fill(0.0), 1)),
    (TypeError, r"a constant needs a scalar or vector type.*k\.mma_fill makes a constant "
     r"fragment",
     lambda k, g16, g32, gbf, dyn, gi: k.constant(0.0, wm.mma_matrix(16, 16, wm.f32, "c"))),
    (TypeError, r"^k\.mma_fill\(\) at .*test_mma_builder\.py:\d+: cannot use 'zero' as a f32",
     lambda k, g16, g32, gbf, dyn, gi: k.mma_fill("zero")),
    (ValueError, r"a shared buffer alignment is a power of two, not 24",
     lambda k, g16, g32, gbf, dyn, gi: k.shared(wm.f16, (16, 16), align=24)),
]


@pytest.mark.parametrize("error, match, build", CASES)
def test_mistakes_raise_at_the_call(error, match, build):
    raises_at_call(error, match, build)


@pytest.mark.parametrize("build, message", [
    (lambda k, g16, g32, o: k.mma_store(k.mma(k.mma_load(g32, (0, 0), "a"),
                                              k.mma_load(g32, (0, 0), "b"), k.mma_fill(0.0)),
                                        o, (0, 0)),
     "PTX wmma has no 16x16 A fragment of tf32"),
    (lambda k, g16, g32, o: k.mma_store(k.mma(k.mma_load(g16, (0, 0), "a", shape=(16, 8)),
                                              k.mma_load(g16, (0, 0), "b", shape=(8, 16)),
                                              k.mma_fill(0.0)), o, (0, 0)),
     "PTX wmma has no 16x8 A fragment of f16"),
    (lambda k, g16, g32, o: k.mma_store(k.mma(k.mma_load(g32, (0, 0), "a", shape=(16, 8)),
                                              k.mma_load(g32, (0, 0), "b", shape=(8, 16)),
                                              k.mma_fill(0.0, wm.f16)), g16, (0, 0)),
     "PTX wmma has no m16n16k8 multiply of tf32 into f16"),
])
def test_fragments_ptx_lacks_are_refused_at_the_line(build, message):
    """Which fragments PTX wmma has is the compiler's table: it refuses the
    others when it lowers them, at the Python line that made the op."""
    prog = wm.Program()

    @prog.kernel(g16=wm.memref(wm.f16, (16, 16)), g32=wm.memref(wm.f32, (16, 16)),
                 o=wm.memref(wm.f32, (16, 16)))
    def bad(k, g16, g32, o):
        build(k, g16, g32, o)

    with pytest.raises(wm.MLIRError, match=re.escape(message)) as info:
        wm.compile(prog, chip="sm_90", cache=False)
    located = [d for d in info.value.diagnostics if message in d.message]
    assert located[0].file == HERE and located[0].line == build.__code__.co_firstlineno


def test_fragment_is_no_kernel_parameter():
    with pytest.raises(TypeError, match="parameter 'm' needs a type such as wm.f32"):
        wm.Program().kernel(m=wm.mma_matrix(16, 16, wm.f32, "c"))


def test_launch_checks_sizes():
    compiled = None  # the size check comes before anything needs a compiled module
    with pytest.raises(ValueError, match="multiples of 16, not 48, 20, 32"):
        mma_matmul.matmul(compiled, np.zeros((48, 32), np.float16), np.zeros((32, 20), np.float16),
                          np.zeros((48, 20), np.float32))


@requires_gpu
@pytest.mark.parametrize("acc", [wm.f32, wm.f16])
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_builder_matmul_against_numpy(acc, m, n, k):
    compiled = wm.compile(mma_matmul.build(acc), chip="sm_90")
    rng = np.random.default_rng(m * 3 + n * 5 + k)
    out_type = np.float32 if acc == wm.f32 else np.float16
    # Small integers: every partial sum is exact in f16 and f32 (|sum| <= 4 K).
    a, b = small_integers(rng, (m, k), np.float16), small_integers(rng, (k, n), np.float16)
    c = np.zeros((m, n), out_type)
    mma_matmul.matmul(compiled, a, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64))
    a = (rng.standard_normal((m, k)) / 4).astype(np.float16)
    b = (rng.standard_normal((k, n)) / 4).astype(np.float16)
    c = np.zeros((m, n), out_type)
    mma_matmul.matmul(compiled, a, b, c)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    ulp = F32_ULP if acc == wm.f32 else F16_ULP
    assert np.all(np.abs(c.astype(np.float64) - exact) <= summation_bound(a, b, ulp))
