// The cases upstream's GPU/CUDA integration tests cover, through the warp
// pipeline: gpu.all_reduce by op and by region, several all-reduces in one
// kernel, over a 2-D block of 47 x 2 = 94 threads (ragged last warp).
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// Thread t (linear id, 0..93) holds t. Sum 0..93 = 4371; max = 93;
// and of (t | 0x100) = 0x100 = 256; sum of 2t = 8742.
// CHECK: [4371{{(, 4371)+}}]
// CHECK: [93{{(, 93)+}}]
// CHECK: [256{{(, 256)+}}]
// CHECK: [8742{{(, 8742)+}}]

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c47 = arith.constant 47 : index
    %sum = memref.alloc() : memref<94xi32>
    %max = memref.alloc() : memref<94xi32>
    %and = memref.alloc() : memref<94xi32>
    %twice = memref.alloc() : memref<94xi32>
    %a = memref.cast %sum : memref<94xi32> to memref<*xi32>
    %b = memref.cast %max : memref<94xi32> to memref<*xi32>
    %c = memref.cast %and : memref<94xi32> to memref<*xi32>
    %d = memref.cast %twice : memref<94xi32> to memref<*xi32>
    gpu.host_register %a : memref<*xi32>
    gpu.host_register %b : memref<*xi32>
    gpu.host_register %c : memref<*xi32>
    gpu.host_register %d : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c47, %sy = %c2, %sz = %c1) {
      %row = arith.muli %ty, %sx : index
      %t = arith.addi %row, %tx : index
      %v = arith.index_cast %t : index to i32
      %s = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
      memref.store %s, %sum[%t] : memref<94xi32>
      %m = gpu.all_reduce %v uniform {
      ^bb(%lhs : i32, %rhs : i32):
        %r = arith.maxsi %lhs, %rhs : i32
        gpu.yield %r : i32
      } : (i32) -> (i32)
      memref.store %m, %max[%t] : memref<94xi32>
      %bit = arith.constant 256 : i32
      %w = arith.ori %v, %bit : i32
      %n = gpu.all_reduce and %w uniform {} : (i32) -> (i32)
      memref.store %n, %and[%t] : memref<94xi32>
      %two = arith.constant 2 : i32
      %v2 = arith.muli %v, %two : i32
      // A region of several ops (the combiner region of a block reduce).
      %s2 = gpu.all_reduce %v2 uniform {
      ^bb(%lhs : i32, %rhs : i32):
        %zero = arith.constant 0 : i32
        %p = arith.addi %lhs, %rhs : i32
        %r = arith.ori %p, %zero : i32
        gpu.yield %r : i32
      } : (i32) -> (i32)
      memref.store %s2, %twice[%t] : memref<94xi32>
      gpu.terminator
    }
    call @printMemrefI32(%a) : (memref<*xi32>) -> ()
    call @printMemrefI32(%b) : (memref<*xi32>) -> ()
    call @printMemrefI32(%c) : (memref<*xi32>) -> ()
    call @printMemrefI32(%d) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
}
