// Code-shape levers of the device-wide benchmarks (benchmarks/device,
// issue 12), as MLIR 22 lowers them to PTX through warp-lower-to-ptx:
//  - 16-byte vector loads need the alignment stated: vector.load without it
//    is split into four 32-bit loads; memref<?xvector<4xf32>> or
//    `alignment = 16` gives one ld.global.v4;
//  - the read-only path (ld.global.nc) comes from `llvm.noalias` +
//    `llvm.readonly` on a memref kernel argument (the pipeline puts them on
//    the descriptor's aligned pointer: read-only-args.mlir) or from
//    `llvm.load ... invariant`; only the attributes survive LLVM splitting
//    a vector load whose lanes are used apart (the metadata is dropped).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null 2>%t.err
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// Upstream's "Cannot copy noalias with non-bare pointers" is gone.
// QUIET-NOT: warning

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
  // CHECK: ld.global.nc.v4.b32
  // CHECK-NOT: ld.global
  // CHECK: ret;
  gpu.func @noalias_readonly_argument(%in: memref<?xvector<4xf32>> {llvm.noalias, llvm.readonly},
                                      %out: memref<?xvector<4xf32>>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<?xvector<4xf32>>
    memref.store %v, %out[%t] : memref<?xvector<4xf32>>
    gpu.return
  }

  // out[i .. i+3] = the inclusive prefix sums of v's lanes.
  func.func @store_prefix_sums(%v: vector<4xi32>, %out: memref<?xi32>, %i: index) {
    %a = vector.extract %v[0] : i32 from vector<4xi32>
    %b = vector.extract %v[1] : i32 from vector<4xi32>
    %c = vector.extract %v[2] : i32 from vector<4xi32>
    %d = vector.extract %v[3] : i32 from vector<4xi32>
    %ab = arith.addi %a, %b : i32
    %abc = arith.addi %ab, %c : i32
    %abcd = arith.addi %abc, %d : i32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %i3 = arith.addi %i, %c3 : index
    memref.store %a, %out[%i] : memref<?xi32>
    memref.store %ab, %out[%i1] : memref<?xi32>
    memref.store %abc, %out[%i2] : memref<?xi32>
    memref.store %abcd, %out[%i3] : memref<?xi32>
    return
  }

  // A 16-byte load whose four lanes are used apart: LLVM splits it into
  // scalar loads and puts them back together as one ld.global.v4, dropping
  // !invariant.load on the way; the argument attributes stay on the
  // pointer, so the load stays on the read-only path.
  // CHECK-LABEL: .entry split_vector_invariant(
  // CHECK-NOT: ld.global.nc
  // CHECK: ld.global.v4.b32
  // CHECK-NOT: ld.global
  // CHECK: ret;
  gpu.func @split_vector_invariant(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %p = memref.extract_aligned_pointer_as_index %in : memref<?xi32> -> index
    %p64 = arith.index_cast %p : index to i64
    %base = llvm.inttoptr %p64 : i64 to !llvm.ptr<1>
    %t64 = arith.index_cast %t : index to i64
    %at = llvm.getelementptr inbounds %base[%t64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
    %v = llvm.load %at invariant {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
    %c4 = arith.constant 4 : index
    %i = arith.muli %t, %c4 : index
    func.call @store_prefix_sums(%v, %out, %i) : (vector<4xi32>, memref<?xi32>, index) -> ()
    gpu.return
  }

  // CHECK-LABEL: .entry split_vector_argument(
  // CHECK: ld.global.nc.v4.b32
  // CHECK-NOT: ld.global
  // CHECK: ret;
  gpu.func @split_vector_argument(%in: memref<?xi32> {llvm.noalias, llvm.readonly}, %out: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %i = arith.muli %t, %c4 : index
    %v = vector.load %in[%i] {alignment = 16} : memref<?xi32>, vector<4xi32>
    func.call @store_prefix_sums(%v, %out, %i) : (vector<4xi32>, memref<?xi32>, index) -> ()
    gpu.return
  }
}
}
