// warp.scan_step: the printed form reads back, and what CUB's predicated
// step cannot do is refused with a located error.
// RUN: warp-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @round_trip
// CHECK: warp.scan_step <add> <up> %{{.*}}, 1 partner_first : i32
// CHECK: warp.scan_step <add> <down> %{{.*}}, 2 width 8 mask %{{.*}} : f32
// CHECK: warp.scan_step <maxui> <up> %{{.*}}, 16 bound %{{.*}} partner_first : i32
func.func @round_trip(%x: i32, %f: f32, %m: i32, %b: i32) -> (i32, f32, i32) {
  %0 = warp.scan_step <add> <up> %x, 1 partner_first : i32
  %1 = warp.scan_step <add> <down> %f, 2 width 8 mask %m : f32
  %2 = warp.scan_step <maxui> <up> %x, 16 bound %b partner_first : i32
  return %0, %1, %2 : i32, f32, i32
}

// -----

func.func @float_kind_without_step(%f: f32) -> f32 {
  // expected-error @+1 {{kind 'minnumf' has no predicated scan step on 'f32'}}
  %0 = warp.scan_step <minnumf> <up> %f, 1 : f32
  return %0 : f32
}

// -----

func.func @float_mul(%f: f32) -> f32 {
  // expected-error @+1 {{kind 'mul' has no predicated scan step on 'f32'}}
  %0 = warp.scan_step <mul> <up> %f, 1 : f32
  return %0 : f32
}

// -----

func.func @wide_type(%x: i64) -> i64 {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer or 32-bit float}}
  %0 = warp.scan_step <add> <up> %x, 1 : i64
  return %0 : i64
}

// -----

func.func @xor_mode(%x: i32) -> i32 {
  // expected-error @+1 {{a scan step shuffles 'up' or 'down'}}
  %0 = warp.scan_step <add> <xor> %x, 1 : i32
  return %0 : i32
}

// -----

func.func @offset_past_width(%x: i32) -> i32 {
  // expected-error @+1 {{offset 8 must be below the width 8}}
  %0 = warp.scan_step <add> <up> %x, 8 width 8 : i32
  return %0 : i32
}

// -----

func.func @zero_offset(%x: i32) -> i32 {
  // expected-error @+1 {{attribute 'offset' failed to satisfy constraint}}
  %0 = warp.scan_step <add> <up> %x, 0 : i32
  return %0 : i32
}

// -----

func.func @bound_in_segments(%x: i32, %b: i32) -> i32 {
  // expected-error @+1 {{a bound needs the whole-warp width 32}}
  %0 = warp.scan_step <add> <up> %x, 1 width 16 bound %b : i32
  return %0 : i32
}
