// Reduction strategies: chosen from the chip and type, or forced.
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_90 --warp-expand-collectives | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_80 --warp-expand-collectives | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_75 --warp-expand-collectives | FileCheck %s --check-prefixes=CHECK,SM75
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_70 --warp-expand-collectives | FileCheck %s --check-prefixes=CHECK,SM75
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_100a --warp-expand-collectives | FileCheck %s --check-prefixes=CHECK,SM100A
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_90 --warp-expand-collectives=strategy=tree | FileCheck %s --check-prefix=TREE

// f32 sum: butterfly, farthest pairs first, on every chip.
// CHECK-LABEL: func @f32_add
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[S16:.*]], %{{.*}} = warp.shuffle <xor> %[[X]], %[[C16]] : f32
// CHECK: %[[A16:.*]] = arith.addf %[[X]], %[[S16]] : f32
// CHECK: %[[S8:.*]], %{{.*}} = warp.shuffle <xor> %[[A16]], %[[C8]] : f32
// CHECK: %[[A8:.*]] = arith.addf %[[A16]], %[[S8]] : f32
// CHECK: warp.shuffle <xor> %{{.*}}, %[[C4]]
// CHECK: warp.shuffle <xor> %{{.*}}, %[[C2]]
// CHECK: warp.shuffle <xor> %{{.*}}, %[[C1]]
// CHECK: %[[R:.*]] = arith.addf
// CHECK-NEXT: return %[[R]]
// TREE-LABEL: func @f32_add
// TREE-COUNT-5: warp.shuffle <down>
// TREE: warp.shuffle <idx>
gpu.module @m {
func.func @f32_add(%x: f32) -> f32 {
  %r = warp.reduce <add> %x : f32
  return %r : f32
}

// i32 sum: one redux.sync from sm_80 on, butterfly before.
// CHECK-LABEL: func @i32_add
// SM90: %[[ALL:.*]] = arith.constant -1 : i32
// SM90: nvvm.redux.sync add %{{.*}}, %[[ALL]] {warp.convergent = {{.*}}} : i32 -> i32
// SM90-NOT: warp.shuffle
// SM80: nvvm.redux.sync add
// SM80-NOT: warp.shuffle
// SM100A: nvvm.redux.sync add
// SM75-NOT: nvvm.redux.sync
// SM75-COUNT-5: warp.shuffle <xor>
// TREE-LABEL: func @i32_add
// TREE-NOT: nvvm.redux.sync
// TREE-COUNT-5: warp.shuffle <down>
func.func @i32_add(%x: i32) -> i32 {
  %r = warp.reduce <add> %x : i32
  return %r : i32
}

// Every integer redux kind, and narrow integers widened by sign for the
// signed kinds.
// CHECK-LABEL: func @int_kinds
// SM90: nvvm.redux.sync min
// SM90: nvvm.redux.sync max
// SM90: nvvm.redux.sync umin
// SM90: nvvm.redux.sync umax
// SM90: nvvm.redux.sync and
// SM90: nvvm.redux.sync or
// SM90: nvvm.redux.sync xor
// SM90: arith.extsi %{{.*}} : i8 to i32
// SM90-NEXT: nvvm.redux.sync min
// SM90-NEXT: arith.trunci %{{.*}} : i32 to i8
// SM90: arith.extui %{{.*}} : i16 to i32
// SM90-NEXT: nvvm.redux.sync umax
// SM90-NEXT: arith.trunci %{{.*}} : i32 to i16
// mul has no redux form.
// SM90-COUNT-5: arith.muli
func.func @int_kinds(%x: i32, %b: i8, %s: i16) -> (i32, i32, i32, i32, i32, i32, i32, i8, i16, i32) {
  %0 = warp.reduce <minsi> %x : i32
  %1 = warp.reduce <maxsi> %x : i32
  %2 = warp.reduce <minui> %x : i32
  %3 = warp.reduce <maxui> %x : i32
  %4 = warp.reduce <and> %x : i32
  %5 = warp.reduce <or> %x : i32
  %6 = warp.reduce <xor> %x : i32
  %7 = warp.reduce <minsi> %b : i8
  %8 = warp.reduce <maxui> %s : i16
  %9 = warp.reduce <mul> %x : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i32, i32, i32, i32, i32, i8, i16, i32
}

// f32 min/max: redux only on sm_100a-class chips (NaN-propagating kinds use
// the .NaN form); shuffles on sm_90.
// CHECK-LABEL: func @f32_max
// SM90-NOT: nvvm.redux.sync
// SM90-COUNT-5: arith.maxnumf
// SM90-COUNT-5: arith.minimumf
// SM100A: nvvm.redux.sync fmax %{{.*}}, %{{.*}} {warp.convergent = {{.*}}} : f32 -> f32
// SM100A: nvvm.redux.sync fmin %{{.*}}, %{{.*}} {nan = true, warp.convergent = {{.*}}} : f32 -> f32
func.func @f32_max(%x: f32) -> (f32, f32) {
  %0 = warp.reduce <maxnumf> %x : f32
  %1 = warp.reduce <minimumf> %x : f32
  return %0, %1 : f32, f32
}

// lanes = first: a shfl.down tree, no broadcast.
// CHECK-LABEL: func @first_lane_only
// CHECK-COUNT-5: warp.shuffle <down>
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @first_lane_only(%x: f64) -> f64 {
  %r = warp.reduce <add> %x lanes = <first> : f64
  return %r : f64
}

// Forced tree with lanes = all: tree, then broadcast of lane 0.
// CHECK-LABEL: func @tree_all_lanes
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-COUNT-5: warp.shuffle <down>
// CHECK: warp.shuffle <idx> %{{.*}}, %[[Z]] : f32
func.func @tree_all_lanes(%x: f32) -> f32 {
  %r = warp.reduce <add> %x strategy = <tree> : f32
  return %r : f32
}

// Clusters: size 8 with stride 2 combines lanes 8 apart, then 4, then 2.
// CHECK-LABEL: func @clustered
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: warp.shuffle <xor> %{{.*}}, %[[C8]] : f32
// CHECK: warp.shuffle <xor> %{{.*}}, %[[C4]] : f32
// CHECK: warp.shuffle <xor> %{{.*}}, %[[C2]] : f32
// CHECK-NOT: warp.shuffle
// Clustered i32 does not use redux (it reduces whole warps only).
// CHECK-NOT: nvvm.redux.sync
// CHECK-COUNT-2: warp.shuffle <xor>
// CHECK: return
func.func @clustered(%x: f32, %i: i32) -> (f32, i32) {
  %r = warp.reduce <maxnumf> %x cluster_size = 8 cluster_stride = 2 : f32
  %s = warp.reduce <add> %i cluster_size = 4 : i32
  return %r, %s : f32, i32
}

// Clustered tree: shfl.down inside segments of the cluster's span, then a
// broadcast from each cluster's first lane (lane & (stride - 1)).
// CHECK-LABEL: func @clustered_tree
// CHECK: warp.shuffle <down> %{{.*}}, %{{.*}} width 16 : f32
// CHECK: warp.shuffle <down> %{{.*}}, %{{.*}} width 16 : f32
// CHECK: %[[L:.*]] = warp.lane_id
// CHECK: %[[H:.*]] = arith.andi %[[L]], %{{.*}} : i32
// CHECK: warp.shuffle <idx> %{{.*}}, %[[H]] width 16 : f32
func.func @clustered_tree(%x: f32) -> f32 {
  %r = warp.reduce <add> %x cluster_size = 4 cluster_stride = 4 strategy = <tree> : f32
  return %r : f32
}

// Partial warps: lanes at or past n never reach the combiner.
// CHECK-LABEL: func @partial
// CHECK-SAME: (%[[X:.*]]: f32, %[[N:.*]]: i32, %[[I:.*]]: i32)
// CHECK: %[[L:.*]] = warp.lane_id
// CHECK: %[[S:.*]], %{{.*}} = warp.shuffle <down> %[[X]], %{{.*}} : f32
// CHECK: %[[P:.*]] = arith.addi %[[L]], %{{.*}} : i32
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[P]], %[[N]] : i32
// CHECK: %[[A:.*]] = arith.addf %[[X]], %[[S]] : f32
// CHECK: arith.select %[[OK]], %[[A]], %[[X]] : f32
// CHECK-COUNT-4: warp.shuffle <down>
// CHECK: warp.shuffle <idx>
// With redux, lanes past n contribute the identity (0 for add).
// SM90: %[[LI:.*]] = warp.lane_id
// SM90: %[[IN:.*]] = arith.cmpi ult, %[[LI]], %[[N]]
// SM90: %[[SEL:.*]] = arith.select %[[IN]], %[[I]], %{{.*}} : i32
// SM90: nvvm.redux.sync add %[[SEL]]
func.func @partial(%x: f32, %n: i32, %i: i32) -> (f32, i32) {
  %r = warp.reduce <add> %x valid_lanes %n : f32
  %s = warp.reduce <add> %i valid_lanes %n : i32
  return %r, %s : f32, i32
}

// Any member mask (CUDA's __reduce_*_sync(mask, v)): the members are ranked
// (popc of the members below), rank r reads rank r + d from the lane `fns`
// finds, d = 16 .. 1, only while r + d < popc(members); then every member
// reads the lowest member. redux.sync takes any mask as it is.
// CHECK-LABEL: func @masked
// CHECK-SAME: (%[[X:.*]]: f32, %[[I:.*]]: i32, %[[M:.*]]: i32)
// CHECK: %[[LT:.*]] = warp.lanemask <lt>
// CHECK: %[[BELOW:.*]] = arith.andi %[[M]], %[[LT]]
// CHECK: %[[RANK:.*]] = math.ctpop %[[BELOW]]
// CHECK: %[[COUNT:.*]] = math.ctpop %[[M]]
// CHECK: %[[R16:.*]] = arith.addi %[[RANK]], %{{.*}}
// CHECK: %[[SRC:.*]] = llvm.inline_asm "fns.b32 $0, $1, $2, $3;", "=r,r,r,r" %[[M]]
// CHECK: warp.shuffle <idx> %[[X]], %[[SRC]] mask %[[M]] : f32
// CHECK: arith.cmpi ult, %[[R16]], %[[COUNT]]
// CHECK-COUNT-4: warp.shuffle <idx> %{{.*}}, %{{.*}} mask %[[M]] : f32
// CHECK: %[[LEADER:.*]] = math.cttz %[[M]]
// CHECK: warp.shuffle <idx> %{{.*}}, %[[LEADER]] mask %[[M]] : f32
// SM90: nvvm.redux.sync add %[[I]], %[[M]] {warp.convergent = {{.*}}} : i32 -> i32
func.func @masked(%x: f32, %i: i32, %m: i32) -> (f32, i32) {
  %r = warp.reduce <add> %x mask %m : f32
  %s = warp.reduce <add> %i mask %m : i32
  return %r, %s : f32, i32
}

// A constant mask of whole clusters, or a forced strategy (the user's
// promise), keeps the butterfly; the mask travels to every shuffle.
// CHECK-LABEL: func @masked_whole_clusters
// CHECK-SAME: (%[[X:.*]]: f32, %[[M:.*]]: i32)
// CHECK-COUNT-3: warp.shuffle <xor> %{{.*}}, %{{.*}} mask %{{.*}} : f32
// CHECK-COUNT-3: warp.shuffle <xor> %{{.*}}, %{{.*}} mask %[[M]] : f32
// CHECK-NOT: fns.b32
func.func @masked_whole_clusters(%x: f32, %m: i32) -> (f32, f32) {
  %c = arith.constant 0xff00ff00 : i32
  %r = warp.reduce <add> %x mask %c cluster_size = 8 : f32
  %s = warp.reduce <add> %x mask %m cluster_size = 8 strategy = <butterfly> : f32
  return %r, %s : f32, f32
}

// Clusters under a partial mask: each cluster's members (mask & the
// cluster's lanes, from a shifted constant pattern) are ranked.
// CHECK-LABEL: func @masked_clusters
// CHECK: %[[PATTERN:.*]] = arith.shli %{{.*}}, %{{.*}} : i32
// CHECK: %[[MEMBERS:.*]] = arith.andi %{{.*}}, %[[PATTERN]]
// CHECK-COUNT-2: fns.b32
// CHECK-NOT: fns.b32
// CHECK: math.cttz %[[MEMBERS]]
func.func @masked_clusters(%x: f32, %m: i32) -> f32 {
  %r = warp.reduce <add> %x mask %m cluster_size = 4 cluster_stride = 2 : f32
  return %r : f32
}

// Vectors reduce element-wise through packed shuffles.
// CHECK-LABEL: func @vector_reduce
// CHECK-COUNT-5: warp.shuffle <xor> %{{.*}}, %{{.*}} : vector<2xf16>
func.func @vector_reduce(%x: vector<2xf16>) -> vector<2xf16> {
  %r = warp.reduce <add> %x : vector<2xf16>
  return %r : vector<2xf16>
}
}
