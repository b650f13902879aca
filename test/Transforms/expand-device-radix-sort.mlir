// warp.device_radix_sort through the whole pipeline: PTX that ptxas takes,
// for keys of every width, floats and signed integers, descending, a bit
// range of two passes and pairs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=EXPAND

// The i16 sort of bits [4, 14): onesweep, a pass of 8 bits, then one of 2
// (4 digits). A kernel clears the scratch's counters (a block per tile up
// to 1024, grid-strided),
// one counts both passes' digits (a capped grid, workgroup counters added
// to the scratch's), then one kernel per pass: a tile from the pass's
// counter, its keys ranked by an aggregated atomic per item on its warp's
// digit counters (8 warps x 256, then x 4), the tile's digit counts
// published (64-bit words: the count below bit 56, the pass's flag
// above: 3 << 56 a count, 4 << 56 a prefix in pass 1), the keys staged in
// digit order, then a look-back per digit that spins on each word until
// it holds this pass's flag. Scratch: both passes' digit counts (2 x 256
// i64) and tile counters (8 bytes), then per tile of 256 x 12 keys its
// 256 look-back words and a buffer of keys.
// EXPAND: gpu.launch_func {{.*}} @warp_device_radix_sort_i16_signed_bits4_14::@radix_init
// EXPAND-NEXT: arith.constant 24576
// EXPAND: gpu.launch_func {{.*}}::@radix_histogram
// EXPAND: gpu.launch_func {{.*}}::@radix_onesweep_0
// EXPAND: gpu.launch_func {{.*}}::@radix_onesweep_1
// EXPAND-NEXT: gpu.dealloc
// EXPAND-LABEL: gpu.module @warp_device_radix_sort_i16_signed_bits4_14
// EXPAND-SAME: warp.device_scratch = array<i64: 4104, 8192, 3072>
// EXPAND: gpu.func @radix_init({{.*}}warp.device_grid = 3072 : i64, warp.device_grid_max = 1024 : i64
// EXPAND: gpu.func @radix_histogram({{.*}}) workgroup({{.*}}memref<512xi32, #gpu.address_space<workgroup>>) {{.*}}warp.device_grid = 24576 : i64, warp.device_grid_max = 1024 : i64
// EXPAND: memref.atomic_rmw addi {{.*}} : (i32, memref<512xi32, #gpu.address_space<workgroup>>)
// EXPAND: memref.atomic_rmw addi {{.*}} : (i64, memref<?xi64>)
// EXPAND: gpu.func @radix_onesweep_0({{.*}}) workgroup({{.*}}memref<1xi32, {{.*}}memref<2048xi32, {{.*}}memref<256xi64, {{.*}}memref<3072xi16, {{.*}}warp.device_grid = 3072 : i64
// EXPAND: memref.atomic_rmw addi {{.*}} : (i32, memref<?xi32>)
// EXPAND: warp.block_scan <add> {{.*}} exclusive : i64
// EXPAND: warp.atomic_rmw <add> {{.*}} : i32, memref<2048xi32, #gpu.address_space<workgroup>>
// EXPAND: gpu.barrier
// EXPAND: llvm.store {{.*}} atomic syncscope("device") monotonic
// EXPAND: warp.block_scan <add> {{.*}} exclusive : i64
// EXPAND: scf.while
// EXPAND: llvm.load {{.*}} atomic syncscope("device") monotonic
// EXPAND: nvvm.nanosleep
// EXPAND: llvm.store {{.*}} atomic syncscope("device") monotonic
// EXPAND: gpu.func @radix_onesweep_1({{.*}}memref<32xi32, #gpu.address_space<workgroup>>
// EXPAND: warp.atomic_rmw <add> {{.*}} : i32, memref<32xi32, #gpu.address_space<workgroup>>
// EXPAND: arith.constant 288230376151711744 : i64
// EXPAND: arith.constant 216172782113783808 : i64
// EXPAND: %[[COUNT:.*]] = arith.constant 216172782113783808 : i64
// EXPAND: %[[PREFIX:.*]] = arith.constant 288230376151711744 : i64
// EXPAND: scf.while
// EXPAND: %[[WORD:.*]] = llvm.load {{.*}} atomic syncscope("device") monotonic
// EXPAND: arith.cmpi ult, %[[WORD]], %[[COUNT]] : i64
// EXPAND: arith.cmpi ult, %{{.*}}, %[[PREFIX]] : i64
// EXPAND-NOT: gpu.func
// EXPAND: gpu.module

// CHECK: warp_device_radix_sort_bf16_descending.ptx
// CHECK-NEXT: warp_device_radix_sort_f64.ptx
// CHECK-NEXT: warp_device_radix_sort_i16_signed_bits4_14.ptx
// CHECK-NEXT: warp_device_radix_sort_i32_f64_signed.ptx
// CHECK-NEXT: warp_device_radix_sort_i8.ptx
func.func @s(%a: memref<?xf64>, %b: memref<?xi8>, %c: memref<?xi16>, %d: memref<?xbf16>,
             %e: memref<?xi32>, %v: memref<?xf64>,
             %a2: memref<?xf64>, %b2: memref<?xi8>, %c2: memref<?xi16>, %d2: memref<?xbf16>,
             %e2: memref<?xi32>, %v2: memref<?xf64>) {
  warp.device_radix_sort %a, %a2 : memref<?xf64>, memref<?xf64>
  warp.device_radix_sort %b, %b2 : memref<?xi8>, memref<?xi8>
  warp.device_radix_sort %c, %c2 signed bits 4 to 14 : memref<?xi16>, memref<?xi16>
  warp.device_radix_sort %d, %d2 descending : memref<?xbf16>, memref<?xbf16>
  warp.device_radix_sort %e, %e2 values %v, %v2 signed
      : memref<?xi32>, memref<?xi32>, memref<?xf64>, memref<?xf64>
  return
}
