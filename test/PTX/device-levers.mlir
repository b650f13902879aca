// Code-shape levers of the device-wide benchmarks (benchmarks/device,
// issue 12), as MLIR 22 lowers them to PTX through warp-lower-to-ptx:
//  - 16-byte vector loads need the alignment stated: vector.load without it
//    is split into four 32-bit loads; memref<?xvector<4xf32>> or
//    `alignment = 16` gives one ld.global.v4;
//  - the read-only path (ld.global.nc) comes from `llvm.load ... invariant`;
//    `llvm.noalias` on a memref kernel argument is dropped with a warning
//    (the descriptor is not a bare pointer), so it never reaches PTX.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null 2>%t.err
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// WARN: warning: Cannot copy noalias with non-bare pointers.

module attributes {gpu.container_module} {
gpu.module @levers {
  // CHECK-LABEL: .entry unaligned_vector_load(
  // CHECK-COUNT-4: ld.global.b32
  // CHECK-NOT: ld.global
  // CHECK: ret;
  gpu.func @unaligned_vector_load(%in: memref<?xf32>, %out: memref<?xvector<4xf32>>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %i = arith.muli %t, %c4 : index
    %v = vector.load %in[%i] : memref<?xf32>, vector<4xf32>
    memref.store %v, %out[%t] : memref<?xvector<4xf32>>
    gpu.return
  }

  // CHECK-LABEL: .entry aligned_vector_load(
  // CHECK: ld.global.v4.b32
  // CHECK-NOT: ld.global
  // CHECK: st.global.v4.b32
  // CHECK: ret;
  gpu.func @aligned_vector_load(%in: memref<?xf32>, %out: memref<?xvector<4xf32>>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %i = arith.muli %t, %c4 : index
    %v = vector.load %in[%i] {alignment = 16} : memref<?xf32>, vector<4xf32>
    memref.store %v, %out[%t] : memref<?xvector<4xf32>>
    gpu.return
  }

  // CHECK-LABEL: .entry memref_of_vectors(
  // CHECK: ld.global.v4.b32
  // CHECK-NOT: ld.global
  // CHECK: ret;
  gpu.func @memref_of_vectors(%in: memref<?xvector<4xf32>>, %out: memref<?xvector<4xf32>>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<?xvector<4xf32>>
    memref.store %v, %out[%t] : memref<?xvector<4xf32>>
    gpu.return
  }

  // CHECK-LABEL: .entry invariant_load(
  // CHECK: ld.global.nc.v4.b32
  // CHECK-NOT: ld.global
  // CHECK: ret;
  gpu.func @invariant_load(%in: memref<?xf32>, %out: memref<?xvector<4xf32>>) kernel {
    %t = gpu.thread_id x
    %p = memref.extract_aligned_pointer_as_index %in : memref<?xf32> -> index
    %p64 = arith.index_cast %p : index to i64
    %base = llvm.inttoptr %p64 : i64 to !llvm.ptr<1>
    %t64 = arith.index_cast %t : index to i64
    %at = llvm.getelementptr inbounds %base[%t64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xf32>
    %v = llvm.load %at invariant {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
    memref.store %v, %out[%t] : memref<?xvector<4xf32>>
    gpu.return
  }

  // CHECK-LABEL: .entry noalias_readonly_argument(
  // CHECK-NOT: ld.global.nc
  // CHECK: ld.global.v4.b32
  // CHECK: ret;
  gpu.func @noalias_readonly_argument(%in: memref<?xvector<4xf32>> {llvm.noalias, llvm.readonly},
                                      %out: memref<?xvector<4xf32>>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<?xvector<4xf32>>
    memref.store %v, %out[%t] : memref<?xvector<4xf32>>
    gpu.return
  }
}
}
