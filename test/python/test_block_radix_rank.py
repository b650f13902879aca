"""warp.block_radix_rank (CUB BlockRadixRank::RankKeys): IR from the
builder, errors at the call, and ranks on the simulator (and a GPU) against
a numpy reference: each key's digit is bits [b0, b1) of its unsigned image
(test_block_radix_sort's, from the definition: integers as they are,
signed with the sign bit flipped, floats with every bit flipped when
negative and the sign bit flipped otherwise), its rank its position in
numpy's stable argsort of the digits (of their complements when
descending), keys in blocked order (thread t holds keys t*N .. t*N+N-1).
The exclusive digit prefix of bin b counts the keys of digits below b
(descending: above b); thread t holds bins t*M .. t*M+M-1, 0 past the 2^R
digits.

The cases are a fixed sample of key type x N {1, 2, 4, 7} x R {1, 4, 5, 8}
x block {32, 64, 96, 256} x signed/descending; WARP_RADIX_RANK_ALL=1 runs
every case (on the GPU host, say)."""
import functools
import itertools
import os
import random

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS, requires_sim
from block_kernels import block_threads, linear_thread

# The key types and the unsigned image (numpy) of the sort's tests.
from test_block_radix_sort import TYPES, image  # noqa: E402


def digits(x, key, signed, bits):
    """Bits [b0, b1) of each key's unsigned image."""
    return image(x, key, signed=signed, bits=bits).astype(np.int64)


def expected_ranks(d, radix, descending):
    order = np.argsort(radix - 1 - d if descending else d, kind="stable")
    ranks = np.empty(d.size, np.int32)
    ranks[order] = np.arange(d.size, dtype=np.int32)
    return ranks


def expected_prefix(d, radix, descending, threads, per_thread):
    bins = np.arange(threads * per_thread)
    before = np.array([np.count_nonzero(d > b if descending else d < b) for b in bins])
    return np.where(bins < radix, before, 0).astype(np.int32)


def bins_per_thread(radix, threads):
    """CUB's BINS_TRACKED_PER_THREAD."""
    return max(1, -(-radix // threads))


@functools.lru_cache(maxsize=None)
def rank_program(key, n, bits, known, prefix, **options):
    """Loads N keys per thread, blocked, ranks them and stores the ranks
    where the thread loaded its keys (and its prefix bins at t*M)."""
    element = TYPES[key][0]
    prog = wm.Program(f"rank_{key}_{n}")

    @prog.kernel(x=wm.memref(element), r=wm.memref(wm.i32), p=wm.memref(wm.i32))
    def rank(k, x, r, p):
        if known:
            k.known_block_size(*known)
        t = linear_thread(k)
        keys = k.load_vector(x, t * n, n)
        if prefix:
            ranks, bins = k.block_radix_rank(keys, bits, digit_prefix=prefix, **options)
            k.store_vector(p, t * prefix, bins)
        else:
            ranks = k.block_radix_rank(keys, bits, **options)
        k.store_vector(r, t * n, ranks)
    return prog


def keys_for(rng, key, size, bits):
    """Keys whose digits repeat (stability shows), with specials for
    floats."""
    dtype, unsigned = TYPES[key][1], TYPES[key][2]
    width = np.dtype(unsigned).itemsize * 8
    raw = rng.integers(0, 1 << min(width, 63), size, dtype=np.uint64)
    # Few distinct values in the digit's bits: a pool of keys, reused.
    pool = raw[:max(1, size // 5)]
    x = pool[rng.integers(0, pool.size, size)].astype(unsigned).view(dtype)
    if key.startswith("f") and size >= 6:
        with np.errstate(over="ignore"):
            x[:6] = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.5], dtype)
    return x


def run(backend, key, n, block, bits, known=True, prefix=None, signed=False,
        descending=False, seed=0):
    threads = block_threads(block)
    shape = (block,) if isinstance(block, int) else tuple(block)
    radix = 1 << (bits[1] - bits[0])
    options = {}
    if signed:
        options["signed"] = True
    if descending:
        options["descending"] = True
    if prefix is True:
        prefix = bins_per_thread(radix, threads)
    program = rank_program(key, n, bits, shape if known else None, prefix or 0, **options)
    compiled = wm.compile(program, chip="sm_90")
    rng = np.random.default_rng([threads, n, bits[0], bits[1], seed])
    x = keys_for(rng, key, threads * n, bits)
    r = np.full(threads * n, -1, np.int32)
    p = np.full(threads * max(prefix or 1, 1), -1, np.int32)
    wm.launch(compiled, "rank", 1, block, x, r, p, backend=backend)
    d = digits(x, key, signed, bits)
    np.testing.assert_array_equal(r, expected_ranks(d, radix, descending))
    if prefix:
        np.testing.assert_array_equal(p, expected_prefix(d, radix, descending, threads, prefix))
    return compiled


# The full cross product, sampled deterministically: every key type, N, R
# and block size appear; signed/descending and the bit offset vary.
ALL = [(key, n, r, block, signed, descending)
       for key, n, r, block, signed, descending in itertools.product(
           TYPES, [1, 2, 4, 7], [1, 4, 5, 8], [32, 64, 96, 256], [False, True], [False, True])
       if not (signed and key.startswith("f"))]
SAMPLE = ALL if os.environ.get("WARP_RADIX_RANK_ALL") else random.Random(7).sample(ALL, 12)


def offset(key, r, seed):
    """A bit offset where the digit fits the key."""
    width = np.dtype(TYPES[key][2]).itemsize * 8
    return seed % (width - r + 1)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key,n,r,block,signed,descending", SAMPLE, ids=str)
def test_ranks_and_prefix(backend, key, n, r, block, signed, descending):
    b0 = offset(key, r, 3 * n + block)
    run(backend, key, n, block, (b0, b0 + r), prefix=True, signed=signed,
        descending=descending)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("descending", [False, True])
def test_match_layout(backend, descending):
    """R = 8 in 256 threads: the counter grid of a column per thread does
    not fit, the grid of a column per warp does (129 lanes x 9 words of 4
    bytes: 8 warps and a padding column, CUB's PADDED_WARPS; raked by 256
    threads in segments of ceil(1161 / 256) = 5 words, 1280 words in all),
    counted by ballots of the digits' bits (CUB's BlockRadixRankMatch)."""
    compiled = run(backend, "i32", 4, 256, (8, 16), prefix=True, descending=descending)
    assert "__warp_block_radix_counters[5120]" in compiled.ptx
    assert "vote.sync.ballot" in compiled.ptx


# Blocks of whole warps (1-D, 2-D, 3-D), key widths 8..64, N 1..16
# (powers of two: the digits go warp-striped by shuffles).
MATCH = [("i8", 16, 96, False), ("f16", 8, (16, 6), True), ("i64", 2, (8, 4, 4), False),
         ("f32", 1, 64 * 3, True), ("i32", 32, 128, False)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key,n,block,descending", MATCH, ids=str)
def test_match_layouts(backend, key, n, block, descending):
    width = np.dtype(TYPES[key][2]).itemsize * 8
    compiled = run(backend, key, n, block, (width - 8, width), prefix=True,
                   descending=descending, seed=n)
    assert "vote.sync.ballot" in compiled.ptx


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block,known", [(100, True), ((16, 6), False)], ids=str)
def test_registers_where_warps_may_be_ragged(backend, block, known):
    """R = 8 in a block that is not known to be whole warps (100 threads; a
    block size known only at run time): the match ranking needs whole
    warps, the counters are in registers."""
    compiled = run(backend, "i16", 4, block, (4, 12), known=known, prefix=True)
    assert "__warp_block_radix_counters" not in compiled.ptx


@pytest.mark.parametrize("backend", BACKENDS)
def test_registers_layout(backend):
    """R = 8 in 256 threads with 3 keys a thread (not a power of two: no
    exchange by shuffles for the match ranking): the counters are in
    registers (no grid buffer)."""
    compiled = run(backend, "i32", 3, 256, (8, 16), prefix=True)
    assert "__warp_block_radix_counters" not in compiled.ptx


@pytest.mark.parametrize("backend", BACKENDS)
def test_unknown_block_2d(backend):
    """Block size only at run time (a 2-D block, not whole warps), with
    more bins per thread than CUB's."""
    run(backend, "i16", 3, (10, 5), (2, 6), known=False, prefix=2, signed=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_grid_layout(backend):
    """R = 5 in 96 threads: the counter grid (CUB's layout), 3 threads'
    worth of bins past the digits reading 0."""
    compiled = run(backend, "f32", 2, 96, (27, 32), prefix=True, descending=True)
    assert "__warp_block_radix_counters" in compiled.ptx


def test_ir():
    prog = wm.Program("ir")

    @prog.kernel(x=wm.memref(wm.f32))
    def k(k, x):
        k.known_block_size(64)
        keys = k.load_vector(x, 0, 2)
        k.block_radix_rank(keys, (24, 32), descending=True, digit_prefix=True)
        k.block_radix_rank(keys, (0, 1))
    text = str(prog)
    assert "warp.block_radix_rank %" in text
    assert "descending bits 24 to 32 : vector<2xf32>, vector<4xi32>" in text
    assert "bits 0 to 1 : vector<2xf32> loc" in text


@pytest.mark.parametrize("call,error", [
    (lambda k, v: k.block_radix_rank(v, (0, 9)), ValueError),
    (lambda k, v: k.block_radix_rank(v, (30, 33)), ValueError),
    (lambda k, v: k.block_radix_rank(v, (4, 4)), ValueError),
    (lambda k, v: k.block_radix_rank(v, 4), TypeError),
    (lambda k, v: k.block_radix_rank(v, (0, 4), digit_prefix=True), ValueError),
    (lambda k, v: k.block_radix_rank(k.vector_element(v, 0), (0, 4)), TypeError),
])
def test_errors_at_the_call(call, error):
    prog = wm.Program("bad")

    @prog.kernel(x=wm.memref(wm.i32))
    def k(k, x):
        with pytest.raises(error):
            call(k, k.load_vector(x, 0, 2))


def test_signed_float_is_rejected():
    prog = wm.Program("bad_signed")

    @prog.kernel(x=wm.memref(wm.f32))
    def k(k, x):
        with pytest.raises(ValueError, match="signed orders integer keys"):
            k.block_radix_rank(k.load_vector(x, 0, 2), (0, 4), signed=True)


@functools.lru_cache(maxsize=None)
def ranking_program(n, block, ranking):
    prog = wm.Program(f"rank_ranking_{ranking}")

    @prog.kernel(x=wm.memref(wm.i32), r=wm.memref(wm.i32), p=wm.memref(wm.i32))
    def rank(k, x, r, p):
        k.known_block_size(block)
        t = linear_thread(k)
        ranks, bins = k.block_radix_rank(k.load_vector(x, t * n, n), (3, 11),
                                         digit_prefix=True, ranking=ranking)
        k.store_vector(r, t * n, ranks)
        k.store_vector(p, t * bins_per_thread(256, block), bins)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block,ranking,marks", [
    (256, "registers", ()),                                   # the compiler's: match
    (64, "match", ("vote.sync.ballot",)),                       # the compiler's: grid
    (64, "grid", ("__warp_block_radix_counters[33",)),        # 129 x 64 words
    (256, None, ("vote.sync.ballot",))], ids=str)
def test_named_ranking(backend, block, ranking, marks):
    """ranking = <grid|match|registers> (CUB's RADIX_RANK_BASIC,
    RADIX_RANK_MATCH, -) names the counting; each gives the same ranks."""
    n = 4
    compiled = wm.compile(ranking_program(n, block, ranking), chip="sm_90")
    for mark in marks:
        assert mark in compiled.ptx
    if ranking == "registers":
        assert "__warp_block_radix_counters" not in compiled.ptx
    rng = np.random.default_rng([block, n])
    x = keys_for(rng, "i32", block * n, (3, 11))
    bins = bins_per_thread(256, block)
    r = np.full(block * n, -1, np.int32)
    p = np.full(block * bins, -1, np.int32)
    wm.launch(compiled, "rank", 1, block, x, r, p, backend=backend)
    d = digits(x, "i32", False, (3, 11))
    np.testing.assert_array_equal(r, expected_ranks(d, 256, False))
    np.testing.assert_array_equal(p, expected_prefix(d, 256, False, block, bins))


@pytest.mark.parametrize("backend", BACKENDS)
def test_rankings_of_both_grid_layouts_in_one_kernel(backend):
    """Two rankings back to back whose counter grids are laid out in columns
    of warps (8-bit digits, match) and of threads (4-bit digits, grid): each
    starts with a barrier, so that one's zeroing does not overwrite words
    the other's threads still read (the generative tester found it)."""
    block, n = 256, 2
    prog = wm.Program("rank_twice")

    @prog.kernel(x=wm.memref(wm.i32), r=wm.memref(wm.i32), s=wm.memref(wm.i32))
    def rank(k, x, r, s):
        k.known_block_size(block)
        t = linear_thread(k)
        keys = k.load_vector(x, t * n, n)
        k.store_vector(r, t * n, k.block_radix_rank(keys, (0, 8)))
        k.store_vector(s, t * n, k.block_radix_rank(keys, (8, 12), descending=True))

    compiled = wm.compile(prog, chip="sm_90")
    assert "vote.sync.ballot" in compiled.ptx
    rng = np.random.default_rng(5)
    x = keys_for(rng, "i32", block * n, (0, 12))
    r = np.full(block * n, -1, np.int32)
    s = np.full(block * n, -1, np.int32)
    wm.launch(compiled, "rank", 1, block, x, r, s, backend=backend)
    np.testing.assert_array_equal(r, expected_ranks(digits(x, "i32", False, (0, 8)), 256, False))
    np.testing.assert_array_equal(s, expected_ranks(digits(x, "i32", False, (8, 12)), 16, True))


@functools.lru_cache(maxsize=None)
def warp_striped_program(key, n, bits, block, ranking, known, descending):
    """Loads N keys per thread warp-striped (block_load warp_striped:
    lane l of warp w, of L threads, position 32 w N + l + L j), ranks them
    warp_striped and stores the ranks warp-striped: each rank lands at its
    key's position."""
    element = TYPES[key][0]
    prog = wm.Program(f"rank_ws_{key}_{n}")

    @prog.kernel(x=wm.memref(element), r=wm.memref(wm.i32))
    def rank(k, x, r):
        if known:
            k.known_block_size(*block)
        keys = k.block_load(x, 0, n, warp_striped=True)
        ranks = k.block_radix_rank(keys, bits, warp_striped=True, ranking=ranking,
                                   descending=descending)
        k.block_store(ranks, r, 0, warp_striped=True)
    return prog


# Rankings x blocks: match (whole warps; the compiler's choice for
# warp-striped keys where it can run), grid and registers (the digits
# through block exchanges), a ragged block (100 threads: its last warp of
# 4 threads strides by 4) and a block known only at run time.
WARP_STRIPED = [("i32", 8, (0, 8), (256,), None, True, False),
                ("i8", 4, (0, 8), (64,), "match", True, True),
                ("f32", 4, (24, 32), (64,), "grid", True, False),
                ("i16", 2, (3, 8), (96,), "registers", True, True),
                ("i64", 4, (56, 64), (100,), None, True, False),
                ("i32", 3, (4, 9), (16, 5), None, False, False)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key,n,bits,block,ranking,known,descending", WARP_STRIPED, ids=str)
def test_warp_striped_keys(backend, key, n, bits, block, ranking, known, descending):
    """warp.block_radix_rank ... warp_striped: the ranks of keys in the
    warp-striped arrangement are stable in position order, so the ranks
    stored at the keys' positions are numpy's stable argsort ranks of the
    tile in memory."""
    threads = block_threads(block)
    compiled = wm.compile(
        warp_striped_program(key, n, bits, block, ranking, known, descending), chip="sm_90")
    if ranking is None and threads % 32 == 0 and known:
        assert "vote.sync.ballot" in compiled.ptx
        # The match ranking counts warp-striped keys as they are: no
        # exchange (and every lane reads its group's counter: no shuffle
        # of the leader's).
        assert "shfl.sync.idx" not in compiled.ptx
    rng = np.random.default_rng([threads, n, bits[0], 5])
    x = keys_for(rng, key, threads * n, bits)
    r = np.full(threads * n, -1, np.int32)
    wm.launch(compiled, "rank", 1, block, x, r, backend=backend)
    d = digits(x, key, False, bits)
    np.testing.assert_array_equal(r, expected_ranks(d, 1 << (bits[1] - bits[0]), descending))


@functools.lru_cache(maxsize=None)
def early_counts_program(key, n, bits, block, descending, signed):
    """warp_striped_program's ranking with ranking = <match_early>, the
    digit prefix (each thread's bins, stored blocked) and the counts
    callback (each thread's bins' counts, stored blocked before the
    ranking)."""
    element = TYPES[key][0]
    prog = wm.Program(f"rank_early_{key}_{n}")
    threads = block_threads(block)
    bins = bins_per_thread(1 << (bits[1] - bits[0]), threads)

    @prog.kernel(x=wm.memref(element), r=wm.memref(wm.i32), p=wm.memref(wm.i32),
                 c=wm.memref(wm.i32))
    def rank(k, x, r, p, c):
        k.known_block_size(*block)
        keys = k.block_load(x, 0, n, warp_striped=True)
        ranks, prefix = k.block_radix_rank(
            keys, bits, warp_striped=True, ranking="match_early", descending=descending,
            signed=signed, digit_prefix=True,
            counts=lambda counts: k.store_vector(c, linear_thread(k) * bins, counts))
        k.block_store(ranks, r, 0, warp_striped=True)
        k.store_vector(p, linear_thread(k) * bins, prefix)
    return prog


# CUB's BlockRadixRankMatchEarlyCounts: whole warps of any count (3 warps:
# a thread takes 3 of 256 digits, the last none past them), any items a
# thread (not only powers of two), 1- to 8-bit digits, descending, signed.
EARLY_COUNTS = [("i32", 16, (0, 8), (256,), False, False),
                ("i32", 6, (3, 11), (96,), True, False),
                ("i8", 4, (0, 8), (32,), False, True),
                ("i16", 3, (5, 7), (64, 2), False, True),
                ("f32", 5, (24, 32), (128,), True, False)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key,n,bits,block,descending,signed", EARLY_COUNTS, ids=str)
def test_early_counts_ranking(backend, key, n, bits, block, descending, signed):
    """ranking = <match_early> ranks warp-striped keys as the other rankings
    do: numpy's stable ranks of the tile in memory, and each bin's keys of
    the digits before it; its counts callback gets each bin's keys (bin b
    the b-th digit in rank order: radix - 1 - b descending)."""
    threads = block_threads(block)
    compiled = wm.compile(early_counts_program(key, n, bits, block, descending, signed),
                          chip="sm_90")
    assert "vote.sync.ballot" in compiled.ptx and "atom.shared.add" in compiled.ptx
    radix = 1 << (bits[1] - bits[0])
    bins = bins_per_thread(radix, threads)
    rng = np.random.default_rng([threads, n, bits[0], 7])
    x = keys_for(rng, key, threads * n, bits)
    r = np.full(threads * n, -1, np.int32)
    p = np.full(threads * bins, -1, np.int32)
    c = np.full(threads * bins, -1, np.int32)
    wm.launch(compiled, "rank", 1, block, x, r, p, c, backend=backend)
    d = digits(x, key, signed, bits)
    np.testing.assert_array_equal(r, expected_ranks(d, radix, descending))
    np.testing.assert_array_equal(p, expected_prefix(d, radix, descending, threads, bins))
    group = np.arange(threads * bins)
    digit = radix - 1 - group if descending else group
    expected_counts = [np.count_nonzero(d == g) if b < radix else 0 for b, g in zip(group, digit)]
    np.testing.assert_array_equal(c, np.array(expected_counts, np.int32))


def test_early_counts_needs_warp_striped_whole_warps():
    """The verifier's rule: match_early ranks a block radix rank's
    warp-striped keys in a known block of whole warps."""
    for block, warp_striped in [((256,), False), ((100,), True)]:
        with pytest.raises(wm.MLIRError, match="ranking = <match_early>"):
            prog = wm.Program("rank_early_bad")

            @prog.kernel(x=wm.memref(wm.i32), r=wm.memref(wm.i32))
            def rank(k, x, r):
                k.known_block_size(*block)
                keys = k.block_load(x, 0, 4, warp_striped=warp_striped)
                k.block_store(k.block_radix_rank(keys, (0, 8), warp_striped=warp_striped,
                                                 ranking="match_early"), r, 0)
            wm.compile(prog, chip="sm_90")


def test_warp_striped_match_has_no_exchange():
    """With warp-striped keys the match ranking shuffles no key (every
    lane reads its group's counter), where blocked keys pay two exchanges
    of N shuffles each."""
    def shuffles(warp_striped):
        prog = wm.Program("rank_shuffles")

        @prog.kernel(x=wm.memref(wm.i32), r=wm.memref(wm.i32))
        def rank(k, x, r):
            k.known_block_size(128)
            keys = k.block_load(x, 0, 4, warp_striped=warp_striped)
            ranks = k.block_radix_rank(keys, (0, 8), ranking="match",
                                       warp_striped=warp_striped)
            k.block_store(ranks, r, 0, warp_striped=warp_striped)
        return wm.compile(prog, chip="sm_90").ptx.count("shfl.sync")
    assert shuffles(True) + 8 <= shuffles(False)


@requires_sim
def test_sim_counts_shared_banks_when_asked():
    """The match ranking (R = 8, 256 threads) on the simulator: its
    shared-memory requests and bank wavefronts are counted with
    count_shared_banks (at least one wavefront a request), and not without
    (the counting is off by default)."""
    compiled = wm.compile(rank_program("i32", 4, (8, 16), (256,), 0), chip="sm_90")
    x = keys_for(np.random.default_rng(3), "i32", 1024, (8, 16))
    r, p = np.zeros(1024, np.int32), np.zeros(1, np.int32)
    counted = wm.sim.launch(compiled, "rank", 1, 256, x, r, p, count_shared_banks=True)
    assert counted.shared_wavefronts >= counted.shared_requests > 0
    plain = wm.sim.launch(compiled, "rank", 1, 256, x, r, p)
    assert plain.shared_requests == plain.shared_wavefronts == 0
    assert plain.warp_instructions == counted.warp_instructions
