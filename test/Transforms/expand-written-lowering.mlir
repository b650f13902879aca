// warp-expand-collectives carries out the decisions warp-select-lowering
// wrote (warp.lowering) and refuses, with a located error, one it cannot
// carry out on the op or the chip.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --warp-expand-collectives | FileCheck %s

// A written tree wins over the butterfly the policy would pick for
// lanes = all: shfl.down by 16, 8, 4, 2, 1, no xor shuffle.
// CHECK-LABEL: func @written_tree
// CHECK-COUNT-5: warp.shuffle <down>
// CHECK-NOT: warp.shuffle <xor>
// CHECK: return
func.func @written_tree(%x: f32) -> f32 {
  %r = warp.reduce <add> %x {warp.lowering = "tree"} : f32
  return %r : f32
}

// -----

// Written lane-test steps: no warp.scan_step although i32 add has one.
// CHECK-LABEL: func @written_lane_tests
// CHECK-NOT: warp.scan_step
// CHECK-COUNT-5: arith.cmpi sge
// CHECK: return
func.func @written_lane_tests(%x: i32) -> i32 {
  %r = warp.scan <add> %x {warp.lowering = "lane_test_steps"} : i32
  return %r : i32
}

// -----

func.func @redux_on_f32(%x: f32) -> f32 {
  // expected-error @+1 {{cannot lower as warp.lowering = "redux" on sm_90}}
  %r = warp.reduce <add> %x {warp.lowering = "redux"} : f32
  return %r : f32
}

// -----

func.func @unknown_decision(%x: i32) -> i32 {
  // expected-error @+1 {{cannot lower as warp.lowering = "fastest" on sm_90}}
  %r = warp.reduce <add> %x {warp.lowering = "fastest"} : i32
  return %r : i32
}

// -----

func.func @predicated_f32_mul(%x: f32) -> f32 {
  // expected-error @+1 {{cannot lower as warp.lowering = "predicated_steps"}}
  %r = warp.scan <mul> %x {warp.lowering = "predicated_steps"} : f32
  return %r : f32
}

// -----

func.func @reduce_decision_on_segments(%x: i32, %h: i1) -> i32 {
  // expected-error @+1 {{cannot lower as warp.lowering = "tree"}}
  %r = warp.reduce <add> %x heads %h {warp.lowering = "tree"} : i32
  return %r : i32
}
