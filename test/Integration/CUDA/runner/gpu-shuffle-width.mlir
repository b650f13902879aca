// Upstream's gpu.shuffle keeps upstream's meaning of `width` through the warp
// pipeline (convert-gpu-to-warp), as upstream's own integration program
// (GPU/CUDA/shuffle.mlir) runs it: a block of 13 threads, width = the block
// size (a run-time width that is not a power of two), lanes whose read is not
// valid store -1. `width` is the number of lanes taking part, 0..12, no
// segments; a read of a lane >= 13 is not valid.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// xor 4: lane l reads l ^ 4; lanes 9, 10, 11 would read 13, 14, 15.
// CHECK: [4, 5, 6, 7, 0, 1, 2, 3, 12, -1, -1, -1, 8]
// The same with the constant width 13.
// CHECK: [4, 5, 6, 7, 0, 1, 2, 3, 12, -1, -1, -1, 8]
// up 3: lane l reads l - 3, valid for l >= 3 (no segment boundary at 8 or
// 16, and not every lane's own value as upstream's clamp 32 - 13 would give).
// CHECK: [-1, -1, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
// down 3: lane l reads l + 3, valid for l + 3 <= 12.
// CHECK: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, -1, -1, -1]
// idx 11: every lane reads lane 11 (below 13: valid).
// CHECK: [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11]
// idx 13: lane 13 is not below 13: no lane's read is valid.
// CHECK: [-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]

module attributes {gpu.container_module} {
  func.func @main() {
    %one = arith.constant 1 : index
    %c13 = arith.constant 13 : index
    %b0 = memref.alloc() : memref<13xf32>
    %b1 = memref.alloc() : memref<13xf32>
    %b2 = memref.alloc() : memref<13xf32>
    %b3 = memref.alloc() : memref<13xf32>
    %b4 = memref.alloc() : memref<13xf32>
    %b5 = memref.alloc() : memref<13xf32>
    %u0 = memref.cast %b0 : memref<13xf32> to memref<*xf32>
    %u1 = memref.cast %b1 : memref<13xf32> to memref<*xf32>
    %u2 = memref.cast %b2 : memref<13xf32> to memref<*xf32>
    %u3 = memref.cast %b3 : memref<13xf32> to memref<*xf32>
    %u4 = memref.cast %b4 : memref<13xf32> to memref<*xf32>
    %u5 = memref.cast %b5 : memref<13xf32> to memref<*xf32>
    gpu.host_register %u0 : memref<*xf32>
    gpu.host_register %u1 : memref<*xf32>
    gpu.host_register %u2 : memref<*xf32>
    gpu.host_register %u3 : memref<*xf32>
    gpu.host_register %u4 : memref<*xf32>
    gpu.host_register %u5 : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
               threads(%tx, %ty, %tz) in (%sx = %c13, %sy = %one, %sz = %one) {
      %lane = arith.index_cast %tx : index to i32
      %val = arith.sitofp %lane : i32 to f32
      %width = arith.index_cast %sx : index to i32
      %k3 = arith.constant 3 : i32
      %k4 = arith.constant 4 : i32
      %k11 = arith.constant 11 : i32
      %k13 = arith.constant 13 : i32
      %none = arith.constant -1.0 : f32
      %r0, %v0 = gpu.shuffle xor %val, %k4, %width : f32
      %r1, %v1 = gpu.shuffle xor %val, %k4, %k13 : f32
      %r2, %v2 = gpu.shuffle up %val, %k3, %width : f32
      %r3, %v3 = gpu.shuffle down %val, %k3, %width : f32
      %r4, %v4 = gpu.shuffle idx %val, %k11, %width : f32
      %r5, %v5 = gpu.shuffle idx %val, %k13, %width : f32
      %s0 = arith.select %v0, %r0, %none : f32
      %s1 = arith.select %v1, %r1, %none : f32
      %s2 = arith.select %v2, %r2, %none : f32
      %s3 = arith.select %v3, %r3, %none : f32
      %s4 = arith.select %v4, %r4, %none : f32
      %s5 = arith.select %v5, %r5, %none : f32
      memref.store %s0, %b0[%tx] : memref<13xf32>
      memref.store %s1, %b1[%tx] : memref<13xf32>
      memref.store %s2, %b2[%tx] : memref<13xf32>
      memref.store %s3, %b3[%tx] : memref<13xf32>
      memref.store %s4, %b4[%tx] : memref<13xf32>
      memref.store %s5, %b5[%tx] : memref<13xf32>
      gpu.terminator
    }
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
}
