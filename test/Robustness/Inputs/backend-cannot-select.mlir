// An LLVM-dialect kernel the NVPTX backend cannot select on sm_90 (f32
// redux.sync exists only on sm_100a-class chips): LLVM raises a fatal error.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%x: f32, %out: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %m = llvm.mlir.constant(-1 : i32) : i32
      %r = llvm.call_intrinsic "llvm.nvvm.redux.sync.fmin"(%x, %m) : (f32, i32) -> f32
      llvm.store %r, %out : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}
