// warp.device_non_trivial_runs: the kernels and launches of
// warp-expand-device-ops (unique's selection kernel keeping the heads of
// runs of two or more, writing the length of each run at its end, in one
// pass), and the whole pipeline to PTX that ptxas takes, for narrow and
// wide elements and both offset and length types.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=EXPAND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// EXPAND-LABEL: func.func @r
// Two kernels in order over one scratch: scan_init, then the selection; a
// selection of one tile looks back at nothing and skips scan_init.
// EXPAND: gpu.alloc async
// EXPAND: scf.if
// EXPAND: %[[INIT:.*]] = gpu.launch_func async {{.*}} @warp_device_non_trivial_runs_f64_i32_i64::@scan_init
// EXPAND: %[[SEL:.*]] = gpu.launch_func async [%[[INIT]]] @warp_device_non_trivial_runs_f64_i32_i64::@non_trivial_runs
// EXPAND-NEXT: gpu.dealloc async [%[[SEL]]]
// EXPAND: } else {
// EXPAND-NOT: scan_init
// EXPAND: %[[ONE:.*]] = gpu.launch_func async {{.*}} @warp_device_non_trivial_runs_f64_i32_i64::@non_trivial_runs blocks in (%c1, %c1, %c1)
// EXPAND-NEXT: gpu.dealloc async [%[[ONE]]]
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
// Thread 0 of a later tile waits for the last kept position before the
// tile (the look-back's source tile's, -1 until stored), passes it on
// where the tile keeps nothing (-2 in tile 0: nothing kept yet), and
// where the run open before the tile ends in it (slot 0 of the ends not
// 0) writes that run's length: the end in the input less that position.
// EXPAND: %[[LATER:.*]] = arith.cmpi ne, %{{.*}}, %c0_i64
// EXPAND: scf.if
// EXPAND-NEXT: %[[START:.*]] = scf.if %[[LATER]] -> (i64) {
// EXPAND: scf.while
// EXPAND-NEXT: llvm.load {{.*}} atomic syncscope("device") monotonic
// EXPAND: arith.cmpi eq, %{{.*}}, %c-1_i64
// EXPAND: nvvm.nanosleep
// EXPAND: } else {
// EXPAND-NEXT: %[[NOTHING:.*]] = arith.constant -2 : i64
// EXPAND-NEXT: scf.yield %[[NOTHING]]
// EXPAND: %[[KEEPS_NONE:.*]] = arith.cmpi eq, %{{.*}}, %c0_i64
// EXPAND-NEXT: scf.if %[[KEEPS_NONE]] {
// EXPAND-NEXT: llvm.store %[[START]], {{.*}} atomic syncscope("device") monotonic
// EXPAND: %[[OPEN:.*]] = memref.load %[[ENDS]][%c0
// EXPAND: %[[ENDED0:.*]] = arith.cmpi ne, %[[OPEN]], %c0_i16
// EXPAND-NEXT: scf.if %[[ENDED0]] {
// EXPAND: %[[OPENED:.*]] = arith.index_cast %{{.*}} : i64 to index
// EXPAND: %[[END0:.*]] = arith.extui %[[OPEN]] : i16 to i64
// EXPAND: %[[AT:.*]] = arith.addi %{{.*}}, %[[END0]] : i64
// EXPAND: %[[LENGTH0:.*]] = arith.subi %[[AT]], %[[START]] : i64
// EXPAND: memref.store %[[LENGTH0]], %{{.*}}[%[[OPENED]]] : memref<?xi64>
// EXPAND-NOT: gpu.func @non_trivial_carry
// Narrow elements take tiles of 16 items per thread, as the 4-byte ones.
// EXPAND: gpu.module @warp_device_non_trivial_runs_i8_i64_i32 attributes {warp.device_scratch = array<i64: 0, 24, 4096>}
// EXPAND: memref<4097xi16, #gpu.address_space<workgroup>>
// The lengths in i32 (the offsets are i64).
// EXPAND: memref.store %{{.*}}, %arg2[%{{.*}}] : memref<?xi32>

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
