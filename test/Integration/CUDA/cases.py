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


def all_cases():
    yield from shuffle_cases()
    yield from masked_shuffle_cases()
    yield from reduce_cases()
    yield from masked_reduce_cases()
    yield from scan_cases()
    yield from segmented_scan_cases()
    yield dict(family="votes", name="votes")
    yield dict(family="blocks", name="block_sum")
