// convert-device-func-to-llvm: the func part of convert-gpu-to-nvvm
// (its type converter, the device index width), run before it, so that a
// function defined in the gpu.module gets no `_mlir_ciface_` wrapper: one
// that nothing on the device calls but the PTX keeps (warp-lower-to-ptx
// emitted one for every device function before). A function declared
// without a body is still called through its C interface, as
// convert-gpu-to-nvvm has it.
// RUN: warp-opt %s --pass-pipeline="builtin.module(gpu.module(convert-device-func-to-llvm))" | FileCheck %s --check-prefixes=IR,IR64
// RUN: warp-opt %s --pass-pipeline="builtin.module(gpu.module(convert-device-func-to-llvm{index-bitwidth=32}))" | FileCheck %s --check-prefixes=IR,IR32
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.64.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=_mlir_ciface_scale --input-file=%t.64.ptx
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32 ptx-output=%t.32.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=_mlir_ciface_scale --input-file=%t.32.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 -c %t.32.ptx -o /dev/null %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // The kernel is convert-gpu-to-nvvm's; only its func.calls change here.
  // IR-LABEL: gpu.func @k
  // IR64: llvm.call @scale({{.*}}) : (i64) -> i64
  // IR32: llvm.call @scale({{.*}}) : (i32) -> i32
  // IR64: llvm.call @ext({{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
  // IR32: llvm.call @ext({{.*}}) : (!llvm.ptr, !llvm.ptr, i32, i32, i32) -> ()
  gpu.func @k(%out: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %s = func.call @scale(%tid) : (index) -> index
    %v = arith.index_cast %s : index to i32
    memref.store %v, %out[%tid] : memref<?xi32>
    func.call @ext(%out) : (memref<?xi32>) -> ()
    gpu.return
  }
  // The body stays for the later conversions, behind a cast of the argument.
  // IR64-LABEL: llvm.func @scale(%{{.*}}: i64) -> i64
  // IR32-LABEL: llvm.func @scale(%{{.*}}: i32) -> i32
  // IR: builtin.unrealized_conversion_cast
  // IR: arith.muli
  // IR: llvm.return
  // IR-NOT: _mlir_ciface_scale
  func.func @scale(%i: index) -> index {
    %c3 = arith.constant 3 : index
    %r = arith.muli %i, %c3 : index
    return %r : index
  }
  // The declaration forwards to the C interface: a pointer to the
  // descriptor.
  // IR: llvm.func private @ext(
  // IR: llvm.call @_mlir_ciface_ext(%{{.*}}) : (!llvm.ptr) -> ()
  // IR: llvm.func @_mlir_ciface_ext(!llvm.ptr)
  func.func private @ext(memref<?xi32>)
}
}

// PTX: .extern .func _mlir_ciface_ext
// PTX: .visible .entry k(
// PTX: call.uni _mlir_ciface_ext,
// PTX: .visible .func {{.*}} scale(
