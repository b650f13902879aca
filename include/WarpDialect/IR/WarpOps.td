//===- WarpOps.td - warp dialect operations ----------------*- tablegen -*-===//
//
// Every op states its lane semantics: which lanes read what, what happens at
// segment edges, which lanes hold the result and the floating-point policy.
// The normative reference is the "Semantics" section of docs/Overview.md
// (CUDA's rules).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_DIALECT_IR_WARPOPS_TD
#define WARP_DIALECT_IR_WARPOPS_TD

include "WarpDialect/IR/WarpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Ids and masks
//===----------------------------------------------------------------------===//

def Warp_LaneIdOp : Warp_Op<"lane_id", [Pure]> {
  let summary = "index of the executing lane within its warp (0..31)";
  let description = [{
    Returns the executing thread's lane index, 0..31 (PTX `%laneid`).

    ```mlir
    %lane = warp.lane_id : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Warp_WarpIdOp : Warp_Op<"warp_id", [Pure]> {
  let summary = "index of the executing warp within its thread block";
  let description = [{
    Without `linear`: `threadIdx.x / 32`, the warp index along the block's x
    dimension (the usual form for 1-D blocks). With `linear`: the linearized
    thread index `(tid.z * ntid.y + tid.y) * ntid.x + tid.x` divided by 32,
    which is how the hardware packs threads of 2-D and 3-D blocks into warps.
    This is *not* PTX `%warpid`, which names a physical warp slot that can
    change during execution.

    ```mlir
    %w = warp.warp_id : i32
    %wl = warp.warp_id linear : i32
    ```
  }];
  let arguments = (ins UnitAttr:$linear);
  let results = (outs I32:$result);
  let assemblyFormat = "(`linear` $linear^)? attr-dict `:` type($result)";
}

def Warp_LaneMaskOp : Warp_Op<"lanemask", [Pure]> {
  let summary = "mask of the lanes below/at/above the executing lane";
  let description = [{
    Returns a 32-bit mask where bit `i` is set when lane `i` compares with the
    executing lane as `kind` says: `lt` (i < lane), `le`, `eq`, `ge`, `gt`
    (PTX `%lanemask_*`). `popc(ballot & lanemask<lt>)` is a lane's rank among
    the lanes whose predicate holds.

    ```mlir
    %below = warp.lanemask <lt> : i32
    ```
  }];
  let arguments = (ins Warp_LaneMaskKindEnum:$kind);
  let results = (outs I32:$result);
  let assemblyFormat = "$kind attr-dict `:` type($result)";
}

def Warp_ActiveMaskOp : Warp_Op<"activemask", [Warp_Convergent]> {
  let summary = "the lanes executing this op now (CUDA `__activemask()`)";
  let description = [{
    Returns the mask of lanes of the warp that are currently executing this
    op together. It reflects convergence at this program point only: it is
    not a substitute for the member mask a program means (take that from a
    ballot or a predicate). Never moved across control flow.

    ```mlir
    %active = warp.activemask : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Warp_SyncWarpOp : Warp_Op<"syncwarp",
    [Warp_MemberMaskOpInterface, MemoryEffects<[MemRead, MemWrite, MemRead<Warp_LanesResource>,
                    MemWrite<Warp_LanesResource>]>]> {
  let summary = "barrier and memory fence for the lanes of a mask";
  let description = [{
    Waits until every lane named in `mask` (default: all 32 lanes) has reached
    a `syncwarp` with the same mask, and orders their shared and global memory
    accesses across it (CUDA `__syncwarp(mask)`, PTX `bar.warp.sync`). The
    executing lane must be in the mask.

    ```mlir
    warp.syncwarp
    warp.syncwarp mask %m
    ```
  }];
  let arguments = (ins Optional<I32>:$mask);
  let assemblyFormat = "(`mask` $mask^)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Warp_ShuffleOp : Warp_Op<"shuffle",
    [Warp_MemberMaskOpInterface, Warp_Convergent, AllTypesMatch<["value", "result"]>,
     AttrSizedOperandSegments]> {
  let summary = "exchange a value between lanes (CUDA `__shfl_*_sync`)";
  let description = [{
    Reads `value` from another lane of the executing lane's *segment*. The warp
    is split into `32 / width` segments of `width` consecutive lanes
    (`width` ∈ {1, 2, 4, 8, 16, 32}, default 32), exactly as CUDA's `width`
    argument does. With `l = lane % width` and `base = lane - l`, and `o` the
    low 5 bits of `offset` (as PTX uses them):

    * `idx`:  reads lane `base + (o % width)`; always valid.
    * `up`:   reads lane `lane - o`; valid iff `l >= o`.
    * `down`: reads lane `lane + o`; valid iff `l + o < width`.
    * `xor`:  reads lane `lane ^ o`; valid iff that lane is not in a
      *later* segment (`(lane ^ o) <= base + width - 1`). It may read an
      earlier segment, as CUDA documents.

    When the source is not valid the lane gets its own `value` back and
    `valid` is false. `valid` says only whether the source index was in range,
    nothing about whether the source lane was active. Any i32 `offset` is
    accepted, constant or not (an `up` offset past the segment start gives
    the lane's own value with `valid = false`, as in CUDA).

    `width` is a constant (`width 16`) or an i32 value computed at run time
    (`width %w`, CUDA's `int width` argument); a run-time width that is not a
    power of two in 1..32 is undefined, as in CUDA.

    `bound` (`up` and `down` over the whole warp only) is PTX's clamp lane,
    a value per lane: `up` is valid iff `lane - o >= bound`, `down` iff
    `lane + o <= bound`. A lane then reads only lanes in `[bound, lane]`
    (`up`) or `[lane, bound]` (`down`): a segment of any length, as CUB's
    segmented scans and reductions use it with the segment's first or last
    lane. A `bound` outside 0..31 is undefined.

    `mask` (default all 32 lanes) names the lanes that execute the op
    together; the executing lane must be in it. Reading a lane outside the
    mask gives an undefined value (PTX rule).

    Payloads: i1, i8, i16, i32, i64, index, f16, bf16, f32, f64 and 1-D
    vectors of them. Values of up to 32 bits (including `vector<2xf16>` and
    `vector<2xbf16>`) travel in one 32-bit shuffle, 64-bit values in two.

    ```mlir
    %v, %valid = warp.shuffle <down> %x, %c1 width 16 : f32
    %w, %ok = warp.shuffle <xor> %h2, %c4 mask %m : vector<2xf16>
    %d, %in = warp.shuffle <up> %x, %off width %width : i64
    %s, %inseg = warp.shuffle <down> %x, %c2 bound %last : i32
    ```
  }];
  let arguments = (ins Warp_ShuffleModeEnum:$mode, Warp_Payload:$value,
                       I32:$offset,
                       DefaultValuedAttr<Warp_Width, "32">:$width,
                       Optional<I32>:$dynamic_width,
                       Optional<I32>:$bound,
                       Optional<I32>:$mask);
  let results = (outs Warp_Payload:$result, I1:$valid);
  let assemblyFormat = [{
    $mode $value `,` custom<OffsetAndWidth>($offset, $dynamic_width, $width)
    (`bound` $bound^)? (`mask` $mask^)? attr-dict `:` type($value)
  }];
  let builders = [
    // A shuffle with a constant width.
    OpBuilder<(ins "::mlir::warp::ShuffleMode":$mode, "::mlir::Value":$value,
                   "::mlir::Value":$offset, "unsigned":$width,
                   "::mlir::Value":$mask)>,
    // An up or down shuffle over the warp that reads no lane past `bound`.
    OpBuilder<(ins "::mlir::warp::ShuffleMode":$mode, "::mlir::Value":$value,
                   "::mlir::Value":$offset, "::mlir::Value":$bound,
                   "::mlir::Value":$mask)>,
  ];
  let extraClassDeclaration = [{
    /// The constant width, or std::nullopt when it is computed at run time.
    std::optional<unsigned> getStaticWidth() {
      if (getDynamicWidth())
        return std::nullopt;
      return getWidth();
    }
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Warp_ScanStepOp : Warp_Op<"scan_step",
    [Warp_MemberMaskOpInterface, Warp_Convergent,
     AllTypesMatch<["value", "result"]>, AttrSizedOperandSegments]> {
  let summary = "one predicated step of a scan network (CUB's scan step)";
  let description = [{
    One step of the Kogge-Stone network that `warp-expand-collectives` builds
    for `warp.scan` and segmented `warp.reduce`: a shuffle `offset` lanes up
    (or down), and a combine where the partner is valid. It is

    ```
    %p, %valid = warp.shuffle <mode> %value, offset [width w] [bound %b] [mask %m]
    %result = %valid ? %p (kind) %value : %p    // with partner_first
    %result = %valid ? %value (kind) %p : %p    // without
    ```

    and, as an invalid shuffle gives the lane its own value, the lane keeps
    `value` where the partner lies outside its segment. The expansion emits
    it for the kinds and types that have CUB's predicated step (i32 with
    add, mul, the integer min/max kinds, and, or, xor; f32 with add: the
    kind table's steps, CombineKinds.h); the NVVM conversion lowers it one to one
    to CUB's two instructions, `shfl.sync.up.b32 r|p, x, ...; @p add.s32 r,
    r, x;`. `mode` is `up` or `down`, `offset` a distance in 1..width-1,
    `width` and `bound` as on `warp.shuffle`, `mask` the lanes that execute
    it together.

    ```mlir
    %r = warp.scan_step <add> <up> %x, 4 partner_first : i32
    %s = warp.scan_step <add> <down> %x, 1 bound %last mask %m : f32
    ```
  }];
  let arguments = (ins Warp_CombineKindEnum:$kind, Warp_ShuffleModeEnum:$mode,
                       AnyTypeOf<[I32, F32]>:$value,
                       ConfinedAttr<I32Attr, [IntMinValue<1>, IntMaxValue<31>]>:$offset,
                       DefaultValuedAttr<Warp_Width, "32">:$width,
                       Optional<I32>:$bound, Optional<I32>:$mask,
                       UnitAttr:$partner_first);
  let results = (outs AnyTypeOf<[I32, F32]>:$result);
  let assemblyFormat = [{
    $kind $mode $value `,` $offset (`width` $width^)? (`bound` $bound^)?
    (`mask` $mask^)? (`partner_first` $partner_first^)? attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

def Warp_BroadcastOp : Warp_Op<"broadcast",
    [Warp_MemberMaskOpInterface, Warp_Convergent, AllTypesMatch<["value", "result"]>]> {
  let summary = "every lane gets the value of one lane";
  let description = [{
    Every lane of `mask` (default all 32) gets `value` as held by lane
    `lane % 32` (CUDA `__shfl_sync(mask, value, lane)`: PTX uses the low 5
    bits of any i32). `lane` should be the same on every lane and name a lane
    of the mask; otherwise a lane reads an undefined value, as in CUDA.
    Any payload type of `warp.shuffle`.

    ```mlir
    %leader_value = warp.broadcast %x, %c0 : f64
    ```
  }];
  let arguments = (ins Warp_Payload:$value, I32:$lane, Optional<I32>:$mask);
  let results = (outs Warp_Payload:$result);
  let assemblyFormat = [{
    $value `,` $lane (`mask` $mask^)? attr-dict `:` type($value)
  }];
  let hasFolder = 1;
}

def Warp_BroadcastFirstOp : Warp_Op<"broadcast_first",
    [Warp_MemberMaskOpInterface, Warp_Convergent, AllTypesMatch<["value", "result"]>]> {
  let summary = "every member lane gets the value of the lowest member lane";
  let description = [{
    With `mask`, the members are the lanes of `mask`, which must all execute
    the op (as for every member mask); every member gets `value` as held by
    the lowest-numbered lane of `mask`. Without `mask`, the members are the
    lanes that execute the op together (`activemask`, CUDA's opportunistic
    idiom), so it is well defined from divergent code; which lanes run
    together there is the hardware's choice.

    ```mlir
    %leader_value = warp.broadcast_first %x : i32
    ```
  }];
  let arguments = (ins Warp_Payload:$value, Optional<I32>:$mask);
  let results = (outs Warp_Payload:$result);
  let assemblyFormat = "$value (`mask` $mask^)? attr-dict `:` type($value)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Votes
//===----------------------------------------------------------------------===//

def Warp_BallotOp : Warp_Op<"ballot", [Warp_MemberMaskOpInterface, Warp_Convergent]> {
  let summary = "mask of the lanes whose predicate holds (CUDA `__ballot_sync`, "
                "cooperative groups `tile.ballot`)";
  let description = [{
    Bit `i` of the result is set when lane `i` is in `mask` (default all 32)
    and its `predicate` is true; all lanes of the mask get the same result.
    Lanes of the mask that do not exist (a partial last warp) or have exited
    contribute 0, so `ballot(true)` is the mask of the live lanes.
    The number of lanes whose predicate holds is `math.ctpop` of the result
    (CUDA `__popc(__ballot_sync(...))`); that idiom is the dialect's `popc`.

    `width w` (a power of two in 1..32, default 32) is the ballot of the
    executing lane's *tile* (cooperative groups' `tiled_partition<w>`
    `.ballot`): the warp splits into `32 / w` tiles of `w` consecutive
    lanes, and with `first = lane - lane % w` bit `i` (`i < w`) of the
    result is lane `first + i`'s bit of the warp's ballot; bits `w..31` are
    0. Every lane of a tile gets its tile's result, i.e. the warp's ballot
    shifted right by `first` and cut to `w` bits. `mask` keeps its meaning:
    the lanes that execute the op together (lanes of the tile outside it
    contribute 0).

    ```mlir
    %bits = warp.ballot %p : i32
    %count = math.ctpop %bits : i32
    // Bits 0..7: the lanes of the executing lane's 8-lane tile.
    %tile_bits = warp.ballot %p width 8 : i32
    ```
  }];
  let arguments = (ins I1:$predicate, Optional<I32>:$mask,
                       DefaultValuedAttr<Warp_Width, "32">:$width);
  let results = (outs I32:$result);
  let assemblyFormat = [{
    $predicate (`mask` $mask^)? (`width` $width^)? attr-dict `:` type($result)
  }];
  let hasFolder = 1;
}

def Warp_VoteOp : Warp_Op<"vote", [Warp_MemberMaskOpInterface, Warp_Convergent]> {
  let summary = "warp vote any/all/uni (CUDA `__any_sync`, `__all_sync`, "
                "`__uni_sync`; cooperative groups `tile.any`, `tile.all`)";
  let description = [{
    Over the lanes of `mask` (default all 32): `any` is true when some lane's
    predicate is true, `all` when every lane's is, `uni` when all lanes hold
    the same predicate. Every lane of the mask gets the same result.

    `width w` (a power of two in 1..32, default 32) votes over the lanes of
    the executing lane's *tile* only (cooperative groups'
    `tiled_partition<w>` `.any` and `.all`): the warp splits into `32 / w`
    tiles of `w` consecutive lanes (`lane - lane % w .. lane - lane % w +
    w - 1`), and each tile's lanes of `mask` get their tile's vote: `any`
    whether one of them holds a true predicate, `all` whether none holds a
    false one, `uni` whether they all hold the same. A tile's lanes outside
    `mask` (or that do not exist, or have exited) take no part. Lowered as
    a ballot of the warp (`vote.sync.ballot`) masked to the tile: `any`
    tests the ballot of the predicate, `all` the ballot of its negation,
    `uni` both.

    ```mlir
    %some = warp.vote <any> %p : i1
    %tile_all = warp.vote <all> %p width 4 : i1
    ```
  }];
  let arguments = (ins Warp_VoteKindEnum:$kind, I1:$predicate,
                       Optional<I32>:$mask,
                       DefaultValuedAttr<Warp_Width, "32">:$width);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $kind $predicate (`mask` $mask^)? (`width` $width^)? attr-dict `:`
    type($result)
  }];
  let hasFolder = 1;
}

def Warp_MatchStrategyAttr : I32EnumAttr<"MatchStrategy",
    "how a warp.match_any finds the lanes of equal value", [
    I32EnumAttrCase<"Match", 0, "match">, I32EnumAttrCase<"Ballots", 1, "ballots">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_MatchStrategyEnum : EnumAttr<Warp_Dialect, Warp_MatchStrategyAttr,
                                      "match_strategy"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_MatchAnyOp : Warp_Op<"match_any",
    [Warp_MemberMaskOpInterface, Warp_Convergent]> {
  let summary = "mask of the lanes holding the same value (CUDA `__match_any_sync`)";
  let description = [{
    Returns the mask of the lanes of `mask` (default all 32) whose `value`
    equals the executing lane's. i32, i64, f32 and f64 values, compared bit
    for bit (`+0.0` and `-0.0` differ, a NaN matches the same NaN bits), as
    CUDA's `__match_any_sync` does; needs sm_70+.

    With `bits N` (an integer value, `1 <= N <=` its width) only the low
    `N` bits of each lane's value are compared, as CUB's
    `MatchAny<LABEL_BITS>`: the result is that of the value
    `& (2^N - 1)`. A radix digit, a bucket or a small label matches so.

    `strategy` chooses the lowering (the compiler chooses when absent):

    * `match`: one `match.any.sync.b32` (`.b64` for i64), of the low bits
      where `bits` is given.
    * `ballots`: one `vote.sync.ballot.b32` per compared bit, each lane
      keeping the lanes that agree with it on that bit (the ballot, or its
      complement where the lane's bit is clear), as CUB's `MatchAny`:
      `match.any` issues at a fraction of a ballot's rate, so a few
      ballots are faster. Needs `bits` of at most 32.

    Without `strategy`: `ballots` for `bits` up to 8, else `match`.

    ```mlir
    %peers = warp.match_any %key : i32
    %same_digit = warp.match_any %digit bits 8 : i32
    %few = warp.match_any %digit bits 4 strategy = <ballots> : i32
    ```
  }];
  let arguments = (ins Warp_MatchPayload:$value, Optional<I32>:$mask,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<1>,
                                                           IntMaxValue<64>]>>:$bits,
                       OptionalAttr<Warp_MatchStrategyEnum>:$strategy);
  let results = (outs I32:$result);
  let assemblyFormat = [{
    $value (`mask` $mask^)? (`bits` $bits^)? (`strategy` `=` $strategy^)?
    attr-dict `:` type($value)
  }];
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$value, "Value":$mask), [{
      build($_builder, $_state, result, value, mask, IntegerAttr(),
            MatchStrategyAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    /// The compared bits: `bits`, else all of the value's.
    unsigned getComparedBits() {
      if (std::optional<uint32_t> bits = getBits())
        return *bits;
      return getValue().getType().getIntOrFloatBitWidth();
    }
    /// Where the value is `x & (2^N - 1)`: compares x's low N bits (or
    /// fewer, the op's own `bits`) instead. Returns whether it did.
    bool foldLowBitMask();
    /// Up to this many `bits`, ballots are the default (CUB's choice for
    /// its radix digits of up to 8 bits).
    static constexpr unsigned kMaxDefaultBallotBits = 8;
    /// `strategy`, else the default the description states.
    MatchStrategy getStrategyOrDefault() {
      if (std::optional<MatchStrategy> strategy = getStrategy())
        return *strategy;
      return getBits() && *getBits() <= kMaxDefaultBallotBits
                 ? MatchStrategy::Ballots
                 : MatchStrategy::Match;
    }
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Warp_MatchAllOp : Warp_Op<"match_all", [Warp_MemberMaskOpInterface, Warp_Convergent]> {
  let summary = "whether all lanes hold the same value (CUDA `__match_all_sync`)";
  let description = [{
    When every lane of `mask` (default all 32) holds the same `value`,
    returns `mask` and `pred = true`; otherwise `0` and `pred = false`.
    i32, i64, f32 and f64 values, compared bit for bit; needs sm_70+.

    ```mlir
    %m, %same = warp.match_all %key : i64
    ```
  }];
  let arguments = (ins Warp_MatchPayload:$value, Optional<I32>:$mask);
  let results = (outs I32:$result, I1:$pred);
  let assemblyFormat = "$value (`mask` $mask^)? attr-dict `:` type($value)";
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans, compaction
//===----------------------------------------------------------------------===//

def Warp_ReduceOp : Warp_Op<"reduce",
    [Warp_MemberMaskOpInterface, Warp_CombiningOpInterface, Warp_Convergent,
     RecursiveMemoryEffects, AttrSizedOperandSegments]> {
  let summary = "reduce values over the lanes of each cluster";
  let description = [{
    Combines `value` with `kind` over each *cluster*: the lanes
    `base + i * cluster_stride` for `i < cluster_size`, where
    `cluster_size` and `cluster_stride` are powers of two with
    `cluster_size * cluster_stride <= 32` (defaults 32 and 1: the whole warp).
    A `cluster_size` that is not a power of two (any `N` in 1..32, stride 1)
    makes *logical warps* (CUB's `LOGICAL_WARP_THREADS`), described below.

    Kinds: `add`, `mul`, `and`, `or`, `xor`, `minsi`, `maxsi`, `minui`,
    `maxui` on integers; `add`, `mul`, `minnumf`, `maxnumf` (a NaN operand is
    ignored, the result is NaN only if all are), `minimumf`, `maximumf` (NaN
    propagates, `-0.0 < +0.0`) on floats. Vectors reduce element-wise.

    **Combiner regions and tuples.** Instead of a kind, the op may take a
    `combine` region: it reduces a tuple of `N >= 1` values (any payload
    types, e.g. `(f32, i32)` for an argmax), its block takes `2N` arguments
    (the left tuple, from the lower lane, then the right tuple, from the
    higher lane) and ends with a `warp.yield` of `N` values of the same
    types. Any ops may appear inside (a single block; structured control
    flow is fine). The combiner must be associative; it is assumed *not*
    commutative unless the op says `commutative`, which promises that
    `combine(a, b)` and `combine(b, a)` are equal bit for bit. All values
    travel in the same network, one shuffle per 32-bit piece per step (an
    `(f32, i32)` full-warp butterfly is 10 shuffles; neighbouring scalars of
    at most 16 bits share a piece, so `(f16, i16)` is 5).

    Which lanes hold the result is part of the op: with `lanes = all` (the
    default) every lane of the cluster holds it; with `lanes = first` only
    the cluster's first lane does and the others hold unspecified values
    (a cheaper form).

    `mask` (default all 32 lanes) names the lanes that execute the op, and
    any mask is allowed (CUDA's `__reduce_*_sync(mask, v)`): each cluster
    reduces over its lanes that are in the mask, and every such lane gets
    the result (with `lanes = first`, the cluster's lowest lane in the mask).
    A mask that is a union of whole clusters, or absent, takes the fast
    butterfly/tree; another mask takes a tree over the members in rank
    order (each lane finds its partners with `fns`), or one `redux.sync`
    where the chip has it. A forced `butterfly` or `tree` strategy is a
    promise that the mask is a union of whole clusters.

    With `valid_lanes %n` (requires the whole-warp cluster), only lanes
    `0..n-1` (1 <= n <= 32) contribute; the values of the other lanes never
    reach the combiner. The lanes of `mask` execute the op; to run it with
    only the first `n` lanes live (a ragged warp), pass their mask too.

    Combine order (fixed, so results are reproducible): a pairwise tree with
    the farthest pairs first. For the whole warp, lane `i` is first combined
    with lane `i ^ 16` (`i + 16`), then `8`, `4`, `2`, `1` (in units of the
    stride). Under a partial mask the same tree runs over the member lanes
    in rank order: with `k` members, rank `r < d` combines with rank `r + d`
    when `r + d < k`, for `d = 16, 8, 4, 2, 1`. Both the butterfly and the tree strategy evaluate exactly this
    tree, so their float results are bitwise identical. `redux.sync` is used
    only for kinds whose result is order-independent.

    A combiner region without `commutative` keeps lane order: the value of
    the lower lane (rank) is always the left operand, and the tree pairs the
    *nearest* lanes first (distances 1, 2, 4, 8, 16 in units of the stride,
    or of the rank), so the result is `x_0 (op) x_1 (op) ... (op) x_{k-1}`
    grouped as a balanced binary tree, e.g. `((x0 x1)(x2 x3))((x4 x5)(x6
    x7))` for 8 lanes. In the butterfly, lanes `i` and `i ^ d` both compute
    `combine(lower lane's value, higher lane's value)`, so every lane holds
    the same bits. A `commutative` region uses the kinds' tree above.

    **Segmented reduction.** With `heads %flags`, a lane whose flag is true
    starts a new segment (CUB's `HeadSegmentedReduce`); with `tails %flags`,
    a lane whose flag is true ends one (`TailSegmentedReduce`). Segments
    also end at cluster boundaries (`cluster_size`, stride 1), at lane
    `n - 1` with `valid_lanes %n`, and at the edges of `mask`: a maximal run
    of consecutive lanes of `mask` starts a segment at its first lane and
    ends one at its last lane, so a segment whose neighbour lies outside the
    mask is complete in itself, the flags of lanes outside the mask are
    never seen, and no lane outside the mask is read (the boundaries come
    from the ballot of the flags and the mask's edges: up to four scalar bit
    operations with a run-time mask; a constant mask's edges fold into
    constants). With
    `lanes = all` every lane of a
    segment gets the segment's reduction; with `lanes = first` only the
    segment's first lane does (one shuffle per 32-bit piece cheaper), the
    others hold partial values. The order is that of a reverse Kogge-Stone
    scan (see `warp.scan`): the segment's first lane combines with the
    lanes at distances 1, 2, 4, ... of the suffix scan, lower lane on the
    left, so non-commutative combiners keep lane order.

    **Logical warps.** With a `cluster_size` `N` that is not a power of two,
    the clusters are the consecutive groups of `N` lanes `[0, N)`, `[N, 2N)`,
    ...; the last group holds the `32 % N` remaining lanes. Each group
    reduces on its own, exactly as a segmented reduction whose heads are the
    lanes `l` with `l % N == 0`, or'ed with the op's own `heads` (with
    `tails`, the group's last lanes are or'ed into the tails): `lanes = all`
    gives every lane of a segment its reduction, `lanes = first` gives it to
    the segment's first lane. Kinds, combiner regions (commutative or not),
    tuples, vectors, `mask`, `heads` and `tails` are allowed; the combine
    order is the segmented reduction's (the reverse Kogge-Stone order below,
    lower lane on the left), the same for every kind and region. The
    stride must be 1, `valid_lanes` needs the whole warp as always, and
    `strategy` is refused (it is a segmented scan). Within a group, the
    lanes of `mask` must be consecutive (a mask of whole groups, or of the
    first `k` lanes, always is): a constant mask that is not is refused,
    and a run-time one is the caller's promise (otherwise each run of
    consecutive mask lanes of a group reduces on its own).

    `strategy` forces the lowering of an unsegmented reduction: `butterfly`
    (xor shuffles, result in all lanes), `tree` (`shfl.down`, result in the
    first lane, then broadcast if `lanes = all`), `redux` (one `redux.sync`;
    i32-or-narrower integers on sm_80+, f32 min/max on sm_100a-class chips;
    kinds only). Without it, the compiler chooses from the target.

    ```mlir
    %sum = warp.reduce <add> %x : f32
    %m = warp.reduce <maxsi> %i cluster_size = 8 lanes = <first> : i32
    %p = warp.reduce <add> %x valid_lanes %n : f32
    %seg = warp.reduce <add> %x heads %starts : f32
    %g = warp.reduce <add> %x cluster_size = 12 : f32  // [0,12) [12,24) [24,32)
    // argmax without NaNs, the lowest index winning ties (commutative: ties
    // are decided by the index, so both operand orders give the same bits)
    %m, %i = warp.reduce %v, %idx commutative : f32, i32
        combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
      %gt = arith.cmpf ogt, %b, %a : f32
      %eq = arith.cmpf oeq, %b, %a : f32
      %lt = arith.cmpi slt, %bi, %ai : i32
      %tie = arith.andi %eq, %lt : i1
      %takeb = arith.ori %gt, %tie : i1
      %r = arith.select %takeb, %b, %a : f32
      %ri = arith.select %takeb, %bi, %ai : i32
      warp.yield %r, %ri : f32, i32
    }
    ```
  }];
  let arguments = (ins OptionalAttr<Warp_CombineKindEnum>:$kind,
                       Variadic<Warp_Payload>:$values,
                       Optional<I32>:$valid_lanes, Optional<I32>:$mask,
                       Optional<I1>:$heads, Optional<I1>:$tails,
                       DefaultValuedAttr<Warp_LogicalWidth, "32">:$cluster_size,
                       DefaultValuedAttr<Warp_Width, "1">:$cluster_stride,
                       DefaultValuedAttr<Warp_ResultLanesEnum,
                           "::mlir::warp::ResultLanes::All">:$lanes,
                       OptionalAttr<Warp_ReduceStrategyEnum>:$strategy,
                       UnitAttr:$commutative);
  let results = (outs Variadic<Warp_Payload>:$result);
  let regions = (region MaxSizedRegion<1>:$combiner);
  let assemblyFormat = [{
    custom<KindAndValues>($kind, $values) (`heads` $heads^)? (`tails` $tails^)?
    (`valid_lanes` $valid_lanes^)? (`mask` $mask^)?
    (`cluster_size` `=` $cluster_size^)? (`cluster_stride` `=` $cluster_stride^)?
    (`lanes` `=` $lanes^)? (`strategy` `=` $strategy^)?
    (`commutative` $commutative^)?
    attr-dict `:` custom<ReduceTypes>(type($values), type($result), $combiner)
  }];
  let builders = [
    // A reduction of one value with a built-in kind and default options.
    OpBuilder<(ins "::mlir::warp::CombineKind":$kind, "::mlir::Value":$value)>,
  ];
  let extraClassDeclaration = [{
    /// Whether the combiner may take its operands in either order: every
    /// kind, and a region declared `commutative`.
    bool isCommutative() { return getKind().has_value() || getCommutative(); }
    /// The segment flags (`heads` or `tails`), or null.
    ::mlir::Value getSegmentFlags() {
      return getHeads() ? getHeads() : getTails();
    }
    /// Whether the clusters are logical warps: a size not a power of two.
    bool hasLogicalWarps() {
      return !::llvm::isPowerOf2_32(getClusterSize());
    }
    /// Whether the op lowers as a segmented reduction (one reverse scan):
    /// with segment flags, or over logical warps.
    bool isSegmented() { return getSegmentFlags() || hasLogicalWarps(); }
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Warp_ScanOp : Warp_Op<"scan",
    [Warp_MemberMaskOpInterface, Warp_CombiningOpInterface, Warp_Convergent,
     RecursiveMemoryEffects, AttrSizedOperandSegments]> {
  let summary = "prefix combine over the lanes of each segment";
  let description = [{
    Within each segment of `width` consecutive lanes (1..32, default 32),
    lane `l` (position `p = l % width`) gets the combination with `kind`
    of the values of positions `0..p` (inclusive) or `0..p-1` (`exclusive`).
    With `reverse`, the direction flips: positions `p..width-1` (or
    `p+1..width-1`). The first position of an exclusive scan (the last one
    when reversed) gets the kind's identity (`add`: 0, `mul`: 1, `and`: all
    ones, `or`/`xor`: 0, `minsi`: INT_MAX, `maxsi`: INT_MIN, `minui`:
    UINT_MAX, `maxui`: 0, float min kinds: +inf, float max kinds: -inf).
    An `init` value, as in CUB, is a prefix combined in front of every
    position: `init (op) x_0 (op) ... (op) x_{p-1}`, so the first position of
    an exclusive scan gets `init` itself.

    **Combiner regions and tuples.** Instead of a kind, a `combine` region
    (as `warp.reduce`'s: `2N` block arguments, left tuple then right tuple,
    ending in `warp.yield` of `N` values) scans a tuple of `N` values of any
    payload types together, one shuffle per 32-bit piece per step. Scans
    always keep lane order, so the combiner need only be associative. A
    region knows no identity: an exclusive scan with a region needs `init`.
    With `reverse`, values still combine in lane order (lower lane on the
    left): position `p` gets `x_p (op) ... (op) x_last`, and `init` stands
    after the segment's last lane (`... (op) x_last (op) init`).

    With `valid_lanes %n` (1 <= n <= 32, run-time), only lanes `0..n-1` are
    live (a ragged warp): the values of the other lanes never reach the
    combiner, a segment ends at its last live lane, and the total is that of
    the live lanes. The lanes at or past `n` get unspecified values and need
    not execute (pass the mask of the first `n` lanes as `mask` if they do
    not). A constant `n` takes only the steps of distance below `n`
    (`ceil(log2(n))` of them: no live lane has a partner further away).

    With `heads %flags` the scan is segmented by head flags, as well as by
    `width`: a lane whose flag is true starts a new segment (the flags mark
    segments' lowest lanes in either direction), and no lane combines values
    across a segment start. The edges of `mask` bound segments too, as for
    `warp.reduce`'s segments: a maximal run of consecutive lanes of `mask`
    starts a segment at its first lane and ends one at its last lane, so no
    lane outside the mask is read. `init` cannot be combined with `heads`.

    A `width` that is not a power of two makes logical warps (CUB's
    `WarpScan<T, LOGICAL_WARP_THREADS>`): the segments are `[0, width)`,
    `[width, 2 width)`, ..., the last one holding the `32 % width` remaining
    lanes, each scanned on its own; every other operand combines as with a
    power of two. Within a segment, the lanes of `mask` must be consecutive
    (as for a power-of-two width, whose scan reads every lane of the
    segment; here a run of consecutive mask lanes scans on its own).

    Combine order: Kogge-Stone with distances 1, 2, 4, ..., each step
    combining the lower lane's partial (on the left) with the higher lane's.
    Lanes outside the segment never reach the combiner. When second result
    types are written (one per value), those results are the segment's
    total, without `init` (the inclusive value of its last position), in
    every lane.

    ```mlir
    %incl = warp.scan <add> %x : i32
    %excl, %total = warp.scan <add> %x exclusive width 8 : f32, f32
    %runs = warp.scan <add> %x heads %starts : i32
    %ragged = warp.scan <add> %x valid_lanes %n : f32
    // Composition of affine maps x -> a*x + b, lane 0's map applied first.
    %a, %b = warp.scan %a0, %b0 : i32, i32
        combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a2, %a1 : i32
      %t = arith.muli %a2, %b1 : i32
      %b3 = arith.addi %t, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    ```
  }];
  let arguments = (ins OptionalAttr<Warp_CombineKindEnum>:$kind,
                       Variadic<Warp_Payload>:$values,
                       Variadic<Warp_Payload>:$init,
                       Optional<I32>:$valid_lanes, Optional<I32>:$mask,
                       Optional<I1>:$heads,
                       UnitAttr:$exclusive, UnitAttr:$reverse,
                       DefaultValuedAttr<Warp_LogicalWidth, "32">:$width);
  // The scans of the N values, then (optionally) their N segment totals.
  let results = (outs Variadic<Warp_Payload>:$result);
  let regions = (region MaxSizedRegion<1>:$combiner);
  let assemblyFormat = [{
    custom<KindAndValues>($kind, $values) (`exclusive` $exclusive^)? (`reverse` $reverse^)?
    (`width` $width^)? (`init` $init^)? (`valid_lanes` $valid_lanes^)?
    (`mask` $mask^)? (`heads` $heads^)?
    attr-dict `:` custom<ScanTypes>(ref($values), ref($init), type($values),
                                    type($init), type($result), $combiner)
  }];
  let builders = [
    // An inclusive scan of one value with a built-in kind.
    OpBuilder<(ins "::mlir::warp::CombineKind":$kind, "::mlir::Value":$value)>,
  ];
  let extraClassDeclaration = [{
    /// Whether the combine order may change: only with a kind (a region
    /// keeps lane order).
    bool isCommutative() { return getKind().has_value(); }
    /// The N scanned values, one per value.
    ::mlir::ResultRange getScanned() {
      return getResult().take_front(getValues().size());
    }
    /// The N segment totals, or an empty range.
    ::mlir::ResultRange getTotal() {
      return getResult().drop_front(getValues().size());
    }
  }];
  let hasVerifier = 1;
}

def Warp_YieldOp : Warp_Op<"yield",
    [Pure, Terminator, ParentOneOf<["ReduceOp", "ScanOp", "BlockReduceOp", "BlockScanOp",
                 "DeviceSelectIfOp", "DevicePartitionIfOp",
                 "DeviceReduceCombineOp", "DeviceScanCombineOp",
                 "DeviceSegmentedReduceCombineOp", "MergeSortOp",
                 "BlockMergeSortOp", "BlockRadixRankOp"]>]> {
  let summary = "the result of a combiner or predicate region";
  let description = [{
    Ends the `combine` region of `warp.reduce`, `warp.scan`,
    `warp.block_reduce`, `warp.block_scan`,
    `warp.device_reduce_combine`, `warp.device_scan_combine` and
    `warp.device_segmented_reduce_combine`, yielding the
    combined tuple (one value per reduced value, of the same types), the
    `prefix` region of `warp.block_scan`, yielding the block's prefix, and
    the `pred` region of `warp.device_select_if` and
    `warp.device_partition_if`, yielding the element's i1, and the
    `compare` region of `warp.merge_sort` and `warp.block_merge_sort`,
    yielding whether its first key
    is ordered before its second, and the `digit` region of
    `warp.block_radix_rank`, yielding the key's digit (an i32), and its
    `counts` region, yielding nothing.

    ```mlir
    warp.yield %sum, %index : f32, i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Warp_CompactOp : Warp_Op<"compact", [Warp_MemberMaskOpInterface, Warp_Convergent]> {
  let summary = "per-lane write offset and warp count for a predicate";
  let description = [{
    Ballot compaction. With `b = ballot(predicate, mask)`: `offset` is the
    number of lanes below the executing lane whose predicate holds,
    `popc(b & lanemask<lt>)`, and `count` is `popc(b)`, the same in all
    lanes. A lane whose predicate holds writes its element at
    `base + offset`; the warp advances `base` by `count`.

    ```mlir
    %offset, %count = warp.compact %keep : i32
    ```
  }];
  let arguments = (ins I1:$predicate, Optional<I32>:$mask);
  let results = (outs I32:$offset, I32:$count);
  let assemblyFormat = "$predicate (`mask` $mask^)? attr-dict `:` type($offset)";
}

//===----------------------------------------------------------------------===//
// Exchange, elect, warp-aggregated atomics
//===----------------------------------------------------------------------===//

def Warp_ExchangeDirectionAttr : I32EnumAttr<"ExchangeDirection",
    "direction of a blocked/striped exchange", [
    I32EnumAttrCase<"BlockedToStriped", 0, "blocked_to_striped">,
    I32EnumAttrCase<"StripedToBlocked", 1, "striped_to_blocked">,
    // The block's warp-striped arrangement (warp.block_exchange only: a
    // warp's striped arrangement is its warp-striped one).
    I32EnumAttrCase<"BlockedToWarpStriped", 2, "blocked_to_warp_striped">,
    I32EnumAttrCase<"WarpStripedToBlocked", 3, "warp_striped_to_blocked">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_ExchangeDirectionEnum : EnumAttr<Warp_Dialect, Warp_ExchangeDirectionAttr,
                                          "exchange_direction"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_ExchangeStrategyAttr : I32EnumAttr<"ExchangeStrategy",
    "how an exchange moves items between lanes", [
    I32EnumAttrCase<"Shuffle", 0, "shuffle">, I32EnumAttrCase<"Shared", 1, "shared">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_ExchangeStrategyEnum : EnumAttr<Warp_Dialect, Warp_ExchangeStrategyAttr,
                                         "exchange_strategy"> {
  let assemblyFormat = "`<` $value `>`";
}

/// What an exchange moves: N (1..32, the verifier checks) items of 4 or 8
/// bytes per lane.
def Warp_ExchangeItems : FixedVectorOfRankAndType<[1], [I32, I64, F32, F64]>;

/// What a warp exchange or scatter moves: N (1..128, the verifier checks)
/// items of 1, 2, 4 or 8 bytes per lane.
def Warp_WarpExchangeItems
    : FixedVectorOfRankAndType<[1], [I8, I16, I32, I64, F16, BF16, F32, F64]>;

def Warp_ExchangeOp : Warp_Op<"exchange",
    [Warp_Convergent, AllTypesMatch<["items", "result"]>]> {
  let summary = "blocked <-> striped rearrangement of N items per lane (CUB WarpExchange)";
  let description = [{
    The warp holds `32 * N` items, `N` per lane in a `vector<N x T>`
    (`1 <= N <= 128`; `T` is i8, i16, i32, i64, f16, bf16, f32 or f64).
    Item `g` is held by

    * *blocked* arrangement: lane `g / N`, position `g % N` (lane `l` holds
      items `l*N .. l*N + N-1`);
    * *striped* arrangement: lane `g % 32`, position `g / 32` (lane `l`
      holds items `l, l + 32, ..., l + 32*(N-1)`).

    `blocked_to_striped` takes items in the blocked arrangement and returns
    them striped; `striped_to_blocked` the reverse. The two are inverse
    permutations; values move bit for bit (NaN payloads, also those of f16
    and bf16, and `-0.0` kept).
    All 32 lanes of the warp execute the op together (no member mask); in a
    ragged last warp the items of the missing lanes are undefined.

    `strategy` chooses the lowering (the compiler chooses when absent):

    * `shuffle`: registers only. Each lane rotates its items by a per-lane
      amount (a barrel shifter of selects), then `N` steps each move one
      item with one `shfl.sync.idx` per 32-bit word (two for i64/f64) from a
      static vector position, then a second rotation puts the received items
      in place. An 8- or 16-bit item moves alone in one word (zero-extended,
      its bits kept): the items a lane receives in two steps come from two
      different lanes, so two of them never share a shuffle. No shared or
      local memory. Needs a power-of-two `N <= 32`.
    * `shared`: through a workgroup buffer that the expansion adds to the
      enclosing `gpu.module`: one `memref.global` `@__warp_exchange_buffer`
      in `#gpu.address_space<workgroup>` (i8 elements, 16-byte aligned),
      shared by every exchange of the module and sized for the largest:
      per warp of the block (`known_block_size` of the `gpu.func`, else
      1024 threads) `32 * N` items plus one padding word of 4 bytes (or one
      padding item, for 8-byte items) per 128 bytes: item `i` of a warp's
      slice lives at item index `i + (i / P) * Q`, `P = 128 / sizeof(T)`,
      `Q = max(1, 4 / sizeof(T))`, so that, for power-of-two `N` up to
      `128 / sizeof(T)` (a lane's items within 128 bytes), neither side
      has bank conflicts (lanes whose narrow items share a 4-byte word do
      not conflict). Each warp uses its own slice (`warp.warp_id
      linear`), and every exchange (and `warp.scatter`) a kernel may run
      (in it or in the functions it calls) takes slices of the size of
      the largest of them, so that a warp's slice of one never meets
      another warp's of another, which it may run at the same time (the
      slice size is the buffer's and each op's `warp.slice_bytes`
      attribute after the expansion). Sequence: `warp.syncwarp` (the
      previous exchange's reads of the slice are done), every lane stores
      its `N` items, `warp.syncwarp` (the stores are visible), every lane
      loads its `N` items. Any `N`. Needs the op to be in a `gpu.func` of
      a `gpu.module` (a diagnostic otherwise) and the buffer to fit the 48
      KiB of static shared memory (a diagnostic otherwise: give the
      `gpu.func` a smaller `known_block_size`).

    Without `strategy`: `shuffle` for power-of-two `N <= 8`, else `shared`
    where it is possible, else `shuffle` (power-of-two `N <= 32`), else a
    diagnostic.

    ```mlir
    // Lane l: items l*8 .. l*8+7 in; items l, l+32, ..., l+224 out.
    %s = warp.exchange <blocked_to_striped> %b : vector<8xf32>
    %b2 = warp.exchange <striped_to_blocked> %s strategy = <shared> : vector<8xf32>
    %h = warp.exchange <blocked_to_striped> %x : vector<64xbf16>
    ```
  }];
  let arguments = (ins Warp_ExchangeDirectionEnum:$direction,
                       Warp_WarpExchangeItems:$items,
                       OptionalAttr<Warp_ExchangeStrategyEnum>:$strategy);
  let results = (outs Warp_WarpExchangeItems:$result);
  let assemblyFormat = [{
    $direction $items (`strategy` `=` $strategy^)? attr-dict `:` type($items)
  }];
  let extraClassDeclaration = [{
    /// The most items per lane (of a warp.exchange or warp.scatter).
    static constexpr unsigned kMaxItemsPerLane = 128;
    /// N, the number of items per lane.
    unsigned getItemsPerLane() {
      return ::llvm::cast<::mlir::VectorType>(getItems().getType())
          .getNumElements();
    }
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Warp_ScatterOp : Warp_Op<"scatter",
    [Warp_Convergent, AllTypesMatch<["items", "result"]>]> {
  let summary = "place each item at its rank over the warp (CUB "
                "WarpExchange::ScatterToStriped)";
  let description = [{
    The warp holds `32 * N` items, `N` per lane in a `vector<N x T>`
    (`1 <= N <= 128`, `T` as for `warp.exchange`), and one rank per item
    in a `vector<N x i32>`. Lane `l`'s item `j` goes to the warp position
    `ranks[j]` (positions `0 .. 32*N-1`); the result holds the items by
    position, with `striped` striped (CUB's `ScatterToStriped`: lane `l`
    gets positions `l, l+32, ..., l+32*(N-1)`, so position `g` ends in lane
    `g % 32`, slot `g / 32`) or, without it, blocked (CUB's
    `ScatterToBlocked`: lane `l` gets positions `l*N .. l*N+N-1`). Values
    move bit for bit. All 32 lanes of the warp execute the op together (no
    member mask).

    The ranks should be a permutation of the positions (CUB leaves
    anything else undefined). Here: an item whose rank lies outside
    `0 .. 32*N-1` (a negative rank included) is dropped, nothing is
    written for it; a position that several items name gets one of them,
    which one is unspecified; a position that no item names (also one that
    a missing lane of a ragged last warp would have filled) holds an
    unspecified value. No lane reads or writes outside its warp's slice of
    the buffer.

    Lowering: through the workgroup buffer of `warp.exchange`'s `shared`
    strategy (same slice per warp, padding and size rule, the same
    diagnostics): `warp.syncwarp`, each item stored at its rank where the
    rank is inside, `warp.syncwarp`, each lane's `N` positions loaded.

    ```mlir
    // Lane l's items in the order of their ranks, striped.
    %s = warp.scatter %keys, %ranks striped : vector<4xi32>, vector<4xi32>
    ```
  }];
  let arguments = (ins Warp_WarpExchangeItems:$items,
                       FixedVectorOfRankAndType<[1], [I32]>:$ranks,
                       UnitAttr:$striped);
  let results = (outs Warp_WarpExchangeItems:$result);
  let assemblyFormat = [{
    $items `,` $ranks (`striped` $striped^)? attr-dict `:` type($items) `,`
    type($ranks)
  }];
  let extraClassDeclaration = [{
    /// N, the number of items per lane.
    unsigned getItemsPerLane() {
      return ::llvm::cast<::mlir::VectorType>(getItems().getType())
          .getNumElements();
    }
  }];
  let hasVerifier = 1;
}

def Warp_MergeSortOp : Warp_Op<"merge_sort",
    [Warp_Convergent, AttrSizedOperandSegments,
     AllTypesMatch<["keys", "sorted_keys"]>]> {
  let summary = "stable merge sort of N items per lane by a compare region "
                "(CUB WarpMergeSort)";
  let description = [{
    Each logical warp of `width` lanes (a power of two, 1..32, default 32:
    the whole warp; CUB's `LOGICAL_WARP_THREADS`; lanes `[g W, g W + W)`
    form group `g`) holds `W * N` keys in the blocked arrangement: lane
    `l`, the `p = l % W`-th lane of its group, holds the group's items
    `p*N .. p*N+N-1` in a `vector<N x T>` (`1 <= N <= 64`; `T` one of i8,
    i16, i32, i64, f16, bf16, f32, f64), and optionally as many values (a
    `vector<N x V>` of the same `N`, `V` of the same types), each value
    travelling with its key. The op sorts each group's keys by the
    `compare` region and returns them (and the values) in the blocked
    arrangement: lane `l` gets the group's sorted items `p*N ..
    p*N+N-1`.

    The region takes two keys `(%a: T, %b: T)` and yields an i1 that is
    true when `a` is ordered strictly before `b` (CUB's `CompareOp`, a
    strict weak ordering: e.g. `arith.cmpi slt` ascending, `sgt`
    descending). It is a pure function of its arguments (only ops without
    memory effects; no loads, stores, calls or collectives) and the
    expansion evaluates copies of it anywhere, also on keys that do not
    take part (a region that divides by a key must not trap on any key
    bits). Values from above may be used.

    The sort is **stable** (CUB's `StableSort`, which also satisfies
    `Sort`): keys that neither compares before the other keep their input
    order, and so do their values. Keys and values move bit for bit (NaN
    payloads, `-0.0`).

    With `valid_items %n default %oob` (CUB's `Sort(keys, compare,
    valid_items, oob_default)`; an i32, uniform within each group, and a
    `T`), only the group's items at positions `0 .. n-1` take part: the
    result holds them sorted at positions `0 .. n-1`, and every position
    from `n` on holds the key `%oob` with the value that position held in
    the input (the items past `n` are treated as greater than every valid
    item and keep their order). `n <= 0` sorts nothing, `n >= W * N` sorts
    everything. The keys past `n` are never compared.

    All 32 lanes of the warp execute the op together (no member mask),
    also with a `width` below 32; in a ragged last warp the result is
    undefined.

    Lowering (`warp-expand-collectives`): each lane sorts its `N` items
    in registers (an odd-even transposition network of `N (N - 1) / 2`
    compare-exchanges of neighbours, stable), then `log2(W)` merge rounds:
    in round `r` each run of `N 2^(r-1)` sorted items (the items of
    `2^(r-1)` lanes) merges with its neighbour. A round is: `warp.syncwarp`,
    every lane stores its keys (and values) at their blocked positions in
    this warp's slice of a workgroup buffer, `warp.syncwarp`, every lane
    finds where its `N` outputs start in the two runs (a merge-path binary
    search along its diagonal, `ceil(log2(N 2^(r-1) + 1))` unrolled steps
    of two loads and one compare each), then merges `N` items serially (one
    compare and one load of a key, and of a value, per item). The buffer
    is one `memref.global` `@__warp_merge_sort_buffer` in
    `#gpu.address_space<workgroup>` (i8, 16-byte aligned) that the expansion
    adds to the enclosing `gpu.module`, shared by every merge sort of the
    module and sized for the largest: per warp of the block
    (`known_block_size` of the `gpu.func`, else 1024 threads) a part of
    keys and, with values, one of values, each `32 N` items with 16 bytes
    (at least one item) before them, so that a lane's items are as aligned
    as `N` allows, and one item after them (the search and the merge may
    read the items next to the warp's but never use them), each part
    rounded up to 16 bytes. It needs the op in a
    `gpu.func` of a `gpu.module` and the buffer within the 48 KiB of
    static shared memory (diagnostics otherwise: give the `gpu.func` a
    smaller `known_block_size`). `width = 1` is the per-lane sort alone
    (no shared memory).

    ```mlir
    %s = warp.merge_sort %keys : vector<4xi32> compare (%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    // Pairs, descending, 3 valid items in each group of 8 lanes.
    %k, %v = warp.merge_sort %f, %idx valid_items %n default %ninf width 8
        : vector<2xf32>, vector<2xi32> compare (%a: f32, %b: f32) {
      %gt = arith.cmpf ogt, %a, %b : f32
      warp.yield %gt : i1
    }
    ```
  }];
  let arguments = (ins Warp_WarpExchangeItems:$keys,
                       Optional<Warp_WarpExchangeItems>:$values,
                       Optional<I32>:$valid_items,
                       Optional<AnyType>:$oob_default,
                       DefaultValuedAttr<Warp_Width, "32">:$width);
  let results = (outs Warp_WarpExchangeItems:$sorted_keys,
                      Optional<Warp_WarpExchangeItems>:$sorted_values);
  let regions = (region SizedRegion<1>:$compare);
  let assemblyFormat = [{
    $keys (`,` $values^)? (`valid_items` $valid_items^)?
    (`default` $oob_default^)? (`width` $width^)? attr-dict `:`
    custom<RadixSortTypes>(type($keys), type($values), type($sorted_values))
    `` custom<DefaultType>(ref($oob_default), ref(type($keys)),
                           type($oob_default))
    `` custom<Compare>($compare)
  }];
  let extraClassDeclaration = [{
    /// The most items per lane.
    static constexpr unsigned kMaxItemsPerLane = 64;
    /// N, the number of items per lane.
    unsigned getItemsPerLane() {
      return ::llvm::cast<::mlir::VectorType>(getKeys().getType())
          .getNumElements();
    }
    /// The key type T.
    ::mlir::Type getKeyType() {
      return ::llvm::cast<::mlir::VectorType>(getKeys().getType())
          .getElementType();
    }
  }];
  let hasVerifier = 1;
  // The region's checks need its ops verified first.
  let hasRegionVerifier = 1;
}

def Warp_ElectOp : Warp_Op<"elect", [Warp_MemberMaskOpInterface, Warp_Convergent]> {
  let summary = "true in exactly one lane of the mask: the lowest (PTX `elect.sync`)";
  let description = [{
    Returns true in exactly one lane of `mask` (default all 32 lanes) and
    false in the others: the *lowest-numbered* lane of the mask among the
    lanes that exist and have not exited. Every lane of the mask executes
    the op together (`.sync` rule; the executing lane must be in the mask).
    From divergent code pass the lanes that execute it, e.g.
    `warp.activemask` or a ballot.

    On sm_90 and newer the op is one `elect.sync`; elsewhere it is
    "the lowest set bit of `ballot(true, mask)` is the lane's own"
    (`b & -b == lanemask<eq>`). PTX only promises that `elect.sync`
    elects the same lane for the same mask every time; on the H200 it elects
    the lowest lane of the mask (4,000 random masks with varied arrival
    order, and ragged warps), which is what the fallback computes, so the
    result does not depend on the chip.

    With a second result type the op also returns the elected lane's
    number (0..31), the same in every lane of the mask (CUDA's
    `__ffs(mask) - 1` over the lanes present; `elect.sync`'s destination
    register): `elect.sync %r|%p` on sm_90 and newer, the lowest set bit's
    index of the ballot elsewhere, where the flag becomes `lane ==
    leader`.

    ```mlir
    %is_leader = warp.elect : i1
    %m = warp.activemask : i32
    %one = warp.elect mask %m : i1
    %first, %lane = warp.elect mask %m : i1, i32
    ```
  }];
  let arguments = (ins Optional<I32>:$mask);
  let results = (outs I1:$result, Optional<I32>:$leader);
  let assemblyFormat = [{
    (`mask` $mask^)? attr-dict `:` type($result) (`,` type($leader)^)?
  }];
}

/// The packed pairs an atomic takes: each half is its own element
/// (PTX `.f16x2`, `.bf16x2`; CUDA's `__half2`, `__nv_bfloat162`).
def Warp_AtomicPackedType : VectorOfLengthAndType<[2], [F16, BF16]>;
/// What an atomic takes (the kind narrows it: see the ops).
def Warp_AtomicType : AnyTypeOf<[I16, I32, I64, F16, BF16, F32, F64,
                                 Warp_AtomicPackedType]>;

class Warp_AtomicOp<string mnemonic, list<Trait> traits = []>
    : Warp_Op<mnemonic, !listconcat(traits, [
        AllTypesMatch<["value", "result"]>,
        TypesMatchWith<"value has the memref's element type", "memref", "value",
                       "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">])> {
  let results = (outs Warp_AtomicType:$result);
  let hasVerifier = 1;
}

def Warp_AtomicRMWOp : Warp_AtomicOp<"atomic_rmw",
    [Warp_MemberMaskOpInterface, AttrSizedOperandSegments,
     MemoryEffects<[MemRead<Warp_LanesResource>]>]> {
  let summary = "warp-aggregated atomic: one atomic per distinct address";
  let description = [{
    Every lane of the member set applies `kind` with `value` to
    `memref[indices]` and gets the element's old value, as
    `memref.atomic_rmw` would, but the warp issues one atomic per distinct
    address: lanes whose addresses are equal (`match.any` on the address)
    form a group; the group's highest lane applies the group's combined
    value with one atomic; the old value is broadcast to the group (a
    shuffle), and each lane returns what the atomics of the group's lanes
    below it left.

    Kinds (PTX `atom`'s operations) and the values they take:
    - `add`: i32, i64, f16, bf16, f32, f64, `vector<2xf16>` and
      `vector<2xbf16>` (a packed pair: each half is its own element and its
      own sum, as CUDA's `atomicAdd(__half2*)`);
    - `minsi`, `maxsi`, `minui`, `maxui` (signed or unsigned comparison),
      `and`, `or`, `xor`: i32, i64;
    - `exch`: i16, i32, i64, f16, bf16, f32, f64; the element becomes
      `value`;
    - `minnumf`, `maxnumf`: f16, bf16, f32, f64; the element becomes the
      dialect's `minnumf`/`maxnumf` of itself and `value` (`warp.reduce`'s,
      CUDA's `fminf`/`fmaxf`, `fmin`/`fmax`: a NaN operand is ignored, so a
      NaN in memory is replaced and a NaN value leaves memory as it is; NaN
      only when both are). On f32 and f64 they are PTX's `min`/`max`
      (what `fminf` compiles to), which order -0.0 below +0.0: the
      minimum of +0.0 and -0.0 is -0.0, their maximum +0.0; on f16 and
      bf16 which zero they give is unspecified. PTX's `atom` has no float
      min/max but sm_90's vectors of 16-bit elements (which would write
      the neighbours too); CUDA has no float min/max atomic.
    PTX has no 16-bit `atom.exch`: a 16-bit `exch`, and every `minnumf`
    and `maxnumf`, are a compare-and-swap loop on the element
    (`atom.cas.b16`, `.b32` or `.b64` by the element's width; b16 needs
    sm_70, the oldest chip warp targets; with the op's scope and order),
    on every chip; it accesses the element alone, never the neighbouring
    half of a 16-bit element's 32-bit word.

    Which lanes take part: the lanes of `mask`, or, without `mask`, the
    lanes executing the op (`warp.activemask`), the CUDA idiom for
    aggregated atomics from divergent code. Every lane of the member set
    executes the op.

    Result, integers, `exch`, `minnumf` and `maxnumf`: exactly what the
    group's lanes would have seen had they done their atomics one after
    another in ascending lane order, with no other atomic in between (for
    the float min/max up to the bits of a NaN, and on f16 and bf16 the
    sign of a zero). The lowest lane gets `old`,
    the next `old op v_lowest`, and so on; memory ends with `old op v_0 op
    ... op v_last` (integer sums modulo 2^n). For `exch` the lowest lane
    gets `old`, every other lane the value of the group's lane below it,
    and memory ends with the highest lane's value.

    Result, float `add` (every float type; element by element for the
    pairs): memory receives `old + T` (one rounding) and lane `k` returns
    `old + P_k` (one rounding; `old` itself in the group's lowest lane),
    where `P_k` is the exclusive prefix and `T` the total of the group's
    values in ascending lane order, each computed as a Kogge-Stone scan
    over the group's lanes in rank order (distances 1, 2, 4, 8, 16,
    `earlier + later`: the order of `warp.scan`) in the element type, each
    partial sum rounded to it (round to nearest even; f16 and bf16 sums
    too, as `add.rn.f16`). This equals the serialized result when the
    partial sums are exact (e.g. small integers); otherwise it differs
    from it only by rounding: a group of n lanes rounds each partial sum
    at most log2(n) times before the atomic's own rounding. No flush of
    subnormals (`atom.add.noftz`).

    Scope and order (PTX `atom{.sem}{.scope}`): `scope` is `cta`,
    `cluster` (sm_90 and newer), `gpu` (the default, CUDA's `atomicAdd`)
    or `sys`; `ordering` is `relaxed` (the default), `acquire`, `release`
    or `acq_rel`. The group's one atomic carries them. With `release` or
    `acq_rel` the member set first passes a `warp.syncwarp` (which orders
    every member's earlier accesses before the atomic); with `acquire` or
    `acq_rel` it passes one after the atomic, before any member returns,
    so each lane's later accesses are ordered after it as if the lane had
    done the atomic itself.

    Chips: 16-bit `exch`, `minnumf` and `maxnumf` on every chip (`cluster`
    scope from sm_90); f16
    and the f16 pair on sm_70 and newer (`atom.add.noftz.f16`,
    `.f16x2`); bf16 with any scope and order on every chip
    (`atom.add.noftz.bf16` on sm_90 and newer, elsewhere a compare-and-swap
    loop of `atom.cas.b16` with the op's scope and order, as CUDA's
    `atomicAdd(__nv_bfloat16 *)`: it touches the element alone, never the
    2 bytes beside it in its 32-bit word); the bf16 pair needs sm_90
    (`.bf16x2`): on older chips the expansion refuses it with an error at
    the op, as it refuses `cluster` scope.

    The memref must be in memory that every lane addresses alike: global
    memory (no memory space, `1` or `#gpu.address_space<global>`) or
    workgroup memory (`3` or `#gpu.address_space<workgroup>`). The
    verifier refuses other spaces (private `5` or
    `#gpu.address_space<private>`, constant `4`, unknown ones) and stack
    allocations (`memref.alloca` or a view of one): lanes are grouped by
    address, and a thread-private address would group lanes that write
    different elements.

    ```mlir
    // Histogram: one atomic per distinct bin in the warp.
    %old = warp.atomic_rmw <add> %one, %hist[%bin] : i32, memref<256xi32>
    %o2 = warp.atomic_rmw <add> %w, %sums[%i, %j] mask %m : f32, memref<?x?xf32>
    // The largest key per bucket, one atomic per distinct bucket.
    %o3 = warp.atomic_rmw <maxui> %key, %top[%bucket] : i32, memref<?xi32>
    %o5 = warp.atomic_rmw <maxnumf> %h, %peak[%bucket] : f16, memref<?xf16>
    %o6 = warp.atomic_rmw <minnumf> %d, %low[%bucket] : f64, memref<?xf64>
    // Packed half sums, atomic within the block, releasing earlier writes.
    %o4 = warp.atomic_rmw <add> %h2, %acc[%i] scope <cta> ordering <release>
        : vector<2xf16>, memref<?xvector<2xf16>>
    ```
  }];
  let arguments = (ins Warp_AtomicKindEnum:$kind, Warp_AtomicType:$value,
                       Arg<MemRefOf<[I16, I32, I64, F16, BF16, F32, F64,
                                     Warp_AtomicPackedType]>, "the buffer",
                           [MemRead, MemWrite]>:$memref,
                       Variadic<Index>:$indices, Optional<I32>:$mask,
                       DefaultValuedAttr<Warp_MemoryScopeEnum,
                           "::mlir::warp::MemoryScope::GPU">:$scope,
                       DefaultValuedAttr<Warp_MemoryOrderEnum,
                           "::mlir::warp::MemoryOrder::Relaxed">:$ordering);
  let assemblyFormat = [{
    $kind $value `,` $memref `[` $indices `]` (`mask` $mask^)?
    (`scope` $scope^)? (`ordering` $ordering^)? attr-dict `:`
    type($value) `,` type($memref)
  }];
}

def Warp_LaneAtomicRMWOp : Warp_AtomicOp<"lane_atomic_rmw"> {
  let summary = "one lane's atomic with a scope and a memory order";
  let description = [{
    Applies `kind` with `value` to `memref[indices]` atomically and returns
    the element's old value: `memref.atomic_rmw` as PTX `atom` does it,
    with a `scope` and an `ordering` (PTX `atom{.sem}{.scope}`; CUDA's
    `atomicAdd_block`, `atomicAdd_system` and cuda::atomic_ref's memory
    orders), and on the 16-bit element types and packed pairs. Each lane
    does its own atomic; nothing is aggregated. `warp.atomic_rmw`'s
    expansion issues its group's atomic with it where `memref.atomic_rmw`
    cannot say it (a pair, a scope or order other than the defaults).

    Kinds, element types, scopes, orders and the chips they need are
    `warp.atomic_rmw`'s: `add` on every type but i16 (float adds round to
    nearest even, no flush of subnormals), `minnumf` and `maxnumf` on f16,
    bf16, f32 and f64 (CUDA's `fminf`/`fmaxf`, with `warp.atomic_rmw`'s
    NaN and signed-zero rules), the other kinds on i32 and i64, `exch`
    also on i16, f16, bf16, f32 and f64. `convert-warp-mma-to-nvvm` lowers
    it to inline PTX (a 16-bit `exch`, and `minnumf` or `maxnumf`, to a
    compare-and-swap loop of `atom.cas.b16`, `.b32` or `.b64`, each with
    the op's scope and order, as is a bf16 add below sm_90) and refuses
    what the target chip lacks (`cluster` scope, a bf16 pair's add below
    sm_90) with an error at the op. The memref must be in global or workgroup memory.

    ```mlir
    %old = warp.lane_atomic_rmw <add> %v, %buf[%i] scope <sys> ordering <acq_rel>
        : vector<2xbf16>, memref<?xvector<2xbf16>>
    ```
  }];
  let arguments = (ins Warp_AtomicKindEnum:$kind, Warp_AtomicType:$value,
                       Arg<MemRefOf<[I16, I32, I64, F16, BF16, F32, F64,
                                     Warp_AtomicPackedType]>, "the buffer",
                           [MemRead, MemWrite]>:$memref,
                       Variadic<Index>:$indices,
                       DefaultValuedAttr<Warp_MemoryScopeEnum,
                           "::mlir::warp::MemoryScope::GPU">:$scope,
                       DefaultValuedAttr<Warp_MemoryOrderEnum,
                           "::mlir::warp::MemoryOrder::Relaxed">:$ordering);
  let assemblyFormat = [{
    $kind $value `,` $memref `[` $indices `]`
    (`scope` $scope^)? (`ordering` $ordering^)? attr-dict `:`
    type($value) `,` type($memref)
  }];
}

include "WarpDialect/IR/WarpBlockOps.td"
include "WarpDialect/IR/WarpMMAOps.td"
include "WarpDialect/IR/WarpDeviceOps.td"
include "WarpDialect/IR/WarpClusterOps.td"

#endif // WARP_DIALECT_IR_WARPOPS_TD
