// The diagnostics of warp.device_reduce_combine: the combiner's (the
// interface warp.block_reduce's region form shares) and the op's own.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @region_types(%x: memref<?xf32>, %y: memref<1xf32>, %i: f32) {
  // expected-error @+1 {{'warp.device_reduce_combine' op combiner region must take 2 arguments (the left values, then the right values) of types ('f32', 'f32'), got ('i32', 'i32')}}
  warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32> -> memref<1xf32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  }
  return
}

// -----

func.func @yield_types(%x: memref<?xf32>, %y: memref<1xf32>, %i: f32) {
  warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32> -> memref<1xf32>
      combine (%a: f32, %b: f32) {
    %c = arith.cmpf olt, %a, %b : f32
    // expected-error @+1 {{'warp.yield' op must yield 1 values of types ('f32'), got ('i1')}}
    warp.yield %c : i1
  }
  return
}

// -----

func.func @no_region(%x: memref<?xf32>, %y: memref<1xf32>, %i: f32) {
  warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32> -> memref<1xf32>
  // expected-error @+1 {{expected a combine region}}
  return
}

// -----

func.func @counts(%x: memref<?xf32>, %z: memref<?xi32>, %y: memref<1xf32>, %i: f32) {
  // expected-error @+1 {{'warp.device_reduce_combine' op takes one output and one init value per input, got 2 inputs, 1 outputs and 1 init values}}
  warp.device_reduce_combine %x, %z init(%i : f32) into %y
      : memref<?xf32>, memref<?xi32> -> memref<1xf32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @output_type(%x: memref<?xf32>, %y: memref<1xf64>, %i: f32) {
  // expected-error @+1 {{'warp.device_reduce_combine' op output #0 has element type 'f64', expected 'f32' (input #0's)}}
  warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32> -> memref<1xf64>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @init_type(%x: memref<?xf32>, %y: memref<1xf32>, %i: f64) {
  // expected-error @+1 {{'warp.device_reduce_combine' op init #0 has type 'f64', expected 'f32' (input #0's element)}}
  warp.device_reduce_combine %x init(%i : f64) into %y : memref<?xf32> -> memref<1xf32>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @empty_output(%x: memref<?xf32>, %y: memref<0xf32>, %i: f32) {
  // expected-error @+1 {{'warp.device_reduce_combine' op writes one element, but output #0 has none}}
  warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32> -> memref<0xf32>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @short_input(%x: memref<8xf32>, %z: memref<4xi32>, %y: memref<1xf32>, %w: memref<1xi32>,
                       %i: f32, %j: i32) {
  // expected-error @+1 {{'warp.device_reduce_combine' op reduces 8 tuples, but input #1 has 4 elements}}
  warp.device_reduce_combine %x, %z init(%i, %j : f32, i32) into %y, %w
      : memref<8xf32>, memref<4xi32> -> memref<1xf32>, memref<1xi32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @strided(%x: memref<?xf32, strided<[2]>>, %y: memref<1xf32>, %i: f32) {
  // expected-error @+1 {{'warp.device_reduce_combine' op needs a contiguous inputs (the identity layout), got 'memref<?xf32, strided<[2]>>'}}
  warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32, strided<[2]>> -> memref<1xf32>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @impure(%x: memref<?xf32>, %y: memref<1xf32>, %i: f32) {
  // expected-note @+1 {{the region of this op}}
  warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32> -> memref<1xf32>
      combine (%a: f32, %b: f32) {
    // expected-error @+1 {{'memref.alloca' op may not be in the combine region of 'warp.device_reduce_combine': the region must be pure (no memory effects, no ops that need the lanes together)}}
    %m = memref.alloca() : memref<1xf32>
    warp.yield %b : f32
  }
  return
}

// -----

gpu.module @kernels {
  func.func @in_kernel(%x: memref<?xf32>, %y: memref<1xf32>, %i: f32) {
    // expected-error @+1 {{'warp.device_reduce_combine' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32> -> memref<1xf32>
        combine (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      warp.yield %s : f32
    }
    return
  }
}

// -----

func.func @captures(%x: memref<?xf32>, %y: memref<1xf32>, %i: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  warp.device_reduce_combine %x init(%i : f32) into %y : memref<?xf32> -> memref<1xf32>
      combine (%a: f32, %b: f32) {
    // expected-error @+1 {{using value defined outside the region}}
    %s = arith.addf %a, %i : f32
    warp.yield %s : f32
  }
  return
}
