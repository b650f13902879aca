// warp.block_merge_sort's expansion (warp-expand-block-collectives): one
// buffer per kernel (kernels that call no common function share none: a
// block gets only the shared memory its kernel reaches), sized for the
// kernel's largest sort; per merge round a barrier, the thread's stores, a
// barrier, the search's and the merge's loads (in a block of whole warps
// without clamped runs, warp.syncwarp where the round and the one before
// keep to each warp's part of the buffer); the op is gone.
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s

// small: 96 x 2 i32 keys, (4 + 192 + 1) x 4 bytes = 788, 800 rounded to
// 16. large: 128 x 4 f32 keys, (4 + 512 + 1) x 4 = 2068 (2080 rounded to
// 16), then i16 values at byte 2080, (8 + 512 + 1) x 2 = 1042 (1056):
// 3136 bytes.
// CHECK-DAG: memref.global "private" @[[SMALL:__warp_block_merge_sort_buffer]] : memref<800xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @[[LARGE:__warp_block_merge_sort_buffer_0]] : memref<3136xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-NOT: memref.global
gpu.module @two_sorts {
  // 96 threads: ceil(log2(96)) = 7 rounds of two barriers; the runs end
  // at the block's 192 items (96 is not a power of two).
  // CHECK-LABEL: gpu.func @small
  // CHECK: %{{.*}} = arith.constant 192 : i32
  // CHECK: memref.get_global @[[SMALL]] :
  // CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<800xi8, #gpu.address_space<workgroup>> to memref<197xi32, #gpu.address_space<workgroup>>
  // CHECK-COUNT-14: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK-NOT: warp.block_merge_sort
  // CHECK: gpu.return
  gpu.func @small(%k: vector<2xi32>) -> vector<2xi32>
      attributes {known_block_size = array<i32: 96, 1, 1>} {
    %0 = warp.block_merge_sort %k : vector<2xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    gpu.return %0 : vector<2xi32>
  }
  // 64 x 2 threads: 7 rounds; the values' part after the keys'. Rounds 1
  // to 5 merge within warps: a barrier before the first stores (an earlier
  // user of the buffer), then warp.syncwarp up to the sixth round's
  // stores, barriers from there (rounds 6 and 7 read across warps).
  // CHECK-LABEL: gpu.func @large
  // CHECK: memref.get_global @[[LARGE]] :
  // CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<3136xi8, #gpu.address_space<workgroup>> to memref<517xf32, #gpu.address_space<workgroup>>
  // CHECK: %{{.*}} = arith.constant 2080 : index
  // CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<3136xi8, #gpu.address_space<workgroup>> to memref<521xi16, #gpu.address_space<workgroup>>
  // CHECK: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK-COUNT-10: warp.syncwarp
  // CHECK-NOT: warp.syncwarp
  // CHECK-COUNT-3: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK-NOT: warp.block_merge_sort
  // CHECK: gpu.return
  gpu.func @large(%k: vector<4xf32>, %v: vector<4xi16>) -> vector<4xi16>
      attributes {known_block_size = array<i32: 64, 2, 1>} {
    %0:2 = warp.block_merge_sort %k, %v : vector<4xf32>, vector<4xi16> compare(%a: f32, %b: f32) {
      %lt = arith.cmpf olt, %a, %b : f32
      warp.yield %lt : i1
    }
    gpu.return %0#1 : vector<4xi16>
  }
}

// The rounds keep their barriers where warps could read each other's
// parts: a block of whole warps with valid_items (its runs are clamped,
// and a lane past them reads before its run), and a block smaller than a
// warp.
gpu.module @barriers_kept {
  // 64 threads, valid_items: 6 rounds of two barriers.
  // CHECK-LABEL: gpu.func @valid
  // CHECK-COUNT-12: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK-NOT: warp.syncwarp
  // CHECK: gpu.return
  gpu.func @valid(%k: vector<2xi32>, %n: i32, %oob: i32) -> vector<2xi32>
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.block_merge_sort %k valid_items %n default %oob : vector<2xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    gpu.return %0 : vector<2xi32>
  }
  // 16 threads: 4 rounds of two barriers.
  // CHECK-LABEL: gpu.func @sub_warp
  // CHECK-COUNT-8: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK-NOT: warp.syncwarp
  // CHECK: gpu.return
  gpu.func @sub_warp(%k: vector<2xi32>) -> vector<2xi32>
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %0 = warp.block_merge_sort %k : vector<2xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    gpu.return %0 : vector<2xi32>
  }
}
