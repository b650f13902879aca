// Diagnostics of combiner regions, tuples and segment flags.
// RUN: warp-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @neither_kind_nor_region(%x: f32) {
  // expected-error @+1 {{'warp.reduce' op needs a combine kind (e.g. <add>) or a combiner region}}
  %0 = warp.reduce %x : f32
  return
}

// -----

func.func @kind_and_region(%x: f32) {
  // expected-error @+1 {{'warp.reduce' op has both a combine kind and a combiner region; give one}}
  %0 = warp.reduce <add> %x : f32 combine (%a: f32, %b: f32) {
    warp.yield %a : f32
  }
  return
}

// -----

func.func @kind_with_two_values(%x: f32, %i: i32) {
  // expected-error @+1 {{'warp.scan' op a combine kind takes exactly one value, got 2 (combine several values with a combiner region)}}
  %0:2 = warp.scan <add> %x, %i : f32, i32
  return
}

// -----

func.func @region_arity(%x: f32, %i: i32) {
  // expected-error @+1 {{'warp.reduce' op combiner region must take 4 arguments (the left values, then the right values) of types ('f32', 'i32', 'f32', 'i32'), got ('f32', 'i32')}}
  %0:2 = warp.reduce %x, %i : f32, i32 combine (%a: f32, %b: i32) {
    warp.yield %a, %b : f32, i32
  }
  return
}

// -----

func.func @region_argument_types(%x: f32, %i: i32) {
  // expected-error @+1 {{'warp.scan' op combiner region must take 4 arguments (the left values, then the right values) of types ('f32', 'i32', 'f32', 'i32'), got ('f32', 'f32', 'i32', 'i32')}}
  %0:2 = warp.scan %x, %i : f32, i32 combine (%a: f32, %b: f32, %ai: i32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @yield_types(%x: f32, %i: i32) {
  %0:2 = warp.reduce %x, %i : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    // expected-error @+1 {{'warp.yield' op must yield 2 values of types ('f32', 'i32'), got ('f32')}}
    warp.yield %a : f32
  }
  return
}

// -----

func.func @no_yield(%x: f32) {
  // expected-error @+1 {{'warp.reduce' op combiner region must end with warp.yield}}
  %0 = "warp.reduce"(%x) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> ({
  ^bb0(%a: f32, %b: f32):
    "test.terminator"() : () -> ()
  }) : (f32) -> f32
  return
}

// -----

func.func @yield_outside(%x: f32) {
  // expected-error @+1 {{'warp.yield' op expects parent op to be one of 'warp.reduce, warp.scan, warp.block_reduce, warp.block_scan, warp.device_select_if, warp.device_partition_if}}
  warp.yield %x : f32
}

// -----

func.func @result_types(%x: f32, %i: i32) {
  // expected-error @+1 {{'warp.reduce' op result #1 has type 'f32', expected 'i32' (the type of value #1)}}
  %0:2 = "warp.reduce"(%x, %i) <{operandSegmentSizes = array<i32: 2, 0, 0, 0, 0>}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    warp.yield %a, %ai : f32, i32
  }) : (f32, i32) -> (f32, f32)
  return
}

// -----

func.func @no_values() {
  // expected-error @+1 {{'warp.reduce' op needs at least one value}}
  "warp.reduce"() <{kind = #warp.kind<add>, operandSegmentSizes = array<i32: 0, 0, 0, 0, 0>}> ({}) : () -> ()
  return
}

// -----

func.func @commutative_kind(%x: f32) {
  // expected-error @+1 {{'warp.reduce' op 'commutative' applies to a combiner region (every combine kind is commutative)}}
  %0 = warp.reduce <add> %x commutative : f32
  return
}

// -----

func.func @region_redux(%x: i32) {
  // expected-error @+1 {{'warp.reduce' op strategy 'redux' needs a combine kind: redux.sync cannot run a combiner region}}
  %0 = warp.reduce %x strategy = <redux> : i32 combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  }
  return
}

// -----

func.func @heads_and_tails(%x: f32, %f: i1) {
  // expected-error @+1 {{'warp.reduce' op takes heads or tails, not both}}
  %0 = warp.reduce <add> %x heads %f tails %f : f32
  return
}

// -----

func.func @segmented_stride(%x: f32, %f: i1) {
  // expected-error @+1 {{'warp.reduce' op a segmented reduction (heads/tails) needs cluster_stride = 1}}
  %0 = warp.reduce <add> %x heads %f cluster_size = 8 cluster_stride = 4 : f32
  return
}

// -----

func.func @segmented_strategy(%x: f32, %f: i1) {
  // expected-error @+1 {{'warp.reduce' op a segmented reduction (heads/tails) has no strategy: it is a segmented scan}}
  %0 = warp.reduce <add> %x tails %f strategy = <butterfly> : f32
  return
}

// -----

func.func @exclusive_region_without_init(%x: f32) {
  // expected-error @+1 {{'warp.scan' op an exclusive scan with a combiner region needs an init: a region has no known identity}}
  %0 = warp.scan %x exclusive : f32 combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @scan_init_count(%x: f32, %i: i32) {
  // expected-error @+1 {{'warp.scan' op init has the value's type (one init per value)}}
  %0:2 = warp.scan %x, %i init %x : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @scan_type_count(%x: f32, %i: i32) {
  // expected-error @+1 {{expected 2 types (the values') or 4 (the values', then the segment totals'), got 3}}
  %0:3 = warp.scan %x, %i : f32, i32, f32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @unknown_kind(%x: f32) {
  // expected-error @+1 {{unknown combine kind 'sum'}}
  %0 = warp.reduce <sum> %x : f32
  return
}

// -----

func.func @kind_type_with_segments(%x: f32, %f: i1) {
  // expected-error @+1 {{'warp.reduce' op kind 'xor' needs an integer value, got 'f32'}}
  %0 = warp.reduce <xor> %x heads %f : f32
  return
}
