// A kernel that executes block collectives and says nothing of its block
// size gets `nvvm.maxntid` 1024 (PTX `.maxntid`): the block ops promise any
// block size up to 1024, and ptxas then keeps the kernel to the 64
// registers a thread that such a launch needs (a block radix sort at 1024
// threads failed to launch without it). A known block size, a bound of the
// user's own, or no block op leaves the kernel as it is; a kernel whose
// block ops were outlined into functions it calls is bounded too.
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @unknown
  // CHECK-SAME: nvvm.maxntid = array<i32: 1024, 1, 1>
  // PTX-LABEL: .entry unknown
  // PTX: .maxntid 1024, 1, 1
  gpu.func @unknown(%k: vector<4xi32>, %out: memref<?xvector<4xi32>>) kernel {
    %c0 = arith.constant 0 : index
    %s = warp.block_radix_sort %k : vector<4xi32>
    memref.store %s, %out[%c0] : memref<?xvector<4xi32>>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @known
  // CHECK-NOT: nvvm.maxntid
  // CHECK-SAME: known_block_size
  gpu.func @known(%x: i32, %out: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <add> %x : i32
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @own_bound
  // CHECK-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
  gpu.func @own_bound(%x: i32, %out: memref<?xi32>) kernel
      attributes {nvvm.maxntid = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s = warp.block_reduce <add> %x : i32
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @no_block_op
  // CHECK-NOT: nvvm.maxntid
  // CHECK: gpu.return
  gpu.func @no_block_op(%x: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %s = warp.reduce <add> %x : i32
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: func.func private @outlined
  func.func private @outlined(%x: i32) -> i32 attributes {no_inline} {
    %s = warp.block_reduce <add> %x : i32
    return %s : i32
  }
  // CHECK-LABEL: gpu.func @calls
  // CHECK-SAME: nvvm.maxntid = array<i32: 1024, 1, 1>
  gpu.func @calls(%x: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %s = func.call @outlined(%x) : (i32) -> i32
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }
}
}
