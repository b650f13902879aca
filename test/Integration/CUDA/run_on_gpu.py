"""Runs the GPU suite on a CUDA machine: loads each PTX module of the bundle
with cupy, launches every kernel of manifest.json and checks every lane
against reference.py (CUDA's rules) and, for shuffles, against the same
shuffle compiled by nvcc from CUDA's __shfl_*_sync (the oracle).

    python3 run_on_gpu.py --bundle .gpu-bundle [--log results.txt]

Prints one line per failing case and ends with "gpu: N passed, N failed".
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import cupy as cp
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402
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


class Suite:
    def __init__(self, bundle):
        self.bundle = bundle
        self.modules = {}
        self.passed = 0
        self.failed = 0
        self.failures = []

    def function(self, case):
        ptx = case.get("ptx") or case["family"] + ".ptx"
        if ptx not in self.modules:
            self.modules[ptx] = cp.RawModule(path=os.path.join(self.bundle, ptx))
        return self.modules[ptx].get_function(case["name"])

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
    src = os.path.join(workdir, "oracle.cu")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    cubin = os.path.join(workdir, "oracle.cubin")
    subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-o", cubin, src], check=True)
    return cp.RawModule(path=cubin)


def run_shuffles(suite, oracle):
    for case in cases.shuffle_cases():
        fn = suite.function(case)
        p = cases.PAYLOADS[case["type"]]
        host_in = random_payload(case["type"])
        d_in = cp.asarray(host_in)
        d_out = cp.zeros_like(d_in)
        d_valid = cp.zeros(WARP, dtype=np.int32)
        o_out = cp.zeros_like(d_in)
        ofn = oracle.get_function("oracle_" + case["name"]) if case["type"] in ORACLE_TYPES else None
        problems = []
        for off in cases.OFFSETS:
            fn((1,), (WARP,), memref_args(d_in) + memref_args(d_out) + memref_args(d_valid) + [np.int32(off)])
            out = uint_view(cp.asnumpy(d_out))
            valid = cp.asnumpy(d_valid)
            src_bits = uint_view(host_in)
            e = p["lanes"]
            for lane in range(WARP):
                src, ok = ref.shuffle_source(case["mode"], lane, off, case["width"])
                if not np.array_equal(out[lane * e:(lane + 1) * e], src_bits[src * e:(src + 1) * e]) \
                        or bool(valid[lane]) != ok:
                    problems.append(f"off={off} lane={lane} src={src} valid={valid[lane]} want {int(ok)}")
            if ofn is not None:
                ofn((1,), (WARP,), (d_in, o_out, np.int32(off)))
                if not np.array_equal(uint_view(cp.asnumpy(o_out)), out):
                    problems.append(f"off={off} differs from nvcc __shfl_*_sync")
        suite.record(case, not problems, "; ".join(problems[:3]))


def run_masked_shuffles(suite):
    sentinel = np.int32(-7)
    for case in cases.masked_shuffle_cases():
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
    got = np.asarray(got, dtype=dtype)
    want = np.asarray(want, dtype=dtype)
    if np.dtype(dtype).kind != "f":
        return np.array_equal(got, want)
    both_nan = np.isnan(got) & np.isnan(want)
    if kind in ("minnumf", "maxnumf"):
        # maxNum/minNum may return either zero for (-0, +0).
        equal = (got == want) | both_nan
    elif np.dtype(dtype) == np.float16:
        equal = (uint_view(got) == uint_view(want)) | both_nan | (np.abs(got.astype(np.float32) - want.astype(np.float32)) <= 2e-3 * np.maximum(1, np.abs(want.astype(np.float32))))
    else:
        equal = (uint_view(got) == uint_view(want)) | both_nan
    return bool(np.all(equal))


def run_reduces(suite):
    for case in cases.reduce_cases():
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
    for case in cases.masked_reduce_cases():
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
    for case in cases.scan_cases():
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
    for case in cases.segmented_scan_cases():
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
            w = case["width"]
            for lane in range(WARP):
                base = lane - lane % w
                start = max([base] + [l for l in range(base, lane + 1) if heads[l]])
                end = min([base + w - 1] + [l - 1 for l in range(lane + 1, base + w) if heads[l]])
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
                if out[lane] != acc or total[lane] != whole:
                    problems.append(f"trial={trial} lane={lane} got {out[lane]}/{total[lane]} "
                                    f"want {acc}/{whole}")
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--log")
    args = parser.parse_args()
    suite = Suite(args.bundle)
    with tempfile.TemporaryDirectory() as tmp:
        oracle = build_oracle(tmp)
        for step in (lambda: run_shuffles(suite, oracle), lambda: run_masked_shuffles(suite),
                     lambda: run_reduces(suite), lambda: run_masked_reduces(suite),
                     lambda: run_scans(suite), lambda: run_segmented_scans(suite),
                     lambda: run_votes(suite), lambda: run_blocks(suite)):
            step()
            print(f"... {suite.passed} passed, {suite.failed} failed so far", flush=True)
    text = "\n".join(suite.failures)
    if args.log:
        with open(args.log, "w") as f:
            f.write(text + f"\ngpu: {suite.passed} passed, {suite.failed} failed\n")
    print(text[-6000:])
    print(f"gpu: {suite.passed} passed, {suite.failed} failed")
    sys.exit(1 if suite.failed else 0)


if __name__ == "__main__":
    main()
