// Unknown chips (in the IR's target) and strategies are diagnostics with a non-zero exit.
// RUN: not warp-opt %s --nvvm-attach-target=chip=sm_95 --warp-expand-collectives 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not warp-opt %s --warp-expand-collectives=strategy=fastest 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not warp-opt %s --nvvm-attach-target=chip=sm_60 --warp-expand-collectives 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not warp-opt %s --warp-expand-collectives=scan-steps=fused 2>&1 | FileCheck %s --check-prefix=STEPS
// A collective that was not expanded is a conversion error, not a crash.
// RUN: not warp-opt %s --convert-warp-to-nvvm 2>&1 | FileCheck %s --check-prefix=UNEXPANDED
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_75 --warp-expand-collectives=strategy=redux | FileCheck %s --check-prefix=FALLBACK

// CHIP: error: unknown chip 'sm_95': expected a chip of LLVM's NVPTX backend, sm_70 or newer (sm_70, sm_72, sm_75, sm_80, {{.*}}, sm_90, sm_90a, sm_100, sm_100f, sm_100a, {{.*}})
// STRATEGY: for the --strategy option: Cannot find option named 'fastest'!
// OLD: error: unknown chip 'sm_60'
// STEPS: for the --scan-steps option: Cannot find option named 'fused'!
// UNEXPANDED: error: failed to legalize operation 'warp.reduce'
// A pass-wide redux preference falls back where redux is illegal.
// FALLBACK-COUNT-5: warp.shuffle <xor>
gpu.module @m {
func.func @f(%x: i32) -> i32 {
  %r = warp.reduce <add> %x : i32
  return %r : i32
}
}
