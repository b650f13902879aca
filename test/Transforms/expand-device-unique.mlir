// warp.device_unique through the whole pipeline: PTX that ptxas takes, for
// every element width (the block shuffle and the compare of each type).
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// CHECK: warp_device_unique_bf16.ptx
// CHECK-NEXT: warp_device_unique_f64.ptx
// CHECK-NEXT: warp_device_unique_i16.ptx
// CHECK-NEXT: warp_device_unique_i8.ptx
func.func @u(%a: memref<?xf64>, %b: memref<?xi8>, %c: memref<?xi16>, %d: memref<?xbf16>,
             %a2: memref<?xf64>, %b2: memref<?xi8>, %c2: memref<?xi16>, %d2: memref<?xbf16>,
             %k: memref<1xi64>) {
  warp.device_unique %a, %a2, %k : memref<?xf64>, memref<?xf64>, memref<1xi64>
  warp.device_unique %b, %b2, %k : memref<?xi8>, memref<?xi8>, memref<1xi64>
  warp.device_unique %c, %c2, %k : memref<?xi16>, memref<?xi16>, memref<1xi64>
  warp.device_unique %d, %d2, %k : memref<?xbf16>, memref<?xbf16>, memref<1xi64>
  return
}
