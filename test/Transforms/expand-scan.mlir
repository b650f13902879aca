// Scans: Kogge-Stone over shfl.up (shfl.down when reversed) where a lane
// whose partner lies outside its segment keeps the shuffle's result (its own
// value). For a kind whose step has a predicated PTX form (one word; add,
// mul, the bitwise and integer min/max kinds; float add) the step is a
// warp.scan_step, which tests the partner with the shuffle's valid bit and
// which the NVVM conversion lowers to `shfl.sync ... r|p; @p op`
// (test/Conversion/WarpToNVVM/scan-step.mlir). Otherwise, at the last step
// of the integer kinds below
// (scan-steps=fold-last, the default), and at every step with
// `scan-steps=lane-test` (the levers: docs/results/scan-steps-h200.txt), it
// is computed from the lane's position in its segment (>= distance), known
// before the shuffle returns.
// RUN: warp-opt %s --warp-expand-collectives | FileCheck %s
// RUN: warp-opt %s --warp-expand-collectives=scan-steps=lane-test | FileCheck %s --check-prefix=LTEST
// RUN: warp-opt %s --warp-expand-collectives=scan-steps=predicated | FileCheck %s --check-prefix=PRED

// By default (scan-steps=fold-last) the last step of an integer add, mul,
// and, or or xor tests the lane's position too: LLVM then folds its select
// before the add, and ptxas merges that add with one after the scan.
// CHECK-LABEL: func @inclusive
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
// CHECK: %[[POS:.*]] = arith.andi %{{.*}}, %[[C31]] : i32
// The earlier lane's value is the left operand (partner_first).
// CHECK: %[[R1:.*]] = warp.scan_step <add> <up> %[[X]], 1 partner_first : i32
// CHECK: %[[R2:.*]] = warp.scan_step <add> <up> %[[R1]], 2 partner_first : i32
// CHECK: %[[R3:.*]] = warp.scan_step <add> <up> %[[R2]], 4 partner_first : i32
// CHECK: %[[R4:.*]] = warp.scan_step <add> <up> %[[R3]], 8 partner_first : i32
// CHECK: %[[S5:.*]], %{{.*}} = warp.shuffle <up> %[[R4]], %[[C16]] : i32
// CHECK: %[[V5:.*]] = arith.cmpi sge, %[[POS]], %[[C16]] : i32
// CHECK: %[[A5:.*]] = arith.addi %[[S5]], %[[R4]] : i32
// An invalid shuffle returned the lane's own value: keep the shuffle result.
// CHECK: arith.select %[[V5]], %[[A5]], %[[S5]] : i32
// CHECK-NOT: warp.shuffle
// CHECK: return
// PRED-LABEL: func @inclusive
// PRED-COUNT-5: warp.scan_step <add> <up>
// PRED-NOT: arith.cmpi
// PRED: return
// LTEST-LABEL: func @inclusive
// LTEST: %[[POS:.*]] = arith.andi
// LTEST: %[[S1:.*]], %{{.*}} = warp.shuffle <up>
// LTEST: %[[V1:.*]] = arith.cmpi sge, %[[POS]], %{{.*}} : i32
// LTEST: arith.select %[[V1]], %{{.*}}, %[[S1]] : i32
// Bounded steps test the lane's distance from the segment's start.
// LTEST-LABEL: func @segmented
// LTEST: %[[START:.*]] = arith.subi
// LTEST: %[[REACH:.*]] = arith.subi %{{.*}}, %[[START]]
// LTEST: %[[S:.*]], %{{.*}} = warp.shuffle <up> %{{.*}} bound %[[START]]
// LTEST: %[[IN:.*]] = arith.cmpi sge, %[[REACH]]
// LTEST: arith.select %[[IN]], %{{.*}}, %[[S]]
func.func @inclusive(%x: i32) -> i32 {
  %r = warp.scan <add> %x : i32
  return %r : i32
}

// A kind without a predicated step (f32 mul): the partner test comes from
// the lane id.
// CHECK-LABEL: func @inclusive_lane_test
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
// CHECK: %[[LANE:.*]] = warp.lane_id : i32
// CHECK: %[[POS:.*]] = arith.andi %[[LANE]], %[[C31]] : i32
// CHECK: %[[S1:.*]], %{{.*}} = warp.shuffle <up> %[[X]], %[[C1]] : f32
// CHECK: %[[V1:.*]] = arith.cmpi sge, %[[POS]], %[[C1]] : i32
// CHECK: %[[A1:.*]] = arith.mulf %[[S1]], %[[X]] : f32
// CHECK: %[[R1:.*]] = arith.select %[[V1]], %[[A1]], %[[S1]] : f32
// CHECK: %[[S2:.*]], %{{.*}} = warp.shuffle <up> %[[R1]], %[[C2]] : f32
// CHECK: %[[V2:.*]] = arith.cmpi sge, %[[POS]], %[[C2]] : i32
// CHECK: arith.select %[[V2]], %{{.*}}, %[[S2]] : f32
func.func @inclusive_lane_test(%x: f32) -> f32 {
  %r = warp.scan <mul> %x : f32
  return %r : f32
}

// Exclusive: one more shfl.up by 1; the first position gets the identity.
// CHECK-LABEL: func @exclusive
// CHECK-DAG: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i32
// CHECK: %[[POS:.*]] = arith.andi %{{.*}}, %[[C7]] : i32
// CHECK-COUNT-3: warp.shuffle <up> %{{.*}}, %{{.*}} width 8 : f32
// CHECK: %[[P:.*]], %{{.*}} = warp.shuffle <up> %{{.*}}, %{{.*}} width 8 : f32
// CHECK: %[[V:.*]] = arith.cmpi sge, %[[POS]], %[[C1]] : i32
// CHECK: arith.select %[[V]], %[[P]], %[[NEG_INF]] : f32
func.func @exclusive(%x: f32) -> f32 {
  %r = warp.scan <maxnumf> %x exclusive width 8 : f32
  return %r : f32
}

// Reverse: shfl.down, and the lane itself is the earlier operand.
// CHECK-LABEL: func @reverse
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK: %[[R1:.*]] = warp.scan_step <mul> <down> %[[X]], 1 width 4 : i32
// CHECK: %[[S:.*]], %{{.*}} = warp.shuffle <down> %[[R1]], %{{.*}} width 4 : i32
// CHECK: %[[V:.*]] = arith.cmpi sge
// CHECK: %[[A:.*]] = arith.muli %[[R1]], %[[S]] : i32
// CHECK: arith.select %[[V]], %[[A]], %[[S]]
// CHECK-NOT: warp.shuffle
func.func @reverse(%x: i32) -> i32 {
  %r = warp.scan <mul> %x reverse width 4 : i32
  return %r : i32
}

// Reversed with a lane test (i64: two words, no predicated step): the
// position counts from the segment's last lane, 3 - (lane & 3).
// CHECK-LABEL: func @reverse_lane_test
// CHECK-SAME: (%[[X:.*]]: i64)
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[LANE:.*]] = warp.lane_id : i32
// CHECK: %[[AND:.*]] = arith.andi %[[LANE]], %[[C3]] : i32
// CHECK: %[[POS:.*]] = arith.subi %[[C3]], %[[AND]] : i32
// CHECK: %[[S:.*]], %{{.*}} = warp.shuffle <down> %[[X]], %{{.*}} width 4 : i64
// CHECK: %[[V:.*]] = arith.cmpi sge, %[[POS]], %{{.*}} : i32
// CHECK: %[[A:.*]] = arith.addi %[[X]], %[[S]] : i64
// CHECK: arith.select %[[V]], %[[A]], %[[S]]
func.func @reverse_lane_test(%x: i64) -> i64 {
  %r = warp.scan <add> %x reverse width 4 : i64
  return %r : i64
}

// init is a prefix: lane 0 gets init, others init (op) previous inclusive.
// An integer sum is invertible: the exclusive sum is the inclusive one less
// the lane's own value (0 in the first lane), with no shift by a shuffle.
// The total is the segment's last inclusive value, read with idx.
// CHECK-LABEL: func @init_and_total
// CHECK-SAME: (%[[X:.*]]: i32, %[[I:.*]]: i32, %[[M:.*]]: i32)
// CHECK-DAG: %[[LAST:.*]] = arith.constant 15 : i32
// CHECK-COUNT-3: warp.scan_step <add> <up> %{{.*}}, {{1|2|4}} width 16 mask %[[M]] partner_first : i32
// CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} width 16 mask %[[M]] : i32
// CHECK: %[[INC:.*]] = arith.select
// CHECK-NOT: warp.shuffle <up>
// CHECK: %[[EX:.*]] = arith.subi %[[INC]], %[[X]] : i32
// CHECK: %[[E:.*]] = arith.addi %[[I]], %[[EX]] : i32
// CHECK: %[[T:.*]], %{{.*}} = warp.shuffle <idx> %[[INC]], %[[LAST]] width 16 mask %[[M]] : i32
// CHECK: return %[[E]], %[[T]]
func.func @init_and_total(%x: i32, %i: i32, %m: i32) -> (i32, i32) {
  %r:2 = warp.scan <add> %x exclusive width 16 init %i mask %m : i32, i32
  return %r#0, %r#1 : i32, i32
}

// xor is its own inverse; other kinds (and float sums, which would round)
// shift the inclusive scan by one lane with a shuffle.
// CHECK-LABEL: func @exclusive_inverse
// CHECK-SAME: (%[[X:.*]]: i32, %[[F:.*]]: f32)
// CHECK-COUNT-4: warp.scan_step <xor> <up>
// CHECK: warp.shuffle <up>
// CHECK: %[[INC:.*]] = arith.select
// CHECK: %[[EX:.*]] = arith.xori %[[INC]], %[[X]] : i32
// CHECK-COUNT-5: warp.scan_step <add> <up>
// CHECK: warp.shuffle <up>
// CHECK-NOT: arith.subf
// CHECK: return %[[EX]]
func.func @exclusive_inverse(%x: i32, %f: f32) -> (i32, f32) {
  %0 = warp.scan <xor> %x exclusive : i32
  %1 = warp.scan <add> %f exclusive : f32
  return %0, %1 : i32, f32
}

// Inclusive with init: init combined in front of every lane.
// CHECK-LABEL: func @inclusive_init
// CHECK-SAME: (%[[X:.*]]: i32, %[[I:.*]]: i32)
// CHECK: %[[INC:.*]] = warp.scan_step <minsi> <up> %[[X]], 1 width 2 partner_first : i32
// CHECK: %[[R:.*]] = arith.minsi %[[I]], %[[INC]] : i32
// CHECK: return %[[R]]
func.func @inclusive_init(%x: i32, %i: i32) -> i32 {
  %r = warp.scan <minsi> %x width 2 init %i : i32
  return %r : i32
}

// Identities of every kind for an exclusive scan.
// CHECK-LABEL: func @identities
// CHECK-DAG: arith.constant 0 : i32
// CHECK-DAG: arith.constant 1 : i32
// CHECK-DAG: arith.constant 2147483647 : i32
// CHECK-DAG: arith.constant -2147483648 : i32
// CHECK-DAG: arith.constant -1 : i32
// CHECK-DAG: arith.constant 0x7F800000 : f32
// CHECK-DAG: arith.constant 1.000000e+00 : f32
// CHECK-DAG: arith.constant 0.000000e+00 : f32
func.func @identities(%x: i32, %f: f32) -> (i32, i32, i32, i32, i32, i32, f32, f32, f32) {
  %0 = warp.scan <or> %x exclusive width 2 : i32
  %1 = warp.scan <mul> %x exclusive width 2 : i32
  %2 = warp.scan <minsi> %x exclusive width 2 : i32
  %3 = warp.scan <maxsi> %x exclusive width 2 : i32
  %4 = warp.scan <minui> %x exclusive width 2 : i32
  %5 = warp.scan <and> %x exclusive width 2 : i32
  %6 = warp.scan <minimumf> %f exclusive width 2 : f32
  %7 = warp.scan <mul> %f exclusive width 2 : f32
  %8 = warp.scan <add> %f exclusive width 2 : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, f32, f32, f32
}

// One-lane segments: an exclusive scan is the identity (or init) everywhere,
// with no shuffle at all.
// CHECK-LABEL: func @exclusive_width_one
// CHECK-SAME: (%[[X:.*]]: i32, %[[I:.*]]: i32)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NOT: warp.shuffle
// CHECK: return %[[ZERO]], %[[I]], %[[X]]
func.func @exclusive_width_one(%x: i32, %i: i32) -> (i32, i32, i32) {
  %0 = warp.scan <add> %x exclusive width 1 : i32
  %1 = warp.scan <add> %x exclusive reverse width 1 init %i : i32
  %2 = warp.scan <add> %x width 1 : i32
  return %0, %1, %2 : i32, i32, i32
}

// Segmented by head flags: one ballot gives every lane its segment's first
// lane, 31 - clz of the heads at or below it, where each width segment's
// first lane counts as a head (bits 0x01010101 for width 8, so never clz(0)).
// Each step reads over the whole warp with that lane as its bound (PTX's
// clamp), so its valid bit says whether the partner is in the segment.
// CHECK-LABEL: func @segmented
// CHECK-SAME: (%[[X:.*]]: i32, %[[H:.*]]: i1)
// CHECK-DAG: %[[FIRSTS:.*]] = arith.constant 16843009 : i32
// CHECK: %[[B:.*]] = warp.ballot %[[H]] : i32
// CHECK: %[[OR:.*]] = arith.ori %[[B]], %[[FIRSTS]]
// CHECK: %[[LE:.*]] = warp.lanemask <le>
// CHECK: %[[BELOW:.*]] = arith.andi %[[OR]], %[[LE]]
// CHECK: %[[CLZ:.*]] = math.ctlz %[[BELOW]]
// CHECK: %[[START:.*]] = arith.subi %{{.*}}, %[[CLZ]]
// CHECK: %[[R1:.*]] = warp.scan_step <maxsi> <up> %[[X]], 1 bound %[[START]] partner_first : i32
// CHECK: %[[R2:.*]] = warp.scan_step <maxsi> <up> %[[R1]], 2 bound %[[START]] partner_first : i32
// CHECK: warp.scan_step <maxsi> <up> %[[R2]], 4 bound %[[START]] partner_first : i32
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @segmented(%x: i32, %h: i1) -> i32 {
  %r = warp.scan <maxsi> %x width 8 heads %h : i32
  return %r : i32
}

// A ragged warp: lanes at or past n are not live. Forward, the width
// segment's base bounds each shuffle; the total is read from the last live
// lane of the segment, min(base + width - 1, n - 1).
// CHECK-LABEL: func @valid_lanes
// CHECK-SAME: (%[[X:.*]]: f32, %[[N:.*]]: i32)
// CHECK: %[[L:.*]] = warp.lane_id
// CHECK: %[[BASE:.*]] = arith.andi %[[L]]
// CHECK: %[[LAST:.*]] = arith.addi %[[BASE]], %{{.*}} : i32
// CHECK: %[[NM1:.*]] = arith.subi %[[N]], %{{.*}} : i32
// CHECK: %[[END:.*]] = arith.minsi %[[NM1]], %[[LAST]]
// CHECK-COUNT-5: warp.scan_step <add> <up> %{{.*}}, {{1|2|4|8|16}} bound %[[BASE]] partner_first : f32
// CHECK: warp.shuffle <idx> %{{.*}}, %[[END]] : f32
func.func @valid_lanes(%x: f32, %n: i32) -> (f32, f32) {
  %r, %t = warp.scan <add> %x valid_lanes %n : f32, f32
  return %r, %t : f32, f32
}

// Reversed, the partner `d` lanes later must be at most the last live lane:
// that lane bounds each shfl.down.
// CHECK-LABEL: func @valid_lanes_reverse
// CHECK-SAME: (%[[X:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[END:.*]] = arith.minsi
// CHECK: %[[R1:.*]] = warp.scan_step <add> <down> %[[X]], 1 bound %[[END]] : i32
// CHECK: %[[R2:.*]] = warp.scan_step <add> <down> %[[R1]], 2 bound %[[END]] : i32
// CHECK: warp.shuffle <down> %[[R2]], %{{.*}} bound %[[END]] : i32
func.func @valid_lanes_reverse(%x: i32, %n: i32) -> i32 {
  %r = warp.scan <add> %x exclusive reverse width 8 valid_lanes %n : i32
  return %r : i32
}
