//===- Passes.td - warp dialect transformation passes ------*- tablegen -*-===//

#ifndef WARPDIALECT_TRANSFORMS_PASSES_TD
#define WARPDIALECT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def WarpSelectLoweringPass
    : Pass<"warp-select-lowering", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Decide how each collective of a gpu.module lowers, for its "
                "target";
  let description = [{
    Decide, then lower: takes every lowering decision for the collectives of
    one `gpu.module` and writes it on the op, so that the expansions only
    carry decisions out and a test can read each decision. The chip comes
    from the `gpu.module`'s `#nvvm.target` (as `gpu-nvvm-attach-target`
    or the pipelines attach it), never from an option; a module without
    one, or with targets of different chips, is an error.

    * `warp.reduce` without segment flags: `warp.lowering` = `"redux"`,
      `"butterfly"`, `"tree"` or `"over_members"` (a mask that may split
      clusters, read over the member lanes in rank order).
    * `warp.scan`, and `warp.reduce` with segment flags: `warp.lowering` =
      `"predicated_steps"` (every step a `warp.scan_step`),
      `"predicated_steps_lane_test_last"` or `"lane_test_steps"`.
    * `warp.block_scan` and `warp.block_reduce` without one: `algorithm`.

    A decision already on an op stands (the pipelines run the pass before
    the block expansion and again before the warp expansion, for the warp
    ops the block expansion creates). The decisions and their measured
    thresholds are one module (`LoweringPolicy.h`).
    `warp-expand-collectives` checks a written decision against the op and
    the chip (a located error where it cannot be carried out) and decides an
    op that carries none with the same policy.

    ```mlir
    // warp-opt --pass-pipeline='builtin.module(gpu.module(warp-select-lowering))'
    gpu.module @m [#nvvm.target<chip = "sm_90">] {
      ...
      %s = warp.reduce <add> %x : i32   // {warp.lowering = "redux"}
    }
    ```
  }];
  let options = [
    Option<"strategy", "strategy", "::mlir::warp::StrategyPreference",
           /*default=*/"::mlir::warp::StrategyPreference::Auto",
           "Reduction strategy where the op names none",
           "::mlir::warp::strategyPreferenceValues()">,
    Option<"scanSteps", "scan-steps", "::mlir::warp::ScanStepPreference",
           /*default=*/"::mlir::warp::ScanStepPreference::FoldLast",
           "How a scan step tests its partner (a lever for benchmarks)",
           "::mlir::warp::scanStepPreferenceValues()">,
  ];
}

def WarpExpandCollectivesPass : Pass<"warp-expand-collectives"> {
  let summary = "Expand reduce, scan, broadcast and compaction into shuffles "
                "and votes";
  let description = [{
    Rewrites `warp.reduce`, `warp.scan`, `warp.broadcast`,
    `warp.broadcast_first` and `warp.compact` into `warp.shuffle`,
    `warp.ballot`, lane ids and arithmetic, or into `nvvm.redux.sync` where
    the target chip can do the reduction in one instruction;
    `warp.exchange` into shuffles and selects or into stores and loads of a
    workgroup buffer it adds to the gpu.module (`@__warp_exchange_buffer`;
    run the pass on the gpu.module or above); `warp.merge_sort` into a
    per-lane sorting network and merge rounds through a workgroup buffer
    of its own (`@__warp_merge_sort_buffer`); `warp.atomic_rmw` into
    `match_any`, a scan over each group and one `memref.atomic_rmw` per
    group; `warp.elect` into a ballot on chips without `elect.sync`
    (below sm_90).

    The chip is the one the IR names: the `#nvvm.target` of the gpu.module
    an op is in (each gpu.module its own), `sm_90` for code outside a
    gpu.module with a target. Decisions: a reduce or scan carries out the
    one `warp-select-lowering` wrote on it (`warp.lowering`), checked
    against the op and the chip (a located error where it cannot be carried
    out); an op without one is decided here by the same policy
    (LoweringPolicy.h). Reduction strategy: the op's own `strategy`
    attribute wins; then the pass's `strategy` option (`auto` by default);
    `auto` picks `redux` where the chip supports it for the type and kind,
    else `tree` for `lanes = first` and `butterfly` for `lanes = all`. A
    forced `redux` the chip cannot do is an error.

    A reduce or scan over a vector of 8- or 16-bit elements whose length is
    not a power of two works on the vector padded with zero elements to the
    next power of two, and its results are cut back (LLVM's backend would
    hold the odd vector with an undefined extra element). The identities of
    `minsi`/`maxsi` over `index` are built in the index dialect, so that
    they take the width index lowers to.

    ```mlir
    // warp-opt --warp-expand-collectives
    %s = warp.reduce <add> %x : f32
    // becomes five `warp.shuffle <xor>` (16, 8, 4, 2, 1) and five arith.addf
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::index::IndexDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"strategy", "strategy", "::mlir::warp::StrategyPreference",
           /*default=*/"::mlir::warp::StrategyPreference::Auto",
           "Reduction strategy where the op names none",
           "::mlir::warp::strategyPreferenceValues()">,
    Option<"scanSteps", "scan-steps", "::mlir::warp::ScanStepPreference",
           /*default=*/"::mlir::warp::ScanStepPreference::FoldLast",
           "How a scan step tests its partner (a lever for benchmarks)",
           "::mlir::warp::scanStepPreferenceValues()">,
  ];
}

def WarpExpandBlockCollectivesPass
    : Pass<"warp-expand-block-collectives", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Expand block-level collectives into warp ops, workgroup "
                "memory and barriers";
  let description = [{
    Rewrites `warp.block_reduce`, `warp.block_scan`,
    `warp.block_broadcast` and `warp.block_ballot` into warp collectives over each warp's live lanes
    (`valid_lanes` and a member mask for a ragged last warp), `memref`
    accesses to one workgroup-memory `memref.global` per payload type in the
    `gpu.module` (66 elements: a slot per warp, the block total, the
    broadcast slot and a prefix slot per warp) and `gpu.barrier`s. The block size comes from
    `gpu.block_dim` at run time; a `known_block_size` on the enclosing
    `gpu.func` lets canonicalization fold it. Runs before
    `warp-expand-collectives`, which expands the warp ops it creates.

    A `warp.block_scan` with `algorithm = <raking>` (the default for a
    `known_block_size` of at most 64 threads) and a `warp.block_reduce`
    with `algorithm = <raking>` go through a raking buffer per payload type
    instead (`@__warp_block_rake`, a slot per thread and one for the
    total), raked serially by warp 0 around one warp scan or reduction;
    with `tile N` each tile rakes its own group of slots of a buffer per
    tile size (`@__warp_block_tile_rake`).

    `warp.block_exchange` goes through a buffer of its own per element type
    (`@__warp_block_exchange`, sized for the largest exchange of the module:
    `known_block_size` threads, else 1024, times the items per thread,
    padded against bank conflicts): a barrier, the stores, a barrier, the
    loads. A buffer beyond 48 KiB of static shared memory is an error.

    Block ops over a vector of 8- or 16-bit elements whose length is not a
    power of two are padded as in `warp-expand-collectives`: their scratch
    slots hold the padded vector.

    A kernel that executes block collectives without a `known_block_size`
    (or a bound of its own) gets `nvvm.maxntid` 1024: the block ops promise
    any block size up to 1024 threads, and only a kernel of at most 64
    registers a thread launches with 1024.

    `warp.block_load` and `warp.block_store` (and the warp's `warp.load`
    and `warp.store`) go first: memory accesses by
    their algorithm (`ExpandBlockMemory.cpp`), with the block or warp
    exchanges that `transpose` and `warp_transpose` need, expanded here and
    in `warp-expand-collectives`.

    A block reduce or scan over items per thread (`items`) first becomes
    the same op over one value per thread: each thread folds its items
    serially, and a scan rescans them from the thread's exclusive prefix
    (`ExpandBlockItems.cpp`). Items are not padded.

    `warp.block_merge_sort` becomes `warp.merge_sort`'s expansion with the
    block as its group (`ExpandMergeSort.cpp`): each thread's sorting
    network, then merge rounds through `@__warp_block_merge_sort_buffer`
    between `gpu.barrier`s.

    ```mlir
    // warp-opt --warp-expand-block-collectives
    %s = warp.block_exchange <blocked_to_striped> %b : vector<4xf32>
    // becomes gpu.barrier, 4 memref.store, gpu.barrier, 4 memref.load
    ```

    Block reduces, scans and broadcasts with `tile N` (and `warp.tile_sync
    N`) synchronize each tile of N threads by a named barrier,
    `nvvm.barrier` with id 1 + the tile's index and N threads.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::index::IndexDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def WarpExpandClusterCollectivesPass
    : Pass<"warp-expand-cluster-collectives", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Expand thread-block cluster collectives into block ops, "
                "distributed shared memory and cluster barriers";
  let description = [{
    Rewrites `warp.cluster_reduce`, `warp.cluster_scan` and
    `warp.cluster_broadcast` (sm_90 and newer): the block's part as a
    `warp.block_reduce` or `warp.block_scan`, a workgroup-memory
    `memref.global` of three slots per payload type
    (`@__warp_cluster_slots`), `nvvm.cluster.arrive` / `nvvm.cluster.wait`
    (two cluster barriers per op) and loads of the other blocks' slots
    through `nvvm.mapa` (distributed shared memory). The cluster's block
    count is the gpu.func's `known_cluster_size` (the loops over ranks are
    unrolled) or `%cluster_nctarank` at run time. Runs before
    `warp-expand-block-collectives`, which expands the block ops it
    creates. An op in a gpu.module whose target chip is older than sm_90
    is an error.

    ```mlir
    // warp-opt --pass-pipeline='builtin.module(gpu.module(warp-expand-cluster-collectives))'
    %sum = warp.cluster_reduce <add> %x : f32
    // becomes warp.block_reduce, a slot store, nvvm.cluster.arrive/wait,
    // nvvm.mapa + llvm.load per rank, nvvm.cluster.arrive/wait, a slot load
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def WarpExpandDeviceOpsPass
    : Pass<"warp-expand-device-ops", "::mlir::ModuleOp"> {
  let summary = "Turn device-wide ops into kernels of warp ops and their "
                "launches";
  let description = [{
    Each `warp.device_reduce`, `warp.device_segmented_reduce` and
    `warp.device_scan` in host code becomes
    `gpu.launch_func`s of kernels made of warp ops, in a `gpu.module` of
    their own (`@warp_device_<op>_<kind>_<type>`, shared by the ops alike),
    with a scratch buffer from `gpu.alloc` that is freed after the last
    launch: one chain of asynchronous GPU work that the host waits for at
    its end, as it waits for a synchronous launch. A module nested in
    another gets its kernels itself. A `warp.device_select_if` or
    `warp.device_partition_if` gets a module of its own
    (`@warp_device_<op>_<type>`, renamed where the name is taken): its
    `pred` region is copied into its kernel; so does a
    `warp.device_reduce_combine` (`@warp_device_reduce_combine_<types>`,
    its `combine` region copied into the kernels) and a
    `warp.device_scan_combine` (`@warp_device_scan_combine_<types>`, then
    `_by_key_<keys>` (and `_equal` with an equal region), `_init` and
    `_exclusive` where it has them) and a
    `warp.device_segmented_reduce_combine`
    (`@warp_device_segmented_reduce_combine_<types>_<begin>_<end>`). A
    radix sort's module is
    `@warp_device_radix_sort_<keys>[_<values>]` and its order and bits
    (`_signed`, `_descending`, `_bits<B>_<E>`), a segmented one's
    `@warp_device_segmented_radix_sort_...` with its offsets' types after
    them, and `_double_buffer` for either sort's double-buffered form; a
    histogram's names its levels' type after `_even`/`_range` where it is
    not the samples'. The kernels' block and tile sizes are LoweringPolicy.h's
    `DeviceTiling`.

    The module states its launches for any host, so that a frontend (the
    Python package's `warp_mlir.device`) can run it without this host code:
    every kernel takes the op's memrefs in operand order (each as
    `memref<?xT>`: `(input, output)` of a reduce or scan, then a scan by
    key's keys; a radix sort's keys, then its values, in and out; a
    segmented radix sort's keys in and out, begin and end offsets, then
    its values in and out; a
    `warp.device_reduce_combine`'s inputs, its init values as scalars of
    their types, then its outputs; a
    `warp.device_segmented_reduce_combine`'s likewise, then its begin and
    end offsets; a `warp.device_scan_combine`'s inputs,
    its init values (where it has them) as the integers of their bits,
    then its outputs, then its keys (where it has them); a histogram's
    samples, bins, then its even levels as the integers of their bits or
    its range of levels; a segmented reduction's input, output,
    begin and end offsets, then its init, where it has one, as the integer
    of its bits), then `scratch` (a `memref<?xi8>`) and `n` (an `index`,
    the input's elements), and runs in the module's order;
    `warp.device_grid = N` on a kernel means `max(1, ceil(n / N))` blocks,
    counting the elements of operand `K` instead of `n` with
    `warp.device_grid_operand = K` (a segmented reduction's output#0, a
    segmented radix sort's begin offsets: a block per segment), at least
    `min(B, max(1, ceil(n / I)))` with `warp.device_grid_min = [B, I]` (a
    histogram's grid over a few tiles: a block a tile, up to `B`), at most
    `M` with `warp.device_grid_max = M`, and
    one block where `n <= S` with `warp.device_grid_single = S`; one
    block without `warp.device_grid`; a kernel with `warp.device_skip_if_single` need not
    be launched where the kernel launched before it ran one block (one
    cluster, for a kernel of clusters), which then did its work as well (a
    reduction's `reduce_finish`, after a `reduce_tiles` of one block or
    cluster, which writes the result besides its partial: launched anyway,
    the kernel writes the same result), and one
    with `warp.device_skip_before_single` need not be launched where the
    kernel after it runs one block (one cluster, before a kernel of
    clusters), which then needs nothing of it (a
    scan's `scan_init`, which clears the look-back's status words: a
    single tile looks back at none); a kernel with
    `warp.device_alone_up_to = A` (and `warp.device_alone_over = L`) does
    all of the op's work where `n <= A` (and `n > L`), as the only launch,
    on one block or cluster, and is launched nowhere else, nor by host code
    that must not branch (a radix sort's `radix_sort_single_tile`, which
    sorts an input of at most one tile in one block over every bit; with
    `chip` one that has clusters, a scan's `scan_one_cluster`, which scans
    2 to 8 tiles in one cluster, needing no `scan_init`; a reduction in
    clusters' `reduce_one_block`, the fold of an input one block takes
    alone, without a cluster's launch); the
    module's `warp.device_scratch = [F, P, T]`
    asks for `F + P * max(1, ceil(n / T))` bytes of scratch, which the
    kernels initialise themselves. A `double_buffer` radix sort's (segmented or
    not) module also
    states `warp.device_result_buffer = B`, the buffer (0: the op's
    inputs, 1: its outputs) that holds the sorted data; the op's result
    becomes that constant.

    ```mlir
    warp.device_scan <add> %x, %y : memref<?xf32>, memref<?xf32>
    // becomes
    %t0 = gpu.wait async
    %scratch, %t1 = gpu.alloc async [%t0] (%bytes) : memref<?xi8>
    %t2 = gpu.launch_func async [%t1] @warp_device_scan_add_f32::@scan_init ...
    %t3 = gpu.launch_func async [%t2] @warp_device_scan_add_f32::@scan ...
    %t4 = gpu.dealloc async [%t3] %scratch : memref<?xi8>
    gpu.wait [%t4]
    ```

    With `branch-on-grid` (the default), the host code skips such a
    kernel: an `scf.if` on the grid before it (after it) holds the rest of
    the launches, with it where that grid is more than one block (one
    cluster, after a kernel of clusters), without it else (a `warp.device_reduce` of one chunk is one launch, a
    `warp.device_scan` of one tile too), and an `scf.if` on `n` before a
    `warp.device_alone_up_to` kernel holds its launch alone and the rest.
    Off, every kernel but those is launched: for host code that must not branch around its
    launches (`gpu-async-region` and `async.execute` take no `scf.if`
    with GPU work in it; `warp-lower-to-ptx` with `async` turns it off).
  }];
  let options = [
    Option<"branchOnGrid", "branch-on-grid", "bool", "true",
           "Skip a kernel marked warp.device_skip_if_single (_before_single) "
           "where the kernel before (after) it runs one block or cluster, and "
           "launch a warp.device_alone_up_to kernel alone up to its size (an "
           "scf.if in the host code)">,
    Option<"radixSortMaxBlocks", "radix-sort-max-blocks", "int64_t", "0",
           "The most blocks of a radix sort's histogram kernel (0: "
           "DeviceTiling::kRadixSortHistogramMaxBlocks); a smaller cap puts "
           "several tiles in a block at small sizes, for tests">,
    Option<"radixSortWideStatusFrom", "radix-sort-wide-status-from", "int64_t", "0",
           "The keys from which a onesweep radix sort's look-back status "
           "words are 64 bits wide (0: 2^31, the fewest whose counts need "
           "more than 31 bits); a smaller one takes the wide words at small "
           "sizes, for tests">,
    Option<"chip", "chip", "std::string", "\"sm_90\"",
           "The chip the kernels are for: where it has thread-block clusters "
           "(sm_90 and newer), a scan of a kind of 2 to "
           "DeviceTiling::kOneClusterScanBlocks tiles is one launch of one "
           "cluster (scan_one_cluster)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::warp::WarpDialect"];
}

def WarpOutlineBlockCollectivesPass
    : Pass<"warp-outline-block-collectives", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Turn the block ops of kernels that hold many into calls of "
                "shared functions";
  let description = [{
    A kernel with more than `max-inline` block ops (`warp.block_reduce`,
    `warp.block_scan`, `warp.block_broadcast`, `warp.block_exchange`) calls
    a private, `no_inline` function of the `gpu.module` for each instead:
    ops alike (name, attributes, types, combine region) and in kernels of
    the same `known_block_size` share one function, which carries that size
    (`warp.callers_block_size`) for the expansion. Expanded inline, every
    block op adds branches on the same thread and warp values, which
    LLVM's straight-line strength reduction and GVN compare pairwise, so
    compile time grew with the square of their number; as calls it grows
    linearly (docs/results/compile-scaling.md). A call costs a few
    instructions, so kernels with fewer block ops keep them inline (the
    default threshold is in LoweringPolicy.h). An op whose region uses
    values from outside it stays inline.

    ```mlir
    // 65 or more block ops in @k, each of them like this one:
    %r = warp.block_reduce <add> %x : f32
    // become
    %r = func.call @__warp_block_reduce_0(%x) : (f32) -> f32
    ```
  }];
  let options = [
    Option<"maxInline", "max-inline", "int64_t", "-1",
           "Kernels with at most this many block ops keep them inline "
           "(-1: LoweringPolicy.h's kMaxInlineBlockOpsPerKernel)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def WarpCheckConvergencePass : Pass<"warp-check-convergence"> {
  let summary = "Check that each collective's member mask matches the lanes "
                "that reach it";
  let description = [{
    For every kernel (`gpu.func ... kernel`) and every warp of its block
    (from `known_block_size`; without it, one warp of 32 lanes), a lane-set
    analysis (Analysis/LaneSets.h) finds the lanes that reach each
    collective through `scf.if`, `scf.for`, `scf.while` and the `cf`
    branches of the kernel body, evaluating the conditions
    lane by lane from the lane and thread ids, the block size and
    constants (and the lanes an activemask, ballot, vote or match saw), and
    what each lane holds in a member mask. The collectives are the ops with
    a member mask (all 32 lanes where it is absent), the warp ops that read
    the other lanes without one (`warp.exchange`, `warp.mma_*`: all 32),
    and the block-level ops. Then:

    - an error where the member mask (all 32 lanes without one) names a
      lane that cannot reach the op, a lane on the other side of a branch
      or one a ragged last warp does not have: CUDA's collective waits for
      it and never completes;
    - a warning where lanes that reach the op are not in its mask (the
      executing lane must be in the mask);
    - a warning where a block-level op (`warp.block_*`, `gpu.barrier`) is
      reached by some threads of the block and not by others.

    An `scf.for` whose bounds are known lane by lane and give lanes
    different trip counts (`for i < lane / 8`) lets only the lanes with the
    most iterations run its last one: a mask naming the others is an error
    there (a note at the loop), and every lane that runs any iteration is an
    executing lane for the warning.

    A lane counts only where it exists whenever the op runs: every lane of
    a block whose size the kernel declares (a ragged last warp has fewer; a
    full mask there names lanes the hardware does not wait for); without
    `known_block_size`, threads being numbered without gaps and the block
    possibly as small as the lowest lane that reaches the op, the lanes up
    to that one. So every finding holds for every block size at which the
    op runs: the upper half of a warp under `lane >= 16` with a full mask
    is an error, but `lane < 16` or `lane % 2 == 0` only where the warp is
    known to have more lanes: `known_block_size`, or the option
    `whole-warps`. Each diagnostic has a
    note at every branch that let only some lanes through. `warp.broadcast_first` and `warp.atomic_rmw` without a mask
    take the lanes that execute them and are not checked. Where the
    analysis cannot tell (branches other than scf's and cf's, branches on
    values that are neither per-lane known nor uniform, `scf.for` bounds
    that differ between lanes but are not known per lane, `scf.while` and
    cf loops whose exits depend on loop-carried per-lane values, masks it cannot
    evaluate, device functions other than kernels)
    the pass says nothing. With `as-warnings`, errors are reported as
    warnings and the pass never fails. Nothing is rewritten but the marks
    of `record`. The pipelines run it on the program as written, as
    warnings unless their option `convergence-errors` is set, and again
    after `warp-expand-collectives` (`after-expansion`) on the kernels the
    first run found nothing in: a finding there is a mask the expansion got
    wrong, reported at the original op's location; `warp-lint` runs it
    too.

    ```mlir
    // warp-opt --warp-check-convergence=whole-warps
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      // error: member mask 0xffffffff names lanes 0xffff0000 that cannot
      // reach this op
      %s = warp.reduce <add> %x : f32
    }
    ```
  }];
  let options = [
    Option<"asWarnings", "as-warnings", "bool", /*default=*/"false",
           "Report every finding as a warning (the pass never fails)">,
    Option<"wholeWarps", "whole-warps", "bool", /*default=*/"false",
           "Assume that the warps of a kernel without known_block_size have "
           "all 32 lanes">,
    Option<"record", "record", "bool", /*default=*/"false",
           "Mark each kernel the pass reports on with the unit attribute "
           "warp.convergence_reported (for a later after-expansion run)">,
    Option<"afterExpansion", "after-expansion", "bool", /*default=*/"false",
           "Check the program warp-expand-collectives produced: skip the "
           "kernels marked warp.convergence_reported (and drop the mark), "
           "and say with each finding that the expansion made the op">,
  ];
}

def WarpLintPass : Pass<"warp-lint"> {
  let summary = "Warn about operand values that make a collective undefined "
                "or useless";
  let description = [{
    The verifiers check each op alone (its attributes and types), so that no
    fold can turn valid IR into invalid IR. Facts about operand *values* are
    checked here, as warnings, where the values are constants: an empty
    member mask (the executing lane is always in it), a lane that reads a
    lane outside a constant member mask (an undefined value, PTX rule), an
    `up`/`down` offset past every segment (each lane gets its own value
    back), a `valid_lanes` count outside 1..32, a mask that splits a
    cluster under a forced `butterfly`/`tree` strategy, or a scan segment.
    It also reports what `warp-check-convergence` finds, as warnings.
    Nothing is rewritten and the pass never fails.

    ```mlir
    // warp-opt --warp-lint
    %c0 = arith.constant 0 : i32
    %b = warp.ballot %p mask %c0 : i32   // warning: member mask is empty
    ```
  }];
}

#endif // WARPDIALECT_TRANSFORMS_PASSES_TD
