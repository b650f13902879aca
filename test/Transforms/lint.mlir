// warp-lint: facts about operand values are warnings, never errors (the
// programs are legal CUDA, their results undefined or useless), and the IR
// is left as it was.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-lint
// RUN: warp-opt %s -split-input-file --warp-lint 2>/dev/null | FileCheck %s

// CHECK-LABEL: func @empty_masks
// CHECK-COUNT-8: mask %
func.func @empty_masks(%x: i32, %p: i1) {
  %c0 = arith.constant 0 : i32
  // expected-warning @+1 {{member mask is empty: no lane can execute this op}}
  warp.syncwarp mask %c0
  // expected-warning @+1 {{member mask is empty}}
  %0:2 = warp.shuffle <idx> %x, %x mask %c0 : i32
  // expected-warning @+1 {{member mask is empty}}
  %1 = warp.broadcast %x, %x mask %c0 : i32
  // expected-warning @+1 {{member mask is empty}}
  %2 = warp.ballot %p mask %c0 : i32
  // expected-warning @+1 {{member mask is empty}}
  %3 = warp.vote <any> %p mask %c0 : i1
  // expected-warning @+1 {{member mask is empty}}
  %4 = warp.match_any %x mask %c0 : i32
  // expected-warning @+1 {{member mask is empty}}
  %5 = warp.reduce <add> %x mask %c0 : i32
  // expected-warning @+1 {{member mask is empty}}
  %6:2 = warp.compact %p mask %c0 : i32
  return
}

// -----

func.func @shuffle_offsets(%x: f32) {
  %c16 = arith.constant 16 : i32
  %cm1 = arith.constant -1 : i32
  %c40 = arith.constant 40 : i32
  // expected-warning @+1 {{offset 16 leaves every segment of 16 lanes: each lane gets its own value back and valid = false}}
  %0:2 = warp.shuffle <up> %x, %c16 width 16 : f32
  // -1 uses its low 5 bits: 31, past every 8-lane segment.
  // expected-warning @+1 {{offset -1 leaves every segment of 8 lanes}}
  %1:2 = warp.shuffle <down> %x, %cm1 width 8 : f32
  // 40 is 8 in its low 5 bits: a valid xor partner, no warning.
  %2:2 = warp.shuffle <xor> %x, %c40 : f32
  return
}

// -----

func.func @reads_outside_mask(%x: f32) {
  %c1 = arith.constant 1 : i32
  %m = arith.constant 0x0000ffff : i32
  // expected-warning @+1 {{lane 15 reads lane 16, which is outside member mask 0x0000ffff: it gets an undefined value}}
  %0:2 = warp.shuffle <down> %x, %c1 mask %m : f32
  %c3 = arith.constant 3 : i32
  %m2 = arith.constant 0x000000f0 : i32
  // expected-warning @+1 {{source lane 3 (lane 3) is outside member mask 0x000000f0}}
  %1 = warp.broadcast %x, %c3 mask %m2 : f32
  %c35 = arith.constant 35 : i32
  // expected-warning @+1 {{source lane 35 (lane 3) is outside member mask 0x000000f0}}
  %2 = warp.broadcast %x, %c35 mask %m2 : f32
  return
}

// -----

func.func @reductions(%x: f32, %i: i32) {
  %c0 = arith.constant 0 : i32
  %c33 = arith.constant 33 : i32
  %m = arith.constant 0x0000000f : i32
  // expected-warning @+1 {{valid_lanes 0 is outside [1, 32]: the result is undefined}}
  %0 = warp.reduce <add> %x valid_lanes %c0 : f32
  // expected-warning @+1 {{valid_lanes 33 is outside [1, 32]}}
  %1 = warp.scan <add> %x valid_lanes %c33 : f32
  // A forced butterfly promises whole clusters.
  // expected-warning @+1 {{member mask 0x0000000f splits a cluster (lane 0 is in it but lane 4 is not): the forced 'butterfly' strategy reads that lane}}
  %2 = warp.reduce <add> %x mask %m cluster_size = 8 strategy = <butterfly> : f32
  // Without a forced strategy any mask is fine (CUDA's __reduce_*_sync).
  %3 = warp.reduce <add> %x mask %m cluster_size = 8 : f32
  %4 = warp.reduce <add> %i mask %m strategy = <redux> : i32
  %m2 = arith.constant 0x00ff00ff : i32
  // expected-warning @+1 {{member mask 0x00ff00ff splits a segment (lane 0 is in it but lane 8 is not)}}
  %5 = warp.scan <add> %x width 16 mask %m2 : f32
  return
}

// -----

// valid_lanes is checked whatever the mask (here one known only at run time).
func.func @valid_lanes_runtime_mask(%x: f32, %m: i32) {
  %c40 = arith.constant 40 : i32
  // expected-warning @+1 {{valid_lanes 40 is outside [1, 32]: the result is undefined}}
  %0 = warp.reduce <add> %x valid_lanes %c40 mask %m : f32
  // expected-warning @+1 {{valid_lanes 40 is outside [1, 32]}}
  %1 = warp.scan <add> %x valid_lanes %c40 mask %m : f32
  return
}
