// Segmented reductions and scans under a member mask: the edges of the mask
// bound segments (issue 26). A lane outside the mask acts as both a head and
// a tail, so `~mask` joins the flags' ballot on both sides of its one-lane
// shift; a constant mask folds into the width segments' bits. Without a
// mask nothing changes.
// RUN: warp-opt %s --warp-expand-collectives | FileCheck %s
// The lowering that ignores the mask's edges stays reachable only as a
// planted bug (for the generative tester's planted-bug tests).
// RUN: env WARP_PLANT_BUG=segments-ignore-mask-edges warp-opt %s --warp-expand-collectives | FileCheck %s --check-prefix=BUG

// Tails, run-time mask: heads = (ballot | ~mask) << 1 (lane 0 is a width
// segment's first lane), tails = ballot | (~mask >> 1) (lane 31 its last);
// start and end come from those, and the broadcast reads `start`, a lane of
// the mask.
// CHECK-LABEL: func @tails_run_time
// CHECK-SAME: (%[[X:.*]]: i32, %[[F:.*]]: i1, %[[M:.*]]: i32)
// CHECK-DAG: %[[ONES:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[BIT31:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[OUT:.*]] = arith.xori %[[M]], %[[ONES]] : i32
// CHECK: %[[BAL:.*]] = warp.ballot %[[F]] mask %[[M]] : i32
// CHECK: %[[T1:.*]] = arith.ori %[[BAL]], %[[OUT]] : i32
// CHECK: %[[HEADS:.*]] = arith.shli %[[T1]], %[[ONE]] : i32
// CHECK: %[[OUTR:.*]] = arith.shrui %[[OUT]], %[[ONE]] : i32
// CHECK: %[[TAILS:.*]] = arith.ori %[[BAL]], %[[OUTR]] : i32
// CHECK: %[[H1:.*]] = arith.ori %[[HEADS]], %[[ONE]] : i32
// CHECK: %[[LE:.*]] = warp.lanemask <le>
// CHECK: %[[BELOW:.*]] = arith.andi %[[H1]], %[[LE]]
// CHECK: %[[CLZ:.*]] = math.ctlz %[[BELOW]]
// CHECK: %[[START:.*]] = arith.subi %{{.*}}, %[[CLZ]]
// CHECK: %[[T2:.*]] = arith.ori %[[TAILS]], %[[BIT31]] : i32
// CHECK: %[[GE:.*]] = warp.lanemask <ge>
// CHECK: %[[ABOVE:.*]] = arith.andi %[[T2]], %[[GE]]
// CHECK: %[[NZ:.*]] = arith.ori %[[ABOVE]], %[[BIT31]]
// CHECK: %[[END:.*]] = math.cttz %[[NZ]]
// CHECK-COUNT-5: warp.scan_step <maxsi> <down> %{{.*}}, {{1|2|4|8|16}} bound %[[END]] mask %[[M]] : i32
// CHECK: %[[R:.*]], %{{.*}} = warp.shuffle <idx> %{{.*}}, %[[START]] mask %[[M]] : i32
// CHECK: return %[[R]]
// BUG-LABEL: func @tails_run_time
// BUG-NOT: arith.xori
// BUG: %[[BAL:.*]] = warp.ballot
// BUG: arith.shli %[[BAL]]
// BUG: arith.ori %[[BAL]], %{{.*}} : i32
// BUG: return
func.func @tails_run_time(%x: i32, %f: i1, %m: i32) -> i32 {
  %0 = warp.reduce <maxsi> %x tails %f mask %m : i32
  return %0 : i32
}

// Heads, run-time mask, clusters of 8, lanes = first: only the end is
// needed, tails = (ballot | ~mask) >> 1, or-ed with the clusters' last lanes
// (0x80808080).
// CHECK-LABEL: func @heads_first_c8
// CHECK-SAME: (%[[X:.*]]: i32, %[[F:.*]]: i1, %[[M:.*]]: i32)
// CHECK-DAG: %[[ONES:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[LASTS:.*]] = arith.constant -2139062144 : i32
// CHECK: %[[OUT:.*]] = arith.xori %[[M]], %[[ONES]] : i32
// CHECK: %[[BAL:.*]] = warp.ballot %[[F]] mask %[[M]] : i32
// CHECK: %[[T1:.*]] = arith.ori %[[BAL]], %[[OUT]] : i32
// CHECK: %[[TAILS:.*]] = arith.shrui %[[T1]], %[[ONE]] : i32
// CHECK: %[[T2:.*]] = arith.ori %[[TAILS]], %[[LASTS]] : i32
// CHECK: %[[ABOVE:.*]] = arith.andi %[[T2]], %{{.*}}
// CHECK: %[[END:.*]] = math.cttz
// CHECK-COUNT-3: warp.scan_step <maxsi> <down> %{{.*}}, {{1|2|4}} bound %[[END]] mask %[[M]] : i32
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @heads_first_c8(%x: i32, %f: i1, %m: i32) -> i32 {
  %0 = warp.reduce <maxsi> %x heads %f mask %m cluster_size = 8 lanes = <first> : i32
  return %0 : i32
}

// A segmented scan (heads), exclusive with its total, width 16: heads =
// ballot | (~mask << 1), tails = (ballot | ~mask) >> 1.
// CHECK-LABEL: func @scan_heads
// CHECK-SAME: (%[[X:.*]]: i32, %[[F:.*]]: i1, %[[M:.*]]: i32)
// CHECK-DAG: %[[ONES:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[OUT:.*]] = arith.xori %[[M]], %[[ONES]] : i32
// CHECK: %[[BAL:.*]] = warp.ballot %[[F]] mask %[[M]] : i32
// CHECK: %[[OUTL:.*]] = arith.shli %[[OUT]], %[[ONE]] : i32
// CHECK: %[[HEADS:.*]] = arith.ori %[[BAL]], %[[OUTL]] : i32
// CHECK: %[[T1:.*]] = arith.ori %[[BAL]], %[[OUT]] : i32
// CHECK: %[[TAILS:.*]] = arith.shrui %[[T1]], %[[ONE]] : i32
// CHECK: arith.ori %[[HEADS]], %{{.*}} : i32
// CHECK: %[[START:.*]] = arith.subi
// CHECK: arith.ori %[[TAILS]], %{{.*}} : i32
// CHECK: %[[END:.*]] = math.cttz
// CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} bound %[[START]] mask %[[M]] : i32
// CHECK: warp.shuffle <idx> %{{.*}}, %[[END]] width 16 mask %[[M]] : i32
// CHECK: return
func.func @scan_heads(%x: i32, %f: i1, %m: i32) -> (i32, i32) {
  %0, %1 = warp.scan <add> %x exclusive width 16 mask %m heads %f : i32, i32
  return %0, %1 : i32, i32
}

// A constant mask with a hole, 0x00FF0F00 (lanes 8..11 and 16..23), folds:
// firsts = 1 | ~(mask << 1) = 0xFE01E1FF (-33431041), lasts = 1 << 31 |
// ~(mask >> 1) = 0xFF80787F (-8357761); no extra instruction.
// CHECK-LABEL: func @constant_mask
// CHECK-NOT: arith.xori
// CHECK: %[[BAL:.*]] = warp.ballot %{{.*}} mask %{{.*}} : i32
// CHECK: %[[HEADS:.*]] = arith.shli %[[BAL]]
// CHECK: arith.ori %[[HEADS]], %{{.*}}-33431041{{.*}} : i32
// CHECK: arith.ori %[[BAL]], %{{.*}}-8357761{{.*}} : i32
// CHECK: return
// BUG-LABEL: func @constant_mask
// BUG-NOT: -33431041
// BUG-NOT: -8357761
// BUG: return
func.func @constant_mask(%x: i32, %f: i1) -> i32 {
  %m = arith.constant 0x00FF0F00 : i32
  %0 = warp.reduce <add> %x tails %f mask %m : i32
  return %0 : i32
}

// No mask: the ballot alone, as before.
// CHECK-LABEL: func @no_mask
// CHECK-NOT: arith.xori
// CHECK: %[[BAL:.*]] = warp.ballot %{{.*}} : i32
// CHECK: %[[HEADS:.*]] = arith.shli %[[BAL]]
// CHECK: arith.ori %[[HEADS]], %{{.*}} : i32
// CHECK: return
func.func @no_mask(%x: i32, %f: i1) -> i32 {
  %0 = warp.reduce <add> %x tails %f : i32
  return %0 : i32
}
