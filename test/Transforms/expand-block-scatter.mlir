// warp.block_scatter through the block exchange buffer: a barrier, each item
// stored at its rank (padded slot: one padding item per 32 four-byte items),
// dropped where the rank is past the block's B * N positions, a barrier, each
// thread's positions loaded (striped: t + B j). With flags, an item is stored
// only where its rank is inside and its flag is set.
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK: memref.global "private" @__warp_block_exchange : memref<131xf32, #gpu.address_space<workgroup>>
  // CHECK-LABEL: gpu.func @scatter
  // CHECK-SAME: (%[[X:.*]]: vector<2xf32>, %[[R:.*]]: vector<2xi32>
  // CHECK: %[[BUF:.*]] = memref.get_global @__warp_block_exchange
  // CHECK: gpu.barrier
  // CHECK: %[[R0:.*]] = vector.extract %[[R]][0] : i32 from vector<2xi32>
  // CHECK: %[[P0:.*]] = arith.index_castui %[[R0]] : i32 to index
  // CHECK: %[[IN:.*]] = arith.cmpi ult, %[[P0]], %c128 : index
  // CHECK: scf.if %[[IN]] {
  // CHECK:   %[[PAD:.*]] = arith.shrui %[[P0]], %c5 : index
  // CHECK:   %[[S0:.*]] = arith.addi %[[P0]], %[[PAD]] : index
  // CHECK:   memref.store %{{.*}}, %[[BUF]][%[[S0]]]
  // CHECK: gpu.barrier
  // CHECK-COUNT-2: memref.load %[[BUF]]
  // CHECK: vector.from_elements
  gpu.func @scatter(%x: vector<2xf32>, %r: vector<2xi32>, %out: memref<?xvector<2xf32>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %y = warp.block_scatter %x, %r striped : vector<2xf32>, vector<2xi32>
    memref.store %y, %out[%c0] : memref<?xvector<2xf32>>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @flagged
  // CHECK-SAME: (%[[X:.*]]: vector<2xf32>, %[[R:.*]]: vector<2xi32>, %[[F:.*]]: vector<2xi1>
  // CHECK: gpu.barrier
  // CHECK: %[[R0:.*]] = vector.extract %[[R]][0] : i32 from vector<2xi32>
  // CHECK: %[[P0:.*]] = arith.index_castui %[[R0]] : i32 to index
  // CHECK: %[[IN:.*]] = arith.cmpi ult, %[[P0]], %c128 : index
  // CHECK: %[[F0:.*]] = vector.extract %[[F]][0] : i1 from vector<2xi1>
  // CHECK: %[[KEEP:.*]] = arith.andi %[[IN]], %[[F0]] : i1
  // CHECK: scf.if %[[KEEP]] {
  // CHECK:   memref.store
  // CHECK: vector.extract %[[F]][1] : i1 from vector<2xi1>
  // CHECK: gpu.barrier
  gpu.func @flagged(%x: vector<2xf32>, %r: vector<2xi32>, %f: vector<2xi1>,
                    %out: memref<?xvector<2xf32>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %y = warp.block_scatter %x, %r flags %f : vector<2xf32>, vector<2xi32>, vector<2xi1>
    memref.store %y, %out[%c0] : memref<?xvector<2xf32>>
    gpu.return
  }
}
}
