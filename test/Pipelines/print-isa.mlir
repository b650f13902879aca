// warp-print-isa writes the PTX text of every gpu.binary; cubin objects are
// a diagnostic.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa" | warp-opt --warp-print-isa -o /dev/null | FileCheck %s
// RUN: %if ptxas %{ not warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=bin" --warp-print-isa -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIN %}

// CHECK: // gpu.binary @kernels
// CHECK: .target sm_80
// CHECK: .entry scan
// CHECK-COUNT-5: shfl.sync.up.b32
// BIN: error: warp-print-isa needs PTX objects: lower with format=isa

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scan(%data: memref<32xi32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %data[%t] : memref<32xi32>
      %s = warp.scan <add> %x : i32
      memref.store %s, %data[%t] : memref<32xi32>
      gpu.return
    }
  }
}
