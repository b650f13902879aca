// A gpu.module that brings its own target of the pipeline's chip (with
// other options; a different chip is refused earlier) gets the pipeline's
// too, so its gpu.binary holds two PTX objects: a file or a directory
// output (one PTX per module) is a diagnostic at the module that names
// both targets, rather than a count of modules that are not there or one
// file written twice; stdout shows both.
// RUN: not warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: not warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.dir/" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=-" -o /dev/null | FileCheck %s --check-prefix=STDOUT

// FILE: print-isa-targets.mlir:[[@LINE+4]]:3: error: gpu.binary @own holds 2 PTX objects, one per target of its gpu.module, but ptx-output='{{.*}}' takes one per module: give the module one target
// FILE: note: target #nvvm.target<chip = "sm_90">
// FILE: note: target #nvvm.target<{{.*}}chip = "sm_90"
module attributes {gpu.container_module} {
  gpu.module @own [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%data: memref<32xi32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %data[%t] : memref<32xi32>
      %s = warp.reduce <add> %x : i32
      memref.store %s, %data[%t] : memref<32xi32>
      gpu.return
    }
  }
}
// STDOUT-COUNT-2: // gpu.binary @own
