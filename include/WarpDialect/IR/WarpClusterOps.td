//===- WarpClusterOps.td - thread-block cluster collectives -*- tablegen -*-===//
//
// Collectives over every thread of every block of a thread-block cluster
// (sm_90 and newer), built from block ops, distributed shared memory
// (`mapa`, `ld.shared::cluster`) and cluster barriers by
// warp-expand-cluster-collectives. Like `barrier.cluster`, every thread of
// every block of the cluster must execute them (from uniform control
// flow).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_DIALECT_IR_WARPCLUSTEROPS_TD
#define WARP_DIALECT_IR_WARPCLUSTEROPS_TD

include "WarpDialect/IR/WarpBase.td"

/// What a cluster collective carries: a scalar a block's workgroup memory
/// can hold and another block can read.
def Warp_ClusterPayload : AnyTypeOf<[I8, I16, I32, I64, F16, BF16, F32, F64]>;

class Warp_ClusterOp<string mnemonic, list<Trait> traits = []>
    : Warp_Op<mnemonic, !listconcat(traits, [Warp_Convergent])> {
  code commonDescription = [{
    The cluster is the kernel's launch clusters: the gpu.func's
    `known_cluster_size` (which the lowering makes the kernel's
    `.reqnctapercluster`, so that every launch of it is clustered), or the
    clusters of a `gpu.launch_func ... clusters in (...)` launch. A block's
    rank in its cluster is `%cluster_ctarank` (`x + X * (y + Y * z)` over
    the cluster's blocks), and its threads are numbered as in
    `warp.block_reduce`. A cluster has at most 16 blocks (CUDA's limit on
    sm_90 with the non-portable size allowed, 8 without;
    `warp-check-lowerable` checks a `known_cluster_size`); a cluster of one
    block is the block. Needs sm_90 or newer
    (`warp-expand-cluster-collectives` rejects the ops for older chips).

    Lowering (`warp-expand-cluster-collectives`, before the block ops are
    expanded): the block's part is a block op; one thread of each block
    parks the block's value in a workgroup slot of its own; a cluster
    barrier (`barrier.cluster.arrive` and `wait`, release and acquire)
    makes the slots visible to the whole cluster; thread 0 of each block
    reads the ranks' slots through distributed shared memory (`mapa`,
    `ld.shared::cluster`) and folds them (a broadcast: every thread reads
    the source's slot); a second cluster barrier keeps every slot alive
    and unchanged until every block has read it, and shows the fold to the
    block's threads.
  }];
}

def Warp_ClusterReduceOp : Warp_ClusterOp<"cluster_reduce",
    [AllTypesMatch<["value", "result"]>]> {
  let summary = "reduce a value over every thread of the thread-block cluster";
  let description = [{
    Combines `value` with `kind` (the kinds of `warp.reduce`, in their
    domains) over every thread of every block of the cluster; every
    thread gets the result.

    Combine order (fixed, so float results are reproducible): each block
    reduces its threads as `warp.block_reduce` does, then the blocks'
    totals are folded in rank order from the left,
    `((T_0 (op) T_1) (op) T_2) ...`.
  }] # commonDescription # [{

    ```mlir
    %sum = warp.cluster_reduce <add> %x : f32
    ```
  }];
  let arguments = (ins Warp_CombineKindEnum:$kind, Warp_ClusterPayload:$value);
  let results = (outs Warp_ClusterPayload:$result);
  let assemblyFormat = "$kind $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Warp_ClusterScanOp : Warp_ClusterOp<"cluster_scan",
    [AllTypesMatch<["value", "scanned", "total"]>]> {
  let summary = "prefix combine over every thread of the thread-block cluster";
  let description = [{
    Thread `t` of the block of rank `r` gets `x_0 (op) ... (op) x_i`, `i`
    its place in the order of the cluster's threads (rank, then thread):
    the block scan of its block (`warp.block_scan`) combined after the
    totals of the blocks of lower rank. With `exclusive`, the combination
    of the values before it, and thread 0 of rank 0 gets the kind's
    identity (as `warp.scan`'s exclusive form). `total` is the cluster's
    combination of every value, in every thread.

    Combine order: the block's scan as `warp.block_scan`; the prefix of
    rank `r` is the totals of ranks `0 .. r-1` folded from the left,
    `((T_0 (op) T_1) ...) (op) T_{r-1}`, and thread `t` gets
    `prefix (op) S_t`, `S_t` its block scan (rank 0 takes `S_t` alone,
    bit for bit; with `exclusive`, thread 0 of a later rank takes the
    prefix alone). The total is all ranks' totals folded the same way.
  }] # commonDescription # [{

    ```mlir
    %offset, %total = warp.cluster_scan <add> %count exclusive : i32
    ```
  }];
  let arguments = (ins Warp_CombineKindEnum:$kind, Warp_ClusterPayload:$value,
                       UnitAttr:$exclusive);
  let results = (outs Warp_ClusterPayload:$scanned, Warp_ClusterPayload:$total);
  let assemblyFormat = [{
    $kind $value (`exclusive` $exclusive^)? attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

def Warp_ClusterBroadcastOp : Warp_ClusterOp<"cluster_broadcast",
    [AllTypesMatch<["value", "result"]>]> {
  let summary = "every thread of the cluster gets one thread's value";
  let description = [{
    Every thread of the cluster gets `value` of thread `thread` of the
    block of rank `block` (`block` and `thread` should be the same in
    every thread, `block` below the cluster's blocks and `thread` below
    the block size; otherwise the result is undefined).
  }] # commonDescription # [{

    ```mlir
    %pivot = warp.cluster_broadcast %x, %c0, %c0 : f32
    ```
  }];
  let arguments = (ins Warp_ClusterPayload:$value, I32:$block, I32:$thread);
  let results = (outs Warp_ClusterPayload:$result);
  let assemblyFormat = "$value `,` $block `,` $thread attr-dict `:` type($value)";
}

#endif // WARP_DIALECT_IR_WARPCLUSTEROPS_TD
