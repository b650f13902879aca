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

class Warp_BlockOp<string mnemonic, list<Trait> traits = []>
    : Warp_Op<mnemonic, !listconcat(traits, [Warp_Convergent])>;

def Warp_BlockReduceOp : Warp_BlockOp<"block_reduce",
    [AllTypesMatch<["value", "result"]>]> {
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

    Lowering (`warp-expand-block-collectives`): warp reduce, lane 0 of each
    warp writes its partial to workgroup memory, barrier, warp 0 reduces the
    partials and writes the total, barrier, every thread reads it: two
    `bar.sync` and one `memref.global` of 66 elements per payload type in
    the enclosing `gpu.module`, shared by all block ops of that type (the
    barriers make consecutive block ops safe without further
    synchronization).

    ```mlir
    %sum = warp.block_reduce <add> %x : f32
    ```
  }];
  let arguments = (ins Warp_CombineKindEnum:$kind, Warp_Payload:$value);
  let results = (outs Warp_Payload:$result);
  let assemblyFormat = "$kind $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Warp_BlockScanOp : Warp_BlockOp<"block_scan",
    [AllTypesMatch<["value", "result"]>,
     OptionalTypesMatchWith<"init has the value's type", "value", "init", "$_self">,
     OptionalTypesMatchWith<"total has the value's type", "value", "total", "$_self">]> {
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

    `algorithm` chooses the lowering and with it the combine order (fixed
    for each, so float results are reproducible run to run; integer kinds
    give identical results under both, the kinds being associative):

    * `warp_scans` (CUB's `BLOCK_SCAN_WARP_SCANS`): each warp scans its
      threads (`warp.scan`'s Kogge-Stone), lane 0 of each warp parks the
      warp's total in workgroup memory, a barrier, warp 0 scans the warps'
      totals exclusively (Kogge-Stone, `init` in front), a barrier, and
      thread `t` of warp `w` gets `P_w (op) S_t`, `P_w` being its warp's
      prefix and `S_t` its own warp scan (warp 0 without `init` takes
      `S_t` alone). Two barriers, the 66-element scratch array of
      `warp.block_reduce`.
    * `raking` (CUB's `BLOCK_SCAN_RAKING`): every thread stores its value
      to workgroup memory, a barrier, then warp 0 alone works: lane `l`
      owns the segment of threads `l*S .. min((l+1)*S, B) - 1`,
      `S = ceil(B / 32)`, folds it serially from left to right
      (`((x_a (op) x_a+1) (op) ...)`), warp 0 scans the segment totals
      exclusively (Kogge-Stone, `init` in front), and lane `l` rescans its
      segment serially from its prefix `Q_l`: thread `t` gets
      `((Q_l (op) x_a) (op) ...) (op) x_t` (lane 0 without `init` starts
      from `x_a`), written back in place; a barrier, every thread reads its
      result. Two barriers, a buffer of `B_max + 1` elements per payload
      type (`@__warp_block_rake`, `B_max` from `known_block_size`, else
      1024; the last element holds the block total).

    Without `algorithm` the lowering picks `raking` when the `gpu.func`'s
    `known_block_size` has at most 64 threads, else `warp_scans` (also when
    the block size is unknown). Why: up to 64 threads the raking segments
    hold at most 2 items, so raking costs one warp scan plus two serial
    steps where `warp_scans` costs a warp scan in every warp and a second
    one in warp 0; in larger blocks warp 0's serial segments grow (32 items
    at 1024 threads, walked twice) while every other warp waits at the
    barrier, and `warp_scans`' work stays spread over the warps. (A
    heuristic from the instruction counts, not from measurements.)

    ```mlir
    %incl = warp.block_scan <add> %x : i32
    %excl, %total = warp.block_scan <add> %x exclusive init %running : f32, f32
    %r = warp.block_scan <maxsi> %x algorithm = <raking> : i32
    ```
  }];
  let arguments = (ins Warp_CombineKindEnum:$kind, Warp_Payload:$value,
                       Optional<Warp_Payload>:$init, UnitAttr:$exclusive,
                       OptionalAttr<Warp_BlockScanAlgorithmEnum>:$algorithm);
  let results = (outs Warp_Payload:$result, Optional<Warp_Payload>:$total);
  let assemblyFormat = [{
    $kind $value (`exclusive` $exclusive^)? (`init` $init^)?
    (`algorithm` `=` $algorithm^)?
    attr-dict `:` type($value) (`,` type($total)^)?
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

    Lowering: a barrier (earlier readers of the scratch slot are done), the
    source thread writes to workgroup memory, a barrier, every thread reads.

    ```mlir
    %pivot = warp.block_broadcast %x, %c0 : f32
    ```
  }];
  let arguments = (ins Warp_Payload:$value, I32:$thread);
  let results = (outs Warp_Payload:$result);
  let assemblyFormat = "$value `,` $thread attr-dict `:` type($value)";
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

    `blocked_to_striped` takes the items blocked and returns them striped;
    `striped_to_blocked` the reverse. The two are inverse permutations;
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

#endif // WARP_DIALECT_IR_WARPBLOCKOPS_TD
