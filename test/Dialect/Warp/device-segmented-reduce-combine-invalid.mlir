// The diagnostics of warp.device_segmented_reduce_combine: the combiner's
// (the interface warp.device_reduce_combine's region shares), the tuples'
// and the offsets'.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @region_arity(%x: memref<?xf32>, %k: memref<?xi32>, %y: memref<?xf32>,
                        %yk: memref<?xi32>, %b: memref<?xi32>, %e: memref<?xi32>,
                        %i: f32, %ik: i32) {
  // expected-error @+1 {{'warp.device_segmented_reduce_combine' op combiner region must take 4 arguments (the left values, then the right values) of types ('f32', 'i32', 'f32', 'i32'), got ('f32', 'f32')}}
  warp.device_segmented_reduce_combine %x, %k init(%i, %ik : f32, i32) into %y, %yk
      segments(%b, %e : memref<?xi32>, memref<?xi32>)
      : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32>
      combine (%l: f32, %r: f32) {
    warp.yield %l : f32
  }
  return
}

// -----

func.func @yield_types(%x: memref<?xf32>, %y: memref<?xf32>, %b: memref<?xi32>,
                       %e: memref<?xi32>, %i: f32) {
  warp.device_segmented_reduce_combine %x init(%i : f32) into %y
      segments(%b, %e : memref<?xi32>, memref<?xi32>) : memref<?xf32> -> memref<?xf32>
      combine (%l: f32, %r: f32) {
    %c = arith.cmpf olt, %l, %r : f32
    // expected-error @+1 {{'warp.yield' op must yield 1 values of types ('f32'), got ('i1')}}
    warp.yield %c : i1
  }
  return
}

// -----

func.func @counts(%x: memref<?xf32>, %k: memref<?xi32>, %y: memref<?xf32>,
                  %b: memref<?xi32>, %e: memref<?xi32>, %i: f32, %ik: i32) {
  // expected-error @+1 {{'warp.device_segmented_reduce_combine' op takes one output and one init value per input, got 2 inputs, 1 outputs and 2 init values}}
  warp.device_segmented_reduce_combine %x, %k init(%i, %ik : f32, i32) into %y
      segments(%b, %e : memref<?xi32>, memref<?xi32>)
      : memref<?xf32>, memref<?xi32> -> memref<?xf32>
      combine (%l: f32, %lk: i32, %r: f32, %rk: i32) {
    warp.yield %l, %lk : f32, i32
  }
  return
}

// -----

func.func @output_type(%x: memref<?xf32>, %y: memref<?xf64>, %b: memref<?xi32>,
                       %e: memref<?xi32>, %i: f32) {
  // expected-error @+1 {{'warp.device_segmented_reduce_combine' op output #0 has element type 'f64', expected 'f32' (input #0's)}}
  warp.device_segmented_reduce_combine %x init(%i : f32) into %y
      segments(%b, %e : memref<?xi32>, memref<?xi32>) : memref<?xf32> -> memref<?xf64>
      combine (%l: f32, %r: f32) {
    %s = arith.addf %l, %r : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @init_type(%x: memref<?xi32>, %y: memref<?xi32>, %b: memref<?xi32>,
                     %e: memref<?xi32>, %i: i64) {
  // expected-error @+1 {{'warp.device_segmented_reduce_combine' op init #0 has type 'i64', expected 'i32' (input #0's element)}}
  warp.device_segmented_reduce_combine %x init(%i : i64) into %y
      segments(%b, %e : memref<?xi32>, memref<?xi32>) : memref<?xi32> -> memref<?xi32>
      combine (%l: i32, %r: i32) {
    %s = arith.addi %l, %r : i32
    warp.yield %s : i32
  }
  return
}

// -----

func.func @short_output(%x: memref<?xi32>, %k: memref<?xi8>, %y: memref<8xi32>,
                        %yk: memref<7xi8>, %b: memref<?xi32>, %e: memref<?xi32>,
                        %i: i32, %ik: i8) {
  // expected-error @+1 {{'warp.device_segmented_reduce_combine' op writes 8 elements, but output #1 has 7}}
  warp.device_segmented_reduce_combine %x, %k init(%i, %ik : i32, i8) into %y, %yk
      segments(%b, %e : memref<?xi32>, memref<?xi32>)
      : memref<?xi32>, memref<?xi8> -> memref<8xi32>, memref<7xi8>
      combine (%l: i32, %lk: i8, %r: i32, %rk: i8) {
    warp.yield %l, %lk : i32, i8
  }
  return
}

// -----

func.func @short_offsets(%x: memref<?xf32>, %y: memref<8xf32>, %b: memref<8xi64>,
                         %e: memref<7xi32>, %i: f32) {
  // expected-error @+1 {{'warp.device_segmented_reduce_combine' op reduces 8 segments, but its end offsets have 7 elements}}
  warp.device_segmented_reduce_combine %x init(%i : f32) into %y
      segments(%b, %e : memref<8xi64>, memref<7xi32>) : memref<?xf32> -> memref<8xf32>
      combine (%l: f32, %r: f32) {
    %s = arith.addf %l, %r : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @offsets_type(%x: memref<?xf32>, %y: memref<?xf32>, %b: memref<?xi16>,
                        %e: memref<?xi32>, %i: f32) {
  // expected-error @+1 {{'warp.device_segmented_reduce_combine' op operand #3 must be 1D memref of 32-bit signless integer or 64-bit signless integer values, but got 'memref<?xi16>'}}
  warp.device_segmented_reduce_combine %x init(%i : f32) into %y
      segments(%b, %e : memref<?xi16>, memref<?xi32>) : memref<?xf32> -> memref<?xf32>
      combine (%l: f32, %r: f32) {
    %s = arith.addf %l, %r : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @writes_input(%x: memref<?xi32>, %b: memref<?xi32>, %e: memref<?xi32>, %i: i32) {
  // expected-error @+1 {{'warp.device_segmented_reduce_combine' op cannot write output #0 to an input, the offsets or another output (other blocks read them while one writes its result)}}
  warp.device_segmented_reduce_combine %x init(%i : i32) into %b
      segments(%b, %e : memref<?xi32>, memref<?xi32>) : memref<?xi32> -> memref<?xi32>
      combine (%l: i32, %r: i32) {
    %s = arith.addi %l, %r : i32
    warp.yield %s : i32
  }
  return
}

// -----

func.func @impure(%x: memref<?xf32>, %y: memref<?xf32>, %b: memref<?xi32>,
                  %e: memref<?xi32>, %i: f32) {
  // expected-note @+1 {{the region of this op}}
  warp.device_segmented_reduce_combine %x init(%i : f32) into %y
      segments(%b, %e : memref<?xi32>, memref<?xi32>) : memref<?xf32> -> memref<?xf32>
      combine (%l: f32, %r: f32) {
    // expected-error @+1 {{'memref.alloca' op may not be in the combine region of 'warp.device_segmented_reduce_combine': the region must be pure (no memory effects, no ops that need the lanes together)}}
    %m = memref.alloca() : memref<1xf32>
    warp.yield %r : f32
  }
  return
}

// -----

func.func @in_kernel(%x: memref<?xf32>, %y: memref<?xf32>, %b: memref<?xi32>,
                     %e: memref<?xi32>, %i: f32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'warp.device_segmented_reduce_combine' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_segmented_reduce_combine %x init(%i : f32) into %y
        segments(%b, %e : memref<?xi32>, memref<?xi32>) : memref<?xf32> -> memref<?xf32>
        combine (%l: f32, %r: f32) {
      %s = arith.addf %l, %r : f32
      warp.yield %s : f32
    }
    gpu.terminator
  }
  return
}
