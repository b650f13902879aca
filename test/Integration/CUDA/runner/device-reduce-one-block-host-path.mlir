// warp.device_reduce over inputs whose size the host code learns at run
// time, without a GPU: the runner's host lowering forks on reduce_tiles'
// grid. A stand-in libcuda.so.1 logs the driver calls (kernels do not run
// under it; device-ops.mlir checks results on a GPU): 300 f64 are within
// the 8192 that one block takes alone, so reduce_tiles runs one block and
// reduce_finish is not launched; 20000 are 10 tiles of 2048, a block each,
// so both run.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=DRIVER --input-file=%t/err

// DRIVER: cuda: cuMemAlloc bytes=8
// DRIVER: cuda: cuStreamSynchronize
// The 300: 8 bytes of scratch, one launch of one block.
// DRIVER: cuda: cuStreamCreate
// DRIVER-NEXT: cuda: cuMemAlloc bytes=8
// DRIVER-NEXT: cuda: cuModuleGetFunction reduce_tiles
// DRIVER-NOT: reduce_finish
// DRIVER: cuda: cuLaunchKernel grid=(1,1,1) block=(256,1,1) smem=0
// DRIVER-NEXT: cuda: cuStreamSynchronize
// The 20000: 80 bytes (a partial per tile), 10 blocks, then the
// finishing block.
// DRIVER-NEXT: cuda: cuStreamDestroy
// DRIVER-NEXT: cuda: cuStreamCreate
// DRIVER-NEXT: cuda: cuMemAlloc bytes=80
// DRIVER-NEXT: cuda: cuModuleGetFunction reduce_tiles
// DRIVER: cuda: cuLaunchKernel grid=(10,1,1) block=(256,1,1) smem=0
// DRIVER-NEXT: cuda: cuModuleGetFunction reduce_finish
// DRIVER: cuda: cuLaunchKernel grid=(1,1,1) block=(256,1,1) smem=0
// DRIVER-NEXT: cuda: cuStreamSynchronize

module attributes {gpu.container_module} {
  // A function of its own: its n is not a constant the canonicalizer folds.
  func.func @reduce(%f: memref<?xf64>, %s: memref<1xf64>) {
    warp.device_reduce <maxnumf> %f, %s : memref<?xf64>, memref<1xf64>
    return
  }
  func.func @main() {
    %small = arith.constant 300 : index
    %large = arith.constant 20000 : index
    %t0 = gpu.wait async
    %a, %t1 = gpu.alloc async [%t0] (%small) : memref<?xf64>
    %b, %t2 = gpu.alloc async [%t1] (%large) : memref<?xf64>
    %s, %t3 = gpu.alloc async [%t2] () : memref<1xf64>
    gpu.wait [%t3]
    call @reduce(%a, %s) : (memref<?xf64>, memref<1xf64>) -> ()
    call @reduce(%b, %s) : (memref<?xf64>, memref<1xf64>) -> ()
    %t4 = gpu.wait async
    %t5 = gpu.dealloc async [%t4] %a : memref<?xf64>
    %t6 = gpu.dealloc async [%t5] %b : memref<?xf64>
    %t7 = gpu.dealloc async [%t6] %s : memref<1xf64>
    gpu.wait [%t7]
    return
  }
}
