// warp.device_segmented_reduce_combine: a module of its own per op (its
// region is part of the kernel), one launch of a block per segment (up to
// the cap, counted on outputs#0) given (inputs, init, outputs, begin, end,
// scratch, n); in the kernel each block folds its segment's tiles in
// order from init, each tile as a warp.device_reduce_combine tile is
// (warp.block_load, each thread's items folded from the left, the
// region's warp.block_reduce with valid_threads); and the whole pipeline
// to PTX that ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: warp-opt %s | warp-opt | FileCheck %s --check-prefix=ROUND
// RUN: warp-opt %s --mlir-print-op-generic | warp-opt | FileCheck %s --check-prefix=ROUND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// ROUND-LABEL: func.func @argmin(
// ROUND: warp.device_segmented_reduce_combine %{{.*}}, %{{.*}} init(%{{.*}}, %{{.*}} : f32, i32) into %{{.*}}, %{{.*}} segments(%{{.*}}, %{{.*}} : memref<?xi32>, memref<?xi64>) : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32> combine (%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32) {
// ROUND: warp.yield

// FILES: warp_device_segmented_reduce_combine_f32_i32_i32_i64.ptx
// FILES-NEXT: warp_device_segmented_reduce_combine_i8_f64_i64_i64.ptx

// CHECK-LABEL: func.func @argmin(
// CHECK: %[[SEGMENTS:[^ ]+]] = memref.dim %arg2, %{{.*}} : memref<?xf32>
// CHECK: %[[BLOCKS:[^ ]+]] = arith.ceildivui %[[SEGMENTS]], %{{.*}} : index
// CHECK: %[[GRID:[^ ]+]] = arith.maxui %[[BLOCKS]], %{{.*}} : index
// CHECK: %[[CAP:[^ ]+]] = arith.constant 65536 : index
// CHECK: %[[CAPPED:[^ ]+]] = arith.minui %[[GRID]], %[[CAP]] : index
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_segmented_reduce_combine_f32_i32_i32_i64::@segmented_reduce blocks in (%[[CAPPED]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %{{.*}} : f32, %{{.*}} : i32, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: warp.device_
// CHECK-LABEL: func.func @mixed(
// CHECK: @warp_device_segmented_reduce_combine_i8_f64_i64_i64::@segmented_reduce

// The kernel: segments blockIdx.x, + gridDim.x, ...; each segment's tiles
// of 256 x 16 f32 folded from init; an empty segment (end <= begin) runs
// no tile and stores init.
// CHECK-LABEL: gpu.module @warp_device_segmented_reduce_combine_f32_i32_i32_i64 attributes {warp.device_scratch = array<i64: 8, 0, 1>}
// CHECK: gpu.func @segmented_reduce(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi32>, %[[INIT:.*]]: f32, %[[INITI:.*]]: i32, %[[OUT:.*]]: memref<?xf32>, %[[OUTI:.*]]: memref<?xi32>, %[[BEGIN:.*]]: memref<?xi32>, %[[END:.*]]: memref<?xi64>, %{{.*}}: memref<?xi8>, %{{.*}}: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 1 : i64, warp.device_grid_max = 65536 : i64, warp.device_grid_operand = 4 : i64}
// CHECK: %[[S:.*]] = memref.dim %[[OUT]]
// CHECK: scf.for %[[SEG:.*]] = %{{.*}} to %[[S]] step %{{.*}} {
// CHECK: %[[B32:.*]] = memref.load %[[BEGIN]][%[[SEG]]] : memref<?xi32>
// CHECK: %[[FIRST:.*]] = arith.index_cast %[[B32]] : i32 to index
// CHECK: %[[E64:.*]] = memref.load %[[END]][%[[SEG]]] : memref<?xi64>
// CHECK: %[[LAST:.*]] = arith.index_cast %[[E64]] : i64 to index
// CHECK: %[[TILES:.*]]:2 = scf.for %[[AT:.*]] = %[[FIRST]] to %[[LAST]] step %{{.*}} iter_args(%[[L:.*]] = %[[INIT]], %[[LI:.*]] = %[[INITI]]) -> (f32, i32) {
// CHECK: warp.block_load %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK: warp.block_load %{{.*}} : memref<?xi32>, vector<16xi32>
// CHECK-COUNT-15: scf.if %{{.*}} -> (f32, i32)
// CHECK: warp.block_reduce %{{.*}}, %{{.*}} valid_threads %{{.*}} : f32, i32 combine (
// CHECK: arith.cmpf olt
// The tile's partial on the right of the fold so far.
// CHECK: arith.cmpf olt, %{{.*}}, %[[L]] : f32
// CHECK: scf.yield
// CHECK: memref.store %[[TILES]]#0, %[[OUT]][%[[SEG]]] : memref<?xf32>
// CHECK: memref.store %[[TILES]]#1, %[[OUTI]][%[[SEG]]] : memref<?xi32>
// CHECK-LABEL: gpu.module @warp_device_segmented_reduce_combine_i8_f64_i64_i64
// CHECK: warp.block_load %{{.*}} : memref<?xi8>, vector<8xi8>
// CHECK: warp.block_load %{{.*}} : memref<?xf64>, vector<8xf64>

func.func @argmin(%v: memref<?xf32>, %i: memref<?xi32>, %m: memref<?xf32>, %mi: memref<?xi32>,
                  %b: memref<?xi32>, %e: memref<?xi64>, %v0: f32, %i0: i32) {
  // Ties go to the left: the lowering must keep the input order.
  warp.device_segmented_reduce_combine %v, %i init(%v0, %i0 : f32, i32) into %m, %mi
      segments(%b, %e : memref<?xi32>, memref<?xi64>)
      : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32>
      combine (%l: f32, %li: i32, %r: f32, %ri: i32) {
    %lt = arith.cmpf olt, %r, %l : f32
    %s = arith.select %lt, %r, %l : f32
    %si = arith.select %lt, %ri, %li : i32
    warp.yield %s, %si : f32, i32
  }
  return
}

func.func @mixed(%c: memref<?xi8>, %q: memref<?xf64>, %cc: memref<4xi8>, %qq: memref<4xf64>,
                 %o: memref<?xi64>, %c0: i8, %q0: f64) {
  warp.device_segmented_reduce_combine %c, %q init(%c0, %q0 : i8, f64) into %cc, %qq
      segments(%o, %o : memref<?xi64>, memref<?xi64>)
      : memref<?xi8>, memref<?xf64> -> memref<4xi8>, memref<4xf64>
      combine (%l: i8, %lq: f64, %r: i8, %rq: f64) {
    %s = arith.addi %l, %r : i8
    %sq = arith.addf %lq, %rq : f64
    warp.yield %s, %sq : i8, f64
  }
  return
}
