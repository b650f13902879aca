//===- Passes.td - warp dialect transformation passes ------*- tablegen -*-===//

#ifndef WARPDIALECT_TRANSFORMS_PASSES_TD
#define WARPDIALECT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def WarpExpandCollectivesPass : Pass<"warp-expand-collectives"> {
  let summary = "Expand reduce, scan, broadcast and compaction into shuffles "
                "and votes";
  let description = [{
    Rewrites `warp.reduce`, `warp.scan`, `warp.broadcast`,
    `warp.broadcast_first` and `warp.compact` into `warp.shuffle`,
    `warp.ballot`, lane ids and arithmetic, or into `nvvm.redux.sync` where
    the target chip can do the reduction in one instruction.

    Reduction strategy: the op's own `strategy` attribute wins; then the
    pass's `strategy` option (`auto` by default); `auto` picks `redux` where
    `chip` supports it for the type and kind, else `tree` for
    `lanes = first` and `butterfly` for `lanes = all`. A forced `redux` the
    chip cannot do is an error.

    ```mlir
    // warp-opt --warp-expand-collectives=chip=sm_90
    %s = warp.reduce <add> %x : f32
    // becomes five `warp.shuffle <xor>` (16, 8, 4, 2, 1) and five arith.addf
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_70 ... sm_100a) that decides redux.sync use">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"auto\"",
           "Reduction strategy when the op has none: auto, butterfly, tree, "
           "redux">,
  ];
}

#endif // WARPDIALECT_TRANSFORMS_PASSES_TD
