// A gpu.module's NVVM target for another chip than the pipeline's.
// RUN: warp-opt %s --warp-reconcile-targets=chip=sm_90 -verify-diagnostics -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa" -verify-diagnostics -o /dev/null

// expected-error @below {{gpu.module @other_chip names the target #nvvm.target<chip = "sm_80">, but the pipeline compiles for chip=sm_90: remove its target or compile with chip=sm_80}}
gpu.module @other_chip [#nvvm.target<chip = "sm_80">] {
}
