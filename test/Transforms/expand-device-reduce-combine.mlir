// warp.device_reduce_combine: a module of kernels per op (its region is
// part of them), reduce_tiles and reduce_finish launched with the init
// values as kernel parameters between the inputs and the outputs, tiles
// of the tuple's widest element (an f64 in a tuple with an i8: 8 items a
// thread), the region copied into warp.block_reduce's combine form with
// valid_threads, and the whole pipeline to PTX that ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: warp-opt %s | warp-opt | FileCheck %s --check-prefix=ROUND
// RUN: warp-opt %s --mlir-print-op-generic | warp-opt | FileCheck %s --check-prefix=ROUND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// ROUND-LABEL: func.func @argmax(
// ROUND: warp.device_reduce_combine %{{.*}}, %{{.*}} init(%{{.*}}, %{{.*}} : f32, i32) into %{{.*}}, %{{.*}} : memref<?xf32>, memref<?xi32> -> memref<1xf32>, memref<1xi32> combine (%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32) {
// ROUND: warp.yield

// The host side: the scratch (16 bytes a chunk of 16384 elements), the
// two launches, each given (inputs, init, outputs, scratch, n).
// CHECK-LABEL: func.func @argmax(
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_combine_f32_i32::@reduce_tiles
// CHECK-SAME: args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %{{.*}} : f32, %{{.*}} : i32, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_combine_f32_i32::@reduce_finish
// CHECK-NOT: warp.device_
// CHECK-LABEL: func.func @mixed(
// CHECK: @warp_device_reduce_combine_i8_f64::@reduce_tiles
// CHECK-SAME: %{{.*}} : i8, %{{.*}} : f64,
// CHECK: @warp_device_reduce_combine_i8_f64::@reduce_finish
// A second op alike gets a module of its own.
// CHECK: @warp_device_reduce_combine_i8_f64_0::@reduce_tiles

// reduce_tiles: a block per chunk of 4 tiles of 4096; each thread folds
// its 16 items from the left (15 guarded copies of the region), the
// block reduces the folds of its threads that hold an element.
// CHECK-LABEL: gpu.module @warp_device_reduce_combine_f32_i32 attributes {warp.device_scratch = array<i64: 0, 16, 16384>}
// CHECK: gpu.func @reduce_tiles({{.*}}warp.device_grid = 16384 : i64
// CHECK: warp.block_load %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK: warp.block_load %{{.*}} : memref<?xi32>, vector<16xi32>
// CHECK-COUNT-15: scf.if %{{.*}} -> (f32, i32)
// CHECK: warp.block_reduce %{{.*}}, %{{.*}} valid_threads %{{.*}} : f32, i32 combine (
// CHECK: arith.cmpf ogt
// CHECK: scf.for
// CHECK: gpu.func @reduce_finish(
// CHECK-NOT: warp.device_grid
// CHECK: warp.block_reduce %{{.*}}, %{{.*}} valid_threads %{{.*}} : f32, i32 combine (
// CHECK: scf.for
// CHECK: memref.store
// CHECK-LABEL: gpu.module @warp_device_reduce_combine_i8_f64 attributes {warp.device_scratch = array<i64: 0, 16, 8192>}
// CHECK: warp.block_load %{{.*}} : memref<?xi8>, vector<8xi8>
// CHECK: warp.block_load %{{.*}} : memref<?xf64>, vector<8xf64>
// CHECK-COUNT-7: scf.if %{{.*}} -> (i8, f64)

// FILES: warp_device_reduce_combine_f32_i32.ptx
// FILES-NEXT: warp_device_reduce_combine_i8_f64.ptx
// FILES-NEXT: warp_device_reduce_combine_i8_f64_0.ptx

func.func @argmax(%v: memref<?xf32>, %i: memref<?xi32>, %m: memref<1xf32>, %mi: memref<1xi32>,
                  %v0: f32, %i0: i32) {
  // Ties go to the left: the lowering must keep the input order.
  warp.device_reduce_combine %v, %i init(%v0, %i0 : f32, i32) into %m, %mi
      : memref<?xf32>, memref<?xi32> -> memref<1xf32>, memref<1xi32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    %gt = arith.cmpf ogt, %b, %a : f32
    %r = arith.select %gt, %b, %a : f32
    %ri = arith.select %gt, %bi, %ai : i32
    warp.yield %r, %ri : f32, i32
  }
  return
}

func.func @mixed(%c: memref<300xi8>, %s: memref<?xf64>, %oc: memref<1xi8>, %os: memref<4xf64>) {
  %c0 = arith.constant 0 : i8
  %s0 = arith.constant 0.0 : f64
  warp.device_reduce_combine %c, %s init(%c0, %s0 : i8, f64) into %oc, %os
      : memref<300xi8>, memref<?xf64> -> memref<1xi8>, memref<4xf64>
      combine (%a: i8, %x: f64, %b: i8, %y: f64) {
    %n = arith.addi %a, %b : i8
    %t = arith.addf %x, %y : f64
    warp.yield %n, %t : i8, f64
  }
  warp.device_reduce_combine %c, %s init(%c0, %s0 : i8, f64) into %oc, %os
      : memref<300xi8>, memref<?xf64> -> memref<1xi8>, memref<4xf64>
      combine (%a: i8, %x: f64, %b: i8, %y: f64) {
    %n = arith.maxsi %a, %b : i8
    %t = arith.mulf %x, %y : f64
    warp.yield %n, %t : i8, f64
  }
  return
}
