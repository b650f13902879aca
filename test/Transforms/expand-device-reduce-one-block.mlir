// warp-expand-device-ops: a reduction whose reduce_tiles grid is one block
// (n within reduceSingleBlockItems, 4 tiles, or 0). That block writes its partial and also the
// result, what reduce_finish makes of one partial (the identity for n = 0;
// init (op) partial for warp.device_reduce_combine), and reduce_finish,
// marked warp.device_skip_if_single, is launched only where the grid is
// more than one block: the host code forks on the grid, each branch with
// its own chain of tokens that ends in the scratch's release and a wait.
// A static grid folds to one side. In clusters (a grid of whole
// clusters) the fork is on one cluster: the cluster's first block writes
// the result. branch-on-grid=false (warp-lower-to-ptx's
// async pipeline, whose gpu-async-region takes no scf.if around GPU work)
// launches every kernel: reduce_finish then writes the same result. The
// large-n path of reduce_tiles gains a compare of %nctaid.x with 1 and a
// branch after the partial's store; the PTX assembles.
// RUN: warp-opt %s --warp-expand-device-ops --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-expand-device-ops=branch-on-grid=false --canonicalize --cse | FileCheck %s --check-prefix=ALWAYS
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: cat %t/warp_device_reduce_add_f32.ptx | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa async=1" -o /dev/null

// A dynamic n: reduce_finish only where reduce_tiles runs more blocks.
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[S:.*]], %{{.*}} = gpu.alloc async
// CHECK-NEXT: %[[CAPPED:.*]] = arith.minui
// CHECK-NEXT: %[[SMALL:.*]] = arith.cmpi ule
// CHECK-NEXT: %[[BLOCKS:.*]] = arith.select %[[SMALL]], %[[C1]], %[[CAPPED]] : index
// CHECK-NEXT: %[[TILES:.*]] = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_tiles blocks in (%[[BLOCKS]], %[[C1]], %[[C1]])
// CHECK-NEXT: %[[MANY:.*]] = arith.cmpi ugt, %[[BLOCKS]], %[[C1]] : index
// CHECK-NEXT: scf.if %[[MANY]] {
// CHECK-NEXT: %[[FINISH:.*]] = gpu.launch_func async [%[[TILES]]] @warp_device_reduce_add_f32::@reduce_finish blocks in (%[[C1]], %[[C1]], %[[C1]])
// CHECK-NEXT: %[[FREED:.*]] = gpu.dealloc async [%[[FINISH]]] %[[S]]
// CHECK-NEXT: gpu.wait [%[[FREED]]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[FREED:.*]] = gpu.dealloc async [%[[TILES]]] %[[S]]
// CHECK-NEXT: gpu.wait [%[[FREED]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
// ALWAYS-LABEL: func.func @dynamic
// ALWAYS-NOT: scf.if
// ALWAYS: %[[TILES:.*]] = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_tiles
// ALWAYS-NEXT: %[[FINISH:.*]] = gpu.launch_func async [%[[TILES]]] @warp_device_reduce_add_f32::@reduce_finish
// ALWAYS-NEXT: %[[FREED:.*]] = gpu.dealloc async [%[[FINISH]]]
// ALWAYS-NEXT: gpu.wait [%[[FREED]]]
// ALWAYS-NEXT: return
func.func @dynamic(%x: memref<?xf32>, %sum: memref<1xf32>) {
  warp.device_reduce <add> %x, %sum : memref<?xf32>, memref<1xf32>
  return
}

// 300 i32: within the 16384 items one block takes alone, so one launch.
// CHECK-LABEL: func.func @one_chunk
// CHECK-NOT: scf.if
// CHECK: %[[TILES:.*]] = gpu.launch_func async [%{{.*}}] @warp_device_reduce_maxsi_i32::@reduce_tiles
// CHECK-NEXT: %[[FREED:.*]] = gpu.dealloc async [%[[TILES]]]
// CHECK-NEXT: gpu.wait [%[[FREED]]]
// CHECK-NEXT: return
func.func @one_chunk(%x: memref<300xi32>, %m: memref<1xi32>) {
  warp.device_reduce <maxsi> %x, %m : memref<300xi32>, memref<1xi32>
  return
}

// 8193 f64: past the 8192 items one block takes alone (5 tiles, 5
// blocks), so both kernels, no branch.
// CHECK-LABEL: func.func @past_one_block
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_minnumf_f64::@reduce_tiles
// CHECK-NEXT: gpu.launch_func async [%{{.*}}] @warp_device_reduce_minnumf_f64::@reduce_finish
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.wait
// CHECK-NEXT: return
func.func @past_one_block(%x: memref<8193xf64>, %m: memref<1xf64>) {
  warp.device_reduce <minnumf> %x, %m : memref<8193xf64>, memref<1xf64>
  return
}

// In clusters of 2: reduce_finish only where the grid (rounded up to
// whole clusters) is more than 2 blocks.
// CHECK-LABEL: func.func @clustered
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[GRID:.*]] = arith.muli %{{.*}}, %[[C2]] : index
// CHECK-NEXT: %[[TILES:.*]] = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_i32_cluster2::@reduce_tiles blocks in (%[[GRID]],
// CHECK-NEXT: %[[MANY:.*]] = arith.cmpi ugt, %[[GRID]], %[[C2]] : index
// CHECK-NEXT: scf.if %[[MANY]] {
// CHECK-NEXT: gpu.launch_func async [%[[TILES]]] @warp_device_reduce_add_i32_cluster2::@reduce_finish
// CHECK: } else {
// CHECK-NEXT: gpu.dealloc async [%[[TILES]]]
func.func @clustered(%x: memref<?xi32>, %s: memref<1xi32>) {
  warp.device_reduce <add> %x, %s cluster_blocks = 2 : memref<?xi32>, memref<1xi32>
  return
}

// A tuple reduction forks the same way.
// CHECK-LABEL: func.func @argmax
// CHECK: %[[TILES:.*]] = gpu.launch_func async [%{{.*}}] @warp_device_reduce_combine_f32_i32::@reduce_tiles blocks in (%[[BLOCKS:[^,]*]],
// CHECK-NEXT: %[[MANY:.*]] = arith.cmpi ugt, %[[BLOCKS]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[MANY]] {
// CHECK-NEXT: gpu.launch_func async [%[[TILES]]] @warp_device_reduce_combine_f32_i32::@reduce_finish
// CHECK: } else {
// CHECK-NEXT: gpu.dealloc async [%[[TILES]]]
func.func @argmax(%v: memref<?xf32>, %i: memref<?xi32>, %m: memref<1xf32>, %mi: memref<1xi32>,
                  %v0: f32, %i0: i32) {
  warp.device_reduce_combine %v, %i init(%v0, %i0 : f32, i32) into %m, %mi
      : memref<?xf32>, memref<?xi32> -> memref<1xf32>, memref<1xi32>
      combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
    %gt = arith.cmpf ogt, %b, %a : f32
    %r = arith.select %gt, %b, %a : f32
    %ri = arith.select %gt, %bi, %ai : i32
    warp.yield %r, %ri : f32, i32
  }
  return
}

// reduce_tiles: thread 0 stores the block's partial, then, where the grid
// is one block, the result: the identity (+0.0, not the -0.0 padding)
// for n = 0, else the partial.
// CHECK-LABEL: gpu.module @warp_device_reduce_add_f32
// CHECK: gpu.func @reduce_tiles(%{{.*}}: memref<?xf32> {llvm.noalias, llvm.readonly}, %[[OUT:.*]]: memref<?xf32>, %{{.*}}: memref<?xi8>, %[[N:.*]]: index)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[K0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[K1:.*]] = arith.constant 1 : index
// CHECK: %[[GRID:.*]] = gpu.grid_dim x
// CHECK: %[[PARTIAL:.*]] = warp.block_reduce <add>
// CHECK: llvm.store %[[PARTIAL]], %{{.*}} : f32, !llvm.ptr<1>
// CHECK-NEXT: %[[SINGLE:.*]] = arith.cmpi eq, %[[GRID]], %[[K1]] : index
// CHECK-NEXT: scf.if %[[SINGLE]] {
// CHECK-NEXT: %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %[[K0]] : index
// CHECK-NEXT: %[[RESULT:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[PARTIAL]] : f32
// CHECK-NEXT: memref.store %[[RESULT]], %[[OUT]][%[[K0]]] : memref<?xf32>
// CHECK: gpu.func @reduce_finish({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_skip_if_single} {
// CHECK-LABEL: gpu.module @warp_device_reduce_maxsi_i32
// CHECK: gpu.func @reduce_finish({{.*}}warp.device_skip_if_single
// CHECK-LABEL: gpu.module @warp_device_reduce_minnumf_f64
// CHECK: gpu.func @reduce_finish({{.*}}warp.device_skip_if_single

// In clusters thread 0 of each cluster's rank 0 stores the cluster's
// partial, then, where the grid is one cluster (2 blocks), the result.
// CHECK-LABEL: gpu.module @warp_device_reduce_add_i32_cluster2
// CHECK: gpu.func @reduce_tiles(%{{.*}}: memref<?xi32> {llvm.noalias, llvm.readonly}, %[[OUT:.*]]: memref<?xi32>, %{{.*}}: memref<?xi8>, %[[N:.*]]: index)
// CHECK-DAG: %[[K2:.*]] = arith.constant 2 : index
// CHECK: %[[GRID:.*]] = gpu.grid_dim x
// CHECK: %[[PARTIAL:.*]] = warp.cluster_reduce <add>
// CHECK: llvm.store %[[PARTIAL]], %{{.*}} : i32, !llvm.ptr<1>
// CHECK-NEXT: %[[SINGLE:.*]] = arith.cmpi eq, %[[GRID]], %[[K2]] : index
// CHECK-NEXT: scf.if %[[SINGLE]] {
// CHECK: memref.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xi32>
// CHECK: gpu.func @reduce_finish({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_skip_if_single} {

// A tuple's reduce_tiles: where the grid is one block, its thread 0 stores
// init (op) partial (a copy of the region) after the partial; with no
// element (no chunk) it stores init.
// CHECK-LABEL: gpu.module @warp_device_reduce_combine_f32_i32
// CHECK: gpu.func @reduce_tiles(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi32>, %[[V0:.*]]: f32, %[[I0:.*]]: i32, %[[M:.*]]: memref<?xf32>, %[[MI:.*]]: memref<?xi32>, %{{.*}}: memref<?xi8>, %{{.*}}: index)
// CHECK: %[[GRID:.*]] = gpu.grid_dim x
// CHECK-NEXT: %[[SINGLE:.*]] = arith.cmpi eq, %[[GRID]], %{{.*}} : index
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<1>
// CHECK-NEXT: scf.if %[[SINGLE]] {
// CHECK-NEXT: arith.cmpf ogt, %{{.*}}, %[[V0]] : f32
// CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %[[V0]] : f32
// CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %[[I0]] : i32
// CHECK-NEXT: memref.store %{{.*}}, %[[M]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT: memref.store %{{.*}}, %[[MI]][%{{.*}}] : memref<?xi32>
// CHECK: } else {
// CHECK-NEXT: %[[ZERO:.*]] = arith.cmpi eq, %thread_id_x, %{{.*}} : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[SINGLE]], %[[ZERO]] : i1
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %[[V0]], %[[M]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT: memref.store %[[I0]], %[[MI]][%{{.*}}] : memref<?xi32>
// CHECK: gpu.func @reduce_finish({{.*}}warp.device_skip_if_single

// PTX-LABEL: .entry reduce_tiles(
// PTX: mov.u32 %r{{[0-9]+}}, %nctaid.x;
// PTX: st.global.b32 [%rd{{[0-9]+}}], %r[[PARTIAL:[0-9]+]];
// PTX-NEXT: setp.ne.b32 %p{{[0-9]+}}, %r{{[0-9]+}}, 1;
// PTX-NEXT: @%p{{[0-9]+}} bra
// PTX-NEXT: selp.f32 %r[[RESULT:[0-9]+]], 0f00000000, %r[[PARTIAL]], %p{{[0-9]+}};
// PTX-NEXT: st.global.b32 [%rd{{[0-9]+}}], %r[[RESULT]];
// PTX: .entry reduce_finish(
