// Upstream's nvgpu TMA path through the runner (sm_90): the host makes a
// tensor map of a 12 x 12 f32 array in device memory
// (nvgpu.tma.create.descriptor, mgpuTensorMapEncodeTiledMemref in warp's
// CUDA runtime), and one block loads the 8 x 8 box at row 8, column 4 into
// shared memory (nvgpu.tma.async.load, completing its 256 bytes on an
// nvgpu.mbarrier armed with expect_tx) and copies it out. The box reaches
// past the array's last 4 rows: those arrive as zeros (oob = zero).
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// x[r][c] = 100 r + c; out[i][j] = x[8 + i][4 + j] where 8 + i < 12.
// CHECK: [804, 805, 806, 807, 808, 809, 810, 811],
// CHECK-NEXT: [904, 905, 906, 907, 908, 909, 910, 911],
// CHECK-NEXT: [1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011],
// CHECK-NEXT: [1104, 1105, 1106, 1107, 1108, 1109, 1110, 1111],
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 0, 0],
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 0, 0],
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 0, 0],
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 0, 0]]

!map = !nvgpu.tensormap.descriptor<tensor = memref<8x8xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile : memref<8x8xf32, #gpu.address_space<workgroup>> {alignment = 128 : i64}
    gpu.func @move_tile(%map: !map, %out: memref<8x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      %tile = memref.get_global @tile : memref<8x8xf32, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !barrier
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !barrier
      }
      gpu.barrier
      scf.if %first {
        %bytes = arith.constant 256 : index
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !barrier
        nvgpu.tma.async.load %map[%c4, %c8], %bar[%c0] to %tile : !map, !barrier -> memref<8x8xf32, #gpu.address_space<workgroup>>
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !barrier
      %i = arith.divui %tx, %c8 : index
      %j = arith.remui %tx, %c8 : index
      %v = memref.load %tile[%i, %j] : memref<8x8xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%i, %j] : memref<8x8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
    %c64 = arith.constant 64 : index
    %c100 = arith.constant 100 : index
    %x = memref.alloc() : memref<12x12xf32>
    scf.for %r = %c0 to %c12 step %c1 {
      scf.for %c = %c0 to %c12 step %c1 {
        %r100 = arith.muli %r, %c100 : index
        %v = arith.addi %r100, %c : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %x[%r, %c] : memref<12x12xf32>
      }
    }
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] () : memref<12x12xf32>
    %t2 = gpu.memcpy async [%t1] %dx, %x : memref<12x12xf32>, memref<12x12xf32>
    gpu.wait [%t2]
    %out = memref.alloc() : memref<8x8xf32>
    %uo = memref.cast %out : memref<8x8xf32> to memref<*xf32>
    gpu.host_register %uo : memref<*xf32>
    %udx = memref.cast %dx : memref<12x12xf32> to memref<*xf32>
    %map = nvgpu.tma.create.descriptor %udx box[%c8, %c8] : memref<*xf32> -> !map
    gpu.launch_func @kernels::@move_tile blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%map : !map, %out : memref<8x8xf32>)
    call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
