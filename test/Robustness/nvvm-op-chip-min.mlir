// An NVVM op that needs a newer (not an arch-specific) chip than the
// pipeline's: named with "or newer" (see nvvm-op-chip.mlir).
// RUN: warp-opt %s -verify-diagnostics --warp-check-lowerable="chip=sm_80"
// RUN: warp-opt %s --warp-check-lowerable="chip=sm_90" -o /dev/null
// A chip the option cannot name is an error, not a guess.
// RUN: not warp-opt %s --warp-check-lowerable="chip=sm_9x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown chip 'sm_9x'

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'nvvm.read.ptx.sreg.cluster.ctaid.x' op needs sm_90 or newer; the pipeline's chip is sm_80}}
      %id = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
      memref.store %id, %out[%c0] : memref<1xi32>
      gpu.return
    }
  }
}
