// Every verifier diagnostic of the warp dialect.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @shuffle_width_not_power_of_two(%x: f32, %o: i32) {
  // expected-error @+1 {{'warp.shuffle' op width must be a power of two in [1, 32], got 12}}
  %0:2 = warp.shuffle <xor> %x, %o width 12 : f32
  return
}

// -----

func.func @shuffle_width_zero(%x: f32, %o: i32) {
  // expected-error @+1 {{width must be a power of two in [1, 32], got 0}}
  %0:2 = warp.shuffle <xor> %x, %o width 0 : f32
  return
}

// -----

func.func @shuffle_width_too_wide(%x: f32, %o: i32) {
  // expected-error @+1 {{width must be a power of two in [1, 32], got 64}}
  %0:2 = warp.shuffle <idx> %x, %o width 64 : f32
  return
}

// -----

func.func @shuffle_up_offset_past_width(%x: f32) {
  %c16 = arith.constant 16 : i32
  // expected-error @+1 {{offset 16 is out of range [0, 16) for mode 'up' with width 16}}
  %0:2 = warp.shuffle <up> %x, %c16 width 16 : f32
  return
}

// -----

func.func @shuffle_down_negative_offset(%x: f32) {
  %c = arith.constant -1 : i32
  // expected-error @+1 {{offset -1 is out of range [0, 32) for mode 'down' with width 32}}
  %0:2 = warp.shuffle <down> %x, %c : f32
  return
}

// -----

func.func @shuffle_idx_lane_past_warp(%x: f32) {
  %c = arith.constant 32 : i32
  // expected-error @+1 {{source lane 32 is out of range [0, 32) for mode 'idx' with width 8}}
  %0:2 = warp.shuffle <idx> %x, %c width 8 : f32
  return
}

// -----

func.func @shuffle_xor_offset_past_warp(%x: f32) {
  %c = arith.constant 32 : i32
  // expected-error @+1 {{offset 32 is out of range [0, 32) for mode 'xor' with width 32}}
  %0:2 = warp.shuffle <xor> %x, %c : f32
  return
}

// -----

func.func @shuffle_reads_outside_mask(%x: f32) {
  %c1 = arith.constant 1 : i32
  %m = arith.constant 0x0000FFFF : i32
  // expected-error @+1 {{lane 15 reads lane 16, which is outside member mask 0x0000ffff}}
  %0:2 = warp.shuffle <down> %x, %c1 mask %m : f32
  return
}

// -----

func.func @shuffle_empty_mask(%x: f32, %o: i32) {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{member mask is empty; the executing lane must be in it}}
  %0:2 = warp.shuffle <xor> %x, %o mask %m : f32
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
  %0:2 = "warp.shuffle"(%x, %o) <{mode = #warp.shuffle_mode<xor>, width = 32 : i32}> : (f32, i32) -> (i32, i1)
  return
}

// -----

func.func @broadcast_lane_out_of_range(%x: f32) {
  %c = arith.constant 32 : i32
  // expected-error @+1 {{source lane 32 is out of range [0, 32)}}
  %0 = warp.broadcast %x, %c : f32
  return
}

// -----

func.func @broadcast_lane_outside_mask(%x: f32) {
  %c = arith.constant 3 : i32
  %m = arith.constant 0xF0 : i32
  // expected-error @+1 {{source lane 3 is outside member mask 0x000000f0}}
  %0 = warp.broadcast %x, %c mask %m : f32
  return
}

// -----

func.func @broadcast_first_empty_mask(%x: f32) {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{member mask is empty}}
  %0 = warp.broadcast_first %x mask %m : f32
  return
}

// -----

func.func @ballot_empty_mask(%p: i1) {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{'warp.ballot' op member mask is empty}}
  %0 = warp.ballot %p mask %m : i32
  return
}

// -----

func.func @vote_empty_mask(%p: i1) {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{'warp.vote' op member mask is empty}}
  %0 = warp.vote <all> %p mask %m : i1
  return
}

// -----

func.func @vote_not_i1(%p: i32) {
  // expected-error @+1 {{operand #0 must be 1-bit signless integer}}
  %0 = "warp.vote"(%p) <{kind = #warp.vote_kind<any>}> : (i32) -> i1
  return
}

// -----

func.func @match_any_float(%x: f32) {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer or 64-bit signless integer}}
  %0 = warp.match_any %x : f32
  return
}

// -----

func.func @match_any_empty_mask(%x: i32) {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{'warp.match_any' op member mask is empty}}
  %0 = warp.match_any %x mask %m : i32
  return
}

// -----

func.func @match_all_empty_mask(%x: i64) {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{'warp.match_all' op member mask is empty}}
  %0:2 = warp.match_all %x mask %m : i64
  return
}

// -----

func.func @syncwarp_empty_mask() {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{'warp.syncwarp' op member mask is empty}}
  warp.syncwarp mask %m
  return
}

// -----

func.func @compact_empty_mask(%p: i1) {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{'warp.compact' op member mask is empty}}
  %0:2 = warp.compact %p mask %m : i32
  return
}

// -----

func.func @reduce_cluster_not_power_of_two(%x: f32) {
  // expected-error @+1 {{cluster_size must be a power of two in [1, 32], got 6}}
  %0 = warp.reduce <add> %x cluster_size = 6 : f32
  return
}

// -----

func.func @reduce_cluster_too_big(%x: f32) {
  // expected-error @+1 {{cluster_size must be a power of two in [1, 32], got 64}}
  %0 = warp.reduce <add> %x cluster_size = 64 : f32
  return
}

// -----

func.func @reduce_stride_not_power_of_two(%x: f32) {
  // expected-error @+1 {{cluster_stride must be a power of two in [1, 32], got 3}}
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

func.func @reduce_index(%x: index) {
  // expected-error @+1 {{operand #0 must be i1/i8/i16/i32/i64/f16/bf16/f32/f64 or a 1-D vector of them}}
  %0 = warp.reduce <add> %x : index
  return
}

// -----

func.func @reduce_valid_lanes_with_cluster(%x: f32, %n: i32) {
  // expected-error @+1 {{valid_lanes needs the whole-warp cluster (cluster_size = 32)}}
  %0 = warp.reduce <add> %x valid_lanes %n cluster_size = 16 : f32
  return
}

// -----

func.func @reduce_valid_lanes_zero(%x: f32) {
  %n = arith.constant 0 : i32
  // expected-error @+1 {{valid_lanes 0 is out of range [1, 32]}}
  %0 = warp.reduce <add> %x valid_lanes %n : f32
  return
}

// -----

func.func @reduce_valid_lanes_too_many(%x: f32) {
  %n = arith.constant 33 : i32
  // expected-error @+1 {{valid_lanes 33 is out of range [1, 32]}}
  %0 = warp.reduce <add> %x valid_lanes %n : f32
  return
}

// -----

func.func @reduce_mask_splits_cluster(%x: f32) {
  %m = arith.constant 0x0000000F : i32
  // expected-error @+1 {{member mask 0x0000000f splits a cluster: lane 0 is in it but lane 4 is not}}
  %0 = warp.reduce <add> %x mask %m cluster_size = 8 : f32
  return
}

// -----

func.func @reduce_empty_mask(%x: f32) {
  %m = arith.constant 0 : i32
  // expected-error @+1 {{'warp.reduce' op member mask is empty}}
  %0 = warp.reduce <add> %x mask %m : f32
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

func.func @scan_width_not_power_of_two(%x: f32) {
  // expected-error @+1 {{'warp.scan' op width must be a power of two in [1, 32], got 24}}
  %0 = warp.scan <add> %x width 24 : f32
  return
}

// -----

func.func @scan_float_kind_on_integer(%x: i32) {
  // expected-error @+1 {{kind 'minimumf' needs a floating-point value, got 'i32'}}
  %0 = warp.scan <minimumf> %x : i32
  return
}

// -----

func.func @scan_mask_splits_segment(%x: i32) {
  %m = arith.constant 0x00FF00FF : i32
  // expected-error @+1 {{member mask 0x00ff00ff splits a segment: lane 0 is in it but lane 8 is not}}
  %0 = warp.scan <add> %x width 16 mask %m : i32
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
  // expected-error @+1 {{total type 'i64' differs from the value type 'i32'}}
  %0:2 = warp.scan <add> %x : i32, i64
  return
}

// -----

func.func @scan_init_type(%x: i32, %i: i64) {
  // expected-error @+1 {{init has the value's type}}
  %0 = "warp.scan"(%x, %i) <{kind = #warp.kind<add>, exclusive, width = 32 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (i32, i64) -> i32
  return
}
