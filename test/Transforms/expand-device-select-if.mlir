// warp.device_select_if and warp.device_partition_if: the predicate region
// copied per item into the selection kernel (a copy per item of a whole
// tile, a guarded one per item of the last tile), a module of kernels per
// op (two ops alike do not share one), and the whole pipeline to PTX that
// ptxas takes, for 1-, 2-, 4- and 8-byte elements.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// The host side: a launch per kernel, the select's operands without flags.
// CHECK-LABEL: func.func @s(
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_select_if_f32::@scan_init
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_select_if_f32::@select
// CHECK-SAME: args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_select_if_f32_0::@select
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_partition_if_i64::@partition
// CHECK-NOT: warp.device_

// The f32 select: 16 items a thread, the predicate 16 times unguarded
// (whole tiles), then 16 times under a bound check.
// CHECK-LABEL: gpu.module @warp_device_select_if_f32 attributes
// CHECK: gpu.func @select(
// CHECK-COUNT-16: arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK: vector.from_elements
// CHECK: } else {
// CHECK-COUNT-16: scf.if %{{.*}} -> (i1)
// CHECK: vector.from_elements
// CHECK: warp.block_scan <add>
// The second select, with a predicate of its own.
// CHECK-LABEL: gpu.module @warp_device_select_if_f32_0 attributes
// CHECK: arith.cmpf ult
// CHECK-LABEL: gpu.module @warp_device_partition_if_i64 attributes
// CHECK: gpu.func @partition({{.*}} nvvm.minctasm = 6 : i32
// CHECK: arith.cmpi slt

// FILES: warp_device_partition_if_i64.ptx
// FILES-NEXT: warp_device_select_if_f32.ptx
// FILES-NEXT: warp_device_select_if_f32_0.ptx
// FILES-NEXT: warp_device_select_if_i16.ptx
// FILES-NEXT: warp_device_select_if_i8.ptx
func.func @s(%x: memref<?xf32>, %y: memref<?xf32>, %l: memref<?xi64>, %m: memref<?xi64>,
             %b: memref<?xi8>, %b2: memref<?xi8>, %h: memref<?xi16>, %h2: memref<?xi16>,
             %k: memref<1xi64>) {
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
    %t = arith.constant 0.5 : f32
    %c = arith.cmpf ogt, %v, %t : f32
    warp.yield %c : i1
  }
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
    %t = arith.constant -2.0 : f32
    %c = arith.cmpf ult, %v, %t : f32
    warp.yield %c : i1
  }
  warp.device_partition_if %l, %m, %k : memref<?xi64>, memref<?xi64>, memref<1xi64> pred(%v: i64) {
    %z = arith.constant 0 : i64
    %c = arith.cmpi slt, %v, %z : i64
    warp.yield %c : i1
  }
  warp.device_select_if %b, %b2, %k : memref<?xi8>, memref<?xi8>, memref<1xi64> pred(%v: i8) {
    %one = arith.constant 1 : i8
    %low = arith.andi %v, %one : i8
    %c = arith.cmpi eq, %low, %one : i8
    warp.yield %c : i1
  }
  warp.device_select_if %h, %h2, %k : memref<?xi16>, memref<?xi16>, memref<1xi64> pred(%v: i16) {
    %seven = arith.constant 7 : i16
    %r = arith.remsi %v, %seven : i16
    %z = arith.constant 0 : i16
    %c = arith.cmpi ne, %r, %z : i16
    warp.yield %c : i1
  }
  return
}
