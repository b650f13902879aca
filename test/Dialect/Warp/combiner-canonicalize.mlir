// Folds and dead-code elimination of reductions with combiner regions.
// RUN: warp-opt %s -canonicalize -split-input-file | FileCheck %s

// A one-lane cluster holds its own tuple.
// CHECK-LABEL: func @one_lane_cluster
// CHECK-SAME: (%[[X:.*]]: f32, %[[I:.*]]: i32)
// CHECK-NOT: warp.reduce
// CHECK: return %[[X]], %[[I]]
func.func @one_lane_cluster(%x: f32, %i: i32) -> (f32, i32) {
  %r:2 = warp.reduce %x, %i cluster_size = 1 : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %b, %bi : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}

// -----

// An unused reduction whose combiner has no side effects is dead.
// CHECK-LABEL: func @unused
// CHECK-NOT: warp.reduce
// CHECK: return
func.func @unused(%x: i32) {
  %r = warp.reduce %x : i32 combine (%a: i32, %b: i32) {
    %s = arith.subi %a, %b : i32
    warp.yield %s : i32
  }
  return
}

// -----

// A combiner that writes memory keeps the op.
// CHECK-LABEL: func @unused_with_store
// CHECK: warp.reduce
func.func @unused_with_store(%x: i32, %m: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %r = warp.reduce %x : i32 combine (%a: i32, %b: i32) {
    memref.store %a, %m[%c0] : memref<1xi32>
    warp.yield %b : i32
  }
  return
}

// -----

// A uniform value is not folded through a region (the combiner may not be
// idempotent); an idempotent kind gives it back in every segment.
// CHECK-LABEL: func @uniform
// CHECK: %[[C:.*]] = arith.constant 7 : i32
// CHECK: %[[R:.*]] = warp.reduce %[[C]] : i32 combine
// CHECK-NOT: warp.reduce
// CHECK: return %[[R]], %[[C]]
func.func @uniform(%f: i1) -> (i32, i32) {
  %c = arith.constant 7 : i32
  %r = warp.reduce %c : i32 combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  }
  %s = warp.reduce <maxsi> %c heads %f : i32
  return %r, %s : i32, i32
}
