// --host-bare-ptr-calling-convention with --kernel-bare-ptr-calling-convention,
// as upstream's pipeline options of the same names: memrefs cross host calls
// and kernel launches as bare pointers (static shapes only; unranked memrefs,
// hence printMemref*, cannot take this convention: the values print with
// printI64). Checked without a GPU against the stand-in libcuda.so.1: the
// kernel does not run there, so the host's values print unchanged.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void --host-bare-ptr-calling-convention --kernel-bare-ptr-calling-convention --dump-ptx=%t/bare.ptx > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=DRIVER --input-file=%t/err
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t/out
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/bare.ptx
// The same program with descriptors: the helper's memref is 5 words again.
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void 2>/dev/null | FileCheck %s --check-prefix=OUTPUT

// DRIVER: cuda: cuMemAlloc bytes=128
// DRIVER: cuda: cuMemcpy bytes=128
// DRIVER: cuda: cuLaunchKernel grid=(1,1,1) block=(32,1,1) smem=0
// DRIVER: cuda: cuMemcpy bytes=128
// DRIVER: cuda: cuStreamSynchronize

// OUTPUT: 0
// OUTPUT-NEXT: 31

// PTX-LABEL: .visible .entry sum(
// PTX-NEXT: .param .u64 .ptr .align 1 sum_param_0
// PTX-NEXT: )

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum(%data: memref<32xi32>) kernel {
      %lane = gpu.thread_id x
      %x = memref.load %data[%lane] : memref<32xi32>
      %s = warp.reduce <add> %x : i32
      memref.store %s, %data[%lane] : memref<32xi32>
      gpu.return
    }
  }
  // A host function taking a memref: one pointer under the bare convention.
  func.func @print_ends(%data: memref<32xi32>) {
    %c0 = arith.constant 0 : index
    %c31 = arith.constant 31 : index
    %first = memref.load %data[%c0] : memref<32xi32>
    %last = memref.load %data[%c31] : memref<32xi32>
    %f = arith.extsi %first : i32 to i64
    %l = arith.extsi %last : i32 to i64
    call @printI64(%f) : (i64) -> ()
    call @printNewline() : () -> ()
    call @printI64(%l) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %host = memref.alloc() : memref<32xi32>
    scf.for %i = %c0 to %c32 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %host[%i] : memref<32xi32>
    }
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<32xi32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<32xi32>, memref<32xi32>
    %t3 = gpu.launch_func async [%t2] @kernels::@sum blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%dev : memref<32xi32>)
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<32xi32>, memref<32xi32>
    gpu.wait [%t4]
    call @print_ends(%host) : (memref<32xi32>) -> ()
    memref.dealloc %host : memref<32xi32>
    return
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
}
