// Input of launch.mlir (its RUN lines drive this file): a kernel whose name
// the stand-in driver refuses to find.
// RUN: true
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_not_starting_with_m() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@kernel_not_starting_with_m blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
