// warp.device_non_trivial_runs: the kernels and launches of
// warp-expand-device-ops (unique's selection kernel keeping the heads of
// runs of two or more and writing the ends of those runs, then a kernel
// that turns each end into a length), and the whole pipeline to PTX that
// ptxas takes, for narrow and wide elements and both offset and length
// types.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=EXPAND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// EXPAND-LABEL: func.func @r
// The three kernels in order, over one scratch: status words, the
// selection, the lengths (a thread per two elements, capped); a selection of one
// tile launches neither the first (nothing to look back at) nor the last
// (it makes the lengths itself).
// EXPAND: gpu.alloc async
// EXPAND: scf.if
// EXPAND: gpu.launch_func async {{.*}} @warp_device_non_trivial_runs_f64_i32_i64::@scan_init
// EXPAND: %[[SEL:.*]] = gpu.launch_func async {{.*}} @warp_device_non_trivial_runs_f64_i32_i64::@non_trivial_runs blocks in (%[[GRID:[^,]*]],
// EXPAND: %[[MANY:.*]] = arith.cmpi ugt, %[[GRID]], %c1
// EXPAND-NEXT: scf.if %[[MANY]] {
// EXPAND: gpu.launch_func async [%[[SEL]]] @warp_device_non_trivial_runs_f64_i32_i64::@non_trivial_lengths
// EXPAND: gpu.dealloc async
// EXPAND: } else {
// EXPAND-NEXT: gpu.dealloc async [%[[SEL]]]
// Only the positions are staged (no copy of the items), in i16.
// EXPAND: gpu.module @warp_device_non_trivial_runs_f64_i32_i64 attributes {warp.device_scratch = array<i64: 0, 24, 2048>}
// EXPAND: gpu.func @non_trivial_runs({{.*}}) workgroup({{.*}}memref<2049xi16, #gpu.address_space<workgroup>>)
// EXPAND-SAME: warp.device_grid = 2048
// Each element against the one before it and the one after it.
// EXPAND: warp.block_shuffle <offset> {{.*}}, %{{.*}} : f64
// EXPAND: warp.block_shuffle <offset> {{.*}}, %{{.*}} : f64
// EXPAND: arith.cmpf une
// One tile: a barrier, then its runs' lengths (end less offset).
// EXPAND: %[[ONE:.*]] = arith.cmpi eq, %{{.*}}, %c1{{.*}} : index
// EXPAND-NEXT: scf.if %[[ONE]] {
// EXPAND-NEXT: gpu.barrier
// EXPAND: scf.for
// EXPAND: arith.subi {{.*}} : i64
// At most 1024 blocks (kNonTrivialLengthsMaxBlocks), whose threads
// stride over the runs.
// EXPAND: gpu.func @non_trivial_lengths
// EXPAND-SAME: warp.device_grid = 512
// EXPAND-SAME: warp.device_grid_max = 1024
// EXPAND-SAME: warp.device_skip_if_single
// EXPAND: %[[STRIDE:.*]] = arith.muli %grid_dim_x, %c256
// EXPAND: %[[RUNS:.*]] = arith.index_cast %{{.*}} : i64 to index
// EXPAND: scf.for %{{.*}} = %{{.*}} to %[[RUNS]] step %[[STRIDE]]
// EXPAND: arith.subi {{.*}} : i64
// Narrow elements take tiles of 16 items per thread, as the 4-byte ones.
// EXPAND: gpu.module @warp_device_non_trivial_runs_i8_i64_i32 attributes {warp.device_scratch = array<i64: 0, 24, 4096>}
// EXPAND: memref<4097xi16, #gpu.address_space<workgroup>>
// EXPAND: gpu.func @non_trivial_lengths
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
