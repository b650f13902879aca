// warp.device_scan_combine: a module of kernels per op (its region is part
// of them), scan_init then scan launched with the init values' bits as
// kernel parameters between the inputs and the outputs; tiles sized by
// the tuple's bytes (f32 + i32: 8 items a thread; i8 + f64, 9 bytes: 4),
// padded with copies of the last element; the region copied into
// warp.block_scan's combine form, tuples published in slots of the
// scratch (a status word and a total and prefix slot per element: 8 + 16
// N bytes a tile) and looked back at with the region's operands swapped
// in a warp.reduce over the counted lanes; an exclusive tile's items moved
// by one through warp.block_shuffle; and the whole pipeline to PTX that
// ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: warp-opt %s | warp-opt | FileCheck %s --check-prefix=ROUND
// RUN: warp-opt %s --mlir-print-op-generic | warp-opt | FileCheck %s --check-prefix=ROUND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// ROUND-LABEL: func.func @argmax(
// ROUND: warp.device_scan_combine %{{.*}}, %{{.*}} into %{{.*}}, %{{.*}} : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32> combine (%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32) {
// ROUND: warp.yield
// ROUND-LABEL: func.func @affine(
// ROUND: warp.device_scan_combine %[[A:.*]], %[[B:.*]] init(%{{.*}}, %{{.*}} : i32, i32) into %[[A]], %[[B]] exclusive : memref<?xi32>, memref<?xi32> -> memref<?xi32>, memref<?xi32> combine (
// ROUND-LABEL: func.func @mixed(
// ROUND: warp.device_scan_combine %{{.*}}, %{{.*}} init(%{{.*}}, %{{.*}} : i8, f64) into

// The host side: the scratch, the two launches, each given (inputs, init
// bits, outputs, scratch, n).
// CHECK-LABEL: func.func @argmax(
// CHECK: gpu.alloc async
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_scan_combine_f32_i32::@scan_init
// CHECK-SAME: args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_scan_combine_f32_i32::@scan
// CHECK: gpu.dealloc async
// CHECK-NOT: warp.device_
// CHECK-LABEL: func.func @affine(
// CHECK: @warp_device_scan_combine_i32_i32_init_exclusive::@scan_init
// CHECK-SAME: %{{.*}} : i32, %{{.*}} : i32,
// CHECK: @warp_device_scan_combine_i32_i32_init_exclusive::@scan
// CHECK-LABEL: func.func @mixed(
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f64 to i64
// CHECK: @warp_device_scan_combine_i8_f64_init::@scan_init
// CHECK-SAME: %{{.*}} : i8, %[[BITS]] : i64,
// CHECK: @warp_device_scan_combine_i8_f64_init::@scan

// The inclusive scan without init: tiles of 2048 (8 items a thread).
// CHECK-LABEL: gpu.module @warp_device_scan_combine_f32_i32 attributes {warp.device_scratch = array<i64: 0, 40, 2048>}
// CHECK: gpu.func @scan_init(
// CHECK: gpu.func @scan({{.*}}warp.device_grid = 2048 : i64
// The ragged tile's padding: the last element, loaded only there.
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: memref.load
// CHECK: warp.block_load %{{.*}} : memref<?xf32>, vector<8xf32>
// CHECK: warp.block_load %{{.*}} : memref<?xi32>, vector<8xi32>
// CHECK: warp.block_scan %{{.*}}, %{{.*}} items : vector<8xf32>, vector<8xi32>, f32, i32 combine (%[[A1:.*]]: f32, %{{.*}}: i32, %[[B1:.*]]: f32, %{{.*}}: i32) {
// CHECK-NEXT: arith.cmpf ogt, %[[B1]], %[[A1]] : f32
// Tile 0 publishes its total as its prefix, the others their total:
// two slots and a release of the flag each.
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}} atomic syncscope("device") release
// The look-back: windows of 32 predecessors (lane 0 the nearest), each
// lane spinning on its flag, the counted lanes reduced with the region's
// operands swapped (lane 0's tile last), the windows so far after them.
// CHECK: scf.while ({{.*}}) : (i64, f32, i32, i1) -> (i64, f32, i32, i1)
// CHECK: llvm.load %{{.*}} atomic syncscope("device") acquire
// CHECK: warp.vote <any>
// CHECK: nvvm.nanosleep
// CHECK: warp.ballot
// CHECK: math.cttz
// CHECK: warp.reduce %{{.*}}, %{{.*}} valid_lanes %{{.*}} : f32, i32 combine (%[[L:.*]]: f32, %{{.*}}: i32, %[[R:.*]]: f32, %{{.*}}: i32) {
// CHECK-NEXT: arith.cmpf ogt, %[[L]], %[[R]] : f32
// CHECK: warp.block_broadcast %{{.*}} : f32
// CHECK: warp.block_broadcast %{{.*}} : i32
// Tile 0 keeps its items, the others put the prefix in front of each.
// CHECK: scf.if %{{.*}} -> (vector<8xf32>, vector<8xi32>)
// CHECK: warp.block_store %{{.*}} : vector<8xf32>, memref<?xf32>
// CHECK: warp.block_store %{{.*}} : vector<8xi32>, memref<?xi32>

// Exclusive with init: init bits as parameters, tile 0 starting from init;
// the items moved one later, the previous thread's last through a shuffle.
// CHECK-LABEL: gpu.module @warp_device_scan_combine_i32_i32_init_exclusive
// CHECK: gpu.func @scan(
// CHECK: warp.block_scan
// CHECK: scf.while
// CHECK: warp.reduce {{.*}} valid_lanes
// CHECK: warp.block_shuffle <offset> %{{.*}}, %{{.*}} : i32
// CHECK: warp.block_store
// CHECK: warp.block_shuffle <offset> %{{.*}}, %{{.*}} : i32
// CHECK: warp.block_store

// i8 + f64 (9 bytes, tiles of 16-byte items: 4 a thread): slots for two
// elements a tile; f64 init arrives as its bits.
// CHECK-LABEL: gpu.module @warp_device_scan_combine_i8_f64_init attributes {warp.device_scratch = array<i64: 0, 40, 1024>}
// CHECK: gpu.func @scan(%{{.*}}: memref<?xi8>, %{{.*}}: memref<?xf64>, %{{.*}}: i8, %[[INIT:.*]]: i64,
// CHECK: arith.bitcast %[[INIT]] : i64 to f64
// CHECK: warp.block_load %{{.*}} : memref<?xi8>, vector<4xi8>
// CHECK: warp.block_load %{{.*}} : memref<?xf64>, vector<4xf64>
// CHECK-NOT: warp.block_shuffle
// CHECK: gpu.return

// bf16, f16 and i16 (6 bytes, tiles of 8-byte items): the floats' init
// values arrive as i16 bits.
// CHECK-LABEL: gpu.module @warp_device_scan_combine_bf16_f16_i16_init_exclusive attributes {warp.device_scratch = array<i64: 0, 56, 2048>}
// CHECK: gpu.func @scan(%{{.*}}: memref<?xbf16>, %{{.*}}: memref<?xf16>, %{{.*}}: memref<?xi16>, %[[B:.*]]: i16, %[[H:.*]]: i16, %[[I:.*]]: i16,
// CHECK-DAG: arith.bitcast %[[B]] : i16 to bf16
// CHECK-DAG: arith.bitcast %[[H]] : i16 to f16
// CHECK: warp.block_scan %{{.*}}, %{{.*}}, %{{.*}} items : vector<8xbf16>, vector<8xf16>, vector<8xi16>, bf16, f16, i16 combine (

// FILES: warp_device_scan_combine_bf16_f16_i16_init_exclusive.ptx
// FILES-NEXT: warp_device_scan_combine_f32_i32.ptx
// FILES-NEXT: warp_device_scan_combine_i32_i32_init_exclusive.ptx
// FILES-NEXT: warp_device_scan_combine_i8_f64_init.ptx

func.func @argmax(%v: memref<?xf32>, %i: memref<?xi32>, %m: memref<?xf32>, %mi: memref<?xi32>) {
  // A running argmax whose ties go to the left: the lowering must keep
  // the input order.
  warp.device_scan_combine %v, %i into %m, %mi
      : memref<?xf32>, memref<?xi32> -> memref<?xf32>, memref<?xi32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    %gt = arith.cmpf ogt, %b, %a : f32
    %r = arith.select %gt, %b, %a : f32
    %ri = arith.select %gt, %bi, %ai : i32
    warp.yield %r, %ri : f32, i32
  }
  return
}

func.func @affine(%a: memref<?xi32>, %b: memref<?xi32>, %a0: i32, %b0: i32) {
  // Composition of x -> a x + b, init first, in place.
  warp.device_scan_combine %a, %b init(%a0, %b0 : i32, i32) into %a, %b exclusive
      : memref<?xi32>, memref<?xi32> -> memref<?xi32>, memref<?xi32>
      combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
    %a3 = arith.muli %a2, %a1 : i32
    %t = arith.muli %a2, %b1 : i32
    %b3 = arith.addi %t, %b2 : i32
    warp.yield %a3, %b3 : i32, i32
  }
  return
}

func.func @mixed(%c: memref<300xi8>, %s: memref<?xf64>, %oc: memref<?xi8>, %os: memref<300xf64>) {
  %c0 = arith.constant 0 : i8
  %s0 = arith.constant 0.5 : f64
  warp.device_scan_combine %c, %s init(%c0, %s0 : i8, f64) into %oc, %os
      : memref<300xi8>, memref<?xf64> -> memref<?xi8>, memref<300xf64>
      combine (%a: i8, %x: f64, %b: i8, %y: f64) {
    %n = arith.addi %a, %b : i8
    %t = arith.addf %x, %y : f64
    warp.yield %n, %t : i8, f64
  }
  return
}

func.func @half(%a: memref<?xbf16>, %b: memref<?xf16>, %i: memref<?xi16>,
                %a0: bf16, %b0: f16, %i0: i16) {
  warp.device_scan_combine %a, %b, %i init(%a0, %b0, %i0 : bf16, f16, i16) into %a, %b, %i exclusive
      : memref<?xbf16>, memref<?xf16>, memref<?xi16> -> memref<?xbf16>, memref<?xf16>, memref<?xi16>
      combine (%x: bf16, %y: f16, %z: i16, %u: bf16, %v: f16, %w: i16) {
    %s = arith.maximumf %x, %u : bf16
    %t = arith.addf %y, %v : f16
    %r = arith.xori %z, %w : i16
    warp.yield %s, %t, %r : bf16, f16, i16
  }
  return
}
