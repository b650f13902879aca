// --ptxas-options reaches ptxas (--gpu-format=bin or fatbin, where the
// runner runs ptxas; with PTX the driver compiles it: options.mlir), and
// --dump-ptx still writes the PTX when the runner builds a cubin. Checked
// without a GPU against the stand-in libcuda.so.1 (it reports sm_90).
// REQUIRES: cc, ptxas-sm_90
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
// An option ptxas does not know: its own error, with the module's location.
// RUN: env LD_LIBRARY_PATH=%t not warp-cuda-runner %s --entry-point-result=void --gpu-format=bin --ptxas-options=--no-such-ptxas-flag 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// Options ptxas takes: the cubin loads (cuModuleLoadData, no JIT) and runs.
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void --gpu-format=bin "--ptxas-options=-O1 --maxrregcount=32" --dump-ptx=%t/k.ptx 2>&1 | FileCheck %s --check-prefix=CUBIN
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/k.ptx
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void --gpu-format=fatbin "--ptxas-options=-lineinfo" 2>&1 | FileCheck %s --check-prefix=CUBIN

// UNKNOWN: error: `ptxas` invocation failed
// UNKNOWN: ptxas fatal   : Unknown option '-no-such-ptxas-flag'

// CUBIN-NOT: cuModuleLoadDataEx
// CUBIN: cuda: cuModuleLoadData
// CUBIN: cuda: cuLaunchKernel grid=(1,1,1) block=(32,1,1) smem=0

// PTX: .target sm_90
// PTX: .visible .entry main_kernel(
// PTX-COUNT-5: shfl.sync.bfly

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = memref.alloc() : memref<32xf32>
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %x = arith.sitofp %i : i32 to f32
      %s = warp.reduce <add> %x : f32
      memref.store %s, %out[%tx] : memref<32xf32>
      gpu.terminator
    }
    gpu.host_unregister %u : memref<*xf32>
    memref.dealloc %out : memref<32xf32>
    return
  }
}
