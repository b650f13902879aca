// Warp reductions on the GPU, printed from the host.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// Lane i holds float(i).
// Whole warp: every lane gets 0 + 1 + ... + 31 = 496.
// CHECK: [496{{(, 496)+}}]
// Clusters of 8: lanes 8k..8k+7 get 64k + 28.
// CHECK: [28, 28, 28, 28, 28, 28, 28, 28, 92, 92, 92, 92, 92, 92, 92, 92, 156, 156, 156, 156, 156, 156, 156, 156, 220, 220, 220, 220, 220, 220, 220, 220]
// maxsi over clusters of 4 with stride 8 (lanes r, r+8, r+16, r+24): r + 24.
// CHECK: [24, 25, 26, 27, 28, 29, 30, 31, 24, 25, 26, 27, 28, 29, 30, 31, 24, 25, 26, 27, 28, 29, 30, 31, 24, 25, 26, 27, 28, 29, 30, 31]
// Partial warp, first 5 lanes, tree: 0 + 1 + 2 + 3 + 4 = 10 in every lane.
// CHECK: [10{{(, 10)+}}]
// i32 add through redux.sync (sm_80+): 496.
// CHECK: [496{{(, 496)+}}]

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %sum = memref.alloc() : memref<32xf32>
    %clustered = memref.alloc() : memref<32xf32>
    %strided = memref.alloc() : memref<32xi32>
    %partial = memref.alloc() : memref<32xf32>
    %redux = memref.alloc() : memref<32xi32>
    %s = memref.cast %sum : memref<32xf32> to memref<*xf32>
    %c = memref.cast %clustered : memref<32xf32> to memref<*xf32>
    %st = memref.cast %strided : memref<32xi32> to memref<*xi32>
    %p = memref.cast %partial : memref<32xf32> to memref<*xf32>
    %r = memref.cast %redux : memref<32xi32> to memref<*xi32>
    gpu.host_register %s : memref<*xf32>
    gpu.host_register %c : memref<*xf32>
    gpu.host_register %st : memref<*xi32>
    gpu.host_register %p : memref<*xf32>
    gpu.host_register %r : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %lane = arith.index_cast %tx : index to i32
      %x = arith.sitofp %lane : i32 to f32
      %r0 = warp.reduce <add> %x : f32
      memref.store %r0, %sum[%tx] : memref<32xf32>
      %r1 = warp.reduce <add> %x cluster_size = 8 : f32
      memref.store %r1, %clustered[%tx] : memref<32xf32>
      %r2 = warp.reduce <maxsi> %lane cluster_size = 4 cluster_stride = 8 : i32
      memref.store %r2, %strided[%tx] : memref<32xi32>
      %n = arith.constant 5 : i32
      %r3 = warp.reduce <add> %x valid_lanes %n : f32
      memref.store %r3, %partial[%tx] : memref<32xf32>
      %r4 = warp.reduce <add> %lane : i32
      memref.store %r4, %redux[%tx] : memref<32xi32>
      gpu.terminator
    }
    call @printMemrefF32(%s) : (memref<*xf32>) -> ()
    call @printMemrefF32(%c) : (memref<*xf32>) -> ()
    call @printMemrefI32(%st) : (memref<*xi32>) -> ()
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    call @printMemrefI32(%r) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
}
