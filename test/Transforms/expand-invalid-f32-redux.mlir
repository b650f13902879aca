// f32 redux.sync exists only on sm_100a-class chips: forcing it on sm_90 is a
// diagnostic, not llc's "Cannot select".
// RUN: warp-opt %s -verify-diagnostics --warp-expand-collectives
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_100a --warp-expand-collectives | FileCheck %s

// CHECK: nvvm.redux.sync fmax
gpu.module @m {
func.func @f32_redux(%x: f32) -> f32 {
  // expected-error @+1 {{strategy 'redux' is not available for 'f32' with kind 'maxnumf' on sm_90}}
  %r = warp.reduce <maxnumf> %x strategy = <redux> : f32
  return %r : f32
}
}
