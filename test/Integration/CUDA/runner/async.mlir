// async.execute on the GPU: a copy to the device, then two kernels in
// regions that both wait for it (a fork), joined by the host's awaits. The
// GPU ops in the regions run asynchronously on streams (gpu-async-region),
// the regions as coroutines on the runner's async runtime.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s
// One worker thread: the same results.
// RUN: env WARP_ASYNC_WORKERS=1 warp-cuda-runner %s --entry-point-result=void -O3 | FileCheck %s

// Input x[i] = i over two warps. Warp sums: 0 + ... + 31 = 496 and
// 32 + ... + 63 = 1520, in every lane.
// CHECK: [496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 496, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520, 1520]
// Inclusive scans: lane l of warp w holds x[32w] + ... + x[32w + l] (lane l
// of warp 0: l(l+1)/2; of warp 1: 32(l+1) + l(l+1)/2).
// CHECK: [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136, 153, 171, 190, 210, 231, 253, 276, 300, 325, 351, 378, 406, 435, 465, 496, 32, 65, 99, 134, 170, 207, 245, 284, 324, 365, 407, 450, 494, 539, 585, 632, 680, 729, 779, 830, 882, 935, 989, 1044, 1100, 1157, 1215, 1274, 1334, 1395, 1457, 1520]

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %x = memref.alloc() : memref<64xi32>
    %sums = memref.alloc() : memref<64xi32>
    %scans = memref.alloc() : memref<64xi32>
    %xu = memref.cast %x : memref<64xi32> to memref<*xi32>
    %sumsu = memref.cast %sums : memref<64xi32> to memref<*xi32>
    %scansu = memref.cast %scans : memref<64xi32> to memref<*xi32>
    gpu.host_register %xu : memref<*xi32>
    gpu.host_register %sumsu : memref<*xi32>
    gpu.host_register %scansu : memref<*xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %x[%i] : memref<64xi32>
    }
    %t0, %f0 = async.execute () -> !async.value<memref<64xi32>> {
      %dev = gpu.alloc() : memref<64xi32>
      gpu.memcpy %dev, %x : memref<64xi32>, memref<64xi32>
      async.yield %dev : memref<64xi32>
    }
    %t1 = async.execute [%t0] (%f0 as %dev : !async.value<memref<64xi32>>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
        %v = memref.load %dev[%tx] : memref<64xi32>
        %s = warp.reduce <add> %v : i32
        memref.store %s, %sums[%tx] : memref<64xi32>
        gpu.terminator
      }
      async.yield
    }
    %t2 = async.execute [%t0] (%f0 as %dev : !async.value<memref<64xi32>>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
        %base = arith.muli %bx, %c32 : index
        %i = arith.addi %base, %tx : index
        %v = memref.load %dev[%i] : memref<64xi32>
        %s = warp.scan <add> %v : i32
        memref.store %s, %scans[%i] : memref<64xi32>
        gpu.terminator
      }
      async.yield
    }
    async.await %t1 : !async.token
    async.await %t2 : !async.token
    call @printMemrefI32(%sumsu) : (memref<*xi32>) -> ()
    call @printMemrefI32(%scansu) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
}
