// Read-only, non-aliasing memref kernel arguments reach PTX as ld.global.nc:
// warp-lower-to-ptx takes llvm.noalias + llvm.readonly off each such memref
// (warp-record-read-only-args, after checking the kernel never writes it)
// and puts them on the aligned pointer of its descriptor after the lowering
// (warp-mark-read-only-params), with 64- and 32-bit device index.
// llvm.readonly alone gives plain loads: a write through another argument
// could change the buffer. read-only-args-bare.mlir: bare pointers.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32 ptx-output=%t.32.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --input-file=%t.32.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.32.ptx -o %t.32.cubin %}

// Upstream's "Cannot copy noalias with non-bare pointers" is gone.
// QUIET-NOT: warning

// CHECK-LABEL: .entry load_f32(
// CHECK: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: st.global.b32
// CHECK: ret;
// CHECK-LABEL: .entry load_vector(
// CHECK: ld.global.nc.v4.b32
// CHECK-NOT: ld.global
// CHECK: st.global.v4.b32
// CHECK: ret;
// CHECK-LABEL: .entry load_i32_2d(
// CHECK: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: ret;
// Two read-only inputs, one of them through a subview and a callee.
// CHECK-LABEL: .entry fma_two_inputs(
// CHECK-COUNT-2: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: ret;
// CHECK-LABEL: .entry readonly_alone(
// CHECK-NOT: ld.global.nc
// CHECK: ld.global.b32
// CHECK: ret;

module attributes {gpu.container_module} {
gpu.module @read_only {
  gpu.func @load_f32(%in: memref<?xf32> {llvm.noalias, llvm.readonly}, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<?xf32>
    memref.store %v, %out[%t] : memref<?xf32>
    gpu.return
  }

  gpu.func @load_vector(%in: memref<?xf32> {llvm.noalias, llvm.readonly}, %out: memref<?xvector<4xf32>>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %i = arith.muli %t, %c4 : index
    %v = vector.load %in[%i] {alignment = 16} : memref<?xf32>, vector<4xf32>
    memref.store %v, %out[%t] : memref<?xvector<4xf32>>
    gpu.return
  }

  // A 2-D memref after a scalar: its aligned pointer is parameter 2 of 9.
  gpu.func @load_i32_2d(%n: index, %in: memref<?x?xi32> {llvm.noalias, llvm.readonly},
                        %out: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %v = memref.load %in[%b, %t] : memref<?x?xi32>
    %x = arith.index_cast %n : index to i32
    %s = arith.addi %v, %x : i32
    memref.store %s, %out[%t] : memref<?xi32>
    gpu.return
  }

  func.func @second(%m: memref<4xf32, strided<[1], offset: ?>>) -> f32 {
    %c1 = arith.constant 1 : index
    %v = memref.load %m[%c1] : memref<4xf32, strided<[1], offset: ?>>
    return %v : f32
  }

  gpu.func @fma_two_inputs(%a: memref<?xf32> {llvm.noalias, llvm.readonly},
                           %b: memref<?xf32> {llvm.noalias, llvm.readonly},
                           %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %a[%t] : memref<?xf32>
    %s = memref.subview %b[%t] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %y = func.call @second(%s) : (memref<4xf32, strided<[1], offset: ?>>) -> f32
    %p = arith.mulf %x, %y : f32
    memref.store %p, %out[%t] : memref<?xf32>
    gpu.return
  }

  gpu.func @readonly_alone(%in: memref<?xf32> {llvm.readonly}, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<?xf32>
    memref.store %v, %out[%t] : memref<?xf32>
    gpu.return
  }
}
}
