// Combiner regions and tuples: the region is copied at every step with the
// lower lane's tuple as its left operands; one warp.shuffle per value per
// step. Segmented reductions are a reverse segmented scan.
// RUN: warp-opt %s --warp-expand-collectives | FileCheck %s

// Non-commutative: nearest lanes first (1, then 2), and both lanes of a
// butterfly pair combine (lower, higher): lane bit d set means the partner
// is the lower lane.
// CHECK-LABEL: func @affine
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK: %[[L:.*]] = warp.lane_id
// CHECK: %[[OA:.*]], %{{.*}} = warp.shuffle <xor> %[[A]], %[[C1:.*]] : i32
// CHECK: %[[OB:.*]], %{{.*}} = warp.shuffle <xor> %[[B]], %[[C1]] : i32
// CHECK: %[[BIT:.*]] = arith.andi %[[L]], %[[C1]]
// CHECK: %[[HI:.*]] = arith.cmpi ne, %[[BIT]], %{{.*}}
// CHECK: %[[LA:.*]] = arith.select %[[HI]], %[[OA]], %[[A]]
// CHECK: %[[LB:.*]] = arith.select %[[HI]], %[[OB]], %[[B]]
// CHECK: %[[RA:.*]] = arith.select %[[HI]], %[[A]], %[[OA]]
// CHECK: %[[RB:.*]] = arith.select %[[HI]], %[[B]], %[[OB]]
// CHECK: %[[A3:.*]] = arith.muli %[[RA]], %[[LA]]
// CHECK: %[[T:.*]] = arith.muli %[[RA]], %[[LB]]
// CHECK: %[[B3:.*]] = arith.addi %[[T]], %[[RB]]
// CHECK: warp.shuffle <xor> %[[A3]], %[[C2:.*]] : i32
// CHECK: warp.shuffle <xor> %[[B3]], %[[C2]] : i32
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @affine(%a: i32, %b: i32) -> (i32, i32) {
  %ra, %rb = warp.reduce %a, %b cluster_size = 4 : i32, i32 combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
    %a3 = arith.muli %a2, %a1 : i32
    %t = arith.muli %a2, %b1 : i32
    %b3 = arith.addi %t, %b2 : i32
    warp.yield %a3, %b3 : i32, i32
  }
  return %ra, %rb : i32, i32
}

// Commutative: the kinds' network, farthest first, (mine, other).
// CHECK-LABEL: func @argmax
// CHECK-SAME: (%[[V:.*]]: f32, %[[I:.*]]: i32)
// CHECK: %[[OV:.*]], %{{.*}} = warp.shuffle <xor> %[[V]], %[[C16:.*]] : f32
// CHECK: %[[OI:.*]], %{{.*}} = warp.shuffle <xor> %[[I]], %[[C16]] : i32
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[OV]], %[[V]] : f32
// CHECK: arith.select %[[GT]], %[[OV]], %[[V]] : f32
// CHECK: arith.select %[[GT]], %[[OI]], %[[I]] : i32
// CHECK-COUNT-8: warp.shuffle <xor>
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @argmax(%v: f32, %idx: i32) -> (f32, i32) {
  %m, %i = warp.reduce %v, %idx commutative : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    %gt = arith.cmpf ogt, %b, %a : f32
    %r = arith.select %gt, %b, %a : f32
    %ri = arith.select %gt, %bi, %ai : i32
    warp.yield %r, %ri : f32, i32
  }
  return %m, %i : f32, i32
}

// Non-commutative shfl.down tree over lanes 0..n-1: distances 1, 2, 4, 8, 16;
// the lane's own tuple on the left.
// CHECK-LABEL: func @ragged_first
// CHECK-SAME: (%[[X:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[O:.*]], %{{.*}} = warp.shuffle <down> %[[X]], %[[C1:.*]] : i32
// CHECK: %[[P:.*]] = arith.addi %{{.*}}, %[[C1]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[P]], %[[N]]
// CHECK: %[[S:.*]] = arith.subi %[[X]], %[[O]]
// CHECK: arith.select %[[IN]], %[[S]], %[[X]]
// CHECK: warp.shuffle <down> %{{.*}}, %[[C2:.*]] : i32
// CHECK: warp.shuffle <down> %{{.*}}, %[[C4:.*]] : i32
// CHECK: warp.shuffle <down> %{{.*}}, %[[C8:.*]] : i32
// CHECK: warp.shuffle <down> %{{.*}}, %[[C16:.*]] : i32
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @ragged_first(%x: i32, %n: i32) -> i32 {
  %r = warp.reduce %x valid_lanes %n lanes = <first> : i32 combine (%l: i32, %r: i32) {
    %s = arith.subi %l, %r : i32
    warp.yield %s : i32
  }
  return %r : i32
}

// Segmented by tails: the ballot shifted by one gives the heads. The
// segment's last lane is the ctz of the tails at or above the lane (lane 31
// counts as a tail; the redundant bit 31 or-ed in last tells LLVM the ctz
// never sees 0). A reverse Kogge-Stone bounded by it (PTX's clamp) leaves
// the segment's sum in its first lane, read by all.
// CHECK-LABEL: func @tails
// CHECK-SAME: (%[[X:.*]]: f32, %[[F:.*]]: i1)
// CHECK-DAG: %[[BIT31:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[BAL:.*]] = warp.ballot %[[F]] : i32
// CHECK: %[[HEADS:.*]] = arith.shli %[[BAL]], %{{.*}} : i32
// CHECK: %[[START:.*]] = arith.subi
// CHECK: %[[TAILS:.*]] = arith.ori %[[BAL]], %[[BIT31]]
// CHECK: %[[GE:.*]] = warp.lanemask <ge>
// CHECK: %[[ABOVE:.*]] = arith.andi %[[TAILS]], %[[GE]]
// CHECK: %[[NZ:.*]] = arith.ori %[[ABOVE]], %[[BIT31]]
// CHECK: %[[END:.*]] = math.cttz %[[NZ]]
// Each step is CUB's predicated one (f32 add), the lane's own value first.
// CHECK: %[[S1:.*]] = warp.scan_step <add> <down> %[[X]], 1 bound %[[END]] : f32
// CHECK: %[[S2:.*]] = warp.scan_step <add> <down> %[[S1]], 2 bound %[[END]] : f32
// CHECK: %[[S3:.*]] = warp.scan_step <add> <down> %[[S2]], 4 bound %[[END]] : f32
// CHECK: %[[S4:.*]] = warp.scan_step <add> <down> %[[S3]], 8 bound %[[END]] : f32
// CHECK: %[[S5:.*]] = warp.scan_step <add> <down> %[[S4]], 16 bound %[[END]] : f32
// CHECK: %[[R:.*]], %{{.*}} = warp.shuffle <idx> %[[S5]], %[[START]] : f32
// CHECK-NOT: warp.shuffle
// CHECK: return %[[R]]
func.func @tails(%x: f32, %f: i1) -> f32 {
  %0 = warp.reduce <add> %x tails %f : f32
  return %0 : f32
}

// Scans keep lane order in both directions: the earlier (lower) lane's
// partial on the left; reversed, the lane's own partial is the lower one,
// and init stands after the last lane.
// CHECK-LABEL: func @scan_order
// CHECK-SAME: (%[[X:.*]]: i32, %[[I:.*]]: i32)
// CHECK: %[[U:.*]], %{{.*}} = warp.shuffle <up> %[[X]], %[[C1:.*]] width 4 : i32
// CHECK: arith.subi %[[U]], %[[X]] : i32
// CHECK: %[[D:.*]], %{{.*}} = warp.shuffle <down> %[[X]], %[[C1]] width 4 : i32
// CHECK: arith.subi %[[X]], %[[D]] : i32
// CHECK: warp.shuffle <down> %{{.*}}, %[[C2:.*]] width 4 : i32
// CHECK: %[[INCL:.*]] = arith.select
// CHECK: arith.subi %[[INCL]], %[[I]] : i32
// CHECK: return
func.func @scan_order(%x: i32, %i: i32) -> (i32, i32) {
  %0 = warp.scan %x width 4 : i32 combine (%l: i32, %r: i32) {
    %s = arith.subi %l, %r : i32
    warp.yield %s : i32
  }
  %1 = warp.scan %x reverse width 4 init %i : i32 combine (%l: i32, %r: i32) {
    %s = arith.subi %l, %r : i32
    warp.yield %s : i32
  }
  return %0, %1 : i32, i32
}

// Scalars of at most 16 bits share a 32-bit shuffle: (f16, i16, f32) is two
// shuffles a step, the f16 in the low half.
// CHECK-LABEL: func @packed
// CHECK-SAME: (%[[H:.*]]: f16, %[[I:.*]]: i16, %[[F:.*]]: f32)
// CHECK: %[[HB:.*]] = arith.bitcast %[[H]] : f16 to i16
// CHECK: %[[HW:.*]] = arith.extui %[[HB]] : i16 to i32
// CHECK: %[[IW:.*]] = arith.extui %[[I]] : i16 to i32
// CHECK: %[[IS:.*]] = arith.shli %[[IW]], %[[C16:.*]] : i32
// CHECK: %[[W:.*]] = arith.ori %[[HW]], %[[IS]] : i32
// CHECK: %[[S:.*]], %{{.*}} = warp.shuffle <xor> %[[W]], %{{.*}} : i32
// CHECK: %[[HT:.*]] = arith.trunci %[[S]] : i32 to i16
// CHECK: arith.bitcast %[[HT]] : i16 to f16
// CHECK: %[[IT:.*]] = arith.shrui %[[S]], %[[C16]] : i32
// CHECK: arith.trunci %[[IT]] : i32 to i16
// CHECK: warp.shuffle <xor> %[[F]], %{{.*}} : f32
// CHECK-COUNT-8: warp.shuffle <xor>
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @packed(%h: f16, %i: i16, %f: f32) -> (f16, i16, f32) {
  %r:3 = warp.reduce %h, %i, %f commutative : f16, i16, f32 combine (%h1: f16, %i1: i16, %f1: f32, %h2: f16, %i2: i16, %f2: f32) {
    %h3 = arith.addf %h1, %h2 : f16
    %i3 = arith.addi %i1, %i2 : i16
    %f3 = arith.addf %f1, %f2 : f32
    warp.yield %h3, %i3, %f3 : f16, i16, f32
  }
  return %r#0, %r#1, %r#2 : f16, i16, f32
}
