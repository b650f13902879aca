"""Diagnostics name the user's Python line: every op the builder writes
carries the location of the call that made it, builder type errors are
raised at that call and name it, and kernel signatures come from the IR.
Runs without a GPU."""
import inspect
import re
import warnings
from pathlib import Path

import pytest

import warp_mlir as wm

HERE = str(Path(__file__).resolve())
LOC = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)')


def _line_of(marker: str) -> int:
    """The line of this file holding `marker` (a comment at the call)."""
    for number, line in enumerate(Path(HERE).read_text().splitlines(), 1):
        if marker in line and "_line_of" not in line:
            return number
    raise AssertionError(marker)


PROG = wm.Program("located")


@PROG.kernel(a=wm.memref(wm.f32), out=wm.memref(wm.f32))
def located(k, a, out):
    i = k.global_id()  # @global_id
    s = k.reduce("add", a[i], lanes="first")  # @reduce
    with k.if_(k.lane_id() == 0):  # @if
        out[i // 32] = s  # @store
    loop = k.loop(0, 4, init=[s])
    with loop as (j, acc):
        loop.yield_(acc * 2.0)  # @yield
    out[0] = k.cond(k.lane_id() < 3, lambda: a[1], lambda: 0.0, wm.f32)  # @cond


def test_every_op_line_carries_a_python_location():
    text = PROG.to_mlir()
    body = text.split("gpu.func", 1)[1].splitlines()[1:]
    for line in body:
        stripped = line.strip()
        if not stripped or stripped.endswith("{") or stripped == "}":
            continue  # region openers, `} else {`, the module's closing brace
        match = LOC.search(line)
        assert match, line
        assert match.group(1) == HERE, line


def test_locations_name_the_line_and_column_of_the_call():
    text = PROG.to_mlir()
    reduce_line = next(line for line in text.splitlines() if "warp.reduce" in line)
    file, line, column = LOC.search(reduce_line).groups()
    assert (file, int(line)) == (HERE, _line_of("# @reduce"))
    if hasattr(inspect.currentframe().f_code, "co_positions"):  # Python 3.11+
        source = Path(HERE).read_text().splitlines()[int(line) - 1]
        assert source[int(column) - 1:].startswith("k.reduce(")
    # Ops made inside a call (global_id's three ids) take the user's line.
    for op in ("gpu.block_id", "gpu.block_dim", "gpu.thread_id"):
        op_line = next(line for line in text.splitlines() if op in line)
        assert int(LOC.search(op_line).group(2)) == _line_of("# @global_id")
    # A region ends with the location of the call that opened it.
    closing = [line for line in text.splitlines() if line.strip().startswith("} loc(")]
    lines = {int(LOC.search(line).group(2)) for line in closing}
    assert {_line_of("# @if"), _line_of("# @cond")} <= lines
    # The kernel and its module: the decorated function and the Program.
    assert f'gpu.return loc("{HERE}":' in text


def test_locations_survive_parsing_and_printing():
    module = wm.Module.parse(PROG.to_mlir())
    printed = module.to_string(debug_info=True)
    assert f'"{HERE}":{_line_of("# @store")}:' in printed


def test_verifier_errors_name_the_python_line():
    prog = wm.Program("bad_cluster")

    # Refused at the call, by the verifier, in the compiler's words.
    with pytest.raises(wm.VerificationError) as info:
        @prog.kernel(x=wm.memref(wm.i32))
        def bad_cluster(k, x):
            # A cluster of 32 lanes 2 apart does not fit in a warp: the
            # verifier's rule (both numbers are valid on their own).
            x[0] = k.reduce("add", x[0], cluster_size=32, cluster_stride=2)  # @bad-cluster
    diagnostic = info.value.diagnostics[0]
    assert (diagnostic.file, diagnostic.line) == (HERE, _line_of("# @bad-cluster"))
    assert str(info.value).startswith(f"{HERE}:{diagnostic.line}:{diagnostic.column}: error: "
                                      f"'warp.reduce' op ")
    assert isinstance(info.value, ValueError) and not prog.kernels


def test_pipeline_errors_name_the_python_line():
    prog = wm.Program("no_redux")

    @prog.kernel(x=wm.memref(wm.i32))
    def no_redux(k, x):
        x[0] = k.reduce("add", x[0], strategy="redux")  # @redux

    with pytest.raises(wm.MLIRError, match="redux") as info:
        wm.compile(prog, chip="sm_75", cache=False)
    located = [d for d in info.value.diagnostics if d.file == HERE]
    assert located and located[0].line == _line_of("# @redux")


def test_attribute_errors_name_the_python_line():
    prog = wm.Program("unknown_kind")

    with pytest.raises(wm.VerificationError, match="CombineKind to be one of: add, ") as info:
        @prog.kernel(x=wm.memref(wm.i32))
        def unknown_kind(k, x):
            x[0] = k.scan("sum", x[0])  # @unknown-kind: a keyword, not a kind MLIR knows
    assert info.value.diagnostics[0].file == HERE
    assert info.value.diagnostics[0].line == _line_of("# @unknown-kind")


def test_combiner_mistakes_name_the_combiners_return():
    prog = wm.Program("combiners")

    def widen(left, right):
        return left.builder.cast(left + right, wm.f64)  # @widen-return

    with pytest.raises(TypeError, match="f64 where f32") as info:
        @prog.kernel(x=wm.memref(wm.f32))
        def widening(k, x):
            x[0] = k.reduce(widen, x[0])
    assert f"the combiner's return at {HERE}:{_line_of('# @widen-return')}" in str(info.value)

    def add(left, right):
        return left + right  # @add-return

    @prog.kernel(x=wm.memref(wm.f32))
    def adding(k, x):
        x[0] = k.reduce(add, x[0])

    [line] = [line for line in prog.to_mlir().splitlines() if "warp.yield" in line]
    assert f'loc("{HERE}":{_line_of("# @add-return")}:' in line


def test_lint_warnings_are_python_warnings_at_the_line():
    prog = wm.Program("linted")

    @prog.kernel(x=wm.memref(wm.i32))
    def linted(k, x):
        x[0] = k.shuffle("down", x[0], 40, width=8)[0]  # @past-every-segment

    module = wm.Module.parse(prog.to_mlir())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module.run("warp-lint")
    ours = [w for w in caught if issubclass(w.category, wm.MLIRWarning)]
    assert ours, [str(w.message) for w in caught]
    assert ours[0].filename == HERE and ours[0].lineno == _line_of("# @past-every-segment")


# -- type errors at the call --------------------------------------------------

def _kernel_error(body):
    k = wm.KernelBuilder("errors", {"x": wm.memref(wm.f32), "n": wm.i32})
    with pytest.raises((TypeError, ValueError, IndexError)) as info:
        body(k, *k.args)
    return info


@pytest.mark.parametrize("body, call, words", [
    (lambda k, x, n: k.shuffle("up", x[0], 1.5), "k.shuffle()", "must be an int"),
    (lambda k, x, n: k.shuffle("up", x[0], x[1]), "k.shuffle()", "f32 where i32"),
    (lambda k, x, n: x[0] + n, "operator +", "i32 where f32"),
    (lambda k, x, n: x[1.5], "x[...]", "must be an int"),
    (lambda k, x, n: x.__setitem__(0, n), "x[...] = v", "i32 where f32"),
    (lambda k, x, n: k.if_(x[0]).__enter__(), "k.if_()", "a value of type f32"),
    (lambda k, x, n: k.cond(n == 1, lambda: x[0] + n, lambda: 0.0, wm.f32), "operator +",
     "i32 where f32"),
])
def test_type_errors_name_the_call_and_the_line(body, call, words):
    info = _kernel_error(body)
    message = str(info.value)
    assert message.startswith(f"{call} at {HERE}:"), message
    assert words in message
    # The line is the body's (the lambda's line in this file), not the builder's.
    line = int(re.match(rf"{re.escape(call)} at .*:(\d+):", message).group(1))
    assert line == body.__code__.co_firstlineno


@pytest.mark.parametrize("body, op, words", [
    (lambda k, x, n: k.shuffle("up", x, 1), "warp.shuffle", "memref<?xf32>"),
    (lambda k, x, n: k.reduce("and", x[0]), "warp.reduce", "and"),
    (lambda k, x, n: k.scan("maxnumf", n), "warp.scan", "maxnumf"),
    (lambda k, x, n: k.match_any(k.constant(1, wm.i16)), "warp.match_any", "i16"),
    (lambda k, x, n: k.shuffle("down", x[0], 1, width=3), "warp.shuffle", "width"),
])
def test_verifier_refusals_are_located_at_the_call(body, op, words):
    """What the IR may hold is the verifier's to say: its message, at the
    user's line and column."""
    info = _kernel_error(body)
    assert isinstance(info.value, wm.VerificationError)
    message = str(info.value)
    line = body.__code__.co_firstlineno
    assert re.match(rf"{re.escape(HERE)}:{line}:\d+: error: '{op}' op ", message), message
    assert words in message


def test_error_names_the_outermost_call_once():
    info = _kernel_error(lambda k, x, n: k.loop(0, x[0]))
    assert str(info.value).count(" at ") == 1 and str(info.value).startswith("k.loop()")


# -- signatures from the IR -----------------------------------------------------

TEXT = """
// gpu.func @decoy(%a: memref<?xi8>) kernel  -- a comment, not a kernel
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @"k$1"(%a: memref<4x?xf16>, %b: i64,
                    %c: memref<8xf32, strided<[2]>>, %d: memref<2xvector<2xf16>>) kernel {
      gpu.return
    }
    gpu.func @helper(%a: memref<?xi8>) {
      gpu.return
    }
  }
}
"""


def test_kernel_signatures_come_from_the_ir():
    signatures = wm.kernel_signatures(TEXT)
    assert list(signatures) == ["k$1"]  # no decoy from the comment, no non-kernel
    a, b, c, d = signatures["k$1"]
    assert (a.element, a.shape, a.identity_layout) == ("f16", (4, -1), True)
    assert (b.element, b.shape) == ("i64", None)
    assert (c.element, c.shape, c.identity_layout) == ("f32", (8,), False)
    assert (d.element, d.shape) == ("vector<2xf16>", (2,))
    assert str(a) == "memref<4x?xf16>"
    # The same from a parsed Module.
    assert wm.kernel_signatures(wm.Module.parse(TEXT))["k$1"] == signatures["k$1"]


def test_convergence_warnings_are_python_warnings_at_the_line():
    # The upper half of the warp runs a full-warp reduction: lanes 0..15
    # exist wherever it runs and never come (warp-check-convergence, a
    # warning in the pipelines).
    prog = wm.Program("diverged")

    @prog.kernel(x=wm.memref(wm.i32))
    def diverged(k, x):
        with k.if_(k.lane_id() >= 16):
            x[0] = k.reduce("add", x[0])  # @diverged-reduce

    _assert_unreachable_lanes_warning(prog, "# @diverged-reduce", "0x0000ffff")


def _assert_unreachable_lanes_warning(prog, marker, lanes):
    """Compiling `prog` warns, at the line marked `marker`, that its mask
    names `lanes` which cannot reach the op."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wm.compile(prog, cache=False)
    ours = [w for w in caught if issubclass(w.category, wm.MLIRWarning)
            and "cannot reach this op" in str(w.message)]
    assert ours, [str(w.message) for w in caught]
    assert ours[0].filename == HERE and ours[0].lineno == _line_of(marker)
    assert f"names lanes {lanes}" in str(ours[0].message)


def test_loop_trip_counts_that_differ_warn_at_the_line():
    # Lane l runs l // 8 + 1 iterations: the fourth is run by lanes 24..31
    # only, and its full-warp reduction waits for the others (a loop whose
    # bounds differ between lanes, warp-check-convergence).
    prog = wm.Program("ragged_loop")

    @prog.kernel(x=wm.memref(wm.i32))
    def ragged_loop(k, x):
        with k.range(0, k.lane_id() // 8 + 1) as loop:
            x[0] = k.reduce("add", x[loop.i])  # @ragged-reduce

    _assert_unreachable_lanes_warning(prog, "# @ragged-reduce", "0x00ffffff")
