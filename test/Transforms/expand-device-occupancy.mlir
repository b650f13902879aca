// The occupancy hints of the selection kernels (DeviceTiling's
// k*MinBlocksPerSM): nvvm.minctasm on kernels of 4- and 8-byte items, and
// PTX's .minnctapersm from it; none on kernels of 1- and 2-byte items (32
// or 64 items a thread, which would spill), on scans or on reductions.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/warp_device_unique_i32.ptx
// RUN: not grep minnctapersm %t/warp_device_unique_i16.ptx %t/warp_device_scan_add_i32.ptx

// CHECK-LABEL: gpu.module @warp_device_select_f32
// CHECK: gpu.func @select({{.*}} nvvm.minctasm = 5 : i32
// CHECK-LABEL: gpu.module @warp_device_partition_i64
// CHECK: gpu.func @partition({{.*}} nvvm.minctasm = 6 : i32
// CHECK-LABEL: gpu.module @warp_device_unique_i32
// CHECK: gpu.func @unique({{.*}} nvvm.minctasm = 6 : i32
// CHECK-LABEL: gpu.module @warp_device_unique_i16
// CHECK-NOT: minctasm
// CHECK-LABEL: gpu.module @warp_device_run_length_encode_i8_i32
// CHECK: gpu.func @run_length_encode({{.*}} nvvm.minctasm = 5 : i32
// CHECK-LABEL: gpu.module @warp_device_scan_add_i32
// CHECK-NOT: minctasm
// PTX: .entry unique(
// PTX: .maxntid 256, 1, 1
// PTX-NEXT: .minnctapersm 6
func.func @f(%x: memref<?xf32>, %y: memref<?xf32>, %l: memref<?xi64>, %m: memref<?xi64>,
             %a: memref<?xi32>, %b: memref<?xi32>, %h: memref<?xi16>, %g: memref<?xi16>,
             %p: memref<?xi8>, %q: memref<?xi8>, %c: memref<?xi32>,
             %flags: memref<?xi8>, %k: memref<1xi64>) {
  warp.device_select %x, %flags, %y, %k : memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<1xi64>
  warp.device_partition %l, %flags, %m, %k : memref<?xi64>, memref<?xi8>, memref<?xi64>, memref<1xi64>
  warp.device_unique %a, %b, %k : memref<?xi32>, memref<?xi32>, memref<1xi64>
  warp.device_unique %h, %g, %k : memref<?xi16>, memref<?xi16>, memref<1xi64>
  warp.device_run_length_encode %p, %q, %c, %k : memref<?xi8>, memref<?xi8>, memref<?xi32>, memref<1xi64>
  warp.device_scan <add> %a, %b : memref<?xi32>, memref<?xi32>
  return
}
