// warp.block_load / warp.block_store: each algorithm's accesses. vectorize:
// 16-byte vector accesses where the tile's first item is aligned (checked
// once, at run time), the items one by one elsewhere; transpose: striped
// accesses (j B + t) and a block exchange; warp_transpose: warp-striped
// accesses (32 w N + 32 j + l) and a warp exchange; valid: each access
// guarded, `default` for the items past it.
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @vectorize
  // CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[O:.*]]: index)
  // CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
  // CHECK: %[[B:.*]] = arith.muli %[[O]], %c4 : index
  // CHECK: %[[S:.*]] = arith.addi %[[P]], %[[B]] : index
  // CHECK: %[[R:.*]] = arith.remui %[[S]], %c16 : index
  // CHECK: %[[A:.*]] = arith.cmpi eq, %[[R]], %c0 : index
  // CHECK: scf.if %[[A]] -> (vector<8xf32>) {
  // CHECK-COUNT-2: vector.load %[[M]][%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
  // The chunks concatenated as vectors (not item by item).
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
  // CHECK: } else {
  // CHECK-COUNT-8: memref.load %[[M]]
  // CHECK: }
  // PTX-LABEL: .entry vectorize
  // PTX-COUNT-2: ld.global.v4.b32
  // PTX: st.global.v4.b32
  // PTX: st.global.v4.b32
  gpu.func @vectorize(%m: memref<?xf32>, %o: index) kernel {
    %0 = warp.block_load %m[%o] algorithm = <vectorize> : memref<?xf32>, vector<8xf32>
    warp.block_store %0, %m[%o] algorithm = <vectorize> : vector<8xf32>, memref<?xf32>
    gpu.return
  }

  // A partial tile's vectorize is direct (CUB's guarded vectorized load):
  // each item guarded by valid, no vector access, no alignment test.
  // CHECK-LABEL: gpu.func @vectorize_partial
  // CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[O:.*]]: index, %[[N:.*]]: i32, %[[Z:.*]]: f32)
  // CHECK-NOT: vector.load
  // CHECK-NOT: arith.remui %{{.*}}, %c16
  // CHECK: %[[LIMIT:.*]] = arith.index_cast %[[N]] : i32 to index
  // CHECK: %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %[[LIMIT]] : index
  // CHECK: scf.if %[[IN]] -> (f32) {
  // CHECK: memref.load %[[M]]
  // CHECK: } else {
  // CHECK: scf.yield %[[Z]] : f32
  // CHECK-NOT: vector.store {{.*}} : memref<?xf32>, vector<4xf32>
  // CHECK: memref.store
  // CHECK-NOT: vector.store {{.*}} : memref<?xf32>, vector<4xf32>
  // CHECK: gpu.return
  gpu.func @vectorize_partial(%m: memref<?xf32>, %o: index, %n: i32, %z: f32) kernel {
    %0 = warp.block_load %m[%o] valid %n default %z algorithm = <vectorize> : memref<?xf32>, vector<4xf32>
    warp.block_store %0, %m[%o] valid %n algorithm = <vectorize> : vector<4xf32>, memref<?xf32>
    gpu.return
  }

  // Item j of thread t at j B + t, then the block exchange (a barrier,
  // stores, a barrier, loads).
  // CHECK-LABEL: gpu.func @transpose
  // CHECK: %[[T:.*]] = arith.index_castui %{{.*}} : i32 to index
  // CHECK: %[[BS:.*]] = arith.index_castui %{{.*}} : i32 to index
  // CHECK: %[[I0:.*]] = arith.addi %[[O:.*]], %[[T]] : index
  // CHECK: memref.load %{{.*}}[%[[I0]]]
  // CHECK: %[[J1:.*]] = arith.addi %[[T]], %[[BS]] : index
  // CHECK: %[[I1:.*]] = arith.addi %[[O]], %[[J1]] : index
  // CHECK: memref.load %{{.*}}[%[[I1]]]
  // CHECK: gpu.barrier
  // CHECK: gpu.barrier
  gpu.func @transpose(%m: memref<?xi64>, %o: index) kernel {
    %0 = warp.block_load %m[%o] algorithm = <transpose> : memref<?xi64>, vector<2xi64>
    warp.block_store %0, %m[%o] algorithm = <direct> : vector<2xi64>, memref<?xi64>
    gpu.return
  }

  // Warp w's lanes read 32 w N + 32 j + l: each load coalesced in the warp;
  // a tile cut by valid reads only below it, the default past it.
  // CHECK-LABEL: gpu.func @warp_transpose
  // CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[O:.*]]: index, %[[N:.*]]: i32, %[[Z:.*]]: f32)
  // CHECK: %[[LIMIT:.*]] = arith.index_cast %[[N]] : i32 to index
  // CHECK: %[[L:.*]] = arith.remui %[[T:.*]], %c32 : index
  // CHECK: %[[W:.*]] = arith.subi %[[T]], %[[L]] : index
  // CHECK: %[[W4:.*]] = arith.muli %[[W]], %c4 : index
  // CHECK: %[[G:.*]] = arith.addi %[[W4]], %[[L]] : index
  // CHECK: %[[IN:.*]] = arith.cmpi slt, %[[G]], %[[LIMIT]] : index
  // CHECK: scf.if %[[IN]] -> (f32) {
  // CHECK: memref.load %[[M]]
  // CHECK: } else {
  // CHECK: scf.yield %[[Z]] : f32
  // CHECK: warp.exchange <striped_to_blocked> %{{.*}} : vector<4xf32>
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  gpu.func @warp_transpose(%m: memref<?xf32>, %o: index, %n: i32, %z: f32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.block_load %m[%o] valid %n default %z algorithm = <warp_transpose> : memref<?xf32>, vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %0, %m[%c0] : memref<?xf32>, vector<4xf32>
    gpu.return
  }
}
}
