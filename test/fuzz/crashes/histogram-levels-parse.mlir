// Found by warp-fuzz (the clean-clone CI run of 2026-12-05, on the new
// device_histogram_levels seed): warp.device_histogram without `even`
// failed an assertion in its generated parser, which read `lower`'s type
// (to give `upper` the same, OptionalTypesMatchWith) from an empty list.
// Release builds read past the list and went on. Fixed: `upper`'s type is
// set by a custom directive only where `even` is present. The assertion
// shows in the sanitized fuzz build, which replays this seed; here the
// forms round-trip.
// RUN: warp-opt %s | warp-opt | FileCheck %s
// CHECK: warp.device_histogram %{{.*}}, %{{.*}} even(%{{.*}}, %{{.*}} : f32) : memref<?xf32>, memref<10xi32>
// CHECK: warp.device_histogram %{{.*}}, %{{.*}} range %{{.*}} : memref<?xf32>, memref<10xi32>, memref<11xf32>
// CHECK: warp.device_histogram %{{.*}}, %{{.*}} : memref<?xi32>, memref<10xi32>
func.func @f(%x: memref<?xf32>, %b: memref<10xi32>, %lo: f32, %hi: f32, %l: memref<11xf32>,
             %k: memref<?xi32>) {
  warp.device_histogram %x, %b even(%lo, %hi : f32) : memref<?xf32>, memref<10xi32>
  warp.device_histogram %x, %b range %l : memref<?xf32>, memref<10xi32>, memref<11xf32>
  warp.device_histogram %k, %b : memref<?xi32>, memref<10xi32>
  return
}
