// bare-ptr-memref=true: a memref kernel argument is one pointer, on which
// upstream's lowering already puts llvm.noalias and llvm.readonly;
// warp-record-read-only-args and warp-mark-read-only-params keep it so (and
// the check for writes applies here too), with 64- and 32-bit device index.
// read-only-args.mlir: descriptors.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa bare-ptr-memref=true ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa bare-ptr-memref=true device-index-bitwidth=32 ptx-output=%t.32.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.32.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.32.ptx -o %t.32.cubin %}

// CHECK-LABEL: .entry load_f32(
// CHECK-NEXT: .param .u64 .ptr .align 1 load_f32_param_0,
// CHECK-NEXT: .param .u64 .ptr .align 1 load_f32_param_1
// CHECK-NEXT: )
// CHECK: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: ret;
// CHECK-LABEL: .entry load_vector(
// CHECK: ld.global.nc.v4.b32
// CHECK-NOT: ld.global
// CHECK: ret;
// CHECK-LABEL: .entry load_i32(
// CHECK: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: ret;
// CHECK-LABEL: .entry readonly_alone(
// CHECK-NOT: ld.global.nc
// CHECK: ld.global.b32
// CHECK: ret;

module attributes {gpu.container_module} {
gpu.module @read_only {
  gpu.func @load_f32(%in: memref<1024xf32> {llvm.noalias, llvm.readonly}, %out: memref<1024xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<1024xf32>
    memref.store %v, %out[%t] : memref<1024xf32>
    gpu.return
  }

  gpu.func @load_vector(%in: memref<4096xf32> {llvm.noalias, llvm.readonly}, %out: memref<1024xvector<4xf32>>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %i = arith.muli %t, %c4 : index
    %v = vector.load %in[%i] {alignment = 16} : memref<4096xf32>, vector<4xf32>
    memref.store %v, %out[%t] : memref<1024xvector<4xf32>>
    gpu.return
  }

  gpu.func @load_i32(%n: i32, %in: memref<1024xi32> {llvm.noalias, llvm.readonly}, %out: memref<1024xi32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<1024xi32>
    %s = arith.addi %v, %n : i32
    memref.store %s, %out[%t] : memref<1024xi32>
    gpu.return
  }

  gpu.func @readonly_alone(%in: memref<1024xf32> {llvm.readonly}, %out: memref<1024xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<1024xf32>
    memref.store %v, %out[%t] : memref<1024xf32>
    gpu.return
  }
}
}
