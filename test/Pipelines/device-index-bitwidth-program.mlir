// A host+device program compiled with device-index-bitwidth=32 all the way
// to LLVM IR: the host launch packs 64-bit index values and descriptors, the
// embedded PTX takes .u64 parameters for them and computes in 32 bits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32 ptx-output=%t/k.ptx" -o %t/lowered.mlir
// RUN: mlir-translate --mlir-to-llvmir %t/lowered.mlir | FileCheck %s --check-prefix=LLVM
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/k.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/k.ptx -o %t/k.cubin %}
// The runner takes the lowered module as it is; with the stand-in driver
// (no GPU needed) the host code runs up to the launch.
// RUN: %if cc %{ %cc -shared -fPIC -o %t/libcuda.so.1 %S/../Integration/CUDA/stub-driver/stub_libcuda.c %}
// RUN: %if cc %{ env LD_LIBRARY_PATH=%t warp-cuda-runner %t/lowered.mlir --entry-point-result=void 2>&1 >/dev/null | FileCheck %s --check-prefix=STUB %}
// On a GPU, the results.
// RUN: %if cuda %{ warp-cuda-runner %t/lowered.mlir --entry-point-result=void | FileCheck %s --check-prefix=GPU %}

// The outlined kernel's parameters: the descriptors of the two memrefs and
// the index bound, all 64-bit, as the host passes them.
// PTX-LABEL: .entry main_kernel(
// PTX-NOT: .param .u32
// PTX: )
// PTX-NOT: mul.lo.s64
// PTX: mul.wide.{{[su]}}32
// PTX: shfl.sync.bfly
// PTX: ret;

// LLVM: define void @main()
// LLVM: call void @mgpuLaunchKernel(

// STUB: cuLaunchKernel grid=(2,1,1) block=(32,1,1)

// Element i of the output: the sum over its warp of the inputs (float(i):
// 496 for the first warp, 1520 for the second) plus i; only the first 50
// elements are computed, the rest stay 0.
// GPU: [496,{{ +}}497,{{ +}}498,
// GPU-SAME: 1552,{{ +}}1553,
// GPU-SAME: 1569,{{ +}}0,
// GPU-SAME: 0]

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %in_static = memref.alloc() : memref<64xf32>
    %out_static = memref.alloc() : memref<64xf32>
    %in = memref.cast %in_static : memref<64xf32> to memref<?xf32>
    %out = memref.cast %out_static : memref<64xf32> to memref<?xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %in[%i] : memref<?xf32>
      memref.store %zero, %out[%i] : memref<?xf32>
    }
    %in_u = memref.cast %in_static : memref<64xf32> to memref<*xf32>
    %out_u = memref.cast %out_static : memref<64xf32> to memref<*xf32>
    gpu.host_register %in_u : memref<*xf32>
    gpu.host_register %out_u : memref<*xf32>
    // Not a constant, so the outlining passes it as an index parameter
    // instead of sinking it into the kernel.
    %c14 = arith.constant 14 : index
    %n = arith.subi %c64, %c14 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %x = memref.load %in[%i] : memref<?xf32>
      %s = warp.reduce <add> %x : f32
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %ii = arith.index_cast %i : index to i32
        %fi = arith.sitofp %ii : i32 to f32
        %y = arith.addf %s, %fi : f32
        memref.store %y, %out[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
}
