// Verifier diagnostics of warp.mma_sync, warp.ldmatrix and warp.stmatrix:
// each shape, type, length, attribute and memref mistake is a located error.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @no_such_shape(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{'warp.mma_sync' op PTX mma.sync has no m16n8k32 multiply of 'bf16'; it has m16n8k8, m16n8k16 for 'bf16'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
  return
}

// -----

func.func @tf32_k16(%a: vector<8xf32>, %b: vector<4xf32>, %c: vector<4xf32>) {
  // expected-error @+1 {{PTX mma.sync has no m16n8k16 multiply of 'f32'; it has m16n8k4, m16n8k8 for 'f32'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xf32>, vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @mixed_inputs(%a: vector<8xf16>, %b: vector<4xbf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{'warp.mma_sync' op A and B must have one element type (or both be fp8), not 'vector<8xf16>' and 'vector<4xbf16>'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xf16>, vector<4xbf16> -> vector<4xf32>
  return
}

// -----

// fp8: m16n8k32 only (PTX's fp8 m16n8k16 is not offered).
func.func @fp8_k16(%a: vector<8xf8E4M3FN>, %b: vector<4xf8E4M3FN>, %c: vector<4xf32>) {
  // expected-error @+1 {{'warp.mma_sync' op PTX mma.sync has no m16n8k16 multiply of 'f8E4M3FN'; it has m16n8k32 for 'f8E4M3FN'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xf8E4M3FN>, vector<4xf8E4M3FN> -> vector<4xf32>
  return
}

// -----

// The fp8 types PTX lacks.
func.func @fp8_e4m3_with_infinities(%a: vector<16xf8E4M3>, %b: vector<8xf8E4M3>, %c: vector<4xf32>) {
  // expected-error @+1 {{'warp.mma_sync' op operand #0 must be fixed-length vector of 16-bit float or bfloat16 type or 32-bit float or 8-bit signless integer or f8E4M3FN type or f8E5M2 type values of ranks 1, but got 'vector<16xf8E4M3>'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E4M3>, vector<8xf8E4M3> -> vector<4xf32>
  return
}

// -----

// fp8 mixes with fp8 only.
func.func @fp8_with_i8(%a: vector<16xf8E5M2>, %b: vector<8xi8>, %c: vector<4xf32>) {
  // expected-error @+1 {{'warp.mma_sync' op A and B must have one element type (or both be fp8), not 'vector<16xf8E5M2>' and 'vector<8xi8>'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E5M2>, vector<8xi8> -> vector<4xf32>
  return
}

// -----

func.func @fp8_into_i32(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E5M2>, %c: vector<4xi32>) {
  // expected-error @+1 {{'warp.mma_sync' op a multiply of 'f8E4M3FN' accumulates into f16 or f32, not 'i32'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E5M2> -> vector<4xi32>
  return
}

// -----

func.func @fp8_a_length(%a: vector<8xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf32>) {
  // expected-error @+1 {{'warp.mma_sync' op A must be 'vector<16xf8E4M3FN>' (one lane's share of the m16n8k32 tile), not 'vector<8xf8E4M3FN>'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  return
}

// -----

func.func @fp8_satfinite(%a: vector<16xf8E5M2>, %b: vector<8xf8E5M2>, %c: vector<4xf32>) {
  // expected-error @+1 {{'warp.mma_sync' op a_unsigned, b_unsigned and satfinite apply to i8 multiplies only, not 'f8E5M2'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k32 {satfinite} : vector<16xf8E5M2>, vector<8xf8E5M2> -> vector<4xf32>
  return
}

// -----

func.func @a_length(%a: vector<4xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{'warp.mma_sync' op A must be 'vector<8xf16>' (one lane's share of the m16n8k16 tile), not 'vector<4xf16>'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<4xf16>, vector<4xf16> -> vector<4xf32>
  return
}

// -----

func.func @b_length(%a: vector<16xi8>, %b: vector<4xi8>, %c: vector<4xi32>) {
  // expected-error @+1 {{B must be 'vector<8xi8>' (one lane's share of the m16n8k32 tile), not 'vector<4xi8>'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xi8>, vector<4xi8> -> vector<4xi32>
  return
}

// -----

func.func @c_length(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<8xf32>) {
  // expected-error @+1 {{C must be 'vector<4xf32>' (one lane's share of the m16n8k16 tile), not 'vector<8xf32>'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<8xf32>
  return
}

// -----

func.func @bf16_into_f16(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf16>) {
  // expected-error @+1 {{a multiply of 'bf16' accumulates into f32, not 'f16'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xbf16>, vector<4xbf16> -> vector<4xf16>
  return
}

// -----

func.func @i8_into_f32(%a: vector<16xi8>, %b: vector<8xi8>, %c: vector<4xf32>) {
  // expected-error @+1 {{a multiply of 'i8' accumulates into i32, not 'f32'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xi8>, vector<8xi8> -> vector<4xf32>
  return
}

// -----

func.func @f16_into_i32(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xi32>) {
  // expected-error @+1 {{a multiply of 'f16' accumulates into f16 or f32, not 'i32'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xi32>
  return
}

// -----

func.func @unsigned_float(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{a_unsigned, b_unsigned and satfinite apply to i8 multiplies only, not 'f16'}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 {satfinite} : vector<8xf16>, vector<4xf16> -> vector<4xf32>
  return
}

// -----

func.func @i16_input(%a: vector<8xi16>, %b: vector<4xi16>, %c: vector<4xi32>) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of 16-bit float or bfloat16 type or 32-bit float or 8-bit signless integer or f8E4M3FN type or f8E5M2 type values of ranks 1}}
  %0 = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xi16>, vector<4xi16> -> vector<4xi32>
  return
}

// -----

func.func @ld_global(%m: memref<16x16xf16>, %i: index) {
  // expected-error @+1 {{'warp.ldmatrix' op needs a memref in workgroup memory, not 'memref<16x16xf16>'}}
  %0 = warp.ldmatrix %m[%i, %i] count = 4 : memref<16x16xf16> -> vector<8xf16>
  return
}

// -----

func.func @ld_count(%m: memref<16x16xf16, 3>, %i: index) {
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint: 32-bit signless integer attribute whose value is one of {1, 2, 4}}}
  %0 = warp.ldmatrix %m[%i, %i] count = 3 : memref<16x16xf16, 3> -> vector<6xf16>
  return
}

// -----

func.func @ld_length(%m: memref<16x16xf16, 3>, %i: index) {
  // expected-error @+1 {{'warp.ldmatrix' op a lane holds 2 elements of each of the 2 matrices: 'vector<4xf16>', not 'vector<8xf16>'}}
  %0 = warp.ldmatrix %m[%i, %i] count = 2 : memref<16x16xf16, 3> -> vector<8xf16>
  return
}

// -----

func.func @ld_indices(%m: memref<16x16xf16, 3>, %i: index) {
  // expected-error @+1 {{'warp.ldmatrix' op needs one index per dimension of a memref of rank 1 or more ('memref<16x16xf16, 3>', 1 indices)}}
  %0 = warp.ldmatrix %m[%i] count = 1 : memref<16x16xf16, 3> -> vector<2xf16>
  return
}

// -----

func.func @ld_column_major(%m: memref<16x16xf16, strided<[1, 16]>, 3>, %i: index) {
  // expected-error @+1 {{'warp.ldmatrix' op needs a memref whose innermost stride is 1 (a row's 8 elements are contiguous), not 'memref<16x16xf16, strided<[1, 16]>, 3>'}}
  %0 = warp.ldmatrix %m[%i, %i] count = 1 : memref<16x16xf16, strided<[1, 16]>, 3> -> vector<2xf16>
  return
}

// -----

func.func @ld_element(%m: memref<16x16xf16, 3>, %i: index) {
  // expected-error @+1 {{'warp.ldmatrix' op fragment 'vector<2xbf16>' and memref 'memref<16x16xf16, 3>' have different element types}}
  %0 = warp.ldmatrix %m[%i, %i] count = 1 : memref<16x16xf16, 3> -> vector<2xbf16>
  return
}

// -----

func.func @ld_f32(%m: memref<16x16xf32, 3>, %i: index) {
  // expected-error @+1 {{operand #0 must be memref of 16-bit float or bfloat16 type or 16-bit signless integer values}}
  %0 = warp.ldmatrix %m[%i, %i] count = 1 : memref<16x16xf32, 3> -> vector<2xf16>
  return
}

// -----

func.func @st_length(%v: vector<2xf16>, %m: memref<16x16xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'warp.stmatrix' op a lane holds 2 elements of each of the 4 matrices: 'vector<8xf16>', not 'vector<2xf16>'}}
  warp.stmatrix %v, %m[%i, %i] count = 4 : vector<2xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @st_private(%v: vector<2xf16>, %m: memref<16x16xf16, #gpu.address_space<private>>, %i: index) {
  // expected-error @+1 {{'warp.stmatrix' op needs a memref in workgroup memory}}
  warp.stmatrix %v, %m[%i, %i] count = 1 : vector<2xf16>, memref<16x16xf16, #gpu.address_space<private>>
  return
}
