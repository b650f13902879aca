// warp.scan_step, CUB's predicated scan step, lowers one to one to a volatile
// inline PTX block, `shfl.sync ... r|p, x, d, c, m; @p op r, r, x`: the
// kind's instruction over an i32 (add, mul, min/max, bitwise) or an f32
// (add.rn), the partner first or the lane's own value first.
// RUN: warp-opt %s --convert-warp-to-nvvm --canonicalize | FileCheck %s

// CHECK-LABEL: func @add_up
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK: %[[R:.*]] = llvm.inline_asm has_side_effects {warp.convergent = distinct[{{[0-9]+}}]<>} "{ .reg .pred p; .reg .b32 r; shfl.sync.up.b32 r|p, $1, 2, 0, -1; @p add.s32 r, r, $1; mov.b32 $0, r; }", "=r,r" %[[X]] : (i32) -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: return %[[R]]
func.func @add_up(%x: i32) -> i32 {
  %r = warp.scan_step <add> <up> %x, 2 partner_first : i32
  return %r : i32
}

// Reversed (shfl.down, clamp 31 with the width's segment mask): the lane's
// own value is the left operand, as in the expansion. A member mask that is
// not a constant is an operand.
// CHECK-LABEL: func @addf_down
// CHECK-SAME: (%[[X:.*]]: f32, %[[M:.*]]: i32)
// CHECK: llvm.inline_asm has_side_effects {{.*}}"{ .reg .pred p; .reg .f32 r; shfl.sync.down.b32 r|p, $1, 4, 6175, $2; @p add.rn.f32 r, $1, r; mov.f32 $0, r; }", "=f,f,r" %[[X]], %[[M]] : (f32, i32) -> f32
func.func @addf_down(%x: f32, %m: i32) -> f32 {
  %r = warp.scan_step <add> <down> %x, 4 width 8 mask %m : f32
  return %r : f32
}

// A segmented step: the bound is PTX's clamp lane, an operand of the block
// before the member mask.
// CHECK-LABEL: func @bounded
// CHECK-SAME: (%[[X:.*]]: i32, %[[B:.*]]: i32, %[[M:.*]]: i32)
// CHECK: llvm.inline_asm has_side_effects {{.*}}"{ .reg .pred p; .reg .b32 r; shfl.sync.up.b32 r|p, $1, 8, $2, $3; @p add.s32 r, r, $1; mov.b32 $0, r; }", "=r,r,r,r" %[[X]], %[[B]], %[[M]] : (i32, i32, i32) -> i32
func.func @bounded(%x: i32, %b: i32, %m: i32) -> i32 {
  %r = warp.scan_step <add> <up> %x, 8 bound %b mask %m partner_first : i32
  return %r : i32
}

// Every i32 kind with one instruction; a constant member mask or bound is
// written in.
// CHECK-LABEL: func @kinds
// CHECK: @p mul.lo.s32 r, r, $1;
// CHECK: shfl.sync.up.b32 r|p, $1, 1, 7680, 255; @p min.s32
// CHECK: @p max.s32
// CHECK: shfl.sync.down.b32 r|p, $1, 1, 5, -1; @p min.u32 r, $1, r;
// CHECK: @p max.u32
// CHECK: @p and.b32
// CHECK: @p or.b32
// CHECK: @p xor.b32
// CHECK-NOT: nvvm.shfl.sync
func.func @kinds(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %m = arith.constant 255 : i32
  %b = arith.constant 5 : i32
  %r0 = warp.scan_step <mul> <up> %x, 1 partner_first : i32
  %r1 = warp.scan_step <minsi> <up> %x, 1 width 2 mask %m partner_first : i32
  %r2 = warp.scan_step <maxsi> <up> %x, 1 partner_first : i32
  %r3 = warp.scan_step <minui> <down> %x, 1 bound %b : i32
  %r4 = warp.scan_step <maxui> <up> %x, 1 partner_first : i32
  %r5 = warp.scan_step <and> <up> %x, 1 partner_first : i32
  %r6 = warp.scan_step <or> <up> %x, 1 partner_first : i32
  %r7 = warp.scan_step <xor> <up> %x, 1 partner_first : i32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : i32, i32, i32, i32, i32, i32, i32, i32
}
