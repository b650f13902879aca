// warp-extern-dynamic-shared gives the dynamic shared memory base that
// convert-gpu-to-nvvm declares (an internal zero-length workgroup global)
// external linkage; other globals keep theirs.
// RUN: warp-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(warp-extern-dynamic-shared))' | FileCheck %s

// CHECK-LABEL: gpu.module @bases
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global external @other_base() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<0 x f32>
// A sized shared array, a zero-length global one: left alone.
// CHECK: llvm.mlir.global internal @sized() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i8>
// CHECK: llvm.mlir.global internal @global_zero() {addr_space = 1 : i32} : !llvm.array<0 x i8>
gpu.module @bases {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global private @other_base() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<0 x f32>
  llvm.mlir.global internal @sized() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global internal @global_zero() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}

// -----

// Through the whole pipeline: the PTX declares PTX's dynamic window, and a
// kernel with a static workgroup buffer besides keeps the two apart (with
// the base a one-byte static variable the dynamic buffer's bytes lay over
// the static one's). Each thread writes its id to the static buffer and
// 100 + id to the dynamic one, then reads both back reversed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/both.ptx
// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX-NOT: .b8 __dynamic_shmem__0;
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/both.ptx -o %t/both.cubin %}
// RUN: warp-sim %t/both.ptx --kernel k --block 32 --shared 128 memref:i32:32 memref:i32:32 | FileCheck %s --check-prefix=SIM
// SIM: buf0: 31 30 29 28 27 26 25 24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0{{$}}
// SIM-NEXT: buf1: 131 130 129 128 127 126 125 124 123 122 121 120 119 118 117 116 115 114 113 112 111 110 109 108 107 106 105 104 103 102 101 100{{$}}
module attributes {gpu.container_module} {
gpu.module @both {
  memref.global "private" @fixed : memref<32xi32, #gpu.address_space<workgroup>>
  gpu.func @k(%a: memref<32xi32>, %b: memref<32xi32>) kernel {
    %fixed = memref.get_global @fixed : memref<32xi32, #gpu.address_space<workgroup>>
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %dyn = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xi32, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x
    %t = arith.index_cast %tid : index to i32
    %c100 = arith.constant 100 : i32
    %t100 = arith.addi %t, %c100 : i32
    memref.store %t, %fixed[%tid] : memref<32xi32, #gpu.address_space<workgroup>>
    memref.store %t100, %dyn[%tid] : memref<32xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c31 = arith.constant 31 : index
    %r = arith.subi %c31, %tid : index
    %x = memref.load %fixed[%r] : memref<32xi32, #gpu.address_space<workgroup>>
    %y = memref.load %dyn[%r] : memref<32xi32, #gpu.address_space<workgroup>>
    memref.store %x, %a[%tid] : memref<32xi32>
    memref.store %y, %b[%tid] : memref<32xi32>
    gpu.return
  }
}
}
