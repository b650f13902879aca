// warp.elect: left for elect.sync on sm_90+, a ballot below; warp.atomic_rmw:
// match_any on the address, a Kogge-Stone scan over each group, one atomic
// by the group's highest lane, the old value shuffled to the group.
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_90 --warp-expand-collectives | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_80 --warp-expand-collectives | FileCheck %s --check-prefixes=CHECK,SM80

// CHECK-LABEL: func @elect
// CHECK-SAME: (%[[M:.*]]: i32)
// SM90: warp.elect mask %[[M]] : i1
// SM80-DAG: %[[TRUE:.*]] = arith.constant true
// SM80-DAG: %[[C0:.*]] = arith.constant 0 : i32
// SM80: %[[B:.*]] = warp.ballot %[[TRUE]] mask %[[M]] : i32
// SM80: %[[NEG:.*]] = arith.subi %[[C0]], %[[B]] : i32
// SM80: %[[LOW:.*]] = arith.andi %[[B]], %[[NEG]] : i32
// SM80: %[[EQ:.*]] = warp.lanemask <eq> : i32
// SM80: arith.cmpi eq, %[[LOW]], %[[EQ]] : i32
gpu.module @m {
func.func @elect(%m: i32) -> i1 {
  %0 = warp.elect mask %m : i1
  return %0 : i1
}

// With the leader's lane: the ballot's lowest set bit's index (the ballot
// holds the lane, so it is not 0: cttz with 0 as poison, no zero test),
// and the flag is `lane == leader`.
// CHECK-LABEL: func @elect_leader
// CHECK-SAME: (%[[M:.*]]: i32)
// SM90: %{{.*}}, %{{.*}} = warp.elect mask %[[M]] : i1, i32
// SM80: %[[B:.*]] = warp.ballot %{{.*}} mask %[[M]] : i32
// SM80: %[[LEADER:.*]] = "llvm.intr.cttz"(%[[B]]) <{is_zero_poison = true}> : (i32) -> i32
// SM80: %[[LANE:.*]] = warp.lane_id : i32
// SM80: %[[IS:.*]] = arith.cmpi eq, %[[LANE]], %[[LEADER]] : i32
// SM80: return %[[IS]], %[[LEADER]] : i1, i32
func.func @elect_leader(%m: i32) -> (i1, i32) {
  %0, %1 = warp.elect mask %m : i1, i32
  return %0, %1 : i1, i32
}

// CHECK-LABEL: func @atomic_f32
// CHECK-SAME: (%[[V:.*]]: f32, %[[BUF:.*]]: memref<?x?xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[ACTIVE:.*]] = warp.activemask : i32
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[BUF]]
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[PEERS:.*]] = warp.match_any %{{.*}} mask %[[ACTIVE]] : i64
// CHECK-COUNT-5: llvm.inline_asm "fns.b32 $0, $1, $2, $3;"
// CHECK: %[[HIGH:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[OLD:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK:   memref.atomic_rmw addf %{{.*}}, %[[BUF]][%[[I]], %[[J]]] : (f32, memref<?x?xf32>) -> f32
// CHECK: warp.shuffle <idx> %[[OLD]], %[[HIGH]] mask %[[ACTIVE]] : f32
// CHECK-NOT: warp.atomic_rmw
func.func @atomic_f32(%v: f32, %buf: memref<?x?xf32>, %i: index, %j: index) -> f32 {
  %0 = warp.atomic_rmw <add> %v, %buf[%i, %j] : f32, memref<?x?xf32>
  return %0 : f32
}

// Seven shuffles for f32: five scan steps, the exclusive prefix, the old
// value. For integers the prefix is inclusive - value: six.
// CHECK-LABEL: func @atomic_counts
// CHECK-COUNT-13: warp.shuffle <idx>
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @atomic_counts(%v: f32, %w: i64, %buf: memref<8xf32>, %ibuf: memref<8xi64>, %i: index, %m: i32) -> (f32, i64) {
  %0 = warp.atomic_rmw <add> %v, %buf[%i] : f32, memref<8xf32>
  %1 = warp.atomic_rmw <add> %w, %ibuf[%i] mask %m : i64, memref<8xi64>
  return %0, %1 : f32, i64
}

// A constant integer increment (a histogram): no scan, count = popc.
// CHECK-LABEL: func @histogram
// CHECK-NOT: llvm.inline_asm
// CHECK: %[[R:.*]] = math.ctpop
// CHECK-NOT: llvm.inline_asm
// CHECK: memref.atomic_rmw addi
// CHECK-COUNT-1: warp.shuffle <idx>
// CHECK-NOT: warp.shuffle
func.func @histogram(%hist: memref<64xi32>, %bin: index) -> i32 {
  %one = arith.constant 1 : i32
  %0 = warp.atomic_rmw <add> %one, %hist[%bin] : i32, memref<64xi32>
  return %0 : i32
}

// The other kinds scan with their own combine, the highest lane applies
// the group's value with the kind's atomic, and every lane but the lowest
// combines the old value with the prefix of the lane below it (shuffled
// from it). An idempotent kind's scan steps need no test: where no member
// is that far below, the partner is the lane itself (x max x == x).
// CHECK-LABEL: func @atomic_maxui
// CHECK-SAME: (%[[V:.*]]: i32, %[[BUF:.*]]: memref<8xi32>, %[[I:.*]]: index)
// CHECK-NOT: arith.select
// CHECK-COUNT-5: arith.maxui %{{.*}}, %{{.*}} : i32
// CHECK-NOT: arith.select
// CHECK: %[[HIGH:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[OLD:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:   memref.atomic_rmw maxu %[[INCL:.*]], %[[BUF]][%[[I]]] : (i32, memref<8xi32>) -> i32
// CHECK: %[[GROUP_OLD:[^,]*]], %{{.*}} = warp.shuffle <idx> %[[OLD]], %[[HIGH]] mask %{{.*}} : i32
// CHECK: %[[PREFIX:[^,]*]], %{{.*}} = warp.shuffle <idx> %[[INCL]], %{{.*}} mask %{{.*}} : i32
// CHECK: %[[AFTER:.*]] = arith.maxui %[[GROUP_OLD]], %[[PREFIX]] : i32
// CHECK: arith.select %{{.*}}, %[[GROUP_OLD]], %[[AFTER]] : i32
func.func @atomic_maxui(%v: i32, %buf: memref<8xi32>, %i: index) -> i32 {
  %0 = warp.atomic_rmw <maxui> %v, %buf[%i] : i32, memref<8xi32>
  return %0 : i32
}

// An idempotent kind of a constant needs no scan and no member below: the
// group's value is the constant, and so is every lane's prefix.
// CHECK-LABEL: func @atomic_or_constant
// CHECK-SAME: (%[[FLAGS:.*]]: memref<8xi64>, %[[I:.*]]: index)
// CHECK-DAG: %[[BIT:.*]] = arith.constant 4 : i64
// CHECK-NOT: fns.b32
// CHECK: memref.atomic_rmw ori %[[BIT]], %[[FLAGS]][%[[I]]]
// CHECK: %[[GROUP_OLD:[^,]*]], %{{.*}} = warp.shuffle <idx>
// CHECK-NOT: warp.shuffle
// CHECK: %[[AFTER:.*]] = arith.ori %[[GROUP_OLD]], %[[BIT]] : i64
// CHECK: arith.select %{{.*}}, %[[GROUP_OLD]], %[[AFTER]] : i64
// CHECK-NOT: fns.b32
// CHECK: return
func.func @atomic_or_constant(%flags: memref<8xi64>, %i: index) -> i64 {
  %bit = arith.constant 4 : i64
  %0 = warp.atomic_rmw <or> %bit, %flags[%i] : i64, memref<8xi64>
  return %0 : i64
}

// exch has no scan: one fns finds the member below, the highest lane
// exchanges its own value, the others take the value of the member below.
// CHECK-LABEL: func @atomic_exch
// CHECK-SAME: (%[[V:.*]]: f32, %[[BUF:.*]]: memref<8xf32>, %[[I:.*]]: index, %[[M:.*]]: i32)
// CHECK: %[[PEERS:.*]] = warp.match_any %{{.*}} mask %[[M]] : i64
// CHECK-NOT: warp.shuffle
// CHECK: %[[OLD:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK:   memref.atomic_rmw assign %[[V]], %[[BUF]][%[[I]]] : (f32, memref<8xf32>) -> f32
// CHECK: %[[GROUP_OLD:[^,]*]], %{{.*}} = warp.shuffle <idx> %[[OLD]], %{{.*}} mask %[[M]] : f32
// CHECK: llvm.inline_asm "fns.b32 $0, $1, $2, $3;"
// CHECK: %[[BELOW:[^,]*]], %{{.*}} = warp.shuffle <idx> %[[V]], %{{.*}} mask %[[M]] : f32
// CHECK: arith.select %{{.*}}, %[[GROUP_OLD]], %[[BELOW]] : f32
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @atomic_exch(%v: f32, %buf: memref<8xf32>, %i: index, %m: i32) -> f32 {
  %0 = warp.atomic_rmw <exch> %v, %buf[%i] mask %m : f32, memref<8xf32>
  return %0 : f32
}
}
