// Every op in pretty form, re-parsed, and through the generic form.
// RUN: warp-opt %s | warp-opt | FileCheck %s
// RUN: warp-opt %s --mlir-print-op-generic | warp-opt | FileCheck %s
// RUN: warp-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @ids_and_masks
func.func @ids_and_masks(%m: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  // CHECK: warp.lane_id : i32
  %lane = warp.lane_id : i32
  // CHECK: warp.warp_id : i32
  %w = warp.warp_id : i32
  // CHECK: warp.warp_id linear : i32
  %wl = warp.warp_id linear : i32
  // CHECK: warp.lanemask <lt> : i32
  // CHECK: warp.lanemask <le> : i32
  // CHECK: warp.lanemask <eq> : i32
  // CHECK: warp.lanemask <ge> : i32
  // CHECK: warp.lanemask <gt> : i32
  // GENERIC: "warp.lanemask"() <{kind = #warp.lanemask_kind<lt>}>
  %lt = warp.lanemask <lt> : i32
  %le = warp.lanemask <le> : i32
  %eq = warp.lanemask <eq> : i32
  %ge = warp.lanemask <ge> : i32
  %gt = warp.lanemask <gt> : i32
  // CHECK: warp.activemask : i32
  %active = warp.activemask : i32
  // CHECK: warp.syncwarp{{$}}
  warp.syncwarp
  // CHECK: warp.syncwarp mask %{{.*}}
  warp.syncwarp mask %m
  return %lane, %w, %wl, %lt, %le, %eq, %ge, %gt, %active : i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func @shuffles
func.func @shuffles(%f: f32, %o: i32, %m: i32, %h: vector<2xf16>, %bf: vector<2xbf16>,
                    %i1: i1, %i8: i8, %i16: i16, %i64: i64, %ix: index, %f16: f16,
                    %b16: bf16, %f64: f64, %v4: vector<4xi8>, %v3: vector<3xf64>) {
  // CHECK: warp.shuffle <idx> %{{.*}}, %{{.*}} : f32
  %0:2 = warp.shuffle <idx> %f, %o : f32
  // CHECK: warp.shuffle <xor> %{{.*}}, %{{.*}} width 16 : f32
  %1:2 = warp.shuffle <xor> %f, %o width 16 : f32
  // CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} width 8 mask %{{.*}} : f32
  %2:2 = warp.shuffle <up> %f, %o width 8 mask %m : f32
  // CHECK: warp.shuffle <down> %{{.*}}, %{{.*}} width 1 : f32
  // GENERIC: "warp.shuffle"(%{{.*}}, %{{.*}}) <{mode = #warp.shuffle_mode<down>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, width = 1 : i32}>
  %3:2 = warp.shuffle <down> %f, %o width 1 : f32
  // CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} bound %{{.*}} mask %{{.*}} : f32
  // GENERIC: "warp.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mode = #warp.shuffle_mode<up>, operandSegmentSizes = array<i32: 1, 1, 0, 1, 1>, width = 32 : i32}>
  %b:2 = warp.shuffle <up> %f, %o bound %o mask %m : f32
  // CHECK: : vector<2xf16>
  %4:2 = warp.shuffle <xor> %h, %o : vector<2xf16>
  // CHECK: : vector<2xbf16>
  %5:2 = warp.shuffle <xor> %bf, %o : vector<2xbf16>
  // CHECK: : i1
  %6:2 = warp.shuffle <idx> %i1, %o : i1
  // CHECK: : i8
  %7:2 = warp.shuffle <idx> %i8, %o : i8
  // CHECK: : i16
  %8:2 = warp.shuffle <idx> %i16, %o : i16
  // CHECK: : i64
  %9:2 = warp.shuffle <idx> %i64, %o : i64
  // CHECK: : index
  %10:2 = warp.shuffle <idx> %ix, %o : index
  // CHECK: : f16
  %11:2 = warp.shuffle <idx> %f16, %o : f16
  // CHECK: : bf16
  %12:2 = warp.shuffle <idx> %b16, %o : bf16
  // CHECK: : f64
  %13:2 = warp.shuffle <idx> %f64, %o : f64
  // CHECK: : vector<4xi8>
  %14:2 = warp.shuffle <idx> %v4, %o : vector<4xi8>
  // CHECK: : vector<3xf64>
  %15:2 = warp.shuffle <idx> %v3, %o : vector<3xf64>
  return
}

// CHECK-LABEL: func @votes
func.func @votes(%p: i1, %m: i32, %k: i32, %k64: i64, %x: f64, %lane: i32) {
  // CHECK: warp.broadcast %{{.*}}, %{{.*}} : f64
  %b = warp.broadcast %x, %lane : f64
  // CHECK: warp.broadcast %{{.*}}, %{{.*}} mask %{{.*}} : f64
  %bm = warp.broadcast %x, %lane mask %m : f64
  // CHECK: warp.broadcast_first %{{.*}} : f64
  %bf = warp.broadcast_first %x : f64
  // CHECK: warp.broadcast_first %{{.*}} mask %{{.*}} : i64
  %bfm = warp.broadcast_first %k64 mask %m : i64
  // CHECK: warp.ballot %{{.*}} : i32
  %bal = warp.ballot %p : i32
  // CHECK: warp.ballot %{{.*}} mask %{{.*}} : i32
  %balm = warp.ballot %p mask %m : i32
  // CHECK: warp.vote <any> %{{.*}} : i1
  // CHECK: warp.vote <all> %{{.*}} mask %{{.*}} : i1
  // CHECK: warp.vote <uni> %{{.*}} : i1
  %any = warp.vote <any> %p : i1
  %all = warp.vote <all> %p mask %m : i1
  %uni = warp.vote <uni> %p : i1
  // A tile's ballot and votes; width 32 is the default and not printed.
  // CHECK: warp.ballot %{{.*}} width 8 : i32
  // CHECK: warp.ballot %{{.*}} mask %{{.*}} width 2 : i32
  // CHECK: warp.ballot %{{.*}} : i32
  // CHECK: warp.vote <any> %{{.*}} width 16 : i1
  // CHECK: warp.vote <uni> %{{.*}} mask %{{.*}} width 4 : i1
  %tbal = warp.ballot %p width 8 : i32
  %tbalm = warp.ballot %p mask %m width 2 : i32
  %wbal = warp.ballot %p width 32 : i32
  %tany = warp.vote <any> %p width 16 : i1
  %tuni = warp.vote <uni> %p mask %m width 4 : i1
  // CHECK: warp.match_any %{{.*}} : i32
  // CHECK: warp.match_any %{{.*}} mask %{{.*}} : i64
  %ma = warp.match_any %k : i32
  %ma64 = warp.match_any %k64 mask %m : i64
  // CHECK: warp.match_any %{{.*}} bits 8 : i32
  // CHECK: warp.match_any %{{.*}} mask %{{.*}} bits 33 strategy = <match> : i64
  // CHECK: warp.match_any %{{.*}} bits 32 strategy = <ballots> : i64
  %mab = warp.match_any %k bits 8 : i32
  %mab64 = warp.match_any %k64 mask %m bits 33 strategy = <match> : i64
  %mabs = warp.match_any %k64 bits 32 strategy = <ballots> : i64
  // CHECK: warp.match_all %{{.*}} : i32
  // CHECK: warp.match_all %{{.*}} : i64
  %mm:2 = warp.match_all %k : i32
  %mm64:2 = warp.match_all %k64 : i64
  // CHECK: warp.compact %{{.*}} : i32
  // CHECK: warp.compact %{{.*}} mask %{{.*}} : i32
  %c:2 = warp.compact %p : i32
  %cm:2 = warp.compact %p mask %m : i32
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%f: f32, %i: i32, %n: i32, %m: i32, %h: vector<2xf16>, %b: i1) {
  // CHECK: warp.reduce <add> %{{.*}} : f32
  %0 = warp.reduce <add> %f : f32
  // CHECK: warp.reduce <mul> %{{.*}} : f32
  %1 = warp.reduce <mul> %f : f32
  // CHECK: warp.reduce <minsi> %{{.*}} : i32
  %2 = warp.reduce <minsi> %i : i32
  // CHECK: warp.reduce <maxsi> %{{.*}} : i32
  %3 = warp.reduce <maxsi> %i : i32
  // CHECK: warp.reduce <minui> %{{.*}} : i32
  %4 = warp.reduce <minui> %i : i32
  // CHECK: warp.reduce <maxui> %{{.*}} : i32
  %5 = warp.reduce <maxui> %i : i32
  // CHECK: warp.reduce <minnumf> %{{.*}} : f32
  %6 = warp.reduce <minnumf> %f : f32
  // CHECK: warp.reduce <maxnumf> %{{.*}} : f32
  %7 = warp.reduce <maxnumf> %f : f32
  // CHECK: warp.reduce <minimumf> %{{.*}} : f32
  %8 = warp.reduce <minimumf> %f : f32
  // CHECK: warp.reduce <maximumf> %{{.*}} : f32
  %9 = warp.reduce <maximumf> %f : f32
  // CHECK: warp.reduce <and> %{{.*}} : i32
  %10 = warp.reduce <and> %i : i32
  // CHECK: warp.reduce <or> %{{.*}} : i1
  %11 = warp.reduce <or> %b : i1
  // CHECK: warp.reduce <xor> %{{.*}} : i32
  %12 = warp.reduce <xor> %i : i32
  // CHECK: warp.reduce <add> %{{.*}} cluster_size = 8 cluster_stride = 4 : f32
  %13 = warp.reduce <add> %f cluster_size = 8 cluster_stride = 4 : f32
  // CHECK: warp.reduce <add> %{{.*}} valid_lanes %{{.*}} mask %{{.*}} lanes = <first> strategy = <tree> : f32
  // GENERIC: lanes = #warp.result_lanes<first>
  // GENERIC-SAME: strategy = #warp.strategy<tree>
  %14 = warp.reduce <add> %f valid_lanes %n mask %m lanes = <first> strategy = <tree> : f32
  // CHECK: warp.reduce <add> %{{.*}} strategy = <redux> : i32
  %15 = warp.reduce <add> %i strategy = <redux> : i32
  // CHECK: warp.reduce <maxnumf> %{{.*}} strategy = <butterfly> : vector<2xf16>
  %16 = warp.reduce <maxnumf> %h strategy = <butterfly> : vector<2xf16>
  return
}

// CHECK-LABEL: func @scans
func.func @scans(%f: f32, %i: i32, %m: i32) {
  // CHECK: warp.scan <add> %{{.*}} : f32
  %0 = warp.scan <add> %f : f32
  // CHECK: warp.scan <add> %{{.*}} exclusive : f32
  %1 = warp.scan <add> %f exclusive : f32
  // CHECK: warp.scan <maxsi> %{{.*}} reverse width 8 : i32
  %2 = warp.scan <maxsi> %i reverse width 8 : i32
  // CHECK: warp.scan <mul> %{{.*}} exclusive init %{{.*}} mask %{{.*}} : i32, i32
  %3:2 = warp.scan <mul> %i exclusive init %i mask %m : i32, i32
  // CHECK: warp.scan <add> %{{.*}} reverse width 16 heads %{{.*}} : i32, i32
  %h = arith.constant true
  %4:2 = warp.scan <add> %i reverse width 16 heads %h : i32, i32
  return
}

// What CUDA accepts: run-time widths, any offsets and source lanes, float
// matches, index reductions, scans over a ragged warp.
// CHECK-LABEL: func @cuda_accepts
func.func @cuda_accepts(%f: f32, %d: f64, %o: i32, %w: i32, %ix: index, %n: i32, %m: i32)
    -> (f32, i1, f32, f32, i32, i32, i1, index, f32, f32) {
  // CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} width %{{.*}} : f32
  // GENERIC: "warp.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}) <{mode = #warp.shuffle_mode<up>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, width = 32 : i32}>
  %0:2 = warp.shuffle <up> %f, %o width %w : f32
  // CHECK: warp.shuffle <xor> %{{.*}}, %{{.*}} width %{{.*}} mask %{{.*}} : f32
  %1:2 = warp.shuffle <xor> %f, %o width %w mask %m : f32
  %c40 = arith.constant 40 : i32
  %cm3 = arith.constant -3 : i32
  // CHECK: warp.shuffle <down> %{{.*}}, %{{.*}} width 8 : f32
  %2:2 = warp.shuffle <down> %f, %c40 width 8 : f32
  // CHECK: warp.broadcast %{{.*}}, %{{.*}} : f32
  %3 = warp.broadcast %f, %cm3 : f32
  // CHECK: warp.match_any %{{.*}} : f32
  %4 = warp.match_any %f : f32
  // CHECK: warp.match_all %{{.*}} : f64
  %5:2 = warp.match_all %d : f64
  // CHECK: warp.reduce <maxsi> %{{.*}} : index
  %6 = warp.reduce <maxsi> %ix : index
  // CHECK: warp.scan <add> %{{.*}} exclusive valid_lanes %{{.*}} mask %{{.*}} : f32
  %7 = warp.scan <add> %f exclusive valid_lanes %n mask %m : f32
  // CHECK: warp.reduce <add> %{{.*}} mask %{{.*}} : f32
  %8 = warp.reduce <add> %f mask %m : f32
  return %0#0, %1#1, %2#0, %3, %4, %5#0, %5#1, %6, %7, %8 : f32, i1, f32, f32, i32, i32, i1, index, f32, f32
}

// CHECK-LABEL: func @block_ops
func.func @block_ops(%f: f32, %v: vector<2xf16>, %i: i32, %p: f32) -> (f32, vector<2xf16>, f32, f32, f32) {
  // CHECK: warp.block_reduce <maxnumf> %{{.*}} : f32
  %0 = warp.block_reduce <maxnumf> %f : f32
  // CHECK: warp.block_scan <add> %{{.*}} : vector<2xf16>
  %1 = warp.block_scan <add> %v : vector<2xf16>
  // CHECK: warp.block_scan <mul> %{{.*}} exclusive init %{{.*}} : f32, f32
  %2:2 = warp.block_scan <mul> %f exclusive init %p : f32, f32
  // CHECK: warp.block_broadcast %{{.*}}, %{{.*}} : f32
  %3 = warp.block_broadcast %f, %i : f32
  // CHECK: warp.block_shuffle <offset> %{{.*}}, %{{.*}} : f32
  // GENERIC: "warp.block_shuffle"(%{{.*}}, %{{.*}}) <{mode = #warp.block_shuffle_mode<offset>}> : (f32, i32) -> (f32, i1)
  %9, %10 = warp.block_shuffle <offset> %f, %i : f32
  // CHECK: warp.block_shuffle <rotate> %{{.*}}, %{{.*}} : vector<2xf16>
  %11, %12 = warp.block_shuffle <rotate> %v, %i : vector<2xf16>
  // CHECK: warp.block_shuffle <xor> %{{.*}}, %{{.*}} tile 128 : f32
  // GENERIC: "warp.block_shuffle"(%{{.*}}, %{{.*}}) <{mode = #warp.block_shuffle_mode<xor>, tile = 128 : i32}> : (f32, i32) -> (f32, i1)
  %x0, %x1 = warp.block_shuffle <xor> %f, %i tile 128 : f32
  %true = arith.constant true
  // CHECK: warp.block_ballot %{{.*}} tile 64 : vector<2xi32>
  // GENERIC: "warp.block_ballot"(%{{.*}}) <{tile = 64 : i32}> : (i1) -> vector<2xi32>
  %mask = warp.block_ballot %true tile 64 : vector<2xi32>
  // CHECK: warp.block_scan <add> %{{.*}} exclusive init %{{.*}} algorithm = <raking> : f32, f32
  // GENERIC: "warp.block_scan"(%{{.*}}, %{{.*}}) <{algorithm = #warp.block_scan_algorithm<raking>, exclusive, kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0>}>
  %4:2 = warp.block_scan <add> %f exclusive init %p algorithm = <raking> : f32, f32
  // CHECK: warp.block_reduce <minui> %{{.*}} algorithm = <raking> : i32
  // GENERIC: "warp.block_reduce"(%{{.*}}) <{algorithm = #warp.block_reduce_algorithm<raking>, kind = #warp.kind<minui>, operandSegmentSizes = array<i32: 1, 0>, threads = #warp.result_lanes<all>}>
  %6 = warp.block_reduce <minui> %i algorithm = <raking> : i32
  // CHECK: warp.block_reduce <or> %{{.*}} algorithm = <raking_commutative_only> : i32
  %rco = warp.block_reduce <or> %i algorithm = <raking_commutative_only> : i32
  // CHECK: warp.block_reduce <minui> %{{.*}} algorithm = <warp_reductions> : i32
  %7 = warp.block_reduce <minui> %i algorithm = <warp_reductions> : i32
  // CHECK: warp.block_scan <minui> %{{.*}} algorithm = <warp_scans> : i32
  %5 = warp.block_scan <minui> %i algorithm = <warp_scans> : i32
  // CHECK: warp.block_reduce <add> %{{.*}} valid_threads %{{.*}} algorithm = <warp_reductions> : f32
  // GENERIC: "warp.block_reduce"(%{{.*}}, %{{.*}}) <{algorithm = #warp.block_reduce_algorithm<warp_reductions>, kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 1>, threads = #warp.result_lanes<all>}>
  %8 = warp.block_reduce <add> %f valid_threads %i algorithm = <warp_reductions> : f32
  // CHECK: warp.block_reduce <add> %{{.*}} valid_threads %{{.*}} threads = <first> : f32
  // GENERIC: "warp.block_reduce"(%{{.*}}, %{{.*}}) <{kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 1>, threads = #warp.result_lanes<first>}>
  %13 = warp.block_reduce <add> %f valid_threads %i threads = <first> : f32
  // CHECK: warp.block_reduce <add> %{{.*}} : f32
  %14 = warp.block_reduce <add> %f threads = <all> : f32
  // Items per thread: reductions, totals and init of the element type.
  // CHECK: warp.block_reduce <add> %{{.*}} items threads = <first> : vector<2xf16>
  // GENERIC: "warp.block_reduce"(%{{.*}}) <{items, kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 0>, threads = #warp.result_lanes<first>}> ({
  // GENERIC-NEXT: }) : (vector<2xf16>) -> f16
  %15 = warp.block_reduce <add> %v items threads = <first> : vector<2xf16>
  // CHECK: warp.block_scan <maxnumf> %{{.*}} items exclusive init %{{.*}} algorithm = <raking> : vector<2xf16>, f16
  // GENERIC: "warp.block_scan"(%{{.*}}, %{{.*}}) <{algorithm = #warp.block_scan_algorithm<raking>, exclusive, items, kind = #warp.kind<maxnumf>, operandSegmentSizes = array<i32: 1, 1, 0>}> ({
  // GENERIC-NEXT: }, {
  // GENERIC-NEXT: }) : (vector<2xf16>, f16) -> (vector<2xf16>, f16)
  %16:2 = warp.block_scan <maxnumf> %v items exclusive init %15 algorithm = <raking> : vector<2xf16>, f16
  // CHECK: warp.block_scan <add> %{{.*}} exclusive reverse init %{{.*}} algorithm = <warp_scans> : f32
  // GENERIC: "warp.block_scan"(%{{.*}}, %{{.*}}) <{algorithm = #warp.block_scan_algorithm<warp_scans>, exclusive, kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0>, reverse}>
  %17 = warp.block_scan <add> %f exclusive reverse init %p algorithm = <warp_scans> : f32
  // CHECK: warp.block_scan <add> %{{.*}} items reverse : vector<2xf16>
  %18 = warp.block_scan <add> %v items reverse : vector<2xf16>
  // Segmented: an i1 per thread, or with items one per item.
  %h = arith.cmpi slt, %i, %i : i32
  // CHECK: warp.block_scan <maxsi> %{{.*}} exclusive heads %{{.*}} : i32
  // GENERIC: "warp.block_scan"(%{{.*}}, %{{.*}}) <{exclusive, kind = #warp.kind<maxsi>, operandSegmentSizes = array<i32: 1, 0, 1>}>
  %19 = warp.block_scan <maxsi> %i exclusive heads %h : i32
  %hv = vector.broadcast %h : i1 to vector<2xi1>
  // CHECK: warp.block_scan <add> %{{.*}} items reverse heads %{{.*}} tile 64 : vector<2xf16>
  // GENERIC: "warp.block_scan"(%{{.*}}, %{{.*}}) <{items, kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 0, 1>, reverse, tile = 64 : i32}> ({
  // GENERIC-NEXT: }, {
  // GENERIC-NEXT: }) : (vector<2xf16>, vector<2xi1>) -> vector<2xf16>
  %20 = warp.block_scan <add> %v items reverse heads %hv tile 64 : vector<2xf16>
  return %0, %1, %2#0, %2#1, %3 : f32, vector<2xf16>, f32, f32, f32
}

// CHECK-LABEL: func @block_memory
func.func @block_memory(%m: memref<?xf32>, %o: index, %n: i32, %z: f32) {
  // CHECK: %[[A:.*]] = warp.block_load %{{.*}}[%{{.*}}] : memref<?xf32>, vector<4xf32>
  // GENERIC: "warp.block_load"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<?xf32>, index) -> vector<4xf32>
  %a = warp.block_load %m[%o] : memref<?xf32>, vector<4xf32>
  // CHECK: warp.block_load %{{.*}}[%{{.*}}] valid %{{.*}} default %{{.*}} striped algorithm = <direct> : memref<?xf32>, vector<4xf32>
  // GENERIC: "warp.block_load"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{algorithm = #warp.block_memory_algorithm<direct>, operandSegmentSizes = array<i32: 1, 1, 1, 1>, striped}> : (memref<?xf32>, index, i32, f32) -> vector<4xf32>
  %b = warp.block_load %m[%o] valid %n default %z striped algorithm = <direct> : memref<?xf32>, vector<4xf32>
  // CHECK: warp.block_load %{{.*}}[%{{.*}}] valid %{{.*}} algorithm = <transpose> : memref<?xf32>, vector<4xf32>
  %c = warp.block_load %m[%o] valid %n algorithm = <transpose> : memref<?xf32>, vector<4xf32>
  // CHECK: warp.block_store %[[A]], %{{.*}}[%{{.*}}] algorithm = <vectorize> : vector<4xf32>, memref<?xf32>
  warp.block_store %a, %m[%o] algorithm = <vectorize> : vector<4xf32>, memref<?xf32>
  // CHECK: warp.block_store %{{.*}}, %{{.*}}[%{{.*}}] striped : vector<4xf32>, memref<?xf32>
  warp.block_store %b, %m[%o] striped : vector<4xf32>, memref<?xf32>
  // CHECK: %[[W:.*]] = warp.block_load %{{.*}}[%{{.*}}] valid %{{.*}} warp_striped algorithm = <direct> : memref<?xf32>, vector<4xf32>
  // GENERIC: "warp.block_load"(%{{.*}}, %{{.*}}, %{{.*}}) <{algorithm = #warp.block_memory_algorithm<direct>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, warp_striped}> : (memref<?xf32>, index, i32) -> vector<4xf32>
  %w = warp.block_load %m[%o] valid %n warp_striped algorithm = <direct> : memref<?xf32>, vector<4xf32>
  // CHECK: warp.block_store %[[W]], %{{.*}}[%{{.*}}] warp_striped : vector<4xf32>, memref<?xf32>
  warp.block_store %w, %m[%o] warp_striped : vector<4xf32>, memref<?xf32>
  return
}

// CHECK-LABEL: func @warp_memory
func.func @warp_memory(%m: memref<?xi8>, %o: index, %n: i32, %z: i8) {
  // CHECK: %[[A:.*]] = warp.load %{{.*}}[%{{.*}}] valid %{{.*}} default %{{.*}} algorithm = <transpose> : memref<?xi8>, vector<8xi8>
  // GENERIC: "warp.load"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{algorithm = #warp.block_memory_algorithm<transpose>, operandSegmentSizes = array<i32: 1, 1, 1, 1>, width = 32 : i32}> : (memref<?xi8>, index, i32, i8) -> vector<8xi8>
  %a = warp.load %m[%o] valid %n default %z algorithm = <transpose> : memref<?xi8>, vector<8xi8>
  // CHECK: warp.store %[[A]], %{{.*}}[%{{.*}}] striped : vector<8xi8>, memref<?xi8>
  // GENERIC: "warp.store"(%{{.*}}, %{{.*}}, %{{.*}}) <{striped, width = 32 : i32}> : (vector<8xi8>, memref<?xi8>, index) -> ()
  warp.store %a, %m[%o] striped : vector<8xi8>, memref<?xi8>
  // Logical warps of 8 lanes; width 32 is the default and not printed.
  // CHECK: warp.load %{{.*}}[%{{.*}}] width 8 : memref<?xi8>, vector<2xi8>
  // CHECK: warp.store %{{.*}}, %{{.*}}[%{{.*}}] width 16 valid %{{.*}} striped : vector<2xi8>, memref<?xi8>
  // CHECK: warp.load %{{.*}}[%{{.*}}] : memref<?xi8>, vector<2xi8>
  // GENERIC: "warp.load"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, width = 8 : i32}> : (memref<?xi8>, index) -> vector<2xi8>
  %b = warp.load %m[%o] width 8 : memref<?xi8>, vector<2xi8>
  warp.store %b, %m[%o] width 16 valid %n striped : vector<2xi8>, memref<?xi8>
  %c = warp.load %m[%o] width 32 : memref<?xi8>, vector<2xi8>
  return
}

// CHECK-LABEL: func @block_exchange_warp_striped
func.func @block_exchange_warp_striped(%x: vector<4xf32>) -> vector<4xf32> {
  // CHECK: warp.block_exchange <blocked_to_warp_striped> %{{.*}} : vector<4xf32>
  %0 = warp.block_exchange <blocked_to_warp_striped> %x : vector<4xf32>
  // CHECK: warp.block_exchange <warp_striped_to_blocked> %{{.*}} : vector<4xf32>
  %1 = warp.block_exchange <warp_striped_to_blocked> %0 : vector<4xf32>
  return %1 : vector<4xf32>
}

// CHECK-LABEL: func @block_scatter
func.func @block_scatter(%x: vector<4xf32>, %r: vector<4xi32>) -> vector<4xf32> {
  // CHECK: warp.block_scatter %{{.*}}, %{{.*}} : vector<4xf32>, vector<4xi32>
  %0 = warp.block_scatter %x, %r : vector<4xf32>, vector<4xi32>
  // CHECK: warp.block_scatter %{{.*}}, %{{.*}} striped : vector<4xf32>, vector<4xi32>
  // GENERIC: "warp.block_scatter"(%{{.*}}, %{{.*}}) <{striped}> : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
  %1 = warp.block_scatter %0, %r striped : vector<4xf32>, vector<4xi32>
  return %1 : vector<4xf32>
}

// CHECK-LABEL: func @block_shift
func.func @block_shift(%x: vector<4xf32>, %f: vector<1xi1>) -> (vector<4xf32>, f32, i1) {
  // CHECK: warp.block_shift <up> %{{.*}} : vector<4xf32>
  // GENERIC: "warp.block_shift"(%{{.*}}) <{direction = #warp.block_shift_direction<up>}> : (vector<4xf32>) -> (vector<4xf32>, f32)
  %0, %1 = warp.block_shift <up> %x : vector<4xf32>
  // CHECK: warp.block_shift <down> %{{.*}} : vector<4xf32>
  %2, %3 = warp.block_shift <down> %0 : vector<4xf32>
  // CHECK: warp.block_shift <down> %{{.*}} : vector<1xi1>
  %4, %5 = warp.block_shift <down> %f : vector<1xi1>
  return %2, %1, %5 : vector<4xf32>, f32, i1
}

// CHECK-LABEL: func @block_scatter_flagged
func.func @block_scatter_flagged(%x: vector<4xf32>, %r: vector<4xi32>, %f: vector<4xi1>) -> vector<4xf32> {
  // CHECK: warp.block_scatter %{{.*}}, %{{.*}} flags %{{.*}} striped : vector<4xf32>, vector<4xi32>, vector<4xi1>
  // GENERIC: "warp.block_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{striped}> : (vector<4xf32>, vector<4xi32>, vector<4xi1>) -> vector<4xf32>
  %0 = warp.block_scatter %x, %r flags %f striped : vector<4xf32>, vector<4xi32>, vector<4xi1>
  // CHECK: warp.block_scatter %{{.*}}, %{{.*}} flags %{{.*}} : vector<4xf32>, vector<4xi32>, vector<4xi1>
  %1 = warp.block_scatter %0, %r flags %f : vector<4xf32>, vector<4xi32>, vector<4xi1>
  return %1 : vector<4xf32>
}

// CHECK-LABEL: func @merge_sort
func.func @merge_sort(%k: vector<4xi32>, %v: vector<4xf16>, %f: vector<7xf64>,
                      %n: i32, %oob: f64) -> (vector<4xi32>, vector<4xf16>, vector<7xf64>) {
  // CHECK: warp.merge_sort %{{.*}} : vector<4xi32> compare(%[[A:.*]]: i32, %[[B:.*]]: i32) {
  // CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[A]], %[[B]] : i32
  // CHECK-NEXT: warp.yield %[[LT]] : i1
  // GENERIC: "warp.merge_sort"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, width = 32 : i32}> ({
  %0 = warp.merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
    %lt = arith.cmpi slt, %a, %b : i32
    warp.yield %lt : i1
  }
  // CHECK: warp.merge_sort %{{.*}}, %{{.*}} width 8 : vector<4xi32>, vector<4xf16> compare(
  %1:2 = warp.merge_sort %0, %v width 8 : vector<4xi32>, vector<4xf16> compare(%a: i32, %b: i32) {
    %gt = arith.cmpi ugt, %a, %b : i32
    warp.yield %gt : i1
  }
  // CHECK: warp.merge_sort %{{.*}} valid_items %{{.*}} default %{{.*}} : vector<7xf64> compare(
  %2 = warp.merge_sort %f valid_items %n default %oob : vector<7xf64> compare(%a: f64, %b: f64) {
    %lt = arith.cmpf olt, %a, %b : f64
    warp.yield %lt : i1
  }
  return %1#0, %1#1, %2 : vector<4xi32>, vector<4xf16>, vector<7xf64>
}

// The block sort needs its block size: a gpu.func's known_block_size.
// CHECK-LABEL: gpu.module @block_merge_sort
gpu.module @block_merge_sort {
  // CHECK-LABEL: gpu.func @sorts
  gpu.func @sorts(%k: vector<4xi32>, %v: vector<4xf16>, %f: vector<3xbf16>,
                  %n: i32, %oob: bf16) kernel
      attributes {known_block_size = array<i32: 32, 3, 1>} {
    // CHECK: warp.block_merge_sort %{{.*}} : vector<4xi32> compare(%[[A:.*]]: i32, %[[B:.*]]: i32) {
    // CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[A]], %[[B]] : i32
    // CHECK-NEXT: warp.yield %[[LT]] : i1
    // GENERIC: "warp.block_merge_sort"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>}> ({
    %0 = warp.block_merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    // CHECK: warp.block_merge_sort %{{.*}}, %{{.*}} : vector<4xi32>, vector<4xf16> compare(
    %1:2 = warp.block_merge_sort %0, %v : vector<4xi32>, vector<4xf16> compare(%a: i32, %b: i32) {
      %gt = arith.cmpi ugt, %a, %b : i32
      warp.yield %gt : i1
    }
    // CHECK: warp.block_merge_sort %{{.*}} valid_items %{{.*}} default %{{.*}} : vector<3xbf16> compare(
    // GENERIC: "warp.block_merge_sort"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 1, 1>}> ({
    %2 = warp.block_merge_sort %f valid_items %n default %oob : vector<3xbf16> compare(%a: bf16, %b: bf16) {
      %lt = arith.cmpf olt, %a, %b : bf16
      warp.yield %lt : i1
    }
    gpu.return
  }
}

// CHECK-LABEL: func @block_histogram
func.func @block_histogram(%s: vector<4xi8>, %bins: memref<256xi32, #gpu.address_space<workgroup>>, %g: memref<?xi64>) {
  // CHECK: warp.block_histogram %{{.*}} into %{{.*}} : vector<4xi8>, memref<256xi32, #gpu.address_space<workgroup>>
  warp.block_histogram %s into %bins : vector<4xi8>, memref<256xi32, #gpu.address_space<workgroup>>
  // CHECK: warp.block_histogram %{{.*}} into %{{.*}} accumulate algorithm = <warp_aggregated> : vector<4xi8>, memref<?xi64>
  // GENERIC: "warp.block_histogram"(%{{.*}}, %{{.*}}) <{accumulate, algorithm = #warp.block_histogram_algorithm<warp_aggregated>}> : (vector<4xi8>, memref<?xi64>) -> ()
  warp.block_histogram %s into %g accumulate algorithm = <warp_aggregated> : vector<4xi8>, memref<?xi64>
  return
}

// CHECK-LABEL: func @block_combiners
func.func @block_combiners(%v: f32, %i: i32, %p: f32, %q: i32) -> (f32, i32, f32, i32, f32, i32) {
  // CHECK: warp.block_reduce %{{.*}}, %{{.*}} commutative : f32, i32 combine (%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32) {
  // CHECK: warp.yield %{{.*}}, %{{.*}} : f32, i32
  // GENERIC: "warp.block_reduce"(%{{.*}}, %{{.*}}) <{commutative, operandSegmentSizes = array<i32: 2, 0>, threads = #warp.result_lanes<all>}> ({
  %0:2 = warp.block_reduce %v, %i commutative : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    %gt = arith.cmpf ogt, %b, %a : f32
    %r = arith.select %gt, %b, %a : f32
    %ri = arith.select %gt, %bi, %ai : i32
    warp.yield %r, %ri : f32, i32
  }
  // CHECK: warp.block_reduce %{{.*}}, %{{.*}} valid_threads %{{.*}} commutative : f32, i32 combine
  %2:2 = warp.block_reduce %v, %i valid_threads %q commutative : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    %gt = arith.cmpf ogt, %b, %a : f32
    %r = arith.select %gt, %b, %a : f32
    %ri = arith.select %gt, %bi, %ai : i32
    warp.yield %r, %ri : f32, i32
  }
  // CHECK: warp.block_scan %{{.*}}, %{{.*}} exclusive init %{{.*}}, %{{.*}} algorithm = <raking> : f32, i32, f32, i32 combine
  %1:4 = warp.block_scan %v, %i exclusive init %p, %q algorithm = <raking> : f32, i32, f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    %s = arith.addf %a, %b : f32
    %t = arith.addi %ai, %bi : i32
    warp.yield %s, %t : f32, i32
  }
  return %0#0, %0#1, %1#0, %1#1, %1#2, %1#3 : f32, i32, f32, i32, f32, i32
}

// A prefix computed from the block's total (CUB's BlockPrefixCallbackOp).
// CHECK-LABEL: func @block_scan_prefix
func.func @block_scan_prefix(%x: i32, %run: memref<i32, #gpu.address_space<workgroup>>,
                             %a: f32, %b: i32, %v: vector<4xf32>) -> (i32, i32, f32, i32, vector<4xf32>) {
  // CHECK: warp.block_scan <add> %{{.*}} exclusive : i32, i32 prefix(%[[T:.*]]: i32) {
  // CHECK-NEXT: %[[OLD:.*]] = memref.load
  // CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[OLD]], %[[T]] : i32
  // CHECK-NEXT: memref.store %[[NEW]]
  // CHECK-NEXT: warp.yield %[[OLD]] : i32
  // GENERIC: "warp.block_scan"(%{{.*}}) <{exclusive, kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 0, 0>}> ({
  // GENERIC-NEXT: }, {
  // GENERIC-NEXT: ^bb0(%{{.*}}: i32):
  %s, %t = warp.block_scan <add> %x exclusive : i32, i32 prefix(%total: i32) {
    %old = memref.load %run[] : memref<i32, #gpu.address_space<workgroup>>
    %new = arith.addi %old, %total : i32
    memref.store %new, %run[] : memref<i32, #gpu.address_space<workgroup>>
    warp.yield %old : i32
  }
  // CHECK: warp.block_scan %{{.*}}, %{{.*}} algorithm = <raking> : f32, i32 combine (
  // CHECK: } prefix(%{{.*}}: f32, %{{.*}}: i32) {
  %m, %i = warp.block_scan %a, %b algorithm = <raking> : f32, i32
      combine (%a1: f32, %i1: i32, %a2: f32, %i2: i32) {
    %c = arith.cmpf oge, %a1, %a2 : f32
    %ma = arith.select %c, %a1, %a2 : f32
    %mi = arith.select %c, %i1, %i2 : i32
    warp.yield %ma, %mi : f32, i32
  } prefix(%ta: f32, %ti: i32) {
    warp.yield %ta, %ti : f32, i32
  }
  // CHECK: warp.block_scan <maxnumf> %{{.*}} items : vector<4xf32> prefix(%{{.*}}: f32) {
  %w = warp.block_scan <maxnumf> %v items : vector<4xf32> prefix(%tv: f32) {
    warp.yield %tv : f32
  }
  return %s, %t, %m, %i, %w : i32, i32, f32, i32, vector<4xf32>
}

// CHECK-LABEL: func @block_radix_sort
func.func @block_radix_sort(%k: vector<4xi32>, %v: vector<4xf32>, %f: vector<2xf16>, %b: vector<1xi8>) -> (vector<4xi32>, vector<4xi32>, vector<4xf32>, vector<2xf16>, vector<1xi8>) {
  // CHECK: warp.block_radix_sort %{{.*}} : vector<4xi32>
  // GENERIC: "warp.block_radix_sort"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (vector<4xi32>) -> vector<4xi32>
  %0 = warp.block_radix_sort %k : vector<4xi32>
  // CHECK: warp.block_radix_sort %{{.*}}, %{{.*}} descending signed bits 0 to 16 striped : vector<4xi32>, vector<4xf32>
  // GENERIC: "warp.block_radix_sort"(%{{.*}}, %{{.*}}) <{begin_bit = 0 : i32, descending, end_bit = 16 : i32, is_signed, operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>, striped}> : (vector<4xi32>, vector<4xf32>) -> (vector<4xi32>, vector<4xf32>)
  %1:2 = warp.block_radix_sort %k, %v descending signed bits 0 to 16 striped : vector<4xi32>, vector<4xf32>
  // CHECK: warp.block_radix_sort %{{.*}} bits 3 to 9 radix_bits = 8 : vector<2xf16>
  // GENERIC: "warp.block_radix_sort"(%{{.*}}) <{begin_bit = 3 : i32, end_bit = 9 : i32, operandSegmentSizes = array<i32: 1, 0>, radix_bits = 8 : i32, resultSegmentSizes = array<i32: 1, 0>}> : (vector<2xf16>) -> vector<2xf16>
  %2 = warp.block_radix_sort %f bits 3 to 9 radix_bits = 8 : vector<2xf16>
  // CHECK: warp.block_radix_sort %{{.*}} descending radix_bits = 1 : vector<1xi8>
  %3 = warp.block_radix_sort %b descending radix_bits = 1 : vector<1xi8>
  // CHECK: warp.block_radix_sort %{{.*}} radix_bits = 8 ranking = <registers> : vector<1xi8>
  %r3 = warp.block_radix_sort %b radix_bits = 8 ranking = <registers> : vector<1xi8>
  return %0, %1#0, %1#1, %2, %3 : vector<4xi32>, vector<4xi32>, vector<4xf32>, vector<2xf16>, vector<1xi8>
}

// CHECK-LABEL: func @block_radix_rank
func.func @block_radix_rank(%k: vector<4xi32>, %f: vector<2xbf16>, %l: vector<7xi64>) -> (vector<4xi32>, vector<2xi32>, vector<3xi32>, vector<7xi32>) {
  // CHECK: warp.block_radix_rank %{{.*}} bits 0 to 4 : vector<4xi32>
  // GENERIC: "warp.block_radix_rank"(%{{.*}}) <{begin_bit = 0 : i32, end_bit = 4 : i32}> ({
  // GENERIC-NEXT: }, {
  // GENERIC-NEXT: }) : (vector<4xi32>) -> vector<4xi32>
  %0 = warp.block_radix_rank %k bits 0 to 4 : vector<4xi32>
  // CHECK: warp.block_radix_rank %{{.*}} descending bits 8 to 16 : vector<2xbf16>, vector<3xi32>
  // GENERIC: "warp.block_radix_rank"(%{{.*}}) <{begin_bit = 8 : i32, descending, end_bit = 16 : i32}> ({
  // GENERIC-NEXT: }, {
  // GENERIC-NEXT: }) : (vector<2xbf16>) -> (vector<2xi32>, vector<3xi32>)
  %1:2 = warp.block_radix_rank %f descending bits 8 to 16 : vector<2xbf16>, vector<3xi32>
  // CHECK: warp.block_radix_rank %{{.*}} descending signed bits 63 to 64 : vector<7xi64>
  %2 = warp.block_radix_rank %l descending signed bits 63 to 64 : vector<7xi64>
  // CHECK: warp.block_radix_rank %{{.*}} bits 0 to 4 warp_striped ranking = <grid> : vector<4xi32>
  // GENERIC: "warp.block_radix_rank"(%{{.*}}) <{begin_bit = 0 : i32, end_bit = 4 : i32, ranking = #warp.radix_ranking<grid>, warp_striped}> ({
  %3 = warp.block_radix_rank %k bits 0 to 4 warp_striped ranking = <grid> : vector<4xi32>
  return %3, %1#0, %1#1, %2 : vector<4xi32>, vector<2xi32>, vector<3xi32>, vector<7xi32>
}

// The early-counts ranking's counts region (CUB's counts callback): a
// thread's bins' counts (96 threads, 256 digits: 3 each), stored.
// CHECK-LABEL: gpu.module @block_radix_rank_counts
gpu.module @block_radix_rank_counts {
  gpu.func @k(%k: vector<6xi32>, %out: memref<?xi32>) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    // CHECK: warp.block_radix_rank %{{.*}} bits 0 to 8 warp_striped ranking = <match_early> : vector<6xi32> counts(%[[C:.*]]: vector<3xi32>) {
    // CHECK-NEXT: vector.store %[[C]]
    // CHECK-NEXT: warp.yield
    // GENERIC: "warp.block_radix_rank"(%{{.*}}) <{begin_bit = 0 : i32, end_bit = 8 : i32, ranking = #warp.radix_ranking<match_early>, warp_striped}> ({
    // GENERIC-NEXT: }, {
    // GENERIC-NEXT: ^bb0(%{{.*}}: vector<3xi32>):
    %r = warp.block_radix_rank %k bits 0 to 8 warp_striped ranking = <match_early> : vector<6xi32> counts(%c: vector<3xi32>) {
      vector.store %c, %out[%c0] : memref<?xi32>, vector<3xi32>
      warp.yield
    }
    gpu.return
  }
}

// A custom digit extractor (any key type) and a sort of a tuple of keys.
// CHECK-LABEL: func @block_radix_custom_keys
func.func @block_radix_custom_keys(%k: vector<4xi32>, %f: vector<4xf32>, %x: vector<2xindex>, %v: vector<4xi64>) -> (vector<4xi32>, vector<1xi32>, vector<2xi32>, vector<4xi32>, vector<4xf32>, vector<4xi64>) {
  // CHECK: warp.block_radix_rank %{{.*}} descending radix_bits = 4 : vector<4xi32>, vector<1xi32> digit(%[[K:.*]]: i32) {
  // CHECK: arith.shrui %[[K]]
  // CHECK: warp.yield %{{.*}} : i32
  // GENERIC: "warp.block_radix_rank"(%{{.*}}) <{descending, radix_bits = 4 : i32}> ({
  // GENERIC-NEXT: ^bb0(%{{.*}}: i32):
  %r:2 = warp.block_radix_rank %k descending radix_bits = 4 : vector<4xi32>, vector<1xi32> digit(%a: i32) {
    %c3 = arith.constant 3 : i32
    %d = arith.shrui %a, %c3 : i32
    warp.yield %d : i32
  }
  // CHECK: warp.block_radix_rank %{{.*}} radix_bits = 1 : vector<2xindex> digit(%{{.*}}: index) {
  %q = warp.block_radix_rank %x radix_bits = 1 : vector<2xindex> digit(%i: index) {
    %d = arith.index_cast %i : index to i32
    warp.yield %d : i32
  }
  // CHECK: warp.block_radix_sort (%{{.*}}, %{{.*}}), %{{.*}} descending signed : (vector<4xi32>, vector<4xf32>), vector<4xi64>
  // GENERIC: "warp.block_radix_sort"(%{{.*}}, %{{.*}}, %{{.*}}) <{descending, is_signed, operandSegmentSizes = array<i32: 2, 1>, resultSegmentSizes = array<i32: 2, 1>}> : (vector<4xi32>, vector<4xf32>, vector<4xi64>) -> (vector<4xi32>, vector<4xf32>, vector<4xi64>)
  %s:3 = warp.block_radix_sort (%k, %f), %v descending signed : (vector<4xi32>, vector<4xf32>), vector<4xi64>
  return %r#0, %r#1, %q, %s#0, %s#1, %s#2 : vector<4xi32>, vector<1xi32>, vector<2xi32>, vector<4xi32>, vector<4xf32>, vector<4xi64>
}

// CHECK-LABEL: func @block_run_length_decode
func.func @block_run_length_decode(%v: vector<2xf32>, %n: vector<2xi16>, %from: i32, %z: f32, %w: vector<3xi8>, %m: vector<3xi64>, %f64: i64) -> (vector<4xf32>, i32, vector<1xf32>, i32, vector<1xi32>, vector<5xi8>, i64) {
  // CHECK: warp.block_run_length_decode %{{.*}}, %{{.*}} from %{{.*}} : vector<2xf32>, vector<2xi16>, i32 -> vector<4xf32>
  // GENERIC: "warp.block_run_length_decode"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<2xf32>, vector<2xi16>, i32) -> (vector<4xf32>, i32)
  %0:2 = warp.block_run_length_decode %v, %n from %from : vector<2xf32>, vector<2xi16>, i32 -> vector<4xf32>
  // CHECK: warp.block_run_length_decode %{{.*}}, %{{.*}} from %{{.*}} default %{{.*}} : vector<2xf32>, vector<2xi16>, i32 -> vector<1xf32>, vector<1xi32>
  // GENERIC: "warp.block_run_length_decode"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (vector<2xf32>, vector<2xi16>, i32, f32) -> (vector<1xf32>, i32, vector<1xi32>)
  %1:3 = warp.block_run_length_decode %v, %n from %from default %z : vector<2xf32>, vector<2xi16>, i32 -> vector<1xf32>, vector<1xi32>
  // CHECK: warp.block_run_length_decode %{{.*}}, %{{.*}} from %{{.*}} : vector<3xi8>, vector<3xi64>, i64 -> vector<5xi8>
  %2:2 = warp.block_run_length_decode %w, %m from %f64 : vector<3xi8>, vector<3xi64>, i64 -> vector<5xi8>
  return %0#0, %0#1, %1#0, %1#1, %1#2, %2#0, %2#1 : vector<4xf32>, i32, vector<1xf32>, i32, vector<1xi32>, vector<5xi8>, i64
}

// CHECK-LABEL: func @block_run_length_decode_offsets
func.func @block_run_length_decode_offsets(%v: vector<2xf32>, %o: vector<2xi16>, %from: i32, %w: vector<3xi8>, %p: vector<3xi64>, %f64: i64) -> (vector<4xf32>, i32, vector<5xi8>, vector<5xi64>) {
  // CHECK: warp.block_run_length_decode %{{.*}}, offsets %{{.*}} from %{{.*}} : vector<2xf32>, vector<2xi16>, i32 -> vector<4xf32>
  // GENERIC: "warp.block_run_length_decode"(%{{.*}}, %{{.*}}, %{{.*}}) <{offsets}> : (vector<2xf32>, vector<2xi16>, i32) -> (vector<4xf32>, i32)
  %0:2 = warp.block_run_length_decode %v, offsets %o from %from : vector<2xf32>, vector<2xi16>, i32 -> vector<4xf32>
  // CHECK: warp.block_run_length_decode %{{.*}}, offsets %{{.*}} from %{{.*}} : vector<3xi8>, vector<3xi64>, i64 -> vector<5xi8>, vector<5xi64>
  %1:3 = warp.block_run_length_decode %w, offsets %p from %f64 : vector<3xi8>, vector<3xi64>, i64 -> vector<5xi8>, vector<5xi64>
  return %0#0, %0#1, %1#0, %1#2 : vector<4xf32>, i32, vector<5xi8>, vector<5xi64>
}

// CHECK-LABEL: func @block_exchange
func.func @block_exchange(%a: vector<4xf32>, %b: vector<3xi64>) -> (vector<4xf32>, vector<3xi64>) {
  // CHECK: warp.block_exchange <blocked_to_striped> %{{.*}} : vector<4xf32>
  // GENERIC: "warp.block_exchange"(%{{.*}}) <{direction = #warp.exchange_direction<blocked_to_striped>}> : (vector<4xf32>) -> vector<4xf32>
  %0 = warp.block_exchange <blocked_to_striped> %a : vector<4xf32>
  // CHECK: warp.block_exchange <striped_to_blocked> %{{.*}} : vector<3xi64>
  %1 = warp.block_exchange <striped_to_blocked> %b : vector<3xi64>
  return %0, %1 : vector<4xf32>, vector<3xi64>
}

// warp.exchange, warp.elect and warp.atomic_rmw.

// CHECK-LABEL: func @exchange
func.func @exchange(%b: vector<8xf32>, %d: vector<16xf64>, %i: vector<4xi64>, %t: vector<3xi32>)
    -> (vector<8xf32>, vector<16xf64>, vector<4xi64>, vector<3xi32>) {
  // CHECK: warp.exchange <blocked_to_striped> %{{.*}} : vector<8xf32>
  // GENERIC: "warp.exchange"(%{{.*}}) <{direction = #warp.exchange_direction<blocked_to_striped>}> : (vector<8xf32>) -> vector<8xf32>
  %0 = warp.exchange <blocked_to_striped> %b : vector<8xf32>
  // CHECK: warp.exchange <striped_to_blocked> %{{.*}} strategy = <shared> : vector<16xf64>
  // GENERIC: strategy = #warp.exchange_strategy<shared>
  %1 = warp.exchange <striped_to_blocked> %d strategy = <shared> : vector<16xf64>
  // CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shuffle> : vector<4xi64>
  %2 = warp.exchange <blocked_to_striped> %i strategy = <shuffle> : vector<4xi64>
  // Any N up to 32 through shared memory (the compiler's choice here).
  // CHECK: warp.exchange <striped_to_blocked> %{{.*}} : vector<3xi32>
  %3 = warp.exchange <striped_to_blocked> %t : vector<3xi32>
  return %0, %1, %2, %3 : vector<8xf32>, vector<16xf64>, vector<4xi64>, vector<3xi32>
}

// 8- and 16-bit items, more than 32 items per lane (shared memory).
// CHECK-LABEL: func @exchange_more
func.func @exchange_more(%h: vector<8xf16>, %bf: vector<64xbf16>, %c: vector<5xi8>, %s: vector<128xi16>)
    -> (vector<8xf16>, vector<64xbf16>, vector<5xi8>, vector<128xi16>) {
  // CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shuffle> : vector<8xf16>
  %0 = warp.exchange <blocked_to_striped> %h strategy = <shuffle> : vector<8xf16>
  // CHECK: warp.exchange <striped_to_blocked> %{{.*}} : vector<64xbf16>
  %1 = warp.exchange <striped_to_blocked> %bf : vector<64xbf16>
  // CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shared> : vector<5xi8>
  %2 = warp.exchange <blocked_to_striped> %c strategy = <shared> : vector<5xi8>
  // CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shared> : vector<128xi16>
  %3 = warp.exchange <blocked_to_striped> %s strategy = <shared> : vector<128xi16>
  return %0, %1, %2, %3 : vector<8xf16>, vector<64xbf16>, vector<5xi8>, vector<128xi16>
}

// CHECK-LABEL: func @scatter
func.func @scatter(%x: vector<4xf32>, %r: vector<4xi32>, %y: vector<40xi8>, %q: vector<40xi32>)
    -> (vector<4xf32>, vector<40xi8>) {
  // CHECK: warp.scatter %{{.*}}, %{{.*}} striped : vector<4xf32>, vector<4xi32>
  // GENERIC: "warp.scatter"(%{{.*}}, %{{.*}}) <{striped}> : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
  %0 = warp.scatter %x, %r striped : vector<4xf32>, vector<4xi32>
  // CHECK: warp.scatter %{{.*}}, %{{.*}} : vector<40xi8>, vector<40xi32>
  %1 = warp.scatter %y, %q : vector<40xi8>, vector<40xi32>
  return %0, %1 : vector<4xf32>, vector<40xi8>
}

// CHECK-LABEL: func @elect
func.func @elect(%m: i32) -> (i1, i1) {
  // CHECK: warp.elect : i1
  // GENERIC: "warp.elect"() : () -> i1
  %0 = warp.elect : i1
  // CHECK: warp.elect mask %{{.*}} : i1
  %1 = warp.elect mask %m : i1
  // CHECK: %{{.*}}, %{{.*}} = warp.elect mask %{{.*}} : i1, i32
  // GENERIC: "warp.elect"(%{{.*}}) : (i32) -> (i1, i32)
  %2, %lane = warp.elect mask %m : i1, i32
  return %0, %1 : i1, i1
}

// CHECK-LABEL: func @atomic_add
func.func @atomic_add(%h: memref<256xi32>, %bin: index, %f: memref<?x?xf32>, %i: index, %j: index,
                      %w: f32, %m: i32, %d: memref<?xf64, #gpu.address_space<workgroup>>, %x: f64,
                      %l: memref<8xi64>, %y: i64) -> (i32, f32, f64, i64) {
  %one = arith.constant 1 : i32
  // CHECK: warp.atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] : i32, memref<256xi32>
  // GENERIC: "warp.atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = #warp.atomic_kind<add>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, ordering = #warp.memory_order<relaxed>, scope = #warp.memory_scope<gpu>}> : (i32, memref<256xi32>, index) -> i32
  %0 = warp.atomic_rmw <add> %one, %h[%bin] : i32, memref<256xi32>
  // CHECK: warp.atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mask %{{.*}} : f32, memref<?x?xf32>
  %1 = warp.atomic_rmw <add> %w, %f[%i, %j] mask %m : f32, memref<?x?xf32>
  // CHECK: warp.atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] : f64, memref<?xf64, #gpu.address_space<workgroup>>
  %2 = warp.atomic_rmw <add> %x, %d[%i] : f64, memref<?xf64, #gpu.address_space<workgroup>>
  // CHECK: warp.atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] : i64, memref<8xi64>
  %3 = warp.atomic_rmw <add> %y, %l[%i] : i64, memref<8xi64>
  return %0, %1, %2, %3 : i32, f32, f64, i64
}

// The 16-bit floats and their packed pairs (add), a scope and an order;
// the defaults (gpu, relaxed) print nothing.
// CHECK-LABEL: func @atomic_16bit_scope_order
func.func @atomic_16bit_scope_order(%h: memref<?xf16>, %b: memref<?xbf16, 3>,
                                    %p: memref<?xvector<2xf16>>, %q: memref<?xvector<2xbf16>>,
                                    %i: index, %x: f16, %y: bf16, %v: vector<2xf16>,
                                    %u: vector<2xbf16>, %m: i32) {
  // CHECK: warp.atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] : f16, memref<?xf16>
  %0 = warp.atomic_rmw <add> %x, %h[%i] : f16, memref<?xf16>
  // CHECK: warp.atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] mask %{{.*}} scope <cta> : bf16, memref<?xbf16, 3>
  // GENERIC: "warp.atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kind = #warp.atomic_kind<add>, operandSegmentSizes = array<i32: 1, 1, 1, 1>, ordering = #warp.memory_order<relaxed>, scope = #warp.memory_scope<cta>}> : (bf16, memref<?xbf16, 3>, index, i32) -> bf16
  %1 = warp.atomic_rmw <add> %y, %b[%i] mask %m scope <cta> : bf16, memref<?xbf16, 3>
  // CHECK: warp.atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] scope <sys> ordering <acq_rel> : vector<2xf16>, memref<?xvector<2xf16>>
  %2 = warp.atomic_rmw <add> %v, %p[%i] scope <sys> ordering <acq_rel> : vector<2xf16>, memref<?xvector<2xf16>>
  // CHECK: warp.atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] ordering <release> : vector<2xbf16>, memref<?xvector<2xbf16>>
  %3 = warp.atomic_rmw <add> %u, %q[%i] scope <gpu> ordering <release> : vector<2xbf16>, memref<?xvector<2xbf16>>
  // CHECK: warp.lane_atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] scope <cluster> ordering <acquire> : vector<2xf16>, memref<?xvector<2xf16>>
  // GENERIC: "warp.lane_atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = #warp.atomic_kind<add>, ordering = #warp.memory_order<acquire>, scope = #warp.memory_scope<cluster>}> : (vector<2xf16>, memref<?xvector<2xf16>>, index) -> vector<2xf16>
  %4 = warp.lane_atomic_rmw <add> %v, %p[%i] scope <cluster> ordering <acquire> : vector<2xf16>, memref<?xvector<2xf16>>
  // CHECK: warp.lane_atomic_rmw <add> %{{.*}}, %{{.*}}[%{{.*}}] : f16, memref<?xf16>
  %5 = warp.lane_atomic_rmw <add> %x, %h[%i] : f16, memref<?xf16>
  return
}

// Every kind: the min/max kinds and the bitwise ones on integers, exch on
// floats too.
// CHECK-LABEL: func @atomic_kinds
func.func @atomic_kinds(%h: memref<8xi32>, %l: memref<8xi64>, %f: memref<8xf32>, %i: index,
                        %v: i32, %y: i64, %w: f32) {
  // CHECK: warp.atomic_rmw <minsi> %{{.*}} : i32, memref<8xi32>
  %0 = warp.atomic_rmw <minsi> %v, %h[%i] : i32, memref<8xi32>
  // CHECK: warp.atomic_rmw <maxsi> %{{.*}} : i64, memref<8xi64>
  %1 = warp.atomic_rmw <maxsi> %y, %l[%i] : i64, memref<8xi64>
  // CHECK: warp.atomic_rmw <minui> %{{.*}} : i32, memref<8xi32>
  %2 = warp.atomic_rmw <minui> %v, %h[%i] : i32, memref<8xi32>
  // CHECK: warp.atomic_rmw <maxui> %{{.*}} : i64, memref<8xi64>
  %3 = warp.atomic_rmw <maxui> %y, %l[%i] : i64, memref<8xi64>
  // CHECK: warp.atomic_rmw <and> %{{.*}} : i32, memref<8xi32>
  %4 = warp.atomic_rmw <and> %v, %h[%i] : i32, memref<8xi32>
  // CHECK: warp.atomic_rmw <or> %{{.*}} : i64, memref<8xi64>
  %5 = warp.atomic_rmw <or> %y, %l[%i] : i64, memref<8xi64>
  // CHECK: warp.atomic_rmw <xor> %{{.*}} : i32, memref<8xi32>
  %6 = warp.atomic_rmw <xor> %v, %h[%i] : i32, memref<8xi32>
  // CHECK: warp.atomic_rmw <exch> %{{.*}} : f32, memref<8xf32>
  %7 = warp.atomic_rmw <exch> %w, %f[%i] : f32, memref<8xf32>
  // CHECK: warp.atomic_rmw <exch> %{{.*}} : i64, memref<8xi64>
  %8 = warp.atomic_rmw <exch> %y, %l[%i] : i64, memref<8xi64>
  return
}

// Device-wide collectives (host code): static and dynamic shapes, the
// exclusive scan, an in-place scan.
// CHECK-LABEL: func @device_ops
func.func @device_ops(%x: memref<?xf32>, %s: memref<1xf32>, %i: memref<128xi32>,
                      %j: memref<?xi32>, %l: memref<64xi64>, %m: memref<64xi64>,
                      %d: memref<?xf64>, %e: memref<1xf64>) {
  // CHECK: warp.device_reduce <add> %{{.*}}, %{{.*}} : memref<?xf32>, memref<1xf32>
  // GENERIC: "warp.device_reduce"(%{{.*}}, %{{.*}}) <{kind = #warp.kind<add>}> : (memref<?xf32>, memref<1xf32>) -> ()
  warp.device_reduce <add> %x, %s : memref<?xf32>, memref<1xf32>
  // CHECK: warp.device_reduce <maxsi> %{{.*}}, %{{.*}} : memref<128xi32>, memref<?xi32>
  warp.device_reduce <maxsi> %i, %j : memref<128xi32>, memref<?xi32>
  // CHECK: warp.device_reduce <minimumf> %{{.*}}, %{{.*}} : memref<?xf64>, memref<1xf64>
  warp.device_reduce <minimumf> %d, %e : memref<?xf64>, memref<1xf64>
  // CHECK: warp.device_scan <add> %{{.*}}, %{{.*}} : memref<?xf32>, memref<?xf32>{{$}}
  // GENERIC: "warp.device_scan"(%{{.*}}, %{{.*}}) <{kind = #warp.kind<add>}> : (memref<?xf32>, memref<?xf32>) -> ()
  warp.device_scan <add> %x, %x : memref<?xf32>, memref<?xf32>
  // CHECK: warp.device_scan <xor> %{{.*}}, %{{.*}} exclusive : memref<64xi64>, memref<64xi64>
  // GENERIC: "warp.device_scan"(%{{.*}}, %{{.*}}) <{exclusive, kind = #warp.kind<xor>}> : (memref<64xi64>, memref<64xi64>) -> ()
  warp.device_scan <xor> %l, %m exclusive : memref<64xi64>, memref<64xi64>
  // CHECK: warp.device_scan <mul> %{{.*}}, %{{.*}} exclusive : memref<?xi32>, memref<128xi32>
  warp.device_scan <mul> %j, %i exclusive : memref<?xi32>, memref<128xi32>
  // CHECK: warp.device_scan <maxnumf> %{{.*}}, %{{.*}} : memref<?xf64>, memref<?xf64>
  warp.device_scan <maxnumf> %d, %d : memref<?xf64>, memref<?xf64>
  return
}

// CHECK-LABEL: func @device_scan_by_key
func.func @device_scan_by_key(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<?xi8>,
                              %i: memref<128xi32>, %j: memref<128xi32>, %f: memref<200xf64>) {
  // CHECK: warp.device_scan <add> %{{.*}}, %{{.*}} keys %{{.*}} : memref<?xf32>, memref<?xf32>, memref<?xi8>{{$}}
  // GENERIC: "warp.device_scan"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = #warp.kind<add>}> : (memref<?xf32>, memref<?xf32>, memref<?xi8>) -> ()
  warp.device_scan <add> %x, %y keys %k : memref<?xf32>, memref<?xf32>, memref<?xi8>
  // CHECK: warp.device_scan <maxsi> %{{.*}}, %{{.*}} keys %{{.*}} exclusive : memref<128xi32>, memref<128xi32>, memref<200xf64>
  // GENERIC: "warp.device_scan"(%{{.*}}, %{{.*}}, %{{.*}}) <{exclusive, kind = #warp.kind<maxsi>}> : (memref<128xi32>, memref<128xi32>, memref<200xf64>) -> ()
  warp.device_scan <maxsi> %i, %i keys %f exclusive : memref<128xi32>, memref<128xi32>, memref<200xf64>
  // CHECK: warp.device_scan <mul> %{{.*}}, %{{.*}} keys %{{.*}} : memref<128xi32>, memref<128xi32>, memref<128xi32>
  warp.device_scan <mul> %i, %j keys %i : memref<128xi32>, memref<128xi32>, memref<128xi32>
  return
}

// CHECK-LABEL: func @device_select
func.func @device_select(%x: memref<?xf32>, %f: memref<?xi8>, %y: memref<100xf32>,
                         %k: memref<1xi64>, %lo: f32, %hi: f32,
                         %l: memref<2xf32>, %rgb: memref<3x256xi32>,
                         %k2: memref<2x1xi64>, %l2: memref<2x2xf32>, %f2: memref<2xi8>) {
  // CHECK: warp.device_select %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>, memref<?xi8>, memref<100xf32>, memref<1xi64>
  // GENERIC: "warp.device_select"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xf32>, memref<?xi8>, memref<100xf32>, memref<1xi64>) -> ()
  warp.device_select %x, %f, %y, %k : memref<?xf32>, memref<?xi8>, memref<100xf32>, memref<1xi64>
  // CHECK: warp.device_partition %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>, memref<?xi8>, memref<100xf32>, memref<1xi64>
  warp.device_partition %x, %f, %y, %k : memref<?xf32>, memref<?xi8>, memref<100xf32>, memref<1xi64>
  // CHECK: warp.device_select_if %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>, memref<100xf32>, memref<1xi64> pred(%[[V:.*]]: f32) {
  // CHECK-NEXT: %[[T:.*]] = arith.constant 5.000000e-01 : f32
  // CHECK-NEXT: %[[C:.*]] = arith.cmpf ogt, %[[V]], %[[T]] : f32
  // CHECK-NEXT: warp.yield %[[C]] : i1
  // CHECK-NEXT: }
  // GENERIC: "warp.device_select_if"(%{{.*}}, %{{.*}}, %{{.*}}) ({
  // GENERIC-NEXT: ^bb0(%{{.*}}: f32):
  warp.device_select_if %x, %y, %k : memref<?xf32>, memref<100xf32>, memref<1xi64> pred(%v: f32) {
    %t = arith.constant 0.5 : f32
    %c = arith.cmpf ogt, %v, %t : f32
    warp.yield %c : i1
  }
  // CHECK: warp.device_partition_if %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>, memref<100xf32>, memref<1xi64> pred(%{{.*}}: f32) {
  // CHECK: math.absf
  // CHECK: scf.if
  warp.device_partition_if %x, %y, %k : memref<?xf32>, memref<100xf32>, memref<1xi64> pred(%v: f32) {
    %a = math.absf %v : f32
    %one = arith.constant 1.0 : f32
    %big = arith.cmpf oge, %a, %one : f32
    %keep = scf.if %big -> i1 {
      %true = arith.constant true
      scf.yield %true : i1
    } else {
      %z = arith.constant 0.0 : f32
      %neg = arith.cmpf olt, %v, %z : f32
      scf.yield %neg : i1
    }
    warp.yield %keep : i1
  }
  // CHECK: warp.device_histogram %{{.*}}, %{{.*}} : memref<?xi8>, memref<1xi64>
  warp.device_histogram %f, %k : memref<?xi8>, memref<1xi64>
  // CHECK: warp.device_histogram %{{.*}}, %{{.*}} even(%{{.*}}, %{{.*}} : f32) : memref<?xf32>, memref<1xi64>
  warp.device_histogram %x, %k even(%lo, %hi : f32) : memref<?xf32>, memref<1xi64>
  // CHECK: warp.device_histogram %{{.*}}, %{{.*}} range %{{.*}} : memref<?xf32>, memref<1xi64>, memref<2xf32>
  warp.device_histogram %x, %k range %l : memref<?xf32>, memref<1xi64>, memref<2xf32>
  // CHECK: warp.device_histogram %{{.*}}, %{{.*}} channels 4 : memref<?xi8>, memref<3x256xi32>
  warp.device_histogram %f, %rgb channels 4 : memref<?xi8>, memref<3x256xi32>
  // CHECK: warp.device_histogram %{{.*}}, %{{.*}} channels 2 even(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32) : memref<?xf32>, memref<2x1xi64>
  warp.device_histogram %x, %k2 channels 2 even(%lo, %hi, %lo, %hi : f32) : memref<?xf32>, memref<2x1xi64>
  // CHECK: warp.device_histogram %{{.*}}, %{{.*}} channels 3 range %{{.*}} : memref<?xf32>, memref<2x1xi64>, memref<2x2xf32>
  warp.device_histogram %x, %k2 channels 3 range %l2 : memref<?xf32>, memref<2x1xi64>, memref<2x2xf32>
  // Levels of another type than the samples.
  // CHECK: warp.device_histogram %{{.*}}, %{{.*}} unsigned even(%{{.*}}, %{{.*}} : f32) : memref<?xi8>, memref<1xi64>
  warp.device_histogram %f, %k unsigned even(%lo, %hi : f32) : memref<?xi8>, memref<1xi64>
  // CHECK: warp.device_histogram %{{.*}}, %{{.*}} unsigned_levels range %{{.*}} : memref<?xf32>, memref<1xi64>, memref<2xi8>
  // GENERIC: "warp.device_histogram"(%{{.*}}, %{{.*}}, %{{.*}}) <{levels_unsigned, operandSegmentSizes = array<i32: 1, 1, 0, 1>}>
  warp.device_histogram %x, %k unsigned_levels range %f2 : memref<?xf32>, memref<1xi64>, memref<2xi8>
  // CHECK: warp.device_unique %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>, memref<100xf32>, memref<1xi64>
  warp.device_unique %x, %y, %k : memref<?xf32>, memref<100xf32>, memref<1xi64>
  return
}

// CHECK-LABEL: func @device_run_length_encode
func.func @device_run_length_encode(%x: memref<?xf32>, %y: memref<100xf32>, %c: memref<?xi32>,
                                    %b: memref<?xi8>, %b2: memref<?xi8>, %c64: memref<7xi64>,
                                    %k: memref<1xi64>) {
  // CHECK: warp.device_run_length_encode %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>, memref<100xf32>, memref<?xi32>, memref<1xi64>
  // GENERIC: "warp.device_run_length_encode"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xf32>, memref<100xf32>, memref<?xi32>, memref<1xi64>) -> ()
  warp.device_run_length_encode %x, %y, %c, %k : memref<?xf32>, memref<100xf32>, memref<?xi32>, memref<1xi64>
  // CHECK: warp.device_run_length_encode %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xi8>, memref<?xi8>, memref<7xi64>, memref<1xi64>
  warp.device_run_length_encode %b, %b2, %c64, %k : memref<?xi8>, memref<?xi8>, memref<7xi64>, memref<1xi64>
  return
}

// CHECK-LABEL: func @device_non_trivial_runs
func.func @device_non_trivial_runs(%x: memref<?xf32>, %o: memref<100xi32>, %l: memref<?xi64>,
                                   %k: memref<1xi64>) {
  // CHECK: warp.device_non_trivial_runs %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>, memref<100xi32>, memref<?xi64>, memref<1xi64>
  // GENERIC: "warp.device_non_trivial_runs"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xf32>, memref<100xi32>, memref<?xi64>, memref<1xi64>) -> ()
  warp.device_non_trivial_runs %x, %o, %l, %k : memref<?xf32>, memref<100xi32>, memref<?xi64>, memref<1xi64>
  return
}

// CHECK-LABEL: func @device_radix_sort
func.func @device_radix_sort(%k: memref<?xf32>, %k2: memref<100xf32>, %i: memref<?xi32>,
                             %i2: memref<?xi32>, %v: memref<?xi64>, %v2: memref<?xi64>) {
  // CHECK: warp.device_radix_sort %{{.*}}, %{{.*}} : memref<?xf32>, memref<100xf32>
  // GENERIC: "warp.device_radix_sort"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<?xf32>, memref<100xf32>) -> ()
  warp.device_radix_sort %k, %k2 : memref<?xf32>, memref<100xf32>
  // CHECK: warp.device_radix_sort %{{.*}}, %{{.*}} values %{{.*}}, %{{.*}} descending signed bits 4 to 20 : memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64>
  warp.device_radix_sort %i, %i2 values %v, %v2 descending signed bits 4 to 20
      : memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64>
  // CHECK: warp.device_radix_sort %{{.*}}, %{{.*}} descending : memref<?xi64>, memref<?xi64>
  warp.device_radix_sort %v, %v2 descending : memref<?xi64>, memref<?xi64>
  // CHECK: %{{.*}} = warp.device_radix_sort %{{.*}}, %{{.*}} values %{{.*}}, %{{.*}} bits 0 to 12 double_buffer : memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64> -> i32
  // GENERIC: "warp.device_radix_sort"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{begin_bit = 0 : i32, double_buffer, end_bit = 12 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64>) -> i32
  %current = warp.device_radix_sort %i, %i2 values %v, %v2 bits 0 to 12 double_buffer
      : memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64> -> i32
  return
}

// CHECK-LABEL: func @device_segmented_reduce
func.func @device_segmented_reduce(%x: memref<?xf16>, %y: memref<8xf16>, %b: memref<?xi32>,
                                   %e: memref<9xi64>, %init: f16) {
  // CHECK: warp.device_segmented_reduce <add> %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf16>, memref<8xf16>, memref<?xi32>, memref<9xi64>{{$}}
  // GENERIC: "warp.device_segmented_reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kind = #warp.kind<add>}> : (memref<?xf16>, memref<8xf16>, memref<?xi32>, memref<9xi64>) -> ()
  warp.device_segmented_reduce <add> %x, %y, %b, %e : memref<?xf16>, memref<8xf16>, memref<?xi32>, memref<9xi64>
  // CHECK: warp.device_segmented_reduce <maxnumf> %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} init %{{.*}} : memref<?xf16>, memref<8xf16>, memref<?xi32>, memref<?xi32>, f16
  // GENERIC: "warp.device_segmented_reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kind = #warp.kind<maxnumf>}> : (memref<?xf16>, memref<8xf16>, memref<?xi32>, memref<?xi32>, f16) -> ()
  warp.device_segmented_reduce <maxnumf> %x, %y, %b, %b init %init
      : memref<?xf16>, memref<8xf16>, memref<?xi32>, memref<?xi32>, f16
  return
}

// CHECK-LABEL: func @device_segmented_radix_sort
func.func @device_segmented_radix_sort(%k: memref<?xf32>, %o: memref<?xf32>, %b: memref<?xi32>,
                                       %e: memref<?xi64>, %i: memref<?xi16>, %j: memref<?xi16>,
                                       %v: memref<?xi64>, %w: memref<?xi64>) {
  // CHECK: warp.device_segmented_radix_sort %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi64>{{$}}
  // GENERIC: "warp.device_segmented_radix_sort"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>}> : (memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi64>) -> ()
  warp.device_segmented_radix_sort %k, %o, %b, %e : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi64>
  // CHECK: warp.device_segmented_radix_sort %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} values %{{.*}}, %{{.*}} descending signed bits 2 to 9 : memref<?xi16>, memref<?xi16>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>{{$}}
  // GENERIC: "warp.device_segmented_radix_sort"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{begin_bit = 2 : i32, descending, end_bit = 9 : i32, is_signed, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>}>
  warp.device_segmented_radix_sort %i, %j, %e, %e values %v, %w descending signed bits 2 to 9
      : memref<?xi16>, memref<?xi16>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>
  // CHECK: %{{.*}} = warp.device_segmented_radix_sort %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} values %{{.*}}, %{{.*}} descending double_buffer : memref<?xi16>, memref<?xi16>, memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64> -> i32
  // GENERIC: "warp.device_segmented_radix_sort"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{descending, double_buffer, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>}> : (memref<?xi16>, memref<?xi16>, memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64>) -> i32
  %current = warp.device_segmented_radix_sort %i, %j, %b, %b values %v, %w descending double_buffer
      : memref<?xi16>, memref<?xi16>, memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi64> -> i32
  return
}

// CHECK-LABEL: func @device_scan_combine_by_key
func.func @device_scan_combine_by_key(%x: memref<?xi32>, %y: memref<?xi32>, %k: memref<?xf32>,
                                      %init: i32) {
  // CHECK: warp.device_scan_combine %{{.*}} init(%{{.*}} : i32) into %{{.*}} keys %{{.*}} exclusive : memref<?xi32> -> memref<?xi32> keys memref<?xf32> combine (%{{.*}}: i32, %{{.*}}: i32) {
  // CHECK: arith.maxsi
  // CHECK: } equal(%[[P:.*]]: f32, %[[Q:.*]]: f32) {
  // CHECK-NEXT: %[[E:.*]] = arith.cmpf oeq, %[[P]], %[[Q]] : f32
  // CHECK-NEXT: warp.yield %[[E]] : i1
  // GENERIC: "warp.device_scan_combine"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{exclusive, operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  warp.device_scan_combine %x init(%init : i32) into %y keys %k exclusive
      : memref<?xi32> -> memref<?xi32> keys memref<?xf32>
      combine (%a: i32, %b: i32) {
    %m = arith.maxsi %a, %b : i32
    warp.yield %m : i32
  } equal(%p: f32, %q: f32) {
    %e = arith.cmpf oeq, %p, %q : f32
    warp.yield %e : i1
  }
  // Keys without an equal region: the key type's ==.
  // CHECK: warp.device_scan_combine %{{.*}} into %{{.*}} keys %{{.*}} : memref<?xi32> -> memref<?xi32> keys memref<?xf32> combine
  // CHECK-NOT: equal
  // CHECK: return
  warp.device_scan_combine %x into %y keys %k
      : memref<?xi32> -> memref<?xi32> keys memref<?xf32>
      combine (%a: i32, %b: i32) {
    %s = arith.addi %a, %b : i32
    warp.yield %s : i32
  }
  return
}

// CHECK-LABEL: func @cluster_ops
func.func @cluster_ops(%x: f32, %i: i8, %d: f64, %r: i32, %t: i32) {
  // CHECK: warp.cluster_reduce <add> %{{.*}} : f32
  // GENERIC: "warp.cluster_reduce"(%{{.*}}) <{kind = #warp.kind<add>}> : (f32) -> f32
  %0 = warp.cluster_reduce <add> %x : f32
  // CHECK: warp.cluster_reduce <xor> %{{.*}} : i8
  %1 = warp.cluster_reduce <xor> %i : i8
  // CHECK: %{{.*}}, %{{.*}} = warp.cluster_scan <maximumf> %{{.*}} exclusive : f64
  %2:2 = warp.cluster_scan <maximumf> %d exclusive : f64
  // CHECK: %{{.*}}, %{{.*}} = warp.cluster_scan <minui> %{{.*}} : i32
  %3:2 = warp.cluster_scan <minui> %r : i32
  // CHECK: warp.cluster_broadcast %{{.*}}, %{{.*}}, %{{.*}} : f64
  %4 = warp.cluster_broadcast %d, %r, %t : f64
  return
}
