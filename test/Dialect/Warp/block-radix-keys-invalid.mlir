// The verifier's diagnostics of the custom keys of the block radix ops: a
// warp.block_radix_rank digit region and a warp.block_radix_sort of a
// tuple of key members.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @rank_digit_two_arguments(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op digit region must take one argument of the key type 'i32', got ('i32', 'i32')}}
  %0 = warp.block_radix_rank %k radix_bits = 4 : vector<4xi32> digit(%a: i32, %b: i32) {
    warp.yield %a : i32
  }
  return
}

// -----

func.func @rank_digit_argument_type(%k: vector<4xf32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op digit region must take one argument of the key type 'f32', got ('i32')}}
  %0 = warp.block_radix_rank %k radix_bits = 4 : vector<4xf32> digit(%a: i32) {
    warp.yield %a : i32
  }
  return
}

// -----

func.func @rank_digit_yield_type(%k: vector<4xi64>) {
  %0 = warp.block_radix_rank %k radix_bits = 4 : vector<4xi64> digit(%a: i64) {
    // expected-error @+1 {{'warp.yield' op must yield one i32 (the digit in its low radix_bits bits), got ('i64')}}
    warp.yield %a : i64
  }
  return
}

// -----

func.func @rank_digit_yield_two(%k: vector<4xi32>) {
  %0 = warp.block_radix_rank %k radix_bits = 4 : vector<4xi32> digit(%a: i32) {
    // expected-error @+1 {{'warp.yield' op must yield one i32 (the digit in its low radix_bits bits), got ('i32', 'i32')}}
    warp.yield %a, %a : i32, i32
  }
  return
}

// -----

func.func @rank_digit_impure(%k: vector<4xi32>, %m: memref<4xi32>) {
  // expected-note @+1 {{the region of this op}}
  %0 = warp.block_radix_rank %k radix_bits = 4 : vector<4xi32> digit(%a: i32) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.load' op may not be in the digit region of 'warp.block_radix_rank': the region must be pure}}
    %l = memref.load %m[%c0] : memref<4xi32>
    warp.yield %l : i32
  }
  return
}

// -----

func.func @rank_digit_without_radix_bits(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op with a digit region needs radix_bits = R (1 to 8): the digit is the low R bits of what the region yields}}
  %0 = warp.block_radix_rank %k : vector<4xi32> digit(%a: i32) {
    warp.yield %a : i32
  }
  return
}

// -----

func.func @rank_digit_radix_bits_range(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op ranks by a digit of 1 to 8 bits (CUB's RADIX_BITS), got radix_bits = 9}}
  %0 = warp.block_radix_rank %k radix_bits = 9 : vector<4xi32> digit(%a: i32) {
    warp.yield %a : i32
  }
  return
}

// -----

func.func @rank_digit_and_bits(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op takes 'bits' or a digit region, not both}}
  %0 = warp.block_radix_rank %k bits 0 to 4 radix_bits = 4 : vector<4xi32> digit(%a: i32) {
    warp.yield %a : i32
  }
  return
}

// -----

func.func @rank_digit_signed(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op 'signed' orders a key's image; with a digit region the region gives the digit}}
  %0 = warp.block_radix_rank %k signed radix_bits = 4 : vector<4xi32> digit(%a: i32) {
    warp.yield %a : i32
  }
  return
}

// -----

func.func @rank_radix_bits_without_region(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op takes radix_bits only with a digit region}}
  %0 = warp.block_radix_rank %k bits 0 to 4 radix_bits = 4 : vector<4xi32>
  return
}

// -----

func.func @rank_no_digit(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op needs 'bits B0 to B1' (the digit's bits of the key's image) or a digit region}}
  %0 = warp.block_radix_rank %k : vector<4xi32>
  return
}

// -----

func.func @sort_members_of_different_n(%a: vector<4xi32>, %b: vector<2xf32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op needs as many items per thread in every key member; got 'vector<4xi32>' and 'vector<2xf32>'}}
  %0:2 = warp.block_radix_sort (%a, %b) : (vector<4xi32>, vector<2xf32>)
  return
}

// -----

func.func @sort_tuple_with_bits(%a: vector<4xi32>, %b: vector<4xf32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op takes 'bits' with one key only: a tuple of keys sorts by all bits of its members}}
  %0:2 = warp.block_radix_sort (%a, %b) bits 0 to 4 : (vector<4xi32>, vector<4xf32>)
  return
}

// -----

func.func @sort_tuple_signed_floats(%a: vector<4xf16>, %b: vector<4xf32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op 'signed' orders the integer members of a tuple of keys; this one has none}}
  %0:2 = warp.block_radix_sort (%a, %b) signed : (vector<4xf16>, vector<4xf32>)
  return
}

// -----

func.func @sort_tuple_values_n(%a: vector<4xi32>, %b: vector<4xi8>, %v: vector<2xi32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op needs as many values as keys per thread; got 'vector<4xi32>' and 'vector<2xi32>'}}
  %0:3 = warp.block_radix_sort (%a, %b), %v : (vector<4xi32>, vector<4xi8>), vector<2xi32>
  return
}

// -----

func.func @sort_no_keys() {
  // expected-error @+1 {{'warp.block_radix_sort' op sorts by one key or a tuple of key members, got none}}
  "warp.block_radix_sort"() <{operandSegmentSizes = array<i32: 0, 0>, resultSegmentSizes = array<i32: 0, 0>}> : () -> ()
  return
}

// -----

func.func @sort_result_types(%a: vector<4xi32>, %b: vector<4xf32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op returns the sorted keys with the keys' types}}
  %0:2 = "warp.block_radix_sort"(%a, %b) <{operandSegmentSizes = array<i32: 2, 0>, resultSegmentSizes = array<i32: 2, 0>}> : (vector<4xi32>, vector<4xf32>) -> (vector<4xf32>, vector<4xi32>)
  return
}

// -----

func.func @sort_tuple_key_type(%a: vector<4xi32>, %b: vector<4xi1>) {
  // expected-error @+1 {{'warp.block_radix_sort' op operand #1 must be variadic of a 1-D vector of i8/i16/i32/i64/f16/bf16/f32/f64, but got 'vector<4xi1>'}}
  %0:2 = warp.block_radix_sort (%a, %b) : (vector<4xi32>, vector<4xi1>)
  return
}
