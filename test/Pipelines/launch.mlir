// A host+device program written with gpu.launch: the kernel is outlined, its
// warp ops lowered, and the host side lowered to LLVM with the kernel launch.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" | FileCheck %s
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// Options reach the pipeline: sm_80 gets +ptx70, sm_100a +ptx86.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa" | FileCheck %s --check-prefix=SM80
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_100a format=isa" | FileCheck %s --check-prefix=SM100A
// RUN: not warp-opt %s --warp-lower-to-ptx="chip=sm_9" 2>&1 | FileCheck %s --check-prefix=BADCHIP

// CHECK-NOT: warp.
// CHECK: llvm.func @main
// CHECK: gpu.launch_func @main_kernel::@main_kernel
// CHECK: gpu.binary @main_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// PTX: .target sm_90
// PTX: redux.sync.add.s32
// SM80: #nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">
// SM100A: #nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">
// BADCHIP: error: unknown chip 'sm_9'

module attributes {gpu.container_module} {
  func.func @main(%data: memref<32xi32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %x = memref.load %data[%tx] : memref<32xi32>
      %s = warp.reduce <add> %x : i32
      memref.store %s, %data[%tx] : memref<32xi32>
      gpu.terminator
    }
    return
  }
}
