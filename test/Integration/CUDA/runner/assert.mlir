// A device-side assert, as mlir-runner handles it: the assertion prints, the
// synchronization after the launch reports CUDA_ERROR_ASSERT, the host goes
// on and the runner exits 0 (upstream's runtime wrappers report failing
// calls and continue). --exit-on-cuda-error makes it exit 1 instead.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void 2>&1 | FileCheck %s
// RUN: not warp-cuda-runner %s --entry-point-result=void --exit-on-cuda-error 2>&1 | FileCheck %s --check-prefix=STRICT

// The warp sum of lanes 0..31 is 496.
// CHECK-DAG: lane 5: warp sum 496
// CHECK-DAG: Assertion `every lane trips this` failed.
// CHECK-DAG: warp-cuda-runtime: cuStreamSynchronize failed: CUDA_ERROR_ASSERT
// CHECK-DAG: 424242
// CHECK-NOT: past the failing assert

// STRICT: Assertion `every lane trips this` failed.
// STRICT: failed: CUDA_ERROR_ASSERT
// STRICT-NOT: 424242

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @check(%limit: i32) kernel {
      %tid = gpu.thread_id x
      %lane = arith.index_cast %tid : index to i32
      %true = arith.constant true
      cf.assert %true, "never fails"
      %sum = warp.reduce <add> %lane : i32
      %five = arith.constant 5 : i32
      %is5 = arith.cmpi eq, %lane, %five : i32
      scf.if %is5 {
        gpu.printf "lane %d: warp sum %d\n", %lane, %sum : i32, i32
      }
      // Always false (lanes are >= 0), unknown to the compiler.
      %ok = arith.cmpi slt, %lane, %limit : i32
      cf.assert %ok, "every lane trips this"
      gpu.printf "past the failing assert\n"
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %limit = arith.constant 0 : i32
    gpu.launch_func @kernels::@check blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%limit : i32)
    // The host goes on after the failed synchronization.
    %marker = arith.constant 424242 : i64
    call @printI64(%marker) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
}
