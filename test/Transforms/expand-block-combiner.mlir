// Block reduce / scan with combiner regions over tuples: each value travels
// through a buffer of its own (two f32 values: two f32 arrays), the warp
// ops get a copy of the region (warp-expand-collectives lowers them as any
// warp.reduce / warp.scan with a region), and the block level combines with
// the region inlined. A region has no padding and no identity: warp 0
// reduces the first numWarps partials (valid_lanes); a scan without init
// takes inclusive scans, warp w's prefix being warp 0's inclusive scan at
// lane w - 1; an exclusive warp scan is the inclusive one shifted up a lane.
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-DAG: memref.global "private" @__warp_block_scratch{{[_0-9]*}} : memref<132xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch{{[_0-9]*}} : memref<132xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch{{[_0-9]*}} : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch{{[_0-9]*}} : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_rake{{[_0-9]*}} : memref<1025xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_rake{{[_0-9]*}} : memref<1025xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @reduce_tuple
  // CHECK-SAME: (%{{.*}}: memref<?xf32>, %[[V:.*]]: f32, %[[W:.*]]: f32)
  // CHECK: %[[LIVE:.*]] = arith.minui
  // CHECK: %[[MASK:.*]] = arith.select
  // CHECK: %[[B0:.*]] = memref.get_global @__warp_block_scratch{{[_0-9]*}} : memref<132xf32
  // CHECK: %[[B1:.*]] = memref.get_global @__warp_block_scratch{{[_0-9]*}} : memref<132xf32
  // CHECK: %[[P:.*]]:2 = scf.if
  // CHECK:   warp.reduce %[[V]], %[[W]] lanes = <first> commutative : f32, f32 combine
  // CHECK:     arith.maximumf
  // CHECK:   warp.reduce %[[V]], %[[W]] valid_lanes %[[LIVE]] mask %[[MASK]] lanes = <first> commutative : f32, f32 combine
  // CHECK: scf.if
  // CHECK:   memref.store %[[P]]#0, %[[B0]]
  // CHECK:   memref.store %[[P]]#1, %[[B1]]
  // CHECK: gpu.barrier
  // Warp 0 reduces the first numWarps partials: no padding.
  // CHECK: scf.if
  // CHECK:   memref.load %[[B0]]
  // CHECK:   memref.load %[[B1]]
  // CHECK:   warp.reduce %{{.*}}, %{{.*}} valid_lanes %{{.*}} mask %[[MASK]] lanes = <first> commutative : f32, f32 combine
  // CHECK: gpu.barrier
  // CHECK: memref.load %[[B0]]
  // CHECK: memref.load %[[B1]]
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry reduce_tuple(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @reduce_tuple(%out: memref<?xf32>, %v: f32, %w: f32) kernel {
    %t = gpu.thread_id x
    %m, %s = warp.block_reduce %v, %w commutative : f32, f32 combine (%a: f32, %b: f32, %c: f32, %d: f32) {
      %x = arith.maximumf %a, %c : f32
      %y = arith.addf %b, %d : f32
      warp.yield %x, %y : f32, f32
    }
    %r = arith.addf %m, %s : f32
    memref.store %r, %out[%t] : memref<?xf32>
    gpu.return
  }

  // An affine map (a, b): not commutative, two i32 values, two buffers.
  // CHECK-LABEL: gpu.func @scan_no_init
  // CHECK: %[[WARP:.*]] = arith.shrui
  // CHECK: %[[NW:.*]] = arith.shrui
  // CHECK: %[[B0:.*]] = memref.get_global @__warp_block_scratch{{[_0-9]*}} : memref<132xi32
  // CHECK: %[[B1:.*]] = memref.get_global @__warp_block_scratch{{[_0-9]*}} : memref<132xi32
  // CHECK: %[[S:.*]]:4 = warp.scan %{{.*}}, %{{.*}} valid_lanes %{{.*}} mask %{{.*}} : i32, i32, i32, i32 combine
  // CHECK: memref.store %[[S]]#2, %[[B0]]
  // CHECK: memref.store %[[S]]#3, %[[B1]]
  // CHECK: gpu.barrier
  // CHECK: %[[LIMIT:.*]] = arith.subi %[[NW]], %{{.*}} : i32
  // Warp 0: the inclusive scan of the warps' totals, lane l's into slot
  // 35 + l for l < numWarps - 1 (warp l + 1's prefix).
  // CHECK: %[[T:.*]]:4 = warp.scan %{{.*}}, %{{.*}} valid_lanes %[[NW]] mask %{{.*}} : i32, i32, i32, i32 combine
  // CHECK: %[[C35:.*]] = arith.constant 35 : i32
  // CHECK: arith.addi %{{.*}}, %[[C35]] : i32
  // CHECK: arith.cmpi ult, %{{.*}}, %[[LIMIT]] : i32
  // CHECK: memref.store %[[T]]#0, %[[B0]]
  // CHECK: memref.store %[[T]]#1, %[[B1]]
  // CHECK: memref.store %[[T]]#2, %[[B0]]
  // CHECK: memref.store %[[T]]#3, %[[B1]]
  // CHECK: gpu.barrier
  // Warp 0 takes its own scan; the others load their prefix and combine.
  // CHECK: %[[W0:.*]] = arith.cmpi eq, %[[WARP]], %{{.*}} : i32
  // CHECK: scf.if %[[W0]] -> (i32, i32) {
  // CHECK:   scf.yield %[[S]]#0, %[[S]]#1 : i32, i32
  // CHECK: } else {
  // CHECK:   %[[PA:.*]] = memref.load %[[B0]]
  // CHECK:   %[[PB:.*]] = memref.load %[[B1]]
  // CHECK:   %[[A3:.*]] = arith.muli %[[PA]], %[[S]]#0 : i32
  // CHECK:   %[[T1:.*]] = arith.muli %[[PB]], %[[S]]#0 : i32
  // CHECK:   %[[B3:.*]] = arith.addi %[[T1]], %[[S]]#1 : i32
  // CHECK:   scf.yield %[[A3]], %[[B3]] : i32, i32
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  gpu.func @scan_no_init(%out: memref<?xi32>, %a: i32, %b: i32) kernel {
    %t = gpu.thread_id x
    %x, %y = warp.block_scan %a, %b : i32, i32 combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a1, %a2 : i32
      %t1 = arith.muli %b1, %a2 : i32
      %b3 = arith.addi %t1, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    %r = arith.addi %x, %y : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }

  // Exclusive with init: the warp scan stays inclusive and its lanes take
  // the lane before theirs (shuffle up); warp 0 scans the totals
  // exclusively with the init in front.
  // CHECK-LABEL: gpu.func @scan_exclusive_init
  // CHECK-SAME: (%{{.*}}: memref<?xi32>, %{{.*}}: i32, %{{.*}}: i32, %[[IA:.*]]: i32, %[[IB:.*]]: i32)
  // CHECK: %[[MASK:.*]] = arith.select
  // CHECK: %[[S:.*]]:4 = warp.scan %{{.*}}, %{{.*}} valid_lanes %{{.*}} mask %[[MASK]] : i32, i32, i32, i32 combine
  // CHECK: %[[UA:.*]], %{{.*}} = warp.shuffle <up> %[[S]]#0, %{{.*}} mask %[[MASK]] : i32
  // CHECK: %[[UB:.*]], %{{.*}} = warp.shuffle <up> %[[S]]#1, %{{.*}} mask %[[MASK]] : i32
  // CHECK: gpu.barrier
  // CHECK: warp.scan %{{.*}}, %{{.*}} exclusive init %[[IA]], %[[IB]] valid_lanes
  // CHECK: gpu.barrier
  // CHECK: %[[PA:.*]] = memref.load
  // CHECK: %[[PB:.*]] = memref.load
  // CHECK: arith.muli %[[PA]], %[[UA]] : i32
  // CHECK: arith.select %{{.*}}, %[[PA]], %{{.*}} : i32
  // CHECK: arith.select %{{.*}}, %[[PB]], %{{.*}} : i32
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  gpu.func @scan_exclusive_init(%out: memref<?xi32>, %a: i32, %b: i32, %ia: i32, %ib: i32) kernel {
    %t = gpu.thread_id x
    %e:4 = warp.block_scan %a, %b exclusive init %ia, %ib : i32, i32, i32, i32 combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a1, %a2 : i32
      %t1 = arith.muli %b1, %a2 : i32
      %b3 = arith.addi %t1, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    %r = arith.addi %e#1, %e#3 : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }

  // Raking without init: the segment totals' inclusive scan shifted up a
  // lane gives each segment's prefix; the rescan inlines the region.
  // CHECK-LABEL: gpu.func @raking_no_init
  // CHECK: memref.get_global @__warp_block_rake{{[_0-9]*}} : memref<1025xi32
  // CHECK: memref.get_global @__warp_block_rake{{[_0-9]*}} : memref<1025xi32
  // CHECK: gpu.barrier
  // CHECK: scf.for
  // CHECK:   arith.muli
  // CHECK: %[[K:.*]]:4 = warp.scan %{{.*}}, %{{.*}} valid_lanes
  // CHECK: warp.shuffle <up> %[[K]]#0
  // CHECK: warp.shuffle <up> %[[K]]#1
  // CHECK: scf.for
  // CHECK: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry raking_no_init(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @raking_no_init(%out: memref<?xi32>, %a: i32, %b: i32) kernel {
    %t = gpu.thread_id x
    %x, %y = warp.block_scan %a, %b algorithm = <raking> : i32, i32 combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a1, %a2 : i32
      %t1 = arith.muli %b1, %a2 : i32
      %b3 = arith.addi %t1, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    %r = arith.addi %x, %y : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }
}
}
