"""Builder methods for warp.exchange, warp.elect and warp.atomic_rmw: the MLIR
they emit, the PTX it lowers to (elect.sync on sm_90, a ballot on sm_80),
Python errors for bad input, and results on the GPU against numpy."""
import re

import numpy as np
import pytest

import warp_mlir as wm
from conftest import requires_gpu


def exchange_program(n, element, direction, strategy=None):
    prog = wm.Program("xchg")

    @prog.kernel(x=wm.memref(element), out=wm.memref(element))
    def exchange(k, x, out):
        base = k.global_id() * n
        items = k.load_vector(x, base, n)
        k.store_vector(out, base, k.exchange(items, direction, strategy=strategy))
    return prog


def test_exchange_emits_the_op_and_lowers_without_local_memory():
    prog = exchange_program(8, wm.f32, "blocked_to_striped", "shuffle")
    text = str(prog)
    assert "warp.exchange <blocked_to_striped> %" in text and "strategy = <shuffle>" in text
    ptx = wm.compile(prog, chip="sm_90").ptx
    assert ptx.count("shfl.sync.idx.b32") == 8
    assert ".local" not in ptx


def test_shared_exchange_has_its_buffer():
    # Without known_block_size the buffer is sized for 1024 threads (32 warps).
    ptx = wm.compile(exchange_program(8, wm.f32, "striped_to_blocked", "shared"), chip="sm_90").ptx
    # 32 warps x (256 items + 7 padding) x 4 bytes, rounded to 16 bytes each.
    assert "__warp_exchange_buffer[33792]" in ptx and ptx.count("bar.warp.sync") == 2


def test_elect_follows_the_chip():
    prog = wm.Program("elect")

    @prog.kernel(out=wm.memref(wm.i32))
    def elect(k, out):
        with k.if_(k.elect(mask=k.activemask())):
            out[k.block_id()] = k.cast(k.lane_id(), wm.i32)
    assert "warp.elect mask %" in str(prog)
    assert "elect.sync" in wm.compile(prog, chip="sm_90").ptx
    sm80 = wm.compile(prog, chip="sm_80").ptx
    assert "elect.sync" not in sm80 and "vote.sync.ballot.b32" in sm80


def elect_leader_program():
    prog = wm.Program("leader")

    @prog.kernel(masks=wm.memref(wm.i32), flags=wm.memref(wm.i32), lanes=wm.memref(wm.i32))
    def leader(k, masks, flags, lanes):
        i = k.global_id()
        mask = masks[k.block_id()]
        with k.if_(((mask >> k.lane_id()) & 1) == 1):
            flag, lane = k.elect(mask=mask, leader=True)
            flags[i] = k.cast(flag, wm.i32)
            lanes[i] = lane
    return prog


def test_elect_returns_the_leader():
    prog = elect_leader_program()
    assert "= warp.elect mask %" in str(prog) and ": i1, i32" in str(prog)
    assert re.search(r"elect\.sync\s+%r\d+\|%p\d+", wm.compile(prog, chip="sm_90").ptx)


@requires_gpu
def test_elect_leader_on_gpu():
    """Each warp's mask elects its lowest lane (CUDA: __ffs(mask) - 1); every
    lane of the mask gets that lane's number."""
    masks = np.array([0x1, 0x80000000, 0x00F0F000, 0xFFFFFFFF, 0x12345678], np.uint32).view(np.int32)
    n = 32 * len(masks)
    flags, lanes = np.full(n, -7, np.int32), np.full(n, -7, np.int32)
    wm.launch(wm.compile(elect_leader_program(), chip="sm_90"), "leader", len(masks), 32,
              masks, flags, lanes)
    for w, mask in enumerate(masks.view(np.uint32).tolist()):
        members = [l for l in range(32) if mask >> l & 1]
        for l in range(32):
            want = (int(l == members[0]), members[0]) if l in members else (-7, -7)
            assert (flags[32 * w + l], lanes[32 * w + l]) == want, (w, l)


def test_aggregated_atomic_add_emits_the_op():
    prog = wm.Program("hist")

    @prog.kernel(keys=wm.memref(wm.i32), hist=wm.memref(wm.i32, (64,)))
    def histogram(k, keys, hist):
        k.aggregated_atomic_add(hist, keys[k.global_id()] % 64, 1)
    assert "warp.atomic_rmw <add> %" in str(prog) and ": i32, memref<64xi32>" in str(prog)
    ptx = wm.compile(prog, chip="sm_90").ptx
    assert "match.any.sync.b64" in ptx and "atom.global.add.u32" in ptx


@pytest.mark.parametrize("kind,instruction", [("maxui", "atom.global.max.u32"),
                                              ("minsi", "atom.global.min.s32"),
                                              ("xor", "atom.global.xor.b32"),
                                              ("exch", "atom.global.exch.b32")])
def test_aggregated_atomic_kinds_emit_their_atom(kind, instruction):
    prog = wm.Program("kinds")

    @prog.kernel(keys=wm.memref(wm.i32), top=wm.memref(wm.i32, (64,)))
    def bucket(k, keys, top):
        key = keys[k.global_id()]
        k.aggregated_atomic(kind, top, key % 64, key)
    assert f"warp.atomic_rmw <{kind}> %" in str(prog)
    assert instruction in wm.compile(prog, chip="sm_90").ptx


def test_atomic_kind_errors_are_the_compiler_s():
    prog = wm.Program("bad_kind")

    @prog.kernel(x=wm.memref(wm.f32))
    def bad(k, x):
        with pytest.raises(wm.VerificationError, match="kind 'maxsi' needs an i32 or i64 value"):
            k.aggregated_atomic("maxsi", x, 0, 1.0)
        with pytest.raises(ValueError, match="AtomicKind to be one of"):
            k.aggregated_atomic("mul", x, 0, 1.0)


def test_bad_input_is_a_python_error():
    prog = wm.Program("bad")
    errors = []

    @prog.kernel(x=wm.memref(wm.f32), h=wm.memref(wm.f16), v=wm.memref(wm.f32))
    def bad(k, x, h, v):
        items = k.load_vector(x, 0, 6)
        for call, error in ((lambda: k.exchange(items, "sideways"), ValueError),
                            (lambda: k.exchange(items, "blocked_to_striped", "shuffle"), ValueError),
                            (lambda: k.exchange(x[0], "blocked_to_striped"),
                             wm.VerificationError),
                            (lambda: k.exchange(k.load_vector(h, 0, 129), "blocked_to_striped"),
                             wm.VerificationError),
                            (lambda: k.aggregated_atomic("xor", h, 0, 1.0),
                             wm.VerificationError),
                            (lambda: k.aggregated_atomic_add(v, 0, k.constant(1, wm.i32)),
                             TypeError),
                            (lambda: k.elect(mask=1.5), TypeError)):
            with pytest.raises(error):
                call()
            errors.append(error)
    assert len(errors) == 7


@requires_gpu
@pytest.mark.parametrize("strategy", ["shuffle", "shared", None])
@pytest.mark.parametrize("direction", ["blocked_to_striped", "striped_to_blocked"])
def test_exchange_on_gpu(strategy, direction):
    n = 4
    compiled = wm.compile(exchange_program(n, wm.f32, direction, strategy), chip="sm_90")
    x = np.random.default_rng(2).standard_normal(64 * n).astype(np.float32)
    out = np.zeros_like(x)
    wm.launch(compiled, "exchange", 1, 64, x, out)
    for w in range(2):
        lanes = x[w * 32 * n:(w + 1) * 32 * n].reshape(32, n)
        got = out[w * 32 * n:(w + 1) * 32 * n].reshape(32, n)
        # Item g: blocked at (g // n, g % n), striped at (g % 32, g // 32).
        for g in range(32 * n):
            src, dst = ((g // n, g % n), (g % 32, g // 32))
            if direction == "striped_to_blocked":
                src, dst = dst, src
            assert got[dst] == lanes[src]


@requires_gpu
def test_histogram_on_gpu():
    prog = wm.Program("hist")

    @prog.kernel(keys=wm.memref(wm.i32), hist=wm.memref(wm.i32, (64,)))
    def histogram(k, keys, hist):
        k.aggregated_atomic_add(hist, keys[k.global_id()] % 64, 1)
    keys = np.random.default_rng(3).integers(0, 1000, 4096).astype(np.int32)
    hist = np.zeros(64, np.int32)
    wm.launch(wm.compile(prog, chip="sm_90"), "histogram", 16, 256, keys, hist)
    np.testing.assert_array_equal(hist, np.bincount(keys % 64, minlength=64))


@requires_gpu
def test_aggregated_max_on_gpu():
    """The largest key of each bucket, one atomic per bucket and warp: memory
    ends with numpy's maximum per bucket; each thread's old value is the
    bucket's initial value or one of its keys, at most the maximum."""
    prog = wm.Program("top")

    @prog.kernel(buckets=wm.memref(wm.i32), keys=wm.memref(wm.i32),
                 top=wm.memref(wm.i32, (16,)), old=wm.memref(wm.i32))
    def top_of_bucket(k, buckets, keys, top, old):
        i = k.global_id()
        old[i] = k.aggregated_atomic("maxsi", top, buckets[i], keys[i])
    rng = np.random.default_rng(5)
    buckets = rng.integers(0, 16, 2048).astype(np.int32)
    keys = rng.integers(-10 ** 6, 10 ** 6, 2048).astype(np.int32)
    top = np.full(16, -2 ** 31, np.int32)
    old = np.zeros(2048, np.int32)
    wm.launch(wm.compile(prog, chip="sm_90"), "top_of_bucket", 8, 256, buckets, keys, top, old)
    want = np.full(16, -2 ** 31, np.int32)
    np.maximum.at(want, buckets, keys)
    np.testing.assert_array_equal(top, want)
    # Each old value is what some serialization left: the initial value or
    # a key of the same bucket, below the bucket's maximum.
    for b in range(16):
        seen = set(keys[buckets == b].tolist()) | {-2 ** 31}
        assert set(old[buckets == b].tolist()) <= seen
    assert np.all(old <= want[buckets])
