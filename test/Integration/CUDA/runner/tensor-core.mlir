// The tensor-core data path through the runner: upstream's nvgpu cp.async
// (registered in the runner) fills shared tiles, warp.ldmatrix loads the
// fragments (A by x4, B by x2 transposed), warp.mma_sync multiplies, and
// each lane stores its D elements where the documented layout puts them.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// A is the 16 x 16 identity and B[k][n] = 8k + n, so D = B: the flattened
// D[i][n] at 8i + n is 8i + n, the list 0..127.
// CHECK: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @sa : memref<16x16xf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    memref.global "private" @sb : memref<16x8xf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @tile(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %out: memref<128xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %sa = memref.get_global @sa : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sb = memref.get_global @sb : memref<16x8xf16, #gpu.address_space<workgroup>>
      %lane = gpu.thread_id x
      // A: lane l copies row l / 2, columns 8 (l % 2) ..; B: lanes 0..15 a row.
      %arow = arith.divui %lane, %c2 : index
      %ahalf = arith.remui %lane, %c2 : index
      %acol = arith.muli %ahalf, %c8 : index
      %t0 = nvgpu.device_async_copy %a[%arow, %acol], %sa[%arow, %acol], 8 {bypassL1} : memref<16x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      %brow = arith.remui %lane, %c16 : index
      %t1 = nvgpu.device_async_copy %b[%brow, %c0], %sb[%brow, %c0], 8 {bypassL1} : memref<16x8xf16> to memref<16x8xf16, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %t0, %t1
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
      gpu.barrier
      // ldmatrix x4: lane 8m + r names A row r + 8 (m % 2), column 8 (m / 2).
      %m = arith.divui %lane, %c8 : index
      %r = arith.remui %lane, %c8 : index
      %mlow = arith.remui %m, %c2 : index
      %mhigh = arith.divui %m, %c2 : index
      %rowoff = arith.muli %mlow, %c8 : index
      %ldrow = arith.addi %r, %rowoff : index
      %ldcol = arith.muli %mhigh, %c8 : index
      %fa = warp.ldmatrix %sa[%ldrow, %ldcol] count = 4 : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<8xf16>
      %fb = warp.ldmatrix %sb[%brow, %c0] count = 2 transpose : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %d = warp.mma_sync %fa, %fb, %zero shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xf32>
      %di = arith.fptosi %d : vector<4xf32> to vector<4xi32>
      // Position i of lane l: row l / 4 + 8 (i / 2), column 2 (l % 4) + i % 2.
      %grp = arith.divui %lane, %c4 : index
      %tig = arith.remui %lane, %c4 : index
      %row0 = arith.muli %grp, %c8 : index
      %col0 = arith.muli %tig, %c2 : index
      %at0 = arith.addi %row0, %col0 : index
      %c64 = arith.constant 64 : index
      %at2 = arith.addi %at0, %c64 : index
      %lo = vector.shuffle %di, %di [0, 1] : vector<4xi32>, vector<4xi32>
      %hi = vector.shuffle %di, %di [2, 3] : vector<4xi32>, vector<4xi32>
      vector.store %lo, %out[%at0] : memref<128xi32>, vector<2xi32>
      vector.store %hi, %out[%at2] : memref<128xi32>, vector<2xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1.0 : f16
    %zero = arith.constant 0.0 : f16
    %a = memref.alloc() : memref<16x16xf16>
    %b = memref.alloc() : memref<16x8xf16>
    %out = memref.alloc() : memref<128xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %eq = arith.cmpi eq, %i, %k : index
        %v = arith.select %eq, %one, %zero : f16
        memref.store %v, %a[%i, %k] : memref<16x16xf16>
      }
      scf.for %n = %c0 to %c8 step %c1 {
        %i8 = arith.muli %i, %c8 : index
        %x = arith.addi %i8, %n : index
        %xi = arith.index_cast %x : index to i32
        %xf = arith.sitofp %xi : i32 to f16
        memref.store %xf, %b[%i, %n] : memref<16x8xf16>
      }
    }
    %ua = memref.cast %a : memref<16x16xf16> to memref<*xf16>
    %ub = memref.cast %b : memref<16x8xf16> to memref<*xf16>
    %uo = memref.cast %out : memref<128xi32> to memref<*xi32>
    gpu.host_register %ua : memref<*xf16>
    gpu.host_register %ub : memref<*xf16>
    gpu.host_register %uo : memref<*xi32>
    gpu.launch_func @kernels::@tile blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xf16>, %b : memref<16x8xf16>, %out : memref<128xi32>)
    call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
