// Collectives are convergent: upstream passes must not hoist them out of
// loops, sink them into branches, speculate them or merge them across blocks.
// Lane-local ops (lane id, lane masks) remain free to move.
// RUN: warp-opt %s -canonicalize -cse -loop-invariant-code-motion | FileCheck %s
// RUN: warp-opt %s -control-flow-sink | FileCheck %s --check-prefix=SINK

// CHECK-LABEL: func @no_hoist_from_loop
// CHECK: scf.for
// CHECK: warp.shuffle <xor>
// CHECK: warp.reduce <add>
// CHECK: warp.ballot
// CHECK: warp.vote <any>
// CHECK: warp.activemask
// CHECK: warp.broadcast
// CHECK: warp.scan
// CHECK: warp.match_any
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @no_hoist_from_loop(%x: f32, %p: i1, %k: i32, %n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : i32
  scf.for %i = %c0 to %n step %c1 {
    %s:2 = warp.shuffle <xor> %x, %c16 : f32
    %r = warp.reduce <add> %x : f32
    %b = warp.ballot %p : i32
    %a = warp.vote <any> %p : i1
    %m = warp.activemask : i32
    %bc = warp.broadcast %x, %k : f32
    %sc = warp.scan <add> %x : f32
    %ma = warp.match_any %k : i32
    %t0 = arith.addf %s#0, %r : f32
    %t1 = arith.addf %t0, %bc : f32
    %t2 = arith.addf %t1, %sc : f32
    %bm = arith.addi %b, %m : i32
    %bm2 = arith.addi %bm, %ma : i32
    %bf = arith.uitofp %bm2 : i32 to f32
    %t3 = arith.addf %t2, %bf : f32
    %t4 = arith.select %a, %t3, %x : f32
    memref.store %t4, %out[%i] : memref<?xf32>
  }
  return
}

// Lane-local values are hoisted; that is allowed and expected.
// CHECK-LABEL: func @lane_local_hoisted
// CHECK: warp.lane_id
// CHECK: warp.lanemask <lt>
// CHECK: scf.for
func.func @lane_local_hoisted(%n: index, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %l = warp.lane_id : i32
    %m = warp.lanemask <lt> : i32
    %s = arith.addi %l, %m : i32
    memref.store %s, %out[%i] : memref<?xi32>
  }
  return
}

// Two identical shuffles, one inside a branch: not merged across blocks.
// CHECK-LABEL: func @no_cse_into_branch
// CHECK: warp.shuffle <down>
// CHECK: scf.if
// CHECK: warp.shuffle <down>
func.func @no_cse_into_branch(%x: f32, %c: i1, %o: i32) -> f32 {
  %a:2 = warp.shuffle <down> %x, %o : f32
  %r = scf.if %c -> f32 {
    %b:2 = warp.shuffle <down> %x, %o : f32
    %s = arith.addf %a#0, %b#0 : f32
    scf.yield %s : f32
  } else {
    scf.yield %a#0 : f32
  }
  return %r : f32
}

// A collective used only in one branch must stay where all lanes run it.
// SINK-LABEL: func @no_sink_into_branch
// SINK: warp.reduce <add>
// SINK-NEXT: warp.ballot
// SINK-NEXT: scf.if
func.func @no_sink_into_branch(%x: f32, %p: i1, %c: i1) -> f32 {
  %r = warp.reduce <add> %x : f32
  %b = warp.ballot %p : i32
  %res = scf.if %c -> f32 {
    %f = arith.uitofp %b : i32 to f32
    %s = arith.addf %r, %f : f32
    scf.yield %s : f32
  } else {
    scf.yield %x : f32
  }
  return %res : f32
}

// Dead collectives are still removed.
// CHECK-LABEL: func @dead_collective_erased
// CHECK-NOT: warp.
// CHECK: return
func.func @dead_collective_erased(%x: f32) {
  %r = warp.reduce <add> %x : f32
  %o = arith.constant 1 : i32
  %s:2 = warp.shuffle <xor> %x, %o : f32
  return
}

// warp.exchange, warp.elect and warp.atomic_rmw are convergent too: no
// upstream pass hoists them out of a loop, sinks them into a branch or
// merges the two arms of a branch that hold them.

// CHECK-LABEL: func @no_hoist_exchange_from_loop
// CHECK: scf.for
// CHECK: warp.exchange <blocked_to_striped>
// CHECK: warp.elect
// CHECK: warp.atomic_rmw
// CHECK: vector.store
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @no_hoist_exchange_from_loop(%x: vector<4xf32>, %n: index, %h: memref<?xi32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 {
    %e = warp.exchange <blocked_to_striped> %x : vector<4xf32>
    %l = warp.elect : i1
    %o = warp.atomic_rmw <add> %one, %h[%c0] : i32, memref<?xi32>
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
// CHECK: warp.atomic_rmw
// CHECK: } else {
// CHECK: warp.elect
// CHECK: warp.atomic_rmw
func.func @arms_stay_apart(%p: i1, %h: memref<?xi32>, %v: i32) -> (i1, i32) {
  %c0 = arith.constant 0 : index
  %r:2 = scf.if %p -> (i1, i32) {
    %e = warp.elect : i1
    %o = warp.atomic_rmw <add> %v, %h[%c0] : i32, memref<?xi32>
    scf.yield %e, %o : i1, i32
  } else {
    %e = warp.elect : i1
    %o = warp.atomic_rmw <add> %v, %h[%c0] : i32, memref<?xi32>
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
