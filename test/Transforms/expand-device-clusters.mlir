// warp.device_scan and warp.device_reduce with cluster_blocks: the scan
// kernel runs in thread-block clusters (known_cluster_size), a cluster scan
// of each thread's fold of its items, and one look-back status per
// cluster; the reduction's folding blocks combine per cluster.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --split-input-file --verify-diagnostics --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/warp_device_scan_add_f32_cluster4.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/warp_device_scan_add_f32_cluster4.ptx -o %t/a.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/warp_device_reduce_maxsi_i32_cluster2.ptx -o %t/b.cubin %}

// The grid: ceil(n / 8192) blocks (a scan's tile: 32 f32 a thread)
// rounded up to whole clusters of 4; the scratch: 24 bytes per cluster of
// 4 tiles (32768 f32). A grid of one cluster looks back at no status: no
// scan_init then. 2 to 8 tiles (8192 < n <= 65536) are one launch of
// scan_one_cluster, one cluster of 8 blocks, as a block-only scan's
// (clusters of 4 would be two, the second looking back at the first).
// CHECK-LABEL: func.func @s
// CHECK: arith.cmpi ule, %{{.*}}, %c65536 : index
// CHECK: arith.cmpi ugt, %{{.*}}, %c8192 : index
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_scan_add_f32_cluster4::@scan_one_cluster blocks in (%c8,
// CHECK: } else {
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[CLUSTERS:.*]] = arith.ceildivui %{{.*}}, %[[C4]] : index
// CHECK: %[[GRID:.*]] = arith.muli %[[CLUSTERS]], %c4{{.*}} : index
// CHECK: %[[MANY:.*]] = arith.cmpi ugt, %[[GRID]], %c4{{.*}} : index
// CHECK-NEXT: scf.if %[[MANY]] {
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_scan_add_f32_cluster4::@scan_init
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_scan_add_f32_cluster4::@scan blocks in (%[[GRID]], %{{.*}}, %{{.*}})
// CHECK: } else {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 4 : index
// CHECK-NOT: scan_init
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_scan_add_f32_cluster4::@scan blocks in (%[[ONE]], %{{.*}}, %{{.*}})
// CHECK: gpu.module @warp_device_scan_add_f32_cluster4 attributes {warp.device_scratch = array<i64: 0, 24, 32768>}
// CHECK: gpu.func @scan_one_cluster({{.*}}known_cluster_size = array<i32: 8, 1, 1>, warp.device_alone_over = 8192 : i64, warp.device_alone_up_to = 65536 : i64
// CHECK: gpu.func @scan_init({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 8388608 : i64, warp.device_skip_before_single}
// CHECK: gpu.func @scan({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_cluster_size = array<i32: 4, 1, 1>, warp.device_grid = 8192 : i64}
// CHECK: %[[BLOCK:.*]] = gpu.block_id x
// CHECK: arith.remui %[[BLOCK]], %{{.*}} : index
// CHECK: arith.divui %[[BLOCK]], %{{.*}} : index
// CHECK: warp.cluster_scan <add> %{{.*}} exclusive : f32
// CHECK-NOT: warp.block_scan
// CHECK: warp.block_broadcast
// PTX: .reqnctapercluster 4, 1, 1
// PTX: barrier.cluster.arrive.aligned;
// PTX: ld.shared::cluster
func.func @s(%x: memref<?xf32>, %y: memref<?xf32>) {
  warp.device_scan <add> %x, %y cluster_blocks = 4 : memref<?xf32>, memref<?xf32>
  return
}

// -----

// The reduction: reduce_tiles in clusters of 2 (an i32 tile: 32 items a
// thread), its grid (capped at 4096 blocks) rounded up to whole clusters;
// reduce_finish folds one partial per cluster. An input that one block
// folds alone (32768 i32) is one launch of reduce_one_block, the same
// fold without clusters, which writes the result itself.
// CHECK-LABEL: func.func @r
// CHECK: %[[ALONE:.*]] = arith.cmpi ule, %{{.*}}, %c32768{{.*}} : index
// CHECK-NEXT: scf.if %[[ALONE]] {
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_maxsi_i32_cluster2::@reduce_one_block blocks in (%c1, %c1, %c1)
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.wait
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_maxsi_i32_cluster2::@reduce_tiles
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_maxsi_i32_cluster2::@reduce_finish
// CHECK: gpu.func @reduce_one_block({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_alone_up_to = 32768 : i64, warp.device_grid = 8192 : i64, warp.device_grid_max = 4096 : i64, warp.device_grid_single = 32768 : i64}
// CHECK-NOT: warp.cluster_reduce
// CHECK: warp.block_reduce <maxsi>
// CHECK: gpu.func @reduce_tiles({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_cluster_size = array<i32: 2, 1, 1>, warp.device_grid = 8192 : i64, warp.device_grid_max = 4096 : i64, warp.device_grid_single = 32768 : i64}
// CHECK: %[[BLOCK:.*]] = gpu.block_id x
// CHECK: arith.remui %[[BLOCK]]
// CHECK: warp.cluster_reduce <maxsi> %{{.*}} : i32
// CHECK-NOT: warp.block_reduce
// CHECK: gpu.func @reduce_finish
// CHECK: arith.minui
// CHECK: arith.ceildivui %{{.*}}, %c2
// CHECK: warp.block_reduce <maxsi>
func.func @r(%x: memref<?xi32>, %y: memref<1xi32>) {
  warp.device_reduce <maxsi> %x, %y cluster_blocks = 2 : memref<?xi32>, memref<1xi32>
  return
}

// -----

func.func @too_many(%x: memref<?xf32>, %y: memref<?xf32>) {
  // expected-error @+1 {{'warp.device_scan' op attribute 'cluster_blocks' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 2 whose maximum value is 8}}
  warp.device_scan <add> %x, %y cluster_blocks = 9 : memref<?xf32>, memref<?xf32>
  return
}
