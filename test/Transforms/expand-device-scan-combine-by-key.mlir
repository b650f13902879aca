// warp.device_scan_combine with keys (CUB's ScanByKey with a custom op,
// init and equality_op): the tile of keys loaded beside the tuples (tiles
// sized by the tuple and key bytes together), each item's head from its
// key and the one before (the previous thread's last through
// warp.block_shuffle) by the equal region, (head seen, tuple) pairs
// scanned with the segmented combine around the op's region; a module of
// its own per op. The whole pipeline to PTX that ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// FILES: warp_device_scan_combine_f32_f32_by_key_i8_init_exclusive.ptx
// FILES-NEXT: warp_device_scan_combine_i32_by_key_i32_equal.ptx

// CHECK-LABEL: func.func @by_key
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_combine_i32_by_key_i32_equal::@scan_init
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_combine_i32_by_key_i32_equal::@scan
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_combine_f32_f32_by_key_i8_init_exclusive::@scan

// Tiles of 8 bytes a tuple and key: 2048 of them, 8 a thread.
// CHECK-LABEL: gpu.module @warp_device_scan_combine_i32_by_key_i32_equal attributes {warp.device_scratch = array<i64: 0, 24, 2048>}
// CHECK: gpu.func @scan(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %[[KEYS:.*]]: memref<?xi32>,
// CHECK: warp.block_load %[[KEYS]]{{.*}} : memref<?xi32>, vector<8xi32>
// CHECK: warp.block_shuffle <offset>
// The equal region, on the key before and the key.
// CHECK: arith.divsi
// CHECK: arith.divsi
// CHECK: arith.cmpi eq
// CHECK: warp.block_scan {{.*}} items : vector<8xi1>, vector<8xi32>, i1, i32 combine (%[[LF:.*]]: i1, %[[L:.*]]: i32, %[[RF:.*]]: i1, %[[R:.*]]: i32) {
// CHECK: %[[F:.*]] = arith.ori %[[LF]], %[[RF]] : i1
// CHECK: %[[M:.*]] = arith.maxsi %[[L]], %[[R]] : i32
// CHECK: %[[V:.*]] = arith.select %[[RF]], %[[R]], %[[M]] : i32
// CHECK: warp.yield %[[F]], %[[V]] : i1, i32

// CHECK-LABEL: gpu.module @warp_device_scan_combine_f32_f32_by_key_i8_init_exclusive
// CHECK: gpu.func @scan(
// CHECK: warp.block_load %{{.*}} : memref<?xi8>, vector<4xi8>
// Keys compared by ==.
// CHECK: arith.cmpi ne
// CHECK: warp.block_scan {{.*}} items : vector<4xi1>, vector<4xf32>, vector<4xf32>, i1, f32, f32 combine
func.func @by_key(%x: memref<?xi32>, %m: memref<?xi32>, %k: memref<?xi32>,
                  %a: memref<?xf32>, %b: memref<?xf32>, %f: memref<?xf32>, %g: memref<?xf32>,
                  %h: memref<?xi8>, %a0: f32, %b0: f32) {
  warp.device_scan_combine %x into %m keys %k : memref<?xi32> -> memref<?xi32> keys memref<?xi32>
      combine (%l: i32, %r: i32) {
    %v = arith.maxsi %l, %r : i32
    warp.yield %v : i32
  } equal(%p: i32, %q: i32) {
    %ten = arith.constant 10 : i32
    %pt = arith.divsi %p, %ten : i32
    %qt = arith.divsi %q, %ten : i32
    %same = arith.cmpi eq, %pt, %qt : i32
    warp.yield %same : i1
  }
  warp.device_scan_combine %a, %b init(%a0, %b0 : f32, f32) into %f, %g keys %h exclusive
      : memref<?xf32>, memref<?xf32> -> memref<?xf32>, memref<?xf32> keys memref<?xi8>
      combine (%a1: f32, %b1: f32, %a2: f32, %b2: f32) {
    %a3 = arith.mulf %a2, %a1 : f32
    %t = arith.mulf %a2, %b1 : f32
    %b3 = arith.addf %t, %b2 : f32
    warp.yield %a3, %b3 : f32, f32
  }
  return
}
