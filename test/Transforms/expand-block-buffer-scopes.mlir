// The block ops' workgroup buffers per buffer scope: kernels that call no
// common function get buffers of their own, each sized for that kernel's
// largest op, so two kernels that each fit the 48 KiB of static shared
// memory still do in one gpu.module; a kernel and the functions it calls
// share theirs (groupByBufferScope, WorkgroupBuffers.h).
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// Block exchanges of 1024 threads (B N items, one padding item per 32 of
// 4 bytes): 6 items, 6144 + 191 = 6335 (25340 bytes); 2 items, 2048 + 63
// = 2111 (8444 bytes). @wide_f32 takes 6 f32 and 2 i32 items, @wide_i32
// the reverse: 33784 bytes each. Buffers of the module's largest exchange
// of each type would give both kernels 50680 bytes, over the 48 KiB
// (warp-check-shared-memory rejected this module before).
// CHECK-DAG: memref.global "private" @[[A_F32:__warp_block_exchange[_0-9]*]] : memref<6335xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[A_I32:__warp_block_exchange[_0-9]*]] : memref<2111xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[B_I32:__warp_block_exchange[_0-9]*]] : memref<6335xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[B_F32:__warp_block_exchange[_0-9]*]] : memref<2111xf32, #gpu.address_space<workgroup>>
// One scratch array for @calls and @helper, one for @alone.
// CHECK-DAG: memref.global "private" @[[SHARED:__warp_block_scratch[_0-9]*]] : memref<66xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[ALONE:__warp_block_scratch[_0-9]*]] : memref<132xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @wide_f32
  // CHECK: memref.get_global @[[A_F32]] :
  // CHECK: memref.get_global @[[A_I32]] :
  // CHECK: gpu.return
  gpu.func @wide_f32(%f: memref<?xvector<6xf32>>, %i: memref<?xvector<2xi32>>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %f[%t] : memref<?xvector<6xf32>>
    %y = warp.block_exchange <blocked_to_striped> %x : vector<6xf32>
    memref.store %y, %f[%t] : memref<?xvector<6xf32>>
    %u = memref.load %i[%t] : memref<?xvector<2xi32>>
    %v = warp.block_exchange <blocked_to_striped> %u : vector<2xi32>
    memref.store %v, %i[%t] : memref<?xvector<2xi32>>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @wide_i32
  // CHECK: memref.get_global @[[B_I32]] :
  // CHECK: memref.get_global @[[B_F32]] :
  // CHECK: gpu.return
  gpu.func @wide_i32(%i: memref<?xvector<6xi32>>, %f: memref<?xvector<2xf32>>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %i[%t] : memref<?xvector<6xi32>>
    %y = warp.block_exchange <blocked_to_striped> %x : vector<6xi32>
    memref.store %y, %i[%t] : memref<?xvector<6xi32>>
    %u = memref.load %f[%t] : memref<?xvector<2xf32>>
    %v = warp.block_exchange <blocked_to_striped> %u : vector<2xf32>
    memref.store %v, %f[%t] : memref<?xvector<2xf32>>
    gpu.return
  }

  // A device function's block op and its caller's share one scratch array
  // (in one half: the callee cannot know the caller's phase).
  // CHECK-LABEL: func.func @helper
  // CHECK: memref.get_global @[[SHARED]] :
  func.func @helper(%x: f32) -> f32 {
    %r = warp.block_reduce <add> %x : f32
    return %r : f32
  }

  // CHECK-LABEL: gpu.func @calls
  // CHECK: memref.get_global @[[SHARED]] :
  // CHECK: func.call @helper
  gpu.func @calls(%io: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xf32>
    %m = warp.block_reduce <maximumf> %x : f32
    %s = func.call @helper(%m) : (f32) -> f32
    memref.store %s, %io[%t] : memref<?xf32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @alone
  // CHECK: memref.get_global @[[ALONE]] :
  gpu.func @alone(%io: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xf32>
    %m = warp.block_reduce <minimumf> %x : f32
    memref.store %m, %io[%t] : memref<?xf32>
    gpu.return
  }
}
}
