// Malformed combiner regions of warp.reduce, warp.scan, warp.block_reduce
// and warp.block_scan are located errors. An empty block used to crash the
// verifier, which read the terminator of a block with no ops.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @reduce_empty(%x: i32) -> i32 {
  // expected-error @+1 {{'warp.reduce' op combiner region must end with warp.yield}}
  %r = warp.reduce %x : i32 combine (%a: i32, %b: i32) {
  }
  return %r : i32
}

// -----

func.func @scan_empty(%x: f32) -> f32 {
  // expected-error @+1 {{'warp.scan' op combiner region must end with warp.yield}}
  %r = warp.scan %x : f32 combine (%a: f32, %b: f32) {
  }
  return %r : f32
}

// -----

func.func @block_reduce_empty(%x: i32) -> i32 {
  // expected-error @+1 {{'warp.block_reduce' op combiner region must end with warp.yield}}
  %r = warp.block_reduce %x : i32 combine (%a: i32, %b: i32) {
  }
  return %r : i32
}

// -----

func.func @block_scan_empty(%x: i32) -> i32 {
  // expected-error @+1 {{'warp.block_scan' op combiner region must end with warp.yield}}
  %r = warp.block_scan %x : i32 combine (%a: i32, %b: i32) {
  }
  return %r : i32
}

// -----

// Ops but no terminator.
func.func @no_terminator(%x: i32) -> i32 {
  // expected-error @+1 {{'warp.reduce' op combiner region must end with warp.yield}}
  %r = warp.reduce %x : i32 combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
  }
  return %r : i32
}

// -----

// Another op's terminator.
func.func @foreign_terminator(%x: i32) -> i32 {
  // expected-error @+1 {{'warp.block_scan' op combiner region must end with warp.yield}}
  %r = warp.block_scan %x : i32 combine (%a: i32, %b: i32) {
    func.return %a : i32
  }
  return %r : i32
}

// -----

func.func @no_arguments(%x: i32) -> i32 {
  // expected-error @+1 {{'warp.scan' op combiner region must take 2 arguments (the left values, then the right values) of types ('i32', 'i32'), got ()}}
  %r = warp.scan %x : i32 combine () {
  ^bb0:
    warp.yield %x : i32
  }
  return %r : i32
}

// -----

func.func @too_few_arguments(%x: i32, %y: f32) -> (i32, f32) {
  // expected-error @+1 {{'warp.block_reduce' op combiner region must take 4 arguments (the left values, then the right values) of types ('i32', 'f32', 'i32', 'f32'), got ('i32', 'f32')}}
  %r:2 = warp.block_reduce %x, %y : i32, f32 combine (%a: i32, %b: f32) {
    warp.yield %a, %b : i32, f32
  }
  return %r#0, %r#1 : i32, f32
}

// -----

// Empty, with no arguments either, in the generic form.
func.func @generic_empty_block(%x: i32) -> i32 {
  // expected-error @+1 {{'warp.reduce' op combiner region must take 2 arguments}}
  %r = "warp.reduce"(%x) <{cluster_size = 32 : i32, cluster_stride = 1 : i32, lanes = #warp.result_lanes<all>, operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> ({
  ^bb0:
  }) : (i32) -> i32
  return %r : i32
}

// -----

func.func @generic_empty_block_with_arguments(%x: i32) -> i32 {
  // expected-error @+1 {{'warp.scan' op combiner region must end with warp.yield}}
  %r = "warp.scan"(%x) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>, width = 32 : i32}> ({
  ^bb0(%a: i32, %b: i32):
  }) : (i32) -> i32
  return %r : i32
}
