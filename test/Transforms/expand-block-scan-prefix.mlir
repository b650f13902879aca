// warp.block_scan with a prefix region (CUB's BlockPrefixCallbackOp): warp
// 0 scans the warps' totals (warp_scans) or the segment totals (raking)
// inclusively, runs the region on that scan's total in all its lanes,
// takes lane 0's prefix by a shuffle and gives lane l `p (op) I_{l-1}`
// (lane 0: p), the bits `init p` gives; then the init path goes on.
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @warp_scans
  // CHECK-SAME: (%[[X:.*]]: i32, %[[BUF:.*]]: memref<1xi32>
  // CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32 : i32
  // CHECK: %[[WARP:.*]] = arith.shrui
  // CHECK: %[[OWN:.*]]:2 = warp.scan <add> %[[X]] exclusive : i32, i32
  // CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %c0_i32 : i32
  // CHECK: gpu.barrier
  // CHECK: %[[W0:.*]] = arith.cmpi eq, %[[WARP]], %c0_i32 : i32
  // CHECK: scf.if %[[W0]] {
  // CHECK: %[[PARKED:.*]] = scf.if
  // CHECK: %[[INC:.*]]:2 = warp.scan <add> %[[PARKED]] valid_lanes %c2_i32 mask %c-1_i32 : i32, i32
  // The region, on the inclusive scan's total, in every lane of warp 0.
  // CHECK-NEXT: %[[OLD:.*]] = memref.load %[[BUF]][%c0] : memref<1xi32>
  // CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[OLD]], %[[INC]]#1 : i32
  // CHECK-NEXT: memref.store %[[NEW]], %[[BUF]][%c0] : memref<1xi32>
  // Lane 0's prefix to every lane; lane l: p + I_{l-1}, lane 0: p.
  // CHECK-NEXT: %[[P:.*]], %{{.*}} = warp.shuffle <idx> %[[OLD]], %c0_i32 mask %c-1_i32 : i32
  // CHECK-NEXT: %[[BEFORE:.*]], %{{.*}} = warp.shuffle <up> %[[INC]]#0, %c1_i32 mask %c-1_i32 : i32
  // CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[P]], %[[BEFORE]] : i32
  // CHECK-NEXT: %[[PREFIX:.*]] = arith.select %[[LANE0]], %[[P]], %[[SUM]] : i32
  // CHECK: memref.store %[[PREFIX]]
  // The total without the prefix.
  // CHECK: memref.store %[[INC]]#1
  // CHECK: gpu.barrier
  // As with init: every warp (warp 0 too) combines its prefix in front.
  // CHECK: %[[WP:.*]] = memref.load
  // CHECK: %[[R:.*]] = arith.addi %[[WP]], %[[OWN]]#0 : i32
  // CHECK: arith.select %[[LANE0]], %[[WP]], %[[R]] : i32
  gpu.func @warp_scans(%x: i32, %run: memref<1xi32>, %out: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s, %t = warp.block_scan <add> %x exclusive algorithm = <warp_scans> : i32, i32 prefix(%tot: i32) {
      %old = memref.load %run[%c0] : memref<1xi32>
      %new = arith.addi %old, %tot : i32
      memref.store %new, %run[%c0] : memref<1xi32>
      warp.yield %old : i32
    }
    memref.store %s, %out[%c0] : memref<?xi32>
    memref.store %t, %out[%c0] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @raking
  // CHECK: gpu.barrier
  // CHECK: scf.if
  // CHECK: %[[INC:.*]]:2 = warp.scan <maxnumf> %{{.*}} valid_lanes %c25_i32 mask %[[MASK:.*]] : f32, f32
  // CHECK-NEXT: %[[P0:.*]] = arith.mulf %[[INC]]#1, %cst : f32
  // CHECK-NEXT: %[[P:.*]], %{{.*}} = warp.shuffle <idx> %[[P0]], %c0_i32 mask %[[MASK]] : f32
  // CHECK-NEXT: %[[BEFORE:.*]], %{{.*}} = warp.shuffle <up> %[[INC]]#0, %c1_i32 mask %[[MASK]] : f32
  // CHECK: %[[M:.*]] = arith.maxnumf %[[P]], %[[BEFORE]] : f32
  // CHECK: %[[Q:.*]] = arith.select %{{.*}}, %[[P]], %[[M]] : f32
  // Each lane rescans its segment from its prefix (lane 0 too).
  // CHECK: %[[FIRST:.*]] = memref.load
  // CHECK-NEXT: arith.maxnumf %[[Q]], %[[FIRST]] : f32
  // CHECK: gpu.barrier
  gpu.func @raking(%x: f32, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 100, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <maxnumf> %x algorithm = <raking> : f32 prefix(%tot: f32) {
      %two = arith.constant 2.0 : f32
      %p = arith.mulf %tot, %two : f32
      warp.yield %p : f32
    }
    memref.store %s, %out[%c0] : memref<?xf32>
    gpu.return
  }

  // One warp: not its warp's scan alone (the shortcut of a kind without a
  // prefix); the general path, one warp total parked.
  // CHECK-LABEL: gpu.func @one_warp
  // CHECK: warp.scan <add> %{{.*}} : i32, i32
  // CHECK: gpu.barrier
  // CHECK: %[[INC:.*]]:2 = warp.scan <add> %{{.*}} valid_lanes %c1_i32
  // CHECK-NEXT: warp.shuffle <idx> %[[INC]]#1, %c0_i32
  // CHECK: gpu.barrier
  gpu.func @one_warp(%x: i32, %out: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <add> %x algorithm = <warp_scans> : i32 prefix(%tot: i32) {
      warp.yield %tot : i32
    }
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }
}
}
