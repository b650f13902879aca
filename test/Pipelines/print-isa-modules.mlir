// Several gpu.modules: one file holds one module (ptxas takes one .version
// per file), so a file output is a diagnostic; a directory gets one
// NAME.ptx each, every one assembling; stdout shows them all, with module
// names that are not ASCII escaped in the header.
// RUN: not warp-opt %s --warp-lower-to-ptx="format=isa ptx-output=%t.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: warp-opt %s --warp-lower-to-ptx="format=isa ptx-output=%t.dir/" -o /dev/null
// RUN: ls %t.dir | FileCheck %s --check-prefix=DIR
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.dir/first.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.dir/second_c3_a9.ptx -o /dev/null %}
// RUN: warp-opt %s --warp-lower-to-ptx="format=isa ptx-output=-" -o /dev/null | FileCheck %s --check-prefix=STDOUT

// FILE: error: ptx-output='{{.*}}.ptx' can hold one gpu.module, there are 2 (ptxas accepts one .version per file): use a directory (ptx-output=DIR/, one NAME.ptx each) or '-'
// DIR: first.ptx
// DIR-NEXT: second_c3_a9.ptx
// STDOUT: // gpu.binary @first
// STDOUT: .version
// STDOUT: // gpu.binary @second_c3_a9
// STDOUT: .version

module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @k(%data: memref<32xi32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %data[%t] : memref<32xi32>
      %s = warp.reduce <add> %x : i32
      memref.store %s, %data[%t] : memref<32xi32>
      gpu.return
    }
  }
  gpu.module @"secondé" {
    gpu.func @k(%data: memref<32xi32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %data[%t] : memref<32xi32>
      %s = warp.scan <add> %x : i32
      memref.store %s, %data[%t] : memref<32xi32>
      gpu.return
    }
  }
}
