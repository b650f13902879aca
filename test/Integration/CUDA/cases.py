"""The GPU test matrix: every case the H200 suite runs, shared by the bundle
builder (which turns each case into an MLIR kernel) and the GPU runner (which
checks each kernel against the reference model in reference.py).

Pure Python, no third-party modules: it runs on the build machine too.
"""

WIDTHS = [1, 2, 4, 8, 16, 32]
MODES = ["idx", "xor", "up", "down"]
OFFSETS = list(range(0, 40))  # past 31 too: PTX uses the low 5 bits.

# Payload types: MLIR type, memref element type, host dtype, host elements
# per lane (vectors), and whether the memref holds i32 standing in for i1.
PAYLOADS = {
    "i1": dict(mlir="i1", elem="i32", dtype="int32", lanes=1),
    "i8": dict(mlir="i8", elem="i8", dtype="int8", lanes=1),
    "i16": dict(mlir="i16", elem="i16", dtype="int16", lanes=1),
    "i32": dict(mlir="i32", elem="i32", dtype="int32", lanes=1),
    "i64": dict(mlir="i64", elem="i64", dtype="int64", lanes=1),
    "index": dict(mlir="index", elem="index", dtype="int64", lanes=1),
    "f16": dict(mlir="f16", elem="f16", dtype="float16", lanes=1),
    "bf16": dict(mlir="bf16", elem="bf16", dtype="uint16", lanes=1),
    "f32": dict(mlir="f32", elem="f32", dtype="float32", lanes=1),
    "f64": dict(mlir="f64", elem="f64", dtype="float64", lanes=1),
    "v2f16": dict(mlir="vector<2xf16>", elem="vector<2xf16>", dtype="float16", lanes=2),
    "v2bf16": dict(mlir="vector<2xbf16>", elem="vector<2xbf16>", dtype="uint16", lanes=2),
    "v4i8": dict(mlir="vector<4xi8>", elem="vector<4xi8>", dtype="int8", lanes=4),
    "v2f32": dict(mlir="vector<2xf32>", elem="vector<2xf32>", dtype="float32", lanes=2),
}

MASKS = [0xFFFFFFFF, 0xFFFF0000, 0x0F0F0F0F, 0x55555555, 0xFFFFFFFE, 0x80000001]

INT_KINDS = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
FLOAT_KINDS = ["add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"]
REDUCE_TYPES = {"i32": INT_KINDS, "i8": ["add", "minsi", "maxui", "xor"],
                "i64": ["add", "maxsi", "minui", "and"],
                "f32": FLOAT_KINDS, "f64": ["add", "minimumf", "maxnumf"],
                "f16": ["add", "maxnumf"], "v2f16": ["add", "minimumf"]}
CLUSTERS = [(1, 1), (2, 1), (4, 1), (8, 1), (16, 1), (32, 1), (4, 2), (2, 16), (8, 4)]
VALID_LANES = [1, 2, 5, 17, 31, 32]
BLOCK_SIZES = [32, 129, 159, 180, 1024]


def strategies(type_name, kind, cluster):
    """Strategies worth forcing for a reduce case on sm_90."""
    result = ["butterfly", "tree"]
    if (cluster == (32, 1) and type_name in ("i32", "i8") and kind != "mul"):
        result.append("redux")
    return result


def shuffle_cases():
    for mode in MODES:
        for width in WIDTHS:
            for type_name in PAYLOADS:
                yield dict(family="shuffle", name=f"shfl_{mode}_w{width}_{type_name}",
                           mode=mode, width=width, type=type_name)


def masked_shuffle_cases():
    for mode in MODES:
        for width in WIDTHS:
            yield dict(family="masked_shuffle", name=f"mshfl_{mode}_w{width}",
                       mode=mode, width=width, type="i32")


def reduce_cases():
    for type_name, kinds in REDUCE_TYPES.items():
        for kind in kinds:
            for cluster in CLUSTERS:
                for strategy in strategies(type_name, kind, cluster):
                    for lanes in ("all", "first"):
                        yield dict(family="reduce",
                                   name=f"red_{kind}_{type_name}_c{cluster[0]}s{cluster[1]}_{strategy}_{lanes}",
                                   kind=kind, type=type_name, cluster=list(cluster),
                                   strategy=strategy, lanes=lanes)
            # Partial warps (valid_lanes given at run time) and auto strategy.
            for strategy in (["auto", "tree"] + (["redux"] if type_name in ("i32", "i8") and kind != "mul" else [])):
                yield dict(family="partial_reduce",
                           name=f"pred_{kind}_{type_name}_{strategy}",
                           kind=kind, type=type_name, strategy=strategy)


# Member masks made of whole clusters: only the mask's lanes execute.
CLUSTER_MASKS = {8: [0xFF00FF00, 0x00FFFF00, 0x000000FF], 16: [0xFFFF0000, 0x0000FFFF]}


def masked_reduce_cases():
    for type_name, kind in (("i32", "add"), ("i32", "maxsi"), ("f32", "add"), ("f32", "minimumf")):
        for size, masks in CLUSTER_MASKS.items():
            for strategy in ("butterfly", "tree"):
                yield dict(family="masked_reduce", name=f"mred_{kind}_{type_name}_c{size}_{strategy}",
                           kind=kind, type=type_name, cluster=[size, 1], strategy=strategy,
                           masks=masks)
    # redux.sync over the lanes of a partial mask (whole-warp cluster).
    for kind in ("add", "minui", "or"):
        yield dict(family="masked_reduce", name=f"mred_{kind}_i32_c32_redux", kind=kind,
                   type="i32", cluster=[32, 1], strategy="redux",
                   masks=[0xFFFF0000, 0x0F0F0F0F, 0x80000001])


def scan_cases():
    for type_name, kinds in (("i32", ["add", "maxsi", "xor", "mul"]),
                             ("f32", ["add", "maximumf"])):
        for kind in kinds:
            for width in WIDTHS:
                for exclusive in (False, True):
                    for reverse in (False, True):
                        yield dict(family="scan",
                                   name=f"scan_{kind}_{type_name}_w{width}_{'ex' if exclusive else 'in'}{'_rev' if reverse else ''}",
                                   kind=kind, type=type_name, width=width,
                                   exclusive=exclusive, reverse=reverse)


def segmented_scan_cases():
    for type_name, kind in (("i32", "add"), ("i32", "maxsi"), ("f32", "add")):
        for width in (8, 32):
            for exclusive in (False, True):
                for reverse in (False, True):
                    yield dict(family="segmented_scan",
                               name=f"sscan_{kind}_{type_name}_w{width}_{'ex' if exclusive else 'in'}{'_rev' if reverse else ''}",
                               kind=kind, type=type_name, width=width, exclusive=exclusive,
                               reverse=reverse)
    # Under member masks made of whole segments (issue 26): only the mask's
    # lanes execute, and its edges bound segments. `masks` as SEGMENT_MASKS.
    for type_name, kind in (("i32", "add"), ("i32", "maxsi"), ("f32", "add")):
        for width in (8, 32):
            for exclusive in (False, True):
                for reverse in (False, True):
                    yield dict(family="segmented_scan",
                               name=f"sscan_{kind}_{type_name}_w{width}_{'ex' if exclusive else 'in'}"
                                    f"{'_rev' if reverse else ''}_masks",
                               kind=kind, type=type_name, width=width, exclusive=exclusive,
                               reverse=reverse, masks=SEGMENT_MASKS)


# ----------------------------------------------------------------------------
# CUDA programs the compiler must accept and get right (semantics.md, "Accept
# every program CUDA defines" and "Verifiers, folds and passes").
# ----------------------------------------------------------------------------

ARMS_BLOCK = 128  # four warps
# Predicate patterns for the branch (run_on_gpu.py turns each into pred[i]).
ARMS_PATTERNS = ["random", "all", "none", "alternating", "lane_lt5", "warp_split", "sparse"]


def arms_cases():
    """Warp-aggregated atomics, broadcast_first and vote in both arms of an
    scf.if: `near` arms differ only in the buffers they use, `identical` arms
    are byte-identical (the same buffers); no pass may merge or hoist them."""
    for variant in ("near", "identical"):
        yield dict(family="arms", name=f"arms_{variant}", variant=variant,
                   block=ARMS_BLOCK, patterns=ARMS_PATTERNS)


# 2-D blocks (z = 1: the kernel numbers its threads x + X y): warp.warp_id
# (not linear) is threadIdx.x / 32, but hardware
# warps hold consecutive *linear* thread indices.
WARP_ID_BLOCKS = [[48, 2, 1], [64, 2, 1], [33, 3, 1]]


# The same with known_block_size, where warp.lane_id lowers to tid.x mod 32
# when x is a multiple of 32 (and stays %laneid elsewhere).
WARP_ID_KNOWN_BLOCKS = [[64, 2, 1], [32, 4, 1], [96, 1, 1], [48, 2, 1], [48, 1, 1]]


def warp_id_2d_cases():
    yield dict(family="warp_id_2d", name="warp_id_2d", blocks=WARP_ID_BLOCKS)
    for block in WARP_ID_KNOWN_BLOCKS:
        yield dict(family="warp_id_2d", name="warp_id_known_" + "x".join(map(str, block)),
                   blocks=[block], known=block)


DYN_OFFSETS = list(range(0, 34))


# Upstream gpu.shuffle's widths: any number of lanes 1..32, not only powers
# of two; constant offsets for the kernels whose width and offset are both
# constants (inside and past the widths, past 31 too).
GPU_SHUFFLE_WIDTHS = list(range(1, 33))
GPU_SHUFFLE_CONST_OFFSETS = [0, 1, 2, 3, 4, 5, 7, 8, 12, 13, 16, 17, 31, 33]


def gpu_shuffle_dyn_cases():
    """Upstream gpu.shuffle (through --convert-gpu-to-warp), checked against
    upstream's meaning of `width` (reference.gpu_shuffle_source): lanes
    0..width-1 take part and only they execute the shuffle.
      run-time width and offset (`variant` dyn): every width, each in a block
        of `width` threads (as upstream's shuffle.mlir, 13 threads for width
        13) and in a block of 32 whose lanes >= width skip the shuffle;
      constant width, run-time offset (const_width): one shuffle per width;
      constant width and offset (const): one shuffle per width and offset."""
    for mode in MODES:
        for type_name in ("i32", "f32", "i64", "v2f16"):
            yield dict(family="gpu_shuffle_dyn", name=f"gshfl_dyn_{mode}_{type_name}",
                       variant="dyn", mode=mode, type=type_name,
                       widths=GPU_SHUFFLE_WIDTHS, offsets=DYN_OFFSETS)
        yield dict(family="gpu_shuffle_dyn", name=f"gshfl_cw_{mode}_i32",
                   variant="const_width", mode=mode, type="i32",
                   widths=GPU_SHUFFLE_WIDTHS, offsets=DYN_OFFSETS)
        yield dict(family="gpu_shuffle_dyn", name=f"gshfl_const_{mode}_i32",
                   variant="const", mode=mode, type="i32",
                   widths=GPU_SHUFFLE_WIDTHS, offsets=GPU_SHUFFLE_CONST_OFFSETS)


def dyn_width_shuffle_cases():
    """warp.shuffle with `width %w`, %w an i32 kernel argument."""
    for mode in MODES:
        for type_name in ("i32", "i64", "f16", "v2f16", "f64"):
            yield dict(family="dyn_width_shuffle", name=f"dshfl_{mode}_{type_name}",
                       mode=mode, type=type_name, widths=WIDTHS, offsets=OFFSETS)


# Any member mask, as __reduce_*_sync(mask, v) takes (fixed "random" ones
# so the runner and a reader see the same list).
ANY_MASKS = [0x0F0F0F0F, 0x55555555, 0x80000001, 0xFFFFFFFE, 0x00000001, 0x7FFFFFFF,
             0xFFFFFFFF, 0x12345678, 0x9E3779B9, 0x00C0FFEE, 0x6B8B4567, 0xA0000005]
ANY_MASK_TYPES = {"i32": INT_KINDS, "i64": ["add", "maxsi", "minui", "xor"],
                  "i8": ["add", "minsi"], "f32": ["add", "mul", "minnumf", "maximumf"],
                  "f64": ["add", "minimumf"], "f16": ["add"], "v2f16": ["add"],
                  "index": ["add", "maxsi"]}
# Cluster 8 under masks that split clusters: each lane gets the reduction over
# the mask's lanes of its own cluster.
SPLIT_MASKS = [0x0F0F0F0F, 0x13571357, 0x80000001, 0xFFFFFFFE, 0x00FF00F0, 0xDEADBEEF]
SPLIT_TYPES = [("i32", "add"), ("i32", "minsi"), ("i64", "xor"), ("f32", "add"),
               ("f32", "maximumf"), ("f64", "add")]


def any_mask_reduce_cases():
    for type_name, kinds in ANY_MASK_TYPES.items():
        for kind in kinds:
            yield dict(family="any_mask_reduce", name=f"amred_{kind}_{type_name}_c32",
                       kind=kind, type=type_name, cluster=32, masks=ANY_MASKS)
    for type_name, kind in SPLIT_TYPES:
        yield dict(family="any_mask_reduce", name=f"amred_{kind}_{type_name}_c8",
                   kind=kind, type=type_name, cluster=8, masks=SPLIT_MASKS)


def valid_scan_cases():
    """warp.scan ... valid_lanes %n: all lanes execute (`all`), or only the
    first n do, with their mask (`ragged`)."""
    for execute, kinds in (("all", [("i32", "add"), ("i32", "maxsi"), ("f32", "add")]),
                           ("ragged", [("i32", "add"), ("f32", "add")])):
        for type_name, kind in kinds:
            for width in (8, 32):
                for exclusive in (False, True):
                    for reverse in (False, True):
                        yield dict(family="valid_scan",
                                   name=f"vscan_{execute}_{kind}_{type_name}_w{width}_"
                                        f"{'ex' if exclusive else 'in'}{'_rev' if reverse else ''}",
                                   kind=kind, type=type_name, width=width, exclusive=exclusive,
                                   reverse=reverse, execute=execute, valid_lanes=VALID_LANES)


def match_float_cases():
    for type_name in ("f32", "f64"):
        yield dict(family="match_float", name=f"match_{type_name}", type=type_name)


def match_bits_cases():
    """match_any of an integer's low bits: every count a strategy takes at
    its edges (1, 8 and 9 around the ballots' default, 31 and 32 for i32,
    32 and 33 for i64's one-word and two-word match), each strategy."""
    for type_name, counts in (("i32", (1, 3, 8, 9, 31, 32)), ("i64", (1, 8, 32, 33, 63))):
        for bits in counts:
            for strategy in ("auto", "match", "ballots"):
                if strategy == "ballots" and bits > 32:
                    continue
                yield dict(family="match_bits", name=f"match_{type_name}_b{bits}_{strategy}",
                           type=type_name, bits=bits, strategy=strategy)


BROADCAST_SOURCES = [0, 5, 31, 32, 37, 100, -1, -31]


def broadcast_any_lane_cases():
    for type_name in ("i32", "i64"):
        yield dict(family="broadcast_any_lane", name=f"bcast_any_{type_name}", type=type_name,
                   sources=BROADCAST_SOURCES)


# Constant offsets a verifier used to reject: (mode, offset); every one at
# widths 8 and 32. PTX uses the offset's low 5 bits.
ANY_OFFSETS = [("up", 9), ("up", -1), ("up", 40), ("down", 8), ("down", 9), ("down", 16),
               ("down", 40), ("idx", 33), ("idx", -3), ("xor", 32), ("xor", 35)]


def shfl_any_offset_cases():
    for mode, offset in ANY_OFFSETS:
        for width in (8, 32):
            tag = f"m{-offset}" if offset < 0 else str(offset)
            yield dict(family="shfl_any_offset", name=f"shfl_const_{mode}_{tag}_w{width}",
                       mode=mode, offset=offset, width=width, type="i32")


# Block-level ops (warp.block_reduce / block_scan / block_broadcast): block
# shapes of every kind the ops promise: multiples of 32, ragged last warps,
# 2-D and 3-D blocks, 1 to 1024 threads.
BLOCK_OP_SHAPES = [(32, 1, 1), (33, 1, 1), (96, 1, 1), (129, 1, 1), (159, 1, 1),
                   (180, 1, 1), (256, 1, 1), (1000, 1, 1), (1024, 1, 1), (1, 1, 1),
                   (16, 8, 1), (7, 9, 3), (48, 2, 2), (10, 10, 10), (32, 32, 1)]
# A block_ops kernel's outputs, in order: out[k * threads + i].
BLOCK_OP_OUTPUTS = ["reduce", "scan", "exclusive", "total", "exclusive_init", "broadcast",
                    "partial", "partial_half", "shuffle_prev", "shuffle_next_or_first",
                    "rotate_half"]
BLOCK_OP_TYPES = {"i32": INT_KINDS, "f32": FLOAT_KINDS, "i64": ["add", "maxsi", "xor"],
                  "f64": ["add", "minimumf"],
                  # Vector payloads, combined element by element (f16 sums of
                  # small integers stay exact; no f16 mul: products of 2s
                  # and 0.5s would leave f16's range).
                  "v2f32": ["add", "mul", "maximumf"], "v4i32": ["add", "minsi", "xor"],
                  "v2f16": ["add", "maxnumf", "minimumf"]}
# The block ops' vector payload beyond PAYLOADS (there it would add cases to
# every warp-level family).
BLOCK_OP_PAYLOADS = {"v4i32": dict(mlir="vector<4xi32>", elem="vector<4xi32>",
                                   dtype="int32", lanes=4)}


def block_op_payload(type_name):
    """The PAYLOADS entry (mlir, elem, dtype, lanes) of a block_ops type."""
    return BLOCK_OP_PAYLOADS.get(type_name) or PAYLOADS[type_name]


# block_scan's algorithms: the default (warp_scans for a block size known
# only at run time) and raking (the reduction raking too: every other kind
# of a type by raking_commutative_only) over every shape; the default for a
# known_block_size (raking up to 64 threads, warp_scans above) on the shapes
# around that limit.
BLOCK_OP_KNOWN_SHAPES = [(33, 1, 1), (8, 8, 1), (4, 4, 4), (96, 1, 1), (16, 8, 1)]


def block_op_cases():
    for algorithm in (None, "raking"):
        for type_name, kinds in BLOCK_OP_TYPES.items():
            for index, kind in enumerate(kinds):
                tag = f"_{algorithm}" if algorithm else ""
                reduce_algorithm = algorithm
                if algorithm == "raking" and index % 2:
                    reduce_algorithm = "raking_commutative_only"
                yield dict(family="block_ops", name=f"block_ops{tag}_{type_name}_{kind}",
                           type=type_name, kind=kind, algorithm=algorithm,
                           reduce_algorithm=reduce_algorithm, known=None, shapes=BLOCK_OP_SHAPES)
    for shape in BLOCK_OP_KNOWN_SHAPES:
        for type_name, kind in (("i32", "add"), ("f32", "maxnumf"), ("i64", "xor"),
                                ("v4i32", "add"), ("v2f32", "maximumf")):
            yield dict(family="block_ops",
                       name=f"block_ops_k{'x'.join(map(str, shape))}_{type_name}_{kind}",
                       type=type_name, kind=kind, algorithm=None, reduce_algorithm=None,
                       known=shape, shapes=[shape])


EXCHANGE_DIRECTIONS = {"b2s": "blocked_to_striped", "s2b": "striped_to_blocked"}
# The block's exchanges also have CUB's warp-striped arrangement.
BLOCK_EXCHANGE_DIRECTIONS = dict(EXCHANGE_DIRECTIONS, b2w="blocked_to_warp_striped",
                                 w2b="warp_striped_to_blocked")

# warp.block_exchange: N items per thread, blocked <-> striped over the whole
# block. Kernels without known_block_size (the block size is read at run
# time, the buffer sized for 1024 threads) run over every shape; kernels with
# a known_block_size run over that shape only (a bigger N fits there).
BLOCK_EXCHANGE_SHAPES = [(32, 1, 1), (33, 1, 1), (96, 1, 1), (129, 1, 1), (159, 1, 1),
                         (180, 1, 1), (256, 1, 1), (1000, 1, 1), (1024, 1, 1), (1, 1, 1),
                         (16, 8, 1), (7, 9, 3), (48, 2, 2), (10, 10, 10)]
BLOCK_EXCHANGE_PLANS = [("i32", 4, None), ("f32", 3, None), ("i64", 2, None),
                        ("f64", 5, None), ("f32", 11, None), ("i32", 1, None),
                        ("f32", 16, (256, 1, 1)), ("f64", 12, (180, 1, 1)),
                        ("i32", 7, (7, 9, 3)), ("i64", 9, (33, 1, 1))]


def block_exchange_cases():
    """Each kernel exchanges, stores, exchanges back (reusing the buffer
    after the next barrier) and stores again."""
    for type_name, n, known in BLOCK_EXCHANGE_PLANS:
        for tag, direction in BLOCK_EXCHANGE_DIRECTIONS.items():
            shape_tag = "rt" if known is None else "k" + "x".join(map(str, known))
            yield dict(family="block_exchange",
                       name=f"bxchg_{tag}_{n}x{type_name}_{shape_tag}",
                       direction=direction, items=n, type=type_name, known=known,
                       shapes=BLOCK_EXCHANGE_SHAPES if known is None else [known])


def block_scan_order_cases():
    """Float sums of random values, bit for bit in the combine order each
    block_scan algorithm documents (the block_ops kernel: its scan outputs)."""
    for algorithm in ("warp_scans", "raking"):
        for type_name in ("f32", "f64"):
            yield dict(family="block_scan_order",
                       name=f"block_scan_order_{algorithm}_{type_name}", type=type_name,
                       kind="add", algorithm=algorithm, known=None, shapes=BLOCK_OP_SHAPES)


def block_combiner_cases():
    """block_reduce / block_scan with combiner regions over tuples (see
    COMBINERS): argmax (declared commutative or not) and the affine map
    (i32, i32), whose two values of one type take two buffers; scans
    inclusive without init (the shifted inclusive scans), exclusive with
    init, with the block totals, under both algorithms."""
    for comb in ("argmax", "argmax_nc", "affine"):
        for algorithm in (None, "raking"):
            tag = f"_{algorithm}" if algorithm else ""
            yield dict(family="block_combiner", name=f"bcmb_reduce_{comb}{tag}", op="reduce",
                       combiner=comb, algorithm=algorithm, shapes=BLOCK_OP_SHAPES)
    for comb in ("affine", "argmax_nc"):
        for algorithm in ("warp_scans", "raking"):
            for exclusive in (False, True):
                yield dict(family="block_combiner",
                           name=f"bcmb_scan_{comb}_{algorithm}_{'ex_init' if exclusive else 'in'}",
                           op="scan", combiner=comb, algorithm=algorithm,
                           exclusive=exclusive, shapes=BLOCK_OP_SHAPES)


# block_reduce / block_scan with `items` (CUB's ITEMS_PER_THREAD overloads):
# each thread's value is a vector<N x T> of its N items, blocked (thread t
# holds items t*N .. t*N+N-1 of the block's B*N). A kernel's outputs, in
# order: the scalar ones (one element per thread) and the vector ones (N
# elements per thread), each output a section of its buffer.
BLOCK_ITEMS_SCALAR_OUTPUTS = ["reduce", "total"]
BLOCK_ITEMS_VECTOR_OUTPUTS = ["scan", "exclusive", "exclusive_init"]
# (type, kind, N, algorithm, known_block_size): every N for i32 and f32,
# some for i64 and f64, each type under both algorithms, and N = 1
# (vector<1xT>, the degenerate thread fold) with each. The known sizes: a
# whole number of warps (128: raking is the integer scans' default there,
# per-warp collectives the others') and a small ragged block (33: raking by
# default).
BLOCK_ITEMS_PLANS = [
    ("i32", "add", 1, None, None), ("i32", "add", 4, None, None),
    ("i32", "add", 7, "raking", None), ("i32", "maxsi", 2, None, None),
    ("i32", "maxsi", 7, None, None), ("i32", "xor", 4, "raking", None),
    ("i32", "xor", 1, "raking", None), ("f32", "add", 2, None, None),
    ("f32", "add", 7, "raking", None), ("f32", "maxnumf", 4, None, None),
    ("f32", "maxnumf", 1, "raking", None), ("i64", "add", 2, "raking", None),
    ("i64", "add", 7, None, None), ("f64", "add", 1, None, None),
    ("f64", "add", 4, "raking", None),
    ("i32", "add", 4, None, (128, 1, 1)), ("i32", "xor", 7, None, (33, 1, 1)),
    ("f32", "add", 7, None, (33, 1, 1)), ("f32", "maxnumf", 2, None, (128, 1, 1)),
    ("i64", "add", 1, "raking", (33, 1, 1)), ("f64", "add", 4, "raking", (128, 1, 1)),
]
# The combiner-region kernels (the affine map of COMBINERS over two
# vector<N x i32>): each reduces, scans inclusively without init (the
# lowering's prefix from the thread before, warp.block_shuffle) and
# exclusively with init and totals. `init`: "first" (thread 0's first items
# of the block) or "identity" ((1, 0), the map x -> x).
BLOCK_ITEMS_REGION_PLANS = [(4, None, "first"), (1, "raking", "identity"),
                            (7, "raking", "first"), (2, None, "identity")]


def block_items_cases():
    for type_name, kind, n, algorithm, known in BLOCK_ITEMS_PLANS:
        tag = f"_{algorithm}" if algorithm else ""
        shape_tag = "_k" + "x".join(map(str, known)) if known else ""
        yield dict(family="block_items", name=f"bitems_{n}x{type_name}_{kind}{tag}{shape_tag}",
                   type=type_name, kind=kind, items=n, algorithm=algorithm, known=known,
                   shapes=BLOCK_OP_SHAPES if known is None else [known])
    for n, algorithm, init in BLOCK_ITEMS_REGION_PLANS:
        tag = f"_{algorithm}" if algorithm else ""
        yield dict(family="block_items", name=f"bitems_affine_{n}xi32{tag}_init_{init}",
                   combiner="affine", items=n, algorithm=algorithm, init=init, known=None,
                   shapes=BLOCK_OP_SHAPES)


# ----------------------------------------------------------------------------
# warp.exchange, warp.elect, warp.atomic_rmw
# ----------------------------------------------------------------------------

EXCHANGE_TYPES = ["i32", "f32", "i64", "f64"]
EXCHANGE_BLOCK = 96  # three warps: each uses its own slice of the buffer
EXCHANGE_GRID = 2


def exchange_cases():
    """Every N in 1..16 (powers of two) x type x direction x strategy; then
    N that are not powers of two (shared memory) and the compiler's choice.
    Each kernel exchanges, stores, exchanges back (reusing the buffer) and
    stores again."""
    plans = [(s, n, t) for s in ("shuffle", "shared") for n in (1, 2, 4, 8, 16)
             for t in EXCHANGE_TYPES]
    plans += [("shared", n, t) for n in (3, 5, 12) for t in ("i32", "f64")]
    plans += [("auto", n, t) for n in (4, 16, 7) for t in ("f32", "i64")]
    # 8- and 16-bit items (one shuffle each, or shared memory with their
    # padding), and more than 32 items per lane (shared memory only; the
    # buffer of three warps fits).
    plans += [(s, n, t) for s, n in (("shuffle", 4), ("shuffle", 32), ("shared", 8),
                                     ("shared", 5), ("auto", 64))
              for t in ("i8", "i16", "f16", "bf16")]
    plans += [("auto", 40, "f32"), ("shared", 128, "i16"), ("auto", 33, "i64")]
    for strategy, n, type_name in plans:
        for tag, direction in EXCHANGE_DIRECTIONS.items():
            yield dict(family="exchange", name=f"xchg_{strategy}_{tag}_{n}x{type_name}",
                       strategy=strategy, direction=direction, items=n, type=type_name,
                       block=EXCHANGE_BLOCK, grid=EXCHANGE_GRID)


def scatter_cases():
    """warp.scatter: every result arrangement x a spread of types and N
    (narrow, wide, beyond 32); the ranks a permutation of the warp's
    positions, or with ranks outside them and positions named twice."""
    for type_name, n in (("i32", 4), ("f16", 8), ("i8", 3), ("bf16", 40), ("f64", 2),
                         ("i16", 64)):
        for striped in (False, True):
            for ranks in ("permutation", "outside"):
                arrangement = "striped" if striped else "blocked"
                yield dict(family="scatter", name=f"scatter_{arrangement}_{ranks}_{n}x{type_name}",
                           striped=striped, ranks=ranks, items=n, type=type_name,
                           block=EXCHANGE_BLOCK, grid=EXCHANGE_GRID)


ELECT_MASKS = [0xFFFFFFFF, 0x80000000, 0x00000001, 0x12345678, 0x80000001, 0x00F0F000,
               0xFFFF0000, 0x55555555, 0xAAAAAAAA, 0x00010000]


def elect_cases():
    """warp.elect: every lane (also a ragged last warp), the lanes of a
    run-time mask (only they execute), a constant sparse mask, and inside the
    arms of a divergent branch (mask: the arm's activemask); each also with
    the elected lane's number as a second result."""
    for leader in (False, True):  # the elected lane's number as a result too
        suffix = "_leader" if leader else ""
        yield dict(family="elect", name="elect_full" + suffix, variant="full", leader=leader,
                   blocks=[32, 80, 128])
        yield dict(family="elect", name="elect_mask" + suffix, variant="mask", leader=leader,
                   masks=ELECT_MASKS)
        yield dict(family="elect", name="elect_const_mask" + suffix, variant="const_mask",
                   leader=leader, mask=0x00F0F000)
        yield dict(family="elect", name="elect_branch" + suffix, variant="branch",
                   leader=leader, block=128, patterns=ARMS_PATTERNS)


ATOMIC_TYPES = ["i32", "f32", "i64", "f64"]
# Keys: few distinct (bins 0..3), all the same, all distinct (per thread).
ATOMIC_KEYS = ["few", "same", "distinct"]
ATOMIC_BLOCK = 100  # a ragged last warp (4 lanes)
ATOMIC_GRID = 3


# The kinds of warp.atomic_rmw and the element types each takes
# (docs/semantics.md: PTX atom's operations; add and exch on floats too).
ATOMIC_KINDS = {"add": ATOMIC_TYPES, "exch": ATOMIC_TYPES,
                **{k: ["i32", "i64"] for k in ("minsi", "maxsi", "minui", "maxui", "and", "or", "xor")}}


def atomic_cases():
    """warp.atomic_rmw of every kind: every thread (ragged last warp), only
    the threads whose predicate holds (divergent, default member set =
    activemask), and only the lanes of a run-time mask (explicit mask). The
    returned old values and the memory left must be those of one
    serialization of the atomics in which each warp's group comes in lane
    order (add: small positive integers, so every partial sum is exact);
    `order` cases (float add, one warp, random floats) check the documented
    float order bit for bit."""
    for kind, types in ATOMIC_KINDS.items():
        for type_name in types:
            for execute in ("all", "divergent", "masked"):
                # A mask names lanes that exist: whole warps for the masked form.
                block = 96 if execute == "masked" else ATOMIC_BLOCK
                name = f"atomic_{execute}_{type_name}" if kind == "add" else \
                    f"atomic_{kind}_{execute}_{type_name}"
                yield dict(family="atomic", name=name, kind=kind, type=type_name,
                           execute=execute, keys=ATOMIC_KEYS, block=block, grid=ATOMIC_GRID)
    for type_name in ("f32", "f64"):
        yield dict(family="atomic", name=f"atomic_order_{type_name}", kind="add",
                   type=type_name, execute="order", keys=ATOMIC_KEYS, block=32, grid=1)


# ----------------------------------------------------------------------------
# Combiner regions, tuples of values, segmented reductions (issue 10)
# ----------------------------------------------------------------------------

# Each combiner: the tuple's types and whether the op declares it
# commutative; `kind` for built-in kinds (one value). The MLIR regions are
# in build_bundle.py, the same functions in reference.py.
COMBINERS = {
    # (value, index): the largest value, NaN largest of all, the lowest index
    # winning ties (+0.0 == -0.0, NaN == NaN).
    "argmax": dict(types=["f32", "i32"], commutative=True),
    "argmax_nc": dict(types=["f32", "i32"], commutative=False),
    # The same over (f16, i16): both travel in one 32-bit shuffle a step.
    "argmax_f16": dict(types=["f16", "i16"], commutative=False),
    # (count, mean, m2), Chan et al.'s pairwise update; not commutative bit
    # for bit, so lane order and the documented tree are checked.
    "welford": dict(types=["i32", "f32", "f32"], commutative=False),
    # (a, b) for x -> a*x + b over i32 with wrap-around; (a1, b1) then
    # (a2, b2) is (a2*a1, a2*b1 + b2): any order mistake shows.
    "affine": dict(types=["i32", "i32"], commutative=False),
    # (max, sum of exp(x - max)): online softmax.
    "softmax": dict(types=["f32", "f32"], commutative=True),
    "add_i32": dict(types=["i32"], commutative=True, kind="add"),
    "add_f32": dict(types=["f32"], commutative=True, kind="add"),
    "maxsi_i32": dict(types=["i32"], commutative=True, kind="maxsi"),
}

# Reduce configurations: (tag, cluster, lanes, strategy, execution) where
# execution is "full", "masks" (any member mask; lanes outside do not
# execute) or "ragged" (valid_lanes %n, only lanes 0..n-1 execute).
COMBINER_REDUCE_CONFIGS = [
    ("all", (32, 1), "all", None, "full"),
    ("first", (32, 1), "first", None, "full"),
    ("c8", (8, 1), "all", None, "full"),
    ("c4s2_first", (4, 2), "first", None, "full"),
    ("c2s16", (2, 16), "all", None, "full"),
    ("bfly_c16", (16, 1), "all", "butterfly", "full"),
    ("tree", (32, 1), "all", "tree", "full"),
    ("masks", (32, 1), "all", None, "masks"),
    ("masks_c8_first", (8, 1), "first", None, "masks"),
    ("ragged", (32, 1), "all", None, "ragged"),
    ("ragged_first", (32, 1), "first", None, "ragged"),
]
FLAG_PATTERNS = ["random", "sparse", "all", "none"]
# Member masks of the segmented cases under masks (execution
# "segment_masks"; reference.segment_mask): "union" is a union of random
# whole segments of each trial's flags; for a number, the flags are made to
# cut segments at the mask's edges, so it is a union of whole segments with
# neighbours outside it; for "edges:M" the flags stay random and M's edges
# alone bound the segments that reach them.
SEGMENT_MASKS = ["union", "union", "union", 0xFFFF0000, 0x00FF0F00, 0x0F0F0F0F, 0x7FFFFFFE,
                 "edges:0x00FFFF00", "edges:0x3C0FF0F0"]


def combiner_cases():
    for comb in ("argmax", "argmax_nc", "argmax_f16", "welford", "affine", "softmax"):
        for tag, cluster, lanes, strategy, execution in COMBINER_REDUCE_CONFIGS:
            yield dict(family="combiner", name=f"cmb_red_{comb}_{tag}", op="reduce",
                       combiner=comb, cluster=list(cluster), lanes=lanes, strategy=strategy,
                       execution=execution, segments=None)
    # Segmented reductions by head and tail flags.
    for comb in ("add_i32", "add_f32", "affine", "argmax_nc"):
        for segments in ("heads", "tails"):
            for lanes in ("all", "first"):
                for execution, cluster in (("full", 32), ("ragged", 32), ("full", 8)):
                    if cluster == 8 and comb != "affine":
                        continue
                    yield dict(family="combiner",
                               name=f"cmb_seg_{comb}_{segments}_{lanes}_{execution}_c{cluster}",
                               op="reduce", combiner=comb, cluster=[cluster, 1], lanes=lanes,
                               strategy=None, execution=execution, segments=segments)
    # The same under member masks made of whole segments (issue 26): the
    # mask's edges bound segments, so no lane outside the mask is read.
    for comb in ("add_i32", "maxsi_i32", "affine", "argmax_nc"):
        for segments in ("heads", "tails"):
            for lanes in ("all", "first"):
                for cluster in (32, 8):
                    if cluster == 8 and comb not in ("maxsi_i32", "affine"):
                        continue
                    yield dict(family="combiner",
                               name=f"cmb_seg_{comb}_{segments}_{lanes}_segmasks_c{cluster}",
                               op="reduce", combiner=comb, cluster=[cluster, 1], lanes=lanes,
                               strategy=None, execution="segment_masks", segments=segments)
    # Scans of tuples with regions (lane order; init stands before the first
    # lane, after the last one when reversed).
    for comb in ("affine", "argmax_nc"):
        for width in (8, 32):
            for exclusive in (False, True):
                for reverse in (False, True):
                    for execution in ("full", "ragged"):
                        init = comb == "affine" and (exclusive or width == 8)
                        if exclusive and not init:
                            continue  # a region needs an init to be exclusive
                        yield dict(family="combiner",
                                   name=f"cmb_scan_{comb}_w{width}_{'ex' if exclusive else 'in'}"
                                        f"{'_rev' if reverse else ''}{'_init' if init else ''}_{execution}",
                                   op="scan", combiner=comb, width=width, exclusive=exclusive,
                                   reverse=reverse, init=init, execution=execution, heads=False)
        for reverse in (False, True):
            yield dict(family="combiner",
                       name=f"cmb_sscan_{comb}{'_rev' if reverse else ''}", op="scan",
                       combiner=comb, width=32, exclusive=False, reverse=reverse, init=False,
                       execution="full", heads=True)
            for width in (8, 32):  # under member masks made of whole segments
                yield dict(family="combiner",
                           name=f"cmb_sscan_{comb}_w{width}{'_rev' if reverse else ''}_segmasks",
                           op="scan", combiner=comb, width=width, exclusive=False,
                           reverse=reverse, init=False, execution="segment_masks", heads=True)


def combiner_runs(case):
    """The (n, mask) pairs a combiner case runs with (lanes of the mask below
    n execute; mask "union": one drawn from each trial's flags, see
    SEGMENT_MASKS) and its segment-flag patterns."""
    if case["execution"] == "masks":
        runs = [(32, m) for m in ANY_MASKS]
    elif case["execution"] == "segment_masks":
        runs = [(32, m) for m in SEGMENT_MASKS]
    elif case["execution"] == "ragged":
        runs = [(n, (1 << n) - 1) for n in VALID_LANES]
    else:
        runs = [(32, 0xFFFFFFFF)]
    segmented = case.get("segments") or case.get("heads")
    return runs, (FLAG_PATTERNS if segmented else ["none"])


def all_cases():
    yield from shuffle_cases()
    yield from masked_shuffle_cases()
    yield from reduce_cases()
    yield from masked_reduce_cases()
    yield from scan_cases()
    yield from segmented_scan_cases()
    yield dict(family="votes", name="votes")
    yield dict(family="blocks", name="block_sum")
    yield from arms_cases()
    yield from warp_id_2d_cases()
    yield from gpu_shuffle_dyn_cases()
    yield from dyn_width_shuffle_cases()
    yield from any_mask_reduce_cases()
    yield from valid_scan_cases()
    yield from match_float_cases()
    yield from match_bits_cases()
    yield from broadcast_any_lane_cases()
    yield from shfl_any_offset_cases()
    yield from block_op_cases()
    yield from block_exchange_cases()
    yield from block_scan_order_cases()
    yield from block_combiner_cases()
    yield from block_items_cases()
    yield from exchange_cases()
    yield from scatter_cases()
    yield from elect_cases()
    yield from atomic_cases()
    yield dict(family="histogram", name="warp_histogram", bins=64, block=256, grid=8)
    yield from combiner_cases()
