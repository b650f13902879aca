// Synchronous gpu.alloc, gpu.memset, gpu.memcpy and gpu.dealloc in plain
// host code (warp-make-gpu-memory-ops-async gives each a stream of its
// own): the device buffer gets lanes 0..31 from the host, a warp sums
// them in place, and the sum comes back; a second buffer is set to 2.5 on
// the device and copied back.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// 0 + 1 + ... + 31 = 496 in every lane.
// CHECK: [496{{(, 496){31}\]}}
// CHECK: [2.5{{(, 2\.5){7}\]}}

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @sum(%a: memref<32xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<32xf32>
      %r = warp.reduce <add> %v : f32
      memref.store %r, %a[%t] : memref<32xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %host = memref.alloc() : memref<32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %f = arith.sitofp %i32 : i32 to f32
      memref.store %f, %host[%i] : memref<32xf32>
    }
    %dev = gpu.alloc () : memref<32xf32>
    gpu.memcpy %dev, %host : memref<32xf32>, memref<32xf32>
    gpu.launch_func @m::@sum blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dev : memref<32xf32>)
    gpu.memcpy %host, %dev : memref<32xf32>, memref<32xf32>
    gpu.dealloc %dev : memref<32xf32>
    %set = gpu.alloc () : memref<8xf32>
    %v = arith.constant 2.5 : f32
    gpu.memset %set, %v : memref<8xf32>, f32
    %back = memref.alloc() : memref<8xf32>
    gpu.memcpy %back, %set : memref<8xf32>, memref<8xf32>
    gpu.dealloc %set : memref<8xf32>
    %p = memref.cast %host : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    %q = memref.cast %back : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%q) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
}
