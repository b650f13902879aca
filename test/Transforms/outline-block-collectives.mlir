// warp-outline-block-collectives: a kernel with more than `max-inline`
// block ops calls private no_inline functions for them, one per kind of op
// (name, attributes, types, region) and callers' block size; a kernel with
// fewer keeps them.
// RUN: warp-opt %s --warp-outline-block-collectives=max-inline=2 | FileCheck %s
// Through the whole pipeline, assembled.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: gpu.module @m
// The functions go before the first kernel that needs them.
// CHECK: func.func private @__warp_block_reduce(%[[A:.*]]: f32) -> f32 attributes {no_inline, warp.callers_block_size = array<i32: 64, 1, 1>}
// CHECK-NEXT: %[[R:.*]] = warp.block_reduce <add> %[[A]] : f32
// CHECK-NEXT: return %[[R]] : f32
// CHECK: func.func private @__warp_block_scan(%{{.*}}: i32, %{{.*}}: i32) -> (i32, i32) attributes {no_inline, warp.callers_block_size = array<i32: 64, 1, 1>}
// CHECK-NEXT: warp.block_scan <add> %arg0 exclusive init %arg1 : i32, i32
// CHECK: func.func private @__warp_block_reduce_0(%{{.*}}: f32, %{{.*}}: f32) -> (f32, f32) attributes {no_inline, warp.callers_block_size = array<i32: 64, 1, 1>}
// CHECK-NEXT: warp.block_reduce %{{.*}}, %{{.*}} : f32, f32 combine
// CHECK: gpu.func @many(
// CHECK-NOT: warp.block_
// CHECK: call @__warp_block_reduce(%{{.*}}) : (f32) -> f32
// CHECK: call @__warp_block_reduce(%{{.*}}) : (f32) -> f32
// CHECK: call @__warp_block_scan(%{{.*}}, %{{.*}}) : (i32, i32) -> (i32, i32)
// CHECK: call @__warp_block_reduce_0(%{{.*}}, %{{.*}}) : (f32, f32) -> (f32, f32)
// CHECK: gpu.return
// Another kernel of the same block size shares the functions.
// CHECK: gpu.func @same_size(
// CHECK-COUNT-3: call @__warp_block_reduce(%{{.*}}) : (f32) -> f32
// A kernel of another size (and one of unknown size) gets its own.
// CHECK: func.func private @__warp_block_reduce_1(%{{.*}}: f32) -> f32 attributes {no_inline, warp.callers_block_size = array<i32: 128, 1, 1>}
// CHECK: gpu.func @other_size(
// CHECK-COUNT-3: call @__warp_block_reduce_1(
// CHECK: func.func private @__warp_block_reduce_2(%{{.*}}: f32) -> f32 attributes {no_inline} {
// CHECK: gpu.func @unknown_size(
// CHECK-COUNT-3: call @__warp_block_reduce_2(
// Two block ops: inline.
// CHECK: gpu.func @few(
// CHECK-NOT: call
// CHECK-COUNT-2: warp.block_reduce <add>
// CHECK-NOT: call
// CHECK: gpu.return
gpu.module @m {
  gpu.func @many(%x: f32, %y: i32, %out: memref<8xf32>, %iout: memref<8xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = warp.block_reduce <add> %x : f32
    %b = warp.block_reduce <add> %a : f32
    %s:2 = warp.block_scan <add> %y exclusive init %y : i32, i32
    %p:2 = warp.block_reduce %a, %b : f32, f32 combine (%l0: f32, %l1: f32, %r0: f32, %r1: f32) {
      %m0 = arith.addf %l0, %r0 : f32
      %m1 = arith.maximumf %l1, %r1 : f32
      warp.yield %m0, %m1 : f32, f32
    }
    memref.store %p#1, %out[%c0] : memref<8xf32>
    memref.store %s#1, %iout[%c0] : memref<8xi32>
    gpu.return
  }
  gpu.func @same_size(%x: f32, %out: memref<8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = warp.block_reduce <add> %x : f32
    %b = warp.block_reduce <add> %a : f32
    %c = warp.block_reduce <add> %b : f32
    memref.store %c, %out[%c0] : memref<8xf32>
    gpu.return
  }
  gpu.func @other_size(%x: f32, %out: memref<8xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = warp.block_reduce <add> %x : f32
    %b = warp.block_reduce <add> %a : f32
    %c = warp.block_reduce <add> %b : f32
    memref.store %c, %out[%c0] : memref<8xf32>
    gpu.return
  }
  gpu.func @unknown_size(%x: f32, %out: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %a = warp.block_reduce <add> %x : f32
    %b = warp.block_reduce <add> %a : f32
    %c = warp.block_reduce <add> %b : f32
    memref.store %c, %out[%c0] : memref<8xf32>
    gpu.return
  }
  gpu.func @few(%x: f32, %out: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %a = warp.block_reduce <add> %x : f32
    %b = warp.block_reduce <add> %a : f32
    memref.store %b, %out[%c0] : memref<8xf32>
    gpu.return
  }
}
