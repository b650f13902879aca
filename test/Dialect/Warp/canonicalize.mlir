// Every fold of the warp dialect, and the cases that must not fold.
// RUN: warp-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @shuffle_width_one_idx
// CHECK-SAME: (%[[X:.*]]: f32, %[[O:.*]]: i32)
// CHECK-NOT: warp.shuffle
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: return %[[X]], %[[T]]
func.func @shuffle_width_one_idx(%x: f32, %o: i32) -> (f32, i1) {
  %0:2 = warp.shuffle <idx> %x, %o width 1 : f32
  return %0#0, %0#1 : f32, i1
}

// -----

// Width 1: up/down/idx never leave the one-lane segment, so the result is
// the lane's own value; `valid` still depends on the offset.
// CHECK-LABEL: func @shuffle_width_one_down
// CHECK-SAME: (%[[X:.*]]: f32, %[[O:.*]]: i32)
// CHECK: %{{.*}}, %[[V:.*]] = warp.shuffle <down> %[[X]], %[[O]] width 1
// CHECK: return %[[X]], %[[V]]
func.func @shuffle_width_one_down(%x: f32, %o: i32) -> (f32, i1) {
  %0:2 = warp.shuffle <down> %x, %o width 1 : f32
  return %0#0, %0#1 : f32, i1
}

// -----

// With `valid` unused, the forwarded shuffle disappears.
// CHECK-LABEL: func @shuffle_uniform_xor
// CHECK-NOT: warp.shuffle
// CHECK: %[[C:.*]] = arith.constant 3 : i64
// CHECK: return %[[C]]
func.func @shuffle_uniform_xor(%o: i32) -> i64 {
  %c = arith.constant 3 : i64
  %0:2 = warp.shuffle <xor> %c, %o width 4 : i64
  return %0#0 : i64
}

// -----

// Xor with width 1 may still read an earlier segment: no fold.
// CHECK-LABEL: func @shuffle_width_one_xor_kept
// CHECK: warp.shuffle <xor>
func.func @shuffle_width_one_xor_kept(%x: f32) -> (f32, i1) {
  %c1 = arith.constant 1 : i32
  %0:2 = warp.shuffle <xor> %x, %c1 width 1 : f32
  return %0#0, %0#1 : f32, i1
}

// -----

// Offset 0 reads the lane itself in every mode.
// CHECK-LABEL: func @shuffle_offset_zero
// CHECK-SAME: (%[[X:.*]]: i64)
// CHECK-NOT: warp.shuffle
// CHECK: return %[[X]], %[[X]], %[[X]]
func.func @shuffle_offset_zero(%x: i64) -> (i64, i64, i64) {
  %c0 = arith.constant 0 : i32
  %0:2 = warp.shuffle <xor> %x, %c0 : i64
  %1:2 = warp.shuffle <up> %x, %c0 width 8 : i64
  %2:2 = warp.shuffle <down> %x, %c0 width 16 : i64
  return %0#0, %1#0, %2#0 : i64, i64, i64
}

// -----

// With a bound, offset 0 still reads the lane itself, but a lane below the
// bound (up) is not valid: the value is forwarded, the valid bit is not.
// CHECK-LABEL: func @shuffle_offset_zero_bound
// CHECK-SAME: (%[[X:.*]]: i32, %[[B:.*]]: i32)
// CHECK: %{{.*}}, %[[V:.*]] = warp.shuffle <up> %[[X]], %{{.*}} bound %[[B]] : i32
// CHECK: return %[[X]], %[[V]]
func.func @shuffle_offset_zero_bound(%x: i32, %b: i32) -> (i32, i1) {
  %c0 = arith.constant 0 : i32
  %0:2 = warp.shuffle <up> %x, %c0 bound %b : i32
  return %0#0, %0#1 : i32, i1
}

// -----

// idx with lane 0 reads the segment's first lane, not the lane itself.
// CHECK-LABEL: func @shuffle_idx_zero_kept
// CHECK: warp.shuffle <idx>
func.func @shuffle_idx_zero_kept(%x: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %0:2 = warp.shuffle <idx> %x, %c0 : f32
  return %0#0 : f32
}

// -----

// idx of a uniform value is that value, and idx is always valid.
// CHECK-LABEL: func @shuffle_idx_uniform
// CHECK-DAG: %[[C:.*]] = arith.constant 7.0{{.*}} : f32
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-NOT: warp.shuffle
// CHECK: return %[[C]], %[[T]]
func.func @shuffle_idx_uniform(%o: i32) -> (f32, i1) {
  %c = arith.constant 7.0 : f32
  %0:2 = warp.shuffle <idx> %c, %o : f32
  return %0#0, %0#1 : f32, i1
}

// -----

// A lane-varying value is not folded.
// CHECK-LABEL: func @shuffle_idx_varying_kept
// CHECK: warp.shuffle <idx>
func.func @shuffle_idx_varying_kept(%x: f32, %o: i32) -> f32 {
  %0:2 = warp.shuffle <idx> %x, %o : f32
  return %0#0 : f32
}

// -----

// The linear warp id is the hardware warp: the same in all its lanes.
// CHECK-LABEL: func @broadcast_uniform
// CHECK-SAME: (%[[L:.*]]: i32)
// CHECK-NOT: warp.broadcast
// CHECK: %[[W:.*]] = warp.warp_id linear
// CHECK: return %[[W]], %[[W]]
func.func @broadcast_uniform(%lane: i32) -> (i32, i32) {
  %w = warp.warp_id linear : i32
  %0 = warp.broadcast %w, %lane : i32
  %1 = warp.broadcast_first %0 : i32
  return %0, %1 : i32, i32
}

// -----

// A broadcast result under a partial mask is not known uniform for the warp.
// CHECK-LABEL: func @broadcast_of_masked_broadcast_kept
// CHECK: warp.broadcast %{{.*}}, %{{.*}} mask
// CHECK: warp.broadcast %{{.*}}, %{{.*}} :
func.func @broadcast_of_masked_broadcast_kept(%x: f32, %m: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %0 = warp.broadcast %x, %c0 mask %m : f32
  %1 = warp.broadcast %0, %c0 : f32
  return %1 : f32
}

// -----

// ballot(false) is 0; ballot(true) is the mask of the lanes that exist, which
// is not known at compile time (a ragged last warp), so it stays.
// CHECK-LABEL: func @ballot_constant
// CHECK-DAG: %[[NONE:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK: %[[B:.*]] = warp.ballot %[[T]] : i32
// CHECK: %[[BM:.*]] = warp.ballot %[[T]] mask %{{.*}} : i32
// CHECK: return %[[B]], %[[NONE]], %[[BM]]
func.func @ballot_constant(%m: i32) -> (i32, i32, i32) {
  %t = arith.constant true
  %f = arith.constant false
  %0 = warp.ballot %t : i32
  %1 = warp.ballot %f : i32
  %2 = warp.ballot %t mask %m : i32
  return %0, %1, %2 : i32, i32, i32
}

// -----

// CHECK-LABEL: func @vote_constant
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK-NOT: warp.vote
// CHECK: return %[[T]], %[[F]], %[[T]], %[[F]], %[[T]]
func.func @vote_constant() -> (i1, i1, i1, i1, i1) {
  %t = arith.constant true
  %f = arith.constant false
  %0 = warp.vote <any> %t : i1
  %1 = warp.vote <any> %f : i1
  %2 = warp.vote <all> %t : i1
  %3 = warp.vote <all> %f : i1
  %4 = warp.vote <uni> %f : i1
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i1
}

// -----

// match_all of a uniform value succeeds; the masks name the live lanes and
// are not known at compile time.
// CHECK-LABEL: func @match_uniform
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK: %[[A:.*]] = warp.match_any
// CHECK: %[[M:.*]], %{{.*}} = warp.match_all
// CHECK: return %[[A]], %[[M]], %[[T]]
func.func @match_uniform(%m: i32) -> (i32, i32, i1) {
  %k = arith.constant 42 : i64
  %0 = warp.match_any %k mask %m : i64
  %1:2 = warp.match_all %k : i64
  return %0, %1#0, %1#1 : i32, i32, i1
}

// -----

// match_any of x & (2^N - 1) compares the low N bits of x (either operand
// order; fewer bits than the op's own win); other masks stay.
// CHECK-LABEL: func @match_low_bits
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i64, %[[M:.*]]: i32)
// CHECK: %[[A:.*]] = warp.match_any %[[X]] bits 8 : i32
// CHECK: %[[B:.*]] = warp.match_any %[[Y]] mask %[[M]] bits 3 strategy = <match> : i64
// CHECK: %[[C:.*]] = warp.match_any %[[X]] bits 4 : i32
// CHECK: %[[HOLE:.*]] = arith.andi %[[X]], %{{.*}} : i32
// CHECK: %[[D:.*]] = warp.match_any %[[HOLE]] : i32
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @match_low_bits(%x: i32, %y: i64, %m: i32) -> (i32, i32, i32, i32) {
  %c255 = arith.constant 255 : i32
  %c7 = arith.constant 7 : i64
  %c6 = arith.constant 6 : i32
  %lo8 = arith.andi %x, %c255 : i32
  %a = warp.match_any %lo8 : i32
  %lo3 = arith.andi %c7, %y : i64
  %b = warp.match_any %lo3 mask %m bits 40 strategy = <match> : i64
  %c = warp.match_any %lo8 bits 4 : i32
  %hole = arith.andi %x, %c6 : i32
  %d = warp.match_any %hole : i32
  return %a, %b, %c, %d : i32, i32, i32, i32
}

// -----

// A one-lane cluster reduces to the value itself, for every kind.
// CHECK-LABEL: func @reduce_cluster_one
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NOT: warp.reduce
// CHECK: return %[[X]], %[[X]]
func.func @reduce_cluster_one(%x: f32) -> (f32, f32) {
  %0 = warp.reduce <add> %x cluster_size = 1 : f32
  %1 = warp.reduce <mul> %x cluster_size = 1 cluster_stride = 4 : f32
  return %0, %1 : f32, f32
}

// -----

// Idempotent kinds of a uniform value give the value; add/mul/xor do not.
// CHECK-LABEL: func @reduce_uniform
// CHECK: %[[W:.*]] = warp.warp_id linear
// CHECK: %[[S:.*]] = warp.reduce <add> %[[W]]
// CHECK: %[[X:.*]] = warp.reduce <xor> %[[W]]
// CHECK-NOT: warp.reduce
// CHECK: return %[[W]], %[[W]], %[[W]], %[[S]], %[[X]]
func.func @reduce_uniform() -> (i32, i32, i32, i32, i32) {
  %w = warp.warp_id linear : i32
  %0 = warp.reduce <maxsi> %w : i32
  %1 = warp.reduce <and> %w cluster_size = 4 : i32
  %2 = warp.reduce <minui> %w lanes = <first> : i32
  %3 = warp.reduce <add> %w : i32
  %4 = warp.reduce <xor> %w : i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// -----

// warp_id (x) is threadIdx.x / 32, but hardware warps are cut from the
// linear thread index: in a 48x2 block, hardware warp 1 holds x = 32..47 of
// row 0 (warp_id 1) and x = 0..15 of row 1 (warp_id 0). Nothing that reads
// another lane's warp_id folds unless the block's x extent is known to be a
// multiple of 32.
// CHECK-LABEL: gpu.func @warp_id_x_not_uniform
// CHECK: warp.broadcast
// CHECK: warp.shuffle <idx>
// CHECK: warp.reduce <maxui>
// CHECK: warp.match_all
// CHECK: arith.extui
gpu.module @unknown_block {
  gpu.func @warp_id_x_not_uniform(%out: memref<?xi32>, %c0: i32) kernel {
    %w = warp.warp_id : i32
    %b = warp.broadcast %w, %c0 : i32
    %s:2 = warp.shuffle <idx> %w, %c0 : i32
    %r = warp.reduce <maxui> %w : i32
    %m:2 = warp.match_all %w : i32
    %p = arith.extui %m#1 : i1 to i32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i2 = arith.constant 2 : index
    %i3 = arith.constant 3 : index
    memref.store %b, %out[%i0] : memref<?xi32>
    memref.store %s#0, %out[%i1] : memref<?xi32>
    memref.store %r, %out[%i2] : memref<?xi32>
    memref.store %p, %out[%i3] : memref<?xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @warp_id_x_uniform_in_whole_warps
// CHECK-NOT: warp.broadcast
// CHECK-NOT: warp.reduce
// CHECK: %[[W:.*]] = warp.warp_id : i32
// CHECK: memref.store %[[W]]
// CHECK: memref.store %[[W]]
gpu.module @known_block {
  gpu.func @warp_id_x_uniform_in_whole_warps(%out: memref<?xi32>, %c0: i32) kernel
      attributes {known_block_size = array<i32: 64, 2, 1>} {
    %w = warp.warp_id : i32
    %b = warp.broadcast %w, %c0 : i32
    %r = warp.reduce <maxui> %w : i32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    memref.store %b, %out[%i0] : memref<?xi32>
    memref.store %r, %out[%i1] : memref<?xi32>
    gpu.return
  }
}

// -----

// A run-time width that is a constant becomes the attribute.
// CHECK-LABEL: func @constant_dynamic_width
// CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} width 8 : f32
func.func @constant_dynamic_width(%x: f32, %o: i32) -> f32 {
  %w = arith.constant 8 : i32
  %0:2 = warp.shuffle <up> %x, %o width %w : f32
  return %0#0 : f32
}

// -----

// Folds never make valid IR invalid: a mask that folds to 0 stays verifiable
// (the verifiers do not read operand values; warp-lint warns about it).
// CHECK-LABEL: func @mask_folds_to_zero
// CHECK: warp.ballot %{{.*}} mask %{{.*}} : i32
func.func @mask_folds_to_zero(%p: i1, %a: i32, %c: i1) -> i32 {
  %r = scf.if %c -> i32 {
    %m = arith.xori %a, %a : i32
    %b = warp.ballot %p mask %m : i32
    scf.yield %b : i32
  } else {
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  return %r : i32
}

// -----

// One item per thread: blocked and striped are the same arrangement, no
// barrier needed; more items stay.
// CHECK-LABEL: func @block_exchange_one_item
// CHECK-SAME: (%[[X:.*]]: vector<1xf32>, %[[Y:.*]]: vector<2xf32>)
// CHECK: %[[E:.*]] = warp.block_exchange <blocked_to_striped> %[[Y]] : vector<2xf32>
// CHECK: return %[[X]], %[[E]]
func.func @block_exchange_one_item(%x: vector<1xf32>, %y: vector<2xf32>) -> (vector<1xf32>, vector<2xf32>) {
  %0 = warp.block_exchange <blocked_to_striped> %x : vector<1xf32>
  %1 = warp.block_exchange <blocked_to_striped> %y : vector<2xf32>
  return %0, %1 : vector<1xf32>, vector<2xf32>
}

// -----

// A radix rank whose results are unused goes, unless its counts region
// (CUB's counts callback) writes memory: the op's effects are its
// regions' too.
// CHECK-LABEL: gpu.module @rank_unused
// CHECK-LABEL: gpu.func @counts_stored
// CHECK: warp.block_radix_rank {{.*}} counts(
// CHECK-NEXT: vector.store
// CHECK-LABEL: gpu.func @pure_digit
// CHECK-NOT: warp.block_radix_rank
// CHECK: gpu.return
gpu.module @rank_unused {
  gpu.func @counts_stored(%k: vector<2xi32>, %out: memref<?xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %r = warp.block_radix_rank %k bits 0 to 8 warp_striped ranking = <match_early> : vector<2xi32> counts(%c: vector<2xi32>) {
      vector.store %c, %out[%c0] : memref<?xi32>, vector<2xi32>
      warp.yield
    }
    gpu.return
  }
  gpu.func @pure_digit(%k: vector<2xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = warp.block_radix_rank %k radix_bits = 4 : vector<2xi32> digit(%a: i32) {
      warp.yield %a : i32
    }
    gpu.return
  }
}
