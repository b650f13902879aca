// Diagnostics of the expansion and conversion passes: never a backend abort.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --nvvm-attach-target=chip=sm_75 --warp-expand-collectives

gpu.module @m {
func.func @redux_before_sm80(%x: i32) -> i32 {
  // expected-error @+1 {{strategy 'redux' is not available for 'i32' with kind 'add' on sm_75 (redux.sync needs sm_80+ for integers and an sm_100a-class chip for f32 min/max)}}
  %r = warp.reduce <add> %x strategy = <redux> : i32
  return %r : i32
}
}
