// The async dialect without a GPU: async.execute regions become coroutines on
// the runner's async runtime (mlirAsyncRuntime*), their GPU ops asynchronous
// (gpu-async-region), and the host waits on the tokens. A stand-in
// libcuda.so.1 logs the driver calls; kernels do not run under it, so the
// host's values print unchanged (async.mlir checks the results on a GPU).
// No -O flag: the runner defaults to -O0, whose LLVM pipeline lowers the
// coroutines (mlir-runner would need -O0 given).
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=DRIVER --input-file=%t/err
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t/out
// Many workers or one, the same calls and output.
// RUN: env LD_LIBRARY_PATH=%t WARP_ASYNC_WORKERS=1 warp-cuda-runner %s --entry-point-result=void -O2 2>/dev/null | FileCheck %s --check-prefix=OUTPUT

// The first region copies to the device, the second (after the first's
// token) launches the kernel; the host then awaits the second token.
// DRIVER: cuda: cuModuleLoadDataEx ptx=1 options=3
// DRIVER: cuda: cuMemHostRegister bytes=128 flags=3
// DRIVER: cuda: cuStreamCreate
// DRIVER: cuda: cuMemAlloc bytes=128
// DRIVER: cuda: cuMemcpy bytes=128
// DRIVER: cuda: cuModuleGetFunction main_kernel
// DRIVER: cuda: cuLaunchKernel grid=(1,1,1) block=(32,1,1) smem=0
// DRIVER: cuda: cuModuleUnload

// OUTPUT: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// OUTPUT: [7]

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %host = memref.alloc() : memref<32xi32>
    %unranked = memref.cast %host : memref<32xi32> to memref<*xi32>
    gpu.host_register %unranked : memref<*xi32>
    scf.for %i = %c0 to %c32 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %host[%i] : memref<32xi32>
    }
    %t0, %f0 = async.execute () -> !async.value<memref<32xi32>> {
      %dev = gpu.alloc() : memref<32xi32>
      gpu.memcpy %dev, %host : memref<32xi32>, memref<32xi32>
      async.yield %dev : memref<32xi32>
    }
    %t1 = async.execute [%t0] (%f0 as %dev : !async.value<memref<32xi32>>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
        %x = memref.load %dev[%tx] : memref<32xi32>
        %s = warp.reduce <add> %x : i32
        memref.store %s, %host[%tx] : memref<32xi32>
        gpu.terminator
      }
      async.yield
    }
    async.await %t1 : !async.token
    %dev = async.await %f0 : !async.value<memref<32xi32>>
    gpu.dealloc %dev : memref<32xi32>
    call @printMemrefI32(%unranked) : (memref<*xi32>) -> ()
    // A value computed in a region, read after an await on the host.
    %t2, %f2 = async.execute () -> !async.value<i32> {
      %seven = arith.constant 7 : i32
      async.yield %seven : i32
    }
    %seven = async.await %f2 : !async.value<i32>
    %out = memref.alloc() : memref<1xi32>
    memref.store %seven, %out[%c0] : memref<1xi32>
    %outu = memref.cast %out : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%outu) : (memref<*xi32>) -> ()
    memref.dealloc %out : memref<1xi32>
    gpu.host_unregister %unranked : memref<*xi32>
    memref.dealloc %host : memref<32xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
}
