// warp.device_non_trivial_runs: the kernels and launches of
// warp-expand-device-ops (unique's selection kernel keeping the heads of
// runs of two or more with the lengths of those that end in the tile, then
// a thread per tile for the run that each tile ends but an earlier one
// starts), and the whole pipeline to PTX that
// ptxas takes, for narrow and wide elements and both offset and length
// types.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=EXPAND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// EXPAND-LABEL: func.func @r
// The three kernels in order, over one scratch: status words, the
// selection, the carry; a selection of one tile launches neither the first
// (nothing to look back at) nor the last (no run starts before its tile).
// EXPAND: gpu.alloc async
// EXPAND: scf.if
// EXPAND: gpu.launch_func async {{.*}} @warp_device_non_trivial_runs_f64_i32_i64::@scan_init
// EXPAND: %[[SEL:.*]] = gpu.launch_func async {{.*}} @warp_device_non_trivial_runs_f64_i32_i64::@non_trivial_runs blocks in (%[[GRID:[^,]*]],
// EXPAND: %[[MANY:.*]] = arith.cmpi ugt, %[[GRID]], %c1
// EXPAND-NEXT: scf.if %[[MANY]] {
// EXPAND: gpu.launch_func async [%[[SEL]]] @warp_device_non_trivial_runs_f64_i32_i64::@non_trivial_carry
// EXPAND: gpu.dealloc async
// EXPAND: } else {
// EXPAND-NEXT: gpu.dealloc async [%[[SEL]]]
// Only positions are staged (no copy of the items), in i16: the heads'
// and the ends'.
// EXPAND: gpu.module @warp_device_non_trivial_runs_f64_i32_i64 attributes {warp.device_scratch = array<i64: 0, 24, 2048>}
// EXPAND: gpu.func @non_trivial_runs({{.*}}) workgroup(%[[STARTS:.*]] : memref<2049xi16, #gpu.address_space<workgroup>>, %[[ENDS:.*]] : memref<2049xi16, #gpu.address_space<workgroup>>)
// EXPAND-SAME: warp.device_grid = 2048
// Each element against the one before it and the one after it.
// EXPAND: warp.block_shuffle <offset> {{.*}}, %{{.*}} : f64
// EXPAND: warp.block_shuffle <offset> {{.*}}, %{{.*}} : f64
// EXPAND: arith.cmpf une
// A tile that starts with a head has no run open before it: thread 0
// marks slot 0 of the ends as no end.
// EXPAND: %[[ZERO16:.*]] = arith.constant 0 : i16
// EXPAND: memref.store %[[ZERO16]], %[[ENDS]][%c0{{.*}}]
// Each end at its run's slot (one past the tile's run, 0 the run open
// before the tile), each head at its run's.
// EXPAND: arith.trunci {{.*}} : i64 to i16
// EXPAND: memref.store {{.*}}, %[[ENDS]][
// EXPAND: arith.trunci {{.*}} : i64 to i16
// EXPAND: memref.store {{.*}}, %[[STARTS]][
// The tile's last element, no end: its run goes on.
// EXPAND: memref.store %{{.*}}, %[[ENDS]][
// EXPAND: gpu.barrier
// Coalesced: each run's offset, and its length where it ends in the tile.
// EXPAND: scf.for
// EXPAND: memref.load %[[STARTS]]
// EXPAND: memref.store
// EXPAND: memref.load %[[ENDS]]
// EXPAND: %[[ENDED:.*]] = arith.cmpi ne, %{{.*}}, %c0{{.*}} : i64
// EXPAND-NEXT: scf.if %[[ENDED]] {
// EXPAND-NEXT: arith.subi {{.*}} : i64
// EXPAND-NEXT: memref.store
// The run open before the tile: its end in the input (0: none) for the
// carry, with the runs before the tile.
// EXPAND: memref.load %[[ENDS]][%c0
// EXPAND: arith.select
// EXPAND: llvm.store
// EXPAND: llvm.store
// The carry: a thread per tile, each with an end makes the length of the
// last run before it: the end less the run's offset.
// EXPAND: gpu.func @non_trivial_carry
// EXPAND-SAME: warp.device_skip_if_single
// EXPAND: %[[END:.*]] = llvm.load
// EXPAND: %[[CARRIED:.*]] = arith.cmpi ne, %[[END]], %c0
// EXPAND-NEXT: scf.if %[[CARRIED]] {
// EXPAND: %[[RUNS:.*]] = llvm.load
// EXPAND: %[[LAST:.*]] = arith.subi %[[RUNS]], %c1
// EXPAND: %[[IDX:.*]] = arith.index_cast %[[LAST]]
// EXPAND: %[[OFFSET:.*]] = memref.load %{{.*}}[%[[IDX]]] : memref<?xi32>
// EXPAND: %[[START:.*]] = arith.extui %[[OFFSET]] : i32 to i64
// EXPAND: %[[LENGTH:.*]] = arith.subi %[[END]], %[[START]] : i64
// EXPAND: memref.store %[[LENGTH]], %{{.*}}[%[[IDX]]] : memref<?xi64>
// Narrow elements take tiles of 16 items per thread, as the 4-byte ones.
// EXPAND: gpu.module @warp_device_non_trivial_runs_i8_i64_i32 attributes {warp.device_scratch = array<i64: 0, 24, 4096>}
// EXPAND: memref<4097xi16, #gpu.address_space<workgroup>>
// EXPAND: gpu.func @non_trivial_carry
// EXPAND: arith.trunci {{.*}} : i64 to i32

// CHECK: warp_device_non_trivial_runs_bf16_i32_i32.ptx
// CHECK-NEXT: warp_device_non_trivial_runs_f64_i32_i64.ptx
// CHECK-NEXT: warp_device_non_trivial_runs_i8_i64_i32.ptx
func.func @r(%a: memref<?xf64>, %b: memref<?xi8>, %d: memref<?xbf16>,
             %o32: memref<?xi32>, %o64: memref<?xi64>, %l32: memref<?xi32>, %l64: memref<?xi64>,
             %k: memref<1xi64>) {
  warp.device_non_trivial_runs %a, %o32, %l64, %k : memref<?xf64>, memref<?xi32>, memref<?xi64>, memref<1xi64>
  warp.device_non_trivial_runs %b, %o64, %l32, %k : memref<?xi8>, memref<?xi64>, memref<?xi32>, memref<1xi64>
  warp.device_non_trivial_runs %d, %o32, %l32, %k : memref<?xbf16>, memref<?xi32>, memref<?xi32>, memref<1xi64>
  return
}
