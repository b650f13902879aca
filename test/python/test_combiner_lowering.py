"""The lane semantics of the combiner lowerings, without a GPU: every case of
the GPU suite's combiner family (test/Integration/CUDA/cases.py) is expanded
by warp-expand-collectives and run on 32 lanes by a lockstep interpreter,
then checked against reference.py's definitions (a fold in lane order, the
documented trees), on the same data the GPU run uses."""
import sys
from pathlib import Path

import numpy as np
import pytest

import warp_mlir as wm

CUDA_SUITE = Path(__file__).resolve().parents[1] / "Integration" / "CUDA"
if not (CUDA_SUITE / "build_bundle.py").exists():  # e.g. the GPU bundle's copy of test/python
    pytest.skip("needs the GPU suite's sources (test/Integration/CUDA)", allow_module_level=True)
sys.path.insert(0, str(CUDA_SUITE))
import build_bundle  # noqa: E402
import cases  # noqa: E402
import lockstep  # noqa: E402
import reference as ref  # noqa: E402

DTYPES = {"i16": np.int16, "i32": np.int32, "f16": np.float16, "f32": np.float32}


def combiner_function(case):
    """The case's op in a func.func over one lane's values, flag, n, mask and
    inits (the GPU kernel's op line and region, without memory)."""
    kernel = build_bundle.combiner_kernel(case).splitlines()
    start = next(i for i, l in enumerate(kernel) if l.strip().startswith("%y0"))
    end, depth = start + 1, kernel[start].count("{")
    while depth:
        depth += kernel[end].count("{") - kernel[end].count("}")
        end += 1
    types = cases.COMBINERS[case["combiner"]]["types"]
    args = ([f"%x{k}: {t}" for k, t in enumerate(types)] + ["%f: i1", "%n: i32", "%mask: i32"]
            + [f"%init{k}: {t}" for k, t in enumerate(types)])
    results = ", ".join(f"%y{k}" for k in range(len(types)))
    body = "\n".join(kernel[start:end])
    return (f"func.func @f({', '.join(args)}) -> ({', '.join(types)}) {{\n{body}\n"
            f"return {results} : {', '.join(types)}\n}}\n")


def to_lane(value, type_name):
    if type_name.startswith("i"):
        return int(value) & ((1 << int(type_name[1:])) - 1)
    return DTYPES[type_name](value)


def from_lane(value, type_name):
    if value is lockstep.POISON or not type_name.startswith("i"):
        return value
    bits = int(type_name[1:])
    return DTYPES[type_name](value - (1 << bits) if value >> (bits - 1) else value)


@pytest.mark.parametrize("case", list(cases.combiner_cases()), ids=lambda c: c["name"])
def test_combiner_case(case):
    rng = np.random.default_rng(10)
    comb = case["combiner"]
    types = cases.COMBINERS[comb]["types"]
    module = wm.Module.parse(combiner_function(case))
    module.run("builtin.module(warp-expand-collectives)")
    generic = module.to_string(generic=True)
    assert '"warp.reduce"' not in generic and '"warp.scan"' not in generic
    runs, patterns = cases.combiner_runs(case)
    problems = []
    for n, mask, flags, inputs, inits, want, label in ref.combiner_trials(
            case, cases.COMBINERS[comb]["commutative"], [DTYPES[t] for t in types], runs,
            patterns, rng):
        active = {lane for lane in range(32) if mask >> lane & 1}
        args = [[to_lane(a[lane], t) for lane in range(32)] for a, t in zip(inputs, types)]
        args += [[int(flags[lane]) for lane in range(32)], [n] * 32, [mask] * 32]
        args += [[to_lane(v, t)] * 32 for v, t in zip(inits, types)]
        results = lockstep.run(generic, args, active)
        for lane, value in want.items():
            got = tuple(from_lane(r[lane], t) for r, t in zip(results, types))
            if lockstep.POISON in got or not ref.same_tuple(got, value, comb):
                problems.append(f"{label} lane={lane}: got {got}, want {value}")
    assert not problems, "; ".join(problems[:3])


def test_an_order_mistake_is_caught():
    """Declaring the affine maps commutative (they are not) takes the
    farthest-first network: the lockstep run must then disagree with the
    lane-order fold."""
    case = next(c for c in cases.combiner_cases() if c["name"] == "cmb_red_affine_all")
    text = combiner_function(case).replace("lanes = <all>", "lanes = <all> commutative")
    module = wm.Module.parse(text)
    module.run("builtin.module(warp-expand-collectives)")
    rng = np.random.default_rng(11)
    a, b = ref.combiner_inputs("affine", 0, rng)
    args = [[int(v) & 0xFFFFFFFF for v in a], [int(v) & 0xFFFFFFFF for v in b],
            [0] * 32, [32] * 32, [0xFFFFFFFF] * 32, [0] * 32, [0] * 32]
    results = lockstep.run(module.to_string(generic=True), args, set(range(32)))
    tuples = [(np.int32(a[lane]), np.int32(b[lane])) for lane in range(32)]
    want = ref.fold(ref.comb_affine, tuples)
    assert (from_lane(results[0][0], "i32"), from_lane(results[1][0], "i32")) != want
