// bare-ptr-memref=true: kernels take one pointer per memref (upstream's
// bare-pointer calling convention), and the host's launch passes just that
// pointer; the default passes the 5-field descriptor of a rank-1 memref
// (allocated, aligned, offset, size, stride).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa bare-ptr-memref=true ptx-output=%t.bare.ptx" | FileCheck %s --check-prefix=HOST-BARE
// RUN: FileCheck %s --check-prefix=BARE --input-file=%t.bare.ptx
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.desc.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=DESC --input-file=%t.desc.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.bare.ptx -o /dev/null %}
// With device-index-bitwidth=32 the bare-pointer parameters are the same.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa bare-ptr-memref=true device-index-bitwidth=32 ptx-output=%t.bare32.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=BARE --input-file=%t.bare32.ptx
// Bad option values are errors before anything runs.
// RUN: not warp-opt %s --warp-lower-to-ptx="format=isa ptxas-options=-v" 2>&1 | FileCheck %s --check-prefix=PTXAS-ISA
// RUN: not warp-opt %s --warp-lower-to-ptx="bare-ptr-memref=maybe" 2>&1 | FileCheck %s --check-prefix=BAD-BOOL

// BARE-LABEL: .visible .entry sum_rows(
// BARE-NEXT:  .param .u64 .ptr .align 1 sum_rows_param_0,
// BARE-NEXT:  .param .u64 .ptr .align 1 sum_rows_param_1,
// BARE-NEXT:  .param .u32 sum_rows_param_2
// BARE-NEXT:  )
// BARE:       shfl.sync.bfly

// DESC-LABEL: .visible .entry sum_rows(
// DESC-COUNT-10: .param .u64
// DESC-NEXT:  .param .u32 sum_rows_param_10
// DESC-NEXT:  )

// The host launch: two pointers and the i32, not two descriptors.
// HOST-BARE: llvm.func @main(
// HOST-BARE: gpu.launch_func @kernels::@sum_rows {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i32)

// PTXAS-ISA: ptxas-options='-v' needs format=bin or fatbin
// BAD-BOOL: bare-ptr-memref

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum_rows(%in: memref<64xf32>, %out: memref<2xf32>, %scale: i32) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c32 = arith.constant 32 : index
      %row = arith.muli %bid, %c32 : index
      %i = arith.addi %row, %tid : index
      %x = memref.load %in[%i] : memref<64xf32>
      %s = warp.reduce <add> %x : f32
      %f = arith.sitofp %scale : i32 to f32
      %y = arith.mulf %s, %f : f32
      memref.store %y, %out[%bid] : memref<2xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64xf32>, %out: memref<2xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %k = arith.constant 3 : i32
    gpu.launch_func @kernels::@sum_rows blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%in : memref<64xf32>, %out : memref<2xf32>, %k : i32)
    return
  }
}
