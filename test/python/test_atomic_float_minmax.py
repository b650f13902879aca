"""warp.atomic_rmw and warp.lane_atomic_rmw <minnumf>, <maxnumf> on f32 and
f64 (a compare-and-swap loop of atom.cas.b32 / .b64) on the simulator (and a
GPU), against reference.atomic_apply: CUDA's fminf/fmaxf, a NaN operand
loses to a number, -0.0 orders below +0.0, applied one lane after another
in lane order (the op's contract: each member gets what the members below
it left). Values from a pool of NaN, both zeros, the infinities, a
subnormal and small numbers, so that every rule is met; each warp works on
its own elements, so the results are deterministic."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from test_atomic_16bit import MODES, atomic_program, make_warps

import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Integration" / "CUDA"))
import reference as ref  # noqa: E402

LANES = 32
ELEMENTS = {"f32": (wm.f32, np.float32, np.uint32), "f64": (wm.f64, np.float64, np.uint64)}
PATTERNS = ("same", "groups", "distinct")
CASES = [(p, m) for p in PATTERNS for m in MODES]
POOL = [np.nan, -0.0, 0.0, 1.0, -1.0, 2.5, -3.0, 1e-45, np.inf, -np.inf]


def same_bits(got, want, dtype):
    """Bit for bit, but any NaN for a NaN (the bits of a NaN min/max gives
    are not specified)."""
    got, want = np.asarray(got, dtype), np.asarray(want, dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    number = ~np.isnan(want)
    unsigned = ELEMENTS[{np.float32: "f32", np.float64: "f64"}[dtype]][2]
    np.testing.assert_array_equal(got[number].view(unsigned), want[number].view(unsigned))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind, element, chip", [("minnumf", "f32", "sm_70"),
                                                  ("maxnumf", "f32", "sm_90"),
                                                  ("minnumf", "f64", "sm_90"),
                                                  ("maxnumf", "f64", "sm_80")])
def test_atomic_float_minmax(backend, kind, element, chip):
    _, dtype, _ = ELEMENTS[element]
    rng = np.random.default_rng(41)
    n = LANES * len(CASES)
    addresses, members, masks, active = make_warps(rng, CASES, lambda pattern: {
        "same": np.full(LANES, 3), "groups": rng.integers(0, 4, LANES) * 5,
        "distinct": rng.permutation(LANES)}[pattern])
    values = rng.choice(POOL, n).astype(dtype)
    memory = rng.choice(POOL, n).astype(dtype)
    want_memory, want_results = memory.copy(), np.zeros(n, dtype)
    for w in range(len(CASES)):
        for lane in range(LANES):
            t = w * LANES + lane
            if members[t]:
                a = addresses[t]
                want_results[t] = want_memory[a]
                want_memory[a] = ref.atomic_apply(kind, want_memory[a], values[t], dtype)
    results = np.zeros(n, dtype)
    got_memory = memory.copy()
    # test_atomic_16bit's kernel: each member thread's atomic at its
    # address, with the warp's mask or (activemask mode) the lanes that run
    # it together.
    compiled = wm.compile(atomic_program(element, 1, kind=kind), chip=chip)
    wm.launch(compiled, "atomics", 1, n, addresses,
              members.astype(np.int32), masks.view(np.int32), active, values, got_memory,
              results, backend=backend)
    same_bits(got_memory, want_memory, dtype)
    member_threads = np.flatnonzero(members)
    same_bits(results[member_threads], want_results[member_threads], dtype)


@functools.lru_cache(maxsize=None)
def lane_program(element, kind):
    scalar = ELEMENTS[element][0]
    prog = wm.Program(f"lane_{kind}_{element}")

    @prog.kernel(values=wm.memref(scalar), memory=wm.memref(scalar))
    def lane(k, values, memory):
        t = k.thread_id()
        k.lane_atomic(kind, memory, 0, values[t], scope="cta", ordering="acq_rel")
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind, element", [("minnumf", "f64"), ("maxnumf", "f32")])
def test_lane_atomic_float_minmax(backend, kind, element):
    """Every thread's own atomic on one element: whatever their order, it
    ends with the min (max) of the start and all values: the zeros by sign,
    the NaNs lost to the numbers."""
    _, dtype, _ = ELEMENTS[element]
    values = np.array([np.nan, 0.0, -0.0, 2.0, -2.0, np.nan] * 8, dtype)
    for start in (np.nan, 0.0, -0.0):
        memory = np.array([start], dtype)
        want = memory[0]
        for v in values:
            want = ref.atomic_apply(kind, want, v, dtype)
        wm.launch(wm.compile(lane_program(element, kind), chip="sm_90"), "lane", 1,
                  values.size, values, memory, backend=backend)
        same_bits(memory, [want], dtype)
    # Only zeros and NaN: the sign decides.
    zeros = np.array([0.0, np.nan, -0.0, 0.0] * 4, dtype)
    memory = np.array([np.nan], dtype)
    wm.launch(wm.compile(lane_program(element, kind), chip="sm_90"), "lane", 1, zeros.size,
              zeros, memory, backend=backend)
    assert np.signbit(memory[0]) == (kind == "minnumf") and memory[0] == 0


def test_float_minmax_ptx():
    """The loop's CAS carries the scope and order; no float atom."""
    ptx = wm.compile(lane_program("f64", "minnumf"), chip="sm_80").ptx
    atoms = [line for line in ptx.splitlines() if "atom." in line]
    assert atoms and all("atom.acq_rel.cta.global.cas.b64 " in line or
                         "atom.acq_rel.cta.cas.b64 " in line for line in atoms), atoms
