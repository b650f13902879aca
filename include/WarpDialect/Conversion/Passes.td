//===- Passes.td - warp dialect conversion passes ----------*- tablegen -*-===//

#ifndef WARPDIALECT_CONVERSION_PASSES_TD
#define WARPDIALECT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertWarpToNVVMPass : Pass<"convert-warp-to-nvvm"> {
  let summary = "Lower warp ids, shuffles, votes and matches to the NVVM "
                "dialect";
  let description = [{
    Lowers the primitive warp ops to NVVM with CUDA's encodings:
    `warp.shuffle` becomes `nvvm.shfl.sync` with
    `c = ((32 - width) << 8) | clamp` and the member mask, after an
    in-dialect step that splits every other payload than i32 and f32 (which
    `shfl.sync` takes as they are) into i32 shuffles
    (`populateShufflePayloadPatterns`: i1/i8/i16 widened, other values of up
    to 32 bits packed into one shuffle, 64-bit values split into two, wider
    vectors into 32-bit words); ballot/vote to `nvvm.vote.sync`, matches to
    `nvvm.match.sync`, lane masks and the lane id to special registers,
    `warp.syncwarp` to `nvvm.bar.warp.sync`, `warp.activemask` to LLVM's
    `llvm.nvvm.activemask` intrinsic, `warp.elect` to `nvvm.elect.sync`
    (sm_90+: the expansion has already rewritten it for older chips).

    It is a dialect conversion with the warp dialect illegal: collectives
    (`warp.reduce`, `warp.scan`, `warp.broadcast`, `warp.broadcast_first`,
    `warp.compact`, `warp.exchange`, `warp.atomic_rmw`) must have been expanded by `warp-expand-collectives`
    first, and one left behind is a "failed to legalize" error. The MMA ops
    (`warp.mma_load`, `warp.mma_compute`, `warp.mma_store`) stay legal here:
    `convert-warp-mma-to-nvvm` lowers them. Every
    convergent NVVM op it creates carries a distinct `warp.convergent`
    attribute so that region simplification never merges two blocks that
    hold collectives (the two arms of a branch).

    ```mlir
    // warp-opt --convert-warp-to-nvvm
    %v, %ok = warp.shuffle <up> %x, %c1 width 16 : f32
    // becomes nvvm.shfl.sync up %mask, %x, %c1, %c(0x1000) ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def ConvertGPUToWarpPass : Pass<"convert-gpu-to-warp"> {
  let summary = "Rewrite upstream gpu subgroup ops into warp ops";
  let description = [{
    The adoption path for frontends that already emit upstream `gpu` IR:
    `gpu.shuffle` (all modes, any width 1..32, constant or run time, with
    upstream's meaning of `width`, the first w lanes and no segments, not
    CUDA's; upstream's own lowering encodes `up` wrongly below 32),
    `gpu.subgroup_reduce` (which upstream's NVVM pipeline
    cannot lower), `gpu.subgroup_broadcast` and `gpu.lane_id` become warp
    ops, so the warp lowering handles them. A subgroup reduction or
    broadcast takes upstream's meaning of the lanes: those that execute it
    together: in a kernel's body, the warp's existing lanes, counted from
    the thread's number (in a block whose size is not a multiple of 32,
    the last warp has fewer); in an arm of an `scf.if` there (or nested
    in such arms), those of them whose condition takes the arm, a
    `warp.ballot` of it before the branch; in the body of an `scf.for`
    there whose bounds and step every thread shares (constants, kernel
    arguments, block, grid and cluster ids and sizes, arith of them),
    those that execute the loop; elsewhere (loops whose bounds may differ
    between threads, functions a branch may call) `warp.activemask`. The
    reduction is the whole-warp `warp.reduce`
    where they are all 32 at run time and the member-mask one otherwise; a
    `uniform` reduction in a kernel whose `known_block_size` is whole warps,
    or any one in the body of such a kernel, is the whole-warp one alone. A
    `uniform` `gpu.all_reduce` with a
    named operation, or with a region that yields one such arith op of its
    two arguments (`arith.maxsi %a, %b`), becomes `warp.block_reduce` with
    that combine kind; with any other one-block region, a `warp.block_reduce`
    with that combiner region (any block size; upstream's lowering shows
    write-write hazards under compute-sanitizer's racecheck). A region of
    several blocks stays with upstream.

    ```mlir
    // warp-opt --convert-gpu-to-warp, in a known block of whole warps
    %r = gpu.subgroup_reduce add %x uniform : (f32) -> f32
    // becomes %r = warp.reduce <add> %x : f32
    ```
  }];
  let dependentDialects = ["::mlir::warp::WarpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertWarpMMAToNVVMPass : Pass<"convert-warp-mma-to-nvvm"> {
  let summary = "Lower the tensor-core ops (gpu.subgroup_mma_*, warp.mma_*, "
                "warp.ldmatrix/stmatrix, warp.wgmma*) to NVVM, through loops "
                "and branches, and warp.lane_atomic_rmw";
  let description = [{
    Lowers `gpu.subgroup_mma_load_matrix`, `_store_matrix`, `_compute`,
    `_constant_matrix` and `_elementwise` to `nvvm.wmma.*` with upstream's
    patterns, and converts every `!gpu.mma_matrix` that control flow carries
    (`scf.for`/`scf.while` iter_args, `scf.if` results, `cf` block
    arguments) to the LLVM struct of its fragment registers with upstream's
    structural type conversions, so a K loop can carry its accumulator.
    Upstream's pipeline cannot: its first pass (`convert-nvgpu-to-nvvm`)
    converts the types of every `scf` op with a type converter that does not
    know `!gpu.mma_matrix` and fails ("failed to legalize operation
    'scf.for'") on a loop carrying one. Run it on device code before that
    pass; the `warp-lower-to-ptx` and `warp-lower-to-nvvm` pipelines do.

    It also lowers warp's own MMA ops, whose fragments are plain vectors:
    `warp.mma_load`, `warp.mma_compute` and `warp.mma_store` become
    `llvm.call_intrinsic` of LLVM's `llvm.nvvm.wmma.*` intrinsics (NVVM's
    wmma ops have no bf16), e.g.
    `llvm.nvvm.wmma.m16n16k16.load.a.row.stride.bf16.p1` on the element
    pointer of `src[i, j]` with the memref's row stride, and the vector
    fragments are bitcast to and from the intrinsics' registers (f16 pairs
    as `<2 x half>`, bf16 pairs and tf32 as i32, f32 accumulators as
    they are). `warp.mma_sync`, `warp.ldmatrix` and `warp.stmatrix` become
    `nvvm.mma.sync` (row.col), `nvvm.ldmatrix` and `nvvm.stmatrix` (m8n8,
    b16) with the same register packing (8-bit integers four to an i32);
    an fp8 `warp.mma_sync` (f8E4M3FN, f8E5M2) becomes a call of LLVM's
    `llvm.nvvm.mma.m16n8k32.row.col.<D>.<A>.<B>.<C>` intrinsic (NVVM's op
    has no fp8), fp8 four to an i32, and raises its gpu.module's PTX
    version to 8.4 (f32 accumulators) or 8.7 (f16), the first with it.
    `warp.wgmma` becomes `nvvm.wgmma.mma_async` (m64nNk, k 32 bytes of the
    input, the accumulator vector moved into and out of its struct of f32
    or i32 registers; integers wrap; K-major A is layout
    `row`, K-major B `col`, `mn_major` flips them) and
    `warp.wgmma_descriptor` the descriptor's bits, computed from the
    element's shared address (sm_90a only).

    It lowers `warp.lane_atomic_rmw` too (it needs the element's pointer):
    one `atom.<sem>.<scope><.space>.<op>.<type>` in inline PTX, e.g.
    `atom.acq_rel.sys.global.add.noftz.f16x2`, with the value as an integer
    register of its width (LLVM's atomicrmw would drop the scope and order
    and has no packed 16-bit add).

    Before lowering, each op is checked against PTX's wmma table (the shapes
    NVVM has an intrinsic for) and the chip (the `#nvvm.target` of the
    gpu.module the op is in, `sm_90` without one; tf32 and f64 fragments
    need sm_80, 8-bit integer ones sm_72; `mma.sync` and `ldmatrix` as
    their op descriptions say, `stmatrix` sm_90), and upstream's fragment
    loads and stores against the memory spaces wmma can address (global
    and shared): a fragment shape, element type, layout, memory space or
    chip that PTX has no instruction for is a located error naming what
    would work, never an unlowered op or a backend abort.

    ```mlir
    // warp-opt --convert-warp-mma-to-nvvm
    %acc = scf.for %k = %c0 to %n step %c16 iter_args(%c = %zero)
        -> (!gpu.mma_matrix<16x16xf32, "COp">) { ... }
    // becomes an scf.for over !llvm.struct<(f32, f32, f32, f32, f32, f32,
    // f32, f32)> around nvvm.wmma.load / nvvm.wmma.mma
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // WARPDIALECT_CONVERSION_PASSES_TD
