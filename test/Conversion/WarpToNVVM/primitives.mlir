// Primitive warp ops to NVVM: special registers, votes, matches, barriers.
// RUN: warp-opt %s --convert-warp-to-nvvm --canonicalize | FileCheck %s

// CHECK-LABEL: func @ids
func.func @ids() -> (i32, i32, i32) {
  // CHECK: %[[C5:.*]] = arith.constant 5 : i32
  // CHECK: nvvm.read.ptx.sreg.laneid : i32
  %l = warp.lane_id : i32
  // CHECK: %[[T:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: arith.shrui %[[T]], %[[C5]] : i32
  %w = warp.warp_id : i32
  // (tid.z * ntid.y + tid.y) * ntid.x + tid.x, then / 32
  // CHECK: %[[TX:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[TZ:.*]] = nvvm.read.ptx.sreg.tid.z
  // CHECK: %[[TY:.*]] = nvvm.read.ptx.sreg.tid.y
  // CHECK: %[[NY:.*]] = nvvm.read.ptx.sreg.ntid.y
  // CHECK: %[[NX:.*]] = nvvm.read.ptx.sreg.ntid.x
  // CHECK: %[[ZNY:.*]] = arith.muli %[[TZ]], %[[NY]]
  // CHECK: %[[ZY:.*]] = arith.addi %[[ZNY]], %[[TY]]
  // CHECK: %[[ZYX:.*]] = arith.muli %[[ZY]], %[[NX]]
  // CHECK: %[[LIN:.*]] = arith.addi %[[ZYX]], %[[TX]]
  // CHECK: arith.shrui %[[LIN]], %[[C5]] : i32
  %wl = warp.warp_id linear : i32
  return %l, %w, %wl : i32, i32, i32
}

// The lane is tid.x mod 32 where known_block_size makes x a multiple of 32
// (warps are consecutive thread numbers x + X (y + Y z)); else the %laneid
// register (also in a one-dimensional ragged block: see LowerLaneId).
gpu.module @lanes {
  // CHECK-LABEL: gpu.func @one_dimensional
  // CHECK: %[[C31:.*]] = arith.constant 31 : i32
  // CHECK: %[[T:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: arith.andi %[[T]], %[[C31]] : i32
  // CHECK-NOT: laneid
  gpu.func @one_dimensional(%out: memref<i32>) kernel
      attributes {known_block_size = array<i32: 96, 1, 1>} {
    %l = warp.lane_id : i32
    memref.store %l, %out[] : memref<i32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @whole_warps_in_x
  // CHECK: nvvm.read.ptx.sreg.tid.x
  // CHECK: arith.andi
  // CHECK-NOT: laneid
  gpu.func @whole_warps_in_x(%out: memref<i32>) kernel
      attributes {known_block_size = array<i32: 64, 2, 3>} {
    %l = warp.lane_id : i32
    memref.store %l, %out[] : memref<i32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @warps_across_rows
  // CHECK: nvvm.read.ptx.sreg.laneid
  gpu.func @warps_across_rows(%out: memref<i32>) kernel
      attributes {known_block_size = array<i32: 16, 4, 1>} {
    %l = warp.lane_id : i32
    memref.store %l, %out[] : memref<i32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @ragged
  // CHECK: nvvm.read.ptx.sreg.laneid
  gpu.func @ragged(%out: memref<i32>) kernel
      attributes {known_block_size = array<i32: 48, 1, 1>} {
    %l = warp.lane_id : i32
    memref.store %l, %out[] : memref<i32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @unknown
  // CHECK: nvvm.read.ptx.sreg.laneid
  gpu.func @unknown(%out: memref<i32>) kernel {
    %l = warp.lane_id : i32
    memref.store %l, %out[] : memref<i32>
    gpu.return
  }
}

// CHECK-LABEL: func @lanemasks
func.func @lanemasks() -> (i32, i32, i32, i32, i32) {
  // CHECK: nvvm.read.ptx.sreg.lanemask.lt
  // CHECK: nvvm.read.ptx.sreg.lanemask.le
  // CHECK: nvvm.read.ptx.sreg.lanemask.eq
  // CHECK: nvvm.read.ptx.sreg.lanemask.ge
  // CHECK: nvvm.read.ptx.sreg.lanemask.gt
  %0 = warp.lanemask <lt> : i32
  %1 = warp.lanemask <le> : i32
  %2 = warp.lanemask <eq> : i32
  %3 = warp.lanemask <ge> : i32
  %4 = warp.lanemask <gt> : i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// CHECK-LABEL: func @sync_and_activemask
// CHECK-SAME: (%[[M:.*]]: i32)
func.func @sync_and_activemask(%m: i32) -> i32 {
  // CHECK: %[[ALL:.*]] = arith.constant -1 : i32
  // CHECK: nvvm.bar.warp.sync %[[ALL]] {warp.convergent = distinct[{{[0-9]+}}]<>}
  warp.syncwarp
  // CHECK: nvvm.bar.warp.sync %[[M]] {warp.convergent = distinct[{{[0-9]+}}]<>}
  warp.syncwarp mask %m
  // CHECK: llvm.call_intrinsic "llvm.nvvm.activemask"() {warp.convergent = distinct[{{[0-9]+}}]<>} : () -> i32
  %a = warp.activemask : i32
  return %a : i32
}

// CHECK-LABEL: func @votes
// CHECK-SAME: (%[[P:.*]]: i1, %[[M:.*]]: i32)
func.func @votes(%p: i1, %m: i32) -> (i32, i32, i1, i1, i1) {
  // CHECK: %[[ALL:.*]] = arith.constant -1 : i32
  // CHECK: nvvm.vote.sync ballot %[[ALL]], %[[P]] {warp.convergent = distinct[{{[0-9]+}}]<>} -> i32
  %b = warp.ballot %p : i32
  // CHECK: nvvm.vote.sync ballot %[[M]], %[[P]] {warp.convergent = distinct[{{[0-9]+}}]<>} -> i32
  %bm = warp.ballot %p mask %m : i32
  // CHECK: nvvm.vote.sync any %[[ALL]], %[[P]] {warp.convergent = distinct[{{[0-9]+}}]<>} -> i1
  %any = warp.vote <any> %p : i1
  // CHECK: nvvm.vote.sync all %[[M]], %[[P]] {warp.convergent = distinct[{{[0-9]+}}]<>} -> i1
  %all = warp.vote <all> %p mask %m : i1
  // CHECK: nvvm.vote.sync uni %[[ALL]], %[[P]] {warp.convergent = distinct[{{[0-9]+}}]<>} -> i1
  %uni = warp.vote <uni> %p : i1
  return %b, %bm, %any, %all, %uni : i32, i32, i1, i1, i1
}

// CHECK-LABEL: func @matches
// CHECK-SAME: (%[[K:.*]]: i32, %[[K64:.*]]: i64, %[[M:.*]]: i32)
func.func @matches(%k: i32, %k64: i64, %m: i32) -> (i32, i32, i32, i1) {
  // CHECK: %[[ALL:.*]] = arith.constant -1 : i32
  // CHECK: nvvm.match.sync any %[[ALL]], %[[K]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %a = warp.match_any %k : i32
  // CHECK: nvvm.match.sync any %[[M]], %[[K64]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i64 -> i32
  %a64 = warp.match_any %k64 mask %m : i64
  // CHECK: %[[PAIR:.*]] = nvvm.match.sync all %[[ALL]], %[[K64]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i64 -> !llvm.struct<(i32, i1)>
  // CHECK: llvm.extractvalue %[[PAIR]][0]
  // CHECK: llvm.extractvalue %[[PAIR]][1]
  %r:2 = warp.match_all %k64 : i64
  return %a, %a64, %r#0, %r#1 : i32, i32, i32, i1
}

// `bits N`: the low N bits. Up to 8 (or by the strategy) one ballot per
// bit, CUB's MatchAny: each bit tested once, the ballot complemented where
// the lane's bit is clear, the agreements and-ed; a member mask that is not
// the whole warp and-ed at the end. Else one match.sync of the low bits, in
// an i32 where they fit.
// CHECK-LABEL: func @match_bits
// CHECK-SAME: (%[[K:.*]]: i32, %[[K64:.*]]: i64, %[[M:.*]]: i32)
func.func @match_bits(%k: i32, %k64: i64, %m: i32) -> (i32, i32, i32, i32, i32) {
  // CHECK-DAG: %[[C511:.*]] = arith.constant 511 : i32
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
  // CHECK: llvm.inline_asm has_side_effects {{{.*}}} "{ .reg .pred p; .reg .b32 t, m; and.b32 t, $1, 0x1; setp.ne.u32 p, t, 0; vote.sync.ballot.b32 $0, p, -1; @!p not.b32 $0, $0; and.b32 t, $1, 0x2; setp.ne.u32 p, t, 0; vote.sync.ballot.b32 m, p, -1; @!p not.b32 m, m; and.b32 $0, $0, m; }", "=r,r" %[[K]] : (i32) -> i32
  %two = warp.match_any %k bits 2 : i32
  // CHECK: %[[LOW:.*]] = arith.trunci %[[K64]] : i64 to i32
  // CHECK: llvm.inline_asm has_side_effects {{{.*}}} "{ .reg .pred p; .reg .b32 t, m; and.b32 t, $1, 0x1; setp.ne.u32 p, t, 0; vote.sync.ballot.b32 $0, p, $2; @!p not.b32 $0, $0; and.b32 $0, $0, $2; }", "=r,r,r" %[[LOW]], %[[M]]
  %one = warp.match_any %k64 mask %m bits 1 : i64
  // CHECK: llvm.inline_asm has_side_effects {{.*}}and.b32 t, $1, 0x80000000; setp.ne.u32 p, t, 0; vote.sync.ballot.b32 m, p, -1; @!p not.b32 m, m; and.b32 $0, $0, m; }", "=r,r" %[[K]]
  %all = warp.match_any %k bits 32 strategy = <ballots> : i32
  // CHECK: %[[NINE:.*]] = arith.andi %[[K]], %[[C511]] : i32
  // CHECK: nvvm.match.sync any %{{.*}}, %[[NINE]] {{.*}} : i32 -> i32
  %nine = warp.match_any %k bits 9 : i32
  // CHECK: %[[LOW2:.*]] = arith.trunci %[[K64]] : i64 to i32
  // CHECK: %[[TWO64:.*]] = arith.andi %[[LOW2]], %[[C3]] : i32
  // CHECK: nvvm.match.sync any %[[M]], %[[TWO64]] {{.*}} : i32 -> i32
  %two64 = warp.match_any %k64 mask %m bits 2 strategy = <match> : i64
  return %two, %one, %all, %nine, %two64 : i32, i32, i32, i32, i32
}

// Floats match bit for bit: the integer of the same width is compared.
// CHECK-LABEL: func @float_matches
// CHECK-SAME: (%[[F:.*]]: f32, %[[D:.*]]: f64)
func.func @float_matches(%f: f32, %d: f64) -> (i32, i32, i1) {
  // CHECK: %[[FB:.*]] = arith.bitcast %[[F]] : f32 to i32
  // CHECK: nvvm.match.sync any %{{.*}}, %[[FB]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %a = warp.match_any %f : f32
  // CHECK: %[[DB:.*]] = arith.bitcast %[[D]] : f64 to i64
  // CHECK: nvvm.match.sync all %{{.*}}, %[[DB]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i64 -> !llvm.struct<(i32, i1)>
  %m:2 = warp.match_all %d : f64
  return %a, %m#0, %m#1 : i32, i32, i1
}
