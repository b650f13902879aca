// Without a GPU the runner still lowers the program, then stops with a clear
// error and a non-zero exit.
// UNSUPPORTED: cuda
// RUN: not warp-cuda-runner %S/reduce.mlir --entry-point-result=void 2>&1 | FileCheck %s
// Lowering diagnostics come first, with their location.
// RUN: not warp-cuda-runner %s --entry-point-result=void --chip=sm_75 2>&1 | FileCheck %s --check-prefix=LOWERING

// CHECK: warp-cuda-runner: error: no GPU to run on: cannot load libcuda.so.1
// LOWERING: error: 'warp.reduce' op strategy 'redux' is not available for 'i32' with kind 'add' on sm_75

module attributes {gpu.container_module} {
  func.func @main(%out: memref<1xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %x = arith.constant 1 : i32
      %r = warp.reduce <add> %x strategy = <redux> : i32
      memref.store %r, %out[%c0] : memref<1xi32>
      gpu.terminator
    }
    return
  }
}
