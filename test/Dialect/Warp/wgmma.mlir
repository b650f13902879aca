// warp.wgmma and warp.wgmma_descriptor print as they parse, for each n
// class, input type (16-bit, tf32, fp8, i8), major-ness, signedness and
// swizzle mode, and round-trip through the
// generic form.
// RUN: warp-opt %s | FileCheck %s
// RUN: warp-opt %s --mlir-print-op-generic | warp-opt | FileCheck %s

// CHECK-LABEL: func.func @wgmma_forms
func.func @wgmma_forms(%tile: memref<128x64xf16, #gpu.address_space<workgroup>>,
                       %btile: memref<64x64xbf16, 3>, %i: index,
                       %acc8: vector<4xf32>, %acc256: vector<128xf32>,
                       %acci24: vector<12xi32>) {
  // CHECK: %[[A:.*]] = warp.wgmma_descriptor %{{.*}}[%{{.*}}, %{{.*}}] swizzle = b128 {leading = 16 : i64, stride = 1024 : i64} : memref<128x64xf16, #gpu.address_space<workgroup>>
  %a = warp.wgmma_descriptor %tile[%i, %i] swizzle = b128 {leading = 16, stride = 1024} : memref<128x64xf16, #gpu.address_space<workgroup>>
  // CHECK: warp.wgmma_descriptor %{{.*}} swizzle = none {leading = 128 : i64, stride = 256 : i64} : memref<64x64xbf16, 3>
  %b = warp.wgmma_descriptor %btile[%i, %i] swizzle = none {leading = 128, stride = 256} : memref<64x64xbf16, 3>
  // CHECK: swizzle = b64
  %c = warp.wgmma_descriptor %btile[%i, %i] swizzle = b64 {leading = 0, stride = 512} : memref<64x64xbf16, 3>
  // CHECK: swizzle = b32
  %d = warp.wgmma_descriptor %btile[%i, %i] swizzle = b32 {leading = 0, stride = 256} : memref<64x64xbf16, 3>
  // CHECK: warp.wgmma %[[A]], %{{.*}}, %{{.*}} : f16, vector<4xf32>
  %0 = warp.wgmma %a, %b, %acc8 : f16, vector<4xf32>
  // CHECK: warp.wgmma %{{.*}}, %{{.*}}, %{{.*}} {a_mn_major, b_mn_major} : bf16, vector<128xf32>
  %1 = warp.wgmma %a, %b, %acc256 {a_mn_major, b_mn_major} : bf16, vector<128xf32>
  // CHECK: warp.wgmma %{{.*}} : f32, vector<4xf32>
  %2 = warp.wgmma %a, %b, %acc8 : f32, vector<4xf32>
  // CHECK: warp.wgmma %{{.*}} : f8E4M3FN, vector<128xf32>
  %3 = warp.wgmma %a, %b, %acc256 : f8E4M3FN, vector<128xf32>
  // CHECK: warp.wgmma %{{.*}} : f8E5M2, vector<4xf32>
  %4 = warp.wgmma %a, %b, %acc8 : f8E5M2, vector<4xf32>
  // CHECK: warp.wgmma %{{.*}} {a_unsigned, b_unsigned} : i8, vector<12xi32>
  %5 = warp.wgmma %a, %b, %acci24 {a_unsigned, b_unsigned} : i8, vector<12xi32>
  return
}
