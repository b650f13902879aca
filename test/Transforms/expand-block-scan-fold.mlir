// A block scan of an integer kind in a known block of 2 to 8 whole warps
// with algorithm warp_scans (the default for 2 and 3 warps; from 128
// threads raking is) folds the warps' totals in every thread (CUB's
// BLOCK_SCAN_WARP_SCANS form): lane 31 of each warp parks its warp's total in prefix slot 34 +
// warp, a barrier, every thread loads the totals of slots 34 .. 34 + warps
// - 1. The prefix slots keep it race-free next to the other block ops, which
// park into slots 0..31 before their first barrier (a following
// block_reduce here): compute-sanitizer's racecheck flagged the fold reading
// slots 0..31 while such a reduce overwrote them.
// In a kernel the block ops alternate the halves of the scratch array, so
// the fold needs no barrier in front (mem2reg folds the phase of straight-
// line code here; LLVM's SROA does it in the pipeline). In a device
// function, one half: a barrier first keeps the previous block op's reads
// of the prefix slots apart from the parking.
// RUN: warp-opt %s --warp-expand-block-collectives --mem2reg --canonicalize | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // Two halves of 66 slots.
  // CHECK: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>

  // CHECK-LABEL: gpu.func @fold_then_reduce
  // CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
  // CHECK-DAG: %[[C34:.*]] = arith.constant 34 : i32
  // CHECK-DAG: %[[C66:.*]] = arith.constant 66 : i32
  // CHECK-NOT: gpu.barrier
  // CHECK: %[[SCAN:.*]] = warp.scan <add> %{{[^ ]*}} : i32
  // CHECK-NOT: gpu.barrier
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
  // The reduce (an integer kind, 4 whole warps) parks into slot 66 + warp of
  // the second half, and after its one barrier every thread folds slots 66
  // to 69.
  // CHECK-NOT: gpu.barrier
  // CHECK: warp.reduce <add>
  // CHECK: arith.addi %{{.*}}, %[[C66]] : i32
  // CHECK: memref.store
  // CHECK-NEXT: }
  // CHECK-NEXT: gpu.barrier
  // CHECK: memref.load %{{.*}}[%c66]
  // CHECK: memref.load %{{.*}}[%c67]
  // CHECK: memref.load %{{.*}}[%c68]
  // CHECK: memref.load %{{.*}}[%c69]
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // One barrier for the scan, one for the reduce.
  // PTX-LABEL: .entry fold_then_reduce(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @fold_then_reduce(%out: memref<?xi32>, %x: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %s, %total = warp.block_scan <add> %x algorithm = <warp_scans> : i32, i32
    %sum = arith.addi %s, %total : i32
    %r = warp.block_reduce <add> %sum : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @fold_then_reduce_in_function
  // CHECK-DAG: %[[C34:.*]] = arith.constant 34 : i32
  // CHECK: %[[SCAN:.*]] = warp.scan <add> %{{[^ ]*}} : i32
  // CHECK-NEXT: gpu.barrier
  // CHECK: %[[SLOT:.*]] = arith.addi %{{.*}}, %[[C34]] : i32
  // CHECK: %[[AT:.*]] = arith.index_castui %[[SLOT]] : i32 to index
  // CHECK: memref.store %[[SCAN]], %{{.*}}[%[[AT]]]
  // CHECK: gpu.barrier
  // CHECK: memref.load %{{.*}}[%c34]
  // CHECK: memref.load %{{.*}}[%c37]
  // The reduce parks into slot `warp` (0..3) and reads slot 32.
  // CHECK: warp.reduce <add>
  // CHECK-NOT: arith.addi
  // CHECK: memref.store
  // CHECK-NEXT: }
  // CHECK-NEXT: gpu.barrier
  // CHECK: gpu.barrier
  // CHECK: memref.load %{{.*}}[%c32]
  // CHECK: gpu.return
  gpu.func @fold_then_reduce_in_function(%x: i32) -> i32
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %s, %total = warp.block_scan <add> %x algorithm = <warp_scans> : i32, i32
    %sum = arith.addi %s, %total : i32
    %r = warp.block_reduce <add> %sum : i32
    gpu.return %r : i32
  }
}
}
