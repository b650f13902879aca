// warp-expand-block-collectives on a block op with `tile N`, here in the
// function warp-outline-block-collectives moves it to (one scratch half, a
// leading barrier): the tile is t >> log2(N), its rank t & (N - 1), every
// barrier the tile's named barrier (id tile + 1, N threads), and its slots
// start past the block's half at 66 + 66 tile (the broadcast slot 33 of
// them).
// RUN: warp-opt %s --pass-pipeline="builtin.module(gpu.module(warp-outline-block-collectives{max-inline=0},warp-expand-block-collectives))" | FileCheck %s

// The block's half and the two tiles of a known block of 256.
// CHECK: memref.global "private" @__warp_block_scratch : memref<198xi32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func private @__warp_block_broadcast(
// CHECK-SAME: %[[VALUE:[a-z0-9]+]]: i32, %[[RANK:[a-z0-9]+]]: i32)
// CHECK: %[[TILE:.+]] = arith.shrui %[[T:.+]], %c7_i32 : i32
// CHECK: %[[OWN:.+]] = arith.andi %[[T]], %c127_i32 : i32
// CHECK: %[[SCALED:.+]] = arith.muli %[[TILE]], %c66_i32{{.*}} : i32
// CHECK: %[[BASE:.+]] = arith.addi %c66_i32{{.*}}, %[[SCALED]] : i32
// CHECK: %[[ID:.+]] = arith.addi %[[TILE]], %c1_i32{{.*}} : i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
// CHECK: arith.cmpi eq, %[[OWN]], %[[RANK]] : i32
// CHECK: arith.addi %[[BASE]], %c33_i32
// CHECK: memref.store %[[VALUE]]
// CHECK: %[[ID2:.+]] = arith.addi %[[TILE]], %c1_i32{{.*}} : i32
// CHECK: nvvm.barrier id = %[[ID2]] number_of_threads = %c128_i32
// CHECK-NOT: gpu.barrier
// CHECK: memref.load
// CHECK-LABEL: gpu.func @k(
// CHECK: func.call @__warp_block_broadcast

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @k(%io: memref<?xi32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %c5 = arith.constant 5 : i32
    %x = memref.load %io[%t] : memref<?xi32>
    %b = warp.block_broadcast %x, %c5 tile 128 : i32
    memref.store %b, %io[%t] : memref<?xi32>
    gpu.return
  }
}
}
