// CUB's predicated scan step: `partner, valid = warp.shuffle up|down x`
// followed by `valid ? partner (op) x : partner` becomes one volatile inline
// PTX block, `shfl.sync ... r|p, x, d, c, m; @p op r, r, x`, for a combine
// with one PTX instruction over an i32 (add, mul, min/max, bitwise) or an f32
// (add without fast-math flags). Anything else stays a shuffle, an op and a
// select.
// RUN: warp-opt %s --convert-warp-to-nvvm --canonicalize | FileCheck %s

// CHECK-LABEL: func @add_up
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK: %[[R:.*]] = llvm.inline_asm has_side_effects {warp.convergent = distinct[{{[0-9]+}}]<>} "{ .reg .pred p; .reg .b32 r; shfl.sync.up.b32 r|p, $1, 2, 0, -1; @p add.s32 r, r, $1; mov.b32 $0, r; }", "=r,r" %[[X]] : (i32) -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: arith.select
// CHECK: return %[[R]]
func.func @add_up(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %s, %v = warp.shuffle <up> %x, %c2 : i32
  %a = arith.addi %s, %x : i32
  %r = arith.select %v, %a, %s : i32
  return %r : i32
}

// Reversed (shfl.down, clamp 31 with the width's segment mask): the lane's
// own value is the left operand, as in the expansion. A member mask that is
// not a constant is an operand.
// CHECK-LABEL: func @addf_down
// CHECK-SAME: (%[[X:.*]]: f32, %[[M:.*]]: i32)
// CHECK: llvm.inline_asm has_side_effects {{.*}}"{ .reg .pred p; .reg .f32 r; shfl.sync.down.b32 r|p, $1, 4, 6175, $2; @p add.rn.f32 r, $1, r; mov.f32 $0, r; }", "=f,f,r" %[[X]], %[[M]] : (f32, i32) -> f32
func.func @addf_down(%x: f32, %m: i32) -> f32 {
  %c4 = arith.constant 4 : i32
  %s, %v = warp.shuffle <down> %x, %c4 width 8 mask %m : f32
  %a = arith.addf %x, %s : f32
  %r = arith.select %v, %a, %s : f32
  return %r : f32
}

// A segmented step: the bound is PTX's clamp lane, an operand of the block
// before the member mask.
// CHECK-LABEL: func @bounded
// CHECK-SAME: (%[[X:.*]]: i32, %[[B:.*]]: i32, %[[M:.*]]: i32)
// CHECK: llvm.inline_asm has_side_effects {{.*}}"{ .reg .pred p; .reg .b32 r; shfl.sync.up.b32 r|p, $1, 8, $2, $3; @p add.s32 r, r, $1; mov.b32 $0, r; }", "=r,r,r,r" %[[X]], %[[B]], %[[M]] : (i32, i32, i32) -> i32
func.func @bounded(%x: i32, %b: i32, %m: i32) -> i32 {
  %c8 = arith.constant 8 : i32
  %s, %v = warp.shuffle <up> %x, %c8 bound %b mask %m : i32
  %a = arith.addi %s, %x : i32
  %r = arith.select %v, %a, %s : i32
  return %r : i32
}

// Every i32 kind with one instruction; a constant member mask is written in.
// CHECK-LABEL: func @kinds
// CHECK: @p mul.lo.s32 r, r, $1;
// CHECK: shfl.sync.up.b32 r|p, $1, 1, 7680, 255; @p min.s32
// CHECK: @p max.s32
// CHECK: @p min.u32
// CHECK: @p max.u32
// CHECK: @p and.b32
// CHECK: @p or.b32
// CHECK: @p xor.b32
// CHECK-NOT: nvvm.shfl.sync
func.func @kinds(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %m = arith.constant 255 : i32
  %s0, %v0 = warp.shuffle <up> %x, %c1 : i32
  %a0 = arith.muli %s0, %x : i32
  %r0 = arith.select %v0, %a0, %s0 : i32
  %s1, %v1 = warp.shuffle <up> %x, %c1 width 2 mask %m : i32
  %a1 = arith.minsi %s1, %x : i32
  %r1 = arith.select %v1, %a1, %s1 : i32
  %s2, %v2 = warp.shuffle <up> %x, %c1 : i32
  %a2 = arith.maxsi %s2, %x : i32
  %r2 = arith.select %v2, %a2, %s2 : i32
  %s3, %v3 = warp.shuffle <up> %x, %c1 : i32
  %a3 = arith.minui %s3, %x : i32
  %r3 = arith.select %v3, %a3, %s3 : i32
  %s4, %v4 = warp.shuffle <up> %x, %c1 : i32
  %a4 = arith.maxui %s4, %x : i32
  %r4 = arith.select %v4, %a4, %s4 : i32
  %s5, %v5 = warp.shuffle <up> %x, %c1 : i32
  %a5 = arith.andi %s5, %x : i32
  %r5 = arith.select %v5, %a5, %s5 : i32
  %s6, %v6 = warp.shuffle <up> %x, %c1 : i32
  %a6 = arith.ori %s6, %x : i32
  %r6 = arith.select %v6, %a6, %s6 : i32
  %s7, %v7 = warp.shuffle <up> %x, %c1 : i32
  %a7 = arith.xori %s7, %x : i32
  %r7 = arith.select %v7, %a7, %s7 : i32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : i32, i32, i32, i32, i32, i32, i32, i32
}

// Not a scan step: the partner read elsewhere, the valid bit read twice, a
// combine of another value, a float combine without a predicated form or
// with fast-math flags, a select the other way round, a shuffle by idx.
// CHECK-LABEL: func @not_fused
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-8: nvvm.shfl.sync
// CHECK-NOT: llvm.inline_asm
// CHECK: return
func.func @not_fused(%x: i32, %y: i32, %f: f32, %o: i32) -> (i32, i32, i1, i32, f32, f32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %s0, %v0 = warp.shuffle <up> %x, %c1 : i32
  %a0 = arith.addi %s0, %x : i32
  %r0 = arith.select %v0, %a0, %s0 : i32
  %u0 = arith.addi %r0, %s0 : i32
  %s1, %v1 = warp.shuffle <up> %x, %c1 : i32
  %a1 = arith.addi %s1, %x : i32
  %r1 = arith.select %v1, %a1, %s1 : i32
  %w1 = arith.andi %v1, %v1 : i1
  %s2, %v2 = warp.shuffle <up> %x, %c1 : i32
  %a2 = arith.addi %s2, %y : i32
  %r2 = arith.select %v2, %a2, %s2 : i32
  %s3, %v3 = warp.shuffle <up> %f, %c1 : f32
  %a3 = arith.mulf %s3, %f : f32
  %r3 = arith.select %v3, %a3, %s3 : f32
  %s4, %v4 = warp.shuffle <up> %f, %c1 : f32
  %a4 = arith.addf %s4, %f fastmath<contract> : f32
  %r4 = arith.select %v4, %a4, %s4 : f32
  %s5, %v5 = warp.shuffle <up> %x, %c1 : i32
  %a5 = arith.addi %s5, %x : i32
  %r5 = arith.select %v5, %s5, %a5 : i32
  %s6, %v6 = warp.shuffle <idx> %x, %c1 : i32
  %a6 = arith.addi %s6, %x : i32
  %r6 = arith.select %v6, %a6, %s6 : i32
  %s7, %v7 = warp.shuffle <up> %x, %o : i32
  %a7 = arith.addi %s7, %x : i32
  %r7 = arith.select %v7, %a7, %s7 : i32
  return %u0, %r1, %w1, %r2, %r3, %r4, %r5, %r6, %r7 : i32, i32, i1, i32, f32, f32, i32, i32, i32
}
