// warp.device_radix_sort double_buffer: the passes go back and forth
// between the op's two buffers, so the scratch holds no copy of the data
// (the digits' totals, then per tile the two look-back status arrays), and
// the result is the constant index of the buffer that the last pass writes:
// 2 passes of i16 keys end in buffer 0 (keys_in), 3 passes of bits
// [0, 24) in buffer 1 (keys_out). The whole pipeline to PTX that ptxas
// takes. Tiles: 256 threads x 24 pairs (96 bytes a thread, keys and
// values moved as 4 bytes) and x 32 keys (128 bytes a thread of keys only).
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=EXPAND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// An input of at most a single tile (i16 keys and f32 values at 64 bytes
// a thread: 4096) is sorted by one kernel into the same buffer.
// EXPAND-LABEL: func.func @d
// EXPAND: %[[SMALL:.*]] = arith.cmpi ule, %{{.*}}, %c4096{{.*}} : index
// EXPAND-NEXT: scf.if %[[SMALL]] {
// EXPAND: gpu.launch_func {{.*}} @warp_device_radix_sort_i16_f32_double_buffer::@radix_sort_single_tile
// EXPAND: } else {
// EXPAND: gpu.launch_func {{.*}} @warp_device_radix_sort_i16_f32_double_buffer::@radix_onesweep_1
// EXPAND-NOT: radix_onesweep_2
// EXPAND: gpu.wait
// EXPAND-NEXT: }
// EXPAND-NEXT: %[[B0:.*]] = arith.constant 0 : i32
// EXPAND: gpu.launch_func {{.*}} @warp_device_radix_sort_i32_bits0_24_double_buffer::@radix_onesweep_2
// EXPAND: gpu.wait
// EXPAND-NEXT: }
// EXPAND-NEXT: %[[B1:.*]] = arith.constant 1 : i32
// EXPAND: return %[[B0]], %[[B1]] : i32, i32
// EXPAND-LABEL: gpu.module @warp_device_radix_sort_i16_f32_double_buffer
// EXPAND-SAME: warp.device_result_buffer = 0 : i32
// EXPAND-SAME: warp.device_scratch = array<i64: 4352, 4096, 6144>
// The single tile is sorted in place in keys_in, which holds the result.
// EXPAND: gpu.func @radix_sort_single_tile(%arg0: memref<?xi16>, %arg1: memref<?xi16>, %arg2: memref<?xf32>, %arg3: memref<?xf32>{{.*}}warp.device_alone_up_to = 4096 : i64
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_radix_sort
// EXPAND-NOT: gpu.func
// EXPAND: memref.store {{.*}}, %arg0
// EXPAND-NOT: gpu.func
// EXPAND: memref.store {{.*}}, %arg2
// Pass 0 reads keys_in (%arg0) and writes keys_out (%arg1); pass 1 back.
// EXPAND: gpu.func @radix_onesweep_0(%arg0: memref<?xi16>, %arg1: memref<?xi16>, %arg2: memref<?xf32>, %arg3: memref<?xf32>
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_load %arg0
// EXPAND-NOT: gpu.func
// EXPAND: memref.store {{.*}}, %arg1
// EXPAND: gpu.func @radix_onesweep_1(
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_load %arg1
// EXPAND-NOT: gpu.func
// EXPAND: memref.store {{.*}}, %arg0
// EXPAND-LABEL: gpu.module @warp_device_radix_sort_i32_bits0_24_double_buffer
// EXPAND-SAME: warp.device_result_buffer = 1 : i32
// EXPAND-SAME: warp.device_scratch = array<i64: 6400, 4096, 8192>
// Its single tile (16 i32 keys a thread) goes to keys_out.
// EXPAND: gpu.func @radix_sort_single_tile({{.*}}warp.device_alone_up_to = 4096 : i64
// EXPAND-NOT: gpu.func
// EXPAND: memref.store {{.*}}, %arg1
// Pass 0 reads keys_in and writes keys_out, pass 1 back, pass 2 forth.
// EXPAND: gpu.func @radix_onesweep_0(
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_load %arg0
// EXPAND-NOT: gpu.func
// EXPAND: memref.store {{.*}}, %arg1
// EXPAND: gpu.func @radix_onesweep_1(
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_load %arg1
// EXPAND: gpu.func @radix_onesweep_2(
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_load %arg0

// CHECK: warp_device_radix_sort_i16_f32_double_buffer.ptx
// CHECK-NEXT: warp_device_radix_sort_i32_bits0_24_double_buffer.ptx
func.func @d(%k: memref<?xi16>, %k2: memref<?xi16>, %v: memref<?xf32>, %v2: memref<?xf32>,
             %i: memref<?xi32>, %i2: memref<?xi32>) -> (i32, i32) {
  %c = warp.device_radix_sort %k, %k2 values %v, %v2 double_buffer
      : memref<?xi16>, memref<?xi16>, memref<?xf32>, memref<?xf32> -> i32
  %d = warp.device_radix_sort %i, %i2 bits 0 to 24 double_buffer : memref<?xi32>, memref<?xi32> -> i32
  return %c, %d : i32, i32
}
