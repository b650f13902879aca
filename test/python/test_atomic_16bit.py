"""warp.atomic_rmw <add> on f16, bf16 and their packed pairs, and with a scope
and a memory order: results on the simulator (and the GPU) against an
independent numpy model of the op's documented float semantics. <exch> on
i16, f16, bf16 and <minnumf>, <maxnumf> on f16, bf16 (compare-and-swap
loops) against a serialized model at the end of the file.

The model (CUDA's rules and the op's description): lanes with equal
addresses form a group; the group's values are scanned in lane order as a
Kogge-Stone scan in the element type (distances 1, 2, 4, 8, 16, each partial
sum rounded to nearest even); memory receives old + total, lane k returns
old + (the inclusive prefix of the member below it), the lowest member old.
Each warp adds into its own addresses, so every element sees one group's
atomic and the results are deterministic. Each half of a pair is its own
element. f16 sums round through numpy's float16 (float64 holds the exact
sum of two f16); bf16 sums through float32 (innocuous double rounding:
24 >= 2 * 8 + 2) and a round-to-nearest-even cut to 16 bits."""
import re

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS

LANES = 32
# Address patterns x member-set modes: one warp per combination.
PATTERNS = ("same", "distinct", "groups")
MODES = ("full", "mask", "activemask")
CASES = [(p, m) for p in PATTERNS for m in MODES]


# -- the model -----------------------------------------------------------------

def bf16_round(x):
    """float32 values to bf16 bit patterns, rounded to nearest even."""
    a = np.atleast_1d(np.asarray(x, np.float32))
    bits = a.view(np.uint32).astype(np.int64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    rounded[np.isnan(a)] = 0x7FFF
    return rounded.reshape(np.shape(x))


def bf16_value(bits):
    words = (np.atleast_1d(np.asarray(bits)).astype(np.int64) << 16).astype(np.uint32)
    return words.view(np.float32).reshape(np.shape(bits))


def add16(element, a, b):
    """a + b rounded once to `element` (bit patterns in, bit patterns out)."""
    if element == "f16":
        s = np.uint16(a).view(np.float16).astype(np.float64) + \
            np.uint16(b).view(np.float16).astype(np.float64)
        return np.float16(s).view(np.uint16)
    return bf16_round(bf16_value(a) + bf16_value(b))


def model_warp(element, values, addresses, members, memory):
    """One warp's atomics on `memory` (bit patterns, updated in place);
    returns each member lane's result (bit patterns; others 0)."""
    result = np.zeros(LANES, np.uint16)
    for address in sorted({addresses[lane] for lane in members}):
        group = [lane for lane in members if addresses[lane] == address]
        scan = [values[lane] for lane in group]
        distance = 1
        while distance < LANES:
            scan = [add16(element, scan[r - distance], scan[r]) if r >= distance else scan[r]
                    for r in range(len(scan))]
            distance *= 2
        old = memory[address]
        for rank, lane in enumerate(group):
            result[lane] = old if rank == 0 else add16(element, old, scan[rank - 1])
        memory[address] = add16(element, old, scan[-1])
    return result


def serialized_warp(element, values, addresses, members, memory):
    """The lanes' atomics one after another in lane order (what the op
    equals where every partial sum is exact)."""
    result = np.zeros(LANES, np.uint16)
    for lane in members:
        result[lane] = memory[addresses[lane]]
        memory[addresses[lane]] = add16(element, memory[addresses[lane]], values[lane])
    return result


def to_bits(element, x):
    x = np.asarray(x, np.float64)
    if element == "f16":
        return x.astype(np.float16).view(np.uint16)
    return bf16_round(x.astype(np.float32))


# -- the inputs ----------------------------------------------------------------

def make_warps(rng, cases, local_addresses):
    """One warp per (address pattern, member-set mode) of `cases`: per
    thread its address (the warp's block plus `local_addresses(pattern)`)
    and whether it takes part; per warp its mask and mode flag."""
    n = LANES * len(cases)
    addresses, members = np.zeros(n, np.int32), np.zeros(n, bool)
    masks, active = np.zeros(len(cases), np.uint32), np.zeros(len(cases), np.int32)
    for w, (pattern, mode) in enumerate(cases):
        addresses[w * LANES:(w + 1) * LANES] = w * LANES + local_addresses(pattern)
        take = np.ones(LANES, bool) if mode == "full" else rng.random(LANES) < 0.6
        take[rng.integers(0, LANES)] = True
        members[w * LANES:(w + 1) * LANES] = take
        masks[w] = int(sum(1 << int(lane) for lane in np.flatnonzero(take)))
        active[w] = mode == "activemask"
    return addresses, members, masks, active


def make_inputs(rng, element, exact, halves):
    """Per thread: a local address (within its warp's 32 elements), whether
    it takes part, a value per half; per warp: its mask and mode flag; the
    initial memory per half."""
    n = LANES * len(CASES)
    addresses, members, masks, active = make_warps(rng, CASES, lambda pattern: {
        "same": np.zeros(LANES, np.int64), "distinct": np.arange(LANES),
        "groups": rng.integers(0, 4, LANES) * 7}[pattern])
    if exact:  # small integers: every partial sum is exact
        values = rng.integers(-8, 9, (halves, n))
        memory = rng.integers(-16, 17, (halves, n))
    else:  # magnitudes from 2^-20 to 2^6, signs mixed: rounding at every step
        values = rng.standard_normal((halves, n)) * 2.0 ** rng.integers(-20, 7, (halves, n))
        memory = rng.standard_normal((halves, n)) * 2.0 ** rng.integers(-4, 8, (halves, n))
    return (addresses, members, masks, active, to_bits(element, values),
            to_bits(element, memory))


def expected(element, addresses, members, values, memory, model):
    memory = memory.copy()
    results = np.zeros_like(values)
    for h in range(values.shape[0]):
        for w in range(len(CASES)):
            lanes = slice(w * LANES, (w + 1) * LANES)
            member_lanes = [int(lane) for lane in np.flatnonzero(members[lanes])]
            results[h, lanes] = model(element, values[h, lanes], addresses[lanes],
                                      member_lanes, memory[h])
    return results, memory


# -- the kernels ---------------------------------------------------------------

# f32 and f64 for test_atomic_float_minmax.py's float min/max loops.
ELEMENTS = {"f16": wm.f16, "bf16": wm.bf16, "i16": wm.i16, "f32": wm.f32, "f64": wm.f64}
DTYPES = {"f16": np.float16, "bf16": "V2", "i16": np.int16}


def atomic_program(element, halves, scope=None, ordering=None, kind="add"):
    """Each thread of a member lane applies `kind` with its value at its
    address, with the warp's mask or (activemask mode) the executing lanes;
    pairs accumulate in shared memory (a launch passes scalar arrays
    only)."""
    scalar = ELEMENTS[element]
    prog = wm.Program(f"atomic16_{kind}_{element}x{halves}")

    @prog.kernel(addresses=wm.memref(wm.i32), members=wm.memref(wm.i32),
                 masks=wm.memref(wm.i32), active=wm.memref(wm.i32), values=wm.memref(scalar),
                 memory=wm.memref(scalar), results=wm.memref(scalar))
    def atomics(k, addresses, members, masks, active, values, memory, results):
        t = k.thread_id()
        w = k.cast(k.warp_id(), wm.index)
        address = k.cast(addresses[t], wm.index)
        if halves == 2:
            acc = k.shared(wm.vector(2, scalar), LANES * len(CASES))
            acc[t] = k.load_vector(memory, t * 2, 2)
            k.barrier()
            value = k.load_vector(values, t * 2, 2)
        else:
            acc, value = memory, values[t]

        def store(old):
            if halves == 2:
                k.store_vector(results, t * 2, old)
            else:
                results[t] = old
        member = members[t] == 1
        with k.if_(member & (active[w] == 1)):
            store(k.aggregated_atomic(kind, acc, address, value, scope=scope,
                                      ordering=ordering))
        with k.if_(member & (active[w] == 0)):
            store(k.aggregated_atomic(kind, acc, address, value, mask=masks[w], scope=scope,
                                      ordering=ordering))
        if halves == 2:
            k.barrier()
            k.store_vector(memory, t * 2, acc[t])
    return prog


def run(backend, element, halves, chip, exact, seed, scope=None, ordering=None):
    rng = np.random.default_rng(seed)
    addresses, members, masks, active, values, memory = make_inputs(rng, element, exact, halves)
    want_results, want_memory = expected(element, addresses, members, values, memory, model_warp)
    if exact:  # where the partial sums are exact the op is the serialized one
        serial = expected(element, addresses, members, values, memory, serialized_warp)
        np.testing.assert_array_equal(want_results, serial[0])
        np.testing.assert_array_equal(want_memory, serial[1])
    dtype = DTYPES[element]
    # Pairs interleave: element 2i + h is half h of pair i.
    memory_arg = np.ascontiguousarray(memory.T).reshape(-1).view(dtype)
    values_arg = np.ascontiguousarray(values.T).reshape(-1).view(dtype)
    results_arg = np.zeros_like(values_arg)
    compiled = wm.compile(atomic_program(element, halves, scope, ordering), chip=chip)
    wm.launch(compiled, "atomics", 1, LANES * len(CASES), addresses,
              members.astype(np.int32), masks.view(np.int32), active, values_arg, memory_arg,
              results_arg, backend=backend)
    got_memory = memory_arg.view(np.uint16).reshape(-1, halves).T
    got_results = results_arg.view(np.uint16).reshape(-1, halves).T
    member_columns = np.flatnonzero(members)
    np.testing.assert_array_equal(got_memory, want_memory)
    np.testing.assert_array_equal(got_results[:, member_columns], want_results[:, member_columns])


# Where the lowering differs: f16 is native from sm_70; bf16 native on
# sm_90, a loop of atom.cas.b16 below; the f16 pair one inline atom
# everywhere; the bf16 pair needs sm_90.
LOWERINGS = [("f16", 1, "sm_70"), ("f16", 1, "sm_80"), ("f16", 1, "sm_90"),
             ("bf16", 1, "sm_70"), ("bf16", 1, "sm_80"), ("bf16", 1, "sm_90"),
             ("f16", 2, "sm_70"), ("f16", 2, "sm_90"), ("bf16", 2, "sm_90")]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("element, halves, chip", LOWERINGS)
def test_atomic_add_16bit(backend, element, halves, chip):
    """Every 16-bit type, on the chips where its lowering differs, over
    every address pattern and member set (full warp, a random mask, the
    executing lanes of a divergent branch): exact small-integer sums equal
    the serialized atomics, random values round as the model says."""
    for exact, seed in ((True, 11), (False, 12)):
        run(backend, element, halves, chip, exact, seed)


# Each scope and order once (the simulator ignores them; the PTX tests
# check the qualifiers): the results must not change.
ORDERS = [("cta", None), ("cluster", None), ("sys", None), (None, "acquire"),
          (None, "release"), ("gpu", "acq_rel"), ("cta", "acq_rel")]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("scope, ordering", ORDERS)
def test_atomic_scope_and_order(backend, scope, ordering):
    halves = 2 if ordering == "acq_rel" else 1
    run(backend, "f16" if scope != "sys" else "bf16", halves, "sm_90", False, 21,
        scope, ordering)


def lane_atomic_program(element):
    prog = wm.Program(f"lane_{element}")
    scalar = ELEMENTS[element]

    @prog.kernel(memory=wm.memref(scalar), olds=wm.memref(scalar))
    def lane(k, memory, olds):
        t = k.thread_id()
        pairs = k.shared(wm.vector(2, scalar), 1)
        with k.if_(t == 0):
            pairs[0] = k.load_vector(memory, 0, 2)
        k.barrier()
        one = k.constant(1.0, wm.vector(2, scalar))
        k.store_vector(olds, t * 2, k.lane_atomic("add", pairs, 0, one, scope="cta",
                                                  ordering="acq_rel"))
        k.barrier()
        with k.if_(t == 0):
            k.store_vector(memory, 0, pairs[0])
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("element", ["f16", "bf16"])
def test_lane_atomic(backend, element):
    """warp.lane_atomic_rmw: every thread adds (1, 1) to one pair in its own
    atomic; whatever the order, memory ends 64 higher in each half and the
    old values are the 64 integers from the start, once each."""
    start = np.array([-20.0, 100.0])
    memory = to_bits(element, start)
    olds = np.zeros(128, np.uint16)
    dtype = np.float16 if element == "f16" else "V2"
    memory_arg, olds_arg = memory.view(dtype), olds.view(dtype)
    wm.launch(wm.compile(lane_atomic_program(element), chip="sm_90"), "lane", 1, 64,
              memory_arg, olds_arg, backend=backend)
    np.testing.assert_array_equal(memory, to_bits(element, start + 64))
    for half in range(2):
        got = np.sort(olds[half::2].view(np.float16).astype(np.float64) if element == "f16"
                      else bf16_value(olds[half::2]).astype(np.float64))
        np.testing.assert_array_equal(got, start[half] + np.arange(64))


def test_atomic_16bit_ir_and_ptx():
    """The builder writes the types and attributes; the defaults stay
    unwritten and keep the plain atom."""
    text = str(atomic_program("f16", 2, "cta", "release"))
    assert "scope <cta> ordering <release> : vector<2xf16>, memref<288xvector<2xf16>, " in text
    plain = wm.compile(atomic_program("f16", 1), chip="sm_80").ptx
    assert "atom.global.add.noftz.f16 " in plain and "relaxed" not in plain
    ordered = wm.compile(atomic_program("bf16", 2, "sys", "acquire"), chip="sm_90").ptx
    assert "atom.acquire.sys.shared.add.noftz.bf16x2" in ordered
    # bf16 below sm_90: CUDA's loop of atom.cas.b16 on the element, not
    # LLVM's CAS of the 32-bit word around it (2 bytes past a buffer's end).
    for chip in ("sm_70", "sm_80"):
        looped = wm.compile(atomic_program("bf16", 1), chip=chip).ptx
        assert ".cas.b16 " in looped and ".cas.b32" not in looped, chip
    assert ".add.noftz.bf16 " in wm.compile(atomic_program("bf16", 1), chip="sm_90").ptx


def test_atomic_16bit_errors_are_the_compiler_s():
    prog = wm.Program("bad")

    @prog.kernel(x=wm.memref(wm.f16), y=wm.memref(wm.vector(2, wm.bf16)))
    def bad(k, x, y):
        with pytest.raises(wm.VerificationError, match="16-bit values take add, exch, minnumf and maxnumf"):
            k.aggregated_atomic("maxsi", x, 0, 1.0)
        with pytest.raises(ValueError, match="MemoryScope to be one of"):
            k.aggregated_atomic("add", x, 0, 1.0, scope="block")
        with pytest.raises(ValueError, match="MemoryOrder to be one of"):
            k.aggregated_atomic("add", x, 0, 1.0, ordering="seq_cst")
        k.aggregated_atomic("add", y, 0, y[0])
    # The bf16 pair needs sm_90: the error names the op's line.
    with pytest.raises(wm.MLIRError, match="needs sm_90 or newer"):
        wm.compile(prog, chip="sm_80")


# -- 16-bit exch, minnumf, maxnumf ----------------------------------------------
# PTX has no 16-bit atom.exch (nor a scalar 16-bit float min/max): the
# group's atomic is a compare-and-swap loop of atom.cas.b16, which must
# leave the other half of the element's 32-bit word alone. The op's contract (as on
# 32 and 64 bits): the lowest member gets the old value, every other member
# what the members below it left (exch: the value of the member below);
# memory ends with the group's last. exch moves bits (NaN payloads and -0.0
# included); minnumf/maxnumf ignore a NaN operand (NaN only when both are)
# and may give either zero for min(+0.0, -0.0).

CAS_PATTERNS = ("same", "halves", "distinct")
CAS_CASES = [(p, m) for p in CAS_PATTERNS for m in MODES]
# Exact in f16 and bf16; NaN, both zeros and the infinities included.
MINMAX_POOL = [np.nan, -0.0, 0.0, 1.0, -1.0, 2.5, -3.0, 0.5, np.inf, -np.inf]


def decode(element, bits):
    bits = np.asarray(bits, np.uint16)
    return bits.view(np.float16).astype(np.float64) if element == "f16" else \
        bf16_value(bits).astype(np.float64)


def cas_model(kind, element, values, addresses, members, memory):
    """One warp's atomics on `memory` (bit patterns, updated in place), in
    lane order; returns each member's old value (bits)."""
    result = np.zeros(LANES, np.uint16)
    for lane in members:
        address = addresses[lane]
        result[lane] = memory[address]
        if kind == "exch":
            memory[address] = values[lane]
            continue
        pick = np.fmin if kind == "minnumf" else np.fmax
        new = pick(decode(element, memory[address]), decode(element, values[lane]))
        memory[address] = to_bits(element, new)
    return result


def assert_same(kind, element, got, want):
    """exch: the same bits; min/max: NaN where the model has NaN, else the
    same value (either zero for a zero)."""
    if kind == "exch":
        np.testing.assert_array_equal(got, want)
        return
    g, w = decode(element, got), decode(element, want)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
    np.testing.assert_array_equal(g[~np.isnan(w)], w[~np.isnan(w)])


def run_cas(backend, kind, element, chip, seed, scope=None, ordering=None):
    """One warp per (address pattern, member set): `halves` sends the lanes
    to elements 0..3 of the warp's block, both halves of two words."""
    rng = np.random.default_rng(seed)
    n = LANES * len(CAS_CASES)
    addresses, members, masks, active = make_warps(rng, CAS_CASES, lambda pattern: {
        "same": np.full(LANES, 5), "halves": rng.integers(0, 4, LANES),
        "distinct": rng.permutation(LANES)}[pattern])
    if kind == "exch":
        values = rng.integers(0, 1 << 16, n).astype(np.uint16)
        memory = rng.integers(0, 1 << 16, n).astype(np.uint16)
    else:
        values = to_bits(element, rng.choice(MINMAX_POOL, n)).astype(np.uint16)
        memory = to_bits(element, rng.choice(MINMAX_POOL, n)).astype(np.uint16)
    want_memory = memory.copy()
    want_results = np.zeros(n, np.uint16)
    for w in range(len(CAS_CASES)):
        lanes = slice(w * LANES, (w + 1) * LANES)
        member_lanes = [int(lane) for lane in np.flatnonzero(members[lanes])]
        want_results[lanes] = cas_model(kind, element, values[lanes], addresses[lanes],
                                        member_lanes, want_memory)
    dtype = DTYPES[element]
    memory_arg, values_arg = memory.copy().view(dtype), values.view(dtype)
    results_arg = np.zeros_like(values_arg)
    compiled = wm.compile(atomic_program(element, 1, scope, ordering, kind=kind), chip=chip)
    wm.launch(compiled, "atomics", 1, n, addresses, members.astype(np.int32),
              masks.view(np.int32), active, values_arg, memory_arg, results_arg,
              backend=backend)
    assert_same(kind, element, memory_arg.view(np.uint16), want_memory)
    member_columns = np.flatnonzero(members)
    assert_same(kind, element, results_arg.view(np.uint16)[member_columns],
                want_results[member_columns])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind, element, chip, scope, ordering",
                         [("exch", "i16", "sm_70", None, None),
                          ("exch", "f16", "sm_80", None, None),
                          ("exch", "bf16", "sm_70", None, None),
                          ("exch", "f16", "sm_90", "cta", "acq_rel"),
                          ("minnumf", "f16", "sm_70", None, None),
                          ("maxnumf", "f16", "sm_90", None, None),
                          ("minnumf", "bf16", "sm_90", "sys", "release"),
                          ("maxnumf", "bf16", "sm_80", None, None)])
def test_atomic_cas_16bit(backend, kind, element, chip, scope, ordering):
    """Every 16-bit type of exch and of the float min/max (the same
    lowering on every chip; bf16 below sm_90 too), a scope and an order:
    the winner rule, NaN and signed zeros, and the untouched neighbours
    against the model."""
    run_cas(backend, kind, element, chip, 31, scope, ordering)


def test_cas_16bit_ptx():
    """No 16-bit atom in the PTX; the loop's CAS carries the scope and order."""
    ptx = wm.compile(atomic_program("bf16", 1, "sys", "release", kind="exch"), chip="sm_80").ptx
    atoms = [line for line in ptx.splitlines() if "atom." in line]
    assert atoms and all(re.search(r"atom\.release\.sys(\.global)?\.cas\.b16 ", line)
                         for line in atoms), atoms
