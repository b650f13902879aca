// Verifier diagnostics of warp.wgmma and warp.wgmma_descriptor: each input
// type, accumulator type and length, major-ness, signedness, memory space,
// index count and byte offset mistake is a located error.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @f64_input(%d: i64, %acc: vector<64xf32>) {
  // expected-error @+1 {{'warp.wgmma' op multiplies f16, bf16, f32 (as tf32), f8E4M3FN, f8E5M2 or i8 tiles, not 'f64'}}
  %0 = warp.wgmma %d, %d, %acc : f64, vector<64xf32>
  return
}

// -----

func.func @i8_into_f32(%d: i64, %acc: vector<64xf32>) {
  // expected-error @+1 {{'warp.wgmma' op a multiply of 'i8' accumulates into i32, not 'f32'}}
  %0 = warp.wgmma %d, %d, %acc : i8, vector<64xf32>
  return
}

// -----

func.func @fp8_into_i32(%d: i64, %acc: vector<64xi32>) {
  // expected-error @+1 {{'warp.wgmma' op a multiply of 'f8E4M3FN' accumulates into f32, not 'i32'}}
  %0 = warp.wgmma %d, %d, %acc : f8E4M3FN, vector<64xi32>
  return
}

// -----

func.func @i8_n40(%d: i64, %acc: vector<20xi32>) {
  // expected-error @+1 {{'warp.wgmma' op has an m64 x n accumulator of n / 2 per thread for n a multiple of 8 up to 24, then of 16 up to 256; 'vector<20xi32>' would make n = 40}}
  %0 = warp.wgmma %d, %d, %acc : i8, vector<20xi32>
  return
}

// -----

func.func @fp8_mn_major(%d: i64, %acc: vector<64xf32>) {
  // expected-error @+1 {{'warp.wgmma' op reads 'f8E5M2' tiles K-major only (a_mn_major and b_mn_major are for 16-bit inputs)}}
  %0 = warp.wgmma %d, %d, %acc {b_mn_major} : f8E5M2, vector<64xf32>
  return
}

// -----

func.func @unsigned_f16(%d: i64, %acc: vector<64xf32>) {
  // expected-error @+1 {{'warp.wgmma' op a_unsigned and b_unsigned apply to i8 tiles only, not 'f16'}}
  %0 = warp.wgmma %d, %d, %acc {a_unsigned} : f16, vector<64xf32>
  return
}

// -----

func.func @n_too_large(%d: i64, %acc: vector<132xf32>) {
  // expected-error @+1 {{'warp.wgmma' op has an m64 x n accumulator of n / 2 per thread for n a multiple of 8 from 8 to 256; 'vector<132xf32>' would make n = 264}}
  %0 = warp.wgmma %d, %d, %acc : f16, vector<132xf32>
  return
}

// -----

func.func @n_not_multiple_of_8(%d: i64, %acc: vector<6xf32>) {
  // expected-error @+1 {{would make n = 12}}
  %0 = warp.wgmma %d, %d, %acc : bf16, vector<6xf32>
  return
}

// -----

func.func @i64_accumulator(%d: i64, %acc: vector<64xi64>) {
  // expected-error @+1 {{'warp.wgmma' op operand #2 must be fixed-length vector of 32-bit float or 32-bit signless integer values of ranks 1}}
  %0 = warp.wgmma %d, %d, %acc : f16, vector<64xi64>
  return
}

// -----

func.func @global_tile(%t: memref<64x64xf16>, %i: index) {
  // expected-error @+1 {{'warp.wgmma_descriptor' op describes a tile in workgroup memory, not in 'memref<64x64xf16>'}}
  %0 = warp.wgmma_descriptor %t[%i, %i] swizzle = b128 {leading = 16, stride = 1024} : memref<64x64xf16>
  return
}

// -----

func.func @one_index(%t: memref<64x64xf16, 3>, %i: index) {
  // expected-error @+1 {{'warp.wgmma_descriptor' op needs one index per dimension of 'memref<64x64xf16, 3>', got 1}}
  %0 = warp.wgmma_descriptor %t[%i] swizzle = b128 {leading = 16, stride = 1024} : memref<64x64xf16, 3>
  return
}

// -----

func.func @unaligned_stride(%t: memref<64x64xf16, 3>, %i: index) {
  // expected-error @+1 {{'warp.wgmma_descriptor' op stride is a byte offset, a multiple of 16 from 0 to 262128, not 1000}}
  %0 = warp.wgmma_descriptor %t[%i, %i] swizzle = b128 {leading = 16, stride = 1000} : memref<64x64xf16, 3>
  return
}

// -----

func.func @leading_too_far(%t: memref<64x64xf16, 3>, %i: index) {
  // expected-error @+1 {{'warp.wgmma_descriptor' op leading is a byte offset, a multiple of 16 from 0 to 262128, not 262144}}
  %0 = warp.wgmma_descriptor %t[%i, %i] swizzle = none {leading = 262144, stride = 16} : memref<64x64xf16, 3>
  return
}
