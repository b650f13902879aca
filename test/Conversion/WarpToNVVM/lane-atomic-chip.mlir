// What warp.lane_atomic_rmw needs the chip for is an error at the op: the
// bf16 pair (PTX atom.add.noftz.bf16x2) and the cluster scope need sm_90. A
// bf16 add is fine on every chip (lane-atomic-bf16.mlir).
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_80 --convert-warp-mma-to-nvvm -split-input-file -verify-diagnostics -o /dev/null

gpu.module @m {
func.func @bf16_pair_on_sm80(%p: memref<?xvector<2xbf16>, 1>, %x: vector<2xbf16>, %i: index) -> vector<2xbf16> {
  // expected-error @+1 {{'warp.lane_atomic_rmw' op on 'vector<2xbf16>' needs sm_90 or newer (PTX atom.add.noftz.bf16x2); the target chip is sm_80}}
  %0 = warp.lane_atomic_rmw <add> %x, %p[%i] : vector<2xbf16>, memref<?xvector<2xbf16>, 1>
  return %0 : vector<2xbf16>
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
