"""Random device-wide ops drawn from the cross product of what each takes
(test/Generative's principle, for `warp_mlir.device`).

Sorts: every key type, values of any type or none, the whole image or a
random bit range, ascending or descending, double-buffered or not,
segmented or not (empty, one-key and multi-tile segments, gaps between
them), and a size near a tile's edge or anywhere in a few tiles, with keys
of few values, the whole range or special values. Each program is checked
against the op's definition (test_device_segmented_radix_sort's model:
numpy's stable argsort of each segment's key images; a whole sort is one
segment), values being the input positions so that stability shows.

Reductions and scans: every kind and element type the ops take (floats of
16 bits with the kinds whose folds stay exact in any order), inclusive or
exclusive, by key (keys of any type in runs, an alphabet of three, one
segment or one a key) or in thread-block clusters, sizes near a tile's or
a folding block's edge or anywhere in a few; checked against the
definitions of test_device_ops (left folds, exact).

Selections: select and partition by flags (none to all kept) or by a
predicate (every comparison, NaNs among the floats), unique, run-length
encoding and non-trivial runs over runs of mean length 1 to 300 (-0.0 and
0.0 equal, every NaN a run of its own), every element type; checked bit
for bit against numpy's boolean indexing and run boundaries.

Histograms: bin numbers (every integer sample type, 1 to 5000 bins, in
workgroup memory or straight into the output, skewed or not), even
levels (integer and float samples, NaNs) and uneven ones, i32 or i64
counters; checked against test_device_ops' bin definitions (CUB's).

Segmented reductions: every kind and element type as the reductions', S +
1 offsets or (begin, end) pairs of i32 or i64 (empty, one-element and
long segments, gaps), with `init` or the identity.

WARP_SORT_PROGRAMS (default 40) sorts, WARP_SCAN_PROGRAMS (default 60)
reductions and scans, WARP_SELECT_PROGRAMS (default 40) selections,
WARP_HISTOGRAM_PROGRAMS (default 30) histograms and
WARP_SEGMENTED_PROGRAMS (default 30) segmented reductions a backend; a
failure names its seed and the drawn program, which the family's
`*_program(seed)` rebuilds (`scan_program(seed, backend)`; with
`chip_for(backend, seed)`: on the
simulator the kernels are compiled for sm_70, sm_80, sm_90 or sm_100a,
whose block-op lowerings inside them differ; on the GPU for sm_90). A
program whose PTX the simulator does not model is skipped there, never
passed. On the simulator the odd seeds run with co-resident blocks
(WARP_SIM_CORESIDENT_BLOCKS), so that half the programs' look-backs meet
predecessors midway, as on a GPU; the even ones block after block.
"""
import os

import numpy as np
import pytest

import warp_mlir.device as wd
from conftest import BACKENDS
from test_device_ops import (FLOAT_KINDS, INT_KINDS, SORT_TYPES, _counts, _even_bins,
                             _range_bins, check, data, exclusive, identity, inclusive,
                             key_patterns, reduction, scan_by_key, sort_keys_for, sort_tile,
                             tile_items)
from test_device_segmented_radix_sort import model

PROGRAMS = int(os.environ.get("WARP_SORT_PROGRAMS", "40"))


@pytest.fixture(autouse=True)
def coresident_on_odd_seeds(request, monkeypatch):
    """The simulator's odd-seeded programs with co-resident blocks."""
    params = getattr(request.node, "callspec", None)
    params = params.params if params else {}
    if params.get("backend") == "sim" and params.get("seed", 0) % 2 == 1:
        monkeypatch.setenv("WARP_SIM_CORESIDENT_BLOCKS", "1")
SCAN_PROGRAMS = int(os.environ.get("WARP_SCAN_PROGRAMS", "60"))
SELECT_PROGRAMS = int(os.environ.get("WARP_SELECT_PROGRAMS", "40"))
HISTOGRAM_PROGRAMS = int(os.environ.get("WARP_HISTOGRAM_PROGRAMS", "30"))
SEGMENTED_PROGRAMS = int(os.environ.get("WARP_SEGMENTED_PROGRAMS", "30"))

KEY_TYPES = SORT_TYPES + [np.uint32, np.uint64]
VALUE_TYPES = [np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]
# The chips whose lowerings of the block ops inside the kernels differ
# (redux.sync from sm_80, elect.sync and clusters from sm_90, f32 redux
# min/max on sm_100a).
SIM_CHIPS = ["sm_70", "sm_80", "sm_90", "sm_100a"]


def chip_for(backend, seed, clusters=False):
    """The chip a program's kernels are compiled for: the GPU's (sm_90) on
    it; on the simulator one of SIM_CHIPS (sm_90+ for thread-block
    clusters), drawn from the seed apart from the program's other
    choices."""
    if backend != "sim":
        return "sm_90"
    chips = SIM_CHIPS[2:] if clusters else SIM_CHIPS
    return chips[int(np.random.default_rng(10 ** 6 + seed).integers(len(chips)))]


def sort_program(seed):
    """The sort drawn for `seed`: a dict of its choices."""
    rng = np.random.default_rng(seed)
    key = np.dtype(KEY_TYPES[rng.integers(len(KEY_TYPES))])
    value = None if rng.random() < 0.4 else np.dtype(VALUE_TYPES[rng.integers(len(VALUE_TYPES))])
    width = 8 * key.itemsize
    begin, end = 0, width
    if rng.random() < 0.4:  # a bit range, of one bit up to all
        begin = int(rng.integers(0, width))
        end = int(rng.integers(begin + 1, width + 1))
    segmented = bool(rng.random() < 0.3)
    tile = sort_tile(key, value, segmented=segmented)
    # Eight passes of 8-byte keys take the simulator longest: fewer tiles.
    most = tile * (1 if key.itemsize == 8 and end - begin > 32 else 3)
    n = int(rng.choice([0, 1, int(rng.integers(2, 65)), tile - 1, tile, tile + 1,
                        int(rng.integers(1, most + 1))]))
    return {"seed": seed, "key": key, "value": value, "begin": begin, "end": end,
            "descending": bool(rng.random() < 0.3), "double_buffer": bool(rng.random() < 0.25),
            "segmented": segmented, "n": min(n, most + 1), "keys_kind": int(rng.integers(4))}


def segments(rng, n):
    """Random (begin, end) segments within [0, n): cut points with gaps,
    empty segments (end <= begin) and one-key ones among them."""
    cuts = np.sort(rng.integers(0, n + 1, int(rng.integers(1, 6))))
    begins, ends = [], []
    start = 0
    for cut in cuts:
        begins.append(start)
        ends.append(int(cut))
        start = int(cut) + int(rng.integers(0, 3))  # a gap of 0..2 keys
    begins.append(min(start, n))
    ends.append(n)
    if rng.random() < 0.3:
        begins.append(ends[-1])
        ends.append(max(ends[-1] - 1, 0))  # empty: end before begin
    return np.array(begins, np.int64), np.array(ends, np.int64)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seed", range(PROGRAMS))
def test_random_sort(backend, seed):
    p = sort_program(seed)
    chip = chip_for(backend, seed)
    rng = np.random.default_rng(1000 + seed)
    cases = sort_keys_for(p["key"], p["n"], rng)
    keys = cases[p["keys_kind"] % len(cases)]
    values = None
    if p["value"] is not None:  # the input positions, wrapped to the type
        values = np.arange(p["n"]).astype(p["value"])
    begins = ends = None
    if p["segmented"]:
        begins, ends = segments(rng, p["n"])
    # A sort of the whole is one segment; outside the segments the outputs
    # keep their own elements (copies of the inputs, below).
    spans = (begins, ends) if p["segmented"] else (np.array([0]), np.array([p["n"]]))
    want_keys, want_values = model(keys, *spans, keys.copy(), values,
                                   None if values is None else values.copy(),
                                   p["descending"], (p["begin"], p["end"]))
    # Outputs start as copies of the inputs (the segmented sort leaves the
    # keys outside its segments as they are).
    out = keys.copy()
    values_out = None if values is None else values.copy()
    kwargs = dict(out=out, values_out=values_out, descending=p["descending"],
                  begin_bit=p["begin"], end_bit=p["end"], double_buffer=p["double_buffer"],
                  backend=backend, chip=chip)
    inputs = (keys.copy(), None if values is None else values.copy())
    try:
        if p["segmented"]:
            got = wd.segmented_radix_sort(inputs[0], (begins, ends), inputs[1], **kwargs)
        else:
            got = wd.radix_sort(inputs[0], inputs[1], **kwargs)
    except Exception as error:  # PTX the simulator does not model: not a pass
        if "the simulator cannot run this PTX" in str(error):
            pytest.skip(f"{p}: {error}")
        raise
    got_keys, got_values = got if values is not None else (got, None)
    bits = p["key"] if p["key"].kind in "iu" else np.dtype(f"u{p['key'].itemsize}")
    np.testing.assert_array_equal(np.asarray(got_keys)[:p["n"]].view(bits), want_keys.view(bits),
                                  err_msg=f"keys of {p}")
    if values is not None:
        np.testing.assert_array_equal(np.asarray(got_values)[:p["n"]], want_values,
                                      err_msg=f"values of {p}")


SCAN_TYPES = [np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]
# The kinds whose f16 folds are exact in any order over data()'s values
# (an f16 sum of integers past 2048 rounds).
F16_KINDS = ["mul", "minimumf", "maximumf", "minnumf", "maxnumf"]


def scan_program(seed, backend="sim"):
    """The reduction or scan drawn for `seed` on `backend`: a dict of its
    choices, the chip among them (chip_for's), its size near an edge of
    the tiles of the plan it launches (a scan's tile, what a reduction's
    one block takes alone) or anywhere in three of them."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(SCAN_TYPES[rng.integers(len(SCAN_TYPES))])
    kinds = INT_KINDS if dtype.kind == "i" else F16_KINDS if dtype.itemsize == 2 else FLOAT_KINDS
    op = str(rng.choice(["reduce", "scan", "scan", "scan_by_key"]))
    kind = str(rng.choice(kinds))
    exclusive_ = op != "reduce" and bool(rng.random() < 0.5)
    cluster = 1 if op == "scan_by_key" or rng.random() < 0.7 else int(rng.choice([2, 4]))
    key_type = np.dtype(SCAN_TYPES[rng.integers(len(SCAN_TYPES))])
    chip = chip_for(backend, seed, clusters=cluster > 1)
    edge = tile_items("reduce" if op == "reduce" else "scan", dtype, kind, cluster,
                      keys=key_type if op == "scan_by_key" else None, exclusive=exclusive_,
                      chip=chip)
    n = int(rng.choice([0, 1, int(rng.integers(2, 65)), edge - 1, edge, edge + 1,
                        int(rng.integers(1, 3 * edge + 2))]))
    return {"seed": seed, "op": op, "dtype": dtype, "kind": kind, "n": n,
            "exclusive": exclusive_, "cluster_blocks": cluster, "key_type": key_type,
            "keys": str(rng.choice(["runs", "alphabet3", "one", "each"])), "chip": chip}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seed", range(SCAN_PROGRAMS))
def test_random_scan(backend, seed):
    p = scan_program(seed, backend)
    chip = p["chip"]
    rng = np.random.default_rng(2000 + seed)
    x = data(p["kind"], p["dtype"], p["n"], rng)
    before = x.copy()
    what = f"{p}"
    if p["op"] == "reduce":
        got = wd.reduce(x, p["kind"], cluster_blocks=p["cluster_blocks"], backend=backend,
                        chip=chip)
        check(got, np.array([reduction(p["kind"], x)], x.dtype), what)
    elif p["op"] == "scan":
        got = wd.scan(x, p["kind"], exclusive=p["exclusive"],
                      cluster_blocks=p["cluster_blocks"], backend=backend, chip=chip)
        check(got, (exclusive if p["exclusive"] else inclusive)(p["kind"], x), what)
    else:
        keys = key_patterns(p["n"], rng, p["key_type"])[p["keys"]]
        got = wd.scan(x, p["kind"], exclusive=p["exclusive"], keys=keys, backend=backend,
                      chip=chip)
        check(got, scan_by_key(p["kind"], x, keys, p["exclusive"]), what)
    check(x, before, f"the input is left as it is: {what}")


SELECT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]
SELECT_OPS = ["select", "partition", "select_if", "partition_if", "unique", "run_length_encode",
              "non_trivial_runs"]
COMPARISONS = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
               "eq": np.equal, "ne": np.not_equal}


def select_program(seed):
    """The selection drawn for `seed`: a dict of its choices."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(SELECT_TYPES[rng.integers(len(SELECT_TYPES))])
    tile = 256 * 16  # every selection's tile holds at least 16 items a thread
    n = int(rng.choice([0, 1, int(rng.integers(2, 65)), tile - 1, tile, tile + 1,
                        int(rng.integers(1, 3 * tile + 2))]))
    return {"seed": seed, "op": str(rng.choice(SELECT_OPS)), "dtype": dtype, "n": n,
            "kept": float(rng.choice([0.0, 0.03, 0.5, 0.97, 1.0])),
            "runs": int(rng.choice([1, 2, 5, 300])), "nan": bool(rng.random() < 0.3),
            "comparison": str(rng.choice(list(COMPARISONS)))}


def select_data(p, rng):
    """x of runs of mean length p["runs"] over a few values (-0.0 and 0.0
    among the floats, NaNs where p["nan"]), and flags keeping p["kept"]."""
    n, dtype = p["n"], p["dtype"]
    lengths = rng.integers(1, 2 * p["runs"] + 1, n + 1)
    values = rng.integers(-3, 4, n + 1).astype(dtype)
    x = np.repeat(values, lengths)[:n].astype(dtype)
    if dtype.kind == "f" and n:
        x[rng.random(n) < 0.1] = dtype.type(-0.0)
        if p["nan"]:
            x[rng.random(n) < 0.05] = np.nan
    flags = (rng.random(n) < p["kept"]).astype(np.int8)
    return x, flags


def runs_of(x):
    """The starts of the runs of equal elements (numpy's ==: -0.0 equals
    0.0, a NaN equals nothing) and their lengths."""
    with np.errstate(invalid="ignore"):
        heads = np.concatenate([[True], x[1:] != x[:-1]])[:len(x)]
    starts = np.flatnonzero(heads)
    return starts, np.diff(np.append(starts, len(x)))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seed", range(SELECT_PROGRAMS))
def test_random_selection(backend, seed):
    p = select_program(seed)
    chip = chip_for(backend, seed)
    rng = np.random.default_rng(3000 + seed)
    x, flags = select_data(p, rng)
    before = x.copy()
    bits = np.dtype(f"u{p['dtype'].itemsize}")
    what = f"{p}"

    def same(got, want, name):  # bit for bit (NaNs, -0.0)
        got, want = np.asarray(got), np.asarray(want)
        if got.dtype.kind == "f":
            got, want = got.view(bits), want.astype(p["dtype"]).view(bits)
        np.testing.assert_array_equal(got, want, err_msg=f"{name} of {what}")

    op = p["op"]
    if op in ("select", "partition", "select_if", "partition_if"):
        if op.endswith("_if"):
            scalar = 0.5 if p["dtype"].kind == "f" else 0
            with np.errstate(invalid="ignore"):
                keep = COMPARISONS[p["comparison"]](x, p["dtype"].type(scalar))
            run = wd.select if op == "select_if" else wd.partition
            out, count = run(x, pred=(p["comparison"], scalar), backend=backend, chip=chip)
        else:
            keep = flags != 0
            run = wd.select if op == "select" else wd.partition
            out, count = run(x, flags, backend=backend, chip=chip)
        kept = int(keep.sum())
        assert int(np.asarray(count)[0]) == kept, what
        same(np.asarray(out)[:kept], x[keep], "kept")
        if op.startswith("partition"):
            same(np.asarray(out)[kept:p["n"]], x[~keep][::-1], "rejected, reversed")
    else:
        starts, lengths = runs_of(x)
        if op == "unique":
            out, count = wd.unique(x, backend=backend, chip=chip)
            assert int(np.asarray(count)[0]) == len(starts), what
            same(np.asarray(out)[:len(starts)], x[starts], "unique")
        elif op == "run_length_encode":
            unique, counts, num = wd.run_length_encode(x, backend=backend, chip=chip)
            assert int(np.asarray(num)[0]) == len(starts), what
            same(np.asarray(unique)[:len(starts)], x[starts], "unique")
            np.testing.assert_array_equal(np.asarray(counts)[:len(starts)], lengths, what)
        else:
            long = lengths >= 2
            offsets, run_lengths, num = wd.non_trivial_runs(x, backend=backend, chip=chip)
            assert int(np.asarray(num)[0]) == int(long.sum()), what
            np.testing.assert_array_equal(np.asarray(offsets)[:long.sum()], starts[long], what)
            np.testing.assert_array_equal(np.asarray(run_lengths)[:long.sum()], lengths[long],
                                          what)
    same(x, before, "the input, left as it is")


HISTOGRAM_SAMPLES = ["uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
LEVEL_SAMPLES = ["int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def histogram_program(seed):
    """The histogram drawn for `seed`: a dict of its choices."""
    rng = np.random.default_rng(seed)
    form = str(rng.choice(["bins", "even", "range"]))
    samples = HISTOGRAM_SAMPLES if form == "bins" else LEVEL_SAMPLES
    tile = 4096
    n = int(rng.choice([0, 1, int(rng.integers(2, 65)), tile - 1, tile, tile + 1,
                        int(rng.integers(1, 3 * tile + 2))]))
    return {"seed": seed, "form": form, "sample": str(rng.choice(samples)), "n": n,
            "bins": int(rng.choice([1, 2, 7, 256, 257, 1000, 5000])),
            "counter": str(rng.choice(["int32", "int64"])), "skew": bool(rng.random() < 0.3)}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seed", range(HISTOGRAM_PROGRAMS))
def test_random_histogram(backend, seed):
    p = histogram_program(seed)
    chip = chip_for(backend, seed)
    rng = np.random.default_rng(4000 + seed)
    n, sample, bins = p["n"], np.dtype(p["sample"]), p["bins"]
    what = f"{p}"
    out = np.full(bins, 99, p["counter"])  # old counts are overwritten
    if p["form"] == "bins":
        # Bin numbers below and past `bins` (negative ones read unsigned).
        top = min(int(np.iinfo(sample).max), 2 * bins)
        low = 0 if sample.kind == "u" else -3
        x = rng.integers(low, top, n, endpoint=True).astype(sample)
        if p["skew"] and n:
            x[rng.random(n) < 0.8] = sample.type(min(bins - 1, top))
        got = wd.histogram(x, bins, out=out, backend=backend, chip=chip)
        unsigned = x.view(np.dtype(f"u{sample.itemsize}")).astype(np.uint64)
        want = np.bincount(unsigned[unsigned < bins].astype(np.int64), minlength=bins)
    elif p["form"] == "even":
        integer = sample.kind == "i"
        info = np.iinfo(sample) if integer else None
        lower = int(rng.integers(-50, 10)) if integer else float(rng.uniform(-3, 1))
        upper = lower + (int(rng.integers(1, 100)) if integer else float(rng.uniform(0.5, 4)))
        if integer:
            lower, upper = max(lower, int(info.min)), min(upper, int(info.max))
            x = rng.integers(max(lower - 10, int(info.min)), min(upper + 10, int(info.max)),
                             n).astype(sample)
        else:
            x = rng.uniform(lower - 1, upper + 1, n).astype(sample)
            if n:
                x[rng.random(n) < 0.05] = np.nan
        got = wd.histogram_even(x, bins, lower, upper, out=out, backend=backend, chip=chip)
        want = _counts(_even_bins(x, bins, lower, upper), bins)
    else:
        levels = np.sort(rng.choice(np.arange(-60, 60), min(bins, 100) + 1,
                                    replace=False)).astype(sample)
        bins = len(levels) - 1
        out = np.full(bins, 99, p["counter"])
        x = rng.integers(-70, 70, n).astype(sample)
        got = wd.histogram_range(x, levels, out=out, backend=backend, chip=chip)
        want = _counts(_range_bins(x, levels), bins)
    np.testing.assert_array_equal(np.asarray(got), want.astype(p["counter"]), err_msg=what)


def segmented_program(seed):
    """The segmented reduction drawn for `seed`: a dict of its choices."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(SCAN_TYPES[rng.integers(len(SCAN_TYPES))])
    kinds = INT_KINDS if dtype.kind == "i" else F16_KINDS if dtype.itemsize == 2 else FLOAT_KINDS
    return {"seed": seed, "dtype": dtype, "kind": str(rng.choice(kinds)),
            "n": int(rng.choice([0, 1, int(rng.integers(2, 300)), int(rng.integers(300, 5000))])),
            "offsets": str(rng.choice(["int32", "int64"])), "pair": bool(rng.random() < 0.4),
            "init": bool(rng.random() < 0.4)}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seed", range(SEGMENTED_PROGRAMS))
def test_random_segmented_reduce(backend, seed):
    """Segments of random (begin, end) pairs or S + 1 offsets: empty ones
    (end <= begin), one-element and long ones, gaps between them; `init`
    or the kind's identity. Checked against the left fold of each
    segment from init (data() keeps every kind's fold exact in any
    order)."""
    p = segmented_program(seed)
    chip = chip_for(backend, seed)
    rng = np.random.default_rng(5000 + seed)
    x = data(p["kind"], p["dtype"], p["n"], rng)
    begins, ends = segments(rng, p["n"])
    init = None
    if p["init"]:
        init = x[0] if p["n"] else data(p["kind"], p["dtype"], 1, rng)[0]
    start = identity(p["kind"], p["dtype"]) if init is None else p["dtype"].type(init)
    want = np.array([reduction(p["kind"], np.concatenate([[start], x[b:e]]).astype(p["dtype"]))
                     if e > b else start for b, e in zip(begins, ends)], p["dtype"])
    if p["pair"]:
        offsets = (begins.astype(p["offsets"]), ends.astype(p["offsets"]))
    else:
        # S + 1 offsets: consecutive segments without gaps or empty ones.
        cuts = np.unique(np.concatenate([[0], begins.clip(0, p["n"]), [p["n"]]]))
        offsets = cuts.astype(p["offsets"])
        want = np.array([reduction(p["kind"], np.concatenate([[start], x[b:e]])
                                   .astype(p["dtype"])) if e > b else start
                         for b, e in zip(cuts[:-1], cuts[1:])], p["dtype"])
    got = wd.segmented_reduce(x, offsets, p["kind"], init=init, backend=backend, chip=chip)
    check(np.asarray(got), want, f"{p}")
