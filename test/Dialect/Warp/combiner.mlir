// warp.reduce and warp.scan with combiner regions, tuples of values and
// segment flags: pretty form, re-parsed, and through the generic form.
// RUN: warp-opt %s | warp-opt | FileCheck %s
// RUN: warp-opt %s --mlir-print-op-generic | warp-opt | FileCheck %s
// RUN: warp-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @argmax
// CHECK: %[[R:.*]]:2 = warp.reduce %{{.*}}, %{{.*}} commutative : f32, i32 combine (%[[A:.*]]: f32, %[[AI:.*]]: i32, %[[B:.*]]: f32, %[[BI:.*]]: i32) {
// CHECK: arith.cmpf ogt, %[[B]], %[[A]] : f32
// CHECK: warp.yield %{{.*}}, %{{.*}} : f32, i32
// CHECK-NEXT: }
// GENERIC-LABEL: sym_name = "argmax"
// GENERIC: "warp.reduce"(%{{.*}}, %{{.*}}) <{cluster_size = 32 : i32, cluster_stride = 1 : i32, commutative, lanes = #warp.result_lanes<all>, operandSegmentSizes = array<i32: 2, 0, 0, 0, 0>}> ({
// GENERIC: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
// GENERIC: "warp.yield"
// GENERIC: }) : (f32, i32) -> (f32, i32)
func.func @argmax(%v: f32, %idx: i32) -> (f32, i32) {
  %m, %i = warp.reduce %v, %idx commutative : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    %gt = arith.cmpf ogt, %b, %a : f32
    %r = arith.select %gt, %b, %a : f32
    %ri = arith.select %gt, %bi, %ai : i32
    warp.yield %r, %ri : f32, i32
  }
  return %m, %i : f32, i32
}

// Every reduce option a region takes.
// CHECK-LABEL: func @region_options
// CHECK: warp.reduce %{{.*}}, %{{.*}} valid_lanes %{{.*}} mask %{{.*}} lanes = <first> strategy = <tree> : i32, i64 combine
// CHECK: warp.reduce %{{.*}} cluster_size = 8 cluster_stride = 2 : vector<2xf16> combine
// CHECK: warp.reduce %{{.*}} heads %{{.*}} : i32 combine
// CHECK: warp.reduce %{{.*}} tails %{{.*}} lanes = <first> : i32 combine
func.func @region_options(%x: i32, %y: i64, %h: vector<2xf16>, %n: i32, %m: i32, %f: i1) -> (i32, i64, vector<2xf16>, i32, i32) {
  %a, %b = warp.reduce %x, %y valid_lanes %n mask %m lanes = <first> strategy = <tree> : i32, i64 combine (%x1: i32, %y1: i64, %x2: i32, %y2: i64) {
    %s = arith.subi %x1, %x2 : i32
    %t = arith.xori %y1, %y2 : i64
    warp.yield %s, %t : i32, i64
  }
  %c = warp.reduce %h cluster_size = 8 cluster_stride = 2 : vector<2xf16> combine (%l: vector<2xf16>, %r: vector<2xf16>) {
    %s = arith.addf %l, %r : vector<2xf16>
    warp.yield %s : vector<2xf16>
  }
  %d = warp.reduce %x heads %f : i32 combine (%l: i32, %r: i32) {
    %s = arith.subi %l, %r : i32
    warp.yield %s : i32
  }
  %e = warp.reduce %x tails %f lanes = <first> : i32 combine (%l: i32, %r: i32) {
    %s = arith.subi %l, %r : i32
    warp.yield %s : i32
  }
  return %a, %b, %c, %d, %e : i32, i64, vector<2xf16>, i32, i32
}

// Kinds keep their syntax and take segment flags too.
// CHECK-LABEL: func @segmented_kinds
// CHECK: warp.reduce <add> %{{.*}} heads %{{.*}} : f32
// CHECK: warp.reduce <maxsi> %{{.*}} tails %{{.*}} valid_lanes %{{.*}} lanes = <first> : i32
// CHECK: warp.reduce <xor> %{{.*}} heads %{{.*}} mask %{{.*}} cluster_size = 16 : i32
func.func @segmented_kinds(%x: f32, %i: i32, %f: i1, %n: i32) -> (f32, i32, i32) {
  %0 = warp.reduce <add> %x heads %f : f32
  %1 = warp.reduce <maxsi> %i tails %f valid_lanes %n lanes = <first> : i32
  %2 = warp.reduce <xor> %i heads %f mask %n cluster_size = 16 : i32
  return %0, %1, %2 : f32, i32, i32
}

// Scans: one type per value, then one per segment total.
// CHECK-LABEL: func @scans
// CHECK: warp.scan %{{.*}}, %{{.*}} : i32, f32 combine
// CHECK: warp.scan %{{.*}}, %{{.*}} exclusive reverse width 16 init %{{.*}}, %{{.*}} valid_lanes %{{.*}} mask %{{.*}} : i32, f32, i32, f32 combine
// CHECK: warp.scan %{{.*}}, %{{.*}} heads %{{.*}} : i32, i32 combine
// CHECK: warp.scan <add> %{{.*}} exclusive : i32, i32
func.func @scans(%a: i32, %b: f32, %n: i32, %m: i32, %f: i1) -> (i32, f32, i32, f32, i32, f32, i32, i32, i32, i32) {
  %0:2 = warp.scan %a, %b : i32, f32 combine (%a1: i32, %b1: f32, %a2: i32, %b2: f32) {
    %s = arith.addi %a1, %a2 : i32
    %t = arith.addf %b1, %b2 : f32
    warp.yield %s, %t : i32, f32
  }
  %1:4 = warp.scan %a, %b exclusive reverse width 16 init %a, %b valid_lanes %n mask %m : i32, f32, i32, f32 combine (%a1: i32, %b1: f32, %a2: i32, %b2: f32) {
    %s = arith.addi %a1, %a2 : i32
    %t = arith.addf %b1, %b2 : f32
    warp.yield %s, %t : i32, f32
  }
  %2:2 = warp.scan %a, %a heads %f : i32, i32 combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
    %s = arith.muli %a2, %a1 : i32
    %t = arith.muli %a2, %b1 : i32
    %u = arith.addi %t, %b2 : i32
    warp.yield %s, %u : i32, i32
  }
  %3:2 = warp.scan <add> %a exclusive : i32, i32
  return %0#0, %0#1, %1#0, %1#1, %1#2, %1#3, %2#0, %2#1, %3#0, %3#1 : i32, f32, i32, f32, i32, f32, i32, i32, i32, i32
}
