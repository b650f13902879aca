"""Bad input is a Python exception at the call that gets it: never IR that
fails to parse, a silently different kernel, a wrapped launch parameter, an
option smuggled into a pipeline string, or a crashed interpreter. Runs
without a GPU."""
import contextlib
import os
import re
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import seed_kernels
import warp_mlir as wm
from warp_mlir import _checks
from warp_mlir.compiler import pipeline_options
from warp_mlir.cuda import launch_config
from probes import package_paths

NAN, INF = float("nan"), float("inf")
ROOT = Path(__file__).resolve().parents[2]


def _run_python(code: str) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter with the package (for inputs that
    used to crash the process)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(package_paths(ROOT)))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=300)


# -- float constants: exact bits for every float type --------------------------

EXACT = [
    ("f32", 1e-05, 0x3727C5AC), ("f64", 1e-05, 0x3EE4F8B588E368F1),
    ("f64", 1e16, 0x4341C37937E08000), ("f32", 1e16, 0x5A0E1BCA),
    ("f64", NAN, 0x7FF8000000000000), ("f32", NAN, 0x7FC00000),
    ("f16", NAN, 0x7E00), ("bf16", NAN, 0x7FC0),
    ("f64", INF, 0x7FF0000000000000), ("f64", -INF, 0xFFF0000000000000),
    ("f32", INF, 0x7F800000), ("f32", -INF, 0xFF800000),
    ("f16", INF, 0x7C00), ("f16", -INF, 0xFC00),
    ("bf16", INF, 0x7F80), ("bf16", -INF, 0xFF80),
    ("f64", -0.0, 0x8000000000000000), ("f32", -0.0, 0x80000000),
    ("f16", -0.0, 0x8000), ("bf16", -0.0, 0x8000),
    ("f16", 65504.0, 0x7BFF), ("f16", 65519.0, 0x7BFF), ("f16", -65504, 0xFBFF),
    # Denormals: the smallest of each type, a tie to even (to zero) and
    # 0.75 of the smallest (up).
    ("f16", 2.0 ** -24, 0x0001), ("f16", 2.0 ** -25, 0x0000), ("f16", 3 * 2.0 ** -26, 0x0001),
    ("f16", 6.097555160522461e-05, 0x03FF),
    ("f32", 2.0 ** -149, 0x00000001), ("f32", -2.0 ** -149, 0x80000001),
    ("f64", 5e-324, 0x0000000000000001), ("bf16", 2.0 ** -133, 0x0001),
    # bf16 rounds the value once, to nearest even: 1 + 2**-8 + 2**-30 is above
    # the half-way point (rounding through f32 first would give 0x3F80).
    ("bf16", 1 + 2.0 ** -8 + 2.0 ** -30, 0x3F81), ("bf16", 1 + 2.0 ** -8, 0x3F80),
    ("bf16", 1e-05, 0x3728), ("bf16", 3, 0x4040),
    ("f32", 16777217, 0x4B800000), ("f64", 2 ** 200 + 1, 0x4C70000000000000),
]


def _bits_of_printed(literal: str, type_name: str) -> int:
    """The bits of a float literal as MLIR prints it (hex or decimal)."""
    if literal.startswith("0x"):
        return int(literal, 16)
    return _checks.float_bits(float(literal), type_name)


@pytest.mark.parametrize("type_name, value, bits", EXACT)
def test_float_constant_is_exact(type_name, value, bits):
    type = getattr(wm, type_name)
    prog = wm.Program()

    @prog.kernel(out=wm.memref(type))
    def store(k, out):
        out[0] = k.constant(value, type)

    [printed] = re.findall(rf"arith\.constant (\S+) : {type_name}", str(prog))
    assert _bits_of_printed(printed, type_name) == bits
    module = wm.Module.parse(str(prog))
    module.verify()
    [printed] = re.findall(rf"arith\.constant (\S+) : {type_name}", str(module))
    assert _bits_of_printed(printed, type_name) == bits


def test_float_bits_match_numpy_and_struct():
    rng = np.random.default_rng(7)
    values = np.concatenate([
        rng.standard_normal(4000) * 10.0 ** rng.integers(-12, 12, 4000),
        rng.uniform(-1, 1, 2000) * 2.0 ** -24,        # f16 denormals
        rng.uniform(-1, 1, 2000) * 2.0 ** -126,       # f32 denormals
        (rng.integers(-2 ** 62, 2 ** 62, 2000, dtype=np.int64)).astype(np.float64),
    ])
    for value in values.tolist():
        with np.errstate(over="ignore"):
            half, single = np.float16(value), np.float32(value)
        if np.isfinite(half):
            assert _checks.float_bits(value, "f16") == int(half.view(np.uint16)), value
        if np.isfinite(single):
            assert _checks.float_bits(value, "f32") == int(single.view(np.uint32)), value
            # bf16 of an f32 value: the upper half, rounded to nearest even.
            word = int(single.view(np.uint32))
            bf16 = (word + 0x7FFF + ((word >> 16) & 1)) >> 16
            if bf16 & 0x7FFF < 0x7F80:
                assert _checks.float_bits(float(single), "bf16") == bf16, value
        assert _checks.float_bits(value, "f64") == struct.unpack(">Q", struct.pack(">d", value))[0]


def test_float_constants_round_trip_through_the_compiler():
    """The stored bit patterns survive parsing and lowering: PTX stores
    exactly the bits of every constant."""
    cases = {"f16": [NAN, -0.0, 65504.0, 2.0 ** -24, -INF], "bf16": [NAN, INF, -INF, 1e-05],
             "f32": [1e-05, NAN, 2.0 ** -149, -0.0, INF], "f64": [1e16, NAN, 5e-324, -INF]}
    prog = wm.Program("constants")

    @prog.kernel(**{f"out_{t}": wm.memref(getattr(wm, t)) for t in cases})
    def store_constants(k, *buffers):
        for buffer, (type_name, values) in zip(buffers, cases.items()):
            for position, value in enumerate(values):
                buffer[position] = k.constant(value, getattr(wm, type_name))

    wm.Module.parse(str(prog)).verify()
    ptx = wm.compile(prog, chip="sm_90").ptx
    stored = {}
    for width, value in re.findall(r"st\.global\.b(\d+)\s+\[[^\]]*\],\s*(-?\w+);", ptx):
        stored.setdefault(int(width), []).append(int(value, 0) & ((1 << int(width)) - 1))
    want = {}
    for type_name, values in cases.items():
        width = 1 + sum(_checks.FLOAT_FORMATS[type_name])
        want.setdefault(width, []).extend(_checks.float_bits(v, type_name) for v in values)
    assert {w: sorted(v) for w, v in stored.items()} == {w: sorted(v) for w, v in want.items()}


def test_vector_constants_are_splats():
    prog = wm.Program()

    @prog.kernel(h=wm.memref(wm.vector(2, wm.f16)))
    def scale(k, h):
        h[0] = h[0] * 2.0 + k.constant(NAN, wm.vector(2, wm.f16))

    assert "arith.constant dense<2.000000e+00> : vector<2xf16>" in str(prog)
    assert "arith.constant dense<0x7E00> : vector<2xf16>" in str(prog)
    wm.Module.parse(str(prog)).verify()


@pytest.mark.parametrize("type_name, value", [
    ("f16", 65520.0), ("f16", 1e6), ("f32", 3.5e38), ("bf16", 3.4e38), ("f64", 10 ** 400),
    ("f32", -(2 ** 200))])
def test_float_constant_out_of_range_raises(type_name, value):
    prog = wm.Program()
    with pytest.raises(ValueError, match=f"out of range for {type_name}"):
        @prog.kernel(out=wm.memref(getattr(wm, type_name)))
        def store(k, out):
            out[0] = k.constant(value, getattr(wm, type_name))
    assert not prog.kernels


@pytest.mark.parametrize("value", [True, "1.0", None, 1j])
def test_float_constant_of_a_non_number_raises(value):
    k = wm.KernelBuilder("k", {})
    with pytest.raises(TypeError):
        k.constant(value, wm.f32)


# -- integer operands: no floats, no bools, nothing out of range ---------------

def _builder():
    return wm.KernelBuilder("k", {"x": wm.memref(wm.f32), "y": wm.memref(wm.i32), "n": wm.i32})


@pytest.mark.parametrize("call, error", [
    (lambda k, x, y, n: k.shuffle("down", x[0], 1.5), TypeError),
    (lambda k, x, y, n: k.shuffle("down", x[0], True), TypeError),
    (lambda k, x, y, n: k.shuffle("down", x[0], 2 ** 32), ValueError),
    (lambda k, x, y, n: k.shuffle("down", x[0], -2 ** 31 - 1), ValueError),
    (lambda k, x, y, n: k.shuffle("down", x[0], 1, mask=1.0), TypeError),
    (lambda k, x, y, n: k.shuffle("down", x[0], 1, mask=2 ** 32), ValueError),
    (lambda k, x, y, n: k.shuffle("down", x[0], 1, width=1.5), TypeError),
    (lambda k, x, y, n: k.shuffle("down", x[0], 1, width=True), TypeError),
    (lambda k, x, y, n: k.shuffle("down", x[0], 1, width=3), ValueError),
    (lambda k, x, y, n: k.shuffle("down", x[0], 1, width=64), ValueError),
    (lambda k, x, y, n: k.shuffle("idx", x[0], 1, bound=3), ValueError),
    (lambda k, x, y, n: k.shuffle("up", x[0], 1, width=16, bound=3), ValueError),
    (lambda k, x, y, n: k.shuffle("up", x[0], 1, bound=1.5), TypeError),
    (lambda k, x, y, n: k.broadcast(x[0], 0.0), TypeError),
    (lambda k, x, y, n: k.reduce("add", x[0], cluster_size=8.0), TypeError),
    (lambda k, x, y, n: k.reduce("add", x[0], cluster_stride=3), ValueError),
    (lambda k, x, y, n: k.reduce("add", x[0], valid_lanes=16.5), TypeError),
    (lambda k, x, y, n: k.scan("add", y[0], width=0), ValueError),
    (lambda k, x, y, n: k.scan("add", y[0], init=1.5), TypeError),
    (lambda k, x, y, n: y[0] + 1.5, TypeError),
    (lambda k, x, y, n: n + True, TypeError),
    (lambda k, x, y, n: n * 2 ** 32, ValueError),
    (lambda k, x, y, n: x[1.5], TypeError),
    (lambda k, x, y, n: x[True], TypeError),
    (lambda k, x, y, n: x[2 ** 63], ValueError),
    (lambda k, x, y, n: x[k.lane_id() == 0], TypeError),
    (lambda k, x, y, n: x[x[0]], TypeError),
    (lambda k, x, y, n: k.loop(0, 10.0), TypeError),
    (lambda k, x, y, n: k.loop(0, 10, 0), ValueError),
    (lambda k, x, y, n: k.loop(0, 10, init=[0.0]), TypeError),
    (lambda k, x, y, n: k.constant(1.0, wm.i32), TypeError),
    (lambda k, x, y, n: k.constant(True, wm.i64), TypeError),
    (lambda k, x, y, n: k.constant(256, wm.i8), ValueError),
    (lambda k, x, y, n: k.constant(-129, wm.i8), ValueError),
    (lambda k, x, y, n: k.constant(2, wm.i1), ValueError),
    (lambda k, x, y, n: k.constant(0.0, wm.i1), TypeError),
    (lambda k, x, y, n: k.constant(2 ** 63, wm.index), ValueError),
    (lambda k, x, y, n: k.constant(1, wm.memref(wm.i32)), TypeError),
    (lambda k, x, y, n: k.shared(wm.f32, 2.5), TypeError),
    (lambda k, x, y, n: k.shared(wm.f32, 0), ValueError),
    (lambda k, x, y, n: wm.memref(wm.f32, (1.5,)), TypeError),
    (lambda k, x, y, n: wm.memref(wm.f32, (-2,)), ValueError),
    (lambda k, x, y, n: wm.memref(wm.f32, 4), TypeError),
    (lambda k, x, y, n: wm.vector(2.0, wm.f16), TypeError),
    (lambda k, x, y, n: wm.vector(0, wm.f16), ValueError),
])
def test_integer_operands_are_checked(call, error):
    k = _builder()
    with pytest.raises(error):
        call(k, *k.args)
    # The refused op is not left in the kernel.
    assert not any(op in k.text() for op in ("warp.shuffle", "warp.reduce", "warp.scan"))


def test_integer_constants_take_signed_and_unsigned_ranges():
    prog = wm.Program()

    @prog.kernel(x=wm.memref(wm.f32), n=wm.i32)
    def ranges(k, x, n):
        k.shuffle("down", x[0], 0xFFFFFFFF, mask=-1)
        k.constant(-2 ** 31, wm.i32), k.constant(255, wm.i8), k.constant(2 ** 63 - 1, wm.index)
        k.constant(True, wm.i1), k.constant(1, wm.i1), k.shuffle("up", x[0], 1, width=n)

    body = str(prog)
    assert "-1 : i32" in body and "-2147483648 : i32" in body and "width %n" in body
    assert "-1 : i8" in body and "9223372036854775807 : index" in body


@pytest.mark.parametrize("call", [
    lambda k, x, y, n: k.shuffle("up> %x", x[0], 1),
    lambda k, x, y, n: k.shuffle("rotate", x[0], 1),
    lambda k, x, y, n: k.vote("some", k.lane_id() == 0),
    lambda k, x, y, n: k.lanemask("ne"),
    lambda k, x, y, n: k.reduce("add> %x", x[0]),
    lambda k, x, y, n: k.reduce("add", x[0], lanes="last"),
    lambda k, x, y, n: k.reduce("add", x[0], strategy="tree> {x}"),
    lambda k, x, y, n: k.scan("Add", y[0]),
    lambda k, x, y, n: k.match_any(n, bits=0),
    lambda k, x, y, n: k.match_any(n, bits=65),
    lambda k, x, y, n: k.match_any(n, bits=4, strategy="ballots> %x"),
    lambda k, x, y, n: k.thread_id("w"),
    lambda k, x, y, n: k.block_id("x y"),
])
def test_words_pasted_into_ir_are_checked(call):
    k = _builder()
    with pytest.raises(ValueError):
        call(k, *k.args)


@pytest.mark.parametrize("call", [
    lambda k, x, y, n: k.shuffle("down", 1.0, 1),
    lambda k, x, y, n: k.match_any(3),
    lambda k, x, y, n: k.cast(1, wm.f32),
    lambda k, x, y, n: k.exp(y[0]),
    lambda k, x, y, n: k.popc(x[0]),
    lambda k, x, y, n: x[0] & 1,
    lambda k, x, y, n: x + 1,
    lambda k, x, y, n: k.atomic_add(n, 0, 1),
    lambda k, x, y, n: k.ballot(n),
    lambda k, x, y, n: k.cast(x, wm.f32),
    lambda k, x, y, n: k.cast(n, wm.vector(2, wm.i32)),
])
def test_operand_kinds_are_checked(call):
    k = _builder()
    with pytest.raises(TypeError):
        call(k, *k.args)


def test_value_of_another_kernel_is_refused():
    first, second = _builder(), _builder()
    with pytest.raises(ValueError, match="belongs to kernel"):
        second.args[1][0] = first.lane_id()
    with pytest.raises(ValueError, match="belongs to kernel"):
        second.shuffle("xor", first.lane_id(), 1)


def test_casts_emit_valid_ops():
    """float <-> index goes through i64 (index_cast takes integers only);
    a boolean (i1) casts to 1 and 1.0, not -1."""
    prog = wm.Program()

    @prog.kernel(x=wm.memref(wm.f32), o=wm.memref(wm.index))
    def casts(k, x, o):
        x[k.cast(x[0], wm.index)] = k.cast(k.thread_id(), wm.f32)
        o[0] = k.cast(k.lane_id() == 0, wm.index)
        x[1] = k.cast(k.lane_id() == 1, wm.f32)

    text = str(prog)
    for op in ("arith.fptosi %", "f32 to i64", "index to i64", "arith.sitofp",
               "arith.index_castui", "arith.uitofp"):
        assert op in text, op
    wm.Module.parse(text).verify()


# -- kernels: names and definitions --------------------------------------------

def _named(name):
    def body(k, out):
        out[0] = k.lane_id()
    body.__name__ = name
    return body


@pytest.mark.parametrize("name", ["warp-dot", "warp.dot", "ядро", "noël", "_", "WARP_SZ", "1st",
                                  "", "a b", "__nv_expf", "<lambda>", "x\n"])
def test_kernel_name_must_be_an_identifier(name):
    prog = wm.Program()
    with pytest.raises(ValueError, match="not a valid PTX identifier"):
        prog.kernel(out=wm.memref(wm.i32))(_named(name))
    with pytest.raises(ValueError, match="not a valid PTX identifier"):
        wm.KernelBuilder(name, {})
    assert not prog.kernels


def test_program_and_parameter_names_are_checked():
    with pytest.raises(ValueError, match="program name"):
        wm.Program("my-kernels")
    with pytest.raises(TypeError, match="program name"):
        wm.Program(None)
    prog = wm.Program()
    with pytest.raises(ValueError, match="parameter name"):
        prog.kernel(**{"größe": wm.i32})
    with pytest.raises(TypeError, match="needs a type"):
        prog.kernel(out="memref<?xf32>")
    with pytest.raises(TypeError, match="decorates a function"):
        prog.kernel(out=wm.memref(wm.i32))("not a function")


def test_kernel_defined_twice_raises_with_its_name():
    prog = wm.Program("twice")

    @prog.kernel(out=wm.memref(wm.i32))
    def lane(k, out):
        out[0] = k.lane_id()

    first = prog.kernels["lane"].text()
    with pytest.raises(ValueError, match="kernel 'lane' is already defined in program 'twice'"):
        @prog.kernel(out=wm.memref(wm.f32))
        def lane(k, out):  # noqa: F811
            out[0] = 1.0
    assert list(prog.kernels) == ["lane"] and prog.kernels["lane"].text() == first


def test_compile_refuses_symbols_ptx_cannot_spell():
    """MLIR text compiled as given: a kernel named "a-b" made LLVM's NVPTX
    backend abort the interpreter; "a.b", "_" and "WARP_SZ" made PTX that
    ptxas rejects."""
    for name in ("a-b", "é", "a.b", "_", "WARP_SZ", "1a"):
        symbol = name if re.fullmatch(r"[A-Za-z_][\w.$]*", name) else f'"{name}"'
        text = ("module attributes {gpu.container_module} { gpu.module @m {\n"
                f"gpu.func @{symbol}(%o: memref<?xi32>) kernel {{\n"
                "  %c0 = arith.constant 0 : index\n  %x = warp.lane_id : i32\n"
                "  memref.store %x, %o[%c0] : memref<?xi32>\n  gpu.return\n} } }")
        with pytest.raises(wm.MLIRError, match="cannot be spelled in PTX"):
            wm.compile(text, chip="sm_90", cache=False)
    # The same check in a fresh interpreter: it must end normally.
    result = _run_python("""
        import warp_mlir as wm
        text = ('module attributes {gpu.container_module} { gpu.module @m {\\n'
                'gpu.func @"a-b"(%o: memref<?xi32>) kernel {\\n  gpu.return\\n} } }')
        try:
            wm.compile(text, chip="sm_90", cache=False)
        except wm.MLIRError as error:
            print("MLIRError", error)
    """)
    assert result.returncode == 0, result.stderr
    assert "MLIRError" in result.stdout


# -- nesting -------------------------------------------------------------------

def _nest(k, depth, out):
    with contextlib.ExitStack() as stack:
        for level in range(depth):
            if level % 3 == 0:
                stack.enter_context(k.if_(k.lane_id() == level))
            elif level % 3 == 1:
                stack.enter_context(k.loop(0, 2))
            else:
                k.cond(k.lane_id() == 1, lambda: 1, lambda: 2, wm.i32)
                stack.enter_context(k.loop(0, 1))
        out[0] = k.lane_id()


def test_nesting_up_to_the_limit_parses():
    assert wm.KernelBuilder.MAX_NESTING == 256
    prog = wm.Program()

    @prog.kernel(out=wm.memref(wm.i32))
    def deepest(k, out):
        _nest(k, wm.KernelBuilder.MAX_NESTING, out)

    wm.Module.parse(str(prog)).verify()


def test_nesting_past_the_limit_raises():
    prog = wm.Program()
    with pytest.raises(ValueError, match="nested deeper than KernelBuilder.MAX_NESTING = 256"):
        @prog.kernel(out=wm.memref(wm.i32))
        def too_deep(k, out):
            _nest(k, 4000, out)
    assert not prog.kernels
    k = wm.KernelBuilder("k", {})
    for _ in range(wm.KernelBuilder.MAX_NESTING):
        k._depth += 1
    with pytest.raises(ValueError, match="MAX_NESTING"):
        k.cond(k.lane_id() == 0, lambda: 1, lambda: 2, wm.i32)
    k._depth = 0  # leaving the regions restores the depth
    with k.if_(k.lane_id() == 0):
        with k.loop(0, 2):
            assert k._depth == 2
    assert k._depth == 0


def test_parsing_text_nested_too_deep_raises_instead_of_crashing():
    result = _run_python("""
        import warp_mlir as wm
        text = ("func.func @f() {\\n" + "scf.execute_region {\\n" * 4000
                + "scf.yield\\n}\\n" * 4000 + "return\\n}")
        try:
            wm.Module.parse(text)
        except wm.MLIRError as error:
            print("MLIRError", error.diagnostics[0].location, error.diagnostics[0].message)
        text = "module attributes {x.a = " + "[" * 30000 + "1" + "]" * 30000 + "} {}"
        try:
            wm.Module.parse(text)
        except wm.MLIRError as error:
            print("MLIRError", error.diagnostics[0].message)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("MLIRError") == 2 and "MAX_NESTING = 1000" in result.stdout
    assert 'loc("-":1001:' in result.stdout


# -- launch: grid, block and scalars, checked without a GPU --------------------

@pytest.fixture(scope="module")
def compiled():
    return wm.compile(seed_kernels.prog, chip="sm_90")


def test_launch_config_normalizes_valid_dims():
    assert launch_config(2, 32) == ((2, 1, 1), (32, 1, 1))
    assert launch_config((4, 2), [8, 4, 2]) == ((4, 2, 1), (8, 4, 2))
    assert launch_config((2 ** 31 - 1, 65535, 65535), (1024, 1, 1)) == (
        (2 ** 31 - 1, 65535, 65535), (1024, 1, 1))
    assert launch_config(np.int64(3), (np.int32(16), 2, 1)) == ((3, 1, 1), (16, 2, 1))
    assert launch_config(1, (1, 1, 64)) == ((1, 1, 1), (1, 1, 64))


BAD_DIMS = [
    ((1, 1, 1, 1), 32), (1, (32, 1, 1, 1)), ((), 32), (-1, 32), (0, 32), (2 ** 31, 32),
    (2 ** 33, 32), ((1, 65536), 32), ((1, 1, 65536), 32), ((1, -1), 32), (1.5, 32),
    (True, 32), ("32", 32), (None, 32), ((2.0, 1), 32),
    (1, 1025), (1, (32, 33)), (1, (1, 1, 65)), (1, (1, 1025)), (1, 0), (1, 32.0), (1, (32, False)),
]


@pytest.mark.parametrize("grid, block", BAD_DIMS)
def test_bad_grid_or_block_raises_value_error(grid, block):
    with pytest.raises(ValueError):
        launch_config(grid, block)


@pytest.mark.parametrize("grid, block", BAD_DIMS)
def test_launch_checks_dims_before_touching_the_gpu(compiled, grid, block):
    x, out = np.ones(64, np.float32), np.zeros(2, np.float32)
    with pytest.raises(ValueError) as info:
        wm.launch(compiled, "warp_dot", grid, block, x, x, out)
    assert not isinstance(info.value, wm.CudaError)


@pytest.mark.parametrize("shared_bytes", [-1, 2 ** 32, 1.5])
def test_bad_shared_bytes_raises(compiled, shared_bytes):
    x, out = np.ones(64, np.float32), np.zeros(2, np.float32)
    with pytest.raises(ValueError, match="shared_bytes"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, out, shared_bytes=shared_bytes)


SCALARS = wm.Program("scalars")


@SCALARS.kernel(out=wm.memref(wm.f32), n=wm.i32, scale=wm.f32, flag=wm.i1, big=wm.i64)
def scaled(k, out, n, scale, flag, big):
    with k.if_(flag):
        out[k.cast(n, wm.index)] = scale * k.cast(big, wm.f32)


@pytest.mark.parametrize("args, error", [
    ((1.5, 1.0, True, 0), wm.LaunchError), ((True, 1.0, True, 0), wm.LaunchError),
    ((2 ** 32, 1.0, True, 0), ValueError), ((-2 ** 31 - 1, 1.0, True, 0), ValueError),
    ((0, "1.0", True, 0), wm.LaunchError), ((0, True, True, 0), wm.LaunchError),
    ((0, 1e39, True, 0), ValueError), ((0, 1.0, 2, 0), wm.LaunchError),
    ((0, 1.0, 1.0, 0), wm.LaunchError), ((0, 1.0, True, 2 ** 64), ValueError),
])
def test_scalar_arguments_are_checked(args, error):
    compiled = wm.compile(SCALARS, chip="sm_90")
    out = np.zeros(4, np.float32)
    with pytest.raises(error):
        wm.launch(compiled, "scaled", 1, 32, out, *args)


def test_launch_of_a_non_module_raises(compiled):
    with pytest.raises(TypeError, match="CompiledModule"):
        wm.launch(compiled.ptx, "warp_dot", 1, 32)
    with pytest.raises(wm.LaunchError, match="no kernel named"):
        wm.launch(compiled, None, 1, 32)


# -- compile options and the C API's error path --------------------------------

@pytest.mark.parametrize("options", [
    dict(chip="sm_90 ptx-output=PATH"), dict(chip="sm_90\nformat=bin"), dict(chip="sm90"),
    dict(chip=""), dict(chip="SM_90"), dict(chip="sm_90b"), dict(chip="sm_90a "), dict(chip=90),
    dict(chip=None), dict(chip="compute_90"),
    dict(format="isa"), dict(format="ptx format=bin"), dict(format="PTX"), dict(format=None),
    dict(opt_level=4), dict(opt_level=-1), dict(opt_level="3"), dict(opt_level=2.0),
    dict(opt_level=True), dict(opt_level="3 ptx-output=PATH"),
    dict(strategy="fast"), dict(strategy="auto ptx-output=PATH"), dict(strategy="Tree"),
    dict(strategy=None),
])
def test_compile_options_are_checked(options, tmp_path):
    target = tmp_path / "smuggled.ptx"
    options = {key: value.replace("PATH", str(target)) if isinstance(value, str) else value
               for key, value in options.items()}
    with pytest.raises(ValueError):
        wm.compile(seed_kernels.prog, **options)
    with pytest.raises(ValueError):
        pipeline_options(**options)
    assert not target.exists()


def test_valid_compile_options_make_the_pipeline_string():
    assert pipeline_options("sm_100a", "cubin", 0, "tree") == (
        "chip=sm_100a format=bin opt-level=0 strategy=tree")
    assert pipeline_options("sm_90f", "fatbin", np.int64(2), "redux").startswith("chip=sm_90f ")


def test_unknown_chip_is_an_mlir_error_with_the_diagnostic():
    # First in a fresh interpreter, so that a library that aborts (LLVM's
    # "Cannot select" on a chip it does not know) fails this test alone.
    result = _run_python("""
        import sys
        sys.path.insert(0, %r)
        import seed_kernels, warp_mlir as wm
        try:
            wm.compile(seed_kernels.prog, chip="sm_95")
        except wm.MLIRError as error:
            print("MLIRError", error.diagnostics[0].message)
    """ % str(ROOT / "examples" / "python"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "MLIRError unknown chip 'sm_95'" in result.stdout
    with pytest.raises(wm.MLIRError) as info:
        wm.compile(seed_kernels.prog, chip="sm_95")
    assert "unknown chip 'sm_95'" in info.value.diagnostics[0].message
    assert info.value.diagnostics[0].severity == "error"
    # The interpreter lives on: the same program still compiles.
    assert ".target sm_90" in wm.compile(seed_kernels.prog, chip="sm_90").ptx


@pytest.mark.parametrize("source", [42, None, b"module {}", ["module {}"]])
def test_compile_and_parse_take_text(source):
    with pytest.raises(TypeError):
        wm.compile(source)
    with pytest.raises(TypeError):
        wm.Module.parse(source)


# -- Module.run ----------------------------------------------------------------

REDUCE = """
gpu.module @m {
func.func @f(%x: i32) -> i32 {
  %r = warp.reduce <add> %x strategy = <redux> : i32
  return %r : i32
}
}
"""


@pytest.mark.parametrize("pipeline, message", [
    ("nvvm-attach-target{chip=sm_95},warp-expand-collectives", "unknown chip 'sm_95'"),
    ("nvvm-attach-target{chip=sm_75},warp-expand-collectives", "redux.sync needs sm_80+"),
    ("builtin.module(warp-expand-collectives{strategy=bogus})", "strategy=bogus"),
    ("warp-expand-collectives{bogus=1}", "no such option bogus"),
    ("canonicalize{max-iterations=many}", "max-iterations=many"),
    ("warp-lower-to-ptx{format=bogus}", "format=bogus"),
    ("canonicalize,,cse", "does not refer to a registered pass"),
    ("builtin.module(canonicalize),cse", "invalid pass pipeline"),
    ("builtin.module(", "invalid pass pipeline"),
])
def test_failing_or_invalid_pipelines_raise(pipeline, message):
    module = wm.Module.parse(REDUCE)
    with pytest.raises(wm.MLIRError) as info:
        module.run(pipeline)
    assert message in str(info.value)
    assert info.value.diagnostics and info.value.diagnostics[0].severity == "error"


def test_failing_lowering_raises():
    module = wm.Module.parse(seed_kernels.prog.to_mlir())
    with pytest.raises(wm.MLIRError, match="opt-level 9 is outside 0..3"):
        module.run("warp-lower-to-ptx{chip=sm_90 format=isa opt-level=9}")


@pytest.mark.parametrize("pipeline", ["builtin.module (warp-expand-collectives)",
                                      "  builtin.module\n(warp-expand-collectives)  "])
def test_spaced_anchor_runs_the_pipeline(pipeline):
    module = wm.Module.parse(REDUCE.replace("i32", "f32").replace(" strategy = <redux>", ""))
    module.run(pipeline)
    assert "warp.reduce" not in str(module) and "warp.shuffle <" in str(module)


@pytest.mark.parametrize("pipeline", [None, 42, b"canonicalize", ["canonicalize"]])
def test_run_takes_a_string(pipeline):
    with pytest.raises(TypeError, match="pass pipeline is a string"):
        wm.Module.parse(REDUCE).run(pipeline)


def test_llvm_fatal_error_is_an_mlir_error_and_the_interpreter_lives():
    # NVPTX raises a fatal error ("Cannot select") on this hand-written
    # kernel; the C API turns it into a diagnostic at the module and a
    # failure. In a fresh interpreter first, so an abort fails this test only.
    source = ROOT / "test" / "Robustness" / "Inputs" / "backend-cannot-select.mlir"
    result = _run_python("""
        import warp_mlir as wm
        try:
            wm.compile(open(%r).read(), chip="sm_90", format="ptx")
        except wm.MLIRError as error:
            print("MLIRError", error.diagnostics[0].location, error.diagnostics[0].message)
        print("alive")
    """ % str(source))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "LLVM fatal error: Cannot select: intrinsic %llvm.nvvm.redux.sync.fmin" in result.stdout
    assert "warp-module-to-binary" in result.stdout and "alive" in result.stdout
    assert "PLEASE submit a bug report" not in result.stderr
    with pytest.raises(wm.MLIRError, match="Cannot select"):
        wm.Module.parse(source.read_text()).run(
            "nvvm-attach-target{chip=sm_90 features=+ptx80},gpu-module-to-binary{format=isa}")
    # A module that compiles still does, in the same process.
    assert ".target sm_90" in wm.compile(seed_kernels.prog, chip="sm_90").ptx


def test_llvm_fatal_errors_in_many_gpu_modules_repeatedly():
    # Eight gpu.modules that each make NVPTX raise its fatal error, compiled
    # five times in one interpreter with MLIR's threading on: every compile
    # is an MLIRError (each module reports its own error), none ends
    # the process, and the interpreter compiles a good module afterwards.
    text = (ROOT / "test" / "Robustness" / "Inputs" / "backend-cannot-select.mlir").read_text()
    start, end = text.index("  gpu.module @kernels"), text.rindex("}")
    body = "".join(text[start:end].replace("@kernels", f"@kernels{i}") for i in range(8))
    result = _run_python("""
        import warp_mlir as wm
        for _ in range(5):
            try:
                wm.compile(%r, chip="sm_90", format="ptx")
                print("compiled")
            except wm.MLIRError as error:
                print("MLIRError", "Cannot select" in str(error))
        print(".target sm_90" in wm.compile(%r, chip="sm_90").ptx)
    """ % ("module attributes {gpu.container_module} {\n" + body + "}\n",
           (ROOT / "examples" / "warp_reduce.mlir").read_text()))
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["MLIRError", "True"] * 5 + ["True"], result.stdout
