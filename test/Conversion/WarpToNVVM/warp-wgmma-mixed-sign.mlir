// s8 x u8 needs PTX ISA 8.4; sm_90a's (warp's PTX for the chip) is 8.0: a
// located error rather than ptxas's "Feature 'WGMMA with mixed integer
// types' requires PTX ISA .version 8.4".
// RUN: not warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90a},gpu.module(convert-warp-mma-to-nvvm))" -o /dev/null 2>&1 | FileCheck %s
// CHECK: warp-wgmma-mixed-sign.mlir:8:10: error: 'warp.wgmma' op multiplies s8 by u8, which PTX wgmma has from ISA 8.4 on; the pipeline targets sm_90a with PTX 8.0: give a_unsigned and b_unsigned the same value
gpu.module @mixed {
  gpu.func @k(%d: i64, %acc: vector<4xi32>) -> vector<4xi32> {
    %r = warp.wgmma %d, %d, %acc {b_unsigned} : i8, vector<4xi32>
    gpu.return %r : vector<4xi32>
  }
}
