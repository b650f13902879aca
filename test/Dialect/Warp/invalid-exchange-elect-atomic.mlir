// Verifier diagnostics of warp.exchange, warp.elect and warp.atomic_add.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @exchange_too_many_items(%x: vector<64xf32>) -> vector<64xf32> {
  // expected-error @+1 {{exchanges at most 32 items per lane, got 64}}
  %0 = warp.exchange <blocked_to_striped> %x : vector<64xf32>
  return %0 : vector<64xf32>
}

// -----

func.func @exchange_shuffle_odd_items(%x: vector<6xi32>) -> vector<6xi32> {
  // expected-error @+1 {{strategy 'shuffle' needs a power-of-two number of items per lane, got 6 (use 'shared')}}
  %0 = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<6xi32>
  return %0 : vector<6xi32>
}

// -----

func.func @exchange_narrow_items(%x: vector<8xf16>) -> vector<8xf16> {
  // expected-error @+1 {{operand #0 must be fixed-length vector of 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float values of ranks 1, but got 'vector<8xf16>'}}
  %0 = warp.exchange <blocked_to_striped> %x : vector<8xf16>
  return %0 : vector<8xf16>
}

// -----

func.func @exchange_scalar(%x: f32) -> f32 {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.vector, but found 'f32'}}
  %0 = warp.exchange <blocked_to_striped> %x : f32
  return %0 : f32
}

// -----

func.func @exchange_2d(%x: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @+1 {{must be fixed-length vector of}}
  %0 = warp.exchange <blocked_to_striped> %x : vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

func.func @exchange_bad_direction(%x: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+2 {{expected ::mlir::warp::ExchangeDirection to be one of: blocked_to_striped, striped_to_blocked}}
  // expected-error @+1 {{failed to parse Warp_ExchangeDirectionEnum parameter}}
  %0 = warp.exchange <sideways> %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @elect_bad_mask(%m: i64) -> i1 {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer}}
  %0 = "warp.elect"(%m) : (i64) -> i1
  return %0 : i1
}

// -----

func.func @atomic_add_type_mismatch(%h: memref<?xi32>, %i: index, %x: f32) -> f32 {
  // expected-error @+1 {{value has the memref's element type}}
  %0 = "warp.atomic_add"(%x, %h, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (f32, memref<?xi32>, index) -> f32
  return %0 : f32
}

// -----

func.func @atomic_add_index_count(%h: memref<?x?xi32>, %i: index, %x: i32) -> i32 {
  // expected-error @+1 {{needs 2 indices for 'memref<?x?xi32>', got 1}}
  %0 = warp.atomic_add %x, %h[%i] : i32, memref<?x?xi32>
  return %0 : i32
}

// -----

func.func @atomic_add_narrow(%h: memref<?xi16>, %i: index, %x: i16) -> i16 {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float}}
  %0 = warp.atomic_add %x, %h[%i] : i16, memref<?xi16>
  return %0 : i16
}

// -----

func.func @atomic_add_not_memref(%h: vector<4xi32>, %i: index, %x: i32) -> i32 {
  // expected-error @+1 {{custom op 'warp.atomic_add' invalid kind of type specified}}
  %0 = warp.atomic_add %x, %h[%i] : i32, vector<4xi32>
  return %0 : i32
}
