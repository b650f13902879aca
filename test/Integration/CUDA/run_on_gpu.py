"""Runs the GPU suite on a CUDA machine: loads each PTX module of the bundle
with cupy, launches every kernel of manifest.json and checks every lane
against reference.py (CUDA's rules) and, for shuffles, against the same
shuffle compiled by nvcc from CUDA's __shfl_*_sync (the oracle).

    python3 run_on_gpu.py --bundle .gpu-bundle [--log results.txt]

Prints one line per failing case and ends with "gpu: N passed, N failed".
With `--backend sim` no GPU is needed: simcupy.py runs the same PTX (and
the nvcc oracles, as PTX) on libWarpSim, the SIMT interpreter of lib/Sim.
"""
import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
_early = argparse.ArgumentParser(add_help=False)
_early.add_argument("--backend", choices=["cupy", "sim"], default="cupy")
BACKEND = _early.parse_known_args()[0].backend
if BACKEND == "sim":
    import simcupy as cp  # noqa: E402
else:
    import cupy as cp  # noqa: E402
import cases  # noqa: E402
from ptx_text import modules, ptx_entries  # noqa: E402
import reference as ref  # noqa: E402

WARP = 32
rng = np.random.default_rng(1234)


def memref_args(array, n=None):
    n = array.size if n is None else n
    return [array, array, np.int64(0), np.int64(n), np.int64(1)]


def uint_view(array):
    return array.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[array.dtype.itemsize])


def random_payload(type_name, lanes=WARP):
    p = cases.PAYLOADS[type_name]
    n = lanes * p["lanes"]
    dtype = np.dtype(p["dtype"])
    if type_name == "i1":
        return rng.integers(0, 2, n).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)



def same_kernels(bundle, reference):
    """(module, kernel) pairs whose PTX is the same in both bundles as
    ptx_text.ptx_entries compares it (all but the .version and .target
    lines, the next entry's .globl comment and label numbers): the
    simulator ignores the target, so running them again checks nothing
    new."""
    same = set()
    for name in modules(bundle):
        other = os.path.join(reference, name)
        if not os.path.exists(other):
            continue
        (preamble, ours), (their_preamble, theirs) = (ptx_entries(os.path.join(bundle, name)),
                                                      ptx_entries(other))
        if preamble == their_preamble:
            same |= {(name, k) for k, text in ours.items() if theirs.get(k) == text}
    return same


class Suite:
    def __init__(self, bundle, reference=None):
        self.bundle = bundle
        self.modules = {}
        self.passed = 0
        self.failed = 0
        self.failures = []
        # Kernels whose PTX is the same as in the reference bundle (another
        # chip's, already run): their cases are left out.
        self.same = same_kernels(bundle, reference) if reference else set()
        self.skipped = 0

    def selected(self, case_list):
        """The cases of `case_list` whose kernel is not the reference's."""
        for case in case_list:
            if self.key(case) in self.same:
                self.skipped += 1
                continue
            yield case

    @staticmethod
    def key(case):
        return (case.get("ptx") or case["family"] + ".ptx", case.get("kernel", case["name"]))

    def function(self, case):
        ptx, kernel = self.key(case)
        if ptx not in self.modules:
            self.modules[ptx] = cp.RawModule(path=os.path.join(self.bundle, ptx))
        return self.modules[ptx].get_function(kernel)


    def record(self, case, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(f"FAIL {case['name']}: {detail}")


def lane_values(array, type_name):
    e = cases.PAYLOADS[type_name]["lanes"]
    return [array[l * e:(l + 1) * e] for l in range(len(array) // e)]


# ----------------------------------------------------------------------------
# Shuffles, against the reference rule and the nvcc oracle
# ----------------------------------------------------------------------------

ORACLE_TYPES = {"i32": "int", "f32": "float", "i64": "long long", "f64": "double",
                "f16": "__half", "v2f16": "__half2", "bf16": "__nv_bfloat16",
                "v2bf16": "__nv_bfloat162"}
ORACLE_CALL = {"idx": "__shfl_sync(0xffffffffu, in[l], off, W)",
               "xor": "__shfl_xor_sync(0xffffffffu, in[l], off, W)",
               "up": "__shfl_up_sync(0xffffffffu, in[l], (unsigned)off, W)",
               "down": "__shfl_down_sync(0xffffffffu, in[l], (unsigned)off, W)"}


def build_oracle(workdir):
    lines = ["#include <cuda_fp16.h>", "#include <cuda_bf16.h>"]
    for case in cases.shuffle_cases():
        ctype = ORACLE_TYPES.get(case["type"])
        if not ctype:
            continue
        call = ORACLE_CALL[case["mode"]].replace("W", str(case["width"]))
        lines.append(f'extern "C" __global__ void oracle_{case["name"]}(const {ctype}* in, '
                     f'{ctype}* out, int off) {{ int l = threadIdx.x; out[l] = {call}; }}')
    # Run-time width (dyn_width_shuffle): `int w` argument. (Not
    # gpu_shuffle_dyn: upstream's gpu.shuffle width is no CUDA segment width.)
    dyn = sorted({(c["mode"], c["type"]) for c in cases.dyn_width_shuffle_cases()})
    for mode, type_name in dyn:
        ctype = ORACLE_TYPES[type_name]
        call = ORACLE_CALL[mode].replace("W", "w")
        lines.append(f'extern "C" __global__ void oracle_dyn_{mode}_{type_name}(const {ctype}* in, '
                     f'{ctype}* out, int off, int w) {{ int l = threadIdx.x; out[l] = {call}; }}')
    src = os.path.join(workdir, "oracle.cu")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    # The simulator interprets PTX: the oracle is nvcc's PTX there, and
    # without nvcc the comparisons with it are skipped (and said so).
    nvcc = shutil.which("nvcc") or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                                                "bin", "nvcc")
    if BACKEND == "sim" and not os.path.exists(nvcc):
        print("oracle: no nvcc here, the comparisons with nvcc's __shfl_*_sync are skipped")
        return None
    kind = "ptx" if BACKEND == "sim" else "cubin"
    binary = os.path.join(workdir, "oracle." + kind)
    subprocess.run([nvcc, "-" + kind, "-arch=sm_90", "-o", binary, src], check=True)
    return cp.RawModule(path=binary)


def shuffle_mismatches(out, valid, src_bits, e, sources):
    """The lanes (in order) whose `e` result elements are not the bits of
    their source lane's, or whose valid bit is not the reference's;
    `sources` holds each lane's (source lane, valid) from the reference."""
    src = np.array([src for src, _ in sources])
    ok = np.array([ok for _, ok in sources], dtype=bool)
    got = out[:WARP * e].reshape(WARP, e)
    want = src_bits[:WARP * e].reshape(WARP, e)[src]
    wrong = (got != want).any(axis=1) | (valid[:WARP].astype(bool) != ok)
    return [int(lane) for lane in np.flatnonzero(wrong)]


def run_shuffles(suite, oracle):
    """Every shuffle case against the reference rule and, where nvcc is
    here, nvcc's __shfl_*_sync (`oracle()`: its module, or None)."""
    for case in suite.selected(cases.shuffle_cases()):
        fn = suite.function(case)
        p = cases.PAYLOADS[case["type"]]
        host_in = random_payload(case["type"])
        d_in = cp.asarray(host_in)
        d_out = cp.zeros_like(d_in)
        d_valid = cp.zeros(WARP, dtype=np.int32)
        o_out = cp.zeros_like(d_in)
        ofn = oracle().get_function("oracle_" + case["name"]) \
            if case["type"] in ORACLE_TYPES and oracle() else None
        problems = []
        for off in cases.OFFSETS:
            fn((1,), (WARP,), memref_args(d_in) + memref_args(d_out) + memref_args(d_valid) + [np.int32(off)])
            out = uint_view(cp.asnumpy(d_out))
            valid = cp.asnumpy(d_valid)
            src_bits = uint_view(host_in)
            e = p["lanes"]
            sources = [ref.shuffle_source(case["mode"], lane, off, case["width"])
                       for lane in range(WARP)]
            for lane in shuffle_mismatches(out, valid, src_bits, e, sources):
                src, ok = sources[lane]
                problems.append(f"off={off} lane={lane} src={src} valid={valid[lane]} want {int(ok)}")
            if ofn is not None:
                ofn((1,), (WARP,), (d_in, o_out, np.int32(off)))
                if not np.array_equal(uint_view(cp.asnumpy(o_out)), out):
                    problems.append(f"off={off} differs from nvcc __shfl_*_sync")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_masked_shuffles(suite):
    sentinel = np.int32(-7)
    for case in suite.selected(cases.masked_shuffle_cases()):
        fn = suite.function(case)
        host_in = np.arange(100, 100 + WARP, dtype=np.int32)
        problems = []
        for mask in cases.MASKS:
            for off in (0, 1, 3, 5, 16, 31):
                d_out = cp.full(WARP, sentinel, dtype=np.int32)
                d_valid = cp.full(WARP, sentinel, dtype=np.int32)
                fn((1,), (WARP,), memref_args(cp.asarray(host_in)) + memref_args(d_out)
                   + memref_args(d_valid) + [np.int32(off), np.uint32(mask).view(np.int32)])
                out, valid = cp.asnumpy(d_out), cp.asnumpy(d_valid)
                for lane in range(WARP):
                    member = (mask >> lane) & 1
                    if not member:
                        if out[lane] != sentinel:
                            problems.append(f"mask={mask:#x} lane {lane} outside the mask wrote")
                        continue
                    src, ok = ref.shuffle_source(case["mode"], lane, off, case["width"])
                    if bool(valid[lane]) != ok:
                        problems.append(f"mask={mask:#x} off={off} lane={lane} valid")
                    if (mask >> src) & 1 and out[lane] != host_in[src]:
                        problems.append(f"mask={mask:#x} off={off} lane={lane} got {out[lane]} want {host_in[src]}")
        suite.record(case, not problems, "; ".join(problems[:3]))


match_bits_rng = np.random.default_rng(41)  # apart from `rng`, as masked_scan_rng


def run_match_bits(suite):
    """match_any of the low bits under each member mask: values that agree
    on a few low patterns and differ above them (random high bits), so that
    a lowering comparing too many or too few bits is seen."""
    sentinel = np.int32(-7)
    for case in suite.selected(cases.match_bits_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        width, bits = dtype.itemsize * 8, case["bits"]
        low = (1 << bits) - 1
        problems = []
        for mask in cases.MASKS:
            for trial in range(3):
                lows = match_bits_rng.choice([0, 1, 5, low], WARP) & low
                highs = match_bits_rng.integers(0, 1 << 62, WARP, dtype=np.uint64) << np.uint64(2)
                highs = highs & np.uint64(((1 << width) - 1) & ~low)
                values = highs | lows.astype(np.uint64)
                if trial == 2:  # every lane the same low bits
                    values = highs | np.uint64(lows[0])
                host_in = values.astype(np.uint64 if width == 64 else np.uint32).view(dtype)
                d_out = cp.full(WARP, sentinel, dtype=np.int32)
                fn((1,), (WARP,), memref_args(cp.asarray(host_in)) + memref_args(d_out)
                   + [np.uint32(mask).view(np.int32)])
                out = cp.asnumpy(d_out).view(np.uint32)
                for lane in range(WARP):
                    if not (mask >> lane) & 1:
                        if out[lane] != np.uint32(sentinel.view(np.uint32)):
                            problems.append(f"mask={mask:#x} lane {lane} outside the mask wrote")
                        continue
                    want = ref.match_any_low_bits(values, lane, bits, mask)
                    if int(out[lane]) != want:
                        problems.append(f"mask={mask:#x} lane {lane}: got {int(out[lane]):#x} "
                                        f"want {want:#x}")
        suite.record(case, not problems, "; ".join(problems[:3]))


# ----------------------------------------------------------------------------
# Reductions and scans
# ----------------------------------------------------------------------------

def float_inputs(kind, type_name, trial):
    """Trial 0: ordinary values; 1: NaNs and signed zeros for min/max."""
    values = random_payload(type_name)
    if trial == 1:
        values[rng.integers(0, values.size, 3)] = np.nan
        values[rng.integers(0, values.size, 4)] = 0.0
        values[rng.integers(0, values.size, 4)] = -0.0
    if trial == 2:  # all NaN in some clusters, signed zeros only elsewhere
        values[:] = np.where(rng.integers(0, 2, values.size) == 1, 0.0, -0.0)
        values[:4] = np.nan
    if kind == "mul":
        values = (1.0 + 0.05 * values).astype(values.dtype)
    return values


def same(got, want, kind, dtype):
    return bool(np.all(equal_elements(got, want, kind, dtype)))


def equal_elements(got, want, kind, dtype):
    """Element-wise: bit-equal, or both NaN, or (minnumf/maxnumf) equal as
    numbers, or (f16) within rounding."""
    got = np.asarray(got, dtype=dtype)
    want = np.asarray(want, dtype=dtype)
    if np.dtype(dtype).kind != "f":
        return got == want
    both_nan = np.isnan(got) & np.isnan(want)
    if kind in ("minnumf", "maxnumf"):
        # maxNum/minNum may return either zero for (-0, +0).
        equal = (got == want) | both_nan
    elif np.dtype(dtype) == np.float16:
        equal = (uint_view(got) == uint_view(want)) | both_nan | (np.abs(got.astype(np.float32) - want.astype(np.float32)) <= 2e-3 * np.maximum(1, np.abs(want.astype(np.float32))))
    else:
        equal = (uint_view(got) == uint_view(want)) | both_nan
    return equal


def run_reduces(suite):
    for case in suite.selected(cases.reduce_cases()):
        fn = suite.function(case)
        p = cases.PAYLOADS[case["type"]]
        dtype, e = np.dtype(p["dtype"]), p["lanes"]
        trials = [0, 1, 2] if case["kind"] in ("minnumf", "maxnumf", "minimumf", "maximumf") else [0]
        problems = []
        for trial in trials:
            host_in = float_inputs(case["kind"], case["type"], trial) if dtype.kind == "f" else random_payload(case["type"])
            d_in = cp.asarray(host_in)
            d_out = cp.zeros_like(d_in)
            if case["family"] == "partial_reduce":
                for n in cases.VALID_LANES:
                    fn((1,), (WARP,), memref_args(d_in) + memref_args(d_out) + [np.int32(n)])
                    out = lane_values(cp.asnumpy(d_out), case["type"])
                    want = ref.reduce_partial(case["kind"], lane_values(host_in, case["type"]), n, dtype, e)
                    if dtype.kind != "f":  # independent check: plain fold over lanes 0..n-1
                        plain = lane_values(host_in, case["type"])[0]
                        for lane in range(1, n):
                            plain = ref.combine_lanes(case["kind"], plain, lane_values(host_in, case["type"])[lane], dtype, e)
                        assert np.array_equal(plain, want)
                    for lane in range(WARP):
                        if not same(out[lane], want, case["kind"], dtype):
                            problems.append(f"trial={trial} n={n} lane={lane} got {out[lane]} want {want}")
                continue
            fn((1,), (WARP,), memref_args(d_in) + memref_args(d_out))
            out = lane_values(cp.asnumpy(d_out), case["type"])
            values = lane_values(host_in, case["type"])
            for members in ref.clusters(*case["cluster"]):
                result = ref.reduce_cluster(case["kind"], [values[l] for l in members], dtype, e)
                checked = members if case["lanes"] == "all" else members[:1]
                for idx, lane in enumerate(checked):
                    if not same(out[lane], result[idx], case["kind"], dtype):
                        problems.append(f"trial={trial} lane={lane} got {out[lane]} want {result[idx]}")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_masked_reduces(suite):
    sentinel = -7
    for case in suite.selected(cases.masked_reduce_cases()):
        fn = suite.function(case)
        p = cases.PAYLOADS[case["type"]]
        dtype = np.dtype(p["dtype"])
        problems = []
        for mask in case["masks"]:
            host_in = random_payload(case["type"]) if dtype.kind != "f" else \
                rng.standard_normal(WARP).astype(dtype)
            d_out = cp.full(WARP, sentinel, dtype=dtype)
            fn((1,), (WARP,), memref_args(cp.asarray(host_in)) + memref_args(d_out)
               + [np.uint32(mask).view(np.int32)])
            out = cp.asnumpy(d_out)
            values = lane_values(host_in, case["type"])
            for members in ref.clusters(*case["cluster"]):
                live = [l for l in members if (mask >> l) & 1]
                if not live:
                    continue
                # A whole-warp cluster under a partial mask reduces the
                # mask's lanes (redux.sync); smaller clusters are whole.
                result = ref.reduce_cluster(case["kind"], [values[l] for l in live], dtype, 1) \
                    if len(live) & (len(live) - 1) == 0 else None
                if result is None:  # non-power-of-two live set: fold in lane order
                    acc = values[live[0]]
                    for l in live[1:]:
                        acc = ref.combine_lanes(case["kind"], acc, values[l], dtype, 1)
                    result = [acc] * len(live)
                for idx, lane in enumerate(live):
                    if not same(out[lane], result[idx][0], case["kind"], dtype):
                        problems.append(f"mask={mask:#x} lane={lane} got {out[lane]} want {result[idx][0]}")
            for lane in range(WARP):
                if not (mask >> lane) & 1 and out[lane] != sentinel:
                    problems.append(f"mask={mask:#x} lane {lane} outside the mask wrote")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_scans(suite):
    for case in suite.selected(cases.scan_cases()):
        fn = suite.function(case)
        p = cases.PAYLOADS[case["type"]]
        dtype = np.dtype(p["dtype"])
        host_in = random_payload(case["type"]) if dtype.kind != "f" else rng.standard_normal(WARP).astype(dtype)
        if case["kind"] == "mul" and dtype.kind != "f":
            host_in = rng.integers(-3, 4, WARP).astype(dtype)
        d_in = cp.asarray(host_in)
        d_out, d_total = cp.zeros_like(d_in), cp.zeros_like(d_in)
        fn((1,), (WARP,), memref_args(d_in) + memref_args(d_out) + memref_args(d_total))
        out, total = cp.asnumpy(d_out), cp.asnumpy(d_total)
        values = lane_values(host_in, case["type"])
        want, want_total = ref.scan(case["kind"], values, case["width"], case["exclusive"],
                                    case["reverse"], dtype, 1)
        problems = []
        for lane in range(WARP):
            if not same(out[lane], want[lane][0], case["kind"], dtype):
                problems.append(f"lane={lane} got {out[lane]} want {want[lane][0]}")
            if not same(total[lane], want_total[lane][0], case["kind"], dtype):
                problems.append(f"lane={lane} total got {total[lane]} want {want_total[lane][0]}")
            if dtype.kind != "f":  # independent check: the prefix by definition
                w = case["width"]
                pos, base = lane % w, lane - lane % w
                span = (range(pos + (0 if not case["exclusive"] else 1), w) if case["reverse"]
                        else range(0, pos + (0 if case["exclusive"] else 1)))
                acc = ref.identity(case["kind"], dtype)
                for q in span:
                    acc = ref.combine(case["kind"], acc, host_in[base + q], dtype)
                if acc != want[lane][0]:
                    problems.append(f"reference model disagrees with the definition at lane {lane}")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_segmented_scans(suite):
    """Checked against the definition: each lane combines, in order, the
    values of its segment (bounded by head flags and the width) before it
    (or after it, reversed). Values are small integers, exact in f32."""
    for case in suite.selected(cases.segmented_scan_cases()):
        if case.get("masks"):
            run_masked_segmented_scan(suite, case)
            continue
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        problems = []
        for trial in range(4):
            values = rng.integers(-4, 5, WARP).astype(dtype)
            heads = (rng.random(WARP) < (0.0, 0.15, 0.5, 1.0)[trial]).astype(np.int32)
            d_out, d_total = cp.zeros(WARP, dtype), cp.zeros(WARP, dtype)
            fn((1,), (WARP,), memref_args(cp.asarray(values)) + memref_args(cp.asarray(heads))
               + memref_args(d_out) + memref_args(d_total))
            out, total = cp.asnumpy(d_out), cp.asnumpy(d_total)
            for lane in range(WARP):
                acc, whole = segmented_scan_lane(case, lane, values, dtype,
                                                 lambda l: heads[l], lambda l: heads[l])
                if out[lane] != acc or total[lane] != whole:
                    problems.append(f"trial={trial} lane={lane} got {out[lane]}/{total[lane]} "
                                    f"want {acc}/{whole}")
        suite.record(case, not problems, "; ".join(problems[:3]))


def segmented_scan_lane(case, lane, values, dtype, starts, ends_before):
    """(scan value, segment total) of `lane`: its segment runs within its
    `width` group from the last lane at or below it where `starts(l)`, up to
    the lane before the first lane above it where `ends_before(l)`."""
    w = case["width"]
    base = lane - lane % w
    start = max([base] + [l for l in range(base, lane + 1) if starts(l)])
    end = min([base + w - 1] + [l - 1 for l in range(lane + 1, base + w) if ends_before(l)])
    if case["reverse"]:
        span = range(lane + (1 if case["exclusive"] else 0), end + 1)
    else:
        span = range(start, lane + (0 if case["exclusive"] else 1))
    acc = ref.identity(case["kind"], dtype)
    for q in span:
        acc = ref.combine(case["kind"], acc, values[q], dtype)
    whole = ref.identity(case["kind"], dtype)
    for q in range(start, end + 1):
        whole = ref.combine(case["kind"], whole, values[q], dtype)
    return acc, whole


masked_scan_rng = np.random.default_rng(26)  # apart from `rng`: other steps' data stay


def run_masked_segmented_scan(suite, case):
    """A segmented scan under member masks made of whole segments: only the
    mask's lanes execute, and a lane's segment is bounded by the head flags,
    the width and the mask's edges (a lane whose lower neighbour is outside
    the mask starts one, a lane whose upper neighbour is outside ends one).
    The masks (reference.segment_mask): unions of random whole segments of
    the trial's flags, fixed masks with the heads that cut segments at their
    edges, and fixed masks whose edges alone bound segments. Values are
    mostly negative, so that a 0 read from outside the mask shows in maxsi."""
    fn = suite.function(case)
    dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
    problems = []
    for trial in range(4):
        for spec in case["masks"]:
            values = masked_scan_rng.integers(-9, 3, WARP).astype(dtype)
            heads = (masked_scan_rng.random(WARP) < (0.0, 0.15, 0.5, 1.0)[trial]).astype(np.int32)
            mask, heads = ref.segment_mask(spec, case, heads, masked_scan_rng)
            d_out = cp.full(WARP, -77, dtype)
            d_total = cp.full(WARP, -77, dtype)
            fn((1,), (WARP,), memref_args(cp.asarray(values)) + memref_args(cp.asarray(heads))
               + memref_args(d_out) + memref_args(d_total) + [signed32(mask)])
            out, total = cp.asnumpy(d_out), cp.asnumpy(d_total)

            def member(l):
                return 0 <= l < WARP and (mask >> l) & 1

            for lane in range(WARP):
                if not member(lane):
                    if out[lane] != -77 or total[lane] != -77:
                        problems.append(f"mask={mask:#x} lane {lane} outside the mask wrote")
                    continue
                acc, whole = segmented_scan_lane(
                    case, lane, values, dtype,
                    lambda l: heads[l] or not member(l - 1), lambda l: heads[l] or not member(l))
                if out[lane] != acc or total[lane] != whole:
                    problems.append(f"trial={trial} mask={mask:#x} lane={lane} got "
                                    f"{out[lane]}/{total[lane]} want {acc}/{whole}")
    suite.record(case, not problems, "; ".join(problems[:3]))


# ----------------------------------------------------------------------------
# Votes, ids, broadcasts; block reduce with ragged warps
# ----------------------------------------------------------------------------

def popc(x):
    return bin(x & 0xFFFFFFFF).count("1")


def run_votes(suite):
    case = dict(name="votes", ptx="votes.ptx")
    fn = suite.function(case)
    n = 2 * WARP
    problems = []
    for trial in range(8):
        pred = rng.integers(0, 2, n).astype(np.int32)
        keys = rng.integers(0, 3, n).astype(np.int32)
        if trial == 1:
            pred[:] = 1
        if trial == 2:
            pred[:] = 0
        if trial in (3, 4):
            keys[:WARP] = 5
        src = int(rng.integers(0, WARP))
        d_out = cp.zeros(19 * n, dtype=np.int32)
        fn((1,), (n,), memref_args(cp.asarray(keys)) + memref_args(cp.asarray(pred)) + memref_args(d_out) + [np.int32(src)])
        out = cp.asnumpy(d_out).view(np.uint32).reshape(19, n)
        for i in range(n):
            warp, lane = divmod(i, WARP)
            k = keys[warp * WARP:(warp + 1) * WARP]
            p = pred[warp * WARP:(warp + 1) * WARP]
            ballot = sum(int(p[l]) << l for l in range(WARP))
            same_keys = sum(1 << l for l in range(WARP) if k[l] == k[lane])
            all_same = all(k[l] == k[0] for l in range(WARP))
            want = [ballot, int(ballot != 0), int(ballot == 0xFFFFFFFF),
                    int(ballot in (0, 0xFFFFFFFF)), same_keys,
                    0xFFFFFFFF if all_same else 0, int(all_same),
                    popc(ballot & ((1 << lane) - 1)), popc(ballot),
                    (1 << lane) - 1, (1 << (lane + 1)) - 1, 1 << lane,
                    (0xFFFFFFFF << lane) & 0xFFFFFFFF, (0xFFFFFFFF << (lane + 1)) & 0xFFFFFFFF,
                    lane, int(k[src]) & 0xFFFFFFFF,
                    int(k[1]) & 0xFFFFFFFF if lane % 3 == 1 else 0xFFFFFFFF,
                    warp, warp]
            names = ["ballot", "any", "all", "uni", "match_any", "match_all", "match_all.pred",
                     "compact.offset", "compact.count", "lanemask.lt", "lanemask.le", "lanemask.eq",
                     "lanemask.ge", "lanemask.gt", "lane_id", "broadcast", "broadcast_first",
                     "warp_id", "warp_id.linear"]
            for j, w in enumerate(want):
                if int(out[j][i]) != w:
                    problems.append(f"trial={trial} thread={i} {names[j]} got {int(out[j][i]):#x} want {w:#x}")
    suite.record(case, not problems, "; ".join(problems[:4]))


def run_blocks(suite):
    case = dict(name="block_sum", ptx="block_reduce.ptx")
    fn = suite.function(case)
    for block in cases.BLOCK_SIZES:
        grid = 3
        host_in = rng.integers(-8, 9, grid * block).astype(np.float32)
        d_out = cp.zeros(grid, dtype=np.float32)
        fn((grid,), (block,), memref_args(cp.asarray(host_in)) + memref_args(d_out))
        got = cp.asnumpy(d_out)
        want = host_in.reshape(grid, block).sum(axis=1)
        suite.record(dict(name=f"block_sum_{block}"), np.array_equal(got, want),
                     f"got {got} want {want}")


# ----------------------------------------------------------------------------
# Programs CUDA defines that the compiler must accept and get right
# ----------------------------------------------------------------------------

def run_dyn_shuffles(suite, oracle, case_list):
    """Shuffles with a run-time width (warp.shuffle `width %w`): every width
    and offset of the case, every lane, against the reference rule and
    nvcc's __shfl_*_sync with the same int width."""
    for case in case_list:
        fn = suite.function(case)
        p = cases.PAYLOADS[case["type"]]
        e = p["lanes"]
        host_in = random_payload(case["type"])
        src_bits = uint_view(host_in)
        d_in = cp.asarray(host_in)
        d_out, o_out = cp.zeros_like(d_in), cp.zeros_like(d_in)
        d_valid = cp.zeros(WARP, dtype=np.int32)
        ofn = oracle().get_function(f"oracle_dyn_{case['mode']}_{case['type']}") if oracle() else None
        problems = []
        for width in case["widths"]:
            for off in case["offsets"]:
                fn((1,), (WARP,), memref_args(d_in) + memref_args(d_out) + memref_args(d_valid)
                   + [np.int32(off), np.int32(width)])
                out = uint_view(cp.asnumpy(d_out))
                valid = cp.asnumpy(d_valid)
                sources = [ref.shuffle_source(case["mode"], lane, off, width)
                           for lane in range(WARP)]
                for lane in shuffle_mismatches(out, valid, src_bits, e, sources):
                    src, ok = sources[lane]
                    problems.append(f"w={width} off={off} lane={lane} src={src} "
                                    f"valid={valid[lane]} want {int(ok)}")
                if ofn is None:
                    continue
                ofn((1,), (WARP,), (d_in, o_out, np.int32(off), np.int32(width)))
                if not np.array_equal(uint_view(cp.asnumpy(o_out)), out):
                    problems.append(f"w={width} off={off} differs from nvcc __shfl_*_sync")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_gpu_shuffles(suite):
    """Upstream gpu.shuffle through --convert-gpu-to-warp (cases.py
    gpu_shuffle_dyn_cases), every width 1..32, against upstream's meaning of
    `width` (reference.gpu_shuffle_source), not CUDA's segments: no nvcc
    oracle here, since __shfl_*_sync's width is another contract. Each lane
    below the width gets its source's bits and valid bit; the lanes at and
    past it skip the shuffle (the kernel's `tid < width` guard, or no such
    thread: the run-time width also runs in a block of `width` threads, as
    upstream's shuffle.mlir does) and must leave their slots alone."""
    for case in suite.selected(cases.gpu_shuffle_dyn_cases()):
        fn = suite.function(case)
        p = cases.PAYLOADS[case["type"]]
        e = p["lanes"]
        host_in = random_payload(case["type"])
        src_bits = uint_view(host_in)
        d_in = cp.asarray(host_in)
        # (threads, scalar arguments, (width, offset) of each 32-lane slot)
        if case["variant"] == "dyn":
            launches = [(block, [np.int32(off), np.int32(width)], [(width, off)])
                        for width in case["widths"] for block in sorted({width, WARP})
                        for off in case["offsets"]]
        elif case["variant"] == "const_width":
            launches = [(WARP, [np.int32(off)], [(width, off) for width in case["widths"]])
                        for off in case["offsets"]]
        else:
            launches = [(WARP, [np.int32(0)], [(width, off) for width in case["widths"]
                                               for off in case["offsets"]])]
        problems = []
        for block, scalars, slots in launches:
            n = len(slots) * WARP
            untouched = np.full(n * e, 0xA5A5A5A5A5A5A5A5, dtype=np.uint64).astype(src_bits.dtype)
            d_out = cp.asarray(untouched.view(host_in.dtype))
            d_valid = cp.full(n, -7, dtype=np.int32)
            fn((1,), (block,), memref_args(d_in) + memref_args(d_out) + memref_args(d_valid)
               + scalars)
            out = uint_view(cp.asnumpy(d_out)).reshape(n, e)
            valid = cp.asnumpy(d_valid)
            # Lanes at and past the width keep the untouched pattern and -7.
            want, want_valid = untouched.reshape(n, e).copy(), np.full(n, -7, dtype=np.int32)
            for slot, (width, off) in enumerate(slots):
                for lane in range(min(width, WARP)):
                    src, ok = ref.gpu_shuffle_source(case["mode"], lane, off, width)
                    want[slot * WARP + lane] = src_bits[src * e:(src + 1) * e]
                    want_valid[slot * WARP + lane] = int(ok)
            wrong = (out != want).any(axis=1) | (valid != want_valid)
            for at in np.flatnonzero(wrong)[:3]:
                (width, off), lane = slots[at // WARP], at % WARP
                problems.append(f"w={width} off={off} threads={block} lane={lane} "
                                f"got {out[at]}/{valid[at]} want {want[at]}/{want_valid[at]}")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_shfl_any_offsets(suite):
    """Constant offsets outside [0, width): PTX uses the low 5 bits."""
    for case in suite.selected(cases.shfl_any_offset_cases()):
        fn = suite.function(case)
        host_in = rng.integers(-2 ** 31, 2 ** 31, WARP, dtype=np.int64).astype(np.int32)
        d_out = cp.zeros(WARP, dtype=np.int32)
        d_valid = cp.full(WARP, -7, dtype=np.int32)
        fn((1,), (WARP,), memref_args(cp.asarray(host_in)) + memref_args(d_out) + memref_args(d_valid))
        out, valid = cp.asnumpy(d_out), cp.asnumpy(d_valid)
        problems = []
        for lane in range(WARP):
            src, ok = ref.shuffle_source(case["mode"], lane, case["offset"] & 0xFFFFFFFF, case["width"])
            if out[lane] != host_in[src] or valid[lane] != int(ok):
                problems.append(f"lane={lane} got {out[lane]}/{valid[lane]} want lane {src}'s "
                                f"{host_in[src]}/{int(ok)}")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_broadcast_any_lane(suite):
    """warp.broadcast from a run-time lane index: lane src mod 32."""
    n = 2 * WARP
    for case in suite.selected(cases.broadcast_any_lane_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        problems = []
        for src in case["sources"]:
            host_in = random_payload(case["type"], n)
            d_out = cp.zeros(n, dtype=dtype)
            fn((1,), (n,), memref_args(cp.asarray(host_in)) + memref_args(d_out) + [np.int32(src)])
            out = cp.asnumpy(d_out)
            for i in range(n):
                want = host_in[i - i % WARP + ref.broadcast_source(src)]
                if out[i] != want:
                    problems.append(f"src={src} thread={i} got {out[i]} want {want}")
        suite.record(case, not problems, "; ".join(problems[:3]))


# Bit patterns for match: +0.0, -0.0, two NaNs with different payloads, a
# negative NaN, 1.0 and its neighbour, +inf (and, for f64, patterns equal in
# one 32-bit half only).
MATCH_BITS = {
    "f32": [0x00000000, 0x80000000, 0x7FC00000, 0x7FC00001, 0xFFC00000, 0x3F800000,
            0x3F800001, 0x7F800000],
    "f64": [0x0000000000000000, 0x8000000000000000, 0x7FF8000000000000, 0x7FF8000000000001,
            0xFFF8000000000000, 0x3FF0000000000000, 0x3FF0000000000001, 0x3FF1000000000000,
            0x7FF0000000000000],
}


def run_match_float(suite):
    """match_any/match_all on f32 and f64, compared bit for bit."""
    n = 2 * WARP
    for case in suite.selected(cases.match_float_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        udtype = np.uint32 if dtype.itemsize == 4 else np.uint64
        palette = np.array(MATCH_BITS[case["type"]], dtype=udtype)
        problems = []
        for trial in range(6):
            bits = palette[rng.integers(0, len(palette), n)]
            if trial == 1:  # warp 0: all +0.0; warp 1: +0.0 but one -0.0
                bits[:] = palette[0]
                bits[WARP + 17] = palette[1]
            if trial == 2:  # warp 0: one NaN pattern; warp 1: two NaN patterns
                bits[:] = palette[2]
                bits[WARP + 3] = palette[3]
            if trial == 3:  # warp 0: all 1.0; warp 1: 1.0 but one neighbour
                bits[:] = palette[5]
                bits[WARP + 31] = palette[6]
            if trial == 4:  # each warp uniform: -0.0 and the negative NaN
                bits[:WARP], bits[WARP:] = palette[1], palette[4]
            if trial == 5 and case["type"] == "f64":  # same high half, low half differs
                bits[:] = palette[2]
                bits[5] = palette[3]
                bits[WARP:] = palette[5]
                bits[WARP + 9] = palette[7]  # same low half, high half differs
            d_out = cp.full(3 * n, -7, dtype=np.int32)
            fn((1,), (n,), memref_args(cp.asarray(bits.view(dtype))) + memref_args(d_out))
            out = cp.asnumpy(d_out).view(np.uint32).reshape(3, n)
            for i in range(n):
                wbits = bits[i - i % WARP:i - i % WARP + WARP]
                mall, mpred = ref.match_all(wbits)
                want = [ref.match_any(wbits, i % WARP), mall, int(mpred)]
                for j, name in enumerate(["match_any", "match_all", "match_all.pred"]):
                    if int(out[j][i]) != want[j]:
                        problems.append(f"trial={trial} thread={i} {name} got {int(out[j][i]):#x} "
                                        f"want {want[j]:#x}")
        suite.record(case, not problems, "; ".join(problems[:3]))


def same_bits(got, want, kind, dtype):
    """Float add/mul must be bit-exact in the documented order (NaN matches
    NaN); the min/max kinds follow same()."""
    if np.dtype(dtype).kind == "f" and kind in ("add", "mul"):
        got, want = np.asarray(got, dtype=dtype), np.asarray(want, dtype=dtype)
        return bool(np.all((uint_view(got) == uint_view(want)) | (np.isnan(got) & np.isnan(want))))
    return same(got, want, kind, dtype)


def run_any_mask_reduces(suite):
    """warp.reduce under any member mask (__reduce_*_sync(mask, v)): only the
    mask's lanes execute; each gets the reduction over the mask's lanes of its
    cluster, in the documented rank-order tree."""
    for case in suite.selected(cases.any_mask_reduce_cases()):
        fn = suite.function(case)
        p = cases.PAYLOADS[case["type"]]
        dtype, e = np.dtype(p["dtype"]), p["lanes"]
        sentinel = np.array([-7], dtype=dtype)
        trials = [0, 1, 2] if case["kind"] in ("minnumf", "maxnumf", "minimumf", "maximumf") else [0]
        problems = []
        for mask in case["masks"]:
            for trial in trials:
                host_in = float_inputs(case["kind"], case["type"], trial) if dtype.kind == "f" \
                    else random_payload(case["type"])
                d_out = cp.full(WARP * e, sentinel[0], dtype=dtype)
                fn((1,), (WARP,), memref_args(cp.asarray(host_in)) + memref_args(d_out)
                   + [np.uint32(mask).view(np.int32)])
                out = lane_values(cp.asnumpy(d_out), case["type"])
                values = lane_values(host_in, case["type"])
                for live in ref.mask_members(mask, case["cluster"]):
                    want = ref.reduce_ranks(case["kind"], [values[l] for l in live], dtype, e)
                    for lane in live:
                        if not same_bits(out[lane], want, case["kind"], dtype):
                            problems.append(f"mask={mask:#x} trial={trial} lane={lane} "
                                            f"got {out[lane]} want {want}")
                for lane in range(WARP):
                    if not (mask >> lane) & 1 and \
                            not np.array_equal(uint_view(out[lane]), uint_view(np.repeat(sentinel, e))):
                        problems.append(f"mask={mask:#x} lane {lane} outside the mask wrote")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_valid_scans(suite):
    """warp.scan ... valid_lanes %n: lanes >= n never reach the combiner.
    Checked against the definition (integers; floats holding small integers)
    and, for f32 with ordinary values, bit for bit against the documented
    Kogge-Stone order. Only lanes < n are checked; in the `ragged` form the
    other lanes do not execute and must not write."""
    sentinel = -7
    for case in suite.selected(cases.valid_scan_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        args = (case["kind"], case["width"], case["exclusive"], case["reverse"])
        problems = []
        for n in case["valid_lanes"]:
            for trial in ((0, 1) if dtype.kind == "f" else (0,)):
                if dtype.kind != "f":
                    values = rng.integers(-2 ** 31, 2 ** 31, WARP, dtype=np.int64).astype(dtype)
                else:
                    values = (rng.integers(-4, 5, WARP) if trial == 0
                              else rng.standard_normal(WARP)).astype(dtype)
                d_out, d_total = cp.full(WARP, sentinel, dtype), cp.full(WARP, sentinel, dtype)
                fn((1,), (WARP,), memref_args(cp.asarray(values)) + memref_args(d_out)
                   + memref_args(d_total) + [np.int32(n)])
                out, total = cp.asnumpy(d_out), cp.asnumpy(d_total)
                model = ref.scan_valid_ordered if trial == 1 else ref.scan_valid
                want, want_total = model(args[0], values, args[1], args[2], args[3], n, dtype)
                for lane in range(n):
                    if not same_bits(out[lane], want[lane], case["kind"], dtype) or \
                            not same_bits(total[lane], want_total[lane], case["kind"], dtype):
                        problems.append(f"n={n} trial={trial} lane={lane} got {out[lane]}/{total[lane]} "
                                        f"want {want[lane]}/{want_total[lane]}")
                if case["execute"] == "ragged":
                    for lane in range(n, WARP):
                        if out[lane] != sentinel or total[lane] != sentinel:
                            problems.append(f"n={n} lane {lane} past n wrote")
        suite.record(case, not problems, "; ".join(problems[:3]))


def arms_predicate(pattern, n):
    i = np.arange(n)
    return {"random": lambda: rng.integers(0, 2, n),
            "all": lambda: np.ones(n),
            "none": lambda: np.zeros(n),
            "alternating": lambda: i % 2,
            "lane_lt5": lambda: i % WARP < 5,
            "warp_split": lambda: (i // WARP) % 2 == 0,
            "sparse": lambda: rng.random(n) < 0.1}[pattern]().astype(np.int32)


def run_arms(suite):
    """Collectives in both arms of an scf.if: each arm's activemask is the
    lanes of the warp that took it, so one atomic per warp and arm adds that
    arm's count, broadcast_first gives the arm's lowest thread and vote any
    is over the arm's lanes. Merging or hoisting the arms (they are
    (near-)identical) gives the whole warp instead."""
    sentinel = -7
    for case in suite.selected(cases.arms_cases()):
        fn = suite.function(case)
        n = case["block"]
        problems = []
        for pattern in case["patterns"]:
            pred = arms_predicate(pattern, n)
            q = (rng.random(n) < 0.2).astype(np.int32)
            outs = [cp.full(n, sentinel, dtype=np.int32) for _ in range(4)]  # outa, outb, bf, vote
            counters = [cp.zeros(1, dtype=np.int32) for _ in range(2)]
            d_outa, d_outb, d_bf, d_vote = outs
            fn((1,), (n,), memref_args(cp.asarray(pred)) + memref_args(d_outa) + memref_args(d_outb)
               + memref_args(counters[0]) + memref_args(counters[1]) + memref_args(cp.asarray(q))
               + memref_args(d_bf) + memref_args(d_vote))
            outa, outb, bf, vote = (cp.asnumpy(o) for o in outs)
            ca, cb = (int(cp.asnumpy(c)[0]) for c in counters)
            taken = int(np.count_nonzero(pred))
            want_ca, want_cb = (taken, n - taken) if case["variant"] == "near" else (n, 0)
            if (ca, cb) != (want_ca, want_cb):
                problems.append(f"{pattern}: counters got {ca}/{cb} want {want_ca}/{want_cb}")
            for i in range(n):
                base = i - i % WARP
                same_arm = [l for l in range(base, base + WARP) if bool(pred[l]) == bool(pred[i])]
                count = len(same_arm)
                in_a = bool(pred[i]) or case["variant"] == "identical"
                want = {"outa": count if in_a else sentinel, "outb": sentinel if in_a else count,
                        "broadcast_first": same_arm[0],
                        "vote": int(any(q[l] for l in same_arm))}
                got = {"outa": outa[i], "outb": outb[i], "broadcast_first": bf[i], "vote": vote[i]}
                for name, w in want.items():
                    if got[name] != w:
                        problems.append(f"{pattern}: thread={i} {name} got {got[name]} want {w}")
        suite.record(case, not problems, "; ".join(problems[:4]))


def run_warp_id_2d(suite):
    """2-D blocks: warp_id is threadIdx.x / 32 but a hardware warp holds 32
    consecutive linear thread indices, so one warp can mix warp_ids. Reduce
    and match are checked on full hardware warps only (a ragged last warp's
    missing lanes are named by the full mask)."""
    names = ["warp_id", "broadcast", "reduce.maxui", "shuffle.idx", "shuffle.valid",
             "match_all", "match_all.pred", "warp_id.linear", "lane_id"]
    sentinel = -7
    for case in suite.selected(cases.warp_id_2d_cases()):
        fn = suite.function(case)
        for block in case["blocks"]:
            bx, by, bz = block
            n = bx * by * bz
            d_out = cp.full(len(names) * n, sentinel, dtype=np.int32)
            fn((1,), tuple(block), memref_args(d_out))
            out = cp.asnumpy(d_out).reshape(len(names), n)
            problems = []
            for t in range(n):
                hw, lane = divmod(t, WARP)
                members = range(hw * WARP, min(hw * WARP + WARP, n))
                ids = [(l % bx) // WARP for l in members]  # threadIdx.x / 32 of each lane
                uniform = all(v == ids[0] for v in ids)
                want = [(t % bx) // WARP, ids[0], max(ids), ids[0], 1,
                        -1 if uniform else 0, int(uniform), hw, lane]
                full = len(members) == WARP
                for j, w in enumerate(want):
                    if names[j] in ("reduce.maxui", "match_all", "match_all.pred") and not full:
                        continue
                    if out[j][t] != w:
                        problems.append(f"thread={t} {names[j]} got {out[j][t]} want {w}")
            suite.record(dict(name=f"{case['name']}_{bx}x{by}x{bz}"), not problems,
                         "; ".join(problems[:4]))


def thread_mismatches(label, ok, got, want, show):
    """[a line naming the first thread where `ok` is false and how many
    are], or [] when every thread is ok."""
    bad = np.flatnonzero(~np.asarray(ok))
    if not len(bad):
        return []
    t = int(bad[0])
    return [f"{label} thread={t} ({len(bad)} threads) got {show(got[t])} want {show(want[t])}"]


def block_op_inputs(type_name, kind, size, trial):
    """Values whose combination does not depend on the combine order (small
    integers for add, mostly +-1 for mul, any bits for integer kinds), so the
    reference can fold them in thread order; NaNs and signed zeros for the
    float min/max kinds. `size` counts elements (a vector payload's
    elements each)."""
    dtype = np.dtype(cases.block_op_payload(type_name)["dtype"])
    if dtype.kind != "f":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True)
    if kind == "add":
        values = rng.integers(-8, 9, size).astype(dtype)
        if trial == 1:
            values[:] = np.where(rng.integers(0, 2, size) == 1, 0.0, -0.0)
    elif kind == "mul":
        values = rng.choice(np.array([1, -1, 1, -1, 2, 0.5], dtype=dtype), size)
    else:
        values = rng.standard_normal(size).astype(dtype)
        if trial == 1:
            values[rng.integers(0, size, max(1, size // 50))] = np.nan
            values[rng.integers(0, size, max(1, size // 20))] = -0.0
    return values


def block_op_reference(kind, values, src, dtype):
    """Per thread: reduce, inclusive scan, exclusive scan, total, exclusive
    scan with init = thread 0's value, broadcast of thread src, and the
    reductions of threads 0 .. src-1 and 0 .. src/2 (valid_threads src and
    src // 2 + 1, a count below 1 taken as 1), folded in thread order
    straight from the definitions (reference.inclusive_scan: numpy's
    accumulate, the same fold as ref.combine thread after thread); then the
    block shuffles: thread t - 1's value (thread 0 its own), thread t + 1's
    (the last thread: thread 0's) and thread (t + src // 2 + 1) mod n's."""
    dtype = np.dtype(dtype)
    n = len(values)
    inclusive = ref.inclusive_scan(kind, values, dtype)
    exclusive = np.concatenate([[ref.identity(kind, dtype)], inclusive[:-1]]).astype(dtype)
    init = values[0]
    with_init = np.concatenate(
        [[init], ref.combine_arrays(kind, init, inclusive[:-1], dtype)]).astype(dtype)
    total = np.full(n, inclusive[-1], dtype=dtype)
    partial = [np.full(n, inclusive[min(max(count, 1), n) - 1], dtype=dtype)
               for count in (src, src // 2 + 1)]
    threads = np.arange(n)
    shuffles = [values[np.maximum(threads - 1, 0)],
                values[np.where(threads + 1 < n, threads + 1, 0)],
                values[(threads + src // 2 + 1) % n]]
    return [total, inclusive, exclusive, total, with_init,
            np.full(n, values[src], dtype=dtype)] + partial + shuffles


# Under compute-sanitizer (run.sh sets WARP_GPU_SHAPES=few) a handful of
# block shapes: ragged 1-D, 3-D and the largest block.
FEW_BLOCK_SHAPES = {(33, 1, 1), (7, 9, 3), (1024, 1, 1)}


def block_shapes(case):
    """The block shapes a block-op case runs over: all of the case's, or
    under WARP_GPU_SHAPES=few those of FEW_BLOCK_SHAPES where the kernel
    takes its block size at run time (a known_block_size keeps its one)."""
    if os.environ.get("WARP_GPU_SHAPES") == "few" and case["known"] is None:
        return [shape for shape in case["shapes"] if shape in FEW_BLOCK_SHAPES]
    return case["shapes"]


def run_block_ops(suite):
    """warp.block_reduce / block_scan / block_broadcast over every block shape
    of cases.BLOCK_OP_SHAPES (ragged, 2-D, 3-D), two blocks per launch, the
    broadcast from the block's last thread (in the ragged warp). A vector
    payload is checked element by element: element k of every thread's
    vector against the scalar reference over the threads' elements k."""
    names = cases.BLOCK_OP_OUTPUTS
    for case in suite.selected(cases.block_op_cases()):
        fn = suite.function(case)
        p = cases.block_op_payload(case["type"])
        dtype, e = np.dtype(p["dtype"]), p["lanes"]
        for shape in block_shapes(case):
            n = shape[0] * shape[1] * shape[2]
            grid = 2
            problems = []
            for trial in range(2):
                host_in = block_op_inputs(case["type"], case["kind"], grid * n * e, trial)
                d_out = cp.zeros(len(names) * grid * n * e, dtype=dtype)
                src = n - 1
                fn((grid,), shape, memref_args(cp.asarray(host_in), grid * n)
                   + memref_args(d_out, len(names) * grid * n) + [np.int32(src)])
                out = cp.asnumpy(d_out).reshape(len(names), grid, n, e)
                elements = host_in.reshape(grid, n, e)
                for blk in range(grid):
                    want = [block_op_reference(case["kind"], elements[blk, :, k], src, dtype)
                            for k in range(e)]
                    for j, name in enumerate(names):
                        got = out[j][blk]
                        exp = np.array([want[k][j] for k in range(e)], dtype=dtype).T
                        ok = np.all(equal_elements(got, exp, case["kind"], dtype), axis=1)
                        if e == 1:
                            got, exp = got[:, 0], exp[:, 0]
                        problems += thread_mismatches(
                            f"trial={trial} block={blk} {name}", ok, got, exp, repr)
            suite.record(dict(name=f"{case['name']}_{'x'.join(map(str, shape))}"),
                         not problems, "; ".join(problems[:3]))


def run_block_scan_orders(suite):
    """warp.block_scan <add> over random floats against
    reference.block_scan_order (the documented combine order of the case's
    algorithm), bit for bit: inclusive, exclusive, total and exclusive with
    init (thread 0's value) of every thread of both blocks of a launch."""
    names = cases.BLOCK_OP_OUTPUTS
    checked = ["scan", "exclusive", "total", "exclusive_init"]
    for case in suite.selected(cases.block_scan_order_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        for shape in case["shapes"]:
            n = shape[0] * shape[1] * shape[2]
            grid = 2
            host_in = (rng.standard_normal(grid * n) * 1000).astype(dtype)
            d_out = cp.zeros(len(names) * grid * n, dtype=dtype)
            fn((grid,), shape, memref_args(cp.asarray(host_in)) + memref_args(d_out)
               + [np.int32(0)])
            out = uint_view(cp.asnumpy(d_out)).reshape(len(names), grid, n)
            problems = []
            for blk in range(grid):
                values = host_in[blk * n:(blk + 1) * n]
                incl, total = ref.block_scan_order(case["algorithm"], values, dtype)
                excl, _ = ref.block_scan_order(case["algorithm"], values, dtype, exclusive=True)
                excl_init, _ = ref.block_scan_order(case["algorithm"], values, dtype,
                                                    init=values[0], exclusive=True)
                want = {"scan": incl, "exclusive": excl, "total": [total] * n,
                        "exclusive_init": excl_init}
                for name in checked:
                    got = out[names.index(name)][blk]
                    exp = uint_view(np.array(want[name], dtype=dtype))
                    problems += thread_mismatches(f"block={blk} {name}", got == exp, got, exp,
                                                  hex)
            suite.record(dict(name=f"{case['name']}_{'x'.join(map(str, shape))}"),
                         not problems, "; ".join(problems[:3]))


def block_combiner_inputs(comb, size):
    """One array per value of the tuple: argmax gets ties (few distinct
    values), NaNs and signed zeros, and distinct indices; affine maps cover
    the whole i32 range."""
    if comb.startswith("argmax"):
        values = rng.integers(-3, 4, size).astype(np.float32)
        values[rng.integers(0, size, max(1, size // 40))] = np.nan
        values[rng.integers(0, size, max(1, size // 10))] = -0.0
        return [values, rng.permutation(size).astype(np.int32)]
    return [rng.integers(-2 ** 31, 2 ** 31, size, dtype=np.int64).astype(np.int32)
            for _ in range(2)]


def run_block_combiners(suite):
    """Block reduce / scan with combiner regions against folds in thread
    order (exact combiners: any grouping that keeps thread order gives the
    same bits): every thread of both blocks of a launch, every shape."""
    combine = {"argmax": ref.comb_argmax, "argmax_nc": ref.comb_argmax,
               "affine": ref.comb_affine}
    for case in suite.selected(cases.block_combiner_cases()):
        fn = suite.function(case)
        comb = case["combiner"]
        fold_fn = combine[comb]
        types = cases.COMBINERS[comb]["types"]
        dtypes = [np.dtype(cases.PAYLOADS[t]["dtype"]) for t in types]
        outs_per_value = 1 if case["op"] == "reduce" else 2
        for shape in case["shapes"]:
            n = shape[0] * shape[1] * shape[2]
            grid = 2
            inputs = block_combiner_inputs(comb, grid * n)
            inits = [dt.type(v[0]) for dt, v in zip(dtypes, block_combiner_inputs(comb, 1))]
            outs = [cp.zeros(grid * n, dt) for dt in dtypes * outs_per_value]
            args = []
            for array in [cp.asarray(a) for a in inputs] + outs:
                args += memref_args(array)
            fn((grid,), shape, args + inits)
            got = [cp.asnumpy(out) for out in outs]
            problems = []
            for blk in range(grid):
                tuples = [tuple(a[blk * n + t] for a in inputs) for t in range(n)]
                total = ref.fold(fold_fn, tuples)
                if case["op"] == "reduce":
                    want = [total] * n
                else:
                    want, acc = [], tuple(inits) if case["exclusive"] else None
                    for x in tuples:
                        if case["exclusive"]:
                            want.append(acc)
                        acc = x if acc is None else fold_fn(acc, x)
                        if not case["exclusive"]:
                            want.append(acc)
                for t in range(n):
                    mine = tuple(g[blk * n + t] for g in got[:len(types)])
                    if not ref.same_tuple(mine, want[t], comb):
                        problems.append(f"block={blk} thread={t} got {mine} want {want[t]}")
                        break
                if case["op"] == "scan":
                    for t in range(n):
                        mine = tuple(g[blk * n + t] for g in got[len(types):])
                        if not ref.same_tuple(mine, total, comb):
                            problems.append(f"block={blk} total thread={t} got {mine} "
                                            f"want {total}")
                            break
            suite.record(dict(name=f"{case['name']}_{'x'.join(map(str, shape))}"),
                         not problems, "; ".join(problems[:3]))


def block_items_reference(kind, items, init, dtype):
    """Over one block's B*N items in the blocked order (thread t's items are
    t*N .. t*N+N-1), straight from the definitions: the reduction and the
    total (the fold of every item), the inclusive scan, the exclusive scan
    (the block's first item gets the kind's identity) and the exclusive
    scan with `init` in front, folded in item order (reference.inclusive_scan
    as in block_op_reference)."""
    dtype = np.dtype(dtype)
    inclusive = ref.inclusive_scan(kind, items, dtype)
    exclusive = np.concatenate([[ref.identity(kind, dtype)], inclusive[:-1]]).astype(dtype)
    with_init = np.concatenate(
        [[init], ref.combine_arrays(kind, init, inclusive[:-1], dtype)]).astype(dtype)
    return dict(reduce=inclusive[-1], total=inclusive[-1], scan=inclusive, exclusive=exclusive,
                exclusive_init=with_init)


def affine_items_reference(a, b, init):
    """The same for the affine-map combiner over the items' (a, b) tuples
    (reference.comb_affine, a fold in item order): the reduction, the
    inclusive scan (no init), the exclusive scan with `init` in front and
    the total (without init), each value of a tuple an int32 array."""
    items = list(zip(a, b))
    total = ref.fold(ref.comb_affine, items)
    inclusive, exclusive, acc, prefix = [], [], None, tuple(init)
    for x in items:
        exclusive.append(prefix)
        prefix = ref.comb_affine(prefix, x)
        acc = x if acc is None else ref.comb_affine(acc, x)
        inclusive.append(acc)

    def columns(tuples):
        return [np.array([v[k] for v in tuples], np.int32) for k in range(2)]
    return dict(reduce=total, total=total, scan=columns(inclusive),
                exclusive_init=columns(exclusive))


def item_mismatches(label, got, want, n_items, kind, dtype):
    """[a line naming the first item where `got` differs from `want` (its
    thread and position there) and how many do], or []."""
    ok = equal_elements(got, want, kind, dtype) if kind else got == want
    bad = np.flatnonzero(~np.asarray(ok))
    if not len(bad):
        return []
    i = int(bad[0])
    return [f"{label} thread={i // n_items} item={i % n_items} ({len(bad)} items) "
            f"got {got[i]!r} want {want[i]!r}"]


def run_block_items(suite):
    """warp.block_reduce / block_scan with `items` (N items a thread, blocked)
    against scans over the block's flattened B*N items: every item of every
    thread of both blocks of a launch, every shape of block_shapes; two trials for a
    kind (the second with NaNs and signed zeros for floats), one for the
    affine-map region over (a, b) (every i32, so an order mistake shows)."""
    scalar_names, vector_names = cases.BLOCK_ITEMS_SCALAR_OUTPUTS, cases.BLOCK_ITEMS_VECTOR_OUTPUTS
    for case in suite.selected(cases.block_items_cases()):
        fn = suite.function(case)
        n_items = case["items"]
        region = case.get("combiner")
        dtype = np.dtype(np.int32 if region else cases.PAYLOADS[case["type"]]["dtype"])
        for shape in block_shapes(case):
            b = shape[0] * shape[1] * shape[2]
            grid = 2
            items = grid * b * n_items
            problems = []
            for trial in range(1 if region else 2):
                if region:
                    inputs = block_combiner_inputs(region, items)
                    # (reduce, total) and (scan, exclusive with init), each of a and b
                    n_scalar, n_vector = 4, 4
                else:
                    inputs = [block_op_inputs(case["type"], case["kind"], items, trial)]
                    n_scalar, n_vector = len(scalar_names), len(vector_names)
                d_outs = cp.zeros(n_scalar * grid * b, dtype=dtype)
                d_outv = cp.zeros(n_vector * items, dtype=dtype)
                args = []
                for array in [cp.asarray(a) for a in inputs] + [d_outs, d_outv]:
                    args += memref_args(array)
                fn((grid,), shape, args)
                outs = cp.asnumpy(d_outs).reshape(n_scalar, grid, b)
                outv = cp.asnumpy(d_outv).reshape(n_vector, grid, b * n_items)
                blocks = [a.reshape(grid, b * n_items) for a in inputs]
                for blk in range(grid):
                    where = f"trial={trial} block={blk}"
                    if region:
                        ma, mb = blocks[0][blk], blocks[1][blk]
                        init = (ma[0], mb[0]) if case["init"] == "first" else (1, 0)
                        want = affine_items_reference(ma, mb, init)
                        scalars = [want["reduce"][0], want["reduce"][1],
                                   want["total"][0], want["total"][1]]
                        vectors = want["scan"] + want["exclusive_init"]
                        labels = (["reduce.a", "reduce.b", "total.a", "total.b"],
                                  ["scan.a", "scan.b", "exclusive_init.a", "exclusive_init.b"])
                        kind = None
                    else:
                        values = blocks[0][blk]
                        want = block_items_reference(case["kind"], values, values[0], dtype)
                        scalars = [want[name] for name in scalar_names]
                        vectors = [want[name] for name in vector_names]
                        labels = scalar_names, vector_names
                        kind = case["kind"]
                    for k, (label, w) in enumerate(zip(labels[0], scalars)):
                        problems += item_mismatches(f"{where} {label}", outs[k][blk],
                                                    np.full(b, w, dtype=dtype), 1, kind, dtype)
                    for k, (label, w) in enumerate(zip(labels[1], vectors)):
                        problems += item_mismatches(f"{where} {label}", outv[k][blk],
                                                    np.asarray(w, dtype=dtype), n_items, kind,
                                                    dtype)
            suite.record(dict(name=f"{case['name']}_{'x'.join(map(str, shape))}"),
                         not problems, "; ".join(problems[:3]))


def run_block_exchanges(suite):
    """warp.block_exchange against the definition (reference.block_exchange),
    bit for bit, in every thread of both blocks of a launch, over each case's
    block shapes; the exchange back must give the input again."""
    for case in suite.selected(cases.block_exchange_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        n_items = case["items"]
        for shape in block_shapes(case):
            b = shape[0] * shape[1] * shape[2]
            grid = 2
            host_in = random_payload(case["type"], grid * b * n_items)
            if dtype.kind == "f":  # NaN payloads and -0.0 must move bit for bit too
                host_in[:3] = [np.nan, -0.0, np.inf][:len(host_in[:3])]
                bits = uint_view(host_in)
                bits[-1] |= bits.dtype.type(1 << (dtype.itemsize * 8 - 2))
            d_out = cp.zeros(grid * b * n_items, dtype)
            d_back = cp.zeros(grid * b * n_items, dtype)
            fn((grid,), shape, memref_args(cp.asarray(host_in)) + memref_args(d_out)
               + memref_args(d_back))
            bits_in = uint_view(host_in).reshape(grid, b, n_items)
            out = uint_view(cp.asnumpy(d_out)).reshape(grid, b, n_items)
            back = uint_view(cp.asnumpy(d_back)).reshape(grid, b, n_items)
            problems = []
            for blk in range(grid):
                items = [list(bits_in[blk][t]) for t in range(b)]
                want = ref.block_exchange(items, case["direction"])
                bad = [t for t in range(b) if list(out[blk][t]) != want[t]]
                if bad:
                    t = bad[0]
                    problems.append(f"block {blk} thread {t} ({len(bad)} threads) got "
                                    f"{[hex(v) for v in out[blk][t]]} want "
                                    f"{[hex(v) for v in want[t]]}")
                bad = [t for t in range(b) if list(back[blk][t]) != items[t]]
                if bad:
                    problems.append(f"block {blk} thread {bad[0]} ({len(bad)} threads): "
                                    f"the exchange back differs from the input")
            suite.record(dict(name=f"{case['name']}_{'x'.join(map(str, shape))}"),
                         not problems, "; ".join(problems[:3]))


# ----------------------------------------------------------------------------
# Exchange, elect, warp-aggregated atomics
# ----------------------------------------------------------------------------

def run_exchanges(suite):
    """warp.exchange against the definition (reference.exchange), bit for
    bit, in every warp of every block; the exchange back must give the
    input again."""
    for case in suite.selected(cases.exchange_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        n, threads = case["items"], case["block"] * case["grid"]
        host_in = random_payload(case["type"], threads * n)
        if dtype.kind == "f":  # NaN payloads and -0.0 must move bit for bit too
            host_in[:3] = [np.nan, -0.0, np.inf]
            bits = uint_view(host_in)  # (a view: writes reach host_in)
            bits[3] |= bits.dtype.type(1 << (dtype.itemsize * 8 - 2))
        d_out, d_back = cp.zeros(threads * n, dtype), cp.zeros(threads * n, dtype)
        fn((case["grid"],), (case["block"],), memref_args(cp.asarray(host_in))
           + memref_args(d_out) + memref_args(d_back))
        bits_in = uint_view(host_in).reshape(threads, n)
        out = uint_view(cp.asnumpy(d_out)).reshape(threads, n)
        back = uint_view(cp.asnumpy(d_back)).reshape(threads, n)
        problems = []
        for w in range(threads // WARP):
            lanes = [list(bits_in[w * WARP + l]) for l in range(WARP)]
            want = ref.exchange(lanes, case["direction"])
            for l in range(WARP):
                t = w * WARP + l
                if list(out[t]) != want[l]:
                    problems.append(f"warp {w} lane {l} got {[hex(v) for v in out[t]]} "
                                    f"want {[hex(v) for v in want[l]]}")
                if list(back[t]) != lanes[l]:
                    problems.append(f"warp {w} lane {l}: the exchange back differs from the input")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_scatters(suite):
    """warp.scatter against the definition (reference.scatter), bit for bit,
    in every warp of every block: each result is the item that names its
    position (one of them where several do; anything where none does)."""
    for case in suite.selected(cases.scatter_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        n, threads = case["items"], case["block"] * case["grid"]
        host_in = random_payload(case["type"], threads * n)
        positions = WARP * n
        ranks = np.concatenate([rng.permutation(positions)
                                for _ in range(threads // WARP)]).astype(np.int32)
        if case["ranks"] == "outside":
            ranks[::5] = rng.choice([-1, positions, 2 ** 31 - 1], len(ranks[::5]))
            twice = np.arange(1, len(ranks) - 2, 7)
            ranks[twice] = ranks[twice + 2]
        d_out = cp.zeros(threads * n, dtype)
        fn((case["grid"],), (case["block"],), memref_args(cp.asarray(host_in))
           + memref_args(cp.asarray(ranks)) + memref_args(d_out))
        bits_in = uint_view(host_in).reshape(threads, n)
        out = uint_view(cp.asnumpy(d_out)).reshape(threads, n)
        ranks = ranks.reshape(threads, n)
        problems = []
        for w in range(threads // WARP):
            lanes = range(w * WARP, (w + 1) * WARP)
            want = ref.scatter([list(bits_in[t]) for t in lanes], [list(ranks[t]) for t in lanes],
                               case["striped"])
            for l, t in enumerate(lanes):
                for j in range(n):
                    if want[l][j] and out[t][j] not in want[l][j]:
                        problems.append(f"warp {w} lane {l} slot {j} got {hex(out[t][j])} "
                                        f"want one of {[hex(v) for v in want[l][j]]}")
        suite.record(case, not problems, "; ".join(problems[:3]))


def elect_check(out, executing_by_warp, sentinel, where, with_leader):
    """Exactly the lowest executing lane of each warp is 1, the other
    executing lanes 0, the others untouched; `with_leader`: plus 64 times
    the elected lane in every executing lane."""
    problems = []
    for w, executing in executing_by_warp.items():
        leader = ref.elected_lane(executing)
        for l in range(WARP):
            t = w * WARP + l
            if t >= len(out):
                break
            want = sentinel if l not in executing else \
                int(l == leader) + (64 * leader if with_leader else 0)
            if out[t] != want:
                problems.append(f"{where} warp {w} lane {l} got {out[t]} want {want}")
    return problems


def run_elect(suite):
    sentinel = -7
    for case in [c for c in suite.manifest if c["family"] == "elect"]:
        fn = suite.function(case)
        problems = []
        variant = case["variant"]
        if variant == "full":
            for block in case["blocks"]:  # 80: a ragged last warp of 16 lanes
                d_out = cp.full(block, sentinel, dtype=np.int32)
                fn((1,), (block,), memref_args(d_out))
                executing = {w: [l for l in range(WARP) if w * WARP + l < block]
                             for w in range((block + WARP - 1) // WARP)}
                problems += elect_check(cp.asnumpy(d_out), executing, sentinel, f"block={block}",
                                      case["leader"])
        elif variant in ("mask", "const_mask"):
            for mask in (case["masks"] if variant == "mask" else [case["mask"]]):
                d_out = cp.full(2 * WARP, sentinel, dtype=np.int32)
                extra = [np.uint32(mask).view(np.int32)] if variant == "mask" else []
                fn((1,), (2 * WARP,), memref_args(d_out) + extra)
                executing = {w: [l for l in range(WARP) if (mask >> l) & 1] for w in range(2)}
                problems += elect_check(cp.asnumpy(d_out), executing, sentinel, f"mask={mask:#x}",
                                      case["leader"])
        else:
            n = case["block"]
            for pattern in case["patterns"]:
                pred = arms_predicate(pattern, n)
                d_a, d_b = cp.full(n, sentinel, np.int32), cp.full(n, sentinel, np.int32)
                fn((1,), (n,), memref_args(cp.asarray(pred)) + memref_args(d_a) + memref_args(d_b))
                for arm, d, taken in (("then", d_a, True), ("else", d_b, False)):
                    executing = {w: [l for l in range(WARP) if bool(pred[w * WARP + l]) == taken]
                                 for w in range(n // WARP)}
                    problems += elect_check(cp.asnumpy(d), executing, sentinel,
                                            f"{pattern} {arm}", case["leader"])
        suite.record(case, not problems, "; ".join(problems[:4]))


def atomic_keys(pattern, threads, rng_keys):
    if pattern == "few":
        return rng_keys.integers(0, 4, threads).astype(np.int32)
    if pattern == "same":
        return np.zeros(threads, dtype=np.int32)
    return rng_keys.permutation(threads).astype(np.int32)  # all distinct


def check_serialization(case, keys, vals, old, init, final, executing, dtype):
    """The atomics of each cell form one serialization: within each (warp,
    cell) group the lanes come in ascending lane order, each seeing what
    the lane before it left (reference.atomic_apply of `case["kind"]`), and
    the groups chain in some order from the cell's initial value to its
    final one, each group starting from what the one before it left."""
    apply = lambda o, v: ref.atomic_apply(case["kind"], o, v, dtype)  # noqa: E731
    problems = []
    # The executing threads of each cell, in `executing`'s order.
    threads_of = {}
    for t in executing:
        threads_of.setdefault(int(keys[t]), []).append(t)
    for cell in range(len(init)):
        groups = {}
        for t in threads_of.get(cell, []):
            # The hardware warp: blocks need not be whole warps.
            groups.setdefault((t // case["block"], t % case["block"] // WARP), []).append(t)
        spans = []  # (what the group found, what it left)
        for members in groups.values():
            for a, b in zip(members, members[1:]):
                if old[b] != apply(old[a], vals[a]):
                    problems.append(f"cell {cell}: thread {b} got {old[b]!r}, want what "
                                    f"thread {a} of its warp left, {apply(old[a], vals[a])!r}")
            spans.append((old[members[0]], apply(old[members[-1]], vals[members[-1]])))
        if not chains(init[cell], final[cell], spans):
            problems.append(f"cell {cell}: no order of its {len(spans)} warps' groups leads "
                            f"from {init[cell]!r} to the final {final[cell]!r}")
    return problems


def chains(start, end, spans):
    """Whether the (found, left) spans can be ordered so that the first
    finds `start`, each next one finds what the one before left, and the
    last leaves `end` (a search over the spans, memoized on what is left)."""
    seen = set()

    def walk(value, left):
        if not left:
            return value == end
        key = (value.item() if hasattr(value, "item") else value, left)
        if key in seen:
            return False
        seen.add(key)
        return any(spans[g][0] == value and walk(spans[g][1], left - {g}) for g in left)
    return walk(start, frozenset(range(len(spans))))


def atomic_values(kind, count, dtype):
    """Values for the atomics of `kind`: small positive integers for add
    (exact sums, so one serialization explains the old values), the whole
    range (sign bits included) for the others, normal floats for exch."""
    if kind == "add":
        return rng.integers(1, 8, count).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(count).astype(dtype)
    return rng.integers(0, 2 ** (8 * dtype.itemsize), count, dtype=np.uint64).astype(
        f"u{dtype.itemsize}").view(dtype)


def run_atomics(suite):
    sentinel = -7
    for case in suite.selected(cases.atomic_cases()):
        fn = suite.function(case)
        dtype = np.dtype(cases.PAYLOADS[case["type"]]["dtype"])
        threads = case["block"] * case["grid"]
        problems = []
        for pattern in case["keys"]:
            for trial in range(2):
                keys = atomic_keys(pattern, threads, rng)
                cells = int(keys.max()) + 1
                if case["execute"] == "order":  # random floats: the documented order
                    vals = rng.standard_normal(threads).astype(dtype)
                    init = rng.standard_normal(cells).astype(dtype)
                elif case["kind"] == "add":
                    vals = atomic_values("add", threads, dtype)
                    init = rng.integers(0, 100, cells).astype(dtype)
                else:
                    vals = atomic_values(case["kind"], threads, dtype)
                    init = atomic_values(case["kind"], cells, dtype)
                pred = (rng.random(threads) < (0.6, 0.15)[trial]).astype(np.int32)
                mask = [0xFFFFFFFF, 0x80000001, 0x12345678, 0x0F0F0F0F][rng.integers(0, 4)] \
                    if trial else 0xFFFFFFFF & int(rng.integers(1, 2 ** 32))
                lane = np.arange(threads) % case["block"] % WARP
                executing = {"all": np.ones(threads, bool), "order": np.ones(threads, bool),
                             "divergent": pred.astype(bool),
                             "masked": ((mask >> lane) & 1).astype(bool)}[case["execute"]]
                executing = [t for t in range(threads) if executing[t]]
                d_hist = cp.asarray(init)
                d_old = cp.full(threads, sentinel, dtype)
                fn((case["grid"],), (case["block"],), memref_args(d_hist)
                   + memref_args(cp.asarray(keys)) + memref_args(cp.asarray(vals))
                   + memref_args(d_old) + memref_args(cp.asarray(pred))
                   + [np.uint32(mask).view(np.int32)])
                old, final = cp.asnumpy(d_old), cp.asnumpy(d_hist)
                where = f"keys={pattern} trial={trial} mask={mask:#x}"
                if case["execute"] == "order":
                    # One warp: each cell's group is the lanes with its key.
                    for cell in range(cells):
                        members = [t for t in range(threads) if keys[t] == cell]
                        if not members:
                            continue
                        want, want_final = ref.aggregated_atomic_group(
                            init[cell], [vals[t] for t in members], dtype.type)
                        for t, w in zip(members, want):
                            if uint_view(np.array([old[t]]))[0] != uint_view(np.array([w]))[0]:
                                problems.append(f"{where} lane {t} got {old[t]!r} want {w!r}")
                        if uint_view(final[cell:cell + 1])[0] != uint_view(np.array([want_final]))[0]:
                            problems.append(f"{where} cell {cell} final {final[cell]!r} "
                                            f"want {want_final!r}")
                else:
                    problems += [f"{where}: {p}" for p in check_serialization(
                        case, keys, vals, old, init, final, executing, dtype)]
                for t in set(range(threads)) - set(executing):
                    if old[t] != sentinel:
                        problems.append(f"{where}: thread {t} did not execute but wrote")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_histogram(suite):
    """examples/warp_histogram.mlir against numpy's bincount."""
    for case in [c for c in suite.manifest if c["family"] == "histogram"]:
        fn = suite.function(dict(case, kernel="histogram"))
        problems = []
        for count in (case["block"] * case["grid"], 1000, 37):
            keys = rng.integers(0, 2 ** 31, count).astype(np.int32)
            if count == 37:
                keys[:] = 5  # every lane of a warp in one bin
            d_hist = cp.zeros(case["bins"], dtype=np.int32)
            grid = (count + case["block"] - 1) // case["block"]
            fn((grid,), (case["block"],), memref_args(cp.asarray(keys)) + memref_args(d_hist))
            want = np.bincount(keys % case["bins"], minlength=case["bins"])
            if not np.array_equal(cp.asnumpy(d_hist), want):
                problems.append(f"count={count}: histogram differs from bincount")
        suite.record(case, not problems, "; ".join(problems))


# ----------------------------------------------------------------------------
# Combiner regions, tuples, segmented reductions
# ----------------------------------------------------------------------------

def signed32(mask):
    return np.int32(mask - (1 << 32) if mask >= 1 << 31 else mask)


def run_combiners(suite):
    """Reductions and scans with combiner regions over tuples, and segmented
    reductions, against the definitions: a fold in lane order for exact
    combiners (argmax, affine maps, integer sums), the documented tree for
    Welford (float32 after every operation), the max bit for bit and the sum
    to a tolerance for online softmax."""
    for case in suite.selected(cases.combiner_cases()):
        fn = suite.function(case)
        comb = case["combiner"]
        types = cases.COMBINERS[comb]["types"]
        dtypes = [np.dtype(cases.PAYLOADS[t]["dtype"]).type for t in types]
        runs, patterns = cases.combiner_runs(case)
        problems = []
        for n, mask, flags, inputs, inits, want, label in ref.combiner_trials(
                case, cases.COMBINERS[comb]["commutative"], dtypes, runs, patterns, rng):
            outs = [cp.full(WARP, -7, dt) for dt in dtypes]
            args = []
            for array in inputs:
                args += memref_args(cp.asarray(array))
            for out in outs:
                args += memref_args(out)
            args += memref_args(cp.asarray(flags)) + [np.int32(n), signed32(mask)] + inits
            fn((1,), (WARP,), args)
            got = [cp.asnumpy(out) for out in outs]
            for lane, value in want.items():
                mine = tuple(g[lane] for g in got)
                if not ref.same_tuple(mine, value, comb):
                    problems.append(f"{label} lane={lane} got {mine} want {value}")
        suite.record(case, not problems, "; ".join(problems[:3]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--log")
    parser.add_argument("--backend", choices=["cupy", "sim"], default="cupy",
                        help="cupy: the GPU; sim: libWarpSim (no GPU)")
    parser.add_argument("--skip-same-as", metavar="BUNDLE",
                        help="leave out the cases whose kernel's PTX is the same in BUNDLE "
                             "(another chip's bundle, run on the simulator already)")
    parser.add_argument("--only", default="",
                        help="comma-separated step names (for compute-sanitizer runs); "
                             "default: every step")
    args = parser.parse_args()
    if args.skip_same_as and BACKEND != "sim":
        parser.error("--skip-same-as is for the simulator (a GPU runs each chip's own PTX)")
    suite = Suite(args.bundle, args.skip_same_as)
    with open(os.path.join(args.bundle, "manifest.json")) as f:
        suite.manifest = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        built = {}

        def oracle():
            """nvcc's shuffles, compiled the first time a shuffle step has a
            case to compare (not for runs that select none)."""
            if "oracle" not in built:
                built["oracle"] = build_oracle(tmp)
            return built["oracle"]

        steps = {
            "shuffles": lambda: run_shuffles(suite, oracle),
            "masked_shuffles": lambda: run_masked_shuffles(suite),
            "reduces": lambda: run_reduces(suite),
            "masked_reduces": lambda: run_masked_reduces(suite),
            "scans": lambda: run_scans(suite),
            "segmented_scans": lambda: run_segmented_scans(suite),
            "votes": lambda: run_votes(suite),
            "blocks": lambda: run_blocks(suite),
            "arms": lambda: run_arms(suite),
            "warp_id_2d": lambda: run_warp_id_2d(suite),
            "gpu_shuffle_dyn": lambda: run_gpu_shuffles(suite),
            "dyn_width_shuffle": lambda: run_dyn_shuffles(
                suite, oracle, suite.selected(cases.dyn_width_shuffle_cases())),
            "any_mask_reduces": lambda: run_any_mask_reduces(suite),
            "valid_scans": lambda: run_valid_scans(suite),
            "match_float": lambda: run_match_float(suite),
            "match_bits": lambda: run_match_bits(suite),
            "broadcast_any_lane": lambda: run_broadcast_any_lane(suite),
            "shfl_any_offsets": lambda: run_shfl_any_offsets(suite),
            "block_ops": lambda: run_block_ops(suite),
            "block_exchanges": lambda: run_block_exchanges(suite),
            "block_scan_orders": lambda: run_block_scan_orders(suite),
            "block_combiners": lambda: run_block_combiners(suite),
            "block_items": lambda: run_block_items(suite),
            "exchanges": lambda: run_exchanges(suite),
            "scatters": lambda: run_scatters(suite),
            "elect": lambda: run_elect(suite),
            "atomics": lambda: run_atomics(suite),
            "histogram": lambda: run_histogram(suite),
            "combiners": lambda: run_combiners(suite),
        }
        chosen = [name for name in args.only.split(",") if name] or list(steps)
        for name in chosen:
            # These checks skip the lanes whose values PTX leaves undefined
            # (reads outside the member mask, a ragged warp's missing lanes);
            # the simulator lets such values be stored there.
            allow = BACKEND == "sim" and name in ("masked_shuffles", "warp_id_2d")
            with cp.undefined_values_allowed() if allow else contextlib.nullcontext():
                steps[name]()
            print(f"... {name}: {suite.passed} passed, {suite.failed} failed so far", flush=True)
    text = "\n".join(suite.failures)
    if args.log:
        with open(args.log, "w") as f:
            f.write(text + f"\ngpu: {suite.passed} passed, {suite.failed} failed\n")
    print(text[-6000:])
    if BACKEND == "sim":
        print(cp.summary())
        suite.failed += len(cp.reports)
    if args.skip_same_as:
        print(f"{suite.skipped} cases left out: their PTX is the same in {args.skip_same_as}")
    print(f"gpu: {suite.passed} passed, {suite.failed} failed")
    sys.exit(1 if suite.failed else 0)


if __name__ == "__main__":
    main()
