// A block scan of an integer kind in a known block of 2 to 8 whole warps
// folds the warps' totals in every thread (CUB's BLOCK_SCAN_WARP_SCANS
// form): a barrier, lane 31 of each warp parks its warp's total in prefix
// slot 34 + warp, a barrier, every thread loads the totals of slots 34 ..
// 34 + warps - 1. The prefix slots keep it race-free next to the other
// block ops, which park into slots 0..31 before their first barrier (a
// following block_reduce here): compute-sanitizer's racecheck flagged the
// fold reading slots 0..31 while such a reduce overwrote them.
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize | FileCheck %s

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @fold_then_reduce
  // CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
  // CHECK-DAG: %[[C34:.*]] = arith.constant 34 : i32
  // CHECK: %[[SCAN:.*]] = warp.scan <add> %{{[^ ]*}} : i32
  // CHECK-NEXT: gpu.barrier
  // CHECK: arith.cmpi eq, %{{.*}}, %[[C31]] : i32
  // CHECK: %[[SLOT:.*]] = arith.addi %{{.*}}, %[[C34]] : i32
  // CHECK: %[[AT:.*]] = arith.index_castui %[[SLOT]] : i32 to index
  // CHECK: memref.store %[[SCAN]], %{{.*}}[%[[AT]]]
  // CHECK: gpu.barrier
  // Four warps: slots 34 to 37 (37 for the block total), none below.
  // CHECK-NOT: memref.load %{{.*}}[%c{{[0-9]}}]
  // CHECK-NOT: memref.load %{{.*}}[%c{{[12][0-9]}}]
  // CHECK: memref.load %{{.*}}[%c34]
  // CHECK: memref.load %{{.*}}[%c35]
  // CHECK: memref.load %{{.*}}[%c36]
  // CHECK: memref.load %{{.*}}[%c37]
  // CHECK-NOT: memref.load %{{.*}}[%c38]
  // The reduce parks into slot `warp` (0..3) before its first barrier.
  // CHECK: warp.reduce <add>
  // CHECK: memref.store
  // CHECK-NEXT: }
  // CHECK-NEXT: gpu.barrier
  gpu.func @fold_then_reduce(%out: memref<?xi32>, %x: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %s, %total = warp.block_scan <add> %x : i32, i32
    %sum = arith.addi %s, %total : i32
    %r = warp.block_reduce <add> %sum : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }
}
}
