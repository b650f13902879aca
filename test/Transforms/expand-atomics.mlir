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

// A 16-bit exch: the same exchange, the group's atomic a
// warp.lane_atomic_rmw (its lowering is the compare-and-swap loop), with
// the defaults.
// CHECK-LABEL: func @atomic_exch_i16
// CHECK-SAME: (%[[V:.*]]: i16, %[[BUF:.*]]: memref<8xi16>, %[[I:.*]]: index)
// CHECK: %[[OLD:.*]] = scf.if %{{.*}} -> (i16) {
// CHECK:   warp.lane_atomic_rmw <exch> %[[V]], %[[BUF]][%[[I]]] : i16, memref<8xi16>
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
func.func @atomic_exch_i16(%v: i16, %buf: memref<8xi16>, %i: index) -> i16 {
  %0 = warp.atomic_rmw <exch> %v, %buf[%i] : i16, memref<8xi16>
  return %0 : i16
}

// The 16-bit float min/max: a scan of the dialect's minnumf over the group
// (an idempotent kind: no rank test), the group's atomic a
// warp.lane_atomic_rmw, each lane's result the minnumf of the old value
// and the prefix of the members below.
// CHECK-LABEL: func @atomic_minnumf_bf16
// CHECK-SAME: (%[[V:.*]]: bf16, %[[BUF:.*]]: memref<8xbf16>, %[[I:.*]]: index)
// CHECK-COUNT-5: arith.minnumf %{{.*}}, %{{.*}} : bf16
// CHECK: %[[OLD:.*]] = scf.if %{{.*}} -> (bf16) {
// CHECK:   warp.lane_atomic_rmw <minnumf> %{{.*}}, %[[BUF]][%[[I]]] : bf16, memref<8xbf16>
// CHECK: %[[GROUP_OLD:[^,]*]], %{{.*}} = warp.shuffle <idx> %[[OLD]]
// CHECK: %[[PREFIX:[^,]*]], %{{.*}} = warp.shuffle <idx>
// CHECK: arith.minnumf %[[GROUP_OLD]], %[[PREFIX]] : bf16
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
func.func @atomic_minnumf_bf16(%v: bf16, %buf: memref<8xbf16>, %i: index) -> bf16 {
  %0 = warp.atomic_rmw <minnumf> %v, %buf[%i] : bf16, memref<8xbf16>
  return %0 : bf16
}

// f16 (and bf16) add: the scan and the shuffles in the element type, the
// group's one atomic memref.atomic_rmw as for f32 (the defaults: gpu scope,
// relaxed, CUDA's atomicAdd).
// CHECK-LABEL: func @atomic_f16
// CHECK-SAME: (%[[V:.*]]: f16, %[[BUF:.*]]: memref<?xf16>, %[[I:.*]]: index)
// CHECK-COUNT-5: arith.addf %{{.*}}, %{{.*}} : f16
// CHECK-NOT: warp.syncwarp
// CHECK: scf.if %{{.*}} -> (f16) {
// CHECK:   memref.atomic_rmw addf %{{.*}}, %[[BUF]][%[[I]]] : (f16, memref<?xf16>) -> f16
// CHECK-NOT: warp.syncwarp
// CHECK: warp.shuffle <idx> %{{.*}} : f16
// CHECK: return
func.func @atomic_f16(%v: f16, %buf: memref<?xf16>, %i: index) -> f16 {
  %0 = warp.atomic_rmw <add> %v, %buf[%i] : f16, memref<?xf16>
  return %0 : f16
}

// A packed pair: each half its own sum (vector adds), the group's atomic
// warp.lane_atomic_rmw (memref.atomic_rmw takes no vectors); acq_rel: a
// syncwarp of the members before the atomic (release) and after it
// (acquire), before the old value reaches the group.
// CHECK-LABEL: func @atomic_pair_acq_rel
// CHECK-SAME: (%[[V:.*]]: vector<2xf16>, %[[BUF:.*]]: memref<?xvector<2xf16>, 3>, %[[I:.*]]: index, %[[M:.*]]: i32)
// CHECK-COUNT-5: arith.addf %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK: warp.syncwarp mask %[[M]]
// CHECK-NEXT: %[[OLD:.*]] = scf.if %{{.*}} -> (vector<2xf16>) {
// CHECK:   warp.lane_atomic_rmw <add> %{{.*}}, %[[BUF]][%[[I]]] scope <cta> ordering <acq_rel> : vector<2xf16>, memref<?xvector<2xf16>, 3>
// CHECK: } else {
// CHECK: }
// CHECK-NEXT: warp.syncwarp mask %[[M]]
// CHECK-NEXT: warp.shuffle <idx> %[[OLD]], %{{.*}} mask %[[M]] : vector<2xf16>
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
func.func @atomic_pair_acq_rel(%v: vector<2xf16>, %buf: memref<?xvector<2xf16>, 3>, %i: index, %m: i32) -> vector<2xf16> {
  %0 = warp.atomic_rmw <add> %v, %buf[%i] mask %m scope <cta> ordering <acq_rel> : vector<2xf16>, memref<?xvector<2xf16>, 3>
  return %0 : vector<2xf16>
}

// A scope or order on a 32-bit kind: warp.lane_atomic_rmw too; acquire
// syncs after the atomic only, release before it only.
// CHECK-LABEL: func @atomic_scope_order
// CHECK: warp.match_any
// CHECK-NOT: warp.syncwarp
// CHECK: scf.if
// CHECK:   warp.lane_atomic_rmw <maxsi> %{{.*}} scope <sys> ordering <acquire> : i32, memref<8xi32>
// CHECK: warp.syncwarp
// CHECK: warp.match_any
// CHECK: warp.syncwarp
// CHECK-NEXT: scf.if
// CHECK:   warp.lane_atomic_rmw <add> %{{.*}} ordering <release> : i64, memref<8xi64>
// CHECK-NOT: warp.syncwarp
// CHECK: return
func.func @atomic_scope_order(%v: i32, %buf: memref<8xi32>, %w: i64, %lbuf: memref<8xi64>, %i: index) -> (i32, i64) {
  %0 = warp.atomic_rmw <maxsi> %v, %buf[%i] scope <sys> ordering <acquire> : i32, memref<8xi32>
  %1 = warp.atomic_rmw <add> %w, %lbuf[%i] ordering <release> : i64, memref<8xi64>
  return %0, %1 : i32, i64
}
}
