// warp.device_segmented_radix_sort's verifier: each bad form gets a
// located error.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @in_place(%k: memref<?xi32>, %b: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op cannot sort in place: keys_out is keys_in}}
  warp.device_segmented_radix_sort %k, %k, %b, %b : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @key_types(%k: memref<?xi32>, %o: memref<?xf32>, %b: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op takes one key type, got 'i32' and 'f32'}}
  warp.device_segmented_radix_sort %k, %o, %b, %b : memref<?xi32>, memref<?xf32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @short_output(%k: memref<10xi8>, %o: memref<9xi8>, %b: memref<?xi64>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op sorts 10 keys, but its keys_out has 9}}
  warp.device_segmented_radix_sort %k, %o, %b, %b : memref<10xi8>, memref<9xi8>, memref<?xi64>, memref<?xi64>
  return
}

// -----

func.func @short_ends(%k: memref<?xi8>, %o: memref<?xi8>, %b: memref<5xi64>, %e: memref<4xi32>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op sorts 5 segments, but its end offsets have 4 elements}}
  warp.device_segmented_radix_sort %k, %o, %b, %e : memref<?xi8>, memref<?xi8>, memref<5xi64>, memref<4xi32>
  return
}

// -----

func.func @offset_type(%k: memref<?xi8>, %o: memref<?xi8>, %b: memref<?xi16>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op operand #2 must be 1D memref of 32-bit signless integer or 64-bit signless integer values}}
  "warp.device_segmented_radix_sort"(%k, %o, %b, %b) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>}> : (memref<?xi8>, memref<?xi8>, memref<?xi16>, memref<?xi16>) -> ()
  return
}

// -----

func.func @writes_offsets(%k: memref<?xi32>, %o: memref<?xi32>, %v: memref<?xi32>, %e: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op cannot write its offsets}}
  warp.device_segmented_radix_sort %k, %o, %e, %e values %v, %e : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @values_alias(%k: memref<?xi32>, %o: memref<?xi32>, %b: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op writes outputs that are not its inputs or each other}}
  warp.device_segmented_radix_sort %k, %o, %b, %b values %k, %o : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @value_types(%k: memref<?xi32>, %o: memref<?xi32>, %b: memref<?xi32>,
                       %v: memref<?xf32>, %w: memref<?xf64>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op takes one value type, got 'f32' and 'f64'}}
  warp.device_segmented_radix_sort %k, %o, %b, %b values %v, %w : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xf32>, memref<?xf64>
  return
}

// -----

func.func @signed_floats(%k: memref<?xf16>, %o: memref<?xf16>, %b: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op 'signed' orders integer keys; 'f16' keys have their own order}}
  warp.device_segmented_radix_sort %k, %o, %b, %b signed : memref<?xf16>, memref<?xf16>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @bits(%k: memref<?xi16>, %o: memref<?xi16>, %b: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op bits 9 to 9 is not a range 0 <= begin < end <= 16 of the 'i16' keys}}
  warp.device_segmented_radix_sort %k, %o, %b, %b bits 9 to 9 : memref<?xi16>, memref<?xi16>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @strided(%k: memref<?xi32, strided<[2]>>, %o: memref<?xi32>, %b: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_radix_sort' op needs a contiguous keys_in (the identity layout)}}
  warp.device_segmented_radix_sort %k, %o, %b, %b : memref<?xi32, strided<[2]>>, memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

gpu.module @kernels {
  func.func @in_kernel(%k: memref<?xi32>, %o: memref<?xi32>, %b: memref<?xi32>) {
    // expected-error @+1 {{'warp.device_segmented_radix_sort' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_segmented_radix_sort %k, %o, %b, %b : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
    return
  }
}

// -----

// double_buffer returns the buffer that holds the result, and only then.
func.func @double_buffer_without_result(%k: memref<?xi32>, %o: memref<?xi32>, %b: memref<?xi32>) {
  // expected-error @+1 {{returns the i32 of the buffer that holds the result with double_buffer, and only then}}
  warp.device_segmented_radix_sort %k, %o, %b, %b double_buffer
      : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @result_without_double_buffer(%k: memref<?xi32>, %o: memref<?xi32>, %b: memref<?xi32>) -> i32 {
  // expected-error @+1 {{returns the i32 of the buffer that holds the result with double_buffer, and only then}}
  %c = warp.device_segmented_radix_sort %k, %o, %b, %b
      : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32> -> i32
  return %c : i32
}

// -----

// With double_buffer the inputs are written too: values_in may not be
// keys_in, nor keys_in the offsets.
func.func @double_buffer_values_are_keys(%k: memref<?xi32>, %o: memref<?xi32>, %v: memref<?xi32>,
                                         %b: memref<?xi32>) -> i32 {
  // expected-error @+1 {{writes outputs that are not its inputs or each other}}
  %c = warp.device_segmented_radix_sort %k, %o, %b, %b values %k, %v double_buffer
      : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>,
        memref<?xi32> -> i32
  return %c : i32
}

// -----

func.func @double_buffer_writes_offsets(%k: memref<?xi32>, %o: memref<?xi32>, %e: memref<?xi32>) -> i32 {
  // expected-error @+1 {{cannot write its offsets}}
  %c = warp.device_segmented_radix_sort %k, %o, %k, %e double_buffer
      : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32> -> i32
  return %c : i32
}
