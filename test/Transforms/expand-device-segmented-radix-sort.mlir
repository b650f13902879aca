// warp.device_segmented_radix_sort through warp-expand-device-ops, and its
// kernels through the whole pipeline to PTX that ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=PTX < %t/warp_device_segmented_radix_sort_i32_f32_signed_descending_bits3_14_i32_i64.ptx
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// FILES: warp_device_segmented_radix_sort_i32_f32_signed_descending_bits3_14_i32_i64.ptx
// FILES-NEXT: warp_device_segmented_radix_sort_i8_i64_i64.ptx

// One kernel; each block syncs, and no more than the block.
// PTX-LABEL: .entry segmented_radix_sort(
// PTX: bar.sync
// PTX-NOT: bar.red
// PTX-NOT: membar.gl

// One launch, a block per segment (begin's elements) up to the cap; the
// scratch: 16 bytes and a key and a value per key (the ping-pong buffers).
// CHECK-LABEL: func.func @pairs
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xi32>
// CHECK: %[[PER:.*]] = arith.constant 8 : index
// CHECK: %[[SEGMENTS:.*]] = memref.dim %[[BEGIN:.*]], %{{.*}} : memref<?xi32>
// CHECK: %[[GRID:.*]] = arith.maxui %{{.*}}, %{{.*}} : index
// CHECK: %[[CAP:.*]] = arith.constant 65536 : index
// CHECK: %[[CAPPED:.*]] = arith.minui %[[GRID]], %[[CAP]] : index
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_segmented_radix_sort_i32_f32_signed_descending_bits3_14_i32_i64::@segmented_radix_sort blocks in (%[[CAPPED]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi8>, %[[N]] : index)
// CHECK: gpu.dealloc

// The kernel: segments blockIdx.x, + gridDim.x, ...; the scratch's keys at
// 0, its values at the 8-byte boundary past them.
// CHECK: gpu.module @warp_device_segmented_radix_sort_i32_f32_signed_descending_bits3_14_i32_i64 attributes {warp.device_scratch = array<i64: 16, 8, 1>}
// CHECK: gpu.func @segmented_radix_sort(%[[KIN:.*]]: memref<?xi32>, %[[KOUT:.*]]: memref<?xi32>, %[[B:.*]]: memref<?xi32>, %[[E:.*]]: memref<?xi64>, %[[VIN:.*]]: memref<?xf32>, %[[VOUT:.*]]: memref<?xf32>, %[[SCRATCH:.*]]: memref<?xi8>, %[[KN:.*]]: index) workgroup(%[[COUNTS:.*]] : memref<256xi32, #gpu.address_space<workgroup>>, %[[TILECOUNTS:.*]] : memref<256xi32, #gpu.address_space<workgroup>>, %[[BASES:.*]] : memref<256xi64, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 1 : i64, warp.device_grid_max = 65536 : i64, warp.device_grid_operand = 2 : i64}
// CHECK: %[[SKEYS:.*]] = memref.view %[[SCRATCH]][%{{.*}}][%[[KN]]] : memref<?xi8> to memref<?xi32>
// CHECK: arith.ceildivui
// CHECK: %[[SVALUES:.*]] = memref.view %[[SCRATCH]][%{{.*}}][%[[KN]]] : memref<?xi8> to memref<?xf32>
// CHECK: scf.for %[[SEG:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[FIRST32:.*]] = memref.load %[[B]][%[[SEG]]] : memref<?xi32>
// CHECK: %[[FIRST:.*]] = arith.index_cast %[[FIRST32]] : i32 to index
// CHECK: %[[LAST64:.*]] = memref.load %[[E]][%[[SEG]]] : memref<?xi64>
// CHECK: %[[LAST:.*]] = arith.index_cast %[[LAST64]] : i64 to index
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi slt, %[[FIRST]], %[[LAST]] : index
// CHECK: scf.if %[[NONEMPTY]] {
// A segment of at most a tile (256 threads x 8 items: 32 bytes of the
// wider of i32 and f32): one block sort over the op's bits, each key at
// the segment's start plus its rank.
// CHECK: %[[LENGTH:.*]] = arith.subi %[[LAST]], %[[FIRST]] : index
// CHECK: %[[TILE:.*]] = arith.constant 2048 : index
// CHECK: %[[SMALL:.*]] = arith.cmpi ule, %[[LENGTH]], %[[TILE]] : index
// CHECK: scf.if %[[SMALL]] {
// CHECK: warp.block_radix_sort %{{.*}}, %{{.*}} bits 3 to 14 striped : vector<8xi32>, vector<8xf32>
// CHECK: %[[AT:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[KOUT]][%[[AT]]] : memref<?xi32>
// CHECK: memref.store %{{.*}}, %[[VOUT]][%[[AT]]] : memref<?xf32>
// A longer one: two passes (bits 3 to 11, 11 to 14), the first from the
// inputs into the scratch, the second from it into the outputs; each
// counts the segment's digits tile by tile, scans the counts, then sorts
// each tile by the digit and moves its keys.
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %{{.*}} {
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[COUNTS]]
// CHECK: warp.block_scan <add> %{{.*}} exclusive : i64
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i64) {
// CHECK: warp.block_load %[[KIN]]
// CHECK: warp.block_load %[[VIN]]
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[TILECOUNTS]]
// CHECK: warp.block_scan <add> %{{.*}} exclusive : i64
// CHECK: memref.store %{{.*}}, %[[BASES]][%{{.*}}] : memref<256xi64, #gpu.address_space<workgroup>>
// CHECK: warp.block_radix_sort %{{.*}}, %{{.*}} bits 3 to 11 striped radix_bits = 8 ranking = <match> : vector<8xi32>, vector<8xf32>
// CHECK: memref.load %[[BASES]]
// CHECK: memref.store %{{.*}}, %[[SKEYS]][%{{.*}}] : memref<?xi32>
// CHECK: memref.store %{{.*}}, %[[SVALUES]][%{{.*}}] : memref<?xf32>
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[COUNTS]]
// CHECK: warp.block_load %[[SKEYS]]
// CHECK: warp.block_load %[[SVALUES]]
// CHECK: warp.block_radix_sort %{{.*}}, %{{.*}} bits 11 to 14 striped radix_bits = 3 ranking = <match> : vector<8xi32>, vector<8xf32>
// CHECK: memref.store %{{.*}}, %[[KOUT]][%{{.*}}] : memref<?xi32>
// CHECK: memref.store %{{.*}}, %[[VOUT]][%{{.*}}] : memref<?xf32>
func.func @pairs(%k: memref<?xi32>, %o: memref<?xi32>, %b: memref<?xi32>, %e: memref<?xi64>,
                 %v: memref<?xf32>, %w: memref<?xf32>) {
  warp.device_segmented_radix_sort %k, %o, %b, %e values %v, %w descending signed bits 3 to 14
      : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xf32>, memref<?xf32>
  return
}

// Keys only, i8: 32 keys a thread; one pass of 8 bits, from the input
// into the output; the scratch holds the keys only.
// CHECK: gpu.module @warp_device_segmented_radix_sort_i8_i64_i64 attributes {warp.device_scratch = array<i64: 16, 1, 1>}
// CHECK: gpu.func @segmented_radix_sort(%[[KIN8:.*]]: memref<?xi8>, %[[KOUT8:.*]]: memref<?xi8>, %{{.*}}: memref<?xi64>, %{{.*}}: memref<?xi64>, %{{.*}}: memref<?xi8>, %{{.*}}: index)
// CHECK: arith.constant 8192 : index
// CHECK: warp.block_radix_sort %{{.*}} bits 0 to 8 striped radix_bits = 8 ranking = <match> : vector<32xi8>
// CHECK: warp.block_radix_sort %{{.*}} bits 0 to 8 striped radix_bits = 8 ranking = <match> : vector<32xi8>
// CHECK: memref.store %{{.*}}, %[[KOUT8]][%{{.*}}] : memref<?xi8>
// CHECK-NOT: warp.block_radix_sort
func.func @keys(%k: memref<?xi8>, %o: memref<?xi8>, %offsets: memref<?xi64>) {
  warp.device_segmented_radix_sort %k, %o, %offsets, %offsets : memref<?xi8>, memref<?xi8>, memref<?xi64>, memref<?xi64>
  return
}
