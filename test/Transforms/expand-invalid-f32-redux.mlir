// f32 redux.sync exists only on sm_100a-class chips: forcing it on sm_90 is a
// diagnostic, not llc's "Cannot select".
// RUN: warp-opt %s -verify-diagnostics --warp-expand-collectives=chip=sm_90
// RUN: warp-opt %s --warp-expand-collectives=chip=sm_100a | FileCheck %s

// CHECK: nvvm.redux.sync fmax
func.func @f32_redux(%x: f32) -> f32 {
  // expected-error @+1 {{strategy 'redux' is not available for 'f32' with kind 'maxnumf' on sm_90}}
  %r = warp.reduce <maxnumf> %x strategy = <redux> : f32
  return %r : f32
}
