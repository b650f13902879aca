// warp.device_scan and warp.device_reduce in plain host code (no async
// dialect) without a GPU: the runner's pipeline expands them into a
// scratch gpu.alloc, launches and a gpu.dealloc, which the host lowering
// must turn into runtime calls. A stand-in libcuda.so.1 logs the driver
// calls (kernels do not run under it; device-ops.mlir checks the results
// on a GPU): the scratch sizes and grids of warp.device_scratch and
// warp.device_grid for these sizes.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=DRIVER --input-file=%t/err

// 10000 i32 in 2 tiles of 8192 (a scan's 32 items a thread): 2 * 24 = 48
// bytes of scratch; 2 to 8 tiles are one launch of scan_one_cluster, one
// cluster of 8 blocks (its PTX states the cluster: a plain launch), which
// needs no scan_init.
// DRIVER: cuda: cuMemAlloc bytes=40000
// DRIVER: cuda: cuMemAlloc bytes=40000
// DRIVER: cuda: cuMemAlloc bytes=160000
// DRIVER: cuda: cuMemAlloc bytes=8
// DRIVER: cuda: cuMemAlloc bytes=48
// DRIVER-NOT: scan_init
// DRIVER: cuda: cuModuleGetFunction scan_one_cluster
// DRIVER: cuda: cuLaunchKernel grid=(8,1,1) block=(256,1,1) smem=0
// DRIVER-NOT: scan
// 20000 f64 in tiles of 2048: 10 reduce_tiles blocks, 10 partials of 8
// bytes; one finishing block.
// DRIVER: cuda: cuMemAlloc bytes=80
// DRIVER: cuda: cuModuleGetFunction reduce_tiles
// DRIVER: cuda: cuLaunchKernel grid=(10,1,1) block=(256,1,1) smem=0
// DRIVER: cuda: cuModuleGetFunction reduce_finish
// DRIVER: cuda: cuLaunchKernel grid=(1,1,1) block=(256,1,1) smem=0

module attributes {gpu.container_module} {
  func.func @main() {
    %n = arith.constant 10000 : index
    %m = arith.constant 20000 : index
    %t0 = gpu.wait async
    %x, %t1 = gpu.alloc async [%t0] (%n) : memref<?xi32>
    %y, %t2 = gpu.alloc async [%t1] (%n) : memref<?xi32>
    %f, %t3 = gpu.alloc async [%t2] (%m) : memref<?xf64>
    %s, %t4 = gpu.alloc async [%t3] () : memref<1xf64>
    gpu.wait [%t4]
    warp.device_scan <add> %x, %y : memref<?xi32>, memref<?xi32>
    warp.device_reduce <maxnumf> %f, %s : memref<?xf64>, memref<1xf64>
    %t5 = gpu.wait async
    %t6 = gpu.dealloc async [%t5] %x : memref<?xi32>
    %t7 = gpu.dealloc async [%t6] %y : memref<?xi32>
    %t8 = gpu.dealloc async [%t7] %f : memref<?xf64>
    %t9 = gpu.dealloc async [%t8] %s : memref<1xf64>
    gpu.wait [%t9]
    return
  }
}
