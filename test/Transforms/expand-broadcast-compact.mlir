// broadcast, broadcast_first and compact expansions.
// RUN: warp-opt %s --warp-expand-collectives | FileCheck %s

// CHECK-LABEL: func @broadcast
// CHECK-SAME: (%[[X:.*]]: f64, %[[L:.*]]: i32, %[[M:.*]]: i32)
// CHECK: warp.shuffle <idx> %[[X]], %[[L]] : f64
// CHECK: warp.shuffle <idx> %[[X]], %[[L]] mask %[[M]] : f64
func.func @broadcast(%x: f64, %lane: i32, %m: i32) -> (f64, f64) {
  %0 = warp.broadcast %x, %lane : f64
  %1 = warp.broadcast %x, %lane mask %m : f64
  return %0, %1 : f64, f64
}

// With a mask, the leader is the mask's lowest lane and the shuffle's member
// mask is the mask itself: no activemask, whose value depends on which lanes
// run together. Without one, the members are the lanes that run together.
// CHECK-LABEL: func @broadcast_first
// CHECK-SAME: (%[[X:.*]]: i32, %[[M:.*]]: i32)
// CHECK-NOT: warp.activemask
// CHECK: %[[LEAD:.*]] = math.cttz %[[M]] : i32
// CHECK: warp.shuffle <idx> %[[X]], %[[LEAD]] mask %[[M]] : i32
// CHECK: %[[A:.*]] = warp.activemask : i32
// CHECK: %[[LEAD2:.*]] = math.cttz %[[A]] : i32
// CHECK: warp.shuffle <idx> %[[X]], %[[LEAD2]] mask %[[A]] : i32
func.func @broadcast_first(%x: i32, %m: i32) -> (i32, i32) {
  %0 = warp.broadcast_first %x mask %m : i32
  %1 = warp.broadcast_first %x : i32
  return %0, %1 : i32, i32
}

// CHECK-LABEL: func @compact
// CHECK-SAME: (%[[P:.*]]: i1)
// CHECK: %[[B:.*]] = warp.ballot %[[P]] : i32
// CHECK: %[[LT:.*]] = warp.lanemask <lt> : i32
// CHECK: %[[BELOW:.*]] = arith.andi %[[B]], %[[LT]] : i32
// CHECK: %[[OFF:.*]] = math.ctpop %[[BELOW]] : i32
// CHECK: %[[CNT:.*]] = math.ctpop %[[B]] : i32
// CHECK: return %[[OFF]], %[[CNT]]
func.func @compact(%p: i1) -> (i32, i32) {
  %r:2 = warp.compact %p : i32
  return %r#0, %r#1 : i32, i32
}
