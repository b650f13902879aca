// warp.device_segmented_radix_sort double_buffer: a segment's passes go
// back and forth between the op's two buffers at the segment's positions
// (no scratch copy of the data: 8 bytes, so that no allocation is empty),
// a segment of one tile is sorted into the buffer that holds the result,
// and the result is the constant index of that buffer, as for
// warp.device_radix_sort: 1 pass of i8 keys ends in buffer 1 (keys_out), 2
// passes of i16 keys in buffer 0 (keys_in). The whole pipeline to PTX that
// ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=EXPAND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// EXPAND-LABEL: func.func @d
// EXPAND: %[[BYTES:.*]] = arith.constant 8 : index
// EXPAND: gpu.launch_func {{.*}} @warp_device_segmented_radix_sort_i16_f32_i32_i32_double_buffer::@segmented_radix_sort
// EXPAND: gpu.wait
// EXPAND-NEXT: %[[B0:.*]] = arith.constant 0 : i32
// EXPAND: gpu.launch_func {{.*}} @warp_device_segmented_radix_sort_i8_i64_i64_double_buffer::@segmented_radix_sort
// EXPAND: gpu.wait
// EXPAND-NEXT: %[[B1:.*]] = arith.constant 1 : i32
// EXPAND: return %[[B0]], %[[B1]] : i32, i32
// EXPAND-LABEL: gpu.module @warp_device_segmented_radix_sort_i16_f32_i32_i32_double_buffer
// EXPAND-SAME: warp.device_result_buffer = 0 : i32
// EXPAND-SAME: warp.device_scratch = array<i64: 8, 0, 1>
// (keys_in, keys_out, begin, end, values_in, values_out): a short segment
// is sorted in place into keys_in; a long one's pass 0 reads keys_in and
// writes keys_out, pass 1 back into keys_in; nothing goes to the scratch.
// EXPAND: gpu.func @segmented_radix_sort(%arg0: memref<?xi16>, %arg1: memref<?xi16>, %arg2: memref<?xi32>, %arg3: memref<?xi32>, %arg4: memref<?xf32>, %arg5: memref<?xf32>, %arg6: memref<?xi8>
// EXPAND-NOT: memref.view
// EXPAND: warp.block_radix_sort
// EXPAND: memref.store {{.*}}, %arg0
// EXPAND: memref.store {{.*}}, %arg4
// EXPAND: } else {
// EXPAND: memref.store {{.*}}, %arg1
// EXPAND: memref.store {{.*}}, %arg5
// EXPAND: memref.store {{.*}}, %arg0
// EXPAND: memref.store {{.*}}, %arg4
// EXPAND-LABEL: gpu.module @warp_device_segmented_radix_sort_i8_i64_i64_double_buffer
// EXPAND-SAME: warp.device_result_buffer = 1 : i32

// CHECK: warp_device_segmented_radix_sort_i16_f32_i32_i32_double_buffer.ptx
// CHECK-NEXT: warp_device_segmented_radix_sort_i8_i64_i64_double_buffer.ptx
func.func @d(%k: memref<?xi16>, %k2: memref<?xi16>, %v: memref<?xf32>, %v2: memref<?xf32>,
             %o: memref<?xi32>, %b: memref<?xi8>, %b2: memref<?xi8>, %e: memref<?xi64>)
    -> (i32, i32) {
  %c = warp.device_segmented_radix_sort %k, %k2, %o, %o values %v, %v2 double_buffer
      : memref<?xi16>, memref<?xi16>, memref<?xi32>, memref<?xi32>, memref<?xf32>,
        memref<?xf32> -> i32
  %d = warp.device_segmented_radix_sort %b, %b2, %e, %e double_buffer
      : memref<?xi8>, memref<?xi8>, memref<?xi64>, memref<?xi64> -> i32
  return %c, %d : i32, i32
}
