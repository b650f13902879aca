// warp.load / warp.store (CUB WarpLoad / WarpStore): each algorithm's
// accesses to the warp's tile of 32 N items at the warp's offset. direct:
// lane l's item j at l N + j, or l + 32 j striped; vectorize: vector
// accesses where the tile's first item is aligned, the items one by one
// elsewhere; transpose: warp-striped accesses and a warp.exchange, no
// barrier; valid: each access guarded, `default` past it.
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.sm70.ptx
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // One 16-byte access per lane at offset + 4 l where the tile is aligned.
  // CHECK-LABEL: gpu.func @vectorize
  // CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[O:.*]]: index)
  // CHECK: %[[LANE:.*]] = warp.lane_id
  // CHECK: %[[L:.*]] = arith.index_castui %[[LANE]] : i32 to index
  // CHECK: memref.extract_aligned_pointer_as_index %[[M]]
  // CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
  // CHECK: %[[L4:.*]] = arith.muli %[[L]], %c4 : index
  // CHECK: %[[I:.*]] = arith.addi %[[O]], %[[L4]] : index
  // CHECK: vector.load %[[M]][%[[I]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
  // CHECK: } else {
  // CHECK-COUNT-4: memref.load %[[M]]
  // CHECK: }
  // CHECK: vector.store %{{.*}}, %[[M]][%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
  // PTX-LABEL: .entry vectorize
  // PTX: ld.global.v4.b32
  // PTX: st.global.v4.b32
  // PTX: ret;
  gpu.func @vectorize(%m: memref<?xf32>, %o: index) kernel {
    %0 = warp.load %m[%o] algorithm = <vectorize> : memref<?xf32>, vector<4xf32>
    warp.store %0, %m[%o] algorithm = <vectorize> : vector<4xf32>, memref<?xf32>
    gpu.return
  }

  // Lane l's item j at l + 32 j, then the warp's exchange; the store
  // exchanges back and writes the same positions. No barrier.
  // With valid, vectorize is direct: guarded items, no vector access.
  // CHECK-LABEL: gpu.func @vectorize_valid
  // CHECK-NOT: vector.load
  // CHECK: scf.if %{{.*}} -> (f32) {
  // CHECK: memref.load
  // CHECK-NOT: vector.store {{.*}} : memref<?xf32>, vector<4xf32>
  // CHECK: gpu.return
  gpu.func @vectorize_valid(%m: memref<?xf32>, %o: index, %n: i32, %z: f32) kernel {
    %0 = warp.load %m[%o] valid %n default %z algorithm = <vectorize> : memref<?xf32>, vector<4xf32>
    warp.store %0, %m[%o] valid %n algorithm = <vectorize> : vector<4xf32>, memref<?xf32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @transpose
  // CHECK-SAME: (%[[M:.*]]: memref<?xi64>, %[[O:.*]]: index)
  // CHECK: %[[L:.*]] = arith.index_castui %{{.*}} : i32 to index
  // CHECK: %[[I0:.*]] = arith.addi %[[O]], %[[L]] : index
  // CHECK: memref.load %[[M]][%[[I0]]]
  // CHECK: %[[J1:.*]] = arith.addi %[[L]], %c32 : index
  // CHECK: %[[I1:.*]] = arith.addi %[[O]], %[[J1]] : index
  // CHECK: memref.load %[[M]][%[[I1]]]
  // CHECK: %[[B:.*]] = warp.exchange <striped_to_blocked> %{{.*}} : vector<2xi64>
  // CHECK: %[[S:.*]] = warp.exchange <blocked_to_striped> %[[B]] : vector<2xi64>
  // CHECK: memref.store %{{.*}}, %[[M]][%[[I0]]]
  // CHECK: memref.store %{{.*}}, %[[M]][%[[I1]]]
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry transpose
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @transpose(%m: memref<?xi64>, %o: index) kernel {
    %0 = warp.load %m[%o] algorithm = <transpose> : memref<?xi64>, vector<2xi64>
    warp.store %0, %m[%o] algorithm = <transpose> : vector<2xi64>, memref<?xi64>
    gpu.return
  }

  // Blocked items l N + j below valid, the default past it; a striped
  // store writes l + 32 j below valid.
  // CHECK-LABEL: gpu.func @direct_valid
  // CHECK-SAME: (%[[M:.*]]: memref<?xi8>, %[[O:.*]]: index, %[[N:.*]]: i32, %[[Z:.*]]: i8)
  // CHECK: %[[L:.*]] = arith.index_castui %{{.*}} : i32 to index
  // CHECK: %[[LIMIT:.*]] = arith.index_cast %[[N]] : i32 to index
  // CHECK: %[[G0:.*]] = arith.muli %[[L]], %c2 : index
  // CHECK: %[[IN0:.*]] = arith.cmpi slt, %[[G0]], %[[LIMIT]] : index
  // CHECK: scf.if %[[IN0]] -> (i8) {
  // CHECK: %[[I0:.*]] = arith.addi %[[O]], %[[G0]] : index
  // CHECK: memref.load %[[M]][%[[I0]]]
  // CHECK: } else {
  // CHECK: scf.yield %[[Z]] : i8
  // CHECK: %[[G1:.*]] = arith.addi %[[G0]], %c1 : index
  // CHECK: arith.cmpi slt, %[[G1]], %[[LIMIT]] : index
  // CHECK: arith.cmpi slt, %[[L]], %[[LIMIT]] : index
  // CHECK: %[[S1:.*]] = arith.addi %[[L]], %c32 : index
  // CHECK: %[[IN:.*]] = arith.cmpi slt, %[[S1]], %[[LIMIT]] : index
  // CHECK: scf.if %[[IN]] {
  // CHECK: memref.store
  gpu.func @direct_valid(%m: memref<?xi8>, %o: index, %n: i32, %z: i8) kernel {
    %0 = warp.load %m[%o] valid %n default %z algorithm = <direct> : memref<?xi8>, vector<2xi8>
    warp.store %0, %m[%o] valid %n striped : vector<2xi8>, memref<?xi8>
    gpu.return
  }

  // Logical warps of 8 lanes (CUB's LOGICAL_WARP_THREADS): the lane's rank
  // r = lane & 7 in place of the lane, blocked r N + j from its own
  // tile's offset, striped r + 8 j; the vectorized load's check is the
  // lane's own tile's alignment.
  // CHECK-LABEL: gpu.func @logical
  // CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[O:.*]]: index)
  // CHECK: %[[LANE:.*]] = arith.index_castui %{{.*}} : i32 to index
  // CHECK: %[[R:.*]] = arith.andi %[[LANE]], %c7 : index
  // CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
  // CHECK: %[[R4:.*]] = arith.muli %[[R]], %c4 : index
  // CHECK: %[[I:.*]] = arith.addi %[[O]], %[[R4]] : index
  // CHECK: vector.load %[[M]][%[[I]]] {alignment = 16 : i64}
  // CHECK: %[[S0:.*]] = arith.addi %[[O]], %[[R]] : index
  // CHECK: memref.store %{{.*}}, %[[M]][%[[S0]]]
  // CHECK: %[[J1:.*]] = arith.addi %[[R]], %c8 : index
  // CHECK: %[[S1:.*]] = arith.addi %[[O]], %[[J1]] : index
  // CHECK: memref.store %{{.*}}, %[[M]][%[[S1]]]
  // CHECK-NOT: warp.exchange
  // CHECK: gpu.return
  // PTX-LABEL: .entry logical
  // PTX: ld.global.v4.b32
  // PTX: ret;
  gpu.func @logical(%m: memref<?xf32>, %o: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.load %m[%o] width 8 : memref<?xf32>, vector<4xf32>
    warp.store %0, %m[%o] width 8 striped : vector<4xf32>, memref<?xf32>
    gpu.return
  }
}
}
