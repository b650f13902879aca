// Shuffles with CUDA's width segments, on the GPU.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// Lane i holds i. Width 16, up by 1: the first lane of each segment keeps its
// own value and is not valid.
// CHECK: [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]
// CHECK: [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
// Width 8, down by 3: positions 5..7 of each segment keep their value.
// CHECK: [3, 4, 5, 6, 7, 5, 6, 7, 11, 12, 13, 14, 15, 13, 14, 15, 19, 20, 21, 22, 23, 21, 22, 23, 27, 28, 29, 30, 31, 29, 30, 31]
// Width 4, xor 5: lane ^ 5 is in another segment. Reading an earlier one is
// allowed (lanes 4..7 of each 8 read lanes 1, 0, 3, 2 below them); a later
// one is not (lanes 0..3 of each 8 keep their own value).
// CHECK: [0, 1, 2, 3, 1, 0, 3, 2, 8, 9, 10, 11, 9, 8, 11, 10, 16, 17, 18, 19, 17, 16, 19, 18, 24, 25, 26, 27, 25, 24, 27, 26]
// Width 2, idx 3: srcLane mod 2 = 1 inside each pair.
// CHECK: [1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15, 17, 17, 19, 19, 21, 21, 23, 23, 25, 25, 27, 27, 29, 29, 31, 31]
// 64-bit: lane i holds (i << 32) | (100 + i); xor 1 swaps pairs, both halves.
// Lane 0 reads lane 1: (1 << 32) | 101; lane 1 reads lane 0: 100.
// CHECK: [4294967397, 100, 12884901991, 8589934694,
// f16x2 in one shuffle: lane i holds (i, -i); idx 31 broadcasts (31, -31).
// CHECK: [31, -31, 31, -31,

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %up = memref.alloc() : memref<32xi32>
    %upv = memref.alloc() : memref<32xi32>
    %down = memref.alloc() : memref<32xi32>
    %xor = memref.alloc() : memref<32xi32>
    %idx = memref.alloc() : memref<32xi32>
    %wide = memref.alloc() : memref<32xi64>
    %half = memref.alloc() : memref<64xf32>
    %a = memref.cast %up : memref<32xi32> to memref<*xi32>
    %b = memref.cast %upv : memref<32xi32> to memref<*xi32>
    %c = memref.cast %down : memref<32xi32> to memref<*xi32>
    %d = memref.cast %xor : memref<32xi32> to memref<*xi32>
    %e = memref.cast %idx : memref<32xi32> to memref<*xi32>
    %f = memref.cast %wide : memref<32xi64> to memref<*xi64>
    %g = memref.cast %half : memref<64xf32> to memref<*xf32>
    gpu.host_register %a : memref<*xi32>
    gpu.host_register %b : memref<*xi32>
    gpu.host_register %c : memref<*xi32>
    gpu.host_register %d : memref<*xi32>
    gpu.host_register %e : memref<*xi32>
    gpu.host_register %f : memref<*xi64>
    gpu.host_register %g : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %lane = arith.index_cast %tx : index to i32
      %k1 = arith.constant 1 : i32
      %k3 = arith.constant 3 : i32
      %k5 = arith.constant 5 : i32
      %k31 = arith.constant 31 : i32
      %v0, %ok0 = warp.shuffle <up> %lane, %k1 width 16 : i32
      memref.store %v0, %up[%tx] : memref<32xi32>
      %okw = arith.extui %ok0 : i1 to i32
      memref.store %okw, %upv[%tx] : memref<32xi32>
      %v1, %ok1 = warp.shuffle <down> %lane, %k3 width 8 : i32
      memref.store %v1, %down[%tx] : memref<32xi32>
      %v2, %ok2 = warp.shuffle <xor> %lane, %k5 width 4 : i32
      memref.store %v2, %xor[%tx] : memref<32xi32>
      %v3, %ok3 = warp.shuffle <idx> %lane, %k3 width 2 : i32
      memref.store %v3, %idx[%tx] : memref<32xi32>
      %l64 = arith.extui %lane : i32 to i64
      %c32_i64 = arith.constant 32 : i64
      %c100 = arith.constant 100 : i64
      %hi = arith.shli %l64, %c32_i64 : i64
      %lo = arith.addi %l64, %c100 : i64
      %w = arith.ori %hi, %lo : i64
      %v4, %ok4 = warp.shuffle <xor> %w, %k1 : i64
      memref.store %v4, %wide[%tx] : memref<32xi64>
      %xf = arith.sitofp %lane : i32 to f16
      %nf = arith.negf %xf : f16
      %pair = vector.from_elements %xf, %nf : vector<2xf16>
      %v5, %ok5 = warp.shuffle <idx> %pair, %k31 : vector<2xf16>
      %e0 = vector.extract %v5[0] : f16 from vector<2xf16>
      %e1 = vector.extract %v5[1] : f16 from vector<2xf16>
      %f0 = arith.extf %e0 : f16 to f32
      %f1 = arith.extf %e1 : f16 to f32
      %two = arith.constant 2 : index
      %i0 = arith.muli %tx, %two : index
      %i1 = arith.addi %i0, %c1 : index
      memref.store %f0, %half[%i0] : memref<64xf32>
      memref.store %f1, %half[%i1] : memref<64xf32>
      gpu.terminator
    }
    call @printMemrefI32(%a) : (memref<*xi32>) -> ()
    call @printMemrefI32(%b) : (memref<*xi32>) -> ()
    call @printMemrefI32(%c) : (memref<*xi32>) -> ()
    call @printMemrefI32(%d) : (memref<*xi32>) -> ()
    call @printMemrefI32(%e) : (memref<*xi32>) -> ()
    call @printMemrefI64(%f) : (memref<*xi64>) -> ()
    call @printMemrefF32(%g) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
}
