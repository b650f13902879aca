// warp.elect to nvvm.elect.sync (what the expansion leaves for sm_90+), with
// the member mask (all lanes by default), pinned by warp.convergent.
// RUN: warp-opt %s --convert-warp-to-nvvm | FileCheck %s

// CHECK-LABEL: func @elect
// CHECK-SAME: (%[[M:.*]]: i32)
func.func @elect(%m: i32) -> (i1, i1) {
  // CHECK: %[[ALL:.*]] = arith.constant -1 : i32
  // CHECK: nvvm.elect.sync %[[ALL]] {warp.convergent = distinct[{{[0-9]+}}]<>} -> i1
  %0 = warp.elect : i1
  // CHECK: nvvm.elect.sync %[[M]] {warp.convergent = distinct[{{[0-9]+}}]<>} -> i1
  %1 = warp.elect mask %m : i1
  return %0, %1 : i1, i1
}
