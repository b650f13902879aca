// Verifier diagnostics of warp.mma_load, warp.mma_compute and warp.mma_store:
// each fragment, combination, memref and layout mistake is a located error.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @load_wrong_length(%m: memref<16x16xbf16>, %i: index) -> vector<16xbf16> {
  // expected-error @+1 {{'warp.mma_load' op result must be 'vector<8xbf16>', one lane's m16n16k16 A fragment, not 'vector<16xbf16>'}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = row shape = m16n16k16 : memref<16x16xbf16> -> vector<16xbf16>
  return %0 : vector<16xbf16>
}

// -----

func.func @load_bf16_accumulator(%m: memref<16x16xbf16>, %i: index) -> vector<8xbf16> {
  // expected-error @+1 {{'warp.mma_load' op PTX wmma has no m16n16k16 C fragment of 'bf16' (result 'vector<8xbf16>'); it has vector<8xf16>, vector<8xf32>}}
  %0 = warp.mma_load %m[%i, %i] operand = c layout = row shape = m16n16k16 : memref<16x16xbf16> -> vector<8xbf16>
  return %0 : vector<8xbf16>
}

// -----

func.func @load_tf32_at_k16(%m: memref<16x16xf32>, %i: index) -> vector<4xf32> {
  // expected-error @+1 {{'warp.mma_load' op PTX wmma has no m16n16k16 A fragment of 'f32' (result 'vector<4xf32>'); it has vector<16xf16>, vector<8xbf16>}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = row shape = m16n16k16 : memref<16x16xf32> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @load_f16_at_k8(%m: memref<16x16xf16>, %i: index) -> vector<16xf16> {
  // expected-error @+1 {{'warp.mma_load' op PTX wmma has no m16n16k8 B fragment of 'f16' (result 'vector<16xf16>'); it has vector<4xf32>}}
  %0 = warp.mma_load %m[%i, %i] operand = b layout = col shape = m16n16k8 : memref<16x16xf16> -> vector<16xf16>
  return %0 : vector<16xf16>
}

// -----

func.func @load_element_mismatch(%m: memref<16x16xf16>, %i: index) -> vector<8xbf16> {
  // expected-error @+1 {{'warp.mma_load' op fragment 'vector<8xbf16>' and memref 'memref<16x16xf16>' have different element types}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = row shape = m16n16k16 : memref<16x16xf16> -> vector<8xbf16>
  return %0 : vector<8xbf16>
}

// -----

func.func @load_column_strided(%m: memref<16x16xbf16, strided<[1, 16]>>, %i: index) -> vector<8xbf16> {
  // expected-error @+1 {{'warp.mma_load' op needs a memref whose innermost stride is 1 (its row stride is the leading dimension), not 'memref<16x16xbf16, strided<[1, 16]>>'}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = col shape = m16n16k16 : memref<16x16xbf16, strided<[1, 16]>> -> vector<8xbf16>
  return %0 : vector<8xbf16>
}

// -----

func.func @load_dynamic_inner_stride(%m: memref<16x16xbf16, strided<[?, ?]>>, %i: index) -> vector<8xbf16> {
  // expected-error @+1 {{'warp.mma_load' op needs a memref whose innermost stride is 1}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = row shape = m16n16k16 : memref<16x16xbf16, strided<[?, ?]>> -> vector<8xbf16>
  return %0 : vector<8xbf16>
}

// -----

func.func @load_private_memory(%m: memref<16x16xf16, #gpu.address_space<private>>, %i: index) -> vector<16xf16> {
  // expected-error @+1 {{'warp.mma_load' op needs a memref in global or workgroup memory, not 'memref<16x16xf16, #gpu.address_space<private>>'}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = row shape = m16n16k16 : memref<16x16xf16, #gpu.address_space<private>> -> vector<16xf16>
  return %0 : vector<16xf16>
}

// -----

func.func @load_constant_memory(%m: memref<16x16xf16, 4>, %i: index) -> vector<16xf16> {
  // expected-error @+1 {{'warp.mma_load' op needs a memref in global or workgroup memory, not 'memref<16x16xf16, 4>'}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = row shape = m16n16k16 : memref<16x16xf16, 4> -> vector<16xf16>
  return %0 : vector<16xf16>
}

// -----

func.func @load_rank_1(%m: memref<256xf16>, %i: index) -> vector<16xf16> {
  // expected-error @+1 {{'warp.mma_load' op operand #0 must be 2D memref of 16-bit float or bfloat16 type or 32-bit float values}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = row shape = m16n16k16 : memref<256xf16> -> vector<16xf16>
  return %0 : vector<16xf16>
}

// -----

func.func @load_bad_layout(%m: memref<16x16xf16>, %i: index) -> vector<16xf16> {
  // expected-error @+2 {{expected ::mlir::warp::MMALayout to be one of: row, col}}
  // expected-error @+1 {{failed to parse}}
  %0 = warp.mma_load %m[%i, %i] operand = a layout = diagonal shape = m16n16k16 : memref<16x16xf16> -> vector<16xf16>
  return %0 : vector<16xf16>
}

// -----

func.func @compute_bf16_into_f16(%a: vector<8xbf16>, %c: vector<8xf16>) -> vector<8xf16> {
  // expected-error @+1 {{'warp.mma_compute' op PTX wmma has no m16n16k16 multiply of 'bf16' into 'f16' (only f16 inputs accumulate into f16)}}
  %0 = warp.mma_compute %a, %a, %c shape = m16n16k16 a_layout = row b_layout = row : vector<8xbf16>, vector<8xf16>
  return %0 : vector<8xf16>
}

// -----

func.func @compute_short_accumulator(%a: vector<16xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{'warp.mma_compute' op C must be 'vector<8xf32>', one lane's m16n16k16 C fragment, not 'vector<4xf32>'}}
  %0 = warp.mma_compute %a, %a, %c shape = m16n16k16 a_layout = row b_layout = col : vector<16xf16>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @compute_tf32_wrong_shape(%a: vector<4xf32>, %c: vector<8xf32>) -> vector<8xf32> {
  // expected-error @+1 {{'warp.mma_compute' op PTX wmma has no m16n16k16 A fragment of 'f32' (A/B 'vector<4xf32>'); it has vector<16xf16>, vector<8xbf16>}}
  %0 = warp.mma_compute %a, %a, %c shape = m16n16k16 a_layout = row b_layout = row : vector<4xf32>, vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

func.func @compute_tf32_f16_accumulator(%a: vector<4xf32>, %c: vector<8xf16>) -> vector<8xf16> {
  // expected-error @+1 {{'warp.mma_compute' op PTX wmma has no m16n16k8 C fragment of 'f16' (C 'vector<8xf16>'); it has vector<8xf32>}}
  %0 = warp.mma_compute %a, %a, %c shape = m16n16k8 a_layout = row b_layout = row : vector<4xf32>, vector<8xf16>
  return %0 : vector<8xf16>
}

// -----

func.func @store_input_fragment(%v: vector<16xf16>, %m: memref<16x16xf16>, %i: index) {
  // expected-error @+1 {{'warp.mma_store' op value must be 'vector<8xf16>', one lane's m16n16k16 C fragment, not 'vector<16xf16>'}}
  warp.mma_store %v, %m[%i, %i] layout = row : vector<16xf16>, memref<16x16xf16>
  return
}

// -----

func.func @store_element_mismatch(%v: vector<8xf32>, %m: memref<16x16xf16>, %i: index) {
  // expected-error @+1 {{'warp.mma_store' op fragment 'vector<8xf32>' and memref 'memref<16x16xf16>' have different element types}}
  warp.mma_store %v, %m[%i, %i] layout = col : vector<8xf32>, memref<16x16xf16>
  return
}
