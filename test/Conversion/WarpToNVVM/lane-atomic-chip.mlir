// What warp.lane_atomic_rmw needs the chip for is an error at the op: bf16
// (PTX atom.add.noftz.bf16, .bf16x2) and the cluster scope need sm_90.
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_80 --convert-warp-mma-to-nvvm -split-input-file -verify-diagnostics -o /dev/null

gpu.module @m {
func.func @bf16_on_sm80(%p: memref<?xbf16, 1>, %x: bf16, %i: index) -> bf16 {
  // expected-error @+1 {{'warp.lane_atomic_rmw' op on 'bf16' needs sm_90 or newer (PTX atom.add.noftz.bf16); the target chip is sm_80}}
  %0 = warp.lane_atomic_rmw <add> %x, %p[%i] : bf16, memref<?xbf16, 1>
  return %0 : bf16
}
}

// -----

gpu.module @m {
func.func @cluster_on_sm80(%p: memref<?xi32, 1>, %x: i32, %i: index) -> i32 {
  // expected-error @+1 {{'warp.lane_atomic_rmw' op with scope <cluster> needs sm_90 or newer; the target chip is sm_80}}
  %0 = warp.lane_atomic_rmw <add> %x, %p[%i] scope <cluster> : i32, memref<?xi32, 1>
  return %0 : i32
}
}
