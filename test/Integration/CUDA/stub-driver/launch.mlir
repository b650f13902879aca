// The runner's whole host path without a GPU: lowering, JIT, the mgpu*
// runtime's driver calls (logged by a stand-in libcuda.so.1) and printing.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/stub_libcuda.c
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=DRIVER --input-file=%t/err
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t/out
// A failing driver call is reported with its name and CUDA's error; with
// --exit-on-cuda-error the run ends there, exit 1 (the default goes on, as
// mlir-runner does: runner/cuda-errors.mlir).
// RUN: env LD_LIBRARY_PATH=%t not warp-cuda-runner %S/missing-kernel.mlir --entry-point-result=void --exit-on-cuda-error 2>&1 | FileCheck %s --check-prefix=ERROR

// DRIVER: cuda: cuInit
// DRIVER: cuda: cuModuleLoadDataEx ptx=1 options=3
// DRIVER: cuda: cuMemHostRegister bytes=256 flags=3
// DRIVER: cuda: cuModuleGetFunction main_kernel
// DRIVER: cuda: cuStreamCreate
// DRIVER: cuda: cuLaunchKernel grid=(2,1,1) block=(32,1,1) smem=0
// DRIVER: cuda: cuStreamSynchronize
// DRIVER: cuda: cuStreamDestroy
// DRIVER: cuda: cuModuleUnload

// Kernels do not run under the stand-in: the host's values print unchanged.
// OUTPUT: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// OUTPUT-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]

// ERROR: warp-cuda-runtime: cuModuleGetFunction("kernel_not_starting_with_m") failed: STUB_ERROR (500): stub error

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %data = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %data[%i] : memref<64xf32>
    }
    %cast = memref.cast %data : memref<64xf32> to memref<*xf32>
    gpu.host_register %cast : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c32 : index
      %i = arith.addi %base, %tx : index
      %x = memref.load %data[%i] : memref<64xf32>
      %s = warp.reduce <add> %x : f32
      memref.store %s, %data[%i] : memref<64xf32>
      gpu.terminator
    }
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    gpu.host_unregister %cast : memref<*xf32>
    memref.dealloc %data : memref<64xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
}
