// The diagnostics of warp.device_scan_combine: the combiner's (the
// interface warp.block_scan's region form and warp.device_reduce_combine
// share) and the op's own.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @region_types(%x: memref<?xf32>, %y: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_scan_combine' op combiner region must take 2 arguments (the left values, then the right values) of types ('f32', 'f32'), got ('i32', 'i32')}}
  warp.device_scan_combine %x into %y : memref<?xf32> -> memref<?xf32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  }
  return
}

// -----

func.func @region_arity(%x: memref<?xf32>, %i: memref<?xi32>, %y: memref<?xf32>, %j: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_scan_combine' op combiner region must take 4 arguments (the left values, then the right values) of types ('f32', 'i32', 'f32', 'i32'), got ('f32', 'f32')}}
  warp.device_scan_combine %x, %i into %y, %j : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @yield_types(%x: memref<?xf32>, %i: memref<?xi32>, %y: memref<?xf32>, %j: memref<?xi32>) {
  warp.device_scan_combine %x, %i into %y, %j : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    // expected-error @+1 {{'warp.yield' op must yield 2 values of types ('f32', 'i32'), got ('f32')}}
    warp.yield %a : f32
  }
  return
}

// -----

func.func @no_region(%x: memref<?xf32>, %y: memref<?xf32>) {
  warp.device_scan_combine %x into %y : memref<?xf32> -> memref<?xf32>
  // expected-error @+1 {{expected a combine region}}
  return
}

// -----

func.func @outputs(%x: memref<?xf32>, %z: memref<?xi32>, %y: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_scan_combine' op takes one output per input, got 2 inputs and 1 outputs}}
  warp.device_scan_combine %x, %z into %y : memref<?xf32>, memref<?xi32> -> memref<?xf32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @init_count(%x: memref<?xf32>, %z: memref<?xi32>, %y: memref<?xf32>, %w: memref<?xi32>, %i: f32) {
  // expected-error @+1 {{'warp.device_scan_combine' op takes one init value per input or none, got 2 inputs and 1 init values}}
  warp.device_scan_combine %x, %z init(%i : f32) into %y, %w
      : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @exclusive_without_init(%x: memref<?xf32>, %y: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_scan_combine' op exclusive needs init (a combine region has no identity for the first output)}}
  warp.device_scan_combine %x into %y exclusive : memref<?xf32> -> memref<?xf32>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @output_type(%x: memref<?xf32>, %y: memref<?xf64>) {
  // expected-error @+1 {{'warp.device_scan_combine' op output #0 has element type 'f64', expected 'f32' (input #0's)}}
  warp.device_scan_combine %x into %y : memref<?xf32> -> memref<?xf64>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @init_type(%x: memref<?xf32>, %y: memref<?xf32>, %i: f64) {
  // expected-error @+1 {{'warp.device_scan_combine' op init #0 has type 'f64', expected 'f32' (input #0's element)}}
  warp.device_scan_combine %x init(%i : f64) into %y : memref<?xf32> -> memref<?xf32>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @element_type(%x: memref<?xi1>, %y: memref<?xi1>) {
  // expected-error @+1 {{'warp.device_scan_combine' op operand #0 must be variadic of 1D memref of 8-bit signless integer}}
  warp.device_scan_combine %x into %y : memref<?xi1> -> memref<?xi1>
      combine (%a: i1, %b: i1) {
    %s = arith.xori %a, %b : i1
    warp.yield %s : i1
  }
  return
}

// -----

func.func @short_input(%x: memref<8xf32>, %z: memref<4xi32>, %y: memref<8xf32>, %w: memref<8xi32>) {
  // expected-error @+1 {{'warp.device_scan_combine' op scans 8 tuples, but input #1 has 4 elements}}
  warp.device_scan_combine %x, %z into %y, %w
      : memref<8xf32>, memref<4xi32> -> memref<8xf32>, memref<8xi32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @short_output(%x: memref<8xf32>, %z: memref<8xi32>, %y: memref<8xf32>, %w: memref<5xi32>) {
  // expected-error @+1 {{'warp.device_scan_combine' op writes 8 elements, but output #1 has 5}}
  warp.device_scan_combine %x, %z into %y, %w
      : memref<8xf32>, memref<8xi32> -> memref<8xf32>, memref<5xi32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @one_memref_twice(%x: memref<?xi32>, %z: memref<?xi32>, %y: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_scan_combine' op writes outputs #0 and #1 to one memref}}
  warp.device_scan_combine %x, %z into %y, %y
      : memref<?xi32>, memref<?xi32> -> memref<?xi32>, memref<?xi32>
      combine (%a: i32, %ai: i32, %b: i32, %bi: i32) {
    warp.yield %a, %ai : i32, i32
  }
  return
}

// -----

func.func @strided(%x: memref<?xf32>, %y: memref<?xf32, strided<[2]>>) {
  // expected-error @+1 {{'warp.device_scan_combine' op needs a contiguous outputs (the identity layout), got 'memref<?xf32, strided<[2]>>'}}
  warp.device_scan_combine %x into %y : memref<?xf32> -> memref<?xf32, strided<[2]>>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @workgroup(%x: memref<?xf32, #gpu.address_space<workgroup>>, %y: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_scan_combine' op needs its inputs in the default memory space (device memory from gpu.alloc or a frontend), got 'memref<?xf32, #gpu.address_space<workgroup>>'}}
  warp.device_scan_combine %x into %y : memref<?xf32, #gpu.address_space<workgroup>> -> memref<?xf32>
      combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @impure(%x: memref<?xf32>, %y: memref<?xf32>) {
  // expected-note @+1 {{the region of this op}}
  warp.device_scan_combine %x into %y : memref<?xf32> -> memref<?xf32>
      combine (%a: f32, %b: f32) {
    // expected-error @+1 {{'memref.alloca' op may not be in the combine region of 'warp.device_scan_combine': the region must be pure (no memory effects, no ops that need the lanes together)}}
    %m = memref.alloca() : memref<1xf32>
    warp.yield %b : f32
  }
  return
}

// -----

func.func @collective_in_region(%x: memref<?xi32>, %y: memref<?xi32>) {
  // expected-note @+1 {{the region of this op}}
  warp.device_scan_combine %x into %y : memref<?xi32> -> memref<?xi32>
      combine (%a: i32, %b: i32) {
    // expected-error @+1 {{'warp.reduce' op may not be in the combine region of 'warp.device_scan_combine'}}
    %s = warp.reduce <add> %a : i32
    warp.yield %s : i32
  }
  return
}

// -----

gpu.module @kernels {
  func.func @in_kernel(%x: memref<?xf32>, %y: memref<?xf32>) {
    // expected-error @+1 {{'warp.device_scan_combine' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_scan_combine %x into %y : memref<?xf32> -> memref<?xf32>
        combine (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      warp.yield %s : f32
    }
    return
  }
}

// -----

func.func @captures(%x: memref<?xf32>, %y: memref<?xf32>, %i: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  warp.device_scan_combine %x into %y : memref<?xf32> -> memref<?xf32>
      combine (%a: f32, %b: f32) {
    // expected-error @+1 {{using value defined outside the region}}
    %s = arith.addf %a, %i : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @equal_without_keys(%x: memref<?xi32>, %y: memref<?xi32>) {
  // expected-error @+1 {{takes an equal region only with keys}}
  warp.device_scan_combine %x into %y : memref<?xi32> -> memref<?xi32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  } equal(%p: i32, %q: i32) {
    %e = arith.cmpi eq, %p, %q : i32
    warp.yield %e : i1
  }
  return
}

// -----

func.func @equal_key_type(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<?xi64>) {
  // expected-error @+1 {{equal region must take two arguments of the key type 'i64', got ('i32', 'i32')}}
  warp.device_scan_combine %x into %y keys %k : memref<?xi32> -> memref<?xi32> keys memref<?xi64>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  } equal(%p: i32, %q: i32) {
    %e = arith.cmpi eq, %p, %q : i32
    warp.yield %e : i1
  }
  return
}

// -----

func.func @equal_yields_i1(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<?xi32>) {
  warp.device_scan_combine %x into %y keys %k : memref<?xi32> -> memref<?xi32> keys memref<?xi32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  } equal(%p: i32, %q: i32) {
    // expected-error @+1 {{must yield one i1 (whether the two keys are in one segment), got ('i32')}}
    warp.yield %p : i32
  }
  return
}

// -----

func.func @equal_not_pure(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<?xi32>) {
  // expected-note @+1 {{the region of this op}}
  warp.device_scan_combine %x into %y keys %k : memref<?xi32> -> memref<?xi32> keys memref<?xi32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  } equal(%p: i32, %q: i32) {
    // expected-error @+1 {{may not be in the equal region of 'warp.device_scan_combine'}}
    %b = warp.ballot %true : i32
    %true = arith.constant true
    %e = arith.cmpi eq, %p, %b : i32
    warp.yield %e : i1
  }
  return
}

// -----

func.func @keys_too_short(%x: memref<8xi32>, %y: memref<8xi32>, %k: memref<7xi32>) {
  // expected-error @+1 {{scans 8 tuples, but its keys have 7 elements}}
  warp.device_scan_combine %x into %y keys %k : memref<8xi32> -> memref<8xi32> keys memref<7xi32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  }
  return
}

// -----

func.func @writes_keys(%x: memref<?xi32>, %k: memref<?xi32>) {
  // expected-error @+1 {{cannot write its keys}}
  warp.device_scan_combine %x into %k keys %k : memref<?xi32> -> memref<?xi32> keys memref<?xi32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  }
  return
}

// -----

func.func @keyed_exclusive_needs_init(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<?xi32>) {
  // expected-error @+1 {{exclusive needs init}}
  warp.device_scan_combine %x into %y keys %k exclusive : memref<?xi32> -> memref<?xi32> keys memref<?xi32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  }
  return
}
