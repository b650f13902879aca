// warp.device_histogram through warp-expand-device-ops, and its kernels
// through the whole pipeline to PTX that ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=PTX < %t/warp_device_histogram_i8_i32_bins256.ptx
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// A whole tile's 16 samples a thread come in one 16-byte load.
// PTX-LABEL: .entry histogram(
// PTX: ld.global.v4.b32
// FILES: warp_device_histogram_i64_i64.ptx
// FILES-NEXT: warp_device_histogram_i8_i32_bins256.ptx

// Histograms: static bins that fit are counted in a workgroup copy (the
// module named for their number), others straight into the output; a
// first kernel clears the bins.
// The workgroup-counted one's grid: a block per 8 tiles, but a block a
// tile up to 64 blocks, at most 1024 blocks.
// CHECK: func.func @h
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_histogram_i8_i32_bins256::@histogram_init
// CHECK: %[[CHUNKS:.*]] = arith.ceildivui %[[N:.*]], %c32768 : index
// CHECK: %[[BY8:.*]] = arith.maxui %[[CHUNKS]], %c1 : index
// CHECK: %[[TILES:.*]] = arith.ceildivui %[[N]], %c4096 : index
// CHECK: %[[BY1:.*]] = arith.maxui %[[TILES]], %c1 : index
// CHECK: %[[SPREAD:.*]] = arith.minui %[[BY1]], %c64 : index
// CHECK: %[[LEAST:.*]] = arith.maxui %[[BY8]], %[[SPREAD]] : index
// CHECK: %[[GRID:.*]] = arith.minui %[[LEAST]], %c1024 : index
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_histogram_i8_i32_bins256::@histogram blocks in (%[[GRID]], %c1, %c1)
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_histogram_i64_i64::@histogram
// CHECK: gpu.module @warp_device_histogram_i8_i32_bins256
// The workgroup-counted one runs on a capped grid of a block per 8 tiles
// (8 x 4096 samples; a block a tile up to 64 blocks; at most 1024
// blocks): the block clears its
// counters; block 0 counts the samples before the input's first 16-byte
// boundary; the tiles from there, a grid apart, each take one workgroup
// atomic add per sample (whole tiles: an aligned vector load whose 8-bit
// samples, each extracted and widened, always name one of the 256 bins;
// the last tile counts the thread's valid samples only); then each
// non-zero counter goes to the output once.
// CHECK: gpu.func @histogram({{.*}}) workgroup(%[[LOCAL:.*]] : memref<256xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 32768 : i64, warp.device_grid_max = 1024 : i64, warp.device_grid_min = array<i64: 64, 4096>}
// CHECK: %[[BLOCK:.*]] = gpu.block_id x
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[LOCAL]]
// CHECK: gpu.barrier
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: scf.if
// CHECK: memref.load
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[LOCAL]]
// CHECK: %[[GRID:.*]] = gpu.grid_dim x
// CHECK: scf.for %{{.*}} = %[[BLOCK]] to %{{.*}} step %[[GRID]]
// CHECK: scf.if
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
// CHECK-NEXT: vector.extract %{{.*}}[0] : i8 from vector<16xi8>
// CHECK-NEXT: arith.extui %{{.*}} : i8 to i32
// CHECK-NOT: scf.if
// CHECK-COUNT-16: memref.atomic_rmw addi %{{.*}}, %[[LOCAL]]
// CHECK: } else {
// CHECK: warp.block_load %{{.*}} valid
// CHECK-COUNT-16: memref.atomic_rmw addi %{{.*}}, %[[LOCAL]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %[[LOCAL]]
// CHECK: memref.atomic_rmw addi
// CHECK: gpu.module @warp_device_histogram_i64_i64
// CHECK-NOT: warp.device_grid_max
// CHECK: warp.block_histogram %{{.*}} into %{{.*}} accumulate : vector<16xi64>, memref<?xi64>
func.func @h(%x: memref<?xi8>, %b: memref<256xi32>, %y: memref<?xi64>, %c: memref<?xi64>) {
  warp.device_histogram %x, %b : memref<?xi8>, memref<256xi32>
  warp.device_histogram %y, %c : memref<?xi64>, memref<?xi64>
  return
}
