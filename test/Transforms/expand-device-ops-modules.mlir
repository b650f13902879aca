// Where warp-expand-device-ops puts kernels: in the module nearest the op
// (a nested module gets its own gpu.module and gpu.container_module), and
// under another name when a gpu.module that states no launches already
// has theirs (ops alike still share the renamed one).
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: warp-opt %s --warp-expand-device-ops --warp-expand-device-ops | FileCheck %s

// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @warp_device_reduce_add_f32 {
// CHECK-NEXT: }
gpu.module @warp_device_reduce_add_f32 {
}

// CHECK: module @inner attributes {gpu.container_module}
// CHECK: func.func @f
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_tiles
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_finish
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_tiles
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_finish
// CHECK: gpu.module @warp_device_reduce_add_f32 attributes {warp.device_scratch
// CHECK-NOT: gpu.module
// CHECK: }
module @inner {
  func.func @f(%x: memref<?xf32>, %s: memref<1xf32>) {
    warp.device_reduce <add> %x, %s : memref<?xf32>, memref<1xf32>
    warp.device_reduce <add> %x, %s : memref<?xf32>, memref<1xf32>
    return
  }
}

// CHECK: func.func @g
// CHECK: gpu.launch_func async [%{{.*}}] @[[RENAMED:warp_device_reduce_add_f32_[0-9]+]]::@reduce_tiles
// CHECK: gpu.launch_func async [%{{.*}}] @[[RENAMED]]::@reduce_finish
// CHECK: gpu.launch_func async [%{{.*}}] @[[RENAMED]]::@reduce_tiles
// CHECK: gpu.module @[[RENAMED]] attributes {warp.device_scratch
// CHECK-NOT: gpu.module
func.func @g(%x: memref<?xf32>, %s: memref<1xf32>, %t: memref<?xf32>) {
  warp.device_reduce <add> %x, %s : memref<?xf32>, memref<1xf32>
  warp.device_reduce <add> %t, %s : memref<?xf32>, memref<1xf32>
  return
}
