// warp.block_scan with `heads`: a block scan without them over (flag word,
// values) tuples whose combine region cuts at a head (ExpandBlockSegments.cpp).
// Forward, a run's word has bit 0 where it holds a head and its values
// restart from the right run's head; an exclusive scan puts the empty run
// (bit 2) in front, which the combine passes over, and a head's own result
// is the identity. Reversed, bit 1 marks a head after the run's first
// position and the left run's values end at it.
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t70.ptx" -o /dev/null
// RUN: %if ptxas-sm_70 %{ %ptxas -arch=sm_70 %t70.ptx -o %t70.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @inclusive
  // CHECK-SAME: (%[[X:.*]]: i32, %[[H:.*]]: i1
  // CHECK: %[[WORD:.*]] = arith.extui %[[H]] : i1 to i32
  // CHECK: warp.scan %[[WORD]], %[[X]] valid_lanes
  // CHECK-SAME: combine (%[[LF:.*]]: i32, %[[L:.*]]: i32, %[[RF:.*]]: i32, %[[R:.*]]: i32)
  // CHECK-DAG: %[[SUM:.*]] = arith.addi %[[L]], %[[R]] : i32
  // CHECK-DAG: %[[ANY:.*]] = arith.ori %[[LF]], %[[RF]] : i32
  // CHECK-DAG: %[[RHEAD:.*]] = arith.andi %[[RF]], %c1_i32 : i32
  // CHECK: %[[CUT:.*]] = arith.cmpi ne, %[[RHEAD]], %c0_i32 : i32
  // CHECK: %[[V:.*]] = arith.select %[[CUT]], %[[R]], %[[SUM]] : i32
  // CHECK-NOT: %c4_i32
  // CHECK: warp.yield %[[ANY]], %[[V]] : i32, i32
  gpu.func @inclusive(%x: i32, %h: i1, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <add> %x heads %h : i32
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @exclusive
  // CHECK-SAME: (%[[X:.*]]: i32, %[[H:.*]]: i1, %[[OUT:.*]]: memref<?xi32>
  // CHECK: warp.scan
  // CHECK-SAME: combine
  // CHECK: %[[LE:.*]] = arith.andi %{{.*}}, %c4_i32 : i32
  // CHECK: warp.scan %{{.*}}, %{{.*}} exclusive init %c4_i32, %c-2147483648_i32
  // CHECK: gpu.barrier
  // CHECK: %[[R:.*]] = arith.select %[[H]], %c-2147483648_i32, %{{.*}} : i32
  // CHECK: memref.store %[[R]], %[[OUT]]
  gpu.func @exclusive(%x: i32, %h: i1, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <maxsi> %x exclusive heads %h : i32
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }

  // Reversed: the left run's values end at its later head (bit 1, after
  // the shift) or at the right run's first position.
  // CHECK-LABEL: gpu.func @reverse_items
  // CHECK: %[[WORDS:.*]] = arith.extui %{{.*}} : vector<4xi1> to vector<4xi32>
  // CHECK: warp.scan {{.*}} reverse valid_lanes
  // CHECK-SAME: combine (%[[LF:.*]]: i32, %[[L:.*]]: f32, %[[RF:.*]]: i32, %[[R:.*]]: f32)
  // CHECK: %[[PROD:.*]] = arith.mulf %[[L]], %[[R]] : f32
  // CHECK: %[[SH:.*]] = arith.shrui %[[LF]], %c1_i32 : i32
  // CHECK: %[[EITHER:.*]] = arith.ori %[[SH]], %[[RF]] : i32
  // CHECK: %[[B0:.*]] = arith.andi %[[EITHER]], %c1_i32 : i32
  // CHECK: %[[CUT:.*]] = arith.cmpi ne, %[[B0]], %c0_i32 : i32
  // CHECK: %[[B01:.*]] = arith.andi %[[EITHER]], %c3_i32 : i32
  // CHECK: %[[ANYLATER:.*]] = arith.cmpi ne, %[[B01]], %c0_i32 : i32
  // CHECK: %[[LATER:.*]] = arith.select %[[ANYLATER]], %c2_i32, %c0_i32 : i32
  // CHECK: %[[FIRST:.*]] = arith.andi %[[LF]], %c1_i32 : i32
  // CHECK: %[[WORD:.*]] = arith.ori %[[FIRST]], %[[LATER]] : i32
  // CHECK: %[[V:.*]] = arith.select %[[CUT]], %[[L]], %[[PROD]] : f32
  // CHECK: warp.yield %[[WORD]], %[[V]] : i32, f32
  gpu.func @reverse_items(%v: vector<4xf32>, %h: vector<4xi1>, %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <mul> %v items reverse heads %h : vector<4xf32>
    %e = vector.extract %s[0] : f32 from vector<4xf32>
    memref.store %e, %out[%c0] : memref<?xf32>
    gpu.return
  }

  // A combine region over a tuple, raking, in tiles of 64: the region's
  // combine is inlined under the cut.
  // CHECK-LABEL: gpu.func @region_tiles
  // CHECK: arith.muli
  // CHECK: arith.select
  // CHECK-NOT: warp.block_scan
  // CHECK: gpu.return
  gpu.func @region_tiles(%a: i32, %b: i32, %h: i1, %out: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %sa, %sb = warp.block_scan %a, %b heads %h algorithm = <raking> tile 64 : i32, i32
        combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a2, %a1 : i32
      %t = arith.muli %a2, %b1 : i32
      %b3 = arith.addi %t, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    memref.store %sa, %out[%c0] : memref<?xi32>
    memref.store %sb, %out[%c0] : memref<?xi32>
    gpu.return
  }
}
}
