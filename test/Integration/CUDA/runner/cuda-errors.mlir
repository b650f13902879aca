// A failing CUDA call is reported and the program goes on, exit status 0, as
// with mlir-runner and upstream's runtime wrappers (which print the failed
// call and continue): after a device-side assert the runner reports the
// failed synchronization and still prints what the host has (assert.mlir
// shows it on a GPU). --exit-on-cuda-error ends the run at the first failing
// call with status 1. Checked against the stand-in libcuda.so.1, which
// refuses kernels whose name does not start with 'm'.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/err
// RUN: FileCheck %s --check-prefix=GOES-ON --input-file=%t/out
// RUN: env LD_LIBRARY_PATH=%t not warp-cuda-runner %s --entry-point-result=void --exit-on-cuda-error > %t/out2 2> %t/err2
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/err2
// RUN: FileCheck %s --check-prefix=STOPS --allow-empty --input-file=%t/out2

// REPORT: warp-cuda-runtime: cuModuleGetFunction("refused") failed: STUB_ERROR (500): stub error
// GOES-ON: 42
// STOPS-NOT: 42

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @refused() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@refused blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // What runs after the failed call: prints 42.
    %answer = arith.constant 42 : i64
    call @printI64(%answer) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
}
