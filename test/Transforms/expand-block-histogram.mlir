// warp.block_histogram: a barrier, the counters zeroed (thread t: t, t + B,
// ...) and a barrier unless the op accumulates, one atomic add per sample
// below the bins' count (zero-extended: a sample is an unsigned bin
// number), a barrier. warp_aggregated adds through warp.atomic_rmw (one add
// per distinct bin in a warp).
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  memref.global "private" @bins : memref<256xi32, #gpu.address_space<workgroup>>
  memref.global "private" @few : memref<17xi32, #gpu.address_space<workgroup>>

  // CHECK-LABEL: gpu.func @histogram
  // CHECK-SAME: (%[[S:.*]]: vector<2xi8>)
  // CHECK: %[[BINS:.*]] = memref.get_global @bins
  // CHECK: %[[T:.*]] = gpu.thread_id x
  // CHECK: gpu.barrier
  // CHECK: scf.for %[[I:.*]] = %[[T]] to %c256 step %c128 {
  // CHECK:   memref.store %c0_i32, %[[BINS]][%[[I]]]
  // CHECK: gpu.barrier
  // CHECK: %[[X0:.*]] = vector.extract %[[S]][0] : i8 from vector<2xi8>
  // CHECK: %[[B0:.*]] = arith.index_castui %[[X0]] : i8 to index
  // CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[B0]], %c256 : index
  // CHECK: scf.if %[[IN0]] {
  // CHECK:   memref.atomic_rmw addi %c1_i32, %[[BINS]][%[[B0]]]
  // CHECK: vector.extract %[[S]][1]
  // CHECK: memref.atomic_rmw addi
  // CHECK: gpu.barrier
  // CHECK-NEXT: gpu.return
  // PTX-LABEL: .entry histogram
  // PTX-COUNT-2: atom.shared.add.u32
  gpu.func @histogram(%s: vector<2xi8>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %bins = memref.get_global @bins : memref<256xi32, #gpu.address_space<workgroup>>
    warp.block_histogram %s into %bins : vector<2xi8>, memref<256xi32, #gpu.address_space<workgroup>>
    gpu.return
  }

  // Accumulating: no zeroing, one barrier before and one after.
  // CHECK-LABEL: gpu.func @composite
  // CHECK: gpu.barrier
  // CHECK-NOT: scf.for
  // CHECK-NOT: gpu.barrier
  // CHECK: warp.atomic_rmw <add> %c1_i64, %{{.*}}[%{{.*}}] : i64, memref<?xi64>
  // CHECK: gpu.barrier
  gpu.func @composite(%s: vector<1xi32>, %bins: memref<?xi64>) kernel {
    warp.block_histogram %s into %bins accumulate algorithm = <warp_aggregated> : vector<1xi32>, memref<?xi64>
    gpu.return
  }

  // sort (CUB's BLOCK_HISTO_SORT): the samples clamped to the 17 bins
  // (bit_width(17) = 5 bits sorted), a block radix sort (expanded here:
  // its passes' barriers), each sample's successor from a shift down, then
  // at each run's end its position + 1 added to its bin and subtracted
  // from the next run's.
  // CHECK-LABEL: gpu.func @sorted
  // CHECK: arith.minui %{{.*}}, %cst{{.*}} : vector<4xi32>
  // CHECK: gpu.barrier
  // CHECK: %[[LAST:.*]] = arith.cmpi eq, %thread_id_x, %c95 : index
  // CHECK: %[[D0:.*]] = arith.cmpi ne
  // CHECK: scf.if %[[D0]] {
  // CHECK: memref.atomic_rmw addi
  // CHECK: arith.subi
  // CHECK: memref.atomic_rmw addi
  // CHECK: arith.ori %{{.*}}, %[[LAST]] : i1
  // CHECK: gpu.barrier
  // CHECK-NEXT: gpu.return
  // PTX-LABEL: .entry sorted
  // PTX: atom.shared.add.u32
  gpu.func @sorted(%s: vector<4xi32>) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %bins = memref.get_global @few : memref<17xi32, #gpu.address_space<workgroup>>
    warp.block_histogram %s into %bins accumulate algorithm = <sort> : vector<4xi32>, memref<17xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
}
