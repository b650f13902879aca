// Every verifier diagnostic of the warp dialect.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @shuffle_width_not_power_of_two(%x: f32, %o: i32) {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0:2 = warp.shuffle <xor> %x, %o width 12 : f32
  return
}

// -----

func.func @shuffle_width_zero(%x: f32, %o: i32) {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0:2 = warp.shuffle <xor> %x, %o width 0 : f32
  return
}

// -----

// A tile's ballot and vote: width a power of two in 1..32.
func.func @ballot_width_not_power_of_two(%p: i1) -> i32 {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0 = warp.ballot %p width 6 : i32
  return %0 : i32
}

// -----

func.func @ballot_width_too_wide(%p: i1, %m: i32) -> i32 {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0 = warp.ballot %p mask %m width 64 : i32
  return %0 : i32
}

// -----

func.func @vote_width_zero(%p: i1) -> i1 {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0 = warp.vote <any> %p width 0 : i1
  return %0 : i1
}

// -----

func.func @vote_width_not_power_of_two(%p: i1) -> i1 {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0 = warp.vote <all> %p width 24 : i1
  return %0 : i1
}

// -----

func.func @shuffle_width_too_wide(%x: f32, %o: i32) {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0:2 = warp.shuffle <idx> %x, %o width 64 : f32
  return
}

// -----

func.func @shuffle_unsupported_payload(%x: memref<f32>, %o: i32) {
  // expected-error @+1 {{operand #0 must be i1/i8/i16/i32/i64/index/f16/bf16/f32/f64 or a 1-D vector of them}}
  %0:2 = warp.shuffle <xor> %x, %o : memref<f32>
  return
}

// -----

func.func @shuffle_2d_vector(%x: vector<2x2xf32>, %o: i32) {
  // expected-error @+1 {{must be i1/i8/i16/i32/i64/index/f16/bf16/f32/f64 or a 1-D vector of them}}
  %0:2 = warp.shuffle <xor> %x, %o : vector<2x2xf32>
  return
}

// -----

func.func @shuffle_type_mismatch(%x: f32, %o: i32) {
  // expected-error @+1 {{all of {value, result} have same type}}
  %0:2 = "warp.shuffle"(%x, %o) <{mode = #warp.shuffle_mode<xor>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, width = 32 : i32}> : (f32, i32) -> (i32, i1)
  return
}

// -----

func.func @vote_not_i1(%p: i32) {
  // expected-error @+1 {{operand #0 must be 1-bit signless integer}}
  %0 = "warp.vote"(%p) <{kind = #warp.vote_kind<any>}> : (i32) -> i1
  return
}

// -----

func.func @match_any_f16(%x: f16) {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float}}
  %0 = warp.match_any %x : f16
  return
}

// -----

func.func @match_any_bits_of_float(%x: f32) {
  // expected-error @+1 {{compares the low `bits` of an integer value, not 'f32'}}
  %0 = warp.match_any %x bits 8 : f32
  return
}

// -----

func.func @match_any_bits_past_width(%x: i32) {
  // expected-error @+1 {{compares 33 bits of a value of 32}}
  %0 = warp.match_any %x bits 33 : i32
  return
}

// -----

func.func @match_any_no_bits(%x: i32) {
  // expected-error @+1 {{attribute 'bits' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1 whose maximum value is 64}}
  %0 = warp.match_any %x bits 0 : i32
  return
}

// -----

func.func @match_any_ballots_of_all_bits(%x: i32) {
  // expected-error @+1 {{strategy <ballots> needs `bits` of at most 32 (one ballot per bit)}}
  %0 = warp.match_any %x strategy = <ballots> : i32
  return
}

// -----

func.func @match_any_ballots_of_wide_bits(%x: i64) {
  // expected-error @+1 {{strategy <ballots> needs `bits` of at most 32 (one ballot per bit)}}
  %0 = warp.match_any %x bits 40 strategy = <ballots> : i64
  return
}

// -----

func.func @reduce_logical_warp_strided(%x: f32) {
  // expected-error @+1 {{cluster_size = 6 is not a power of two: logical warps need cluster_stride = 1}}
  %0 = warp.reduce <add> %x cluster_size = 6 cluster_stride = 2 : f32
  return
}

// -----

func.func @reduce_logical_warp_strategy(%x: i32) {
  // expected-error @+1 {{cluster_size = 12 (logical warps) has no strategy: it is a segmented scan}}
  %0 = warp.reduce <add> %x cluster_size = 12 strategy = <butterfly> : i32
  return
}

// -----

func.func @reduce_logical_warp_redux(%x: i32) {
  // expected-error @+1 {{cluster_size = 3 (logical warps) has no strategy: it is a segmented scan}}
  %0 = warp.reduce <add> %x cluster_size = 3 strategy = <redux> : i32
  return
}

// -----

// Lanes 0 and 2 of the first group of 3, without lane 1.
func.func @reduce_logical_warp_mask_with_hole(%x: f32) {
  %m = arith.constant 5 : i32
  // expected-error @+1 {{member mask 0x5 has lanes of the logical warp at lane 0 that are not consecutive (cluster_size = 3 needs each group's member lanes in one run)}}
  %0 = warp.reduce <add> %x mask %m cluster_size = 3 : f32
  return
}

// -----

// The last group of 24 holds lanes 24..31 only: lanes 24 and 31 there.
func.func @reduce_logical_warp_mask_last_group(%x: f32) {
  %m = arith.constant -2130706432 : i32
  // expected-error @+1 {{member mask 0x81000000 has lanes of the logical warp at lane 24 that are not consecutive}}
  %0 = warp.reduce <add> %x mask %m cluster_size = 24 : f32
  return
}

// -----

func.func @reduce_logical_warp_valid_lanes(%x: f32, %n: i32) {
  // expected-error @+1 {{valid_lanes needs the whole-warp cluster (cluster_size = 32)}}
  %0 = warp.reduce <add> %x valid_lanes %n cluster_size = 31 : f32
  return
}

// -----

func.func @reduce_cluster_zero(%x: f32) {
  // expected-error @+1 {{attribute 'cluster_size' failed to satisfy constraint: 32-bit integer attribute in [1, 32]}}
  %0 = warp.reduce <add> %x cluster_size = 0 : f32
  return
}

// -----

func.func @reduce_cluster_too_big(%x: f32) {
  // expected-error @+1 {{attribute 'cluster_size' failed to satisfy constraint: 32-bit integer attribute in [1, 32]}}
  %0 = warp.reduce <add> %x cluster_size = 33 : f32
  return
}

// -----

func.func @scan_width_too_big(%x: f32) {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute in [1, 32]}}
  %0 = warp.scan <add> %x width 40 : f32
  return
}

// -----

func.func @reduce_stride_not_power_of_two(%x: f32) {
  // expected-error @+1 {{attribute 'cluster_stride' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0 = warp.reduce <add> %x cluster_size = 4 cluster_stride = 3 : f32
  return
}

// -----

func.func @reduce_cluster_span_past_warp(%x: f32) {
  // expected-error @+1 {{cluster_size * cluster_stride = 64 exceeds the warp size 32}}
  %0 = warp.reduce <add> %x cluster_size = 16 cluster_stride = 4 : f32
  return
}

// -----

func.func @reduce_float_kind_on_integer(%x: i32) {
  // expected-error @+1 {{kind 'maxnumf' needs a floating-point value, got 'i32'}}
  %0 = warp.reduce <maxnumf> %x : i32
  return
}

// -----

func.func @reduce_integer_kind_on_float(%x: f32) {
  // expected-error @+1 {{kind 'and' needs an integer value, got 'f32'}}
  %0 = warp.reduce <and> %x : f32
  return
}

// -----

func.func @reduce_signed_kind_on_float_vector(%x: vector<2xf16>) {
  // expected-error @+1 {{kind 'minsi' needs an integer value, got 'vector<2xf16>'}}
  %0 = warp.reduce <minsi> %x : vector<2xf16>
  return
}

// -----

func.func @reduce_valid_lanes_with_cluster(%x: f32, %n: i32) {
  // expected-error @+1 {{valid_lanes needs the whole-warp cluster (cluster_size = 32)}}
  %0 = warp.reduce <add> %x valid_lanes %n cluster_size = 16 : f32
  return
}

// -----

func.func @reduce_redux_on_f64(%x: f64) {
  // expected-error @+1 {{strategy 'redux' cannot reduce 'f64' with kind 'add'}}
  %0 = warp.reduce <add> %x strategy = <redux> : f64
  return
}

// -----

func.func @reduce_redux_mul(%x: i32) {
  // expected-error @+1 {{strategy 'redux' cannot reduce 'i32' with kind 'mul'}}
  %0 = warp.reduce <mul> %x strategy = <redux> : i32
  return
}

// -----

func.func @reduce_redux_clustered(%x: i32) {
  // expected-error @+1 {{strategy 'redux' needs the whole-warp cluster (cluster_size = 32)}}
  %0 = warp.reduce <add> %x cluster_size = 8 strategy = <redux> : i32
  return
}

// -----


func.func @scan_float_kind_on_integer(%x: i32) {
  // expected-error @+1 {{kind 'minimumf' needs a floating-point value, got 'i32'}}
  %0 = warp.scan <minimumf> %x : i32
  return
}

// -----

func.func @scan_init_with_heads(%x: i32, %h: i1) {
  // expected-error @+1 {{'warp.scan' op init cannot be combined with segment heads}}
  %0 = warp.scan <add> %x exclusive init %x heads %h : i32
  return
}

// -----

func.func @scan_total_type(%x: i32) {
  // expected-error @+1 {{result #1 has type 'i64', expected 'i32' (the type of value #0)}}
  %0:2 = warp.scan <add> %x : i32, i64
  return
}

// -----

func.func @scan_init_type(%x: i32, %i: i64) {
  // expected-error @+1 {{init has the value's type}}
  %0 = "warp.scan"(%x, %i) <{kind = #warp.kind<add>, exclusive, width = 32 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> ({}) : (i32, i64) -> i32
  return
}

// -----

func.func @shuffle_bound_idx(%x: f32, %o: i32) {
  // expected-error @+1 {{takes a bound only for up and down over the whole warp}}
  %0:2 = warp.shuffle <idx> %x, %o bound %o : f32
  return
}

// -----

func.func @shuffle_bound_width(%x: f32, %o: i32) {
  // expected-error @+1 {{takes a bound only for up and down over the whole warp}}
  %0:2 = warp.shuffle <down> %x, %o width 16 bound %o : f32
  return
}

// -----

func.func @shuffle_bound_dynamic_width(%x: f32, %o: i32, %w: i32) {
  // expected-error @+1 {{takes a bound only for up and down over the whole warp}}
  %0:2 = warp.shuffle <up> %x, %o width %w bound %o : f32
  return
}

// -----

func.func @shuffle_two_widths(%x: f32, %o: i32, %w: i32) {
  // expected-error @+1 {{has both a constant and a run-time width}}
  %0:2 = "warp.shuffle"(%x, %o, %w) <{mode = #warp.shuffle_mode<up>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, width = 8 : i32}> : (f32, i32, i32) -> (f32, i1)
  return
}

// -----

func.func @scalable_vector(%x: vector<[4]xf32>, %o: i32) {
  // expected-error @+1 {{operand #0 must be i1/i8/i16/i32/i64/index/f16/bf16/f32/f64 or a 1-D vector of them}}
  %0:2 = warp.shuffle <idx> %x, %o : vector<[4]xf32>
  return
}

// -----

func.func @reduce_index_float_kind(%x: index) {
  // expected-error @+1 {{kind 'maxnumf' needs a floating-point value, got 'index'}}
  %0 = warp.reduce <maxnumf> %x : index
  return
}

// -----

func.func @block_reduce_bad_kind(%x: f32) {
  // expected-error @+1 {{kind 'xor' needs an integer value, got 'f32'}}
  %0 = warp.block_reduce <xor> %x : f32
  return
}

// -----

func.func @block_reduce_no_valid_threads(%x: f32) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{'warp.block_reduce' op valid_threads must be at least 1, got 0}}
  %0 = warp.block_reduce <add> %x valid_threads %c0 : f32
  return
}

// -----

func.func @block_reduce_raking_valid_threads(%x: i32, %n: i32) {
  // expected-error @+1 {{'warp.block_reduce' op algorithm 'raking' does not take valid_threads (use 'warp_reductions')}}
  %0 = warp.block_reduce <add> %x valid_threads %n algorithm = <raking> : i32
  return
}

// -----

func.func @block_reduce_commutative_raking_valid_threads(%x: i32, %n: i32) {
  // expected-error @+1 {{'warp.block_reduce' op algorithm 'raking_commutative_only' does not take valid_threads (use 'warp_reductions')}}
  %0 = warp.block_reduce <add> %x valid_threads %n algorithm = <raking_commutative_only> : i32
  return
}

// -----

// A region not marked commutative: its combines may not be reordered.
func.func @block_reduce_commutative_raking_of_region(%x: f32) {
  // expected-error @+1 {{'warp.block_reduce' op algorithm 'raking_commutative_only' reorders the combines: it needs a kind or a 'commutative' region}}
  %0 = warp.block_reduce %x algorithm = <raking_commutative_only> : f32 combine (%a: f32, %b: f32) {
    %s = arith.subf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @block_scan_bad_kind(%x: i32) {
  // expected-error @+1 {{kind 'minimumf' needs a floating-point value, got 'i32'}}
  %0 = warp.block_scan <minimumf> %x : i32
  return
}

// -----

func.func @block_scan_init_type(%x: i32, %p: i64) {
  // expected-error @+1 {{init has the value's type}}
  %0 = "warp.block_scan"(%x, %p) <{kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0>}> ({}, {}) : (i32, i64) -> i32
  return
}

// -----

// Items per thread: every value a vector of the thread's items, all of one
// length; the reductions, totals, init and region take the element types.
func.func @block_reduce_items_scalar(%x: f32) {
  // expected-error @+1 {{'warp.block_reduce' op with 'items' every value is a vector of the thread's items; got 'f32'}}
  %0 = warp.block_reduce <add> %x items : f32
  return
}

// -----

func.func @block_scan_items_lengths(%a: vector<4xi32>, %b: vector<2xi32>) {
  // expected-error @+1 {{'warp.block_scan' op with 'items' every value is a vector of the thread's items, all of one length; got 'vector<2xi32>'}}
  %0:2 = warp.block_scan %a, %b items : vector<4xi32>, vector<2xi32>
      combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
    warp.yield %a2, %b2 : i32, i32
  }
  return
}

// -----

func.func @block_reduce_items_result(%x: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_reduce' op result #0 has type 'vector<4xi32>', expected 'i32' (the type of value #0's items)}}
  %0 = "warp.block_reduce"(%x) <{kind = #warp.kind<add>, items, operandSegmentSizes = array<i32: 1, 0>}> ({}) : (vector<4xi32>) -> vector<4xi32>
  return
}

// -----

func.func @block_scan_items_total(%x: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_scan' op result #1 has type 'vector<4xi32>', expected 'i32' (the type of value #0's items)}}
  %0:2 = warp.block_scan <add> %x items : vector<4xi32>, vector<4xi32>
  return
}

// -----

func.func @block_scan_items_init(%x: vector<4xi32>, %p: vector<4xi32>) {
  // expected-error @+1 {{init has the value's type}}
  %0 = "warp.block_scan"(%x, %p) <{kind = #warp.kind<add>, items, operandSegmentSizes = array<i32: 1, 1, 0>}> ({}, {}) : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return
}

// -----

func.func @block_reduce_items_region(%x: vector<2xf32>) {
  // expected-error @+1 {{combiner region must take 2 arguments (the left values, then the right values) of types ('f32', 'f32'), got ('vector<2xf32>', 'vector<2xf32>')}}
  %0 = warp.block_reduce %x items : vector<2xf32>
      combine (%l: vector<2xf32>, %r: vector<2xf32>) {
    warp.yield %l : vector<2xf32>
  }
  return
}

// -----

func.func @block_reduce_items_kind(%x: vector<4xf32>) {
  // expected-error @+1 {{kind 'xor' needs an integer value, got 'f32'}}
  %0 = warp.block_reduce <xor> %x items : vector<4xf32>
  return
}

// -----

func.func @block_reduce_items_valid_threads(%x: vector<4xi32>, %n: i32) {
  // expected-error @+1 {{'warp.block_reduce' op takes 'items' or 'valid_threads', not both}}
  %0 = warp.block_reduce <add> %x items valid_threads %n : vector<4xi32>
  return
}

// -----

// Only the warp scans have a reverse form.
func.func @block_scan_reverse_raking(%x: i32) {
  // expected-error @+1 {{'warp.block_scan' op algorithm 'raking' does not take 'reverse' (use 'warp_scans')}}
  %0 = warp.block_scan <add> %x reverse algorithm = <raking> : i32
  return
}

// -----

// A prefix region stands for init: not both.
func.func @block_scan_prefix_and_init(%x: i32, %p: i32) {
  // expected-error @+1 {{'warp.block_scan' op takes 'init' or a prefix region, not both}}
  %0 = warp.block_scan <add> %x init %p : i32 prefix(%t: i32) {
    warp.yield %t : i32
  }
  return
}

// -----

func.func @block_scan_prefix_reverse(%x: i32) {
  // expected-error @+1 {{'warp.block_scan' op a prefix region does not take 'reverse'}}
  %0 = warp.block_scan <add> %x reverse : i32 prefix(%t: i32) {
    warp.yield %t : i32
  }
  return
}

// -----

// With items, the region gets the total of the items: the element type.
func.func @block_scan_prefix_argument(%x: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_scan' op prefix region must take 1 arguments (the block's totals) of types ('i32'), got ('vector<4xi32>')}}
  %0 = warp.block_scan <add> %x items : vector<4xi32> prefix(%t: vector<4xi32>) {
    warp.yield %t : vector<4xi32>
  }
  return
}

// -----

func.func @block_scan_prefix_yield(%a: f32, %b: i32) {
  %0:2 = warp.block_scan %a, %b : f32, i32
      combine (%a1: f32, %b1: i32, %a2: f32, %b2: i32) {
    warp.yield %a2, %b2 : f32, i32
  } prefix(%ta: f32, %tb: i32) {
    // expected-error @+1 {{'warp.yield' op must yield the prefix: 2 values of types ('f32', 'i32'), got ('f32')}}
    warp.yield %ta : f32
  }
  return
}

// -----

// The region runs in warp 0 alone: a barrier there never completes.
func.func @block_scan_prefix_barrier(%x: i32) {
  %0 = warp.block_scan <add> %x : i32 prefix(%t: i32) {
    // expected-error @+1 {{'gpu.barrier' op synchronizes the block inside a block scan's prefix region, which runs in warp 0 alone}}
    gpu.barrier
    warp.yield %t : i32
  }
  return
}

// -----

func.func @block_scan_prefix_block_op(%x: i32, %c: i1) {
  %0 = warp.block_scan <add> %x : i32 prefix(%t: i32) {
    %r = scf.if %c -> i32 {
      // expected-error @+1 {{'warp.block_reduce' op synchronizes the block inside a block scan's prefix region, which runs in warp 0 alone}}
      %s = warp.block_reduce <add> %t : i32
      scf.yield %s : i32
    } else {
      scf.yield %t : i32
    }
    warp.yield %r : i32
  }
  return
}

// -----

// Block loads and stores: the algorithms' conditions.
func.func @block_load_element(%m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.block_load' op memref of 'f32' for items of 'i32'}}
  %0 = "warp.block_load"(%m, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<?xf32>, index) -> vector<4xi32>
  return
}

// -----

func.func @block_load_default_without_valid(%m: memref<?xf32>, %o: index, %z: f32) {
  // expected-error @+1 {{'warp.block_load' op default is for the items past valid: give valid}}
  %0 = warp.block_load %m[%o] default %z : memref<?xf32>, vector<4xf32>
  return
}

// -----

func.func @block_load_default_type(%m: memref<?xf32>, %o: index, %n: i32, %z: f64) {
  // expected-error @+1 {{'warp.block_load' op default has the items' element type, got 'f64'}}
  %0 = "warp.block_load"(%m, %o, %n, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (memref<?xf32>, index, i32, f64) -> vector<4xf32>
  return
}

// -----

func.func @block_load_warp_striped_vectorize(%m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.block_load' op striped items take algorithm 'direct' (striped accesses are coalesced already), got 'vectorize'}}
  %0 = warp.block_load %m[%o] warp_striped algorithm = <vectorize> : memref<?xf32>, vector<4xf32>
  return
}

// -----

func.func @block_store_striped_twice(%v: vector<4xf32>, %m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.block_store' op takes 'striped' (over the block) or 'warp_striped' (over each warp), not both}}
  warp.block_store %v, %m[%o] striped warp_striped : vector<4xf32>, memref<?xf32>
  return
}

// -----

func.func @block_load_striped_transpose(%m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.block_load' op striped items take algorithm 'direct' (striped accesses are coalesced already), got 'transpose'}}
  %0 = warp.block_load %m[%o] striped algorithm = <transpose> : memref<?xf32>, vector<4xf32>
  return
}

// -----

func.func @block_load_vectorize_size(%m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.block_load' op algorithm 'vectorize' accesses N * sizeof(T) = 12 bytes in vectors of 16 (or fewer, a power of two): a multiple of 16 or a power of two below it}}
  %0 = warp.block_load %m[%o] algorithm = <vectorize> : memref<?xf32>, vector<3xf32>
  return
}

// -----

func.func @block_load_vectorize_strided(%m: memref<?xf32, strided<[2]>>, %o: index) {
  // expected-error @+1 {{'warp.block_load' op algorithm 'vectorize' needs a memref of the identity layout (contiguous items)}}
  %0 = warp.block_load %m[%o] algorithm = <vectorize> : memref<?xf32, strided<[2]>>, vector<4xf32>
  return
}

// -----

func.func @block_load_transpose_i16(%m: memref<?xi16>, %o: index) {
  // expected-error @+1 {{'warp.block_load' op algorithm 'transpose' exchanges 4- or 8-byte items, got 'i16' (use 'direct')}}
  %0 = warp.block_load %m[%o] algorithm = <transpose> : memref<?xi16>, vector<4xi16>
  return
}

// -----

gpu.module @block_load_warp_transpose_ragged {
  gpu.func @k(%m: memref<?xf32>, %o: index) kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
    // expected-error @+1 {{'warp.block_load' op algorithm 'warp_transpose' needs a known_block_size of whole warps on the gpu.func (each warp exchanges its own items)}}
    %0 = warp.block_load %m[%o] algorithm = <warp_transpose> : memref<?xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

func.func @block_store_warp_transpose_items(%v: vector<33xf32>, %m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.block_store' op algorithm 'warp_transpose' exchanges at most 32 items per thread, got 33}}
  warp.block_store %v, %m[%o] algorithm = <warp_transpose> : vector<33xf32>, memref<?xf32>
  return
}

// -----

// warp.load / warp.store: the block ops' checks at warp scope, and their
// own transpose (warp.exchange's items: any type, at most 128 per lane).
func.func @warp_load_default_without_valid(%m: memref<?xf32>, %o: index, %z: f32) {
  // expected-error @+1 {{'warp.load' op default is for the items past valid: give valid}}
  %0 = warp.load %m[%o] default %z : memref<?xf32>, vector<4xf32>
  return
}

// -----

func.func @warp_load_element(%m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.load' op memref of 'f32' for items of 'i32'}}
  %0 = "warp.load"(%m, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<?xf32>, index) -> vector<4xi32>
  return
}

// -----

func.func @warp_load_logical_transpose(%m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.load' op algorithm 'transpose' exchanges the items of the whole warp (warp.exchange), not of logical warps of width 16 (use 'direct' or 'vectorize')}}
  %0 = warp.load %m[%o] width 16 algorithm = <transpose> : memref<?xf32>, vector<4xf32>
  return
}

// -----

func.func @warp_store_width_not_power_of_two(%m: memref<?xf32>, %o: index, %x: vector<2xf32>) {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  warp.store %x, %m[%o] width 3 : vector<2xf32>, memref<?xf32>
  return
}

// -----

func.func @warp_load_warp_transpose(%m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.load' op algorithm 'warp_transpose' is for block loads and stores (a warp's 'transpose' stays in the warp)}}
  %0 = warp.load %m[%o] algorithm = <warp_transpose> : memref<?xf32>, vector<4xf32>
  return
}

// -----

func.func @warp_store_transpose_items(%v: vector<129xi8>, %m: memref<?xi8>, %o: index) {
  // expected-error @+1 {{'warp.store' op algorithm 'transpose' exchanges at most 128 items per lane, got 129 (use 'direct')}}
  warp.store %v, %m[%o] algorithm = <transpose> : vector<129xi8>, memref<?xi8>
  return
}

// -----

func.func @warp_load_striped_vectorize(%m: memref<?xf32>, %o: index) {
  // expected-error @+1 {{'warp.load' op striped items take algorithm 'direct' (striped accesses are coalesced already), got 'vectorize'}}
  %0 = warp.load %m[%o] striped algorithm = <vectorize> : memref<?xf32>, vector<4xf32>
  return
}

// -----

gpu.module @warp_load_private {
  gpu.func @k(%o: index) kernel {
    %p = memref.alloca() : memref<256xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'warp.load' op moves a tile the warp shares: a memref in global or workgroup memory (or constant), not 'memref<256xf32, #gpu.address_space<private>>'}}
    %v = warp.load %p[%o] : memref<256xf32, #gpu.address_space<private>>, vector<4xf32>
    gpu.return
  }
}

// -----

func.func @warp_load_vector_of_vectors(%m: memref<?xvector<2xf32>>, %o: index) {
  // expected-error @+1 {{'warp.load' op result #0 must be}}
  %0 = "warp.load"(%m, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<?xvector<2xf32>>, index) -> f32
  return
}

// -----

func.func @block_histogram_float_samples(%s: vector<4xf32>, %bins: memref<16xi32>) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values of ranks 1, but got 'vector<4xf32>'}}
  warp.block_histogram %s into %bins : vector<4xf32>, memref<16xi32>
  return
}

// -----

func.func @block_histogram_counters(%s: vector<4xi8>, %bins: memref<16xf32>) {
  // expected-error @+1 {{operand #1 must be 1D memref of 32-bit signless integer or 64-bit signless integer values, but got 'memref<16xf32>'}}
  warp.block_histogram %s into %bins : vector<4xi8>, memref<16xf32>
  return
}

// -----

// A warp's striped arrangement is its warp-striped one.
func.func @exchange_warp_striped(%x: vector<4xf32>) {
  // expected-error @+1 {{'warp.exchange' op exchanges blocked_to_striped or striped_to_blocked (a warp's striped arrangement is its warp-striped one)}}
  %0 = warp.exchange <blocked_to_warp_striped> %x : vector<4xf32>
  return
}

// -----

func.func @block_scatter_ranks(%x: vector<4xf32>, %r: vector<2xi32>) {
  // expected-error @+1 {{'warp.block_scatter' op has one rank per item: 4 items, 2 ranks}}
  %0 = warp.block_scatter %x, %r : vector<4xf32>, vector<2xi32>
  return
}

// -----

func.func @block_scatter_flags(%x: vector<4xf32>, %r: vector<4xi32>, %f: vector<3xi1>) {
  // expected-error @+1 {{'warp.block_scatter' op has one flag per item: 4 items, 3 flags}}
  %0 = warp.block_scatter %x, %r flags %f : vector<4xf32>, vector<4xi32>, vector<3xi1>
  return
}

// -----

func.func @block_shift_scalar(%x: f32) {
  // expected-error @+1 {{custom op 'warp.block_shift' invalid kind of type specified: expected builtin.vector, but found 'f32'}}
  %0, %1 = warp.block_shift <up> %x : f32
  return
}

// -----

func.func @block_shift_generic_scalar(%x: f32) {
  // expected-error @+1 {{'warp.block_shift' op operand #0 must be fixed-length vector of}}
  %0, %1 = "warp.block_shift"(%x) <{direction = #warp.block_shift_direction<up>}> : (f32) -> (f32, f32)
  return
}

// -----

func.func @block_shift_edge_type(%x: vector<4xf32>) {
  // expected-error @+1 {{'warp.block_shift' op failed to verify that the edge item has the items' element type}}
  %0, %1 = "warp.block_shift"(%x) <{direction = #warp.block_shift_direction<down>}> : (vector<4xf32>) -> (vector<4xf32>, f16)
  return
}

// -----

func.func @block_shift_result_type(%x: vector<4xf32>) {
  // expected-error @+1 {{'warp.block_shift' op failed to verify that all of {items, result} have same type}}
  %0, %1 = "warp.block_shift"(%x) <{direction = #warp.block_shift_direction<up>}> : (vector<4xf32>) -> (vector<3xf32>, f32)
  return
}

// -----

func.func @block_shift_direction(%x: vector<4xf32>) {
  // expected-error @+2 {{expected ::mlir::warp::BlockShiftDirection to be one of: up, down}}
  // expected-error @+1 {{failed to parse Warp_BlockShiftDirectionEnum parameter}}
  %0, %1 = warp.block_shift <left> %x : vector<4xf32>
  return
}

// -----

func.func @block_scatter_flag_type(%x: vector<4xf32>, %r: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_scatter' op operand #2 must be fixed-length vector of 1-bit signless integer values of ranks 1, but got 'vector<4xi32>'}}
  %0 = warp.block_scatter %x, %r flags %r : vector<4xf32>, vector<4xi32>, vector<4xi32>
  return
}

// -----

// The block's bins, where the atomics reach them (a fuzz finding: memory
// space 7 reached warp.atomic_rmw's verifier after the expansion).
func.func @block_histogram_space(%s: vector<4xi8>, %bins: memref<?xi32, 7>) {
  // expected-error @+1 {{'warp.block_histogram' op counts into workgroup or global memory, not 'memref<?xi32, 7>'}}
  warp.block_histogram %s into %bins algorithm = <warp_aggregated> : vector<4xi8>, memref<?xi32, 7>
  return
}

// -----

func.func @block_histogram_stack(%s: vector<4xi8>) {
  %bins = memref.alloca() : memref<16xi32>
  // expected-error @+1 {{'warp.block_histogram' op counts into bins the whole block shares, not a stack allocation (private to each thread)}}
  warp.block_histogram %s into %bins : vector<4xi8>, memref<16xi32>
  return
}

// -----

func.func @block_broadcast_thread_type(%x: f32, %t: i64) {
  // expected-error @+1 {{operand #1 must be 32-bit signless integer}}
  %0 = "warp.block_broadcast"(%x, %t) : (f32, i64) -> f32
  return
}

// -----

// block_exchange moves 4- and 8-byte items, as warp.exchange.
func.func @block_exchange_f16(%x: vector<4xf16>) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float values of ranks 1, but got 'vector<4xf16>'}}
  %0 = warp.block_exchange <blocked_to_striped> %x : vector<4xf16>
  return
}

// -----

func.func @block_exchange_scalar(%x: f32) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of}}
  %0 = "warp.block_exchange"(%x) <{direction = #warp.exchange_direction<blocked_to_striped>}> : (f32) -> f32
  return
}

// -----

func.func @block_exchange_rank_2(%x: vector<2x4xi32>) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of}}
  %0 = warp.block_exchange <striped_to_blocked> %x : vector<2x4xi32>
  return
}

// -----

func.func @block_exchange_scalable(%x: vector<[4]xi32>) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of}}
  %0 = warp.block_exchange <striped_to_blocked> %x : vector<[4]xi32>
  return
}

// -----

func.func @block_exchange_result_type(%x: vector<4xi32>) {
  // expected-error @+1 {{all of {items, result} have same type}}
  %0 = "warp.block_exchange"(%x) <{direction = #warp.exchange_direction<blocked_to_striped>}> : (vector<4xi32>) -> vector<4xf32>
  return
}

// -----

func.func @block_exchange_bad_direction(%x: vector<4xi32>) {
  // expected-error @+2 {{expected ::mlir::warp::ExchangeDirection to be one of: blocked_to_striped, striped_to_blocked}}
  // expected-error @+1 {{failed to parse Warp_ExchangeDirectionEnum parameter}}
  %0 = warp.block_exchange <transpose> %x : vector<4xi32>
  return
}

// -----

func.func @block_scan_bad_algorithm(%x: i32) {
  // expected-error @+2 {{expected ::mlir::warp::BlockScanAlgorithm to be one of: warp_scans, raking}}
  // expected-error @+1 {{failed to parse Warp_BlockScanAlgorithmEnum parameter}}
  %0 = warp.block_scan <add> %x algorithm = <tiled> : i32
  return
}

// -----

// Combiner regions on block ops: the rules of warp.reduce / warp.scan.
func.func @block_reduce_kind_and_region(%x: f32) {
  // expected-error @+1 {{has both a combine kind and a combiner region; give one}}
  %0 = warp.block_reduce <add> %x : f32 combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @block_reduce_no_kind(%x: f32) {
  // expected-error @+1 {{needs a combine kind (e.g. <add>) or a combiner region}}
  %0 = warp.block_reduce %x : f32
  return
}

// -----

func.func @block_reduce_kind_two_values(%x: f32, %i: i32) {
  // expected-error @+1 {{a combine kind takes exactly one value, got 2 (combine several values with a combiner region)}}
  %0:2 = warp.block_reduce <add> %x, %i : f32, i32
  return
}

// -----

func.func @block_reduce_region_arguments(%x: f32, %i: i32) {
  // expected-error @+1 {{combiner region must take 4 arguments (the left values, then the right values) of types ('f32', 'i32', 'f32', 'i32'), got ('f32', 'f32', 'i32', 'i32')}}
  %0:2 = warp.block_reduce %x, %i : f32, i32 combine (%a: f32, %b: f32, %ai: i32, %bi: i32) {
    warp.yield %a, %ai : f32, i32
  }
  return
}

// -----

func.func @block_reduce_yield_types(%x: f32, %i: i32) {
  %0:2 = warp.block_reduce %x, %i : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    // expected-error @+1 {{'warp.yield' op must yield 2 values of types ('f32', 'i32'), got ('f32')}}
    warp.yield %a : f32
  }
  return
}

// -----

func.func @block_reduce_commutative_kind(%x: f32) {
  // expected-error @+1 {{'commutative' applies to a combiner region (every combine kind is commutative)}}
  %0 = warp.block_reduce <add> %x commutative : f32
  return
}

// -----

func.func @block_scan_exclusive_region_without_init(%x: f32) {
  // expected-error @+1 {{an exclusive scan with a combiner region needs an init: a region has no known identity}}
  %0 = warp.block_scan %x exclusive : f32 combine (%a: f32, %b: f32) {
    %s = arith.addf %a, %b : f32
    warp.yield %s : f32
  }
  return
}

// -----

func.func @block_scan_region_init_count(%x: f32, %i: i32, %p: f32) {
  // expected-error @+1 {{init has the value's type (one init per value)}}
  %0:2 = warp.block_scan %x, %i init %p : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    warp.yield %b, %bi : f32, i32
  }
  return
}

// -----

func.func @block_scan_result_count(%x: f32) {
  // expected-error @+1 {{expected 1 types (the values') or 2 (the values', then the segment totals'), got 3}}
  %0:3 = warp.block_scan <add> %x : f32, f32, f32
  return
}

// -----

func.func @block_reduce_scan_algorithm(%x: i32) {
  // expected-error @+2 {{expected ::mlir::warp::BlockReduceAlgorithm to be one of: warp_reductions, raking}}
  // expected-error @+1 {{failed to parse Warp_BlockReduceAlgorithmEnum parameter}}
  %0 = warp.block_reduce <add> %x algorithm = <warp_scans> : i32
  return
}

// -----

// warp.exchange, warp.elect and warp.atomic_rmw.

func.func @exchange_too_many_items(%x: vector<129xf32>) -> vector<129xf32> {
  // expected-error @+1 {{exchanges at most 128 items per lane, got 129}}
  %0 = warp.exchange <blocked_to_striped> %x : vector<129xf32>
  return %0 : vector<129xf32>
}

// -----

func.func @exchange_shuffle_odd_items(%x: vector<6xi32>) -> vector<6xi32> {
  // expected-error @+1 {{strategy 'shuffle' needs a power-of-two number of items per lane, at most 32, got 6 (use 'shared')}}
  %0 = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<6xi32>
  return %0 : vector<6xi32>
}

// -----

func.func @exchange_shuffle_many_items(%x: vector<64xi8>) -> vector<64xi8> {
  // expected-error @+1 {{strategy 'shuffle' needs a power-of-two number of items per lane, at most 32, got 64 (use 'shared')}}
  %0 = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<64xi8>
  return %0 : vector<64xi8>
}

// -----

func.func @exchange_bool_items(%x: vector<8xi1>) -> vector<8xi1> {
  // expected-error @+1 {{operand #0 must be fixed-length vector of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float values of ranks 1, but got 'vector<8xi1>'}}
  %0 = warp.exchange <blocked_to_striped> %x : vector<8xi1>
  return %0 : vector<8xi1>
}

// -----

func.func @scatter_rank_count(%x: vector<4xf16>, %r: vector<2xi32>) -> vector<4xf16> {
  // expected-error @+1 {{'warp.scatter' op has one rank per item: 4 items, 2 ranks}}
  %0 = warp.scatter %x, %r : vector<4xf16>, vector<2xi32>
  return %0 : vector<4xf16>
}

// -----

func.func @scatter_too_many_items(%x: vector<130xi8>, %r: vector<130xi32>) -> vector<130xi8> {
  // expected-error @+1 {{'warp.scatter' op scatters at most 128 items per lane, got 130}}
  %0 = warp.scatter %x, %r striped : vector<130xi8>, vector<130xi32>
  return %0 : vector<130xi8>
}

// -----

func.func @scatter_rank_type(%x: vector<4xf32>, %r: vector<4xi64>) -> vector<4xf32> {
  // expected-error @+1 {{operand #1 must be fixed-length vector of 32-bit signless integer values of ranks 1, but got 'vector<4xi64>'}}
  %0 = warp.scatter %x, %r : vector<4xf32>, vector<4xi64>
  return %0 : vector<4xf32>
}

// -----

func.func @scatter_result_type(%x: vector<4xf32>, %r: vector<4xi32>) {
  // expected-error @+1 {{'warp.scatter' op failed to verify that all of {items, result} have same type}}
  %0 = "warp.scatter"(%x, %r) : (vector<4xf32>, vector<4xi32>) -> vector<4xi32>
  return
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
  %0 = "warp.atomic_rmw"(%x, %h, %i) <{kind = #warp.atomic_kind<add>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (f32, memref<?xi32>, index) -> f32
  return %0 : f32
}

// -----

func.func @atomic_integer_kind_on_float(%h: memref<?xf32>, %i: index, %x: f32) -> f32 {
  // expected-error @+1 {{'warp.atomic_rmw' op kind 'maxsi' needs an i32 or i64 value, got 'f32'}}
  %0 = warp.atomic_rmw <maxsi> %x, %h[%i] : f32, memref<?xf32>
  return %0 : f32
}

// -----

func.func @atomic_bitwise_kind_on_float(%h: memref<?xf64>, %i: index, %x: f64) -> f64 {
  // expected-error @+1 {{'warp.atomic_rmw' op kind 'xor' needs an i32 or i64 value, got 'f64'}}
  %0 = warp.atomic_rmw <xor> %x, %h[%i] : f64, memref<?xf64>
  return %0 : f64
}

// -----

func.func @atomic_kind_without_atom(%h: memref<?xi32>, %i: index, %x: i32) -> i32 {
  // expected-error @+2 {{expected ::mlir::warp::AtomicKind to be one of: add, minsi, maxsi, minui, maxui, and, or, xor, exch, minnumf, maxnumf}}
  // expected-error @+1 {{failed to parse}}
  %0 = warp.atomic_rmw <mul> %x, %h[%i] : i32, memref<?xi32>
  return %0 : i32
}

// -----

func.func @atomic_add_index_count(%h: memref<?x?xi32>, %i: index, %x: i32) -> i32 {
  // expected-error @+1 {{needs 2 indices for 'memref<?x?xi32>', got 1}}
  %0 = warp.atomic_rmw <add> %x, %h[%i] : i32, memref<?x?xi32>
  return %0 : i32
}

// -----

func.func @atomic_add_narrow(%h: memref<?xi16>, %i: index, %x: i16) -> i16 {
  // expected-error @+1 {{'warp.atomic_rmw' op kind 'add' needs an i32, i64, f32 or f64 value (16-bit values take add, exch, minnumf and maxnumf, i16 exch only, packed pairs add only), got 'i16'}}
  %0 = warp.atomic_rmw <add> %x, %h[%i] : i16, memref<?xi16>
  return %0 : i16
}

// -----

// The 16-bit types take add and exch (i16 exch only), the pairs add only.
func.func @atomic_pair_exch(%h: memref<?xvector<2xf16>>, %i: index, %x: vector<2xf16>) -> vector<2xf16> {
  // expected-error @+1 {{'warp.atomic_rmw' op kind 'exch' needs an i32, i64, f32 or f64 value (16-bit values take add, exch, minnumf and maxnumf, i16 exch only, packed pairs add only), got 'vector<2xf16>'}}
  %0 = warp.atomic_rmw <exch> %x, %h[%i] : vector<2xf16>, memref<?xvector<2xf16>>
  return %0 : vector<2xf16>
}

// -----

// The float min/max: f16, bf16, f32 and f64 scalars only.
func.func @atomic_minnumf_i32(%h: memref<?xi32>, %i: index, %x: i32) -> i32 {
  // expected-error @+1 {{'warp.atomic_rmw' op kind 'minnumf' needs an f16, bf16, f32 or f64 value, got 'i32'}}
  %0 = warp.atomic_rmw <minnumf> %x, %h[%i] : i32, memref<?xi32>
  return %0 : i32
}

// -----

func.func @lane_atomic_maxnumf_i64(%h: memref<?xi64>, %i: index, %x: i64) -> i64 {
  // expected-error @+1 {{'warp.lane_atomic_rmw' op kind 'maxnumf' needs an f16, bf16, f32 or f64 value, got 'i64'}}
  %0 = warp.lane_atomic_rmw <maxnumf> %x, %h[%i] : i64, memref<?xi64>
  return %0 : i64
}

// -----

func.func @lane_atomic_maxnumf_pair(%h: memref<?xvector<2xf16>>, %i: index, %x: vector<2xf16>) -> vector<2xf16> {
  // expected-error @+1 {{'warp.lane_atomic_rmw' op kind 'maxnumf' needs an f16, bf16, f32 or f64 value, got 'vector<2xf16>'}}
  %0 = warp.lane_atomic_rmw <maxnumf> %x, %h[%i] : vector<2xf16>, memref<?xvector<2xf16>>
  return %0 : vector<2xf16>
}

// -----

func.func @atomic_minnumf_i16(%h: memref<?xi16>, %i: index, %x: i16) -> i16 {
  // expected-error @+1 {{'warp.atomic_rmw' op kind 'minnumf' needs an f16, bf16, f32 or f64 value, got 'i16'}}
  %0 = warp.atomic_rmw <minnumf> %x, %h[%i] : i16, memref<?xi16>
  return %0 : i16
}

// -----

func.func @atomic_pair_max(%h: memref<?xvector<2xbf16>>, %i: index, %x: vector<2xbf16>) -> vector<2xbf16> {
  // expected-error @+1 {{'warp.atomic_rmw' op kind 'maxsi' needs an i32, i64, f32 or f64 value (16-bit values take add, exch, minnumf and maxnumf, i16 exch only, packed pairs add only), got 'vector<2xbf16>'}}
  %0 = warp.atomic_rmw <maxsi> %x, %h[%i] : vector<2xbf16>, memref<?xvector<2xbf16>>
  return %0 : vector<2xbf16>
}

// -----

func.func @lane_atomic_16bit_xor(%h: memref<?xbf16>, %i: index, %x: bf16) -> bf16 {
  // expected-error @+1 {{'warp.lane_atomic_rmw' op kind 'xor' needs an i32, i64, f32 or f64 value (16-bit values take add, exch, minnumf and maxnumf, i16 exch only, packed pairs add only), got 'bf16'}}
  %0 = warp.lane_atomic_rmw <xor> %x, %h[%i] : bf16, memref<?xbf16>
  return %0 : bf16
}

// -----

// Packed pairs of f16 and bf16 only: no longer vectors, no other elements.
func.func @atomic_wide_vector(%h: memref<?xvector<4xf16>>, %i: index, %x: vector<4xf16>) -> vector<4xf16> {
  // expected-error @+1 {{operand #0 must be 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float or vector of 16-bit float or bfloat16 type values of length 2, but got 'vector<4xf16>'}}
  %0 = warp.atomic_rmw <add> %x, %h[%i] : vector<4xf16>, memref<?xvector<4xf16>>
  return %0 : vector<4xf16>
}

// -----

func.func @atomic_f32_pair(%h: memref<?xvector<2xf32>>, %i: index, %x: vector<2xf32>) -> vector<2xf32> {
  // expected-error @+1 {{but got 'vector<2xf32>'}}
  %0 = warp.atomic_rmw <add> %x, %h[%i] : vector<2xf32>, memref<?xvector<2xf32>>
  return %0 : vector<2xf32>
}

// -----

// A pair into a buffer of the scalar type (or the other 16-bit float).
func.func @atomic_pair_into_scalars(%h: memref<?xf16>, %i: index, %x: vector<2xf16>) -> vector<2xf16> {
  // expected-error @+1 {{value has the memref's element type}}
  %0 = "warp.atomic_rmw"(%x, %h, %i) <{kind = #warp.atomic_kind<add>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (vector<2xf16>, memref<?xf16>, index) -> vector<2xf16>
  return %0 : vector<2xf16>
}

// -----

func.func @lane_atomic_bf16_into_f16(%h: memref<?xf16>, %i: index, %x: bf16) -> bf16 {
  // expected-error @+1 {{value has the memref's element type}}
  %0 = "warp.lane_atomic_rmw"(%x, %h, %i) <{kind = #warp.atomic_kind<add>}> : (bf16, memref<?xf16>, index) -> bf16
  return %0 : bf16
}

// -----

func.func @lane_atomic_private(%h: memref<?xf16, 5>, %i: index, %x: f16) -> f16 {
  // expected-error @+1 {{'warp.lane_atomic_rmw' op needs a memref in global memory (no memory space, 1 or #gpu.address_space<global>) or workgroup memory (3 or #gpu.address_space<workgroup>), not 'memref<?xf16, 5>'}}
  %0 = warp.lane_atomic_rmw <add> %x, %h[%i] : f16, memref<?xf16, 5>
  return %0 : f16
}

// -----

func.func @atomic_unknown_scope(%h: memref<?xi32>, %i: index, %x: i32) -> i32 {
  // expected-error @+2 {{expected ::mlir::warp::MemoryScope to be one of: cta, cluster, gpu, sys}}
  // expected-error @+1 {{failed to parse}}
  %0 = warp.atomic_rmw <add> %x, %h[%i] scope <block> : i32, memref<?xi32>
  return %0 : i32
}

// -----

// PTX atom has no sequentially consistent form (.sc is fence's).
func.func @atomic_seq_cst(%h: memref<?xi32>, %i: index, %x: i32) -> i32 {
  // expected-error @+2 {{expected ::mlir::warp::MemoryOrder to be one of: relaxed, acquire, release, acq_rel}}
  // expected-error @+1 {{failed to parse}}
  %0 = warp.atomic_rmw <add> %x, %h[%i] ordering <seq_cst> : i32, memref<?xi32>
  return %0 : i32
}

// -----

func.func @atomic_add_not_memref(%h: vector<4xi32>, %i: index, %x: i32) -> i32 {
  // expected-error @+1 {{custom op 'warp.atomic_rmw' invalid kind of type specified}}
  %0 = warp.atomic_rmw <add> %x, %h[%i] : i32, vector<4xi32>
  return %0 : i32
}

// -----

func.func @block_radix_sort_lengths(%k: vector<4xi32>, %v: vector<2xf32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op needs as many values as keys per thread; got 'vector<4xi32>' and 'vector<2xf32>'}}
  %0:2 = warp.block_radix_sort %k, %v : vector<4xi32>, vector<2xf32>
  return
}

// -----

func.func @block_radix_sort_scalar_keys(%k: i32) {
  // expected-error @+1 {{'warp.block_radix_sort' op operand #0 must be variadic of a 1-D vector of i8/i16/i32/i64/f16/bf16/f32/f64, but got 'i32'}}
  %0 = "warp.block_radix_sort"(%k) <{operandSegmentSizes = array<i32: 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32
  return
}

// -----

func.func @block_radix_sort_key_type(%k: vector<4xi1>) {
  // expected-error @+1 {{'warp.block_radix_sort' op operand #0 must be variadic of a 1-D vector of i8/i16/i32/i64/f16/bf16/f32/f64, but got 'vector<4xi1>'}}
  %0 = warp.block_radix_sort %k : vector<4xi1>
  return
}

// -----

func.func @block_radix_sort_index_keys(%k: vector<2xindex>) {
  // expected-error @+1 {{but got 'vector<2xindex>'}}
  %0 = warp.block_radix_sort %k : vector<2xindex>
  return
}

// -----

func.func @block_radix_sort_signed_float(%k: vector<4xf32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op 'signed' orders integer keys; 'f32' keys have their own order}}
  %0 = warp.block_radix_sort %k signed : vector<4xf32>
  return
}

// -----

func.func @block_radix_sort_bits_past_width(%k: vector<4xi16>) {
  // expected-error @+1 {{'warp.block_radix_sort' op bits 8 to 17 is not a range 0 <= begin < end <= 16 of the 'i16' keys}}
  %0 = warp.block_radix_sort %k bits 8 to 17 : vector<4xi16>
  return
}

// -----

func.func @block_radix_sort_bits_empty(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op bits 5 to 5 is not a range 0 <= begin < end <= 32}}
  %0 = warp.block_radix_sort %k bits 5 to 5 : vector<4xi32>
  return
}

// -----

func.func @block_radix_sort_bits_negative(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op bits -1 to 4 is not a range}}
  %0 = warp.block_radix_sort %k bits -1 to 4 : vector<4xi32>
  return
}

// -----

func.func @block_radix_sort_one_bound(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op takes both bounds of 'bits' or neither}}
  %0 = "warp.block_radix_sort"(%k) <{begin_bit = 2 : i32, operandSegmentSizes = array<i32: 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (vector<4xi32>) -> vector<4xi32>
  return
}

// -----

func.func @block_radix_sort_radix_bits(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op radix_bits must be 1 to 8, got 9}}
  %0 = warp.block_radix_sort %k radix_bits = 9 : vector<4xi32>
  return
}

// -----

func.func @block_radix_sort_values_without_result(%k: vector<4xi32>, %v: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_sort' op returns the sorted values with the values' type}}
  %0 = "warp.block_radix_sort"(%k, %v) <{operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 0>}> : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return
}

// -----

// Without a known block size the buffers are sized for 1024 threads: 8 f64
// keys and 8 i64 values per thread are 8192 items of each, padded (511
// items of each), 69624 bytes each. The smallest layout, the counter grid
// (36864 bytes) in a union with them, 69632 bytes aligned, and the scan's
// scratch (528), does not fit either.
gpu.module @radix_sort_too_big {
  gpu.func @k(%k: vector<8xf64>, %v: vector<8xi64>) kernel {
    // expected-error @+1 {{'warp.block_radix_sort' op needs 70160 bytes of workgroup memory (1024 threads x 8 items, a counter grid in a union with them), more than the 49152 bytes of static shared memory: give the gpu.func a (smaller) known_block_size, sort fewer items or use fewer radix_bits}}
    %0:2 = warp.block_radix_sort %k, %v : vector<8xf64>, vector<8xi64>
    gpu.return
  }
}

// -----

// The same keys fit a known block of 64 threads (8 KiB of keys and values);
// 16 i32 keys and values of 512 threads fit with the counter grid in a union
// with their buffers (33788 bytes, and 528 of scratch); 6 i32 keys and
// values at radix_bits = 8 do not fit a known 1024 threads: the grid alone
// is 129 x 1024 words, the register counters 2 x (6144 + 191) x 4 + 4224
// bytes.
gpu.module @radix_sort_known {
  gpu.func @fits(%k: vector<8xf64>, %v: vector<8xi64>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0:2 = warp.block_radix_sort %k, %v : vector<8xf64>, vector<8xi64>
    gpu.return
  }
  gpu.func @fits_in_union(%k: vector<16xi32>, %v: vector<16xi32>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %0:2 = warp.block_radix_sort %k, %v : vector<16xi32>, vector<16xi32>
    gpu.return
  }
  gpu.func @too_big(%k: vector<6xi32>, %v: vector<6xi32>) kernel attributes {known_block_size = array<i32: 32, 32, 1>} {
    // expected-error @+1 {{needs 54904 bytes}}
    %0:2 = warp.block_radix_sort %k, %v radix_bits = 8 : vector<6xi32>, vector<6xi32>
    gpu.return
  }
}

// -----

// A named ranking: <match> needs a known block of whole warps and a
// power-of-two N up to 32; <match_early> the warp-striped keys of a
// ranking in a known block of whole warps; <grid> must fit (8-bit digits: 129 lanes x 1024
// threads of i32 words).
gpu.module @radix_ranking {
  gpu.func @match_unknown_block(%k: vector<4xi32>) kernel {
    // expected-error @+1 {{with ranking = <match> needs a known block of whole warps}}
    %0 = warp.block_radix_sort %k radix_bits = 8 ranking = <match> : vector<4xi32>
    gpu.return
  }
  gpu.func @match_ragged(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 100, 1, 1>} {
    // expected-error @+1 {{with ranking = <match> needs a known block of whole warps}}
    %0 = warp.block_radix_rank %k bits 0 to 8 ranking = <match> : vector<4xi32>
    gpu.return
  }
  gpu.func @early_sort(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{with ranking = <match_early> ranks the warp_striped keys of a warp.block_radix_rank in a known block of whole warps}}
    %0 = warp.block_radix_sort %k radix_bits = 8 ranking = <match_early> : vector<4xi32>
    gpu.return
  }
  gpu.func @early_blocked(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{with ranking = <match_early> ranks the warp_striped keys}}
    %0 = warp.block_radix_rank %k bits 0 to 8 ranking = <match_early> : vector<4xi32>
    gpu.return
  }
  gpu.func @early_ragged(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 100, 1, 1>} {
    // expected-error @+1 {{with ranking = <match_early> ranks the warp_striped keys}}
    %0 = warp.block_radix_rank %k bits 0 to 8 warp_striped ranking = <match_early> : vector<4xi32>
    gpu.return
  }
  // The counts region (CUB's counts callback): only with <match_early>,
  // one vector of the thread's bins (64 threads, 256 digits: 4), nothing
  // yielded.
  gpu.func @counts_match(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{takes a counts region only with ranking = <match_early>}}
    %0 = warp.block_radix_rank %k bits 0 to 8 warp_striped ranking = <match> : vector<4xi32> counts(%c: vector<4xi32>) {
      warp.yield
    }
    gpu.return
  }
  gpu.func @counts_bins(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{counts region must take one 'vector<4xi32>' (a thread's 4 of the 256 digit bins), got ('vector<1xi32>')}}
    %0 = warp.block_radix_rank %k bits 0 to 8 warp_striped ranking = <match_early> : vector<4xi32> counts(%c: vector<1xi32>) {
      warp.yield
    }
    gpu.return
  }
  gpu.func @counts_yield(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.block_radix_rank %k bits 0 to 4 warp_striped ranking = <match_early> : vector<4xi32> counts(%c: vector<1xi32>) {
      // expected-error @+1 {{yields nothing in a counts region}}
      warp.yield %c : vector<1xi32>
    }
    gpu.return
  }
  gpu.func @match_three_keys(%k: vector<3xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{power of two up to 32 keys a thread, got 3}}
    %0 = warp.block_radix_rank %k bits 0 to 8 ranking = <match> : vector<3xi32>
    gpu.return
  }
  gpu.func @grid_too_big(%k: vector<1xi32>) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
    // expected-error @+1 {{needs 528912 bytes}}
    %0 = warp.block_radix_rank %k bits 0 to 8 ranking = <grid> : vector<1xi32>
    gpu.return
  }
}

// -----

// Device-wide collectives: i8, i16, i32, i64, f16, bf16, f32 or f64 only
// (the ODS constraint).
func.func @device_reduce_i1(%x: memref<?xi1>, %y: memref<1xi1>) {
  // expected-error @+1 {{'warp.device_reduce' op operand #0 must be 1D memref of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'memref<?xi1>'}}
  warp.device_reduce <add> %x, %y : memref<?xi1>, memref<1xi1>
  return
}

// -----

func.func @device_scan_index(%x: memref<?xindex>, %y: memref<?xindex>) {
  // expected-error @+1 {{'warp.device_scan' op operand #0 must be 1D memref of 8-bit signless integer}}
  warp.device_scan <add> %x, %y : memref<?xindex>, memref<?xindex>
  return
}

// -----

func.func @device_scan_f16_f32(%x: memref<?xf32>, %y: memref<?xf16>) {
  // expected-error @+1 {{'warp.device_scan' op takes one element type, got 'f32' and 'f16'}}
  warp.device_scan <add> %x, %y : memref<?xf32>, memref<?xf16>
  return
}

// -----

func.func @device_scan_2d(%x: memref<?x4xf32>, %y: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_scan' op operand #0 must be 1D memref}}
  warp.device_scan <add> %x, %y : memref<?x4xf32>, memref<?xf32>
  return
}

// -----

func.func @device_reduce_float_kind_on_int(%x: memref<?xi32>, %y: memref<1xi32>) {
  // expected-error @+1 {{'warp.device_reduce' op kind 'maxnumf' needs a floating-point value, got 'i32'}}
  warp.device_reduce <maxnumf> %x, %y : memref<?xi32>, memref<1xi32>
  return
}

// -----

func.func @device_scan_int_kind_on_float(%x: memref<?xf64>, %y: memref<?xf64>) {
  // expected-error @+1 {{'warp.device_scan' op kind 'xor' needs an integer value, got 'f64'}}
  warp.device_scan <xor> %x, %y exclusive : memref<?xf64>, memref<?xf64>
  return
}

// -----

func.func @device_scan_two_types(%x: memref<?xi32>, %y: memref<?xi64>) {
  // expected-error @+1 {{'warp.device_scan' op takes one element type, got 'i32' and 'i64'}}
  warp.device_scan <add> %x, %y : memref<?xi32>, memref<?xi64>
  return
}

// -----

func.func @device_reduce_two_types(%x: memref<?xf32>, %y: memref<1xf64>) {
  // expected-error @+1 {{'warp.device_reduce' op takes one element type, got 'f32' and 'f64'}}
  warp.device_reduce <add> %x, %y : memref<?xf32>, memref<1xf64>
  return
}

// -----

func.func @device_reduce_strided_input(%x: memref<?xf32, strided<[2]>>, %y: memref<1xf32>) {
  // expected-error @+1 {{'warp.device_reduce' op needs a contiguous input (the identity layout), got 'memref<?xf32, strided<[2]>>'}}
  warp.device_reduce <add> %x, %y : memref<?xf32, strided<[2]>>, memref<1xf32>
  return
}

// -----

// An offset is a layout too: the kernels take the memref's aligned pointer.
func.func @device_scan_offset_output(%x: memref<?xi64>, %y: memref<?xi64, strided<[1], offset: ?>>) {
  // expected-error @+1 {{'warp.device_scan' op needs a contiguous output (the identity layout), got 'memref<?xi64, strided<[1], offset: ?>>'}}
  warp.device_scan <add> %x, %y : memref<?xi64>, memref<?xi64, strided<[1], offset: ?>>
  return
}

// -----

func.func @device_scan_workgroup_input(%x: memref<256xf32, #gpu.address_space<workgroup>>, %y: memref<256xf32>) {
  // expected-error @+1 {{'warp.device_scan' op needs its input in the default memory space (device memory from gpu.alloc or a frontend), got 'memref<256xf32, #gpu.address_space<workgroup>>'}}
  warp.device_scan <add> %x, %y : memref<256xf32, #gpu.address_space<workgroup>>, memref<256xf32>
  return
}

// -----

func.func @device_reduce_workgroup_output(%x: memref<?xi32>, %y: memref<1xi32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'warp.device_reduce' op needs its output in the default memory space (device memory from gpu.alloc or a frontend), got 'memref<1xi32, #gpu.address_space<workgroup>>'}}
  warp.device_reduce <add> %x, %y : memref<?xi32>, memref<1xi32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @device_reduce_private_output(%x: memref<?xi32>, %y: memref<1xi32, #gpu.address_space<private>>) {
  // expected-error @+1 {{'warp.device_reduce' op needs its output in the default memory space}}
  warp.device_reduce <add> %x, %y : memref<?xi32>, memref<1xi32, #gpu.address_space<private>>
  return
}

// -----

// Global memory spelled as a space is still refused: the kernels take the
// default space, as gpu.alloc gives it.
func.func @device_reduce_global_space(%x: memref<?xf64, #gpu.address_space<global>>, %y: memref<1xf64>) {
  // expected-error @+1 {{'warp.device_reduce' op needs its input in the default memory space}}
  warp.device_reduce <add> %x, %y : memref<?xf64, #gpu.address_space<global>>, memref<1xf64>
  return
}

// -----

func.func @device_reduce_empty_output(%x: memref<?xf32>, %y: memref<0xf32>) {
  // expected-error @+1 {{'warp.device_reduce' op writes one element, but its output has none}}
  warp.device_reduce <add> %x, %y : memref<?xf32>, memref<0xf32>
  return
}

// -----

func.func @device_scan_short_output(%x: memref<100xi32>, %y: memref<99xi32>) {
  // expected-error @+1 {{'warp.device_scan' op writes 100 elements, but its output has 99}}
  warp.device_scan <add> %x, %y : memref<100xi32>, memref<99xi32>
  return
}

// -----

// A longer output is fine (the rest is left as it is), and so is a dynamic
// size on either side (checked when it runs, if at all).
func.func @device_scan_output_sizes(%x: memref<100xi32>, %y: memref<101xi32>, %z: memref<?xi32>) {
  warp.device_scan <add> %x, %y : memref<100xi32>, memref<101xi32>
  warp.device_scan <add> %x, %z : memref<100xi32>, memref<?xi32>
  warp.device_scan <add> %z, %x : memref<?xi32>, memref<100xi32>
  return
}

// -----

func.func @device_scan_short_keys(%x: memref<100xi32>, %y: memref<100xi32>, %k: memref<99xi64>) {
  // expected-error @+1 {{'warp.device_scan' op needs a key per element: 100 elements, 99 keys}}
  warp.device_scan <add> %x, %y keys %k : memref<100xi32>, memref<100xi32>, memref<99xi64>
  return
}

// -----

func.func @device_scan_writes_keys(%x: memref<?xi32>, %y: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_scan' op cannot write its keys (a tile reads the key before it while the tile before writes)}}
  warp.device_scan <add> %x, %y keys %y : memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @device_scan_keys_in_clusters(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_scan' op takes cluster_blocks or keys, not both}}
  warp.device_scan <add> %x, %y keys %k cluster_blocks = 2 : memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @device_scan_index_keys(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<?xindex>) {
  // expected-error @+1 {{'warp.device_scan' op operand #2 must be 1D memref of 8-bit signless integer}}
  warp.device_scan <add> %x, %y keys %k : memref<?xi32>, memref<?xi32>, memref<?xindex>
  return
}

// -----

func.func @device_scan_strided_keys(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<?xi16, strided<[2]>>) {
  // expected-error @+1 {{'warp.device_scan' op needs a contiguous keys (the identity layout), got 'memref<?xi16, strided<[2]>>'}}
  warp.device_scan <add> %x, %y keys %k : memref<?xi32>, memref<?xi32>, memref<?xi16, strided<[2]>>
  return
}

// -----

func.func @device_scan_workgroup_keys(%x: memref<256xi32>, %y: memref<256xi32>, %k: memref<256xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'warp.device_scan' op needs its keys in the default memory space (device memory from gpu.alloc or a frontend), got 'memref<256xf32, #gpu.address_space<workgroup>>'}}
  warp.device_scan <add> %x, %y keys %k : memref<256xi32>, memref<256xi32>, memref<256xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @device_scan_kind_by_key(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_scan' op kind 'maxsi' needs an integer value, got 'f32'}}
  warp.device_scan <maxsi> %x, %y keys %k : memref<?xf32>, memref<?xf32>, memref<?xi32>
  return
}

// -----

// More keys than elements are fine, and so is a dynamic size on either side.
func.func @device_scan_key_sizes(%x: memref<100xi32>, %y: memref<100xi32>, %k: memref<101xi8>, %d: memref<?xi8>) {
  warp.device_scan <add> %x, %y keys %k : memref<100xi32>, memref<100xi32>, memref<101xi8>
  warp.device_scan <add> %x, %y keys %d exclusive : memref<100xi32>, memref<100xi32>, memref<?xi8>
  return
}

// -----

gpu.module @device_op_in_kernel {
  gpu.func @k(%x: memref<?xf32>, %y: memref<1xf32>) kernel {
    // expected-error @+1 {{'warp.device_reduce' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_reduce <add> %x, %y : memref<?xf32>, memref<1xf32>
    gpu.return
  }
}

// -----

func.func @device_op_in_launch(%x: memref<?xi64>, %y: memref<?xi64>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'warp.device_scan' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_scan <maxsi> %x, %y : memref<?xi64>, memref<?xi64>
    gpu.terminator
  }
  return
}

// -----

func.func @device_select_types(%x: memref<?xf32>, %f: memref<?xi8>, %y: memref<?xi32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_select' op takes one element type, got 'f32' and 'i32'}}
  warp.device_select %x, %f, %y, %k : memref<?xf32>, memref<?xi8>, memref<?xi32>, memref<1xi64>
  return
}

// -----

func.func @device_select_few_flags(%x: memref<100xf32>, %f: memref<99xi8>, %y: memref<?xf32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_select' op needs a flag per element: 100 elements, 99 flags}}
  warp.device_select %x, %f, %y, %k : memref<100xf32>, memref<99xi8>, memref<?xf32>, memref<1xi64>
  return
}

// -----

func.func @device_select_no_count(%x: memref<?xf32>, %f: memref<?xi8>, %y: memref<?xf32>, %k: memref<0xi64>) {
  // expected-error @+1 {{'warp.device_select' op writes the count, but its count has no element}}
  warp.device_select %x, %f, %y, %k : memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<0xi64>
  return
}

// -----

func.func @device_select_flag_type(%x: memref<?xf32>, %f: memref<?xi1>, %y: memref<?xf32>, %k: memref<1xi64>) {
  // expected-error @+1 {{operand #1 must be 1D memref of 8-bit signless integer values}}
  warp.device_select %x, %f, %y, %k : memref<?xf32>, memref<?xi1>, memref<?xf32>, memref<1xi64>
  return
}

// -----

func.func @device_select_if_no_region(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<1xi64>) {
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64>
  // expected-error @+1 {{custom op 'warp.device_select_if' expected 'pred'}}
  return
}

// -----

func.func @device_select_if_flags(%x: memref<?xf32>, %f: memref<?xi8>, %y: memref<?xf32>, %k: memref<1xi64>) {
  // The predicate form takes no flags: three memrefs.
  // expected-error @+1 {{expected ':'}}
  warp.device_select_if %x, %f, %y, %k : memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
    %c = arith.constant true
    warp.yield %c : i1
  }
  return
}

// -----

func.func @device_select_flags_and_region(%x: memref<?xf32>, %f: memref<?xi8>, %y: memref<?xf32>, %k: memref<1xi64>) {
  // The flagged form takes no region.
  // expected-error @+1 {{'warp.device_select' op requires zero regions}}
  "warp.device_select"(%x, %f, %y, %k) ({
  ^bb0(%v: f32):
    %c = arith.constant true
    warp.yield %c : i1
  }) : (memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<1xi64>) -> ()
  return
}

// -----

func.func @device_select_if_argument_type(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_select_if' op pred region must take one argument of the element type 'f32', got ('i32')}}
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: i32) {
    %z = arith.constant 0 : i32
    %c = arith.cmpi sgt, %v, %z : i32
    warp.yield %c : i1
  }
  return
}

// -----

func.func @device_partition_if_arguments(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_partition_if' op pred region must take one argument of the element type 'i32', got ('i32', 'i32')}}
  warp.device_partition_if %x, %y, %k : memref<?xi32>, memref<?xi32>, memref<1xi64> pred(%v: i32, %w: i32) {
    %c = arith.cmpi sgt, %v, %w : i32
    warp.yield %c : i1
  }
  return
}

// -----

func.func @device_select_if_yields_value(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<1xi64>) {
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
    // expected-error @+1 {{'warp.yield' op must yield one i1 (whether to keep the element), got ('f32')}}
    warp.yield %v : f32
  }
  return
}

// -----

func.func @device_select_if_yields_nothing(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<1xi64>) {
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
    // expected-error @+1 {{'warp.yield' op must yield one i1 (whether to keep the element), got ()}}
    warp.yield
  }
  return
}

// -----

func.func @device_select_if_load(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<1xi64>) {
  // expected-note @+1 {{the region of this op}}
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
    %z = arith.constant 0 : index
    // expected-error @+1 {{'memref.alloca' op may not be in the pred region of 'warp.device_select_if': the region must be pure}}
    %m = memref.alloca() : memref<1xf32>
    %s = memref.load %m[%z] : memref<1xf32>
    %c = arith.cmpf ogt, %v, %s : f32
    warp.yield %c : i1
  }
  return
}

// -----

func.func @device_select_if_captures(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<1xi64>, %t: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
    // expected-error @+1 {{using value defined outside the region}}
    %c = arith.cmpf ogt, %v, %t : f32
    warp.yield %c : i1
  }
  return
}

// -----

func.func @device_select_if_nested_effect(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<1xi64>) {
  // expected-note @+1 {{the region of this op}}
  warp.device_select_if %x, %y, %k : memref<?xi32>, memref<?xi32>, memref<1xi64> pred(%v: i32) {
    %z = arith.constant 0 : i32
    %pos = arith.cmpi sgt, %v, %z : i32
    %keep = scf.if %pos -> i1 {
      // expected-error @+1 {{'warp.ballot' op may not be in the pred region of 'warp.device_select_if': the region must be pure (no memory effects, no ops that need the lanes together)}}
      %b = warp.ballot %pos : i32
      %nz = arith.cmpi ne, %b, %z : i32
      scf.yield %nz : i1
    } else {
      scf.yield %pos : i1
    }
    warp.yield %keep : i1
  }
  return
}

// -----

func.func @device_partition_if_few_outputs(%x: memref<100xi32>, %y: memref<99xi32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_partition_if' op writes 100 elements, but its output has 99}}
  warp.device_partition_if %x, %y, %k : memref<100xi32>, memref<99xi32>, memref<1xi64> pred(%v: i32) {
    %c = arith.constant true
    warp.yield %c : i1
  }
  return
}

// -----

func.func @device_select_count_space(%x: memref<?xf32>, %f: memref<?xi8>, %y: memref<?xf32>, %k: memref<1xi64, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'warp.device_select' op needs its count in the default memory space}}
  warp.device_select %x, %f, %y, %k : memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<1xi64, #gpu.address_space<workgroup>>
  return
}

// -----

// A partition writes every element; a selection needs only room for the kept.
func.func @device_partition_short_output(%x: memref<100xi32>, %f: memref<?xi8>, %y: memref<99xi32>, %k: memref<1xi64>) {
  warp.device_select %x, %f, %y, %k : memref<100xi32>, memref<?xi8>, memref<99xi32>, memref<1xi64>
  // expected-error @+1 {{'warp.device_partition' op writes 100 elements, but its output has 99}}
  warp.device_partition %x, %f, %y, %k : memref<100xi32>, memref<?xi8>, memref<99xi32>, memref<1xi64>
  return
}

// -----

// A block's tile is shared: not a thread's private memory (a load may also
// read constant memory; a store may not write it).
gpu.module @block_memory_spaces {
  gpu.func @k(%o: index, %c: memref<256xf32, 4>) kernel {
    %p = memref.alloca() : memref<256xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'warp.block_load' op moves a tile the block shares: a memref in global or workgroup memory (or constant), not 'memref<256xf32, #gpu.address_space<private>>'}}
    %v = warp.block_load %p[%o] : memref<256xf32, #gpu.address_space<private>>, vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @block_store_constant {
  gpu.func @k(%o: index, %c: memref<256xf32, 4>) kernel {
    %w = warp.block_load %c[%o] : memref<256xf32, 4>, vector<4xf32>
    // expected-error @+1 {{'warp.block_store' op moves a tile the block shares: a memref in global or workgroup memory, not 'memref<256xf32, 4>'}}
    warp.block_store %w, %c[%o] : vector<4xf32>, memref<256xf32, 4>
    gpu.return
  }
}

// -----

func.func @device_histogram_float_samples(%x: memref<?xf32>, %b: memref<16xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op counts 'f32' samples only with levels (even or range): without, each sample is a bin number}}
  warp.device_histogram %x, %b : memref<?xf32>, memref<16xi32>
  return
}

// -----

// Even levels of another type are computed in C++'s common type of the
// two, which f16 and bf16 have with no other type.
func.func @device_histogram_even_half_type(%x: memref<?xf32>, %b: memref<16xi32>, %lo: f16, %hi: f16) {
  // expected-error @+1 {{'warp.device_histogram' op computes even bins in the common type of the levels and the samples, which 'f16' and 'f32' do not have}}
  warp.device_histogram %x, %b even(%lo, %hi : f16) : memref<?xf32>, memref<16xi32>
  return
}

// -----

func.func @device_histogram_even_half_samples(%x: memref<?xbf16>, %b: memref<16xi32>, %lo: i32, %hi: i32) {
  // expected-error @+1 {{'warp.device_histogram' op computes even bins in the common type of the levels and the samples, which 'i32' and 'bf16' do not have}}
  warp.device_histogram %x, %b even(%lo, %hi : i32) : memref<?xbf16>, memref<16xi32>
  return
}

// -----

// unsigned_levels is for integer levels of another type than the samples
// ('unsigned' covers those of the samples' type).
func.func @device_histogram_unsigned_levels_same_type(%x: memref<?xi32>, %b: memref<16xi32>, %l: memref<17xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op reads integer levels of another type than the samples as unsigned; 'unsigned_levels' needs them, got 'i32' levels for 'i32' samples}}
  warp.device_histogram %x, %b unsigned_levels range %l : memref<?xi32>, memref<16xi32>, memref<17xi32>
  return
}

// -----

func.func @device_histogram_unsigned_float_levels(%x: memref<?xi32>, %b: memref<16xi32>, %l: memref<17xf32>) {
  // expected-error @+1 {{'unsigned_levels' needs them, got 'f32' levels for 'i32' samples}}
  warp.device_histogram %x, %b unsigned_levels range %l : memref<?xi32>, memref<16xi32>, memref<17xf32>
  return
}

// -----

func.func @device_histogram_unsigned_levels_without_levels(%x: memref<?xi32>, %b: memref<16xi32>) {
  // expected-error @+1 {{'unsigned_levels' needs them}}
  warp.device_histogram %x, %b unsigned_levels : memref<?xi32>, memref<16xi32>
  return
}

// -----

func.func @device_histogram_range_count(%x: memref<?xf32>, %b: memref<16xi32>, %l: memref<16xf32>) {
  // expected-error @+1 {{'warp.device_histogram' op takes one level more than bins, got 16 levels for 16 bins}}
  warp.device_histogram %x, %b range %l : memref<?xf32>, memref<16xi32>, memref<16xf32>
  return
}

// -----

func.func @device_histogram_range_one_level(%x: memref<?xf32>, %b: memref<?xi32>, %l: memref<1xf32>) {
  // expected-error @+1 {{'warp.device_histogram' op takes at least 2 levels (one bin), got 1}}
  warp.device_histogram %x, %b range %l : memref<?xf32>, memref<?xi32>, memref<1xf32>
  return
}

// -----

func.func @device_histogram_both_levels(%x: memref<?xf32>, %b: memref<4xi32>, %lo: f32, %hi: f32, %l: memref<5xf32>) {
  // expected-error @+1 {{'warp.device_histogram' op takes even levels or a range of levels, not both}}
  warp.device_histogram %x, %b even(%lo, %hi : f32) range %l : memref<?xf32>, memref<4xi32>, memref<5xf32>
  return
}

// -----

func.func @device_histogram_lower_only(%x: memref<?xf32>, %b: memref<4xi32>, %lo: f32) {
  // expected-error @+1 {{'warp.device_histogram' op takes a lower and an upper level per active channel (2 for 1), got 1}}
  "warp.device_histogram"(%x, %b, %lo) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (memref<?xf32>, memref<4xi32>, f32) -> ()
  return
}

// -----

func.func @device_histogram_levels_space(%x: memref<?xf32>, %b: memref<4xi32>, %l: memref<5xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'warp.device_histogram' op needs its levels in the default memory space}}
  warp.device_histogram %x, %b range %l : memref<?xf32>, memref<4xi32>, memref<5xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @device_histogram_bins_space(%x: memref<?xi32>, %b: memref<16xi32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'warp.device_histogram' op needs its bins in the default memory space}}
  warp.device_histogram %x, %b : memref<?xi32>, memref<16xi32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @device_histogram_channels_zero(%x: memref<?xi8>, %b: memref<1x4xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op takes 1 to 16 channels, got 0}}
  warp.device_histogram %x, %b channels 0 : memref<?xi8>, memref<1x4xi32>
  return
}

// -----

func.func @device_histogram_channels_many(%x: memref<?xi8>, %b: memref<1x4xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op takes 1 to 16 channels, got 17}}
  warp.device_histogram %x, %b channels 17 : memref<?xi8>, memref<1x4xi32>
  return
}

// -----

func.func @device_histogram_channels_flat_bins(%x: memref<?xi8>, %b: memref<4xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op with channels counts into 2-D bins (a row per active channel), got 'memref<4xi32>'}}
  warp.device_histogram %x, %b channels 4 : memref<?xi8>, memref<4xi32>
  return
}

// -----

func.func @device_histogram_rows_without_channels(%x: memref<?xi8>, %b: memref<2x4xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op counts into 1-D bins without channels, got 'memref<2x4xi32>'}}
  warp.device_histogram %x, %b : memref<?xi8>, memref<2x4xi32>
  return
}

// -----

func.func @device_histogram_active_over_channels(%x: memref<?xi8>, %b: memref<5x4xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op counts 1 to 4 active channels (the bins' rows, static), got 'memref<5x4xi32>'}}
  warp.device_histogram %x, %b channels 4 : memref<?xi8>, memref<5x4xi32>
  return
}

// -----

func.func @device_histogram_active_dynamic(%x: memref<?xi8>, %b: memref<?x4xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op counts 1 to 3 active channels (the bins' rows, static), got 'memref<?x4xi32>'}}
  warp.device_histogram %x, %b channels 3 : memref<?xi8>, memref<?x4xi32>
  return
}

// -----

func.func @device_histogram_channel_bounds(%x: memref<?xf32>, %b: memref<2x4xi32>, %lo: f32, %hi: f32) {
  // expected-error @+1 {{'warp.device_histogram' op takes a lower and an upper level per active channel (4 for 2), got 2}}
  warp.device_histogram %x, %b channels 3 even(%lo, %hi : f32) : memref<?xf32>, memref<2x4xi32>
  return
}

// -----

func.func @device_histogram_channel_levels_rank(%x: memref<?xf32>, %b: memref<2x4xi32>, %l: memref<5xf32>) {
  // expected-error @+1 {{'warp.device_histogram' op takes 2-D levels, as its bins, got 'memref<5xf32>'}}
  warp.device_histogram %x, %b channels 2 range %l : memref<?xf32>, memref<2x4xi32>, memref<5xf32>
  return
}

// -----

func.func @device_histogram_channel_levels_rows(%x: memref<?xf32>, %b: memref<2x4xi32>, %l: memref<3x5xf32>) {
  // expected-error @+1 {{'warp.device_histogram' op takes a row of levels per active channel (2), got 'memref<3x5xf32>'}}
  warp.device_histogram %x, %b channels 2 range %l : memref<?xf32>, memref<2x4xi32>, memref<3x5xf32>
  return
}

// -----

func.func @device_histogram_channel_levels_count(%x: memref<?xf32>, %b: memref<2x4xi32>, %l: memref<2x4xf32>) {
  // expected-error @+1 {{'warp.device_histogram' op takes one level more than bins, got 4 levels for 4 bins}}
  warp.device_histogram %x, %b channels 2 range %l : memref<?xf32>, memref<2x4xi32>, memref<2x4xf32>
  return
}

// -----

func.func @device_histogram_unsigned_bins(%x: memref<?xi8>, %b: memref<4xi32>) {
  // expected-error @+1 {{'warp.device_histogram' op compares integer samples with their levels as unsigned; 'unsigned' needs levels (even or range) and integer samples, got 'i8' without levels}}
  warp.device_histogram %x, %b unsigned : memref<?xi8>, memref<4xi32>
  return
}

// -----

func.func @device_histogram_unsigned_float(%x: memref<?xf32>, %b: memref<4xi32>, %lo: f32, %hi: f32) {
  // expected-error @+1 {{'warp.device_histogram' op compares integer samples with their levels as unsigned; 'unsigned' needs levels (even or range) and integer samples, got 'f32'}}
  warp.device_histogram %x, %b unsigned even(%lo, %hi : f32) : memref<?xf32>, memref<4xi32>
  return
}

// -----

// The sort algorithm sorts the block's samples: at most 65535 of them.
func.func @block_histogram_sort_samples(%s: vector<64xi32>, %bins: memref<?xi32>) {
  // expected-error @+1 {{'warp.block_histogram' op with algorithm = <sort> sorts at most 65535 samples per block, got 1024 threads x 64}}
  warp.block_histogram %s into %bins algorithm = <sort> : vector<64xi32>, memref<?xi32>
  return
}

// -----

// ... in the radix sort's workgroup memory.
func.func @block_histogram_sort_memory(%s: vector<32xi64>, %bins: memref<?xi32>) {
  // expected-error @+1 {{'warp.block_histogram' op with algorithm = <sort> needs}}
  warp.block_histogram %s into %bins algorithm = <sort> : vector<32xi64>, memref<?xi32>
  return
}

// -----

func.func @cluster_scan_kind(%v: f32) {
  // expected-error @+1 {{'warp.cluster_scan' op kind 'minsi' needs an integer value, got 'f32'}}
  %0:2 = warp.cluster_scan <minsi> %v : f32
  return
}

// -----

func.func @cluster_reduce_kind(%v: i32) {
  // expected-error @+1 {{'warp.cluster_reduce' op kind 'maxnumf' needs a floating-point value, got 'i32'}}
  %0 = warp.cluster_reduce <maxnumf> %v : i32
  return
}

// -----

func.func @cluster_reduce_vector(%v: vector<2xf32>) {
  // expected-error @+1 {{'warp.cluster_reduce' op operand #0 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float, but got 'vector<2xf32>'}}
  %0 = warp.cluster_reduce <add> %v : vector<2xf32>
  return
}

// -----

func.func @cluster_broadcast_index(%v: index, %r: i32) {
  // expected-error @+1 {{'warp.cluster_broadcast' op operand #0 must be 8-bit signless integer}}
  %0 = warp.cluster_broadcast %v, %r, %r : index
  return
}

// -----

func.func @device_unique_types(%x: memref<?xf32>, %y: memref<?xi32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_unique' op takes one element type, got 'f32' and 'i32'}}
  warp.device_unique %x, %y, %k : memref<?xf32>, memref<?xi32>, memref<1xi64>
  return
}

// -----

func.func @device_unique_in_kernel(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<1xi64>) {
  %x0 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %x0, %gy = %x0, %gz = %x0) threads(%tx, %ty, %tz) in (%sx = %x0, %sy = %x0, %sz = %x0) {
    // expected-error @+1 {{'warp.device_unique' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_unique %x, %y, %k : memref<?xf32>, memref<?xf32>, memref<1xi64>
    gpu.terminator
  }
  return
}

// -----

func.func @device_run_length_encode_types(%x: memref<?xf32>, %y: memref<?xf64>, %c: memref<?xi32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_run_length_encode' op takes one element type, got 'f32' and 'f64'}}
  warp.device_run_length_encode %x, %y, %c, %k : memref<?xf32>, memref<?xf64>, memref<?xi32>, memref<1xi64>
  return
}

// -----

func.func @device_run_length_encode_count_type(%x: memref<?xi32>, %y: memref<?xi32>, %c: memref<?xi16>, %k: memref<1xi64>) {
  // expected-error @+1 {{operand #2 must be 1D memref of 32-bit signless integer or 64-bit signless integer values}}
  warp.device_run_length_encode %x, %y, %c, %k : memref<?xi32>, memref<?xi32>, memref<?xi16>, memref<1xi64>
  return
}

// -----

func.func @device_run_length_encode_runs_type(%x: memref<?xi32>, %y: memref<?xi32>, %c: memref<?xi32>, %k: memref<1xi32>) {
  // expected-error @+1 {{operand #3 must be 1D memref of 64-bit signless integer values}}
  warp.device_run_length_encode %x, %y, %c, %k : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<1xi32>
  return
}

// -----

func.func @device_run_length_encode_no_runs(%x: memref<?xi32>, %y: memref<?xi32>, %c: memref<?xi64>, %k: memref<0xi64>) {
  // expected-error @+1 {{'warp.device_run_length_encode' op writes the count, but its num_runs has no element}}
  warp.device_run_length_encode %x, %y, %c, %k : memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<0xi64>
  return
}

// -----

func.func @device_run_length_encode_counts_layout(%x: memref<?xi32>, %y: memref<?xi32>, %c: memref<?xi32, strided<[2]>>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_run_length_encode' op needs a contiguous counts_out (the identity layout), got 'memref<?xi32, strided<[2]>>'}}
  warp.device_run_length_encode %x, %y, %c, %k : memref<?xi32>, memref<?xi32>, memref<?xi32, strided<[2]>>, memref<1xi64>
  return
}

// -----

func.func @device_run_length_encode_in_kernel(%x: memref<?xf32>, %y: memref<?xf32>, %c: memref<?xi32>, %k: memref<1xi64>) {
  %x0 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %x0, %gy = %x0, %gz = %x0) threads(%tx, %ty, %tz) in (%sx = %x0, %sy = %x0, %sz = %x0) {
    // expected-error @+1 {{'warp.device_run_length_encode' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_run_length_encode %x, %y, %c, %k : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<1xi64>
    gpu.terminator
  }
  return
}

// -----

func.func @device_non_trivial_runs_offset_type(%x: memref<?xf32>, %o: memref<?xf32>, %l: memref<?xi32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_non_trivial_runs' op operand #1 must be 1D memref of 32-bit signless integer or 64-bit signless integer values}}
  warp.device_non_trivial_runs %x, %o, %l, %k : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<1xi64>
  return
}

// -----

func.func @device_non_trivial_runs_length_type(%x: memref<?xi8>, %o: memref<?xi64>, %l: memref<?xi16>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_non_trivial_runs' op operand #2 must be 1D memref of 32-bit signless integer or 64-bit signless integer values}}
  warp.device_non_trivial_runs %x, %o, %l, %k : memref<?xi8>, memref<?xi64>, memref<?xi16>, memref<1xi64>
  return
}

// -----

func.func @device_non_trivial_runs_one_output(%x: memref<?xi32>, %o: memref<?xi32>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_non_trivial_runs' op writes its offsets and lengths to one memref}}
  warp.device_non_trivial_runs %x, %o, %o, %k : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<1xi64>
  return
}

// -----

func.func @device_non_trivial_runs_no_count(%x: memref<?xi32>, %o: memref<?xi32>, %l: memref<?xi64>, %k: memref<0xi64>) {
  // expected-error @+1 {{'warp.device_non_trivial_runs' op writes the count, but its num_runs has no element}}
  warp.device_non_trivial_runs %x, %o, %l, %k : memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<0xi64>
  return
}

// -----

func.func @device_non_trivial_runs_layout(%x: memref<?xi32>, %o: memref<?xi32, strided<[2]>>, %l: memref<?xi64>, %k: memref<1xi64>) {
  // expected-error @+1 {{'warp.device_non_trivial_runs' op needs a contiguous offsets_out (the identity layout), got 'memref<?xi32, strided<[2]>>'}}
  warp.device_non_trivial_runs %x, %o, %l, %k : memref<?xi32>, memref<?xi32, strided<[2]>>, memref<?xi64>, memref<1xi64>
  return
}

// -----

func.func @device_non_trivial_runs_in_kernel(%x: memref<?xf32>, %o: memref<?xi32>, %l: memref<?xi32>, %k: memref<1xi64>) {
  %x0 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %x0, %gy = %x0, %gz = %x0) threads(%tx, %ty, %tz) in (%sx = %x0, %sy = %x0, %sz = %x0) {
    // expected-error @+1 {{'warp.device_non_trivial_runs' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_non_trivial_runs %x, %o, %l, %k : memref<?xf32>, memref<?xi32>, memref<?xi32>, memref<1xi64>
    gpu.terminator
  }
  return
}

// -----

func.func @device_radix_sort_double_buffer_no_result(%k: memref<?xi32>, %o: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op returns the i32 of the buffer that holds the result with double_buffer, and only then}}
  warp.device_radix_sort %k, %o double_buffer : memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @device_radix_sort_result_without_double_buffer(%k: memref<?xi32>, %o: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op returns the i32 of the buffer that holds the result with double_buffer, and only then}}
  %c = warp.device_radix_sort %k, %o : memref<?xi32>, memref<?xi32> -> i32
  return
}

// -----

func.func @device_radix_sort_double_buffer_one_buffer(%k: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op cannot sort in place: keys_out is keys_in}}
  %c = warp.device_radix_sort %k, %k double_buffer : memref<?xi32>, memref<?xi32> -> i32
  return
}

// -----

func.func @device_radix_sort_double_buffer_values_are_keys(%k: memref<?xi32>, %o: memref<?xi32>, %v: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op writes outputs that are not its inputs or each other}}
  %c = warp.device_radix_sort %k, %o values %k, %v double_buffer : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32> -> i32
  return
}

// -----

func.func @device_radix_sort_double_buffer_result_type(%k: memref<?xi32>, %o: memref<?xi32>) {
  // expected-error @+1 {{result #0 must be 32-bit signless integer}}
  %c = warp.device_radix_sort %k, %o double_buffer : memref<?xi32>, memref<?xi32> -> i64
  return
}

// -----

func.func @device_radix_sort_in_place(%k: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op cannot sort in place: keys_out is keys_in}}
  warp.device_radix_sort %k, %k : memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @device_radix_sort_types(%k: memref<?xi32>, %o: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op takes one key type, got 'i32' and 'f32'}}
  warp.device_radix_sort %k, %o : memref<?xi32>, memref<?xf32>
  return
}

// -----

func.func @device_radix_sort_short(%k: memref<10xi32>, %o: memref<9xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op sorts 10 keys, but its keys_out has 9}}
  warp.device_radix_sort %k, %o : memref<10xi32>, memref<9xi32>
  return
}

// -----

func.func @device_radix_sort_values_short(%k: memref<10xi32>, %o: memref<?xi32>,
                                          %v: memref<4xf32>, %w: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op sorts 10 keys, but its values_in has 4}}
  warp.device_radix_sort %k, %o values %v, %w : memref<10xi32>, memref<?xi32>, memref<4xf32>, memref<?xf32>
  return
}

// -----

func.func @device_radix_sort_value_types(%k: memref<?xi32>, %o: memref<?xi32>,
                                         %v: memref<?xf32>, %w: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op takes one value type, got 'f32' and 'i32'}}
  warp.device_radix_sort %k, %o values %v, %w : memref<?xi32>, memref<?xi32>, memref<?xf32>, memref<?xi32>
  return
}

// -----

func.func @device_radix_sort_values_alias(%k: memref<?xi32>, %o: memref<?xi32>,
                                          %v: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op writes outputs that are not its inputs or each other}}
  warp.device_radix_sort %k, %o values %v, %o : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @device_radix_sort_bits(%k: memref<?xi16>, %o: memref<?xi16>) {
  // expected-error @+1 {{'warp.device_radix_sort' op bits 8 to 17 is not a range 0 <= begin < end <= 16 of the 'i16' keys}}
  warp.device_radix_sort %k, %o bits 8 to 17 : memref<?xi16>, memref<?xi16>
  return
}

// -----

func.func @device_radix_sort_empty_bits(%k: memref<?xi16>, %o: memref<?xi16>) {
  // expected-error @+1 {{'warp.device_radix_sort' op bits 3 to 3 is not a range}}
  warp.device_radix_sort %k, %o bits 3 to 3 : memref<?xi16>, memref<?xi16>
  return
}

// -----

func.func @device_radix_sort_signed_float(%k: memref<?xf32>, %o: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op 'signed' orders integer keys; 'f32' keys have their own order}}
  warp.device_radix_sort %k, %o signed : memref<?xf32>, memref<?xf32>
  return
}

// -----

func.func @device_radix_sort_layout(%k: memref<?xi32, strided<[2]>>, %o: memref<?xi32>) {
  // expected-error @+1 {{'warp.device_radix_sort' op needs a contiguous keys_in (the identity layout)}}
  warp.device_radix_sort %k, %o : memref<?xi32, strided<[2]>>, memref<?xi32>
  return
}

// -----

func.func @device_radix_sort_key_type(%k: memref<?xi1>, %o: memref<?xi1>) {
  // expected-error @+1 {{'warp.device_radix_sort' op operand #0 must be 1D memref of}}
  warp.device_radix_sort %k, %o : memref<?xi1>, memref<?xi1>
  return
}

// -----

func.func @device_radix_sort_in_kernel(%k: memref<?xi32>, %o: memref<?xi32>) {
  %x0 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %x0, %gy = %x0, %gz = %x0) threads(%tx, %ty, %tz) in (%sx = %x0, %sy = %x0, %sz = %x0) {
    // expected-error @+1 {{'warp.device_radix_sort' op runs in host code (it launches kernels), not inside a gpu.module or gpu.launch}}
    warp.device_radix_sort %k, %o : memref<?xi32>, memref<?xi32>
    gpu.terminator
  }
  return
}

// -----

func.func @merge_sort_too_many_items(%k: vector<65xi8>) -> vector<65xi8> {
  // expected-error @+1 {{'warp.merge_sort' op sorts 1 to 64 items per lane, got 65}}
  %0 = warp.merge_sort %k : vector<65xi8> compare(%a: i8, %b: i8) {
    %lt = arith.cmpi slt, %a, %b : i8
    warp.yield %lt : i1
  }
  return %0 : vector<65xi8>
}

// -----

func.func @merge_sort_value_count(%k: vector<4xi32>, %v: vector<2xf32>) {
  // expected-error @+1 {{'warp.merge_sort' op has one value per key: 4 keys, 2 values per lane}}
  %0:2 = warp.merge_sort %k, %v : vector<4xi32>, vector<2xf32> compare(%a: i32, %b: i32) {
    %lt = arith.cmpi slt, %a, %b : i32
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_key_type(%k: vector<4xi1>) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float values of ranks 1, but got 'vector<4xi1>'}}
  %0 = warp.merge_sort %k : vector<4xi1> compare(%a: i1, %b: i1) {
    %lt = arith.cmpi ult, %a, %b : i1
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_scalar_key(%k: i32) {
  // expected-error @+1 {{operand #0 must be fixed-length vector}}
  %0 = warp.merge_sort %k : i32 compare(%a: i32, %b: i32) {
    %lt = arith.cmpi slt, %a, %b : i32
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_valid_without_default(%k: vector<4xi32>, %n: i32) {
  // expected-error @+1 {{'warp.merge_sort' op takes valid_items and default together (CUB's valid_items and oob_default)}}
  %0 = warp.merge_sort %k valid_items %n : vector<4xi32> compare(%a: i32, %b: i32) {
    %lt = arith.cmpi slt, %a, %b : i32
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_default_without_valid(%k: vector<4xi32>, %d: i32) {
  // expected-error @+1 {{'warp.merge_sort' op takes valid_items and default together}}
  %0 = warp.merge_sort %k default %d : vector<4xi32> compare(%a: i32, %b: i32) {
    %lt = arith.cmpi slt, %a, %b : i32
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_width(%k: vector<4xi32>) {
  // expected-error @+1 {{attribute 'width' failed to satisfy constraint: 32-bit integer attribute that is a power of two in [1, 32]}}
  %0 = warp.merge_sort %k width 12 : vector<4xi32> compare(%a: i32, %b: i32) {
    %lt = arith.cmpi slt, %a, %b : i32
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_region_arguments(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.merge_sort' op compare region must take two arguments of the key type 'i32', got ('i32')}}
  %0 = warp.merge_sort %k : vector<4xi32> compare(%a: i32) {
    %t = arith.constant true
    warp.yield %t : i1
  }
  return
}

// -----

func.func @merge_sort_region_types(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.merge_sort' op compare region must take two arguments of the key type 'i32', got ('i64', 'i64')}}
  %0 = warp.merge_sort %k : vector<4xi32> compare(%a: i64, %b: i64) {
    %lt = arith.cmpi slt, %a, %b : i64
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_yield(%k: vector<4xi32>) {
  %0 = warp.merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
    // expected-error @+1 {{'warp.yield' op must yield one i1 (whether the first key is ordered before the second), got ('i32')}}
    warp.yield %a : i32
  }
  return
}

// -----

func.func @merge_sort_impure(%k: vector<4xi32>, %m: memref<4xi32>) {
  // expected-note @+1 {{the region of this op}}
  %0 = warp.merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.load' op may not be in the compare region of 'warp.merge_sort': the region must be pure}}
    %x = memref.load %m[%c0] : memref<4xi32>
    %lt = arith.cmpi slt, %a, %x : i32
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_collective_in_region(%k: vector<4xi32>) {
  // expected-note @+1 {{the region of this op}}
  %0 = warp.merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
    // expected-error @+1 {{'warp.reduce' op may not be in the compare region of 'warp.merge_sort'}}
    %s = warp.reduce <add> %a : i32
    %lt = arith.cmpi slt, %s, %b : i32
    warp.yield %lt : i1
  }
  return
}

// -----

func.func @merge_sort_no_region(%k: vector<4xi32>) {
  // The region is required: the error is at the token after the types.
  // expected-error @+2 {{expected 'compare'}}
  %0 = warp.merge_sort %k : vector<4xi32>
  return
}

// -----

gpu.module @block_merge_sort_no_block_size {
  gpu.func @k(%k: vector<4xi32>) kernel {
    // expected-error @+1 {{'warp.block_merge_sort' op needs a known_block_size on the gpu.func (CUB's BLOCK_DIM_X/Y/Z): the merge rounds follow the block's thread count}}
    %0 = warp.block_merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

// Outside a gpu.func there is no block size either.
func.func @block_merge_sort_host(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_merge_sort' op needs a known_block_size on the gpu.func}}
  %0 = warp.block_merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
    %lt = arith.cmpi slt, %a, %b : i32
    warp.yield %lt : i1
  }
  return
}

// -----

gpu.module @block_merge_sort_too_many_threads {
  gpu.func @k(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 1024, 2, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op sorts over at most 1024 threads, got a known_block_size of 2048}}
    %0 = warp.block_merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_too_many_items {
  gpu.func @k(%k: vector<65xi8>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op sorts 1 to 64 items per thread, got 65}}
    %0 = warp.block_merge_sort %k : vector<65xi8> compare(%a: i8, %b: i8) {
      %lt = arith.cmpi slt, %a, %b : i8
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

// 1024 threads x 8 f64 keys and i32 values: (2 + 8192 + 1) x 8 bytes
// (65568 rounded to 16) and (4 + 8192 + 1) x 4 (32800 rounded).
gpu.module @block_merge_sort_shared_memory {
  gpu.func @k(%k: vector<8xf64>, %v: vector<8xi32>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op needs 98368 bytes of workgroup memory (1024 threads x 8 items), more than the 49152 bytes of static shared memory: give the gpu.func a smaller known_block_size or sort fewer items}}
    %0:2 = warp.block_merge_sort %k, %v : vector<8xf64>, vector<8xi32> compare(%a: f64, %b: f64) {
      %lt = arith.cmpf olt, %a, %b : f64
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_value_count {
  gpu.func @k(%k: vector<4xi32>, %v: vector<2xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op has one value per key: 4 keys, 2 values per thread}}
    %0:2 = warp.block_merge_sort %k, %v : vector<4xi32>, vector<2xf32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_key_type {
  gpu.func @k(%k: vector<4xi1>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op operand #0 must be a 1-D vector of i8/i16/i32/i64/f16/bf16/f32/f64, but got 'vector<4xi1>'}}
    %0 = warp.block_merge_sort %k : vector<4xi1> compare(%a: i1, %b: i1) {
      warp.yield %a : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_value_type {
  gpu.func @k(%k: vector<4xi32>, %v: vector<4xindex>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op operand #1 must be a 1-D vector of i8/i16/i32/i64/f16/bf16/f32/f64, but got 'vector<4xindex>'}}
    %0:2 = warp.block_merge_sort %k, %v : vector<4xi32>, vector<4xindex> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_valid_without_default {
  gpu.func @k(%k: vector<4xi32>, %n: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op takes valid_items and default together (CUB's valid_items and oob_default)}}
    %0 = warp.block_merge_sort %k valid_items %n : vector<4xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_default_type {
  gpu.func @k(%k: vector<4xi32>, %n: i32, %d: i64) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op default must have the key type 'i32', got 'i64'}}
    %0 = "warp.block_merge_sort"(%k, %n, %d) <{operandSegmentSizes = array<i32: 1, 0, 1, 1>}> ({
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }) : (vector<4xi32>, i32, i64) -> vector<4xi32>
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_valid_type {
  gpu.func @k(%k: vector<4xi32>, %n: i64, %d: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op operand #1 must be 32-bit signless integer, but got 'i64'}}
    %0 = "warp.block_merge_sort"(%k, %n, %d) <{operandSegmentSizes = array<i32: 1, 0, 1, 1>}> ({
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }) : (vector<4xi32>, i64, i32) -> vector<4xi32>
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_result_type {
  gpu.func @k(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op failed to verify that all of {keys, sorted_keys} have same type}}
    %0 = "warp.block_merge_sort"(%k) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>}> ({
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }) : (vector<4xi32>) -> vector<4xi64>
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_region_arguments {
  gpu.func @k(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op compare region must take two arguments of the key type 'i32', got ('i32')}}
    %0 = warp.block_merge_sort %k : vector<4xi32> compare(%a: i32) {
      %lt = arith.cmpi slt, %a, %a : i32
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_region_types {
  gpu.func @k(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'warp.block_merge_sort' op compare region must take two arguments of the key type 'i32', got ('f32', 'f32')}}
    %0 = warp.block_merge_sort %k : vector<4xi32> compare(%a: f32, %b: f32) {
      %lt = arith.cmpf olt, %a, %b : f32
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_yield {
  gpu.func @k(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %0 = warp.block_merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
      // expected-error @+1 {{'warp.yield' op must yield one i1 (whether the first key is ordered before the second), got ('i32')}}
      warp.yield %a : i32
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_impure {
  gpu.func @k(%k: vector<4xi32>, %m: memref<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-note @+1 {{the region of this op}}
    %0 = warp.block_merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'memref.load' op may not be in the compare region of 'warp.block_merge_sort': the region must be pure}}
      %x = memref.load %m[%c0] : memref<4xi32>
      %lt = arith.cmpi slt, %x, %b : i32
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// -----

gpu.module @block_merge_sort_no_region {
  gpu.func @k(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+2 {{expected 'compare'}}
    %0 = warp.block_merge_sort %k : vector<4xi32>
    gpu.return
  }
}

// -----

func.func @block_radix_rank_key_type(%k: vector<4xi1>) {
  // expected-error @+1 {{'warp.block_radix_rank' op ranks i8, i16, i32, i64, f16, bf16, f32 or f64 keys by the bits of their image, not 'i1' (a digit region takes any key type)}}
  %0 = warp.block_radix_rank %k bits 0 to 1 : vector<4xi1>
  return
}

// -----

func.func @block_radix_rank_scalar_keys(%k: i32) {
  // expected-error @+1 {{'warp.block_radix_rank' op operand #0 must be fixed-length vector of any type values of ranks 1, but got 'i32'}}
  %0 = "warp.block_radix_rank"(%k) <{begin_bit = 0 : i32, end_bit = 4 : i32}> ({}, {}) : (i32) -> vector<1xi32>
  return
}

// -----

func.func @block_radix_rank_rank_type(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op failed to verify that the ranks are a vector of i32 as long as the keys}}
  %0 = "warp.block_radix_rank"(%k) <{begin_bit = 0 : i32, end_bit = 4 : i32}> ({}, {}) : (vector<4xi32>) -> vector<2xi32>
  return
}

// -----

func.func @block_radix_rank_prefix_type(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op result #1 must be fixed-length vector of 32-bit signless integer values of ranks 1, but got 'vector<1xi16>'}}
  %0:2 = "warp.block_radix_rank"(%k) <{begin_bit = 0 : i32, end_bit = 4 : i32}> ({}, {}) : (vector<4xi32>) -> (vector<4xi32>, vector<1xi16>)
  return
}

// -----

func.func @block_radix_rank_no_bits(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op needs 'bits B0 to B1' (the digit's bits of the key's image) or a digit region}}
  %0 = "warp.block_radix_rank"(%k) ({}, {}) : (vector<4xi32>) -> vector<4xi32>
  return
}

// -----

func.func @block_radix_rank_signed_float(%k: vector<4xf32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op 'signed' orders integer keys; 'f32' keys have their own order}}
  %0 = warp.block_radix_rank %k signed bits 0 to 4 : vector<4xf32>
  return
}

// -----

func.func @block_radix_rank_bits_past_width(%k: vector<4xi8>) {
  // expected-error @+1 {{'warp.block_radix_rank' op bits 4 to 9 is not a range 0 <= begin < end <= 8 of the 'i8' keys}}
  %0 = warp.block_radix_rank %k bits 4 to 9 : vector<4xi8>
  return
}

// -----

func.func @block_radix_rank_bits_empty(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op bits 7 to 7 is not a range 0 <= begin < end <= 32}}
  %0 = warp.block_radix_rank %k bits 7 to 7 : vector<4xi32>
  return
}

// -----

func.func @block_radix_rank_bits_negative(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op bits -2 to 3 is not a range}}
  %0 = warp.block_radix_rank %k bits -2 to 3 : vector<4xi32>
  return
}

// -----

func.func @block_radix_rank_wide_digit(%k: vector<4xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op ranks by a digit of 1 to 8 bits (CUB's RADIX_BITS), got bits 0 to 9 (9 bits)}}
  %0 = warp.block_radix_rank %k bits 0 to 9 : vector<4xi32>
  return
}

// -----

gpu.module @block_radix_rank_too_many_keys {
  gpu.func @k(%k: vector<128xi8>) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
    // expected-error @+1 {{'warp.block_radix_rank' op ranks at most 65535 keys per block, got 1024 threads x 128}}
    %0 = warp.block_radix_rank %k bits 0 to 4 : vector<128xi8>
    gpu.return
  }
}

// -----

func.func @block_radix_rank_too_many_keys_unknown_block(%k: vector<64xi32>) {
  // expected-error @+1 {{'warp.block_radix_rank' op ranks at most 65535 keys per block, got 1024 threads x 64}}
  %0 = warp.block_radix_rank %k bits 0 to 4 : vector<64xi32>
  return
}

// -----

gpu.module @block_radix_rank_bins {
  gpu.func @k(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 32, 3, 1>} {
    // expected-error @+1 {{'warp.block_radix_rank' op gives each of the 96 threads 3 of the 256 digit bins (CUB's BINS_TRACKED_PER_THREAD), so the exclusive digit prefix is a vector<3xi32>, not 'vector<1xi32>'}}
    %0:2 = warp.block_radix_rank %k bits 0 to 8 : vector<4xi32>, vector<1xi32>
    gpu.return
  }
}

// -----

gpu.module @block_radix_rank_bins_small_radix {
  gpu.func @k(%k: vector<4xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{'warp.block_radix_rank' op gives each of the 64 threads 1 of the 16 digit bins (CUB's BINS_TRACKED_PER_THREAD), so the exclusive digit prefix is a vector<1xi32>, not 'vector<2xi32>'}}
    %0:2 = warp.block_radix_rank %k bits 0 to 4 : vector<4xi32>, vector<2xi32>
    gpu.return
  }
}

// -----

func.func @block_run_length_decode_run_counts(%v: vector<2xf32>, %n: vector<3xi32>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op needs a length for each run value; got 'vector<2xf32>' and 'vector<3xi32>'}}
  %0:2 = warp.block_run_length_decode %v, %n from %f : vector<2xf32>, vector<3xi32>, i32 -> vector<4xf32>
  return
}

// -----

func.func @block_run_length_decode_narrow_offsets(%v: vector<2xf32>, %n: vector<2xi64>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op counts decoded positions in 'i32', narrower than the 'i64' run lengths}}
  %0:2 = warp.block_run_length_decode %v, %n from %f : vector<2xf32>, vector<2xi64>, i32 -> vector<4xf32>
  return
}

// -----

func.func @block_run_length_decode_item_type(%v: vector<2xf32>, %n: vector<2xi32>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op decodes items of the run values' type 'f32', not 'vector<4xi32>'}}
  %0:2 = warp.block_run_length_decode %v, %n from %f : vector<2xf32>, vector<2xi32>, i32 -> vector<4xi32>
  return
}

// -----

func.func @block_run_length_decode_relative_type(%v: vector<2xf32>, %n: vector<2xi32>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op returns one relative offset of 'i32' per decoded item, a 'vector<4xi32>', not 'vector<3xi32>'}}
  %0:3 = warp.block_run_length_decode %v, %n from %f : vector<2xf32>, vector<2xi32>, i32 -> vector<4xf32>, vector<3xi32>
  return
}

// -----

func.func @block_run_length_decode_offsets_default(%v: vector<2xf32>, %o: vector<2xi32>, %f: i32, %z: f32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op decodes runs from their offsets, which give no decoded total for a default to follow (the last run has no end)}}
  %0:2 = warp.block_run_length_decode %v, offsets %o from %f default %z : vector<2xf32>, vector<2xi32>, i32 -> vector<4xf32>
  return
}

// -----

func.func @block_run_length_decode_offset_count(%v: vector<2xf32>, %o: vector<3xi32>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op needs an offset for each run value; got 'vector<2xf32>' and 'vector<3xi32>'}}
  %0:2 = warp.block_run_length_decode %v, offsets %o from %f : vector<2xf32>, vector<3xi32>, i32 -> vector<4xf32>
  return
}

// -----

func.func @block_run_length_decode_wide_offsets(%v: vector<2xf32>, %o: vector<2xi64>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op counts decoded positions in 'i32', narrower than the 'i64' run offsets}}
  %0:2 = warp.block_run_length_decode %v, offsets %o from %f : vector<2xf32>, vector<2xi64>, i32 -> vector<4xf32>
  return
}

// -----

func.func @block_run_length_decode_relative_width(%v: vector<2xf32>, %n: vector<2xi32>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op returns one relative offset of 'i32' per decoded item, a 'vector<4xi32>', not 'vector<4xi64>'}}
  %0:3 = warp.block_run_length_decode %v, %n from %f : vector<2xf32>, vector<2xi32>, i32 -> vector<4xf32>, vector<4xi64>
  return
}

// -----

func.func @block_run_length_decode_default_type(%v: vector<2xf32>, %n: vector<2xi32>, %f: i32, %d: f64) {
  // expected-error @+1 {{'warp.block_run_length_decode' op failed to verify that the default has the run values' element type}}
  %0:2 = "warp.block_run_length_decode"(%v, %n, %f, %d) : (vector<2xf32>, vector<2xi32>, i32, f64) -> (vector<4xf32>, i32)
  return
}

// -----

func.func @block_run_length_decode_total_type(%v: vector<2xf32>, %n: vector<2xi32>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op failed to verify that all of {from, total} have same type}}
  %0:2 = "warp.block_run_length_decode"(%v, %n, %f) : (vector<2xf32>, vector<2xi32>, i32) -> (vector<4xf32>, i64)
  return
}

// -----

func.func @block_run_length_decode_offset_type(%v: vector<2xf32>, %n: vector<2xi16>, %f: i16) {
  // expected-error @+1 {{'warp.block_run_length_decode' op operand #2 must be 32-bit signless integer or 64-bit signless integer, but got 'i16'}}
  %0:2 = "warp.block_run_length_decode"(%v, %n, %f) : (vector<2xf32>, vector<2xi16>, i16) -> (vector<4xf32>, i16)
  return
}

// -----

func.func @block_run_length_decode_float_lengths(%v: vector<2xf32>, %n: vector<2xf32>, %f: i32) {
  // expected-error @+1 {{'warp.block_run_length_decode' op operand #1 must be fixed-length vector of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values of ranks 1, but got 'vector<2xf32>'}}
  %0:2 = warp.block_run_length_decode %v, %n from %f : vector<2xf32>, vector<2xf32>, i32 -> vector<4xf32>
  return
}

// -----

func.func @block_run_length_decode_shared_memory(%v: vector<8xf64>, %n: vector<8xi64>, %f: i64) {
  // expected-error @+1 {{'warp.block_run_length_decode' op needs 132128 bytes of workgroup memory (1024 threads x 8 runs), more than the 49152 bytes of static shared memory}}
  %0:2 = warp.block_run_length_decode %v, %n from %f : vector<8xf64>, vector<8xi64>, i64 -> vector<4xf64>
  return
}
