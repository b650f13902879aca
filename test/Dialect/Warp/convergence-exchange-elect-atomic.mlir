// warp.exchange, warp.elect and warp.atomic_add are convergent: no upstream
// pass hoists them out of a loop, sinks them into a branch or merges the
// two arms of a branch that hold them.
// RUN: warp-opt %s -canonicalize -cse -loop-invariant-code-motion | FileCheck %s
// RUN: warp-opt %s -control-flow-sink | FileCheck %s --check-prefix=SINK

// CHECK-LABEL: func @no_hoist_from_loop
// CHECK: scf.for
// CHECK: warp.exchange <blocked_to_striped>
// CHECK: warp.elect
// CHECK: warp.atomic_add
// CHECK: vector.store
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @no_hoist_from_loop(%x: vector<4xf32>, %n: index, %h: memref<?xi32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 {
    %e = warp.exchange <blocked_to_striped> %x : vector<4xf32>
    %l = warp.elect : i1
    %o = warp.atomic_add %one, %h[%c0] : i32, memref<?xi32>
    %oi = arith.index_cast %o : i32 to index
    %s = arith.select %l, %e, %x : vector<4xf32>
    vector.store %s, %out[%oi] : memref<?xf32>, vector<4xf32>
  }
  return
}

// The arms differ only in which lanes execute them: each keeps its own
// elect and atomic.
// CHECK-LABEL: func @arms_stay_apart
// CHECK: scf.if
// CHECK: warp.elect
// CHECK: warp.atomic_add
// CHECK: } else {
// CHECK: warp.elect
// CHECK: warp.atomic_add
func.func @arms_stay_apart(%p: i1, %h: memref<?xi32>, %v: i32) -> (i1, i32) {
  %c0 = arith.constant 0 : index
  %r:2 = scf.if %p -> (i1, i32) {
    %e = warp.elect : i1
    %o = warp.atomic_add %v, %h[%c0] : i32, memref<?xi32>
    scf.yield %e, %o : i1, i32
  } else {
    %e = warp.elect : i1
    %o = warp.atomic_add %v, %h[%c0] : i32, memref<?xi32>
    scf.yield %e, %o : i1, i32
  }
  return %r#0, %r#1 : i1, i32
}

// Computed before a branch, used in one arm: not sunk into it.
// SINK-LABEL: func @no_sink
// SINK: warp.exchange
// SINK-NEXT: warp.elect
// SINK-NEXT: scf.if
func.func @no_sink(%p: i1, %x: vector<2xi64>) -> (vector<2xi64>, i1) {
  %e = warp.exchange <striped_to_blocked> %x : vector<2xi64>
  %l = warp.elect : i1
  %false = arith.constant false
  %r:2 = scf.if %p -> (vector<2xi64>, i1) {
    scf.yield %e, %l : vector<2xi64>, i1
  } else {
    scf.yield %x, %false : vector<2xi64>, i1
  }
  return %r#0, %r#1 : vector<2xi64>, i1
}
