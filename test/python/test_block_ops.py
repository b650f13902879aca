"""Block-level collectives from the builder: IR, PTX (barriers, shared
scratch) and, on a GPU, results over a ragged block against numpy."""
import subprocess

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS, requires_gpu
from block_kernels import affine, argmax

PROG = wm.Program("block_ops")


@PROG.kernel(x=wm.memref(wm.i32), out=wm.memref(wm.i32), n=wm.i32)
def block_ops(k, x, out, n):
    i = k.global_id()
    m = k.cast(n, wm.index)
    v = x[i]
    total = k.block_reduce("add", v)
    incl = k.block_scan("add", v)
    excl, tile_total = k.block_scan("add", v, exclusive=True, init=100, total=True)
    last = k.block_broadcast(v, n - 1)
    out[i] = total
    out[i + m] = incl
    out[i + m + m] = excl
    out[i + m + m + m] = tile_total + last


def test_block_ops_build_and_verify():
    text = str(PROG)
    for op in ("warp.block_reduce <add>", "warp.block_scan <add>",
               "warp.block_scan <add> %", "exclusive init", "warp.block_broadcast"):
        assert op in text, op
    wm.Module.parse(text).verify()


def test_block_ops_checked_at_the_call():
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match="kind 'xor' needs an integer value"):
        @prog.kernel(x=wm.memref(wm.f32))
        def bad(k, x):
            k.block_reduce("xor", x[k.global_id()])


def compiled_for_gpu(prog, threads):
    """The program for the H200 and a random generator seeded per block size."""
    return wm.compile(prog, chip="sm_90"), np.random.default_rng(threads)


def assemble(ptxas, tmp_path, ptx):
    """ptxas must take the PTX for sm_90."""
    (tmp_path / "k.ptx").write_text(ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(tmp_path / "k.ptx"), "-o",
                    str(tmp_path / "k.cubin")], check=True)


def test_block_ops_compile_and_assemble(ptxas, tmp_path):
    compiled = wm.compile(PROG, chip="sm_90")
    assemble(ptxas, tmp_path, compiled.ptx)
    # Two barriers per reduce and (unknown block size) scan, one for the
    # broadcast: the kernel's block ops alternate the scratch array's halves,
    # so none waits for the previous one's readers.
    assert compiled.ptx.count("bar.sync") == 2 + 2 + 2 + 1
    assert "__warp_block_scratch" in compiled.ptx


@requires_gpu
@pytest.mark.parametrize("threads", [180, 1024, 33])
def test_block_ops_on_the_gpu(threads):
    compiled, rng = compiled_for_gpu(PROG, threads)
    x = rng.integers(-1000, 1000, threads).astype(np.int32)
    out = np.zeros(4 * threads, np.int32)
    wm.launch(compiled, "block_ops", 1, threads, x, out, threads)
    incl = np.cumsum(x, dtype=np.int64).astype(np.int32)
    assert (out[:threads] == x.sum()).all()
    assert (out[threads:2 * threads] == incl).all()
    excl = 100 + np.concatenate([[0], incl[:-1]])
    assert (out[2 * threads:3 * threads] == excl).all()
    assert (out[3 * threads:] == x.sum() + x[threads - 1]).all()


def block_exchange_program(n, element, direction):
    prog = wm.Program("block_xchg")

    @prog.kernel(x=wm.memref(element), out=wm.memref(element))
    def block_exchange(k, x, out):
        base = k.global_id() * n
        items = k.load_vector(x, base, n)
        k.store_vector(out, base, k.block_exchange(items, direction))
    return prog


def test_block_exchange_emits_the_op_and_its_barriers(ptxas, tmp_path):
    prog = block_exchange_program(4, wm.f32, "blocked_to_striped")
    assert "warp.block_exchange <blocked_to_striped> %" in str(prog)
    ptx = wm.compile(prog, chip="sm_90").ptx
    # Unknown block size: 1024 threads x 4 f32 + 127 padding items.
    assert "__warp_block_exchange[16892]" in ptx
    assert ptx.count("bar.sync") == 2
    assert ptx.count("st.shared.b32") == 4 and ptx.count("ld.shared.b32") == 4
    assemble(ptxas, tmp_path, ptx)


def test_block_ops_bad_input_is_a_python_error():
    prog = wm.Program()
    calls = []

    @prog.kernel(x=wm.memref(wm.f32), h=wm.memref(wm.f16), y=wm.memref(wm.i32))
    def bad(k, x, h, y):
        items = k.load_vector(x, 0, 4)
        pair = (x[0], y[0])
        for call, error in (
                (lambda: k.block_exchange(items, "sideways"), ValueError),
                (lambda: k.block_exchange(x[0], "blocked_to_striped"), wm.VerificationError),
                (lambda: k.block_exchange(k.load_vector(h, 0, 4), "striped_to_blocked"),
                 wm.VerificationError),
                (lambda: k.block_reduce("add", pair), ValueError),
                (lambda: k.block_reduce("add", x[0], commutative=True), ValueError),
                (lambda: k.block_reduce("add", x[0], algorithm="warp_scans"), ValueError),
                (lambda: k.block_scan(affine, pair, exclusive=True), ValueError),
                (lambda: k.block_scan(affine, pair, init=(x[0],)), ValueError)):
            with pytest.raises(error):
                call()
            calls.append(error)
    assert len(calls) == 8


def test_block_exchange_too_big_is_a_diagnostic():
    # 12 f32 per thread for up to 1024 threads: 50684 bytes > 48 KiB.
    with pytest.raises(wm.MLIRError, match="needs a workgroup buffer of 50684 bytes"):
        wm.compile(block_exchange_program(12, wm.f32, "blocked_to_striped"), chip="sm_90")


@requires_gpu
@pytest.mark.parametrize("direction", ["blocked_to_striped", "striped_to_blocked"])
@pytest.mark.parametrize("threads", [33, 180, 1024])
def test_block_exchange_on_the_gpu(direction, threads):
    n = 3
    compiled = wm.compile(block_exchange_program(n, wm.f32, direction), chip="sm_90")
    x = np.random.default_rng(threads).standard_normal(threads * n).astype(np.float32)
    out = np.zeros_like(x)
    wm.launch(compiled, "block_exchange", 1, threads, x, out)
    # Item g: blocked at (g // n, g % n), striped at (g % B, g // B).
    want = np.zeros_like(x)
    for g in range(threads * n):
        blocked, striped = (g // n) * n + g % n, (g % threads) * n + g // threads
        src, dst = (blocked, striped) if direction == "blocked_to_striped" else (striped, blocked)
        want[dst] = x[src]
    assert (out.view(np.uint32) == want.view(np.uint32)).all()


def raking_program(algorithm):
    prog = wm.Program("raking")

    @prog.kernel(x=wm.memref(wm.f32), out=wm.memref(wm.f32))
    def scan(k, x, out):
        i = k.global_id()
        s, t = k.block_scan("add", x[i], exclusive=True, init=1.5, total=True,
                            algorithm=algorithm)
        out[i] = s + t
    return prog


def test_block_scan_algorithm_is_emitted_and_lowered():
    text = str(raking_program("raking"))
    assert "exclusive init" in text and "algorithm = <raking>" in text
    ptx = wm.compile(raking_program("raking"), chip="sm_90").ptx
    # Raking: a buffer of a slot per thread (1024) and the total's; two
    # barriers; no scratch array of the warp_scans lowering.
    assert "__warp_block_rake[4100]" in ptx and "__warp_block_scratch" not in ptx
    assert ptx.count("bar.sync") == 2
    ptx = wm.compile(raking_program("warp_scans"), chip="sm_90").ptx
    assert "__warp_block_scratch[528]" in ptx and "__warp_block_rake" not in ptx


def test_block_scan_bad_algorithm_is_a_python_error():
    with pytest.raises(ValueError, match="BlockScanAlgorithm to be one of: warp_scans, raking"):
        raking_program("tiled")


@requires_gpu
@pytest.mark.parametrize("algorithm", ["warp_scans", "raking"])
@pytest.mark.parametrize("threads", [33, 180, 1024])
def test_block_scan_algorithms_on_the_gpu(algorithm, threads):
    compiled = wm.compile(raking_program(algorithm), chip="sm_90")
    # Small integers: every combine order gives the exact sums.
    x = np.random.default_rng(threads).integers(-50, 50, threads).astype(np.float32)
    out = np.zeros_like(x)
    wm.launch(compiled, "scan", 1, threads, x, out)
    excl = 1.5 + np.concatenate([[0], np.cumsum(x)[:-1]])
    assert (out == excl + x.sum()).all()




def raking_first_program(algorithm, block=None):
    """Three reductions of `algorithm` in a row whose result only thread 0
    needs (sums of x, of 2x, of 3x; integer kinds: exact in any order),
    then a raking reduction for every thread (the sum of x once more)."""
    prog = wm.Program("raking_first")

    @prog.kernel(x=wm.memref(wm.i32), out=wm.memref(wm.i32))
    def sums(k, x, out):
        if block:
            k.known_block_size(block)
        i = k.global_id()
        for m in range(3):
            total = k.block_reduce("add", x[i] * (m + 1), algorithm=algorithm, threads="first")
            with k.if_(i == 0):
                out[m] = total
        out[3 + i] = k.block_reduce("add", x[i], algorithm="raking")
    return prog


@pytest.mark.parametrize("algorithm", ["raking", "raking_commutative_only"])
def test_raking_first_skips_the_second_barrier(algorithm):
    """In a kernel whose block ops alternate halves, a raking reduction
    with threads = <first> has one barrier (the raking buffers alternate
    halves too, sized twice), against two for threads = <all>."""
    ptx = wm.compile(raking_first_program(algorithm, 256), chip="sm_90").ptx
    # Three reductions of one barrier, then the last one's two.
    assert ptx.count("bar.sync") == 3 + 2
    # Halves of the largest group: the last reduction's 256 slots padded
    # after every 8 (its segments' length), and the total's.
    half = 256 + 255 // 8 + 1
    assert f"__warp_block_rake[{2 * half * 4}]" in ptx


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("algorithm", ["raking", "raking_commutative_only"])
@pytest.mark.parametrize("threads, block", [(256, 256), (180, None), (1024, None)])
def test_raking_first_values(backend, algorithm, threads, block):
    """Thread 0's sums of the three raking reductions and every thread's
    of the last one; on the simulator, which runs the warps one after
    another, its race check is what shows that no warp overwrites a slot
    warp 0 still reads."""
    compiled = wm.compile(raking_first_program(algorithm, block), chip="sm_90")
    x = np.random.default_rng(threads).integers(-1000, 1000, threads).astype(np.int32)
    out = np.zeros(3 + threads, np.int32)
    wm.launch(compiled, "sums", 1, threads, x, out, backend=backend)
    total = int(x.sum())
    np.testing.assert_array_equal(out[:3], [total, 2 * total, 3 * total])
    np.testing.assert_array_equal(out[3:], np.full(threads, total, np.int32))


COMBINERS = wm.Program("block_combiners")


@COMBINERS.kernel(v=wm.memref(wm.f32), out_v=wm.memref(wm.f32), out_i=wm.memref(wm.i32),
                  a=wm.memref(wm.i32), b=wm.memref(wm.i32), sa=wm.memref(wm.i32),
                  sb=wm.memref(wm.i32))
def block_combiners(k, v, out_v, out_i, a, b, sa, sb):
    i = k.global_id()
    best, where = k.block_reduce(lambda l, r: argmax(k, l, r), (v[i], k.cast(i, wm.i32)),
                                 algorithm="raking")
    out_v[i] = best
    out_i[i] = where
    (pa, pb), (ta, tb) = k.block_scan(affine, (a[i], b[i]), exclusive=True, init=(1, 0),
                                      total=True, algorithm="raking")
    sa[i] = pa + ta
    sb[i] = pb + tb


def test_block_combiners_build_and_compile(ptxas, tmp_path):
    text = str(COMBINERS)
    assert "warp.block_reduce %" in text and "combine (" in text
    assert "exclusive init" in text and text.count("algorithm = <raking>") == 2
    wm.Module.parse(text).verify()
    ptx = wm.compile(COMBINERS, chip="sm_90").ptx
    # Raking reduce (2) + raking scan (2) barriers; the two i32 values of
    # the affine map have a raking buffer each (the reduce's i32 shares one).
    assert ptx.count("bar.sync") == 4
    assert ptx.count("__warp_block_rake") >= 2
    assemble(ptxas, tmp_path, ptx)


@requires_gpu
@pytest.mark.parametrize("threads", [33, 180, 1024])
def test_block_combiners_on_the_gpu(threads):
    compiled, rng = compiled_for_gpu(COMBINERS, threads)
    v = rng.integers(-5, 5, threads).astype(np.float32)
    a = rng.integers(-2 ** 31, 2 ** 31, threads, dtype=np.int64).astype(np.int32)
    b = rng.integers(-2 ** 31, 2 ** 31, threads, dtype=np.int64).astype(np.int32)
    outs = [np.zeros(threads, dt) for dt in (np.float32, np.int32, np.int32, np.int32)]
    wm.launch(compiled, "block_combiners", 1, threads, v, *outs[:2], a, b, *outs[2:])
    # The first thread holding the largest value.
    assert (outs[0] == v.max()).all() and (outs[1] == int(np.argmax(v))).all()
    # Exclusive composition of x -> a x + b from (1, 0), plus the total, in
    # 32-bit wrap-around.
    wrap = lambda x: ((x + 2 ** 31) % 2 ** 32) - 2 ** 31  # noqa: E731
    prefix, maps = (1, 0), []
    for t in range(threads):
        maps.append(prefix)
        prefix = (wrap(int(a[t]) * prefix[0]), wrap(int(a[t]) * prefix[1] + int(b[t])))
    total = prefix
    want_a = [wrap(m[0] + total[0]) for m in maps]
    want_b = [wrap(m[1] + total[1]) for m in maps]
    assert list(outs[2]) == want_a and list(outs[3]) == want_b


def many_block_ops_program(rounds):
    """`rounds` rounds of a block reduction, an inclusive block scan and a
    block broadcast: past 64 block ops a kernel calls shared functions
    for them (warp-outline-block-collectives), below it keeps them inline."""
    prog = wm.Program(f"many_block_ops_{rounds}")

    @prog.kernel(x=wm.memref(wm.i32), out=wm.memref(wm.i32), n=wm.i32)
    def many(k, x, out, n):
        i = k.global_id()
        v = x[i]
        for _ in range(rounds):
            # Small values: every round is exact in i32.
            total = k.block_reduce("add", v & 7)
            incl = k.block_scan("add", v & 3)
            v = (total + incl + k.block_broadcast(v, n - 1)) & 1023
        out[i] = v
    return prog


def many_block_ops_reference(x, rounds):
    v = x.astype(np.int64)
    for _ in range(rounds):
        v = ((v & 7).sum() + np.cumsum(v & 3) + v[-1]) & 1023
    return v.astype(np.int32)


def test_many_block_ops_become_calls(ptxas, tmp_path):
    # 25 rounds: 75 block ops, 3 functions (one per kind of op), one call each.
    outlined = wm.compile(many_block_ops_program(25), chip="sm_90").ptx
    assemble(ptxas, tmp_path, outlined)
    assert outlined.count(".func ") == 3
    assert outlined.count("call.uni") == 75
    # 20 rounds: 60 block ops, inline.
    inline = wm.compile(many_block_ops_program(20), chip="sm_90").ptx
    assert ".func " not in inline and "call.uni" not in inline


@requires_gpu
@pytest.mark.parametrize("rounds", [20, 25])
@pytest.mark.parametrize("threads", [33, 256])
def test_many_block_ops_on_the_gpu(rounds, threads):
    compiled, rng = compiled_for_gpu(many_block_ops_program(rounds), threads)
    x = rng.integers(0, 1000, threads).astype(np.int32)
    out = np.zeros(threads, np.int32)
    wm.launch(compiled, "many", 1, threads, x, out, threads)
    assert (out == many_block_ops_reference(x, rounds)).all()


PARTIAL = wm.Program("partial_tiles")


@PARTIAL.kernel(x=wm.memref(wm.i32), out=wm.memref(wm.i32), where=wm.memref(wm.i32),
                n=wm.i32)
def partial_tiles(k, x, out, where, n):
    """CUB's Reduce(x, op, num_valid): a sum and an argmax (a combiner
    region, which has no neutral value) over threads 0 .. n-1."""
    i = k.global_id()
    out[i] = k.block_reduce("add", x[i], valid_threads=n)
    _, at = k.block_reduce(lambda l, r: argmax(k, l, r), (x[i], k.cast(i, wm.i32)),
                           valid_threads=n)
    where[i] = at


def test_partial_tiles_emit_valid_threads():
    text = str(PARTIAL)
    assert text.count("valid_threads %") == 2
    wm.Module.parse(text).verify()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("threads,counts", [(33, [1, 32, 33, 40]), (180, [0, 31, 64, 97, 179]),
                                            (1024, [1000, 1024, 5])])
def test_partial_tiles_reduce_the_first_threads(backend, threads, counts):
    compiled = wm.compile(PARTIAL, chip="sm_90")
    rng = np.random.default_rng(threads)
    for n in counts:
        x = rng.integers(-50, 50, threads).astype(np.int32)
        out = np.zeros(threads, np.int32)
        where = np.zeros(threads, np.int32)
        wm.launch(compiled, "partial_tiles", 1, threads, x, out, where, n, backend=backend)
        # Below 1 counts as 1, past the block as the block.
        valid = x[:min(max(n, 1), threads)]
        assert (out == valid.sum()).all(), n
        # The first thread of the largest value (the lower thread wins ties).
        assert (where == int(np.argmax(valid))).all(), n


SHUFFLES = wm.Program("block_shuffles")


@SHUFFLES.kernel(x=wm.memref(wm.f32), heads=wm.memref(wm.i32), diff=wm.memref(wm.f32),
                 rot=wm.memref(wm.f32), d=wm.i32)
def block_shuffles(k, x, heads, diff, rot, d):
    """CUB's BlockDiscontinuity::FlagHeads (a thread whose value differs
    from its predecessor's, and thread 0), BlockAdjacentDifference
    (SubtractLeft, thread 0 keeping its value) and BlockShuffle::Rotate."""
    i = k.global_id()
    v = x[i]
    prev, has_prev = k.block_shuffle("offset", v, -1)
    heads[i] = k.select(has_prev, k.select(prev != v, 1, 0, wm.i32), 1, wm.i32)
    diff[i] = k.select(has_prev, v - prev, v)
    rot[i], _ = k.block_shuffle("rotate", v, d)


def test_block_shuffle_emits_the_op():
    text = str(SHUFFLES)
    assert "warp.block_shuffle <offset>" in text and "warp.block_shuffle <rotate>" in text
    with pytest.raises(ValueError, match="BlockShuffleMode to be one of: offset, rotate"):
        prog = wm.Program()

        @prog.kernel(x=wm.memref(wm.f32))
        def bad(k, x):
            k.block_shuffle("up", x[0], 1)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("threads", [33, 180, 1024])
def test_block_shuffle_flags_differences_and_rotates(backend, threads):
    compiled = wm.compile(SHUFFLES, chip="sm_90")
    rng = np.random.default_rng(threads)
    x = rng.integers(0, 3, threads).astype(np.float32)  # runs of equal values
    for d in (1, -5, threads + 7):
        heads = np.zeros(threads, np.int32)
        diff = np.zeros(threads, np.float32)
        rot = np.zeros(threads, np.float32)
        wm.launch(compiled, "block_shuffles", 1, threads, x, heads, diff, rot, d,
                  backend=backend)
        want_heads = np.concatenate([[1], (x[1:] != x[:-1]).astype(np.int32)])
        np.testing.assert_array_equal(heads, want_heads)
        np.testing.assert_array_equal(diff, np.concatenate([[x[0]], x[1:] - x[:-1]]))
        np.testing.assert_array_equal(rot, x[(np.arange(threads) + d) % threads])


FIRST = wm.Program("first_only")


@FIRST.kernel(x=wm.memref(wm.f32), out=wm.memref(wm.f32))
def first_only(k, x, out):
    """CUB's BlockReduce: the sum in thread 0 only, twice in a row (the
    second reduction's parking must not meet the first's reads)."""
    i = k.global_id()
    s = k.block_reduce("add", x[i], threads="first")
    t = k.block_reduce("add", x[i] * 2.0, threads="first")
    out[i] = s + t


def test_first_only_saves_the_second_barrier():
    assert "threads = <first>" in str(FIRST)
    # Two reductions, one barrier each (the kernel's block ops alternate
    # the scratch array's halves).
    assert wm.compile(FIRST, chip="sm_90").ptx.count("bar.sync") == 2


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("threads", [33, 180, 1024])
def test_first_only_in_thread_zero(backend, threads):
    compiled = wm.compile(FIRST, chip="sm_90")
    x = np.random.default_rng(threads).integers(-50, 50, threads).astype(np.float32)
    out = np.zeros_like(x)
    wm.launch(compiled, "first_only", 1, threads, x, out, backend=backend)
    assert out[0] == 3 * x.sum()
