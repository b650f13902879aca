// warp.mma_sync, warp.ldmatrix and warp.stmatrix print as they parse, for
// every combination PTX has (the verifier's table), and round-trip through
// the generic form.
// RUN: warp-opt %s | FileCheck %s
// RUN: warp-opt %s --mlir-print-op-generic | warp-opt | FileCheck %s

// CHECK-LABEL: func.func @mma_forms
func.func @mma_forms(%h8: vector<8xf16>, %h4: vector<4xf16>, %h2: vector<2xf16>,
                     %b8: vector<8xbf16>, %b4: vector<4xbf16>, %b2: vector<2xbf16>,
                     %t4: vector<4xf32>, %t2: vector<2xf32>, %t1: vector<1xf32>,
                     %i16: vector<16xi8>, %i8: vector<8xi8>, %i4: vector<4xi8>,
                     %acc: vector<4xf32>, %acch: vector<4xf16>, %acci: vector<4xi32>) {
  // CHECK: warp.mma_sync %{{.*}}, %{{.*}}, %{{.*}} shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xf32>
  %0 = warp.mma_sync %h8, %h4, %acc shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xf32>
  // CHECK: shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xf16>
  %1 = warp.mma_sync %h8, %h4, %acch shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xf16>
  // CHECK: shape = m16n8k8 : vector<4xf16>, vector<2xf16> -> vector<4xf32>
  %2 = warp.mma_sync %h4, %h2, %acc shape = m16n8k8 : vector<4xf16>, vector<2xf16> -> vector<4xf32>
  // CHECK: shape = m16n8k16 : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
  %3 = warp.mma_sync %b8, %b4, %acc shape = m16n8k16 : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
  // CHECK: shape = m16n8k8 : vector<4xbf16>, vector<2xbf16> -> vector<4xf32>
  %4 = warp.mma_sync %b4, %b2, %acc shape = m16n8k8 : vector<4xbf16>, vector<2xbf16> -> vector<4xf32>
  // CHECK: shape = m16n8k8 : vector<4xf32>, vector<2xf32> -> vector<4xf32>
  %5 = warp.mma_sync %t4, %t2, %acc shape = m16n8k8 : vector<4xf32>, vector<2xf32> -> vector<4xf32>
  // CHECK: shape = m16n8k4 : vector<2xf32>, vector<1xf32> -> vector<4xf32>
  %6 = warp.mma_sync %t2, %t1, %acc shape = m16n8k4 : vector<2xf32>, vector<1xf32> -> vector<4xf32>
  // CHECK: shape = m16n8k32 {a_unsigned, satfinite} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
  %7 = warp.mma_sync %i16, %i8, %acci shape = m16n8k32 {a_unsigned, satfinite} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
  // CHECK: shape = m16n8k16 {b_unsigned} : vector<8xi8>, vector<4xi8> -> vector<4xi32>
  %8 = warp.mma_sync %i8, %i4, %acci shape = m16n8k16 {b_unsigned} : vector<8xi8>, vector<4xi8> -> vector<4xi32>
  return
}

// CHECK-LABEL: func.func @fp8_forms
func.func @fp8_forms(%e16: vector<16xf8E4M3FN>, %e8: vector<8xf8E4M3FN>,
                     %f16: vector<16xf8E5M2>, %f8: vector<8xf8E5M2>,
                     %acc: vector<4xf32>, %acch: vector<4xf16>) {
  // CHECK: shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  %0 = warp.mma_sync %e16, %e8, %acc shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  // CHECK: shape = m16n8k32 : vector<16xf8E5M2>, vector<8xf8E5M2> -> vector<4xf16>
  %1 = warp.mma_sync %f16, %f8, %acch shape = m16n8k32 : vector<16xf8E5M2>, vector<8xf8E5M2> -> vector<4xf16>
  // The two formats mix.
  // CHECK: shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E5M2> -> vector<4xf32>
  %2 = warp.mma_sync %e16, %f8, %acc shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E5M2> -> vector<4xf32>
  return
}

// CHECK-LABEL: func.func @matrix_forms
func.func @matrix_forms(%t: memref<64x40xf16, #gpu.address_space<workgroup>>,
                        %flat: memref<?xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>,
                        %s: memref<8x8xi16, 3>, %r: index, %c: index) {
  // CHECK: warp.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] count = 4 : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<8xf16>
  %0 = warp.ldmatrix %t[%r, %c] count = 4 : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<8xf16>
  // CHECK: warp.ldmatrix %{{.*}}[%{{.*}}] count = 2 transpose : memref<?xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> -> vector<4xbf16>
  %1 = warp.ldmatrix %flat[%c] count = 2 transpose : memref<?xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> -> vector<4xbf16>
  // CHECK: warp.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] count = 1 : memref<8x8xi16, 3> -> vector<2xi16>
  %2 = warp.ldmatrix %s[%r, %c] count = 1 : memref<8x8xi16, 3> -> vector<2xi16>
  // CHECK: warp.stmatrix %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] count = 4 transpose : vector<8xf16>, memref<64x40xf16, #gpu.address_space<workgroup>>
  warp.stmatrix %0, %t[%r, %c] count = 4 transpose : vector<8xf16>, memref<64x40xf16, #gpu.address_space<workgroup>>
  return
}
