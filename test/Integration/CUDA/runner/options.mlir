// The runner's options, checked without a GPU (a stand-in libcuda.so.1 logs
// the driver calls): --dump-ptx, the bare-pointer calling convention and
// --ptxas-options. options-ptxas.mlir runs ptxas itself.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
//
// --dump-ptx=FILE writes the PTX the runner builds, then the program runs.
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void --dump-ptx=%t/desc.ptx 2>&1 | FileCheck %s --check-prefix=RUNS
// RUN: FileCheck %s --check-prefix=DESC --input-file=%t/desc.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/desc.ptx -o /dev/null %}
// '-' is stdout, after a header naming the module.
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void --dump-ptx=- 2>/dev/null | FileCheck %s --check-prefix=STDOUT
//
// --kernel-bare-ptr-calling-convention: one pointer per memref.
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %s --entry-point-result=void --kernel-bare-ptr-calling-convention --dump-ptx=%t/bare.ptx 2>&1 | FileCheck %s --check-prefix=RUNS
// RUN: FileCheck %s --check-prefix=BARE --input-file=%t/bare.ptx
// (host-bare-ptr.mlir: the host side's convention.)
//
// ptxas options need ptxas: with the default PTX (JIT-compiled by the
// driver) they are an error, with the location of the module.
// RUN: env LD_LIBRARY_PATH=%t not warp-cuda-runner %s --entry-point-result=void --ptxas-options=-v 2>&1 | FileCheck %s --check-prefix=PTXAS-ISA
// An option missing its value is an error (the runner's default -O0 does not
// become the value).
// RUN: env LD_LIBRARY_PATH=%t not warp-cuda-runner %s --entry-point-result=void --dump-ptx 2>&1 | FileCheck %s --check-prefix=NO-VALUE

// RUNS: cuda: cuModuleLoadDataEx ptx=1 options=3
// RUNS: cuda: cuLaunchKernel grid=(1,1,1) block=(32,1,1) smem=0
// RUNS: [0,  1,  2,  3,

// A rank-1 memref is 5 words (allocated, aligned, offset, size, stride),
// one descriptor per buffer.
// DESC-LABEL: .visible .entry main_kernel(
// DESC-COUNT-10: .param .u64
// DESC-NEXT: )
// DESC-COUNT-5: shfl.sync.bfly

// BARE-LABEL: .visible .entry main_kernel(
// BARE-NEXT: .param .u64 .ptr .align 1 main_kernel_param_0,
// BARE-NEXT: .param .u64 .ptr .align 1 main_kernel_param_1
// BARE-NEXT: )

// STDOUT: // gpu.binary @main_kernel
// STDOUT-NEXT: //
// STDOUT: .visible .entry main_kernel(

// NO-VALUE: --dump-ptx{{.*}} requires a value
// PTXAS-ISA: options.mlir":[[@LINE+1]]:1): error: ptxas-options='-v' needs format=bin or fatbin: with format=isa no ptxas runs
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %in = memref.alloc() : memref<32xi32>
    %out = memref.alloc() : memref<32xi32>
    scf.for %i = %c0 to %c32 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %in[%i] : memref<32xi32>
      memref.store %v, %out[%i] : memref<32xi32>
    }
    %a = memref.cast %in : memref<32xi32> to memref<*xi32>
    %b = memref.cast %out : memref<32xi32> to memref<*xi32>
    gpu.host_register %a : memref<*xi32>
    gpu.host_register %b : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %x = memref.load %in[%tx] : memref<32xi32>
      %s = warp.reduce <add> %x strategy = <butterfly> : i32
      memref.store %s, %out[%tx] : memref<32xi32>
      gpu.terminator
    }
    // Under the stand-in the kernel does not run: the input prints as it is.
    call @printMemrefI32(%b) : (memref<*xi32>) -> ()
    gpu.host_unregister %a : memref<*xi32>
    gpu.host_unregister %b : memref<*xi32>
    memref.dealloc %in : memref<32xi32>
    memref.dealloc %out : memref<32xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
}
