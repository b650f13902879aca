// Block reduce / scan over items per thread (`items`): each thread folds its
// items serially from the left, the block op runs over the folds (its
// algorithm kept), and a scan rescans the items from the thread's exclusive
// prefix, thread 0 without init starting from its first item. A region
// without init has no exclusive block scan: its prefix is the inclusive
// scan of the thread before (one warp.block_shuffle per value).
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @reduce_items
  // CHECK-SAME: (%[[V:.*]]: vector<3xf32>
  // CHECK: %[[I0:.*]] = vector.extract %[[V]][0] : f32 from vector<3xf32>
  // CHECK: %[[I1:.*]] = vector.extract %[[V]][1] : f32 from vector<3xf32>
  // CHECK: %[[F1:.*]] = arith.addf %[[I0]], %[[I1]] : f32
  // CHECK: %[[I2:.*]] = vector.extract %[[V]][2] : f32 from vector<3xf32>
  // CHECK: %[[F2:.*]] = arith.addf %[[F1]], %[[I2]] : f32
  // Raking, as the op asked: every thread parks its fold.
  // CHECK: memref.get_global @__warp_block_rake
  // CHECK: memref.store %[[F2]]
  // CHECK: gpu.barrier
  // CHECK-NOT: vector.extract
  // CHECK: gpu.return
  gpu.func @reduce_items(%v: vector<3xf32>, %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %r = warp.block_reduce <add> %v items algorithm = <raking> : vector<3xf32>
    memref.store %r, %out[%c0] : memref<?xf32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @scan_items
  // CHECK-SAME: (%[[V:.*]]: vector<3xi32>
  // CHECK: %[[I0:.*]] = vector.extract %[[V]][0]
  // CHECK: %[[I1:.*]] = vector.extract %[[V]][1]
  // CHECK: %[[F1:.*]] = arith.addi %[[I0]], %[[I1]] : i32
  // CHECK: %[[I2:.*]] = vector.extract %[[V]][2]
  // CHECK: %[[F2:.*]] = arith.addi %[[F1]], %[[I2]] : i32
  // The block's exclusive scan of the folds (two whole warps: each warp's
  // scan, lane 31 parks the warp's total, one barrier).
  // CHECK: warp.scan <add> %[[F2]] exclusive : i32
  // CHECK: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // Thread 0 (x + X * (y + Y * z) == 0, with X = 64, Y = Z = 1 known).
  // CHECK: %[[X:.*]] = gpu.thread_id x
  // CHECK: %[[XI:.*]] = arith.index_castui %[[X]] : index to i32
  // CHECK: %[[T:.*]] = arith.addi %[[XI]], %{{.*}} : i32
  // CHECK: %[[T0:.*]] = arith.cmpi eq, %[[T]], %{{.*}} : i32
  // CHECK: %[[J0:.*]] = vector.extract %[[V]][0]
  // CHECK: %[[PJ0:.*]] = arith.addi %[[P:.*]], %[[J0]] : i32
  // CHECK: %[[R0:.*]] = arith.select %[[T0]], %[[J0]], %[[PJ0]] : i32
  // CHECK: %[[J1:.*]] = vector.extract %[[V]][1]
  // CHECK: %[[R1:.*]] = arith.addi %[[R0]], %[[J1]] : i32
  // CHECK: %[[J2:.*]] = vector.extract %[[V]][2]
  // CHECK: %[[R2:.*]] = arith.addi %[[R1]], %[[J2]] : i32
  // Exclusive: item j gets the running value before it.
  // CHECK: vector.from_elements %[[P]], %[[R0]], %[[R1]] : vector<3xi32>
  gpu.func @scan_items(%v: vector<3xi32>, %out: memref<?xvector<3xi32>>, %tot: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s, %t = warp.block_scan <add> %v items exclusive algorithm = <warp_scans> : vector<3xi32>, i32
    memref.store %s, %out[%c0] : memref<?xvector<3xi32>>
    memref.store %t, %tot[%c0] : memref<?xi32>
    gpu.return
  }

  // With init the prefix always exists: no thread-0 case.
  // CHECK-LABEL: gpu.func @scan_items_init
  // CHECK-NOT: gpu.thread_id z
  // CHECK: vector.from_elements
  gpu.func @scan_items_init(%v: vector<2xf32>, %p: f32, %out: memref<?xvector<2xf32>>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <maxnumf> %v items init %p : vector<2xf32>
    memref.store %s, %out[%c0] : memref<?xvector<2xf32>>
    gpu.return
  }

  // A region without init: the inclusive block scan of the folds, then each
  // value's scan from the thread before, valid everywhere but thread 0.
  // CHECK-LABEL: gpu.func @affine_items
  // CHECK-SAME: (%[[A:.*]]: vector<2xi32>, %[[B:.*]]: vector<2xi32>
  // CHECK: %[[A0:.*]] = vector.extract %[[A]][0]
  // CHECK: %[[B0:.*]] = vector.extract %[[B]][0]
  // CHECK: %[[A1:.*]] = vector.extract %[[A]][1]
  // CHECK: %[[B1:.*]] = vector.extract %[[B]][1]
  // CHECK: %[[FA:.*]] = arith.muli %[[A0]], %[[A1]] : i32
  // CHECK: %[[T:.*]] = arith.muli %[[B0]], %[[A1]] : i32
  // CHECK: %[[FB:.*]] = arith.addi %[[T]], %[[B1]] : i32
  // CHECK: warp.scan %[[FA]], %[[FB]] valid_lanes
  // Two block shuffles (a barrier before each write, one before the
  // reads); the first one's valid flag says which thread has no prefix.
  // CHECK: gpu.barrier
  // CHECK: gpu.barrier
  // CHECK: %[[NONE:.*]] = arith.xori %{{.*}}, %{{.*}} : i1
  // CHECK: gpu.barrier
  // CHECK: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK: %[[X0:.*]] = vector.extract %[[A]][0]
  // CHECK: %[[Y0:.*]] = vector.extract %[[B]][0]
  // CHECK: arith.select %[[NONE]], %[[X0]], %{{.*}} : i32
  // CHECK: arith.select %[[NONE]], %[[Y0]], %{{.*}} : i32
  // CHECK: vector.from_elements {{.*}} : vector<2xi32>
  // CHECK: vector.from_elements {{.*}} : vector<2xi32>
  gpu.func @affine_items(%a: vector<2xi32>, %b: vector<2xi32>, %out: memref<?xvector<2xi32>>) kernel {
    %c0 = arith.constant 0 : index
    %x, %y = warp.block_scan %a, %b items : vector<2xi32>, vector<2xi32>
        combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a1, %a2 : i32
      %t = arith.muli %b1, %a2 : i32
      %b3 = arith.addi %t, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    memref.store %x, %out[%c0] : memref<?xvector<2xi32>>
    memref.store %y, %out[%c0] : memref<?xvector<2xi32>>
    gpu.return
  }

  // Odd subword vectors of items are items, not payloads to pad.
  // CHECK-LABEL: gpu.func @odd_subword_items
  // CHECK-NOT: vector<4xi8>
  // CHECK: vector.extract %{{.*}}[2] : i8 from vector<3xi8>
  // CHECK-NOT: vector<4xi8>
  // CHECK: gpu.return
  gpu.func @odd_subword_items(%v: vector<3xi8>, %out: memref<?xi8>) kernel {
    %c0 = arith.constant 0 : index
    %r = warp.block_reduce <xor> %v items : vector<3xi8>
    memref.store %r, %out[%c0] : memref<?xi8>
    gpu.return
  }
}
}
