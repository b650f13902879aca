// warp.device_radix_sort through the whole pipeline: PTX that ptxas takes,
// for keys of every width, floats and signed integers, descending, a bit
// range of two passes and pairs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// CHECK: warp_device_radix_sort_bf16_descending.ptx
// CHECK-NEXT: warp_device_radix_sort_f64.ptx
// CHECK-NEXT: warp_device_radix_sort_i16_signed_bits4_14.ptx
// CHECK-NEXT: warp_device_radix_sort_i32_f64_signed.ptx
// CHECK-NEXT: warp_device_radix_sort_i8.ptx
func.func @s(%a: memref<?xf64>, %b: memref<?xi8>, %c: memref<?xi16>, %d: memref<?xbf16>,
             %e: memref<?xi32>, %v: memref<?xf64>,
             %a2: memref<?xf64>, %b2: memref<?xi8>, %c2: memref<?xi16>, %d2: memref<?xbf16>,
             %e2: memref<?xi32>, %v2: memref<?xf64>) {
  warp.device_radix_sort %a, %a2 : memref<?xf64>, memref<?xf64>
  warp.device_radix_sort %b, %b2 : memref<?xi8>, memref<?xi8>
  warp.device_radix_sort %c, %c2 signed bits 4 to 14 : memref<?xi16>, memref<?xi16>
  warp.device_radix_sort %d, %d2 descending : memref<?xbf16>, memref<?xbf16>
  warp.device_radix_sort %e, %e2 values %v, %v2 signed
      : memref<?xi32>, memref<?xi32>, memref<?xf64>, memref<?xf64>
  return
}
