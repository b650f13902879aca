// warp.block_shift (CUB BlockShuffle::Up / Down of N items): through the block
// exchange buffer of its element type, a slot per thread: a barrier, each
// thread stores the item its neighbour takes, a barrier, each loads its
// neighbour's slot (the thread at the block's edge keeps its own item) and
// the edge thread's slot; the other items move in registers.
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-DAG: memref.global "private" @__warp_block_exchange{{.*}} : memref<100xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_exchange{{.*}} : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_exchange{{.*}} : memref<64xi1, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global

module attributes {gpu.container_module} {
gpu.module @kernels {
  // Up, in a ragged block of 100: thread t stores its last item, thread 0
  // keeps its first, the suffix is slot 99.
  // CHECK-LABEL: gpu.func @up
  // CHECK-SAME: (%[[X:.*]]: vector<3xf32>
  // CHECK-DAG: %[[X0:.*]] = vector.extract %[[X]][0] : f32 from vector<3xf32>
  // CHECK-DAG: %[[X1:.*]] = vector.extract %[[X]][1] : f32 from vector<3xf32>
  // CHECK-DAG: %[[X2:.*]] = vector.extract %[[X]][2] : f32 from vector<3xf32>
  // CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T:.*]], %c0_i32 : i32
  // CHECK: %[[BEFORE:.*]] = arith.subi %[[T]], %c1_i32 : i32
  // CHECK: %[[FROM:.*]] = arith.select %[[FIRST]], %[[T]], %[[BEFORE]] : i32
  // CHECK: %[[BUF:.*]] = memref.get_global
  // CHECK: gpu.barrier
  // CHECK: memref.store %[[X2]], %[[BUF]][%{{.*}}]
  // CHECK: gpu.barrier
  // CHECK: %[[I:.*]] = arith.index_castui %[[FROM]] : i32 to index
  // CHECK: %[[GOT:.*]] = memref.load %[[BUF]][%[[I]]]
  // CHECK: %[[PREV0:.*]] = arith.select %[[FIRST]], %[[X0]], %[[GOT]] : f32
  // CHECK: %[[SUFFIX:.*]] = memref.load %[[BUF]][%c99]
  // CHECK: vector.from_elements %[[PREV0]], %[[X0]], %[[X1]] : vector<3xf32>
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry up(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @up(%x: vector<3xf32>, %out: memref<?xvector<3xf32>>, %e: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 100, 1, 1>} {
    %c0 = arith.constant 0 : index
    %p, %s = warp.block_shift <up> %x : vector<3xf32>
    memref.store %p, %out[%c0] : memref<?xvector<3xf32>>
    memref.store %s, %e[%c0] : memref<?xf32>
    gpu.return
  }

  // Down, block size unknown: thread t stores its first item, the last
  // thread (B - 1) keeps its last, the prefix is slot 0.
  // CHECK-LABEL: gpu.func @down
  // CHECK-SAME: (%[[Y:.*]]: vector<2xi8>
  // CHECK-DAG: %[[Y0:.*]] = vector.extract %[[Y]][0] : i8 from vector<2xi8>
  // CHECK-DAG: %[[Y1:.*]] = vector.extract %[[Y]][1] : i8 from vector<2xi8>
  // CHECK: %[[LASTT:.*]] = arith.subi %[[B:.*]], %c1_i32 : i32
  // CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[T:.*]], %[[LASTT]] : i32
  // CHECK: %[[AFTER:.*]] = arith.addi %[[T]], %c1_i32 : i32
  // CHECK: %[[FROM:.*]] = arith.select %[[LAST]], %[[T]], %[[AFTER]] : i32
  // CHECK: gpu.barrier
  // CHECK: memref.store %[[Y0]]
  // CHECK: gpu.barrier
  // CHECK: %[[GOT:.*]] = memref.load
  // CHECK: %[[NEXT1:.*]] = arith.select %[[LAST]], %[[Y1]], %[[GOT]] : i8
  // CHECK: %[[PREFIX:.*]] = memref.load %{{.*}}[%c0]
  // CHECK: vector.from_elements %[[Y1]], %[[NEXT1]] : vector<2xi8>
  // PTX-LABEL: .entry down(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @down(%y: vector<2xi8>, %out: memref<?xvector<2xi8>>, %e: memref<?xi8>) kernel {
    %c0 = arith.constant 0 : index
    %n, %f = warp.block_shift <down> %y : vector<2xi8>
    memref.store %n, %out[%c0] : memref<?xvector<2xi8>>
    memref.store %f, %e[%c0] : memref<?xi8>
    gpu.return
  }

  // One flag per thread: CUB's Up of one item (a head flag's neighbour).
  // CHECK-LABEL: gpu.func @flags
  // CHECK-COUNT-2: gpu.barrier
  // CHECK: %[[P:.*]] = arith.select %{{.*}} : i1
  // CHECK: memref.load %{{.*}}[%c63]
  // CHECK: vector.broadcast %[[P]] : i1 to vector<1xi1>
  gpu.func @flags(%f: vector<1xi1>, %out: memref<?xvector<1xi1>>, %e: memref<?xi1>) kernel
      attributes {known_block_size = array<i32: 32, 2, 1>} {
    %c0 = arith.constant 0 : index
    %p, %s = warp.block_shift <up> %f : vector<1xi1>
    memref.store %p, %out[%c0] : memref<?xvector<1xi1>>
    memref.store %s, %e[%c0] : memref<?xi1>
    gpu.return
  }
}
}
