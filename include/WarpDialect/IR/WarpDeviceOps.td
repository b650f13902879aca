//===- WarpDeviceOps.td - device-wide collectives ----------*- tablegen -*-===//
//
// Host-level ops: a collective over every element of a memref in device
// memory, which `warp-expand-device-ops` turns into kernels of warp ops and
// the launches that run them.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_DIALECT_IR_WARPDEVICEOPS_TD
#define WARP_DIALECT_IR_WARPDEVICEOPS_TD

include "WarpDialect/IR/WarpBase.td"

/// The element types a device-wide op takes.
def Warp_DeviceElement : AnyTypeOf<[I8, I16, I32, I64, F16, BF16, F32, F64]>;
def Warp_DeviceMemRef : MemRefRankOf<[Warp_DeviceElement], [1]>;

class Warp_DeviceOp<string mnemonic, list<Trait> traits = []>
    : Warp_Op<mnemonic, traits> {
  code commonDeclarations = [{
    ::mlir::Type getElementType() {
      return ::llvm::cast<::mlir::MemRefType>(getInput().getType())
          .getElementType();
    }
  }];
  let hasVerifier = 1;
}

def Warp_DeviceReduceOp : Warp_DeviceOp<"device_reduce"> {
  let summary = "reduce every element of a memref in device memory (CUB DeviceReduce)";
  let description = [{
    Host code: `output[0] = x_0 (kind) x_1 (kind) ... (kind) x_{n-1}` over
    the `n = dim(input, 0)` elements of `input`, or the kind's identity
    when `n` is 0 (`0` for `add`, `-inf` for `maximumf`, ...; the identities
    of `warp.scan`'s exclusive form). Both memrefs are in device memory
    (`gpu.alloc`, or memory a frontend passes) in the default memory
    space, contiguous (the identity layout), of i8, i16, i32, i64, f16,
    bf16, f32 or f64, with the kind's domain (values combine in that
    type, as CUB's do: an f16 sum rounds to f16 at every step); `output`
    does not overlap `input`. Floats are combined in an order the
    compiler chooses (a tree over blocks and threads), so rounding may
    differ from a sequential sum, as CUB's does.

    `warp-expand-device-ops` replaces the op with the launches of kernels
    made of warp ops (`warp.block_load`, `warp.block_reduce`) in a
    `gpu.module` of their own, and a scratch buffer from `gpu.alloc` that
    it frees afterwards: a grid of a block per tile (capped; each block
    then folds a run of consecutive tiles) into one partial each, then one
    block that folds the partials, except where the input is small enough
    for one block alone (`DeviceTiling::kReduceSingleBlockTiles` tiles):
    that block also writes the result and the second kernel is not
    launched. The op runs in the order of the
    surrounding host code, like the `gpu.launch_func` ops it becomes.

    `cluster_blocks = C` (2 to 8; sm_90, how, never what): the blocks
    that fold the chunks run in thread-block clusters of `C` and combine
    their partials with `warp.cluster_reduce`, one partial per cluster for
    the last block to fold; where the input is small enough for one block
    alone, the grid is one cluster, whose first block writes the result,
    and the second kernel is not launched either.

    ```mlir
    warp.device_reduce <add> %x, %sum : memref<?xf32>, memref<1xf32>
    warp.device_reduce <maxsi> %x, %m cluster_blocks = 2 : memref<?xi32>, memref<1xi32>
    ```
  }];
  let arguments = (ins Warp_CombineKindEnum:$kind,
                       Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<Warp_DeviceMemRef, "", [MemWrite]>:$output,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<2>, IntMaxValue<8>]>>:$cluster_blocks);
  let assemblyFormat = [{
    $kind $input `,` $output (`cluster_blocks` `=` $cluster_blocks^)? attr-dict `:`
    type($input) `,` type($output)
  }];
  let extraClassDeclaration = commonDeclarations;
}

def Warp_DeviceSegmentedReduceOp
    : Warp_Op<"device_segmented_reduce"> {
  let summary = "reduce each segment of a memref in device memory (CUB DeviceSegmentedReduce)";
  let description = [{
    Host code: for each segment `s < S`, `S = dim(output, 0)` (CUB's
    `num_segments`), `output[s] = init (kind) x_b (kind) x_{b+1} (kind) ...
    (kind) x_{e-1}` over the elements `[b, e)` of `input`, where `b =
    begin[s]` and `e = end[s]` (CUB's `d_begin_offsets`,
    `d_end_offsets`); a segment with `e <= b` is empty and gets `init`.
    Without `init` it is the kind's identity (as `warp.device_reduce`'s:
    CUB's `Sum`, `Min` and `Max`). Segments may overlap, leave gaps and
    come in any order; reading outside `input` (a non-empty segment with
    `b < 0` or `e > dim(input, 0)`) is undefined, as it is in CUB.

    The offsets are i32 or i64 memrefs (each of its own type, read as
    signed), with at least `S` elements each; `begin` and `end` may be two
    views of one array of `S + 1` offsets (CUB's usual `d_offsets`,
    `d_offsets + 1`). Kinds, element types and memory as for
    `warp.device_reduce`; `init` is a host value of the element type.

    Combine order (fixed, so float results are reproducible): thread `t`
    of a block of 256 threads folds `x_{b+t}, x_{b+t+256}, ...` serially
    from the left, `warp.block_reduce` combines the 256 folds (each warp's
    tree, then the warps' partials in warp order with the same tree), and
    `init` is combined on the left of that total. A float sum of a segment
    of `L` elements therefore rounds at most `ceil(L / 256) + 11` times
    along any path from an element to the result.

    `warp-expand-device-ops` lowers it to one kernel with one block per
    segment (CUB's `DeviceSegmentedReduce`): blocks take segments
    `blockIdx.x, blockIdx.x + gridDim.x, ...`, so a capped grid
    (`DeviceTiling::kSegmentedReduceMaxBlocks` blocks) covers any number
    of segments; each block's threads stride over its segment, then
    reduce with `warp.block_reduce`. The kernel takes `init` as the
    integer of its bits (a float bitcast), so that any frontend can pass
    it; an op without `init` has a kernel of its own, which combines the
    identity.

    ```mlir
    warp.device_segmented_reduce <add> %x, %sums, %begin, %end
        : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi32>
    warp.device_segmented_reduce <maxsi> %x, %m, %begin, %end init %lowest
        : memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, i64
    ```
  }];
  let arguments = (ins Warp_CombineKindEnum:$kind,
                       Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<Warp_DeviceMemRef, "", [MemWrite]>:$output,
                       Arg<MemRefRankOf<[I32, I64], [1]>, "", [MemRead]>:$begin,
                       Arg<MemRefRankOf<[I32, I64], [1]>, "", [MemRead]>:$end,
                       Optional<Warp_DeviceElement>:$init);
  let assemblyFormat = [{
    $kind $input `,` $output `,` $begin `,` $end (`init` $init^)? attr-dict `:`
    type($input) `,` type($output) `,` type($begin) `,` type($end)
    (`,` type($init)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::Type getElementType() {
      return ::llvm::cast<::mlir::MemRefType>(getInput().getType())
          .getElementType();
    }
  }];
  let hasVerifier = 1;
}

def Warp_DeviceScanOp : Warp_DeviceOp<"device_scan"> {
  let summary = "prefix scan of a memref in device memory (CUB DeviceScan)";
  let description = [{
    Host code: `output[i] = x_0 (kind) ... (kind) x_i` for every `i < n`,
    `n = dim(input, 0)`; with `exclusive`, `output[i] = x_0 (kind) ...
    (kind) x_{i-1}` and `output[0]` is the kind's identity (as
    `warp.scan`'s exclusive form). `output` has at least `n` elements; the
    others are left as they are. Types and memory as for
    `warp.device_reduce`; `input` and `output` may be the same memref (an
    in-place scan).

    `warp-expand-device-ops` lowers it to a single pass over the data
    (decoupled look-back: each tile of `256 x N` elements publishes its
    total, then the prefix of everything before it, and a tile finds its
    prefix by reading its predecessors' published values), with a kernel
    that clears the tiles' status first.

    `cluster_blocks = C` (2 to 8; sm_90, how, never what): the scan kernel
    runs in thread-block clusters of `C` blocks, `C` tiles scanned together
    with `warp.cluster_scan` (each thread's items folded, the cluster's
    exclusive scan of the folds, the items rescanned from it), and the
    look-back goes over clusters instead of tiles: `C` times fewer
    published statuses and look-back steps, for two cluster barriers per
    cluster. Without it, one block per tile.

    **Segmented by keys** (CUB's `InclusiveScanByKey` and
    `ExclusiveScanByKey`, and the `*SumByKey` forms with `add`): with
    `keys %k` (a memref of any device element type, at least `n`
    elements, its own type written after the others), a segment starts at
    `i = 0` and wherever `keys[i] != keys[i-1]`, and the scan restarts at
    each segment: `output[i]` combines the inputs from the start of `i`'s
    segment to `i` (inclusive), or to `i - 1` (exclusive; a segment's
    first element gets the identity). Equality is the key type's `==`, as
    for `warp.device_unique`: integers bit for bit, floats as `arith.cmpf
    oeq` (`-0.0` equals `0.0`; a NaN equals nothing, so it starts a
    segment, and so does the key after it). `output` must not overlap
    `keys` (a tile reads the key before it while others write); it may be
    `input`. `cluster_blocks` does not combine with `keys`.

    With keys a tile holds as many keys as values, sized for the wider of
    the two types (`DeviceTiling`'s bytes a thread), and the tiles scan
    pairs (head seen, value) with the segmented combine `(f, a) . (g, b)
    = (f or g, g ? b : a (kind) b)` (associative; a `warp.block_scan`
    with a combine region), each item's head flag
    computed against the item before it (the previous thread's last key
    through `warp.block_shuffle`, the key before the tile from memory). A
    tile that holds a head publishes its total as its prefix at once (the
    items after its last head do not depend on the tiles before it), so
    the look-back of the tiles after it stops there.

    ```mlir
    warp.device_scan <add> %x, %y exclusive : memref<?xi32>, memref<?xi32>
    warp.device_scan <add> %x, %y cluster_blocks = 4 : memref<?xf32>, memref<?xf32>
    warp.device_scan <maxsi> %x, %y keys %k exclusive
        : memref<?xi32>, memref<?xi32>, memref<?xi64>
    ```
  }];
  let arguments = (ins Warp_CombineKindEnum:$kind,
                       Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<Warp_DeviceMemRef, "", [MemWrite]>:$output,
                       Arg<Optional<Warp_DeviceMemRef>, "", [MemRead]>:$keys,
                       UnitAttr:$exclusive,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<2>, IntMaxValue<8>]>>:$cluster_blocks);
  let assemblyFormat = [{
    $kind $input `,` $output (`keys` $keys^)? (`exclusive` $exclusive^)?
    (`cluster_blocks` `=` $cluster_blocks^)? attr-dict `:`
    type($input) `,` type($output) (`,` type($keys)^)?
  }];
  let extraClassDeclaration = commonDeclarations;
}

/// A device op over a tuple of memrefs with a `combine` region: its
/// CombiningOpInterface is a region's (no kind), over the inputs' element
/// types, and its lowering keeps the input order (not commutative).
class Warp_DeviceTupleOp<string mnemonic>
    : Warp_Op<mnemonic,
              [IsolatedFromAbove, AttrSizedOperandSegments,
               DeclareOpInterfaceMethods<Warp_CombiningOpInterface, ["getCombinedTypes"]>]> {
  let extraClassDefinition = [{
    ::std::optional<::mlir::warp::CombineKind> $cppClass::getKind() {
      return ::std::nullopt;
    }
    ::mlir::Operation::operand_range $cppClass::getValues() { return getInputs(); }
    bool $cppClass::isCommutative() { return false; }
    ::llvm::SmallVector<::mlir::Type> $cppClass::getCombinedTypes() {
      return ::llvm::map_to_vector(getInputs().getTypes(), [](::mlir::Type type) {
        return ::llvm::cast<::mlir::MemRefType>(type).getElementType();
      });
    }
  }];
  let hasVerifier = 1;
  // The region's purity needs its ops verified first.
  let hasRegionVerifier = 1;
}

def Warp_DeviceReduceCombineOp : Warp_DeviceTupleOp<"device_reduce_combine"> {
  let summary = "reduce tuples of memrefs in device memory with a combine region (CUB DeviceReduce::Reduce)";
  let description = [{
    Host code: the `N` memrefs of `inputs` (`n = dim(inputs#0, 0)`
    elements each; the others have at least `n`) are read as `n` tuples
    `x_i = (inputs#0[i], ..., inputs#N-1[i])`, and
    `(outputs#0[0], ..., outputs#N-1[0]) = init (op) x_0 (op) ... (op)
    x_{n-1}`, `(op)` being the `combine` region; `n = 0` gives `init`.
    This is CUB's `DeviceReduce::Reduce(in, out, n, op, init)` over a
    tuple: a region has no identity, so `init` (one value per input, of
    its element type) starts the fold.

    The region is `warp.block_reduce`'s combine region: `2N` block
    arguments (the left tuple, then the right one, of the inputs' element
    types) and a `warp.yield` of the combined tuple, checked by the same
    interface (`CombiningOpInterface`). It must be associative; it need
    not be commutative: the lowering keeps the input order (the left
    operand always holds elements of lower index than the right one), as
    CUB does. It is a pure function of its arguments (no memory effects,
    no ops that need the lanes together) and uses nothing defined outside
    it. Floats combine in a tree over that order (the grouping differs
    from a left fold, so rounding may differ from a sequential one).

    Memrefs as for `warp.device_reduce` (device memory, default space,
    contiguous, i8 to f64); `outputs#i` has `inputs#i`'s element type and
    at least one element (only element 0 is written). The tuple's types
    may differ (e.g. an argmax over `(f32, i32)`).

    `warp-expand-device-ops` lowers it to two kernels of the op's own
    (its region is part of them): `reduce_tiles`, a block per chunk of
    `DeviceTiling::kReduceTilesPerBlock` consecutive tiles (tiles sized by
    the tuple's widest element), each tile loaded with `warp.block_load`,
    each thread folding its consecutive items from the left and the block
    combining the threads' folds in thread order with `warp.block_reduce`'s
    combine-region form (`valid_threads` where the tile is ragged: no
    padding reaches the region), the chunk's tiles folded in order and the
    chunk's partial tuple written to the scratch; then `reduce_finish`,
    one block folding the chunks' partials in order (256 at a time, again
    with `warp.block_reduce`) and writing `init (op) total`. `init`
    travels to both kernels as kernel parameters: where `reduce_tiles`
    runs one block (`n` within one chunk), that block also writes `init
    (op) partial` (`init` for `n = 0`), what `reduce_finish` makes of a
    single partial, and `reduce_finish` is not launched.

    ```mlir
    // argmax, the lowest index winning ties
    warp.device_reduce_combine %v, %i init(%v0, %i0 : f32, i32) into %m, %mi
        : memref<?xf32>, memref<?xi32> -> memref<1xf32>, memref<1xi32>
        combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
      %gt = arith.cmpf ogt, %b, %a : f32
      %r = arith.select %gt, %b, %a : f32
      %ri = arith.select %gt, %bi, %ai : i32
      warp.yield %r, %ri : f32, i32
    }
    ```
  }];
  let arguments = (ins Arg<Variadic<Warp_DeviceMemRef>, "", [MemRead]>:$inputs,
                       Variadic<Warp_DeviceElement>:$init,
                       Arg<Variadic<Warp_DeviceMemRef>, "", [MemWrite]>:$outputs);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $inputs `init` `(` $init `:` type($init) `)` `into` $outputs attr-dict `:`
    type($inputs) `->` type($outputs) `` custom<DeviceCombiner>($combiner)
  }];
}

def Warp_DeviceSegmentedReduceCombineOp : Warp_DeviceTupleOp<"device_segmented_reduce_combine"> {
  let summary = "reduce each segment of tuples of memrefs in device memory with a combine region (CUB DeviceSegmentedReduce::Reduce, ArgMin, ArgMax)";
  let description = [{
    Host code: the `N` memrefs of `inputs` are read as tuples `x_i =
    (inputs#0[i], ..., inputs#N-1[i])`, and for each segment `s < S`, `S
    = dim(outputs#0, 0)` (CUB's `num_segments`), tuple `s` of the outputs
    becomes `(outputs#0[s], ..., outputs#N-1[s]) = init (op) x_b (op)
    x_{b+1} (op) ... (op) x_{e-1}`, `(op)` being the `combine` region,
    over the tuples `[b, e)`, `b = begin[s]`, `e = end[s]` (CUB's
    `d_begin_offsets`, `d_end_offsets`); a segment with `e <= b` is empty
    and gets `init`. This is CUB's `DeviceSegmentedReduce::Reduce(in, out,
    S, begin, end, op, init)` over a tuple, and `init` is combined as
    `warp.device_reduce_combine` combines it: on the left of every
    non-empty segment's fold (CUB folds `init` into every segment alike).
    CUB's `ArgMin` and `ArgMax` are such a region over (value, offset
    within the segment) tuples (the Python frontend's `segmented_argmin`
    and `segmented_argmax`).

    Segments as for `warp.device_segmented_reduce`: any order, overlapping
    or with gaps; `begin` and `end` i32 or i64 memrefs (each its own type,
    read as signed) of at least `S` elements, possibly two views of one
    array of `S + 1` offsets; a non-empty segment lies within every input
    (`0 <= b`, `e <= dim(inputs#0, 0)`), else what it reads is undefined,
    as it is in CUB. Every input has at least `dim(inputs#0, 0)` elements.

    The region is `warp.device_reduce_combine`'s (and `warp.block_reduce`'s
    combine region): `2N` block arguments (the left tuple, then the right
    one, of the inputs' element types) and a `warp.yield` of the combined
    tuple. It must be associative; it need not be commutative: the
    lowering keeps the input order (the left operand always holds tuples
    of lower index than the right one, `init` lowest of all). It is a pure
    function of its arguments and uses nothing defined outside it.

    Memrefs as for `warp.device_reduce_combine` (device memory, default
    space, contiguous, i8 to f64, the tuple's types may differ);
    `outputs#i` has `inputs#i`'s element type and at least `S` elements;
    an output is none of the inputs and offsets (other blocks read them
    while one writes). `init` is one value per input, of its element type.

    `warp-expand-device-ops` lowers it to one kernel of its own (the
    region is part of it) with a block per segment, grid-strided past
    `DeviceTiling::kSegmentedReduceMaxBlocks` blocks, as
    `warp.device_segmented_reduce`'s: the block folds its segment's tiles
    (sized by the tuple's widest element) in order, starting from `init`;
    each tile is loaded with `warp.block_load`, each thread folds its
    consecutive items from the left and the block combines the threads'
    folds in thread order with `warp.block_reduce`'s combine-region form,
    as `warp.device_reduce_combine`'s tiles are (`valid_threads` where the
    tile is ragged: no padding reaches the region). `init` travels to the
    kernel as kernel parameters.

    ```mlir
    // an argmin per segment: the first least value and its index in %i
    // (init, on the left of every fold, wins ties against the elements)
    warp.device_segmented_reduce_combine %v, %i init(%max, %none : f32, i32)
        into %m, %mi segments(%begin, %end : memref<?xi32>, memref<?xi32>)
        : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32>
        combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
      %lt = arith.cmpf olt, %b, %a : f32
      %r = arith.select %lt, %b, %a : f32
      %ri = arith.select %lt, %bi, %ai : i32
      warp.yield %r, %ri : f32, i32
    }
    ```
  }];
  let arguments = (ins Arg<Variadic<Warp_DeviceMemRef>, "", [MemRead]>:$inputs,
                       Variadic<Warp_DeviceElement>:$init,
                       Arg<Variadic<Warp_DeviceMemRef>, "", [MemWrite]>:$outputs,
                       Arg<MemRefRankOf<[I32, I64], [1]>, "", [MemRead]>:$begin,
                       Arg<MemRefRankOf<[I32, I64], [1]>, "", [MemRead]>:$end);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $inputs `init` `(` $init `:` type($init) `)` `into` $outputs
    `segments` `(` $begin `,` $end `:` type($begin) `,` type($end) `)` attr-dict `:`
    type($inputs) `->` type($outputs) `` custom<DeviceCombiner>($combiner)
  }];
}

def Warp_DeviceScanCombineOp : Warp_DeviceTupleOp<"device_scan_combine"> {
  let summary = "prefix scan of tuples of memrefs in device memory with a combine region (CUB DeviceScan::InclusiveScan, ExclusiveScan)";
  let description = [{
    Host code: the `N` memrefs of `inputs` (`n = dim(inputs#0, 0)`
    elements each; the others have at least `n`) are read as `n` tuples
    `x_i = (inputs#0[i], ..., inputs#N-1[i])`, and tuple `i < n` of the
    outputs, `y_i = (outputs#0[i], ..., outputs#N-1[i])`, becomes, `(op)`
    being the `combine` region (CUB's contract):

    * inclusive: `y_i = x_0 (op) ... (op) x_i` (CUB's
      `DeviceScan::InclusiveScan(in, out, op, n)`); with `init`, `y_i =
      init (op) x_0 (op) ... (op) x_i` (CUB's `InclusiveScanInit`);
    * `exclusive`, which needs `init` (a region has no identity): `y_0 =
      init` and `y_i = init (op) x_0 (op) ... (op) x_{i-1}` (CUB's
      `DeviceScan::ExclusiveScan(in, out, op, init, n)`).

    `n = 0` writes nothing. `init` is one value per input, of its element
    type. The outputs' elements past `n` are left as they are.

    The region is `warp.block_scan`'s combine region: `2N` block arguments
    (the left tuple, then the right one, of the inputs' element types) and
    a `warp.yield` of the combined tuple, checked by the same interface
    (`CombiningOpInterface`). It must be associative; it need not be
    commutative: the lowering keeps the input order (the left operand
    always holds elements of lower index than the right one, `init`
    lowest of all). It is a pure function of its arguments (no memory
    effects, no ops that need the lanes together) and uses nothing defined
    outside it. It only ever sees input tuples, `init` and what it
    returned for them: the last tile's items past `n` are copies of
    `x_{n-1}`. Floats combine in a tree over that order (the grouping
    differs from a left fold, so rounding may differ from a sequential
    one).

    Memrefs as for `warp.device_scan` (device memory, default space,
    contiguous, i8 to f64); `outputs#i` has `inputs#i`'s element type and
    at least `n` elements. The tuple's types may differ (e.g. a running
    argmax over `(f32, i32)`). In place is allowed: an output may be an
    input itself (a tile reads all of its elements before it writes any,
    and reads no other tile's); otherwise an output must not overlap an
    input or another output (two outputs that are one memref are a
    verifier error).

    **Segmented by keys** (CUB's `InclusiveScanByKey(keys, in, out, op, n,
    equality_op)` and `ExclusiveScanByKey(keys, in, out, op, init, n,
    equality_op)`): with `keys %k` (a memref of any device element type,
    at least `n` elements, its type written after `keys` past the
    outputs' types), a segment
    starts at `i = 0` and wherever `keys[i-1]` and `keys[i]` are not
    equal, and the scan restarts at each segment: with `s` the start of
    `i`'s segment, `y_i = x_s (op) ... (op) x_i` (inclusive), with `init`
    `y_i = init (op) x_s (op) ... (op) x_i`; `exclusive`: `y_s = init` and
    `y_i = init (op) x_s (op) ... (op) x_{i-1}` (CUB combines `init` in
    front of every segment alike). Equality is the key type's `==` (as
    `warp.device_scan`'s keys: integers bit for bit, floats `arith.cmpf
    oeq`), or an `equal` region after the combine region, `equal(%a: K,
    %b: K) { ... warp.yield %same : i1 }`, called as CUB calls
    `equality_op(keys[i-1], keys[i])` (pure, as the combine region; it need
    not be an equivalence: each neighbour pair is asked once). No output
    may be `keys` (a tile reads the key before it while others write).
    The tiles scan (head seen, tuple) pairs with the segmented combine
    (`warp.device_scan`'s, the region in place of the kind), and a tile
    that holds a head publishes its total as its prefix at once, so that
    the look-back stops there; `init` is combined in front of each item's
    segment value after the scan (never into what the tiles publish), and
    the region only sees input tuples, `init` and its own results.

    `warp-expand-device-ops` lowers it as `warp.device_scan`: a kernel that
    clears the tiles' status, then a single pass of decoupled look-back
    over tiles of `256 x K` tuples (`K` from the tuple's bytes,
    `DeviceTiling`), each loaded with `warp.block_load` and scanned
    inclusively with `warp.block_scan`'s combine-region form; a tile
    publishes its total, then the tuple of everything before and in it
    (`init` in front where there is one), and finds the tuple before it by
    reading its predecessors' published tuples (a `warp.reduce` with the
    region, its operands swapped: the nearest predecessor is lane 0).
    An exclusive tile's items are its inclusive ones moved one item later
    (the previous thread's last through `warp.block_shuffle`). `init`
    travels to the kernels as the integer of its bits (a float bitcast),
    so that any frontend can pass it.

    ```mlir
    // a running argmax, the lowest index winning ties
    warp.device_scan_combine %v, %i into %m, %mi
        : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32>
        combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
      %gt = arith.cmpf ogt, %b, %a : f32
      %r = arith.select %gt, %b, %a : f32
      %ri = arith.select %gt, %bi, %ai : i32
      warp.yield %r, %ri : f32, i32
    }
    // exclusive composition of affine maps x -> a x + b, init first
    warp.device_scan_combine %a, %b init(%a0, %b0 : i32, i32) into %a, %b exclusive
        : memref<?xi32>, memref<?xi32> -> memref<?xi32>, memref<?xi32>
        combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a2, %a1 : i32
      %t = arith.muli %a2, %b1 : i32
      %b3 = arith.addi %t, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    // a running max of each run of keys with the same tens digit
    warp.device_scan_combine %v into %m keys %k
        : memref<?xi32> -> memref<?xi32> keys memref<?xi32>
        combine (%a: i32, %b: i32) {
      %r = arith.maxsi %a, %b : i32
      warp.yield %r : i32
    } equal(%p: i32, %q: i32) {
      %ten = arith.constant 10 : i32
      %pt = arith.divsi %p, %ten : i32
      %qt = arith.divsi %q, %ten : i32
      %same = arith.cmpi eq, %pt, %qt : i32
      warp.yield %same : i1
    }
    ```
  }];
  let arguments = (ins Arg<Variadic<Warp_DeviceMemRef>, "", [MemRead]>:$inputs,
                       Variadic<Warp_DeviceElement>:$init,
                       Arg<Variadic<Warp_DeviceMemRef>, "", [MemWrite]>:$outputs,
                       Arg<Optional<Warp_DeviceMemRef>, "", [MemRead]>:$keys,
                       UnitAttr:$exclusive);
  let regions = (region SizedRegion<1>:$combiner, MaxSizedRegion<1>:$equal);
  let assemblyFormat = [{
    $inputs (`init` `(` $init^ `:` type($init) `)`)? `into` $outputs
    (`keys` $keys^)? (`exclusive` $exclusive^)? attr-dict `:`
    type($inputs) `->` type($outputs) (`keys` type($keys)^)?
    `` custom<DeviceCombiner>($combiner) `` custom<EqualRegion>($equal)
  }];
  let extraClassDeclaration = [{
    /// The keys' element type (null without keys).
    ::mlir::Type getKeyType() {
      return getKeys() ? ::llvm::cast<::mlir::MemRefType>(getKeys().getType())
                             .getElementType()
                       : ::mlir::Type();
    }
  }];
}

def Warp_DeviceSelectOp : Warp_DeviceOp<"device_select"> {
  let summary = "keep the flagged elements of a memref, in order (CUB DeviceSelect::Flagged)";
  let description = [{
    Host code: the elements `x_i` of `input` whose `flags[i]` is not zero
    (`i < n = dim(input, 0)`) go to `output[0 .. k)` in their order, and
    `count[0] = k`; the rest of `output` is left as it is. `flags` has an
    i8 per element (at least `n`; a bool array's bytes), `count` is an i64
    (CUB's `d_num_selected_out`). Types and memory as for
    `warp.device_reduce`; `output` must not overlap `input` or `flags`.

    `warp-expand-device-ops` lowers it like `warp.device_scan`: one pass,
    each tile counting its kept elements (`warp.block_scan` of the
    threads' counts), finding the count before it by decoupled look-back
    and writing its kept elements there.

    ```mlir
    warp.device_select %x, %keep, %y, %k
        : memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<1xi64>
    ```
  }];
  let arguments = (ins Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<MemRefRankOf<[I8], [1]>, "", [MemRead]>:$flags,
                       Arg<Warp_DeviceMemRef, "", [MemWrite]>:$output,
                       Arg<MemRefRankOf<[I64], [1]>, "", [MemWrite]>:$count);
  let assemblyFormat = [{
    $input `,` $flags `,` $output `,` $count attr-dict `:` type($input) `,`
    type($flags) `,` type($output) `,` type($count)
  }];
  let extraClassDeclaration = commonDeclarations;
}

def Warp_DeviceUniqueOp : Warp_DeviceOp<"device_unique"> {
  let summary = "keep the first element of each run of equal ones (CUB DeviceSelect::Unique)";
  let description = [{
    Host code: the elements `x_i` of `input` (`i < n = dim(input, 0)`)
    with `i = 0` or `x_i != x_{i-1}` go to `output[0 .. k)` in their order,
    and `count[0] = k`; the rest of `output` is left as it is. Equality is
    the type's `==`, as CUB's default: integers bit for bit, floats as
    `arith.cmpf oeq` (`-0.0` equals `0.0`; a NaN equals nothing, so every
    NaN is kept). `count` is an i64. Types and memory as for
    `warp.device_select`; `output` must not overlap `input`.

    `warp-expand-device-ops` lowers it as `warp.device_select` with flags
    computed from the tile: each item against the one before it (the
    previous thread's last item through `warp.block_shuffle`, the element
    before the tile from memory).

    ```mlir
    warp.device_unique %x, %y, %k : memref<?xi32>, memref<?xi32>, memref<1xi64>
    ```
  }];
  let arguments = (ins Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<Warp_DeviceMemRef, "", [MemWrite]>:$output,
                       Arg<MemRefRankOf<[I64], [1]>, "", [MemWrite]>:$count);
  let assemblyFormat = [{
    $input `,` $output `,` $count attr-dict `:` type($input) `,`
    type($output) `,` type($count)
  }];
  let extraClassDeclaration = commonDeclarations;
}

def Warp_DeviceRunLengthEncodeOp : Warp_DeviceOp<"device_run_length_encode"> {
  let summary = "the first element and length of each run of equal ones (CUB DeviceRunLengthEncode::Encode)";
  let description = [{
    Host code: the `n = dim(input, 0)` elements of `input` split into runs
    of consecutive equal elements, `k` of them; for run `r` (in order),
    `unique_out[r]` is its first element and `counts_out[r]` its length,
    and `num_runs[0] = k` (an i64, as `warp.device_unique`'s count). An
    empty input has no run: `num_runs[0] = 0`. The elements past `k` of
    both outputs are left as they are. Equality is `warp.device_unique`'s
    (the type's `==`: integers bit for bit, floats `arith.cmpf oeq`, so
    `-0.0` and `0.0` are one run and every NaN is a run of its own), and
    `unique_out[0 .. k)` is exactly what `warp.device_unique` writes.

    The counts are i32 or i64 (CUB's lengths iterator: the `int` of its
    examples, or a 64-bit type for runs of `2^31` elements or more; an i32
    count of such a run wraps). Types and memory as for
    `warp.device_select`; neither output may overlap `input` or the other.

    `warp-expand-device-ops` lowers it as `warp.device_unique` (head flags
    from each element and the one before it, the tile's heads counted by
    a block scan, the count before the tile found by decoupled look-back),
    plus the lengths: each head's tile-local position goes to workgroup
    memory at its run's slot, so that a run's length is the next head's
    position minus its own. The tile's last run may go on in the next
    tiles, so the tile where it ends writes its length, in the same pass:
    each tile stores its last head's position in the scratch (a tile
    without a head hands on the one before it), the look-back names the
    nearest earlier tile that counted a head or a prefix, and the later
    tile's first head (or n, in the last tile) less the position stored
    there is the length. The positions are staged as i16, and tiles hold
    16 items per thread for the narrow types too (`warp.device_unique`'s
    i8 tiles hold 64), so that both stages fit a block's workgroup memory.

    ```mlir
    warp.device_run_length_encode %x, %first, %lengths, %runs
        : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<1xi64>
    ```
  }];
  let arguments = (ins Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<Warp_DeviceMemRef, "", [MemWrite]>:$unique_out,
                       Arg<MemRefRankOf<[I32, I64], [1]>, "", [MemRead, MemWrite]>:$counts_out,
                       Arg<MemRefRankOf<[I64], [1]>, "", [MemWrite]>:$num_runs);
  let assemblyFormat = [{
    $input `,` $unique_out `,` $counts_out `,` $num_runs attr-dict `:`
    type($input) `,` type($unique_out) `,` type($counts_out) `,` type($num_runs)
  }];
  let extraClassDeclaration = commonDeclarations;
}

def Warp_DeviceNonTrivialRunsOp : Warp_DeviceOp<"device_non_trivial_runs"> {
  let summary = "the offset and length of each run of two or more equal elements (CUB DeviceRunLengthEncode::NonTrivialRuns)";
  let description = [{
    Host code: the `n = dim(input, 0)` elements of `input` split into runs
    of consecutive equal elements, as `warp.device_run_length_encode`
    splits them (the type's `==`: integers bit for bit, floats
    `arith.cmpf oeq`, so `-0.0` and `0.0` are one run and every NaN is a
    run of its own); the runs of at least two elements, `k` of them, are
    the non-trivial ones. For the `r`-th of those (in order),
    `offsets_out[r]` is the position in `input` of its first element and
    `lengths_out[r]` its length, and `num_runs[0] = k` (an i64). No
    element, or no two equal neighbours: `num_runs[0] = 0`. The elements
    past `k` of both outputs are left as they are.

    Offsets and lengths are i32 or i64, each of its own type (CUB's
    `OffsetsOutputIterator` and `LengthsOutputIterator`); every position
    of `input` must fit the offsets' type (an i32 offset: fewer than
    `2^31` elements), and an i32 length of a run of `2^32` elements or
    more wraps. Types and memory as for `warp.device_select`; neither
    output may overlap `input` or the other.

    A separate op rather than a form of `warp.device_run_length_encode`:
    its second operand is a position, not an element, so the two take
    different types, and CUB has two entry points.

    `warp-expand-device-ops` lowers it as `warp.device_unique` (one pass,
    decoupled look-back over the tiles' counts), keeping the heads of the
    non-trivial runs: an element that differs from the one before it (or
    is the first) and equals the one after it. The `r`-th such head's run
    ends at the `r`-th element that equals the one before it and differs
    from the one after it (or is the last): no other non-trivial run
    starts or ends between them. So each tile stages in workgroup memory
    the positions of its heads and of the ends of their runs at their
    ranks, then writes each run's offset and, where the run ends in the
    tile, its length, coalesced (as the run-length encoding's). A run
    that ends in a later tile gets its length there, in the same pass, as
    a run-length encoding's does: its end less the last kept head's
    position that the tiles before it stored in the scratch.

    ```mlir
    warp.device_non_trivial_runs %x, %offsets, %lengths, %runs
        : memref<?xf32>, memref<?xi32>, memref<?xi32>, memref<1xi64>
    ```
  }];
  let arguments = (ins Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<MemRefRankOf<[I32, I64], [1]>, "", [MemRead, MemWrite]>:$offsets_out,
                       Arg<MemRefRankOf<[I32, I64], [1]>, "", [MemRead, MemWrite]>:$lengths_out,
                       Arg<MemRefRankOf<[I64], [1]>, "", [MemRead, MemWrite]>:$num_runs);
  let assemblyFormat = [{
    $input `,` $offsets_out `,` $lengths_out `,` $num_runs attr-dict `:`
    type($input) `,` type($offsets_out) `,` type($lengths_out) `,` type($num_runs)
  }];
  let extraClassDeclaration = commonDeclarations;
}

def Warp_DevicePartitionOp : Warp_DeviceOp<"device_partition"> {
  let summary = "flagged elements first, the others after in reverse (CUB DevicePartition::Flagged)";
  let description = [{
    Host code: as `warp.device_select`, and the elements whose flag is
    zero go to `output[k .. n)` in reverse order (the first of them to
    `output[n - 1]`), as CUB's `DevicePartition::Flagged` writes them;
    `count[0] = k`. `output` has at least `n` elements and does not
    overlap `input` or `flags`.

    ```mlir
    warp.device_partition %x, %keep, %y, %k
        : memref<?xi32>, memref<?xi8>, memref<?xi32>, memref<1xi64>
    ```
  }];
  let arguments = (ins Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<MemRefRankOf<[I8], [1]>, "", [MemRead]>:$flags,
                       Arg<Warp_DeviceMemRef, "", [MemWrite]>:$output,
                       Arg<MemRefRankOf<[I64], [1]>, "", [MemWrite]>:$count);
  let assemblyFormat = [{
    $input `,` $flags `,` $output `,` $count attr-dict `:` type($input) `,`
    type($flags) `,` type($output) `,` type($count)
  }];
  let extraClassDeclaration = commonDeclarations;
}

/// A selection by a predicate (CUB's `If` forms): `input`, `output` and
/// `count` as the flagged op's, and a `pred` region in place of the flags.
class Warp_DeviceIfOp<string mnemonic>
    : Warp_DeviceOp<mnemonic, [IsolatedFromAbove]> {
  let arguments = (ins Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<Warp_DeviceMemRef, "", [MemWrite]>:$output,
                       Arg<MemRefRankOf<[I64], [1]>, "", [MemWrite]>:$count);
  let regions = (region SizedRegion<1>:$predicate);
  // The region's checks need its ops verified first.
  let hasRegionVerifier = 1;
  let assemblyFormat = [{
    $input `,` $output `,` $count attr-dict `:` type($input) `,`
    type($output) `,` type($count) custom<Predicate>($predicate)
  }];
  let extraClassDeclaration = commonDeclarations;
}

def Warp_DeviceSelectIfOp : Warp_DeviceIfOp<"device_select_if"> {
  let summary = "keep the elements a predicate holds for, in order (CUB DeviceSelect::If)";
  let description = [{
    Host code: as `warp.device_select`, with the elements `x_i` for which
    the `pred` region yields true in place of the flagged ones: they go to
    `output[0 .. k)` in their order and `count[0] = k`. The region takes
    one element (a block argument of the element type) and ends with
    `warp.yield` of an i1. It is a pure function of that element: only
    ops without memory effects (arith, math, ...; no loads, stores or
    calls, no ops that need the warp's lanes together), and it uses
    nothing defined outside it (constants are made inside).

    `warp-expand-device-ops` lowers it as `warp.device_select`, with each
    thread's keep flags computed by a copy of the region per item of its
    tile instead of read from a flags memref. The region runs only on
    elements that exist (`i < n`), so a predicate that divides by its
    element sees no padding. Each op gets kernels of its own (its
    predicate is part of them).

    ```mlir
    warp.device_select_if %x, %y, %k
        : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
      %half = arith.constant 5.000000e-01 : f32
      %keep = arith.cmpf ogt, %v, %half : f32
      warp.yield %keep : i1
    }
    ```
  }];
}

def Warp_DevicePartitionIfOp : Warp_DeviceIfOp<"device_partition_if"> {
  let summary = "elements a predicate holds for first, the others after in reverse (CUB DevicePartition::If)";
  let description = [{
    Host code: as `warp.device_partition`, with the `pred` region of
    `warp.device_select_if` in place of the flags: the elements it holds
    for go to `output[0 .. k)` in their order, the others to
    `output[k .. n)` in reverse order (the first of them to
    `output[n - 1]`), and `count[0] = k`. `output` has at least `n`
    elements and does not overlap `input`.

    ```mlir
    warp.device_partition_if %x, %y, %k
        : memref<?xi32>, memref<?xi32>, memref<1xi64> pred(%v: i32) {
      %zero = arith.constant 0 : i32
      %keep = arith.cmpi slt, %v, %zero : i32
      warp.yield %keep : i1
    }
    ```
  }];
}

def Warp_DeviceHistogramOp : Warp_DeviceOp<"device_histogram",
    [AttrSizedOperandSegments]> {
  let summary = "count samples into bins (CUB DeviceHistogram)";
  let description = [{
    Host code: `bins[k]` becomes the number of the `n = dim(samples, 0)`
    samples equal to `k` (each an unsigned bin number, i8 to i64); a
    sample of `K` or more (`K` the bins' size) is not counted. The bins
    are i32 or i64 counters in device memory in the default space, as the
    other device ops' memrefs; their old values are overwritten.

    With levels, the samples (i8 to i64, compared as signed, or f16, bf16,
    f32, f64) are values and each is first given its bin; a sample outside
    `[lower, upper)`, and a NaN, is not counted:

    - `even(%lower, %upper : T)` (CUB's `HistogramEven`, `K + 1` levels
      spread evenly): integers go to bin
      `floor((x - lower) * K / (upper - lower))`, exactly; floats to
      `(x - lower) * s` truncated, with `s = K / (upper - lower)` and both
      steps rounded in the samples' type, as CUB computes them (a sample
      just below `upper` that rounds to `K` is counted in bin `K - 1`).
      `lower < upper`, and for i64 samples `(upper - lower) * K` fits in
      64 unsigned bits (CUB's overflow check).
    - `range %levels` (CUB's `HistogramRange`): `levels`, `K + 1`
      increasing values of the samples' type (or another: below) in
      device memory; a sample
      goes to the `k` with `levels[k] <= x < levels[k + 1]` (a binary
      search).

    With `unsigned` (CUB's levels over unsigned integer samples), integer
    samples and their levels compare as unsigned, and the even bin is
    `(x - lower) * K / (upper - lower)` of the unsigned values (i64: as
    above, the product fits 64 bits). Bin-number samples are unsigned
    already: `unsigned` goes with levels only.

    **Levels of another type** (CUB's `LevelT` apart from `SampleT`, e.g.
    u8 pixels with `int` levels, or i32 samples with `double` levels):
    the levels (the `even` pair's type, or the `range` memref's element
    type) may be of any device element type `L` other than the samples'
    `S`. Integer levels of another type are signed (C's `int`, `long
    long`) unless `unsigned_levels` says they are unsigned; `unsigned`
    still says what the samples are. Conversions are C++'s: an integer to
    a wider integer is sign- or zero-extended by its own signedness, to a
    narrower one truncated (modulo); an integer to a float rounds to
    nearest; a float to an integer truncates toward zero (a NaN or a
    value out of the integer's range is undefined, as in C++); floats
    widen or round to nearest. As CUB computes it:

    - `range`: each sample is converted to `L` (CUB's `(LevelT) sample`)
      and compared with the levels in `L` (signed, unsigned or float).
    - `even`: the sample and the levels are converted to `C`, C++'s
      `common_type<L, S>` (the usual arithmetic conversions: a float
      wins over an integer, the wider float over the narrower; integers
      narrower than 32 bits are promoted to a signed i32 first, then the
      wider wins, and of two of one width the unsigned one), and the
      bounds check, the subtraction, the scale and the bin are computed
      in `C` as above (integers: `(x - lower) * K / (upper - lower)`
      exactly at 64 bits; floats: rounded in `C`). A pair of different
      types with an f16 or bf16 has no such common type and is an error.

    **Channels** (CUB's `MultiHistogramEven` / `MultiHistogramRange`):
    with `channels C` the samples are pixels of `C` interleaved channels
    (sample `i` is channel `i mod C` of pixel `i / C`), and `bins` is 2-D,
    `A x K`: row `a` is the histogram of channel `a`, for the first `A`
    channels (CUB's `NUM_ACTIVE_CHANNELS`, `1 <= A <= C <= 16`, `A` static);
    the other channels' samples are not counted. Each row has its own
    levels: `even(%lower0, %upper0, %lower1, %upper1, ... : T)` (a pair per
    active channel, in channel order) or `range %levels` with 2-D `levels`
    of `A x (K + 1)` (row `a`: channel `a`'s). Every channel has the same
    `K` bins (a 2-D memref; CUB also allows a count per channel: a call per
    channel does that). Only whole pixels count: where `n` is not a
    multiple of `C`, the last `n mod C` samples (a partial pixel) are not
    counted (CUB takes a pixel count). Without `channels` the op is the
    one-channel form above, with 1-D bins and levels.

    `warp-expand-device-ops` zeroes the bins, then counts each tile with
    `warp.block_histogram`: into a workgroup copy of the bins where their
    size is static and fits (CUB's privatized histogram), flushed with
    one atomic add per bin and block; straight into the bins otherwise.
    Channels count in one flat histogram of the `A * K` bins (the kernels
    take the 2-D memrefs collapsed), each sample at `a * K` plus its bin.

    ```mlir
    warp.device_histogram %samples, %bins : memref<?xi8>, memref<256xi32>
    warp.device_histogram %x, %bins even(%lo, %hi : f32) : memref<?xf32>, memref<10xi32>
    warp.device_histogram %x, %bins range %levels
        : memref<?xi32>, memref<?xi64>, memref<?xi32>
    // u8 pixels (unsigned) with i32 levels: compared as C++'s int.
    warp.device_histogram %px, %bins unsigned even(%lo, %hi : i32)
        : memref<?xi8>, memref<64xi32>
    warp.device_histogram %x, %bins range %levels
        : memref<?xi32>, memref<?xi64>, memref<?xf64>
    // RGBA pixels, histograms of R, G and B.
    warp.device_histogram %rgba, %rgb channels 4 even(%l0, %u0, %l1, %u1, %l2, %u2 : i8)
        : memref<?xi8>, memref<3x256xi32>
    ```
  }];
  let arguments = (ins Arg<Warp_DeviceMemRef, "", [MemRead]>:$input,
                       Arg<MemRefRankOf<[I32, I64], [1, 2]>, "", [MemRead, MemWrite]>:$output,
                       Variadic<Warp_DeviceElement>:$bounds,
                       Arg<Optional<MemRefRankOf<[Warp_DeviceElement], [1, 2]>>, "",
                           [MemRead]>:$levels,
                       OptionalAttr<I32Attr>:$channels,
                       UnitAttr:$is_unsigned,
                       UnitAttr:$levels_unsigned);
  let assemblyFormat = [{
    $input `,` $output (`channels` $channels^)? (`unsigned` $is_unsigned^)?
    (`unsigned_levels` $levels_unsigned^)?
    (`even` `(` $bounds^ `:` custom<SameTypes>(ref($bounds), type($bounds)) `)`)?
    (`range` $levels^)?
    attr-dict `:` type($input) `,` type($output) (`,` type($levels)^)?
  }];
  let extraClassDeclaration = commonDeclarations # [{
    /// Whether the samples are values given their bins by levels.
    bool hasLevels() { return !getBounds().empty() || getLevels(); }
    /// Whether the levels are even (`lower`, `upper` pairs).
    bool hasEvenLevels() { return !getBounds().empty(); }
    /// L, the levels' type (null without levels).
    ::mlir::Type getLevelType() {
      if (hasEvenLevels())
        return getBounds().front().getType();
      if (getLevels())
        return ::llvm::cast<::mlir::MemRefType>(getLevels().getType())
            .getElementType();
      return {};
    }
    /// Whether the levels are unsigned integers: those of the samples'
    /// type with `unsigned`, those of another with `unsigned_levels`.
    bool hasUnsignedLevels() {
      return getLevelType() == getElementType() ? getIsUnsigned()
                                                : getLevelsUnsigned();
    }
    /// C, the interleaved channels (1 without `channels`).
    int64_t getChannelCount() { return getChannels().value_or(1); }
    /// A, the channels counted: the bins' rows (1 for 1-D bins).
    int64_t getActiveChannelCount() {
      auto type = getOutput().getType();
      return type.getRank() == 2 ? type.getDimSize(0) : 1;
    }
    /// K, the bins per channel (dynamic where unknown).
    int64_t getBinsPerChannel() {
      auto type = getOutput().getType();
      return type.getDimSize(type.getRank() - 1);
    }
  }];
}

/// The radix sorts' key type and bit range (both take the same keys,
/// order and bits).
class Warp_DeviceRadixSortBase<string mnemonic, list<Trait> traits = []>
    : Warp_Op<mnemonic, !listconcat([AttrSizedOperandSegments], traits)> {
  let extraClassDeclaration = [{
    /// The key type.
    ::mlir::Type getKeyType() {
      return ::llvm::cast<::mlir::MemRefType>(getKeysIn().getType())
          .getElementType();
    }
    /// The bits [begin, end) of the key's image that take part.
    unsigned getBeginBitOrDefault() { return getBeginBit().value_or(0); }
    unsigned getEndBitOrDefault() {
      return getEndBit().value_or(getKeyType().getIntOrFloatBitWidth());
    }
  }];
  let hasVerifier = 1;
}

def Warp_DeviceRadixSortOp : Warp_DeviceRadixSortBase<"device_radix_sort",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "stable radix sort of a memref in device memory (CUB DeviceRadixSort)";
  let description = [{
    Host code: `keys_out[0 .. n)` becomes the `n = dim(keys_in, 0)` keys of
    `keys_in` in order (CUB's `SortKeys`); with `values %vin, %vout`
    (CUB's `SortPairs`), `values_out[i]` is the value of `values_in` that
    was at the key that went to `keys_out[i]`. The sort is stable: keys
    equal in the bits that take part keep their input order, and so do
    their values. The elements of the outputs past `n` are left as they
    are; an empty input writes nothing.

    The order is `warp.block_radix_sort`'s: keys compare by their unsigned
    image (integers as they are, or with `signed` their two's complement
    order; floats by their ordered bits, so `-inf < ... < -0.0 < +0.0 <
    ... < +inf` and NaNs by their bits, a positive one last);
    `descending` reverses it (the image complemented); `bits B0 to B1`
    (CUB's `begin_bit`, `end_bit`; default every bit) sorts by bits
    `[B0, B1)` of the image only. Keys and values move bit for bit.

    Keys are i8, i16, i32, i64, f16, bf16, f32 or f64, values any of those
    types; memory as for `warp.device_reduce`. The outputs have at least
    `n` elements, `values_in` as many as the keys; no output may be an
    input or the other output (the passes read one buffer while they
    write another), nor, with `double_buffer`, may any two buffers be
    one.

    `warp-expand-device-ops` lowers it to CUB's onesweep:
    least-significant-digit passes of 8 bits of the image (fewer for the
    last) over tiles of 256 threads x `DeviceTiling::radixSortItemsPerThread`
    (keys alone: 128 bytes, 32 keys a thread for 1- to 4-byte ones;
    pairs: 96 bytes of the wider where keys and values move as items of
    one width, else 64; each moves as at least 4 bytes):

    * *init* (one block) clears the digit totals and the passes' tile
      tickets;
    * *histogram* counts every pass's digits in one read of the keys
      (workgroup atomics, then a global atomic per digit and block; a
      block per tile up to `DeviceTiling::kRadixSortHistogramMaxBlocks`,
      past that each block over an even share of the tiles) and clears
      the first pass's look-back status;
    * *digit starts* (one block) scans each pass's totals into its
      digits' starts (the keys of the smaller digits);
    * *onesweep*, a kernel per pass with a block per tile: a block takes
      its tile from the pass's ticket (an atomic counter, as CUB's
      onesweep: every tile a look-back waits for has started, whatever
      order the blocks start in), loads it warp-striped and ranks it with
      CUB's early-count match ranking (`BlockRadixRankMatchEarlyCounts`):
      each warp counts its images of the pass's digit in its row of a
      workgroup grid (atomics; padding images of all ones after the valid
      keys, which rank last), thread `d` publishes the tile's count of
      digit `d` at once, turns digit `d`'s column into the warps'
      offsets (one block scan gives the tile's keys of the smaller
      digits), and each warp ranks its keys in position order against
      its row (`warp.match_any` of the digit; the group's lowest lane
      adds its size); thread `d` then looks back (decoupled look-back per
      digit: a status word per tile and digit, 32 bits below 2^31 keys,
      else 64; keys only load `DeviceTiling::radixLookBackWindow` tiles'
      words at once) for that digit's keys in the tiles before; then the
      tile is scattered to striped rank order (`warp.block_scatter` of
      32- or 64-bit integers, narrower items as 32) and each key goes to
      its digit's start plus the digit's keys in the tiles before plus
      its rank less the tile's keys of the smaller digits.

    The passes alternate between `keys_out` (and `values_out`) and a
    buffer in the scratch, so that the last one writes the outputs.

    `double_buffer` (CUB's `DoubleBuffer` form) sorts with the two
    buffers of keys (and of values) as the passes' only storage, saving
    the scratch's copy of the data: pass `p` (from 0) reads buffer `p mod
    2` and writes buffer `(p + 1) mod 2`, where buffer 0 is `keys_in`
    (`values_in`) and buffer 1 `keys_out` (`values_out`). The result `i32`
    (CUB's `keys.Current()` selector) is the buffer that holds the sorted
    keys and values: `P mod 2` for the `P = ceil((B1 - B0) / 8)` passes of
    the bits, a constant of the types and bits (1 for keys of 8 bits or
    a bit range of at most 8, 0 for 16, 1 for 24, ...). The other
    buffer's first `n` elements are left as the last pass but one wrote
    them (for one pass, the unsorted input): CUB's "the alternate buffer
    is garbage". Both buffers are read and written, and `keys_in` needs
    no more than `n` elements.

    ```mlir
    warp.device_radix_sort %k, %sorted : memref<?xf32>, memref<?xf32>
    warp.device_radix_sort %k, %sorted values %v, %v_sorted descending
        signed bits 0 to 16
        : memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64>
    %current = warp.device_radix_sort %k0, %k1 values %v0, %v1 double_buffer
        : memref<?xi32>, memref<?xi32>, memref<?xf32>, memref<?xf32> -> i32
    ```
  }];
  // The effects: getEffects (double_buffer writes the inputs too).
  let arguments = (ins Warp_DeviceMemRef:$keys_in,
                       Warp_DeviceMemRef:$keys_out,
                       Optional<Warp_DeviceMemRef>:$values_in,
                       Optional<Warp_DeviceMemRef>:$values_out,
                       UnitAttr:$descending, UnitAttr:$is_signed,
                       OptionalAttr<I32Attr>:$begin_bit,
                       OptionalAttr<I32Attr>:$end_bit,
                       UnitAttr:$double_buffer);
  let results = (outs Optional<I32>:$current);
  let assemblyFormat = [{
    $keys_in `,` $keys_out (`values` $values_in^ `,` $values_out)?
    (`descending` $descending^)? (`signed` $is_signed^)?
    (`bits` $begin_bit^ `to` $end_bit)? (`double_buffer` $double_buffer^)?
    attr-dict `:`
    type($keys_in) `,` type($keys_out) (`,` type($values_in)^ `,` type($values_out))?
    (`->` type($current)^)?
  }];
}

def Warp_DeviceSegmentedRadixSortOp
    : Warp_DeviceRadixSortBase<"device_segmented_radix_sort",
        [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "stable radix sort of each segment of a memref in device memory "
                "(CUB DeviceSegmentedRadixSort)";
  let description = [{
    Host code: for each segment `s < S`, `S = dim(begin, 0)` (CUB's
    `num_segments`), the keys `keys_in[b .. e)`, `b = begin[s]` and `e =
    end[s]` (CUB's `d_begin_offsets`, `d_end_offsets`), are sorted on
    their own into `keys_out[b .. e)`, at the same positions (CUB's
    `DeviceSegmentedRadixSort::SortKeys`); with `values %vin, %vout`
    (`SortPairs`), `values_out[i]` is the value of `values_in` that was at
    the key that went to `keys_out[i]`. A segment with `e <= b` is empty.
    Each segment's sort is stable, and the order, `descending`, `signed`
    and `bits B0 to B1` are `warp.device_radix_sort`'s (floats by their
    ordered bits: `-inf < ... < -0.0 < +0.0 < ... < +inf`, NaNs by their
    bits, a positive one last, a negative one first). The elements of the
    outputs that lie in no segment are left as they are.

    The offsets are i32 or i64 memrefs (each of its own type, read as
    signed); `end` has at least `S` elements, and `begin` and `end` may be
    two views of one array of `S + 1` offsets (CUB's `d_offsets`,
    `d_offsets + 1`). Segments must not overlap, but may leave gaps and
    come in any order; a non-empty segment lies within `keys_in` (`0 <= b`,
    `e <= dim(keys_in, 0)`): otherwise the result is undefined, as it is in
    CUB. Keys, values and memory as for `warp.device_radix_sort`: the
    outputs have at least `dim(keys_in, 0)` elements, `values_in` as many
    as the keys, and no output is an input or the other output.

    `warp-expand-device-ops` lowers it to one kernel with one block per
    segment (blocks take segments `blockIdx.x, blockIdx.x + gridDim.x,
    ...`, a grid capped at `DeviceTiling::kSegmentedReduceMaxBlocks`
    blocks). A segment of at most one tile (`warp.device_radix_sort`'s
    tile) is sorted by one `warp.block_radix_sort` over the op's bits,
    padded with images of all ones, which sort after its keys, and written
    straight to the outputs. A longer one takes least-significant-digit
    passes of 8 bits (fewer for the last) over its tiles, as
    `warp.device_radix_sort`'s passes within one block: the block counts
    the segment's keys per digit (workgroup atomics) and scans the counts
    (the digits' starts); then, tile by tile in order, it counts the
    tile's keys per digit and scans them, sorts the tile stably by the
    digit (`warp.block_radix_sort` over the pass's bits, striped, in one
    `ranking = <match>` counting pass; so too a segment of one tile whose
    bits span at most 8), writes
    each key at its digit's start plus its rank in the sorted tile less
    the tile's keys of the smaller digits, and moves the starts past the
    tile's keys. The passes alternate between the outputs and a scratch
    buffer of the keys' (and values') size, at the same positions, so
    that the last writes the outputs: each pass reads the segment's keys
    twice (to count, to move) and its values once.

    `double_buffer` (CUB's `DoubleBuffer` form of
    `DeviceSegmentedRadixSort::SortKeys` and `SortPairs`), as
    `warp.device_radix_sort`'s: the two buffers of keys (and of values)
    are the passes' only storage (no scratch copy of the data): pass `p`
    of a long segment reads buffer `p mod 2` and writes buffer `(p + 1)
    mod 2` at the segment's positions (buffer 0 `keys_in`, 1 `keys_out`),
    and a segment of one tile is sorted straight into the buffer of the
    result (the block has read its tile before it writes). The result
    `i32` (CUB's `keys.Current()` selector) is that buffer, `P mod 2` for
    the `P = ceil((B1 - B0) / 8)` passes of the bits, for every segment
    alike: what `warp.device_radix_sort` returns for the same keys and
    bits. Within each segment the other buffer is left as a pass left it
    (CUB's "the alternate buffer is garbage"); the elements in no segment
    are left as they are in both. Both buffers are read and written, so
    neither may be an offset array.

    ```mlir
    warp.device_segmented_radix_sort %k, %sorted, %begin, %end
        : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi32>
    %current = warp.device_segmented_radix_sort %k0, %k1, %begin, %begin
        values %v0, %v1 double_buffer
        : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>,
          memref<?xf32>, memref<?xf32> -> i32
    warp.device_segmented_radix_sort %k, %sorted, %begin, %end
        values %v, %v_sorted descending signed bits 0 to 16
        : memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64>,
          memref<?xi64>, memref<?xi64>
    ```
  }];
  // The effects: getEffects (double_buffer writes the inputs too).
  let arguments = (ins Warp_DeviceMemRef:$keys_in,
                       Warp_DeviceMemRef:$keys_out,
                       MemRefRankOf<[I32, I64], [1]>:$begin,
                       MemRefRankOf<[I32, I64], [1]>:$end,
                       Optional<Warp_DeviceMemRef>:$values_in,
                       Optional<Warp_DeviceMemRef>:$values_out,
                       UnitAttr:$descending, UnitAttr:$is_signed,
                       OptionalAttr<I32Attr>:$begin_bit,
                       OptionalAttr<I32Attr>:$end_bit,
                       UnitAttr:$double_buffer);
  let results = (outs Optional<I32>:$current);
  let assemblyFormat = [{
    $keys_in `,` $keys_out `,` $begin `,` $end
    (`values` $values_in^ `,` $values_out)?
    (`descending` $descending^)? (`signed` $is_signed^)?
    (`bits` $begin_bit^ `to` $end_bit)? (`double_buffer` $double_buffer^)?
    attr-dict `:`
    type($keys_in) `,` type($keys_out) `,` type($begin) `,` type($end)
    (`,` type($values_in)^ `,` type($values_out))?
    (`->` type($current)^)?
  }];
}

#endif // WARP_DIALECT_IR_WARPDEVICEOPS_TD
