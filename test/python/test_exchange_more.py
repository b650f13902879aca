"""warp.exchange of 8- and 16-bit items and of more than 32 items per lane,
and warp.scatter (CUB WarpExchange::ScatterToStriped / ScatterToBlocked):
the IR from the builder, Python errors, and results on the simulator (and a
GPU) against a numpy model of the permutation, bit for bit (NaN payloads
kept), in a block of one full warp and a ragged one."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from warp_mlir import sim
from conftest import BACKENDS

WARP = 32
# One full warp and a ragged one of 16 lanes: a missing lane's items are
# undefined, so only results from present lanes are compared.
BLOCK = 48

# Type name -> (element type, the dtype of its bits, numpy's view of them
# for the launch: bf16 has no numpy type and travels as 2-byte voids).
TYPES = {"i8": (wm.i8, np.uint8, np.int8), "i16": (wm.i16, np.uint16, np.int16),
         "f16": (wm.f16, np.uint16, np.float16), "bf16": (wm.bf16, np.uint16, "V2"),
         "i32": (wm.i32, np.uint32, np.int32), "f32": (wm.f32, np.uint32, np.float32),
         "i64": (wm.i64, np.uint64, np.int64), "f64": (wm.f64, np.uint64, np.float64)}
# NaNs with payloads (quiet and signalling, both signs) that must survive.
NANS = {"f16": [0x7C01, 0xFE37], "bf16": [0x7F81, 0xFFC1],
        "f32": [0x7F800001, 0xFFC00123], "f64": [0x7FF0000000000001, 0xFFF8000000000123]}


def random_bits(type_name, count, rng):
    bits_dtype = TYPES[type_name][1]
    bits = rng.integers(0, np.iinfo(bits_dtype).max, count, dtype=bits_dtype, endpoint=True)
    for i, nan in enumerate(NANS.get(type_name, [])):
        bits[i::13] = nan
    return bits


def as_launch(bits, type_name):
    return bits.view(TYPES[type_name][2])


def run(backend, compiled, kernel, *args):
    """One block of BLOCK threads. The ragged warp's results from missing
    lanes are undefined and stored all the same: the simulator counts them
    instead of stopping."""
    if backend == "sim":
        sim.launch(compiled, kernel, 1, BLOCK, *args, allow_undefined_stores=True)
    else:
        wm.launch(compiled, kernel, 1, BLOCK, *args)


# numpy's model of the arrangements, from their definition over one warp of
# 32 lanes and n items per lane: blocked lane l holds items l n .. l n + n - 1,
# striped lane l holds items l, l + 32, ...; item g's holder in each.
def blocked_holder(g, n):
    return g // n, g % n


def striped_holder(g, n):
    return g % WARP, g // WARP


def expected_arrangement(items, n, to_striped, present):
    """The output [lane][slot] of an exchange of `items` [lane][slot] (the
    input arrangement), None where the holder lane is missing."""
    out = [[None] * n for _ in range(WARP)]
    for lane in range(present):
        for slot in range(n):
            g = slot * WARP + lane if to_striped else lane * n + slot
            src_lane, src_slot = blocked_holder(g, n) if to_striped else striped_holder(g, n)
            if src_lane < present:
                out[lane][slot] = items[src_lane][src_slot]
    return out


@functools.lru_cache(maxsize=None)
def exchange_program(type_name, n, strategy):
    """Both directions of the same input: `b2s` gets blocked_to_striped,
    `s2b` striped_to_blocked."""
    element = TYPES[type_name][0]
    prog = wm.Program(f"xchg_{type_name}_{n}_{strategy}")

    @prog.kernel(x=wm.memref(element), b2s=wm.memref(element), s2b=wm.memref(element))
    def exchange(k, x, b2s, s2b):
        k.known_block_size(BLOCK)
        base = k.global_id() * n
        items = k.load_vector(x, base, n)
        k.store_vector(b2s, base, k.exchange(items, "blocked_to_striped", strategy=strategy))
        k.store_vector(s2b, base, k.exchange(items, "striped_to_blocked", strategy=strategy))
    return prog


# (type, N, strategy): every new type with both strategies where legal, N
# powers of two and not, beyond 32 (shared memory only), and wide types
# beyond 32.
EXCHANGES = [("i8", 4, "shuffle"), ("i8", 5, "shared"), ("i8", 64, None),
             ("i16", 8, "shared"), ("i16", 2, "shuffle"), ("i16", 128, None),
             ("f16", 16, "shuffle"), ("f16", 33, None), ("f16", 3, None),
             ("bf16", 8, None), ("bf16", 32, "shuffle"), ("bf16", 7, "shared"),
             ("f32", 40, None), ("i64", 36, "shared"), ("f64", 64, "shared")]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", EXCHANGES, ids=lambda c: f"{c[0]}x{c[1]}-{c[2]}")
def test_exchange(backend, case):
    type_name, n, strategy = case
    compiled = wm.compile(exchange_program(type_name, n, strategy), chip="sm_90")
    rng = np.random.default_rng([n, len(type_name)])
    bits = random_bits(type_name, 2 * WARP * n, rng)
    b2s, s2b = np.zeros_like(bits), np.zeros_like(bits)
    run(backend, compiled, "exchange", as_launch(bits, type_name), as_launch(b2s, type_name),
        as_launch(s2b, type_name))
    for warp in range(2):
        present = min(WARP, BLOCK - warp * WARP)
        tile = slice(warp * WARP * n, (warp + 1) * WARP * n)
        items = bits[tile].reshape(WARP, n).tolist()
        for got, to_striped in ((b2s, True), (s2b, False)):
            want = expected_arrangement(items, n, to_striped, present)
            lanes = got[tile].reshape(WARP, n).tolist()
            for lane in range(present):
                for slot in range(n):
                    if want[lane][slot] is not None:
                        assert lanes[lane][slot] == want[lane][slot], (
                            warp, to_striped, lane, slot)


@functools.lru_cache(maxsize=None)
def scatter_program(type_name, n):
    """Both results of the same ranks: `striped` (ScatterToStriped) and
    `blocked` (ScatterToBlocked)."""
    element = TYPES[type_name][0]
    prog = wm.Program(f"scatter_{type_name}_{n}")

    @prog.kernel(x=wm.memref(element), ranks=wm.memref(wm.i32),
                 striped=wm.memref(element), blocked=wm.memref(element))
    def scatter(k, x, ranks, striped, blocked):
        k.known_block_size(BLOCK)
        base = k.global_id() * n
        items, item_ranks = k.load_vector(x, base, n), k.load_vector(ranks, base, n)
        k.store_vector(striped, base, k.scatter(items, item_ranks, striped=True))
        k.store_vector(blocked, base, k.scatter(items, item_ranks))
    return prog


SCATTERS = [("i32", 1), ("f32", 4), ("i8", 3), ("f16", 8), ("bf16", 33), ("i64", 2), ("i16", 64)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", SCATTERS, ids=lambda c: f"{c[0]}x{c[1]}")
@pytest.mark.parametrize("ranks_kind", ["permutation", "outside"])
def test_scatter(backend, case, ranks_kind):
    """Each warp's ranks a permutation of its 32 N positions, or with some
    ranks outside them (negative or too large: those items are dropped) and
    the positions they left unnamed or named twice."""
    type_name, n = case
    compiled = wm.compile(scatter_program(type_name, n), chip="sm_90")
    rng = np.random.default_rng([n, len(type_name), ranks_kind == "outside"])
    bits = random_bits(type_name, 2 * WARP * n, rng)
    positions = WARP * n
    ranks = np.concatenate([rng.permutation(positions) for _ in range(2)]).astype(np.int32)
    if ranks_kind == "outside":
        ranks[::5] = rng.choice([-1, -positions, positions, positions + 7, 2 ** 31 - 1],
                                len(ranks[::5]))
        twice = np.arange(1, len(ranks) - 1, 11)
        ranks[twice] = ranks[twice + 1]   # some positions named twice
    striped, blocked = np.zeros_like(bits), np.zeros_like(bits)
    run(backend, compiled, "scatter", as_launch(bits, type_name), ranks,
        as_launch(striped, type_name), as_launch(blocked, type_name))
    for warp in range(2):
        present = min(WARP, BLOCK - warp * WARP)
        tile = slice(warp * WARP * n, (warp + 1) * WARP * n)
        # The items that name each position (from present lanes, in range).
        named = [[] for _ in range(positions)]
        for lane in range(present):
            for slot in range(n):
                rank = int(ranks[tile][lane * n + slot])
                if 0 <= rank < positions:
                    named[rank].append(int(bits[tile][lane * n + slot]))
        for got, position_of in ((striped, lambda l, j: j * WARP + l),
                                 (blocked, lambda l, j: l * n + j)):
            lanes = got[tile].reshape(WARP, n)
            for lane in range(present):
                for slot in range(n):
                    candidates = named[position_of(lane, slot)]
                    if candidates:
                        assert int(lanes[lane][slot]) in candidates, (warp, lane, slot)


def test_ir_and_errors():
    text = str(scatter_program("bf16", 33))
    assert "warp.scatter %" in text and "striped : vector<33xbf16>, vector<33xi32>" in text
    assert "warp.exchange <striped_to_blocked> %" in str(exchange_program("i8", 64, None))
    wm.Module.parse(text).verify()
    prog = wm.Program()

    @prog.kernel(x=wm.memref(wm.f16), r=wm.memref(wm.i32), b=wm.memref(wm.i1))
    def bad(k, x, r, b):
        with pytest.raises(wm.VerificationError, match="one rank per item: 4 items, 2 ranks"):
            k.scatter(k.load_vector(x, 0, 4), k.load_vector(r, 0, 2))
        with pytest.raises(wm.VerificationError, match="exchanges at most 128 items per lane"):
            k.exchange(k.load_vector(x, 0, 129), "blocked_to_striped")
        with pytest.raises(wm.VerificationError, match="power-of-two number of items per lane, "
                                                       "at most 32, got 64"):
            k.exchange(k.load_vector(x, 0, 64), "blocked_to_striped", strategy="shuffle")
        with pytest.raises(wm.VerificationError, match="must be fixed-length vector"):
            k.exchange(k.load_vector(b, 0, 4), "blocked_to_striped")
        with pytest.raises(TypeError):
            k.scatter(k.load_vector(x, 0, 4), k.load_vector(r, 0, 4), striped="yes")
