// warp.device_segmented_reduce's verifier: each bad form gets a located
// error.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @kind_outside_domain(%x: memref<?xf32>, %y: memref<?xf32>, %o: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op kind 'xor' needs an integer value, got 'f32'}}
  warp.device_segmented_reduce <xor> %x, %y, %o, %o : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @two_element_types(%x: memref<?xi32>, %y: memref<?xi64>, %o: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op takes one element type, got 'i32' and 'i64'}}
  warp.device_segmented_reduce <add> %x, %y, %o, %o : memref<?xi32>, memref<?xi64>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @init_type(%x: memref<?xf32>, %y: memref<?xf32>, %o: memref<?xi32>, %i: f64) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op takes init of the element type 'f32', got 'f64'}}
  warp.device_segmented_reduce <add> %x, %y, %o, %o init %i : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi32>, f64
  return
}

// -----

// Offsets are i32 or i64 (CUB's int and int64 offsets).
func.func @offset_type(%x: memref<?xf32>, %y: memref<?xf32>, %o: memref<?xi16>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op operand #2 must be 1D memref of 32-bit signless integer or 64-bit signless integer values, but got 'memref<?xi16>'}}
  warp.device_segmented_reduce <add> %x, %y, %o, %o : memref<?xf32>, memref<?xf32>, memref<?xi16>, memref<?xi16>
  return
}

// -----

func.func @too_few_begins(%x: memref<?xf32>, %y: memref<8xf32>, %b: memref<7xi32>, %e: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op reduces 8 segments, but its begin offsets have 7 elements}}
  warp.device_segmented_reduce <add> %x, %y, %b, %e : memref<?xf32>, memref<8xf32>, memref<7xi32>, memref<?xi32>
  return
}

// -----

func.func @too_few_ends(%x: memref<?xf32>, %y: memref<8xf32>, %b: memref<?xi64>, %e: memref<3xi64>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op reduces 8 segments, but its end offsets have 3 elements}}
  warp.device_segmented_reduce <add> %x, %y, %b, %e : memref<?xf32>, memref<8xf32>, memref<?xi64>, memref<3xi64>
  return
}

// -----

func.func @in_place(%x: memref<?xf32>, %o: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op cannot write its input or offsets (other blocks read them while one writes its result)}}
  warp.device_segmented_reduce <add> %x, %x, %o, %o : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @output_is_offsets(%x: memref<?xi32>, %o: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op cannot write its input or offsets (other blocks read them while one writes its result)}}
  warp.device_segmented_reduce <add> %x, %o, %o, %o : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @strided_offsets(%x: memref<?xf32>, %y: memref<?xf32>, %o: memref<?xi32, strided<[2]>>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op needs a contiguous begin (the identity layout), got 'memref<?xi32, strided<[2]>>'}}
  warp.device_segmented_reduce <add> %x, %y, %o, %o : memref<?xf32>, memref<?xf32>, memref<?xi32, strided<[2]>>, memref<?xi32, strided<[2]>>
  return
}

// -----

func.func @workgroup_output(%x: memref<?xf32>, %y: memref<4xf32, #gpu.address_space<workgroup>>, %o: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_segmented_reduce' op needs its output in the default memory space (device memory from gpu.alloc or a frontend), got 'memref<4xf32, #gpu.address_space<workgroup>>'}}
  warp.device_segmented_reduce <add> %x, %y, %o, %o : memref<?xf32>, memref<4xf32, #gpu.address_space<workgroup>>, memref<?xi32>, memref<?xi32>
  return
}

// -----

gpu.module @kernels {
  gpu.func @in_kernel(%x: memref<?xf32>, %y: memref<?xf32>, %o: memref<?xi32>) kernel {
    // expected-error @+1 {{'warp.device_segmented_reduce' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_segmented_reduce <add> %x, %y, %o, %o : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi32>
    gpu.return
  }
}
