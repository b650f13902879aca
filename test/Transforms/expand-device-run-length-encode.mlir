// warp.device_run_length_encode: the kernels and launches of
// warp-expand-device-ops (unique's selection kernel, which also writes
// every run's length, in one pass), and the whole pipeline to PTX that
// ptxas takes, for every element width and both count types.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=EXPAND
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// EXPAND-LABEL: func.func @r
// Two kernels in order over one scratch: scan_init, then the selection
// with the lengths; a selection grid of one tile looks back at nothing
// and skips scan_init.
// EXPAND: gpu.alloc async
// EXPAND: %[[INIT:.*]] = gpu.launch_func async {{.*}} @warp_device_run_length_encode_f64_i64::@scan_init
// EXPAND: %[[SEL:.*]] = gpu.launch_func async [%[[INIT]]] @warp_device_run_length_encode_f64_i64::@run_length_encode
// EXPAND-NEXT: gpu.dealloc async [%[[SEL]]]
// EXPAND: } else {
// EXPAND-NOT: scan_init
// EXPAND: %[[ONE:.*]] = gpu.launch_func async {{.*}} @warp_device_run_length_encode_f64_i64::@run_length_encode blocks in (%c1, %c1, %c1)
// EXPAND-NEXT: gpu.dealloc async [%[[ONE]]]
// EXPAND: gpu.module @warp_device_run_length_encode_f64_i64 attributes {warp.device_scratch = array<i64: 0, 24, 2048>}
// scan_init clears each tile's status word (slot t of the scratch) and
// sets its last head's position (slot T + t, past the T status words) to
// -1: not stored yet.
// EXPAND: gpu.func @scan_init
// EXPAND: llvm.store %c0_i64
// EXPAND: %[[TILES:.*]] = arith.index_cast {{.*}} : index to i64
// EXPAND: arith.muli %[[TILES]], %c8_i64
// EXPAND: %[[WORDS:.*]] = arith.muli %[[TILES]], %c8_i64
// EXPAND: %[[AT:.*]] = arith.addi %c0_i64{{.*}}, %[[WORDS]] : i64
// EXPAND: arith.addi %[[AT]], %{{.*}} : i64
// EXPAND: llvm.store %c-1_i64, %{{.*}} : i64, !llvm.ptr<1>
// EXPAND-NEXT: {{^ *}}}
// EXPAND-NEXT: gpu.return
// EXPAND: gpu.func @run_length_encode({{.*}}) workgroup({{.*}}memref<2048xf64, #gpu.address_space<workgroup>>, {{.*}}memref<2049xi16, #gpu.address_space<workgroup>>)
// EXPAND-SAME: warp.device_grid = 2048
// EXPAND: arith.cmpf une
// The tile's last head's position for the tiles after it, and a later
// tile's wait for its source tile's: polls that pause between.
// EXPAND: llvm.store {{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : i64, !llvm.ptr<1>
// EXPAND: llvm.load {{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// EXPAND: arith.cmpi eq, {{.*}}, %c-1_i64
// EXPAND: nvvm.nanosleep
// EXPAND-NOT: gpu.func @run_length_carry
// EXPAND-NOT: memref.atomic_rmw
// Narrow elements take tiles of 16 items per thread (4096 per tile), as
// the 4-byte ones.
// EXPAND: gpu.module @warp_device_run_length_encode_i8_i32 attributes {warp.device_scratch = array<i64: 0, 24, 4096>}
// EXPAND: memref<4096xi8, #gpu.address_space<workgroup>>, {{.*}}memref<4097xi16, #gpu.address_space<workgroup>>

// CHECK: warp_device_run_length_encode_bf16_i32.ptx
// CHECK-NEXT: warp_device_run_length_encode_f64_i64.ptx
// CHECK-NEXT: warp_device_run_length_encode_i16_i64.ptx
// CHECK-NEXT: warp_device_run_length_encode_i32_i32.ptx
// CHECK-NEXT: warp_device_run_length_encode_i8_i32.ptx
func.func @r(%a: memref<?xf64>, %b: memref<?xi8>, %c: memref<?xi16>, %d: memref<?xbf16>, %e: memref<?xi32>,
             %a2: memref<?xf64>, %b2: memref<?xi8>, %c2: memref<?xi16>, %d2: memref<?xbf16>, %e2: memref<?xi32>,
             %n32: memref<?xi32>, %n64: memref<?xi64>, %k: memref<1xi64>) {
  warp.device_run_length_encode %a, %a2, %n64, %k : memref<?xf64>, memref<?xf64>, memref<?xi64>, memref<1xi64>
  warp.device_run_length_encode %b, %b2, %n32, %k : memref<?xi8>, memref<?xi8>, memref<?xi32>, memref<1xi64>
  warp.device_run_length_encode %c, %c2, %n64, %k : memref<?xi16>, memref<?xi16>, memref<?xi64>, memref<1xi64>
  warp.device_run_length_encode %d, %d2, %n32, %k : memref<?xbf16>, memref<?xbf16>, memref<?xi32>, memref<1xi64>
  warp.device_run_length_encode %e, %e2, %n32, %k : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<1xi64>
  return
}
