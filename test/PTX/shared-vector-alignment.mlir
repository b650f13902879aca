// NVPTX merges the eight scalar reads of the warp totals into two
// ld.shared.v4 (16-byte accesses); the PTX must then declare the variable
// with 16-byte alignment, else the kernel faults with "misaligned address"
// (LLVM 22 keeps the natural .align 4; warp-align-gpu-memory raises it).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry totals(
// CHECK: .shared .align 16 .b8 __wg_totals_0[32];
// CHECK-COUNT-2: ld.shared.v4.b32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @totals(%in: memref<256xi32>, %out: memref<256xi32>)
        workgroup(%sm: memref<8xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %x = memref.load %in[%tid] : memref<256xi32>
      %s = warp.reduce <add> %x : i32
      %w = arith.divui %tid, %c32 : index
      memref.store %s, %sm[%w] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %v0 = memref.load %sm[%c0] : memref<8xi32, #gpu.address_space<workgroup>>
      %v1 = memref.load %sm[%c1] : memref<8xi32, #gpu.address_space<workgroup>>
      %v2 = memref.load %sm[%c2] : memref<8xi32, #gpu.address_space<workgroup>>
      %v3 = memref.load %sm[%c3] : memref<8xi32, #gpu.address_space<workgroup>>
      %v4 = memref.load %sm[%c4] : memref<8xi32, #gpu.address_space<workgroup>>
      %v5 = memref.load %sm[%c5] : memref<8xi32, #gpu.address_space<workgroup>>
      %v6 = memref.load %sm[%c6] : memref<8xi32, #gpu.address_space<workgroup>>
      %v7 = memref.load %sm[%c7] : memref<8xi32, #gpu.address_space<workgroup>>
      %a0 = arith.addi %v0, %v1 : i32
      %a1 = arith.addi %a0, %v2 : i32
      %a2 = arith.addi %a1, %v3 : i32
      %a3 = arith.addi %a2, %v4 : i32
      %a4 = arith.addi %a3, %v5 : i32
      %a5 = arith.addi %a4, %v6 : i32
      %a6 = arith.addi %a5, %v7 : i32
      memref.store %a6, %out[%tid] : memref<256xi32>
      gpu.return
    }
  }
}
