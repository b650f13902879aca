//===- WarpBlockOps.td - block-level collectives -----------*- tablegen -*-===//
//
// Collectives over every thread of the thread block, built from warp ops,
// workgroup (shared) memory and barriers by warp-expand-block-collectives.
// Like gpu.barrier, every thread of the block must execute them (from
// uniform control flow).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_DIALECT_IR_WARPBLOCKOPS_TD
#define WARP_DIALECT_IR_WARPBLOCKOPS_TD

include "WarpDialect/IR/WarpBase.td"

def Warp_BlockScanAlgorithmAttr : I32EnumAttr<"BlockScanAlgorithm",
    "how a block scan combines its warps", [
    I32EnumAttrCase<"WarpScans", 0, "warp_scans">,
    I32EnumAttrCase<"Raking", 1, "raking">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_BlockScanAlgorithmEnum : EnumAttr<Warp_Dialect,
    Warp_BlockScanAlgorithmAttr, "block_scan_algorithm"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_BlockReduceAlgorithmAttr : I32EnumAttr<"BlockReduceAlgorithm",
    "how a block reduction combines its warps", [
    I32EnumAttrCase<"WarpReductions", 0, "warp_reductions">,
    I32EnumAttrCase<"Raking", 1, "raking">,
    I32EnumAttrCase<"RakingCommutativeOnly", 2, "raking_commutative_only">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_BlockReduceAlgorithmEnum : EnumAttr<Warp_Dialect,
    Warp_BlockReduceAlgorithmAttr, "block_reduce_algorithm"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_RadixRankingAttr : I32EnumAttr<"RadixRankAlgorithm",
    "how a block radix ranking counts its digits", [
    I32EnumAttrCase<"SharedCounters", 0, "grid">,
    I32EnumAttrCase<"MatchCounters", 1, "match">,
    I32EnumAttrCase<"RegisterCounters", 2, "registers">,
    I32EnumAttrCase<"MatchEarlyCounts", 3, "match_early">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_RadixRankingEnum : EnumAttr<Warp_Dialect, Warp_RadixRankingAttr,
    "radix_ranking"> {
  let assemblyFormat = "`<` $value `>`";
}

class Warp_BlockOp<string mnemonic, list<Trait> traits = []>
    : Warp_Op<mnemonic, !listconcat(traits, [Warp_Convergent])>;

def Warp_BlockReduceOp : Warp_BlockOp<"block_reduce",
    [DeclareOpInterfaceMethods<Warp_CombiningOpInterface, ["getCombinedTypes"]>, RecursiveMemoryEffects,
     AttrSizedOperandSegments]> {
  let summary = "reduce a value over every thread of the block";
  let description = [{
    Combines `value` with `kind` (the kinds of `warp.reduce`) over all
    threads of the thread block; every thread gets the result. Any block
    size and shape: 1-D, 2-D and 3-D blocks (threads are numbered
    `x + X * (y + Y * z)`, the hardware's order, so warp `w` holds threads
    `32w .. 32w+31`), sizes that are not a multiple of 32 (the last warp is
    ragged: its missing lanes never reach the combiner), sizes known only at
    run time.

    Combine order (fixed, so float results are reproducible): each warp
    reduces its threads with `warp.reduce`'s tree, then warp 0 reduces the
    warps' partials, in warp order, with the same tree.

    **Combiner regions and tuples**, as `warp.reduce`: instead of a kind, a
    `combine` region over a tuple of `N` values (`2N` block arguments, the
    left tuple then the right one, ending in `warp.yield`), e.g. an argmax
    over `(f32, i32)`. The combiner must be associative; it is taken as not
    commutative (lane and warp order kept, the lower thread on the left)
    unless the op says `commutative`. Each value of the tuple travels
    through a scratch array of its own. The warps' partials are reduced
    over the first `ceil(B / 32)` lanes of warp 0 (`valid_lanes`): a region
    has no neutral padding.

    Lowering (`warp-expand-block-collectives`), `algorithm`
    `warp_reductions` (the default, CUB's `BLOCK_REDUCE_WARP_REDUCTIONS`):
    warp reduce, lane 0 of each warp writes its partial to workgroup
    memory, barrier, warp 0 reduces the partials and writes the total,
    barrier, every thread reads it: two `bar.sync` and one `memref.global`
    of 66 elements per payload type in the enclosing `gpu.module`, shared
    by all block ops of that type. In a kernel that calls no function the
    array has two halves of 66 that the kernel's block ops take in turn (a
    phase each thread keeps in a private variable, a register after LLVM's
    SROA): an op's writes then cannot meet the previous op's last reads,
    so no block op needs a barrier before its first write (CUB's callers
    double-buffer its temp storage for the same reason). Elsewhere one
    half, and `warp.block_broadcast` and the folded `warp.block_scan`
    start with a barrier. A known block of one warp (`known_block_size` of
    at most 32 threads) is that warp's `warp.reduce` over its live lanes,
    the result in every lane: no memory, no barrier. A known block of 2 to
    8 whole warps with an integer kind (exact in any order), alternating
    halves: one barrier, after which every thread folds the parked
    partials itself.

    `algorithm = <raking>` (CUB's `BLOCK_REDUCE_RAKING`, as `block_scan`'s
    raking): every thread stores its value, a barrier, warp 0's lane `l`
    folds the threads `l*S .. min((l+1)*S, B) - 1` (`S = ceil(B / 32)`)
    serially from the left, warp 0 reduces the segment totals with
    `warp.reduce`'s tree over its first `ceil(B / S)` lanes
    (`valid_lanes`), a barrier, every thread reads the total: two barriers,
    the raking buffers of `warp.block_scan`. With `threads = <first>` in a
    kernel whose block ops alternate halves (below) warp 0 keeps the total
    and there is no second barrier: the raking buffers then have two halves
    too, which the kernel's untiled raking ops take in turn with its other
    block ops, so that the next raking op's stores cannot meet warp 0's
    reads. The combine order differs from
    `warp_reductions` (floats may differ in the last bits; integer kinds
    give identical results). The default only for a kind over integers in
    a known block size of the range where raking measured faster than the
    warps' reductions on the H200 (`LoweringThresholds` in
    `LoweringPolicy.h`; the figures in `docs/results/block-probe-h200.txt`):
    elsewhere per-warp reductions (a butterfly or one `redux.sync`) are
    cheaper than the serial segments.

    `algorithm = <raking_commutative_only>` (CUB's
    `BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY`), for a kind or a `commutative`
    region: the threads past the first warp store their values, a barrier,
    warp 0's lane `l` folds its own value with those of threads `l + 32`,
    `l + 64`, ... in that order (consecutive lanes read consecutive slots:
    no bank conflicts, no padding), warp 0 reduces the folds with
    `warp.reduce`'s tree over its first `min(B, 32)` lanes, a barrier,
    every thread reads the total: two barriers and one store less a thread
    of warp 0 than `raking`, in the raking buffers (one barrier with
    `threads = <first>`, as `raking`'s). Not with `valid_threads`; only
    where asked for.

    **Items per thread** (CUB's `Reduce(T (&items)[ITEMS_PER_THREAD],
    op)`): with `items` each value is a vector of the thread's items in
    the blocked arrangement (thread `t` holds items `t*N .. t*N+N-1` of
    the block's `B*N`), and the op reduces all `B*N` items: the results
    (and a region's arguments) have the element types. Each thread first
    folds its items serially from the left (`((i_0 (op) i_1) (op) i_2)
    ...`), then the block reduces the threads' folds as above. A tuple's
    vectors all hold `N` items. Not with `valid_threads`.

    **Partial tiles** (CUB's `Reduce(input, op, num_valid)`): with
    `valid_threads %n` only threads `0 .. n-1` contribute, in thread order
    as above; the values of the others never reach the combiner (a region
    needs no neutral value), and every thread of the block still executes
    the op and gets the result. `n` is the same in every thread of the
    block; below 1 it counts as 1 (thread 0's value), above the block size
    as the block size. A constant `n` below 1 is an error. The lowering is
    `warp_reductions`' over the first `ceil(n / 32)` warps, each warp's
    `warp.reduce` with `valid_lanes` where `n` cuts it (`raking` does not
    take `valid_threads`).

    **Tiles of several warps** (cooperative groups' `tiled_partition<N>`
    for `N` = 64..512, `cg::reduce(tile, x, op)`): with `tile N` (a power
    of two from 64 to 512) the block is split into tiles of `N`
    consecutive threads (thread `t` in tile `t / N`, as rank `t % N`), and
    the op runs independently in each tile exactly as it would in a block
    of `N` threads: every thread gets the reduction over its tile, in the
    combine order above with the tile's warps in place of the block's
    (`valid_threads` and `threads = <first>` count the tile's ranks).
    The block's thread count must be a multiple of `N` with at most 15
    tiles (checked where `known_block_size` states it; a run-time block
    breaking it is undefined), and every thread of a tile executes the
    op (other tiles need not). The lowering is `warp_reductions`' with a
    named barrier per tile (`bar.sync 1 + t / N, N`; barrier 0 stays
    `__syncthreads`'s) and the tile's own 66 slots of the scratch array
    (after the block's, apart for each tile size: a tile's barrier waits
    for no thread outside it); one scratch half, so a tiled op that writes
    before its first barrier starts with the tile's barrier. With `items`
    each thread folds its items first, as without a tile, and the tile
    reduces the folds. `algorithm = <raking>` with `tile` (only where
    asked for: the compiler's choice of a tiled op is `warp_reductions`)
    rakes each tile on its own, warp 0 of the tile folding segments of
    `S = N / 32` ranks, in raking buffers of its own per tile size
    (`@__warp_block_tile_rake`: a group of `N + 32` slots per tile, the
    tile's ranks padded after each segment and its total's slot).

    **Result in thread 0** (CUB's `BlockReduce`, whose result only thread
    0 holds): with `threads = <first>` only thread 0's result is the
    reduction; the other threads' results are values of the type that the
    lowering leaves (no more is promised). Where the kernel's block ops
    alternate halves (the lowering above) this saves the second barrier
    and the total's round trip through workgroup memory; in a known block
    of one warp it is `warp.reduce`'s `lanes = <first>`. The default,
    `<all>`, gives every thread the result.

    ```mlir
    %sum = warp.block_reduce <add> %x : f32
    %part = warp.block_reduce <add> %x valid_threads %n : f32
    %in0 = warp.block_reduce <add> %x threads = <first> : f32
    %all = warp.block_reduce <add> %four items : vector<4xf32>
    %max = warp.block_reduce <maxsi> %i algorithm = <raking> : i32
    %or = warp.block_reduce <or> %i algorithm = <raking_commutative_only> : i32
    %tileSum = warp.block_reduce <add> %x tile 128 : f32
    %tileItems = warp.block_reduce <add> %four items algorithm = <raking> tile 256 : vector<4xf32>
    // argmax over the block, the lowest thread winning ties
    %m, %i = warp.block_reduce %v, %idx : f32, i32
        combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
      %gt = arith.cmpf ogt, %b, %a : f32
      %r = arith.select %gt, %b, %a : f32
      %ri = arith.select %gt, %bi, %ai : i32
      warp.yield %r, %ri : f32, i32
    }
    ```
  }];
  let arguments = (ins OptionalAttr<Warp_CombineKindEnum>:$kind,
                       Variadic<Warp_Payload>:$values, UnitAttr:$items,
                       Optional<I32>:$valid_threads, UnitAttr:$commutative,
                       DefaultValuedAttr<Warp_ResultLanesEnum,
                           "::mlir::warp::ResultLanes::All">:$threads,
                       OptionalAttr<Warp_BlockReduceAlgorithmEnum>:$algorithm,
                       OptionalAttr<I32Attr>:$tile);
  let results = (outs Variadic<Warp_Payload>:$result);
  let regions = (region MaxSizedRegion<1>:$combiner);
  let assemblyFormat = [{
    custom<KindValuesItems>($kind, $values, $items)
    (`valid_threads` $valid_threads^)? (`commutative` $commutative^)?
    (`threads` `=` $threads^)? (`algorithm` `=` $algorithm^)?
    (`tile` $tile^)?
    attr-dict `:` custom<BlockReduceTypes>(ref($items), type($values),
                                          type($result), $combiner)
  }];
  let builders = [
    // A reduction of one value with a built-in kind.
    OpBuilder<(ins "::mlir::warp::CombineKind":$kind, "::mlir::Value":$value)>,
  ];

  let hasVerifier = 1;
}

def Warp_BlockScanOp : Warp_BlockOp<"block_scan",
    [DeclareOpInterfaceMethods<Warp_CombiningOpInterface, ["getCombinedTypes"]>, RecursiveMemoryEffects,
     AttrSizedOperandSegments]> {
  let summary = "prefix combine over every thread of the block";
  let description = [{
    Thread `t` (numbered as in `warp.block_reduce`) gets the combination
    with `kind` of the values of threads `0..t` (inclusive) or `0..t-1`
    (`exclusive`; thread 0 gets the kind's identity, as `warp.scan`). An
    `init` value is a prefix combined in front of every thread, as CUB's
    `BlockPrefixCallbackOp` returns: `init (op) x_0 (op) ... (op) x_{t-1}`,
    so thread 0 of an exclusive scan gets `init`. `init` should be the same
    in every thread (warp 0's is used). When a second result type is
    written, that result is the block's total (without `init`) in every
    thread: carrying `init` and the total through a loop gives CUB's running
    prefix over consecutive tiles.

    **A prefix computed from the block's total** (CUB's
    `BlockPrefixCallbackOp`, as a single-pass device scan's decoupled
    look-back or a running total over a loop of tiles uses it): instead of
    `init`, a `prefix` region (`N` block arguments, the block's totals
    without any prefix, of the combined types; `warp.yield` of `N` values
    of the same types). The region runs once per block, in the lanes of
    warp 0 together (all 32, or the block's threads in a block of fewer),
    each lane with the block's total, after the block's values are
    combined and before any thread's result is. Lane 0's yielded tuple `p`
    is the block's prefix (the other lanes' yields are ignored), and every
    result is exactly that of the same op with `init p` (the same combine
    order in both algorithms; the total result is still without `p`; CUB
    combines `p` last, `p (op) (x_0 (op) ... (op) x_{t-1})`, which for
    floats may round differently). The region may read and write memory
    (e.g. a running total in workgroup or global memory, updated by lane
    0) and use values from around the op, but must not synchronize the
    block: no barrier and no block op in it
    (it runs in one warp; warp collectives over warp 0's lanes are fine).
    Not with `init` or `reverse`. With `items` the region gets the total of
    all the block's items. The lowering scans the warps' totals
    (`warp_scans`) or the segment totals (`raking`) in warp 0 inclusively,
    runs the region on that scan's total, takes lane 0's tuple by a
    shuffle, and gives lane `l` the prefix `p` (lane 0) or
    `p (op) I_{l-1}` (`I` the inclusive scan): the bits `init p` gives.
    The shorter `warp_scans` forms below (one warp; 2 to 8 warps folding
    the totals) are not taken with a prefix region, as not with `init`:
    two barriers and the scratch slots.

    **Combiner regions and tuples**, as `warp.scan`: instead of a kind, a
    `combine` region over a tuple of `N` values (`2N` block arguments, the
    left tuple then the right one, ending in `warp.yield`); `init` is then
    a tuple too, and with a total the results are the `N` scans, then the
    `N` totals. Scans keep thread order (the lower thread on the left), so
    the combiner need only be associative. A region knows no identity: an
    exclusive scan with a region needs `init`. Each value of the tuple
    travels through a buffer of its own. Where an algorithm needs the
    value before a thread's own (an exclusive warp scan, a segment's
    prefix) and no `init` gives one, the lowering takes the inclusive scan
    shifted by one lane (`warp.shuffle <up>`), the same bits as an
    exclusive scan.

    **Reverse** (a suffix scan; CUB has none at block level): with
    `reverse` thread `t` gets `x_t (op) ... (op) x_{B-1}` (inclusive) or
    `x_{t+1} (op) ... (op) x_{B-1}` (exclusive; the last thread gets the
    identity). Values still combine in thread order (the lower thread on
    the left), and `init` stands after the last thread
    (`... (op) x_{B-1} (op) init`), as in `warp.scan`'s `reverse`. The
    lowering is `warp_scans` mirrored: reverse warp scans, lane 0 of each
    warp parks the warp's total, warp 0 scans the totals in reverse, and
    thread `t` of warp `w` gets `S_t (op) Q_w`, `Q_w` being the combination
    of the later warps' totals (`init` at its end); the last warp without
    `init` takes `S_t` alone. `algorithm = <raking>` does not take it.
    With `items`, each thread's items are rescanned from the right:
    item `j` gets `i_j (op) (i_{j+1} (op) ... (i_{N-1} (op) Q))`.

    **Segmented** (a block-wide `warp.scan ... heads`; CUB has none at
    block level): with `heads %flags` (an `i1` per thread, or with `items`
    a `vector<N x i1>`, one per item) a true flag starts a segment at its
    position, as do the block's first position and, with `tile`, each
    tile's; no position combines values across a segment start. Position
    `p` of the segment starting at `s` (ending at `e`) gets `x_s (op) ...
    (op) x_p` (inclusive), `x_s (op) ... (op) x_{p-1}` (exclusive, a head
    gets the kind's identity), and reversed `x_p (op) ... (op) x_e` or
    `x_{p+1} (op) ... (op) x_e` (the segment's last position gets the
    identity). Not with `init`, a `prefix` region or the block totals; an
    exclusive scan needs a kind (a region has no identity, and no `init`
    here). Lowering: a block scan without heads over `(flag word, values)`
    tuples (every algorithm, `items`, `reverse` and `tile` alike), whose
    combine region keeps the right run's values from its head on
    (reversed: the left run's up to its first later head) and otherwise
    combines as the kind or region does; an exclusive scan's `init` is an
    empty run the combine passes over, so no identity is combined into a
    value. The combine order within a segment is the algorithm's.

    **Items per thread** (CUB's `InclusiveScan(T (&input)[N], T
    (&output)[N], ...)` and the exclusive forms): with `items` each value
    is a vector of the thread's `N` items in the blocked arrangement
    (thread `t` holds items `t*N .. t*N+N-1`), and the op scans all `B*N`
    items in that order: item `j` of thread `t` gets the combination of
    every item before it (exclusive) or up to it (inclusive). The scans
    have the values' vector types; `init`, the totals and a region's
    arguments have the element types. Combine order: each thread folds
    its items serially from the left, the block scans the threads' folds
    exclusively (as above, `init` in front), and each thread rescans its
    items serially from its prefix: item `j` gets `((P (op) i_0) (op) i_1)
    ... (op) i_j` (thread 0 without `init` starts from `i_0`). A region
    without `init` (inclusive) takes its prefix as the inclusive block
    scan of the folds, read from the thread before (`warp.block_shuffle`).

    **Tiles of several warps** (`tiled_partition<N>`, N = 64..512): with
    `tile N` each tile of `N` consecutive threads scans its own values as
    a block of `N` threads would (thread `t` gets the combination over
    ranks `0 .. t % N` of its tile `t / N`, `init` in front of each tile,
    the total being the tile's), with the rules and lowering of
    `warp.block_reduce`'s `tile`: a named barrier per tile; with `items`
    the tile scans its threads' folds and each thread rescans its items
    from its prefix (in the tile); `algorithm = <raking>` only where asked
    for (the compiler's choice of a tiled scan is `warp_scans`), each tile
    raking its own segments in raking buffers of its own per tile size,
    as `warp.block_reduce`'s.

    `algorithm` chooses the lowering and with it the combine order (fixed
    for each, so float results are reproducible run to run; integer kinds
    give identical results under both, the kinds being associative):

    * `warp_scans` (CUB's `BLOCK_SCAN_WARP_SCANS`): each warp scans its
      threads (`warp.scan`'s Kogge-Stone), lane 0 of each warp parks the
      warp's total in workgroup memory, a barrier, warp 0 scans the warps'
      totals exclusively (Kogge-Stone, `init` in front), a barrier, and
      thread `t` of warp `w` gets `P_w (op) S_t`, `P_w` being its warp's
      prefix and `S_t` its own warp scan (warp 0 without `init` takes
      `S_t` alone). The total is warp 0's Kogge-Stone combination of the
      warps' totals (without `init`). Two barriers, the scratch array of
      `warp.block_reduce`. Two shorter forms where the `known_block_size`
      allows them, for a kind without `init`: a block of one warp (at most
      32 threads) is its warp scan over the live lanes (no memory, no
      barrier); a block of 2 to 8 whole warps of an integer kind (exact in
      any order) has lane 31 of each warp park the warp's total (in the
      scratch array's prefix slots, which no block op writes before its
      first barrier, so that the next block op cannot overwrite a total
      still being read; after a barrier where the kernel's block ops do not
      alternate the array's halves), and after one barrier every thread
      folds the totals of the warps before its own (CUB's form: no scan of
      the totals in warp 0, one barrier).
    * `raking` (CUB's `BLOCK_SCAN_RAKING`): every thread stores its value
      to workgroup memory, a barrier, then warp 0 alone works: lane `l`
      owns the segment of threads `l*S .. min((l+1)*S, B) - 1`,
      `S = ceil(B / 32)`, folds it serially from left to right
      (`((x_a (op) x_a+1) (op) ...)`), warp 0 scans the segment totals
      exclusively (Kogge-Stone, `init` in front), and lane `l` rescans its
      segment serially from its prefix `Q_l`: thread `t` gets
      `((Q_l (op) x_a) (op) ...) (op) x_t` (lane 0 without `init` starts
      from `x_a`), written back in place; a barrier, every thread reads its
      result. The total is warp 0's Kogge-Stone combination of the segment
      totals (without `init`). Two barriers, a buffer of `B_max + 1` elements per payload
      type (`@__warp_block_rake`, `B_max` from `known_block_size`, else
      1024; the last element holds the block total). Where a known block
      gives segments of an even length `S`, the buffer has a padding element
      after each segment (thread `t` at `t + t / S`; lane `l`'s segment
      then starts at `l (S + 1)`, an odd stride, so warp 0's lanes walk
      their segments without bank conflicts); and in a known block of
      `32 S` threads each lane keeps its segment in registers between the
      fold and the rescan (CUB's `RAKING_MEMOIZE`), `S + 1` loads per lane.

    Without `algorithm` the lowering picks `raking` in a known block that
    is small and not a whole number of warps (unless the scan is its one
    warp's: a kind without `init`), and for a kind over integers (exact in
    any combine order, so the choice changes no result) in a known block
    size of the range where raking measured faster on the H200; else
    `warp_scans` (also when the block size is unknown). The sizes are
    `LoweringThresholds` in `LoweringPolicy.h`; the measurements
    (`benchmarks/device/block_probe.py`) are in
    `docs/results/block-probe-h200.txt`. In the middle range only warp 0
    rakes while the other warps' slots of the SM go to other blocks; at
    1,024 threads warp 0's serial segments of 32 items cost more than they
    save; floats keep `warp_scans`' combine order at every size. In a
    small ragged block raking's segments hold at most 2 items and it needs
    no masked warp scan of a partial warp.

    ```mlir
    %incl = warp.block_scan <add> %x : i32
    %excl, %total = warp.block_scan <add> %x exclusive init %running : f32, f32
    %r = warp.block_scan <maxsi> %x algorithm = <raking> : i32
    %s4, %tot4 = warp.block_scan <add> %four items exclusive : vector<4xi32>, i32
    %suffix = warp.block_scan <add> %x reverse : i32
    %inTile = warp.block_scan <add> %x exclusive tile 64 : i32
    %runs = warp.block_scan <add> %x exclusive heads %starts : i32
    %runs4 = warp.block_scan <maxsi> %four items reverse heads %starts4 : vector<4xi32>
    // A running total over tiles, kept in workgroup memory (CUB's
    // BlockPrefixCallbackOp): lane 0 reads it, adds the tile's total and
    // writes it back.
    %run = warp.block_scan <add> %x exclusive : i32 prefix(%tile: i32) {
      %lane = warp.lane_id : i32
      %old = memref.load %running[] : memref<i32, #gpu.address_space<workgroup>>
      %is0 = arith.cmpi eq, %lane, %c0 : i32
      scf.if %is0 {
        %new = arith.addi %old, %tile : i32
        memref.store %new, %running[] : memref<i32, #gpu.address_space<workgroup>>
      }
      warp.yield %old : i32
    }
    // An affine map x -> a x + b composed over the block (not commutative).
    %a, %b = warp.block_scan %ma, %mb : i32, i32
        combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a1, %a2 : i32
      %t = arith.muli %b1, %a2 : i32
      %b3 = arith.addi %t, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    ```
  }];
  let arguments = (ins OptionalAttr<Warp_CombineKindEnum>:$kind,
                       Variadic<Warp_Payload>:$values, UnitAttr:$items,
                       Variadic<Warp_Payload>:$init, UnitAttr:$exclusive,
                       UnitAttr:$reverse,
                       Optional<AnyTypeOf<[I1, FixedVectorOfRankAndType<[1], [I1]>],
                                          "i1, or vector<N x i1> with items">>:$heads,
                       OptionalAttr<Warp_BlockScanAlgorithmEnum>:$algorithm,
                       OptionalAttr<I32Attr>:$tile);
  // The scans of the N values, then (optionally) the N block totals.
  let results = (outs Variadic<Warp_Payload>:$result);
  let regions = (region MaxSizedRegion<1>:$combiner,
                        MaxSizedRegion<1>:$prefix);
  let assemblyFormat = [{
    custom<KindValuesItems>($kind, $values, $items)
    (`exclusive` $exclusive^)? (`reverse` $reverse^)? (`heads` $heads^)?
    (`init` $init^)? (`algorithm` `=` $algorithm^)? (`tile` $tile^)?
    attr-dict `:` custom<BlockScanTypes>(ref($items), ref($values), ref($init),
                                         type($values), type($init),
                                         type($result), $combiner)
    `` custom<HeadsType>(ref($heads), ref($items), ref(type($values)), type($heads))
    custom<PrefixRegion>($prefix)
  }];
  let extraClassDeclaration = [{
    /// The N scanned values, one per value.
    ::mlir::ResultRange getScanned() {
      return getResult().take_front(getValues().size());
    }
    /// The N block totals, or an empty range.
    ::mlir::ResultRange getTotal() {
      return getResult().drop_front(getValues().size());
    }
    /// Whether a prefix stands in front of every thread: `init`, or a
    /// `prefix` region.
    bool hasPrefix() { return !getInit().empty() || !getPrefix().empty(); }
  }];
  let hasVerifier = 1;
}

def Warp_BlockBroadcastOp : Warp_BlockOp<"block_broadcast",
    [AllTypesMatch<["value", "result"]>]> {
  let summary = "every thread of the block gets one thread's value";
  let description = [{
    Every thread gets `value` of the thread numbered `thread` (numbered as
    in `warp.block_reduce`; `thread` should be the same in every thread and
    below the block size, otherwise the result is undefined).

    Lowering: the source thread writes to workgroup memory, a barrier,
    every thread reads; a barrier in front (earlier readers of the scratch
    slot are done) where the kernel's block ops do not alternate the
    scratch array's halves (see `warp.block_reduce`).

    With `tile N` (as `warp.block_reduce`'s: `N` = 64..512, a power of
    two) each tile of `N` consecutive threads broadcasts on its own:
    thread `t` gets `value` of rank `thread` of its tile, i.e. of thread
    `(t / N) * N + thread` (`thread` below `N`, the same in the tile), CG's
    `tile.shfl(x, thread)`; a named barrier per tile.

    ```mlir
    %pivot = warp.block_broadcast %x, %c0 : f32
    %lead = warp.block_broadcast %x, %c0 tile 256 : f32
    ```
  }];
  let arguments = (ins Warp_Payload:$value, I32:$thread,
                       OptionalAttr<I32Attr>:$tile);
  let results = (outs Warp_Payload:$result);
  let assemblyFormat =
      "$value `,` $thread (`tile` $tile^)? attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Warp_BlockBallotOp : Warp_BlockOp<"block_ballot"> {
  let summary = "lane mask of a block or tile wider than a warp "
                "(CG `tile.ballot` for N > 32)";
  let description = [{
    The ballot of a whole block, or with `tile N` of the executing thread's
    tile of `N` threads (cooperative groups' `tile.ballot(p)` of a
    `tiled_partition<N>`, `N` = 64..512, whose mask has more than 32
    bits), as a vector of `W` 32-bit words: bit `i` of word `w` is the
    predicate of the thread of rank `32 w + i` (numbered as in
    `warp.block_reduce`; with `tile N` the rank `t % N` in tile `t / N`).
    Ranks past the block (a ragged last warp) give 0. Every thread gets
    the whole mask; the count of threads whose predicate holds is the sum
    of `math.ctpop` of the words.

    `W` is fixed by the type: `N / 32` with `tile N`, else `ceil(B / 32)`
    for the block's `B` threads of the `gpu.func`'s `known_block_size`
    (the verifier rejects a block ballot without `tile` in a function
    whose block size it does not know, and a `W` other than these). The
    rules of `tile` are those of `warp.block_reduce`'s.

    Lowering (`warp-expand-block-collectives`): each warp's `warp.ballot`
    (of its live lanes), lane 0 of each warp parks its word in warp `w`'s
    prefix slot of the block scratch array of i32 (the slots of the folded
    `warp.block_scan`'s warp totals, which the next block op writes only
    after its first barrier; with `tile` the tile's), a barrier (the
    tile's named barrier with `tile`), and every thread loads the `W`
    words. As `warp.block_broadcast`, a barrier in front (earlier readers
    of the slots are done) where the kernel's block ops do not alternate the
    scratch array's halves, and always with `tile`. A known block of at
    most 32 threads has one word, its warp's `warp.ballot`: no memory, no
    barrier.

    ```mlir
    // A block of 256 threads (known_block_size): 8 words.
    %mask = warp.block_ballot %p : vector<8xi32>
    // CG's tiled_partition<128>(block).ballot(p): 4 words per tile.
    %tileMask = warp.block_ballot %p tile 128 : vector<4xi32>
    ```
  }];
  let arguments = (ins I1:$predicate, OptionalAttr<I32Attr>:$tile);
  let results = (outs FixedVectorOfRankAndType<[1], [I32]>:$result);
  let assemblyFormat =
      "$predicate (`tile` $tile^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Warp_TileSyncOp : Warp_Op<"tile_sync",
    [MemoryEffects<[MemRead, MemWrite, MemRead<Warp_LanesResource>,
                    MemWrite<Warp_LanesResource>]>]> {
  let summary = "barrier of a tile of several warps (CG tile.sync())";
  let description = [{
    The barrier of cooperative groups' `thread_block_tile<N>::sync()` for
    `N` = 64..512 (a power of two): the block is split into tiles of `N`
    consecutive threads (thread `t` in tile `t / N`), and a thread waits
    until every thread of its tile has arrived; the tile's workgroup and
    global memory accesses before it are visible to the tile's threads
    after it. Threads of other tiles are not waited for. The rules of the
    block ops' `tile` hold: the block a multiple of `N` threads, at most
    15 tiles (checked where `known_block_size` states it), every thread
    of the tile executes it.

    Lowering (`warp-expand-block-collectives`): `bar.sync 1 + t / N, N`,
    a named barrier per tile (barrier 0 stays `__syncthreads`'s).

    ```mlir
    warp.tile_sync 128
    ```
  }];
  let arguments = (ins I32Attr:$size);
  let assemblyFormat = "$size attr-dict";
  let hasVerifier = 1;
}

def Warp_BlockShuffleModeAttr : I32EnumAttr<"BlockShuffleMode",
    "which thread a block shuffle reads", [
    I32EnumAttrCase<"Offset", 0, "offset">,
    I32EnumAttrCase<"Rotate", 1, "rotate">,
    I32EnumAttrCase<"Xor", 2, "xor">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_BlockShuffleModeEnum : EnumAttr<Warp_Dialect,
    Warp_BlockShuffleModeAttr, "block_shuffle_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_BlockShuffleOp : Warp_BlockOp<"block_shuffle",
    [AllTypesMatch<["value", "result"]>]> {
  let summary = "every thread reads another thread's value (CUB `BlockShuffle`)";
  let description = [{
    Thread `t` of a block of `B` threads (numbered as in
    `warp.block_reduce`) reads `value` of another thread, `distance`
    threads away:

    - `offset` (CUB's `BlockShuffle::Offset`): thread `t + distance`. Where
      that is not a thread of the block (below 0 or from `B` on), the
      result is the thread's own `value` (CUB leaves its output as it
      was) and `valid` is false; else `valid` is true.
    - `rotate` (`BlockShuffle::Rotate`): thread `(t + distance) mod B`,
      the modulo taken non-negative, so any `distance` (also negative or
      past `B`) names a thread; `valid` is always true.
    - `xor` (a butterfly; cooperative groups' `tile.shfl_xor(x, mask)`
      with `tile`): thread `t ^ distance`, the XOR of the two bit
      patterns (a negative `distance` names no thread). Where that is not
      a thread of the block (from `B` on, which a ragged block or a
      `distance` of `B` or more gives), the result is the thread's own
      `value` and `valid` is false, as for `offset`; else `valid` is true.

    `distance` may differ from thread to thread. CUB's `Up` and `Down`
    (each thread's predecessor or successor) are `offset` by -1 and +1;
    `BlockDiscontinuity`'s head flags are `value != result` of `offset`
    -1 (true where `valid` is false, in thread 0), its tail flags those of
    `offset` +1; `BlockAdjacentDifference` subtracts the result of `offset`
    -1 (or +1) from `value`.

    Lowering: a barrier (earlier readers of the buffer are done), every
    thread writes its value to its slot of a workgroup buffer of one
    element per thread, a barrier, every thread reads its source's slot.
    The buffer is the block exchange buffer of the payload type (one per
    type in the `gpu.module`, sized for the largest block).

    With `tile N` (as `warp.block_reduce`'s: `N` = 64..512, a power of
    two; cooperative groups' `tile.shfl_up/down`, `tile.shfl_xor` and
    rotations of a `tiled_partition<N>`) each tile of `N` consecutive threads shuffles on
    its own, as a block of `N` threads: `t` and `B` above are the thread's
    rank `t % N` and `N`, the source a rank of the same tile. Its barriers
    are the tile's named barrier, and its buffer is a second one per
    payload type (`@__warp_block_tile_exchange`, a slot per thread), which
    only tiled shuffles use: a tile's barrier does not wait for the other
    tiles, which may still read the block exchange buffer.

    ```mlir
    %prev, %has = warp.block_shuffle <offset> %x, %cm1 : f32
    %next, %in = warp.block_shuffle <rotate> %x, %c1 : i32
    %up, %ok = warp.block_shuffle <offset> %x, %cm1 tile 128 : f32
    %partner, %in = warp.block_shuffle <xor> %x, %c64 tile 256 : f32
    ```
  }];
  let arguments = (ins Warp_BlockShuffleModeEnum:$mode, Warp_Payload:$value,
                       I32:$distance, OptionalAttr<I32Attr>:$tile);
  let results = (outs Warp_Payload:$result, I1:$valid);
  let assemblyFormat = [{
    $mode $value `,` $distance (`tile` $tile^)? attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

def Warp_BlockShiftDirectionAttr : I32EnumAttr<"BlockShiftDirection",
    "which way a block shift moves the block's items", [
    I32EnumAttrCase<"Up", 0, "up">,
    I32EnumAttrCase<"Down", 1, "down">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_BlockShiftDirectionEnum : EnumAttr<Warp_Dialect,
    Warp_BlockShiftDirectionAttr, "block_shift_direction"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_BlockShiftOp : Warp_BlockOp<"block_shift",
    [AllTypesMatch<["items", "result"]>,
     TypesMatchWith<"the edge item has the items' element type", "items",
                    "edge", "::llvm::cast<::mlir::VectorType>($_self)"
                    ".getElementType()">]> {
  let summary = "shift the block's items by one position (CUB "
                "BlockShuffle::Up / Down of ITEMS_PER_THREAD items)";
  let description = [{
    The block's `B` threads (numbered as in `warp.block_reduce`) hold
    `B * N` items in the blocked arrangement, `N` per thread in a
    `vector<N x T>`: thread `t` holds items `t*N .. t*N+N-1`. The op moves
    every item one position along that order; each thread gets its
    neighbours' items at the block's edges:

    - `up` (CUB's `BlockShuffle::Up(input, prev)`): item `g` of the result
      is input item `g - 1`, so `result[j] = items[j-1]` for `j > 0` and
      `result[0]` is the last item of thread `t - 1`. Thread 0's
      `result[0]` has no predecessor: it is its own `items[0]` (CUB leaves
      `prev[0]` of thread 0 as it was, which is `input[0]` where `prev` and
      `input` are one array). `edge` is the block's last item, `items[N-1]`
      of thread `B - 1`, in every thread (CUB's `block_suffix`).
    - `down` (`BlockShuffle::Down(input, next)`): item `g` of the result is
      input item `g + 1`: `result[j] = items[j+1]` for `j < N-1` and
      `result[N-1]` is the first item of thread `t + 1`; thread `B - 1`'s
      `result[N-1]` is its own `items[N-1]`. `edge` is the block's first
      item, `items[0]` of thread 0, in every thread (CUB's
      `block_prefix`).

    The semantics are total: every element of the result is defined, and
    values move bit for bit. `T` is any scalar payload type (i1, i8, i16,
    i32, i64, index, f16, bf16, f32, f64), `N >= 1` (`N = 1`: CUB's `Up`
    and `Down` of one item, `warp.block_shuffle <offset>` by -1 or +1 whose
    invalid results are the thread's own value too). Any block size and
    shape, ragged last warp included; every thread of the block must
    execute the op.

    Lowering (`warp-expand-block-collectives`): a barrier (earlier readers
    of the buffer are done), each thread stores the item its neighbour
    needs (`up`: its last, `down`: its first) in its slot of the block
    exchange buffer of `T` (a slot per thread, as `warp.block_shuffle`'s),
    a barrier, each thread loads its neighbour's slot and the edge's slot;
    the rest of the result moves within the thread's registers.

    ```mlir
    // Thread t: prev = items t*4-1 .. t*4+2; %last = item 4B-1.
    %prev, %last = warp.block_shift <up> %items : vector<4xf32>
    // Thread t: next = items t*4+1 .. t*4+4; %first = item 0.
    %next, %first = warp.block_shift <down> %items : vector<4xf32>
    ```
  }];
  let arguments = (ins Warp_BlockShiftDirectionEnum:$direction,
                       Warp_VectorPayload:$items);
  let results = (outs Warp_VectorPayload:$result, Warp_ScalarPayload:$edge);
  let assemblyFormat = "$direction $items attr-dict `:` type($items)";
  let extraClassDeclaration = [{
    /// N, the number of items per thread.
    unsigned getItemsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getItems().getType())
          .getNumElements();
    }
  }];
}

def Warp_BlockExchangeOp : Warp_BlockOp<"block_exchange",
    [AllTypesMatch<["items", "result"]>]> {
  let summary = "blocked <-> striped rearrangement of N items per thread over "
                "the block (CUB BlockExchange)";
  let description = [{
    The block's `B` threads (numbered as in `warp.block_reduce`:
    `t = x + X * (y + Y * z)`, `B = X * Y * Z`, known only at run time
    unless the `gpu.func` has a `known_block_size`) hold `B * N` items, `N`
    per thread in a `vector<N x T>` (`T` is i32, i64, f32 or f64, as for
    `warp.exchange`). Item `g` is held by

    * *blocked* arrangement: thread `g / N`, position `g % N` (thread `t`
      holds items `t*N .. t*N + N-1`);
    * *striped* arrangement: thread `g % B`, position `g / B` (thread `t`
      holds items `t, t + B, ..., t + B*(N-1)`).

    * *warp-striped* arrangement (CUB's): warp `w` holds the items of its
      threads' blocked positions, `32 w N .. 32 w N + L N - 1` (`L` its
      threads: 32, or fewer in a ragged last warp), lane `l` the items
      `32 w N + l + L j`.

    `blocked_to_striped` takes the items blocked and returns them striped;
    `striped_to_blocked` the reverse; `blocked_to_warp_striped` and
    `warp_striped_to_blocked` the same with the warp-striped arrangement
    (CUB's `BlockedToWarpStriped`, `WarpStripedToBlocked`: a warp's items
    stay in the warp, so a warp's coalesced accesses can load and store
    them). Each pair is inverse permutations;
    values move bit for bit (NaN payloads and `-0.0` kept). Any block size
    and shape (1-D, 2-D, 3-D, not a multiple of 32): only the block's own
    `B * N` items take part. With `N = 1` both arrangements are the same and
    the op folds away.

    Lowering (`warp-expand-block-collectives`): a barrier (the previous
    block exchange's loads are done), every thread stores its `N` items
    where its input arrangement puts them, a barrier (the stores are
    visible), every thread loads its `N` items from where its output
    arrangement puts them: two `bar.sync`, `N` stores and `N` loads per
    thread. The buffer is one `memref.global` per element type in
    `#gpu.address_space<workgroup>`, `@__warp_block_exchange`, shared by
    every block exchange of the `gpu.module` and sized for the largest:
    `B_max * N` items plus one padding item per 128 bytes (item `g` lives
    at `g + g / P`, `P = 128 / sizeof(T)`, so the strided blocked accesses
    of a warp fall in distinct banks), where `B_max` is the `gpu.func`'s
    `known_block_size` product, else 1024 (the most a block may have). A
    buffer beyond the 48 KiB of static shared memory is a diagnostic of the
    pass: give the kernel a `known_block_size` or use fewer items.

    ```mlir
    // Thread t: items 4t .. 4t+3 in; items t, t+B, t+2B, t+3B out.
    %s = warp.block_exchange <blocked_to_striped> %b : vector<4xf32>
    %b2 = warp.block_exchange <striped_to_blocked> %s : vector<4xf32>
    ```
  }];
  let arguments = (ins Warp_ExchangeDirectionEnum:$direction,
                       Warp_ExchangeItems:$items);
  let results = (outs Warp_ExchangeItems:$result);
  let assemblyFormat = "$direction $items attr-dict `:` type($items)";
  let extraClassDeclaration = [{
    /// N, the number of items per thread.
    unsigned getItemsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getItems().getType())
          .getNumElements();
    }
  }];
  let hasFolder = 1;
}

def Warp_BlockScatterOp : Warp_BlockOp<"block_scatter",
    [AllTypesMatch<["items", "result"]>]> {
  let summary = "place each item at its rank over the block (CUB "
                "BlockExchange::ScatterToBlocked / ScatterToStriped, Guarded, "
                "Flagged)";
  let description = [{
    Thread `t`'s item `j` goes to the block position `ranks[j]` (positions
    `0 .. B*N-1` of the block's `B * N` items, `B` the block's threads
    numbered as in `warp.block_reduce`); the result holds the items by
    position, blocked (thread `t` gets positions `t*N .. t*N+N-1`) or with
    `striped` striped (thread `t` gets `t, t+B, ..., t+(N-1)B`). Every
    thread of the block must execute the op.

    Which items are stored: an item whose rank lies outside `0 .. B*N-1`
    is dropped, nothing is written for it. A negative rank is outside, so
    CUB's `ScatterToStripedGuarded` (items of rank `< 0`, e.g. -1, are not
    exchanged) is the op itself; CUB leaves a rank of `B*N` or more
    undefined, here it is dropped too. With `flags` (a `vector<N x i1>`,
    one flag per item; CUB's `ScatterToStripedFlagged`), an item whose flag
    is false is dropped as well, whatever its rank. Both forms take
    `striped` or not (CUB has the guarded and flagged forms only for the
    striped result).

    The stored items' ranks should be distinct: a position that several
    stored items name gets one of them, which one is unspecified; a
    position that no stored item names holds an unspecified value.

    Lowering: as `warp.block_exchange`, through its buffer (a barrier,
    each item stored at its rank where it is inside and flagged, a
    barrier, each thread's positions loaded).

    ```mlir
    %sorted = warp.block_scatter %keys, %ranks : vector<4xi32>, vector<4xi32>
    // Only the selected items, by their (exclusive-scan) ranks, striped.
    %kept = warp.block_scatter %keys, %ranks flags %keep striped
        : vector<4xi32>, vector<4xi32>, vector<4xi1>
    ```
  }];
  let arguments = (ins Warp_ExchangeItems:$items,
                       FixedVectorOfRankAndType<[1], [I32]>:$ranks,
                       Optional<FixedVectorOfRankAndType<[1], [I1]>>:$flags,
                       UnitAttr:$striped);
  let results = (outs Warp_ExchangeItems:$result);
  let assemblyFormat = [{
    $items `,` $ranks (`flags` $flags^)? (`striped` $striped^)? attr-dict `:`
    type($items) `,` type($ranks) (`,` type($flags)^)?
  }];
  let extraClassDeclaration = [{
    /// N, the number of items per thread.
    unsigned getItemsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getItems().getType())
          .getNumElements();
    }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Block loads and stores (CUB BlockLoad / BlockStore)
//===----------------------------------------------------------------------===//

def Warp_BlockMemoryAlgorithmAttr : I32EnumAttr<"BlockMemoryAlgorithm",
    "how a block load or store moves a tile between memory and the threads", [
    I32EnumAttrCase<"Direct", 0, "direct">,
    I32EnumAttrCase<"Vectorize", 1, "vectorize">,
    I32EnumAttrCase<"Transpose", 2, "transpose">,
    I32EnumAttrCase<"WarpTranspose", 3, "warp_transpose">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_BlockMemoryAlgorithmEnum : EnumAttr<Warp_Dialect,
    Warp_BlockMemoryAlgorithmAttr, "block_memory_algorithm"> {
  let assemblyFormat = "`<` $value `>`";
}

/// A thread's items in memory: a 1-D vector of a type a memref holds.
def Warp_MemoryItems : FixedVectorOfRankAndType<[1],
    [I8, I16, I32, I64, F16, BF16, F32, F64]>;

/// A tile load or store of a block (warp.block_load) or of a warp
/// (warp.load): the same operands, positions over the group's threads.
class Warp_BlockMemoryOp<string mnemonic, list<Trait> traits = []>
    : Warp_BlockOp<mnemonic, traits> {
  code commonDeclarations = [{
    /// N, the number of items per thread.
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getItemsType()).getNumElements();
    }
  }];
}

def Warp_BlockLoadOp : Warp_BlockMemoryOp<"block_load",
    [AttrSizedOperandSegments]> {
  let summary = "load a tile of N items per thread (CUB BlockLoad)";
  let description = [{
    The block's `B` threads (numbered as in `warp.block_reduce`:
    `t = x + X * (y + Y * z)`) load the tile `source[offset ..
    offset + B*N)`, `N` items per thread in a `vector<N x T>`: thread `t`
    gets items `t*N .. t*N + N-1` (the blocked arrangement), or with
    `striped` items `t, t + B, ..., t + (N-1) B`, or with `warp_striped`
    (CUB's `LoadDirectWarpStriped`) lane `l` of warp `w`, a warp of `L`
    threads (32 but in a ragged last warp), items `32wN + l + Lj`, `j = 0
    .. N-1`: each warp's `32N` items striped over its lanes (the
    arrangement `warp.block_radix_rank ... warp_striped` ranks). With
    `valid %n` only the
    tile's first `n` items are read (CUB's `valid_items`, the same in every
    thread; a partial last tile): the others get `default`, or values that
    are not specified without one. Every thread of the block must execute
    the op (it may hold barriers).

    `algorithm` says how, never what (the compiler picks when absent;
    every choice gives the same items):

    * `direct` (`BLOCK_LOAD_DIRECT` / `_STRIPED`): each thread loads its
      items where they are: strided in a warp for blocked items, coalesced
      for striped ones. The only choice for `striped` and `warp_striped`.
    * `vectorize` (`BLOCK_LOAD_VECTORIZE`): each thread loads its `N`
      consecutive items with vector loads of `min(N * sizeof(T), 16)`
      bytes where the tile's address is aligned to them (checked at run
      time, else `direct`); `N * sizeof(T)` a power of two of at most 16
      or a multiple of 16. With `valid` (a partial tile) it is `direct`:
      vector loads take no bound (CUB's guarded vectorized load is its
      direct one).
    * `transpose` (`BLOCK_LOAD_TRANSPOSE`): coalesced striped loads, then
      `warp.block_exchange <striped_to_blocked>` (two barriers; 4- and
      8-byte items).
    * `warp_transpose` (`BLOCK_LOAD_WARP_TRANSPOSE`): warp `w` loads the
      tile's items `32wN .. 32(w+1)N - 1` warp-striped (coalesced), then
      `warp.exchange <striped_to_blocked>`: no barrier. 4- and 8-byte
      items, at most 32 per thread, in a `gpu.func` whose
      `known_block_size` is a whole number of warps.

    Without `algorithm`, `warp-select-lowering` picks `vectorize` where it
    applies, else `warp_transpose`, else `transpose` (`N > 1`), else
    `direct`.

    ```mlir
    %items = warp.block_load %in[%offset] : memref<?xf32>, vector<4xf32>
    %tail = warp.block_load %in[%offset] valid %n default %zero
        algorithm = <transpose> : memref<?xf32>, vector<4xf32>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$source,
                       Index:$offset,
                       Optional<I32>:$valid, Optional<AnyType>:$fill,
                       UnitAttr:$striped, UnitAttr:$warp_striped,
                       OptionalAttr<Warp_BlockMemoryAlgorithmEnum>:$algorithm);
  let results = (outs Warp_MemoryItems:$result);
  let assemblyFormat = [{
    $source `[` $offset `]` (`valid` $valid^)? (`default` $fill^)?
    (`striped` $striped^)? (`warp_striped` $warp_striped^)?
    (`algorithm` `=` $algorithm^)? attr-dict `:`
    type($source) `,` type($result)
    `` custom<DefaultType>(ref($fill), ref(type($result)), type($fill))
  }];
  let extraClassDeclaration = commonDeclarations # [{
    ::mlir::Type getItemsType() { return getResult().getType(); }
    ::mlir::Value getMemref() { return getSource(); }
    /// Whether the items are striped over the block or over each warp
    /// (coalesced already: `direct` is the only algorithm).
    bool isStripedArrangement() { return getStriped() || getWarpStriped(); }
  }];
  let hasVerifier = 1;
}

def Warp_BlockStoreOp : Warp_BlockMemoryOp<"block_store"> {
  let summary = "store a tile of N items per thread (CUB BlockStore)";
  let description = [{
    The mirror of `warp.block_load`: thread `t`'s items go to
    `dest[offset + t*N + j]` (blocked) or, with `striped`,
    `dest[offset + j*B + t]`, or with `warp_striped` (CUB's
    `StoreDirectWarpStriped`) `dest[offset + 32wN + l + Lj]` for lane `l`
    of warp `w` (of `L` threads); with `valid %n` only the tile's first `n`
    items are written. `algorithm` as for `warp.block_load` (`transpose`
    exchanges `<blocked_to_striped>` first, then stores coalesced;
    `warp_transpose` the same within each warp).

    ```mlir
    warp.block_store %items, %out[%offset] : vector<4xf32>, memref<?xf32>
    ```
  }];
  let arguments = (ins Warp_MemoryItems:$items,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemWrite]>:$dest,
                       Index:$offset, Optional<I32>:$valid,
                       UnitAttr:$striped, UnitAttr:$warp_striped,
                       OptionalAttr<Warp_BlockMemoryAlgorithmEnum>:$algorithm);
  let assemblyFormat = [{
    $items `,` $dest `[` $offset `]` (`valid` $valid^)? (`striped` $striped^)?
    (`warp_striped` $warp_striped^)?
    (`algorithm` `=` $algorithm^)? attr-dict `:` type($items) `,` type($dest)
  }];
  let extraClassDeclaration = commonDeclarations # [{
    ::mlir::Type getItemsType() { return getItems().getType(); }
    ::mlir::Value getMemref() { return getDest(); }
    /// Whether the items are striped over the block or over each warp
    /// (coalesced already: `direct` is the only algorithm).
    bool isStripedArrangement() { return getStriped() || getWarpStriped(); }
  }];
  let hasVerifier = 1;
}

def Warp_LoadOp : Warp_BlockMemoryOp<"load", [AttrSizedOperandSegments]> {
  let summary = "load a tile of N items per lane (CUB WarpLoad)";
  let description = [{
    The warp-level `warp.block_load`, as `warp.exchange` is the warp-level
    `warp.block_exchange`: the warp's 32 lanes load the tile
    `source[offset .. offset + 32*N)`, `N` items per lane in a
    `vector<N x T>`: lane `l` gets items `l*N .. l*N + N-1` (the blocked
    arrangement), or with `striped` items `l, l + 32, ..., l + 32(N-1)`.
    Each warp has its own tile: `offset` may differ between the warps of a
    block but is the same in every lane of a warp. With `valid %n` only the
    tile's first `n` items are read (CUB's `valid_items`, the same in every
    lane): the others get `default`, or values that are not specified
    without one. Every existing lane of the warp executes the op together
    (no member mask, no barrier); as for `warp.exchange`, with `transpose`
    in a ragged last warp the items that come from missing lanes are
    undefined.

    `width w` (a power of two in 1..32, default 32; CUB's
    `LOGICAL_WARP_THREADS`) splits the warp into `32 / w` logical warps of
    `w` consecutive lanes, each loading its own tile of `w*N` items, as
    CUB's WarpLoad of a logical warp loads from the iterator its lanes
    pass: `offset` (and `valid`) are the same in the `w` lanes of a logical
    warp and may differ between logical warps, and the lane of rank
    `r = lane % w` gets `source[offset + r*N + j]` (blocked) or
    `source[offset + j*w + r]` (striped), `j = 0 .. N-1`. Logical warps
    below 32 lanes take `direct` and `vectorize` (`transpose` would
    exchange the whole warp's items).

    `algorithm` says how, never what (the compiler picks when absent;
    every choice gives the same items):

    * `direct` (`WARP_LOAD_DIRECT` / `_STRIPED`): each lane loads its items
      where they are. The only choice for `striped`.
    * `vectorize` (`WARP_LOAD_VECTORIZE`): each lane loads its `N`
      consecutive items with vector loads where the tile's address is
      aligned to them (checked at run time, else `direct`); `N *
      sizeof(T)` a power of two of at most 16 or a multiple of 16. With
      `valid`, `direct`.
    * `transpose` (`WARP_LOAD_TRANSPOSE`): coalesced striped loads, then
      `warp.exchange <striped_to_blocked>` (at most 128 items per lane;
      that op's strategies and buffer).

    `warp_transpose` is the block ops' (a warp's `transpose` already stays
    in its warp). Without `algorithm`, `warp-select-lowering` picks
    `vectorize` where it applies, else `transpose` for 4- and 8-byte items
    and `N > 1` in a `gpu.func` whose `known_block_size` is a whole number
    of warps (no missing lanes) and a width of 32, else `direct`.

    ```mlir
    %items = warp.load %in[%offset] : memref<?xf32>, vector<4xf32>
    %tail = warp.load %in[%offset] valid %n default %zero
        algorithm = <transpose> : memref<?xf32>, vector<4xf32>
    // Four logical warps of 8 lanes, each its own tile of 16 items.
    %quarter = warp.load %in[%tile_offset] width 8 : memref<?xf32>, vector<2xf32>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$source,
                       Index:$offset,
                       Optional<I32>:$valid, Optional<AnyType>:$fill,
                       UnitAttr:$striped,
                       OptionalAttr<Warp_BlockMemoryAlgorithmEnum>:$algorithm,
                       DefaultValuedAttr<Warp_Width, "32">:$width);
  let results = (outs Warp_MemoryItems:$result);
  let assemblyFormat = [{
    $source `[` $offset `]` (`width` $width^)? (`valid` $valid^)?
    (`default` $fill^)? (`striped` $striped^)? (`algorithm` `=` $algorithm^)?
    attr-dict `:` type($source) `,` type($result)
    `` custom<DefaultType>(ref($fill), ref(type($result)), type($fill))
  }];
  let extraClassDeclaration = commonDeclarations # [{
    ::mlir::Type getItemsType() { return getResult().getType(); }
    ::mlir::Value getMemref() { return getSource(); }
    /// Whether the items are striped over the (logical) warp.
    bool isStripedArrangement() { return getStriped(); }
  }];
  let hasVerifier = 1;
}

def Warp_StoreOp : Warp_BlockMemoryOp<"store"> {
  let summary = "store a tile of N items per lane (CUB WarpStore)";
  let description = [{
    The mirror of `warp.load`: lane `l`'s items go to
    `dest[offset + l*N + j]` (blocked) or, with `striped`,
    `dest[offset + j*32 + l]`; with `valid %n` only the tile's first `n`
    items are written. `offset` and `valid` as for `warp.load` (per warp);
    `algorithm` too (`transpose` exchanges `<blocked_to_striped>` first,
    then stores coalesced). Every existing lane of the warp executes the
    op (with `transpose` in a ragged warp, the missing lanes' items are
    not stored and the items that go through them are undefined).
    `width w` as for `warp.load` (CUB's WarpStore of a logical warp): the
    lane of rank `r = lane % w` writes `dest[offset + r*N + j]` (blocked)
    or `dest[offset + j*w + r]` (striped), `offset` and `valid` those of
    its logical warp.

    ```mlir
    warp.store %items, %out[%offset] : vector<4xf32>, memref<?xf32>
    warp.store %pair, %out[%tile_offset] width 16 striped : vector<2xi32>, memref<?xi32>
    ```
  }];
  let arguments = (ins Warp_MemoryItems:$items,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemWrite]>:$dest,
                       Index:$offset, Optional<I32>:$valid,
                       UnitAttr:$striped,
                       OptionalAttr<Warp_BlockMemoryAlgorithmEnum>:$algorithm,
                       DefaultValuedAttr<Warp_Width, "32">:$width);
  let assemblyFormat = [{
    $items `,` $dest `[` $offset `]` (`width` $width^)? (`valid` $valid^)?
    (`striped` $striped^)? (`algorithm` `=` $algorithm^)? attr-dict `:`
    type($items) `,` type($dest)
  }];
  let extraClassDeclaration = commonDeclarations # [{
    ::mlir::Type getItemsType() { return getItems().getType(); }
    ::mlir::Value getMemref() { return getDest(); }
    /// Whether the items are striped over the (logical) warp.
    bool isStripedArrangement() { return getStriped(); }
  }];
  let hasVerifier = 1;
}

def Warp_BlockHistogramAlgorithmAttr : I32EnumAttr<"BlockHistogramAlgorithm",
    "how a block histogram counts its samples", [
    I32EnumAttrCase<"Atomic", 0, "atomic">,
    I32EnumAttrCase<"WarpAggregated", 1, "warp_aggregated">,
    I32EnumAttrCase<"Sort", 2, "sort">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_BlockHistogramAlgorithmEnum : EnumAttr<Warp_Dialect,
    Warp_BlockHistogramAlgorithmAttr, "block_histogram_algorithm"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_BlockHistogramOp : Warp_BlockOp<"block_histogram"> {
  let summary = "count the block's samples into bins (CUB BlockHistogram)";
  let description = [{
    Every thread's `N` samples (`vector<N x iK>`, each an unsigned bin
    number) are counted into `bins` (a 1-D memref of `i32` or `i64`
    counters in workgroup or global memory, one for the whole block: not
    a stack allocation): after the op, `bins[k]` holds
    the number of the block's samples equal to `k`, or with `accumulate`
    (CUB's `Composite`) that number added to what `bins[k]` held. A sample
    of `K` or more (`K` the memref's size) is not counted. Every thread of
    the block must execute the op; it holds barriers: one before it (other
    threads' reads of the bins are done before they change), one after
    the counters are zeroed, one at the end (every thread may read the
    counts after the op).

    `algorithm` (how, never what; the compiler's choice when absent:
    `atomic`):

    * `atomic` (CUB's `BLOCK_HISTO_ATOMIC`): one atomic add per sample.
    * `warp_aggregated`: `warp.atomic_rmw <add>`: the lanes of a warp with
      the same bin add once (`match.any`), which pays where samples repeat
      within warps (skewed data) and costs a match where they do not.

    * `sort` (CUB's `BLOCK_HISTO_SORT`): the samples are sorted with
      `warp.block_radix_sort` (unsigned; where the bins' count `K` is
      static and below `2^w`, the samples are first clamped to `K` and
      only the bits that tell `0 .. K` apart are sorted), then
      `warp.block_shift <down>` gives each sorted sample its successor; at
      each run's end `e` (the successor differs, or the block's last
      sample) the run's bin gets `+e` and the next run's bin `-e`
      (atomic adds, the runs' starts and ends: `bins[k] += end - start`),
      so a run costs two adds whatever its length. It needs the radix
      sort's workgroup memory (the verifier says when that does not fit)
      and its barriers; it pays where the samples repeat a lot.

    The results of every algorithm are the same.

    ```mlir
    warp.block_histogram %samples into %bins : vector<4xi8>, memref<256xi32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins FixedVectorOfRankAndType<[1], [I8, I16, I32, I64]>:$items,
                       Arg<MemRefRankOf<[I32, I64], [1]>, "",
                           [MemRead, MemWrite]>:$bins,
                       UnitAttr:$accumulate,
                       OptionalAttr<Warp_BlockHistogramAlgorithmEnum>:$algorithm);
  let assemblyFormat = [{
    $items `into` $bins (`accumulate` $accumulate^)? (`algorithm` `=` $algorithm^)?
    attr-dict `:` type($items) `,` type($bins)
  }];
  let hasVerifier = 1;
}


def Warp_RadixSortItems : AnyTypeOf<[FixedVectorOfRankAndType<[1],
    [I8, I16, I32, I64, F16, BF16, F32, F64]>],
    "a 1-D vector of i8/i16/i32/i64/f16/bf16/f32/f64">;

def Warp_BlockRadixSortOp : Warp_BlockOp<"block_radix_sort",
    [AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "stable radix sort of N items per thread over the block "
                "(CUB BlockRadixSort)";
  let description = [{
    The block's `B` threads (numbered as in `warp.block_reduce`: `t = x +
    X * (y + Y * z)`) hold `B * N` keys in the blocked arrangement (thread
    `t` holds keys `t*N .. t*N+N-1` in a `vector<N x K>`, `K` one of i8,
    i16, i32, i64, f16, bf16, f32, f64), and optionally as many values (a
    `vector<N x V>` of the same `N`, `V` of the same types), each value
    travelling with its key. The op sorts the block's keys and returns them
    (and the values) in the blocked arrangement (thread `t` gets ranks
    `t*N .. t*N+N-1`) or, with `striped`, striped (CUB's
    `SortBlockedToStriped`: thread `t` gets ranks `t, t+B, ..., t+(N-1)B`).

    Order: keys compare by their *image*, an unsigned integer of `K`'s
    width: integers as they are (unsigned order) or, with `signed`, with
    the sign bit flipped (two's complement order); floats (CUB's order) with
    every bit flipped when the sign bit is set and only the sign bit
    flipped otherwise, so `-inf < ... < -0.0 < +0.0 < ... < +inf`, and NaNs
    sort by their bits (a positive NaN after `+inf`, a negative one before
    `-inf`). `descending` sorts by the complemented image. With `bits B0 to
    B1` (CUB's `begin_bit`, `end_bit`; default all bits of `K`) only bits
    `[B0, B1)` of the image (before `descending`'s complement is taken, the
    same bits) take part. The sort is stable: keys equal in those bits keep
    their blocked order, and so do their values. Keys and values move bit
    for bit (NaN payloads, `-0.0`).

    **Custom types** (CUB's decomposer, a type viewed as a tuple of
    arithmetic members): the keys may be a tuple of key vectors,
    `(%k0, %k1, ...)` typed `(vector<N x K0>, vector<N x K1>, ...)`, each
    member of the key types above and all of one `N`; key `i` of the block
    is the tuple of the members' items `i`. Tuples compare
    lexicographically by their members' images, the first member most
    significant; `signed` flips the sign bit of the integer members (at
    least one must be an integer), `descending` complements every member's
    image (the whole order reversed), and `bits` is not allowed (every bit
    of every member takes part). The op returns the sorted members (and
    values), stable as above: equal tuples keep their blocked order.

    Every thread of the block must execute the op (it holds barriers). Any
    block size and shape: 1-D, 2-D, 3-D, not a multiple of 32, known from
    the `gpu.func`'s `known_block_size` or only at run time.

    Lowering (`warp-expand-block-collectives`, before the other block ops,
    since it makes `warp.block_scan`s): the keys become their images (with
    `descending`'s complement), then one counting pass per `radix_bits =
    R` bits of `[B0, B1)`, from the lowest (CUB's `BlockRadixRank`: the
    ranking of `warp.block_radix_rank`, one code for both ops), its
    ranks stable (thread order, then item order, within a digit); a
    tuple's passes go over its last member's bits first, then the member
    before, each pass moving every member (and the values) to its ranks.
    Three rankings, named by `ranking = <grid>`, `<match>` or
    `<registers>`; without `ranking` the compiler chooses one per op by
    the workgroup memory it needs (`getRadixSortLayout`, which the verifier
    uses too) and `warp-select-lowering` writes its choice. A named ranking
    whose memory does not fit is a verifier error, as is `<match>` where
    its conditions do not hold:

    * **Counter grid**, `grid` (CUB's `RADIX_RANK_BASIC` with memoized
      raking),
      where a grid of `(L + 1) x B_max` i32 words
      (`@__warp_block_radix_counters`, `L = 2^R / 2` lanes of two 16-bit
      counters, the last lane padding that keeps each thread's raking
      segment an odd stride) fits the 48 KiB of static shared memory
      beside the buffers below or in a union with them: each
      thread clears its column and counts its items in it (a
      read-modify-write per item, which gives the item's rank among its
      thread's items of its digit), a barrier, each thread rakes its
      segment of `L + 1` words, one exclusive scalar `warp.block_scan
      <add>` of the segment sums, the segment rewritten with its prefixes
      (the low halves' total carried into the high halves), a barrier,
      each item's rank is its counter's prefix plus its own count.
    * **A column per warp**, `match` (CUB's `BlockRadixRankMatch`), where
      the grid
      above does not fit but one of `(L + 1) x C` words does (`C` the
      `W = B / 32` warps' columns, and for an even `W` a padding column,
      as CUB's `PADDED_WARPS`: a lane's words then stride by an odd count,
      so the counters of a warp's distinct digits fall in distinct banks),
      the block is known to be whole warps and `N` is a power of two
      up to 32: each warp's digits go warp-striped (`warp.exchange` by
      shuffles), so that counting item 0 of every lane, then item 1, ...
      counts the warp's keys in the blocked order; per item the lanes of
      one digit (`warp.match_any` of the digit's `R` bits: a ballot per
      bit, as CUB's `MatchAny`) read the warp's counter, a
      `warp.syncwarp`, the lowest of them adds the group's size to it, a
      `warp.syncwarp`; the grid raked as above, each thread a segment of
      `S = ceil((L + 1) C / B)` words, or `S + 1` for an even `S` (CUB's
      `PADDED_RAKING_SEGMENT`; the `B S` raked words past the grid are
      zeroed first), the ranks back to the blocked arrangement.
    * **Counters in registers**, `registers`, otherwise (`R` up to 8 in
      large blocks):
      each thread counts its items per digit in i32 words of two 16-bit
      counters; exclusive `warp.block_scan`s over the words (`algorithm =
      <warp_scans>`, at most 8 words per scan) with the block totals give
      each digit's count in the threads before, and an item's rank is its
      digit's start plus that plus its thread's earlier items of the digit.

    Then a barrier (earlier readers of the buffers are done), every thread
    stores its images (and values) at their ranks in a workgroup buffer, a
    barrier, every thread loads its next items: blocked, or after the last
    pass in the output's arrangement. The buffers are one `memref.global`
    per image type (`@__warp_block_radix_keys`; a tuple's members of one
    image type one each) and per value type
    (`@__warp_block_radix_values`) of `B_max * N` items plus one padding
    item per 128 bytes (as `warp.block_exchange`'s), `B_max` being the
    `known_block_size` product, else 1024.

    Workgroup memory, the first of these that fits the 48 KiB of static
    shared memory (with the scans' scratch; each variable aligned to 16
    bytes): the counter grid beside the two buffers; else the counter grid
    in a *union* with them (CUB's `TempStorage` union): one i8 buffer
    (`@__warp_block_radix_union`) of the largest of the three, typed by
    `memref.view`s at its start, used by turns. Each pass then has a
    barrier before the grid is zeroed (the previous pass's or sort's loads
    are done), and the values go through the buffer after the keys: a
    barrier, the values stored at the keys' ranks, a barrier, the values
    loaded (three barriers more per pass with values, one without); else
    the grid of a column per warp beside the two buffers (under that
    ranking's conditions); else the counters in registers beside the two
    buffers. Where none fits, a
    verifier error with the smallest one's byte count. Without `radix_bits`
    the compiler chooses (`warp-select-lowering` writes its choice: 4, or
    the width of the bit range where that is less).

    ```mlir
    %k = warp.block_radix_sort %keys : vector<4xi32>
    %k2, %v2 = warp.block_radix_sort %keys, %vals descending signed
        bits 0 to 16 striped : vector<4xi32>, vector<4xf32>
    %k3 = warp.block_radix_sort %f radix_bits = 8 ranking = <match>
        : vector<2xf32>
    // A tuple (i32, f32) with i64 values, by the i32 first.
    %s:3 = warp.block_radix_sort (%a, %b), %v signed
        : (vector<4xi32>, vector<4xf32>), vector<4xi64>
    ```
  }];
  let arguments = (ins Variadic<Warp_RadixSortItems>:$keys,
                       Optional<Warp_RadixSortItems>:$values,
                       UnitAttr:$descending, UnitAttr:$is_signed,
                       OptionalAttr<I32Attr>:$begin_bit,
                       OptionalAttr<I32Attr>:$end_bit,
                       UnitAttr:$striped,
                       OptionalAttr<I32Attr>:$radix_bits,
                       OptionalAttr<Warp_RadixRankingEnum>:$ranking);
  let results = (outs Variadic<Warp_RadixSortItems>:$sorted_keys,
                      Optional<Warp_RadixSortItems>:$sorted_values);
  let assemblyFormat = [{
    custom<RadixSortKeys>($keys) (`,` $values^)? (`descending` $descending^)?
    (`signed` $is_signed^)? (`bits` $begin_bit^ `to` $end_bit)?
    (`striped` $striped^)? (`radix_bits` `=` $radix_bits^)?
    (`ranking` `=` $ranking^)?
    attr-dict `:` custom<RadixSortKeyTypes>(type($keys), type($values),
                                            type($sorted_keys),
                                            type($sorted_values))
  }];
  let extraClassDeclaration = [{
    /// N, the number of items per thread (of every key member).
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getKeys().front().getType())
          .getNumElements();
    }
    /// The key type K (of a tuple, its first, most significant member).
    ::mlir::Type getKeyType() { return getKeyTypes().front(); }
    /// The key members' element types, the most significant first.
    ::llvm::SmallVector<::mlir::Type> getKeyTypes() {
      ::llvm::SmallVector<::mlir::Type> types;
      for (::mlir::Type type : getKeys().getTypes())
        types.push_back(
            ::llvm::cast<::mlir::VectorType>(type).getElementType());
      return types;
    }
    /// The bits [begin, end) of the key's image that take part.
    unsigned getBeginBitOrDefault() { return getBeginBit().value_or(0); }
    unsigned getEndBitOrDefault() {
      return getEndBit().value_or(getKeyType().getIntOrFloatBitWidth());
    }
  }];
  let hasVerifier = 1;
}

def Warp_BlockMergeSortOp : Warp_BlockOp<"block_merge_sort",
    [AttrSizedOperandSegments, AllTypesMatch<["keys", "sorted_keys"]>]> {
  let summary = "stable merge sort of N items per thread over the block by a "
                "compare region (CUB BlockMergeSort)";
  let description = [{
    The block's `B` threads (numbered as in `warp.block_reduce`: `t = x +
    X * (y + Y * z)`) hold `B * N` keys in the blocked arrangement (thread
    `t` holds positions `t*N .. t*N+N-1` in a `vector<N x T>`, `1 <= N <=
    64`, `T` one of i8, i16, i32, i64, f16, bf16, f32, f64), and optionally
    as many values (a `vector<N x V>` of the same `N`, `V` of the same
    types), each value travelling with its key. The op sorts the block's
    keys by the `compare` region and returns them (and the values) in the
    blocked arrangement: thread `t` gets the sorted positions `t*N ..
    t*N+N-1` (CUB's `BlockMergeSort::Sort`/`StableSort`).

    The `compare` region is `warp.merge_sort`'s: two keys `(%a: T, %b: T)`
    in, a `warp.yield` of an i1 that is true when `a` is ordered strictly
    before `b` (a strict weak ordering), only ops without memory effects
    (the expansion evaluates copies of it anywhere, also on keys that do
    not take part), values from above allowed.

    The sort is **stable**: keys that neither compares before the other
    keep their blocked order, and so do their values. Keys and values move
    bit for bit (NaN payloads, `-0.0`).

    With `valid_items %n default %oob` (CUB's `Sort(keys, compare,
    valid_items, oob_default)`; a block-uniform i32 and a `T`), only the
    positions `0 .. n-1` take part: the result holds them sorted at
    positions `0 .. n-1`, and every position from `n` on holds the key
    `%oob` with the value that position held in the input (as
    `warp.merge_sort`; CUB documents the keys, not the values, there). The
    keys past `n` are never compared. `n <= 0` sorts nothing, `n >= B * N`
    sorts everything.

    Every thread of the block must execute the op (it holds barriers). The
    block size must be known: the `gpu.func`'s `known_block_size` (CUB's
    `BLOCK_DIM_X/Y/Z`), any shape and any thread count up to 1024, also
    one that is not a multiple of 32 or a power of two.

    Lowering (`warp-expand-block-collectives`), the expansion of
    `warp.merge_sort` with the whole block as its group: each thread sorts
    its `N` items in registers (an odd-even transposition network), then
    `ceil(log2(B))` merge rounds; in round `r` each run of the items of
    `2^(r-1)` threads merges with the next one (the last run of a round may
    be short or alone where `B` is not a power of two). A round is a
    barrier, every thread stores its keys (and values) at their blocked
    positions in a workgroup buffer, a barrier, every thread finds where
    its `N` outputs start in the two runs (a merge-path binary search along
    its diagonal) and merges `N` items serially from the buffer. The buffer
    is one `memref.global` `@__warp_block_merge_sort_buffer` (i8, 16-byte
    aligned) that the expansion adds to the enclosing `gpu.module`, shared
    by every block merge sort of the module and sized for the largest: a
    part of keys and, with values, one of values, each of `B * N` items
    with 16 bytes (at least one item) before them and one item after them,
    rounded up to 16 bytes. Where that exceeds the 48 KiB of static shared
    memory, a verifier error.

    ```mlir
    %s = warp.block_merge_sort %keys : vector<4xi32>
        compare (%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    // Pairs, descending, the block's first %n positions sorted.
    %k, %v = warp.block_merge_sort %f, %idx valid_items %n default %ninf
        : vector<2xf32>, vector<2xi32> compare (%a: f32, %b: f32) {
      %gt = arith.cmpf ogt, %a, %b : f32
      warp.yield %gt : i1
    }
    ```
  }];
  let arguments = (ins Warp_RadixSortItems:$keys,
                       Optional<Warp_RadixSortItems>:$values,
                       Optional<I32>:$valid_items,
                       Optional<AnyType>:$oob_default);
  let results = (outs Warp_RadixSortItems:$sorted_keys,
                      Optional<Warp_RadixSortItems>:$sorted_values);
  let regions = (region SizedRegion<1>:$compare);
  let assemblyFormat = [{
    $keys (`,` $values^)? (`valid_items` $valid_items^)?
    (`default` $oob_default^)? attr-dict `:`
    custom<RadixSortTypes>(type($keys), type($values), type($sorted_values))
    `` custom<DefaultType>(ref($oob_default), ref(type($keys)),
                           type($oob_default))
    `` custom<Compare>($compare)
  }];
  let extraClassDeclaration = [{
    /// The most items per thread.
    static constexpr unsigned kMaxItemsPerThread = 64;
    /// N, the number of items per thread.
    unsigned getItemsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getKeys().getType())
          .getNumElements();
    }
    /// The key type T.
    ::mlir::Type getKeyType() {
      return ::llvm::cast<::mlir::VectorType>(getKeys().getType())
          .getElementType();
    }
    /// The workgroup buffer's bytes for a block of `threads` threads.
    uint64_t getSharedBytes(int64_t threads);
  }];
  let hasVerifier = 1;
  // The region's checks need its ops verified first.
  let hasRegionVerifier = 1;
}

def Warp_BlockRadixRankOp : Warp_BlockOp<"block_radix_rank",
    [RecursiveMemoryEffects,
     TypesMatchWith<"the ranks are a vector of i32 as long as the keys",
                    "keys", "ranks",
                    "::mlir::VectorType::get(::llvm::cast<::mlir::VectorType>"
                    "($_self).getShape(), ::mlir::IntegerType::get("
                    "$_self.getContext(), 32))">]> {
  let summary = "rank the block's keys by one digit (CUB BlockRadixRank)";
  let description = [{
    The block's `B` threads (numbered as in `warp.block_reduce`) hold `B *
    N` keys in the blocked arrangement (thread `t` holds keys `t*N ..
    t*N+N-1` in a `vector<N x K>`, `K` one of i8, i16, i32, i64, f16,
    bf16, f32, f64, or any type with a digit region, below). Each key's
    *digit* is bits `[B0, B1)` of its image
    (`bits B0 to B1`, `R = B1 - B0` of 1 to 8 bits: CUB's `RADIX_BITS`),
    the image being `warp.block_radix_sort`'s: integers as they are, or
    with `signed` with the sign bit flipped; floats with every bit flipped
    when the sign bit is set and only the sign bit otherwise. The op
    returns each key's *rank* (`vector<N x i32>`): its position in the
    block's stable order by digit, ascending, or with `descending`
    descending; keys of one digit keep their blocked order (thread, then
    item). With `warp_striped` the keys are in the warp-striped arrangement
    instead (`warp.block_load ... warp_striped`: lane `l` of warp `w`, a
    warp of `L` threads, holds positions `32wN + l + Lj`), and keys of one
    digit keep the order of those positions; a rank is still a position
    in the block's order (CUB's `BlockRadixRankMatch` over keys loaded
    with `LoadDirectWarpStriped`, as its onesweep sort and its
    `BlockRadixRank` benchmarks do).
    This is CUB's `BlockRadixRank::RankKeys` with a digit extractor
    of those bits (CUB's `IS_DESCENDING` for `descending`): one counting
    pass of `warp.block_radix_sort`, whose lowering ranks through the same
    code.

    **Custom digit extractor** (CUB's `RankKeys(keys, ranks,
    digit_extractor)` with a user extractor): instead of `bits`, a `digit`
    region after the types, `digit(%key: K) { ...; warp.yield %d : i32 }`,
    and `radix_bits = R` (1 to 8). The keys may then be of any type `K`
    the region takes (also one without an image: `index`, `i1`, ...). A
    key's digit is the low `R` bits of the i32 the region yields for it;
    the bits above `R` are ignored. `descending` ranks the largest digit
    first, as with `bits`; `signed` is not allowed (the region orders). The
    region holds only ops without memory effects (the expansion copies it
    once per key, where the ranking counts that key), and may use values
    from above.

    With a second result (CUB's `RankKeys` overload with
    `exclusive_digit_prefix`), a `vector<M x i32>`: thread `t` gets bins
    `t*M .. t*M+M-1` (CUB's `BINS_TRACKED_PER_THREAD` is `M`), bin `b`
    holding the number of the block's keys ranked before the keys of digit
    `b` (ascending: the keys of digits below `b`; descending: above `b`).
    Where the block size is known, `M` must be CUB's: `max(1, ceil(2^R /
    B))`. A bin of `2^R` or more (the threads past the digits, which CUB
    leaves unwritten) gets 0.

    Every thread of the block must execute the op (it holds barriers). Any
    block size and shape: 1-D, 2-D, 3-D, not a multiple of 32, known from
    the `gpu.func`'s `known_block_size` or only at run time (then `B_max`
    = 1024 sizes the workgroup memory). At most 65535 keys per block
    (16-bit counters, as CUB's).

    Lowering (`warp-expand-block-collectives`, with the radix sorts): the
    counting of one `warp.block_radix_sort` pass, chosen by the same
    layout rule: the counter grid (`@__warp_block_radix_counters`, `(2^R /
    2 + 1) x B_max` i32 words) where it fits the 48 KiB of static shared
    memory; else, in a block known to be whole warps with `N` a power of
    two up to 32, a grid of a column per warp (`(2^R / 2 + 1) x C` words,
    `C` the warps rounded up to an odd count) counted by ballots of the
    digits' bits (CUB's
    `BlockRadixRankMatch`, the sort's description has the steps); else the
    counters in registers with `warp.block_scan`s of counter words;
    `ranking = <grid|match|registers>` names one as on the sort (and
    `warp-select-lowering` writes the compiler's choice). The match
    ranking counts warp-striped digits, so blocked keys go through two
    `warp.exchange`s (the digits there, the ranks back) and `warp_striped`
    keys through none; the other rankings count blocked digits, so
    `warp_striped` keys take a `warp.block_exchange
    <warp_striped_to_blocked>` of the digits and one back of the ranks.
    `ranking = <match_early>` (CUB's `BlockRadixRankMatchEarlyCounts`,
    never the compiler's choice; `warp_striped` keys in a known block of
    whole warps, any N) counts each warp's digits in its row of a grid of
    `2^R` i32 a warp (workgroup atomics), turns each digit's column into
    the warps' offsets with one scalar block scan (a last row keeps the
    digits' starts for the prefix) and ranks each warp's keys once
    against its row (`warp.match_any` groups, the lowest lane adding the
    group's size): no raking and no second read of the counters.
    With the digit
    prefix and a grid, a barrier after the prefixes are read
    (they are in the grid's column 0, which the next ranking of the kernel
    clears).

    **Counts callback** (CUB's `BlockRadixRankMatchEarlyCounts::RankKeys(
    keys, ranks, digit_extractor, exclusive_digit_prefix, counts_callback)`):
    with `ranking = <match_early>`, a `counts` region after the types (and
    after a digit region), `counts(%c: vector<M x i32>) { ...; warp.yield
    }`, `M` the bins a thread tracks (as the digit prefix's). Every thread
    runs it once, after the block's keys are counted and before any is
    ranked, with the block's number of keys in each of its bins `t*M ..
    t*M+M-1` (0 past the digits); bin `b` counts the `b`-th digit in rank
    order: digit `b`, or `2^R - 1 - b` with `descending`. The region may
    write memory (CUB's onesweep publishes a tile's counts there, before
    its ranking, for the tiles after it to look back on) and use values
    from above; it yields nothing, and must not synchronize the block
    (the threads run it at the same point, but the op's own barriers are
    around it).

    ```mlir
    %r = warp.block_radix_rank %keys bits 0 to 4 : vector<4xi32>
    %r2, %p = warp.block_radix_rank %f descending bits 24 to 32
        : vector<2xf32>, vector<1xi32>
    // Keys loaded warp-striped, ranked without exchanges.
    %ws = warp.block_load %in[%off] warp_striped : memref<?xi32>, vector<8xi32>
    %r4 = warp.block_radix_rank %ws bits 0 to 8 warp_striped
        ranking = <match> : vector<8xi32>
    // Digits (key >> 3) & 15 of a user extractor.
    %r3 = warp.block_radix_rank %keys radix_bits = 4 : vector<4xi32>
        digit(%k: i32) {
      %c3 = arith.constant 3 : i32
      %d = arith.shrui %k, %c3 : i32
      warp.yield %d : i32
    }
    // Each thread's digit count stored before the ranking (256 threads,
    // one bin each).
    %r5 = warp.block_radix_rank %ws bits 0 to 8 warp_striped
        ranking = <match_early> : vector<8xi32> counts(%c: vector<1xi32>) {
      vector.store %c, %out[%t] : memref<?xi32>, vector<1xi32>
      warp.yield
    }
    ```
  }];
  let arguments = (ins FixedVectorOfRankAndType<[1], [AnyType]>:$keys,
                       UnitAttr:$descending, UnitAttr:$is_signed,
                       OptionalAttr<I32Attr>:$begin_bit,
                       OptionalAttr<I32Attr>:$end_bit,
                       OptionalAttr<I32Attr>:$radix_bits,
                       UnitAttr:$warp_striped,
                       OptionalAttr<Warp_RadixRankingEnum>:$ranking);
  let results = (outs FixedVectorOfRankAndType<[1], [I32]>:$ranks,
                      Optional<FixedVectorOfRankAndType<[1], [I32]>>:
                          $exclusive_digit_prefix);
  let regions = (region MaxSizedRegion<1>:$digit, MaxSizedRegion<1>:$counts);
  let assemblyFormat = [{
    $keys (`descending` $descending^)? (`signed` $is_signed^)?
    (`bits` $begin_bit^ `to` $end_bit)? (`radix_bits` `=` $radix_bits^)?
    (`warp_striped` $warp_striped^)? (`ranking` `=` $ranking^)?
    attr-dict `:` type($keys) (`,` type($exclusive_digit_prefix)^)?
    `` custom<DigitRegion>($digit) `` custom<CountsRegion>($counts)
  }];
  let extraClassDeclaration = [{
    /// N, the number of keys per thread.
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getKeys().getType())
          .getNumElements();
    }
    /// The key type K.
    ::mlir::Type getKeyType() {
      return ::llvm::cast<::mlir::VectorType>(getKeys().getType())
          .getElementType();
    }
    /// Whether a digit region extracts the digits.
    bool hasDigitRegion() { return !getDigit().empty(); }
    /// R, the digit's bits: radix_bits with the digit region, else the
    /// width of `bits`.
    unsigned getDigitBits() {
      if (hasDigitRegion())
        return getRadixBits().value_or(0);
      return getEndBit().value_or(0) - getBeginBit().value_or(0);
    }
  }];
  let hasVerifier = 1;
  // The digit region's checks need its ops verified first.
  let hasRegionVerifier = 1;
}

def Warp_BlockRunLengthDecodeOp : Warp_BlockOp<"block_run_length_decode",
    [AllTypesMatch<["from", "total"]>,
     OptionalTypesMatchWith<"the default has the run values' element type",
                            "values", "fill",
                            "::llvm::cast<::mlir::VectorType>($_self)"
                            ".getElementType()">]> {
  let summary = "decode a window of the block's runs (CUB BlockRunLengthDecode)";
  let description = [{
    The block's `B` threads (numbered as in `warp.block_reduce`) hold `B *
    R` runs in the blocked arrangement: thread `t` holds runs `t*R ..
    t*R+R-1`, their values in a `vector<R x T>` (`T` one of i8, i16, i32,
    i64, f16, bf16, f32, f64) and their lengths in a `vector<R x L>` (`L`
    an unsigned integer of 8 to 64 bits). Decoded, run `r` is its value
    repeated `length` times, the runs in order; run `r` starts at decoded
    position `o_r`, the exclusive sum of the lengths before it, and
    `total` is the sum of all lengths. The op returns a window of `B * D`
    decoded items from position `from`, blocked: thread `t` gets positions
    `from + t*D .. from + t*D + D - 1` (a `vector<D x T>`), CUB's
    `RunLengthDecode(decoded_items, relative_offsets, from_decoded_offset)`
    after the constructor that takes run lengths; and `total` in every
    thread (CUB's `total_decoded_size`). The offsets, `from` and `total`
    have one type `O`, i32 or i64 (CUB's `DecodedOffsetT`), at least as
    wide as `L`; they are computed modulo `2^O`, as CUB's unsigned offsets.

    Position `p` takes the run `r` that holds it: the last run with `o_r <=
    p`. Runs of length 0 may be anywhere (CUB allows them only at the end).
    With a `vector<D x O>` second result, each item's position in its run,
    `p - o_r` (CUB's `relative_offsets`). Past the end (`p >= total`), where
    CUB leaves the items undefined: `p` takes the block's last run (the
    last with `o_r <= p`), so the item is that run's value and its
    relative offset `p - o_r`; with `default %d`, the item is `%d`.

    **From run offsets** (CUB's constructor that takes `run_offsets`): with
    `offsets`, the second operand holds each run's start `o_r` instead of
    its length (a `vector<R x L>` as the lengths, zero-extended to `O`;
    CUB's `run_offsets`, the exclusive sum of the lengths). The starts
    should not decrease from run to run (blocked order) and the first
    should be 0, as CUB requires; where they decrease, each position
    still takes one of the runs, which one is unspecified. Decoding is as
    above: position `p` takes the last run with `o_r <= p`, and a position
    before the first start (`p < o_0`, undefined in CUB) takes the first
    run, its relative offset `p - o_0` modulo `2^O`. The offsets give no
    lengths, so the block's last run has no end (CUB: it covers every
    position from its start on) and there is no decoded total: `total` is
    that last run's start, `o_{B*R-1}`, in every thread, and `default`
    (past the total) is rejected.

    Every thread of the block must execute the op (it holds barriers), with
    the same `from`. Any block size and shape (known from
    `known_block_size`, else `B_max` = 1024 sizes the buffers).

    Lowering (`warp-expand-block-collectives`, before the other block ops:
    it makes a `warp.block_scan`): an exclusive `warp.block_scan <add>`
    of each thread's sum of its lengths (widened to `O`) with the total,
    the runs' starts from it (with `offsets`: the operand, no scan), a
    barrier (the previous decode's readers are done), every thread stores
    its runs' values and start offsets in two workgroup buffers
    (`@__warp_block_run_values`, `@__warp_block_run_offsets`, `B_max * R`
    each), a barrier, and each item's run is found by a binary search of
    the offsets (`ceil(log2(B_max * R + 1))` steps).

    ```mlir
    %items, %total = warp.block_run_length_decode %vals, %lens from %from
        : vector<2xf32>, vector<2xi32>, i32 -> vector<4xf32>
    %i2, %t2, %rel = warp.block_run_length_decode %vals, %lens from %from
        default %zero : vector<2xf32>, vector<2xi32>, i32 -> vector<4xf32>,
        vector<4xi32>
    // From the runs' starts; %last is the last run's start.
    %i3, %last = warp.block_run_length_decode %vals, offsets %starts
        from %from : vector<2xf32>, vector<2xi32>, i32 -> vector<4xf32>
    ```
  }];
  // With `offsets`, `lengths` holds the runs' starts.
  let arguments = (ins Warp_RadixSortItems:$values,
                       FixedVectorOfRankAndType<[1], [I8, I16, I32, I64]>:$lengths,
                       AnyTypeOf<[I32, I64]>:$from,
                       Optional<AnyType>:$fill,
                       UnitAttr:$offsets);
  let results = (outs Warp_RadixSortItems:$decoded,
                      AnyTypeOf<[I32, I64]>:$total,
                      Optional<FixedVectorOfRankAndType<[1], [I32, I64]>>:
                          $relative_offsets);
  let assemblyFormat = [{
    $values `,` (`offsets` $offsets^)? $lengths `from` $from
    (`default` $fill^)? attr-dict `:`
    type($values) `,` type($lengths) `,` type($from) `->` type($decoded)
    (`,` type($relative_offsets)^)?
  }];
  let extraClassDeclaration = [{
    /// R, the runs per thread.
    int64_t getRunsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getValues().getType())
          .getNumElements();
    }
    /// D, the decoded items per thread.
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::VectorType>(getDecoded().getType())
          .getNumElements();
    }
  }];
  let hasVerifier = 1;
}

#endif // WARP_DIALECT_IR_WARPBLOCKOPS_TD
