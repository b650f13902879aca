// warp-expand-block-collectives on warp.block_ballot: each warp's
// warp.ballot of its live lanes (a ragged last warp's mask), lane 0 parks
// the word in the warp's prefix slot (34 + warp: the next block op writes
// those only after its first barrier), a barrier (a tile's named barrier,
// also in front: a tile keeps one scratch half), and every thread loads the
// W words into the vector. Also warp.block_shuffle <xor> (t ^ d, valid
// below the tile's N) and a tiled raking scan's own buffer (a group of
// N + N / S + 1 = 96 slots per tile of 64, S = 2: 4 tiles of the block of
// 256).
// RUN: warp-opt %s --pass-pipeline="builtin.module(gpu.module(warp-expand-block-collectives))" | FileCheck %s

// CHECK-DAG: memref.global "private" @__warp_block_tile_rake : memref<384xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_tile_exchange : memref<256xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: gpu.func @block(
// CHECK: %[[PHASE:.+]] = arith.muli %{{.+}}, %c66_i32 : i32
// CHECK: %[[WARP:.+]] = arith.shrui %{{.+}}, %c5_i32 : i32
// CHECK: %[[MASK:.+]] = arith.select %{{.+}}, %c-1_i32, %{{.+}} : i32
// CHECK: %[[WORD:.+]] = warp.ballot %{{.+}} mask %[[MASK]] : i32
// CHECK-NOT: gpu.barrier
// CHECK: scf.if
// CHECK: %[[SLOT:.+]] = arith.addi %[[WARP]], %c34_i32{{.*}} : i32
// CHECK: arith.addi %[[PHASE]], %[[SLOT]] : i32
// CHECK: memref.store %[[WORD]]
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: %[[W0:.+]] = memref.load
// CHECK: %[[W1:.+]] = memref.load
// CHECK: %[[W2:.+]] = memref.load
// CHECK: %[[W3:.+]] = memref.load
// CHECK: vector.from_elements %[[W0]], %[[W1]], %[[W2]], %[[W3]] : vector<4xi32>

// CHECK-LABEL: gpu.func @tiled(
// CHECK: %[[TILE:.+]] = arith.shrui %{{.+}}, %c7_i32 : i32
// CHECK: %[[BITS:.+]] = warp.ballot %{{.+}} mask %c-1_i32 : i32
// CHECK: %[[ID:.+]] = arith.addi %[[TILE]], %c1_i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
// CHECK: scf.if
// CHECK: memref.store %[[BITS]]
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK-COUNT-4: memref.load
// CHECK: vector.from_elements {{.*}} : vector<4xi32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

// A known block of one warp (20 threads): its ballot, no memory or barrier.
// CHECK-LABEL: gpu.func @one_warp(
// CHECK: %[[ONE:.+]] = warp.ballot %{{.+}} mask %c1048575_i32 : i32
// CHECK-NEXT: vector.from_elements %[[ONE]] : vector<1xi32>
// CHECK-NOT: barrier
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @xor(
// CHECK: %[[RANK:.+]] = arith.andi %{{.+}}, %c255_i32 : i32
// CHECK: %[[PARTNER:.+]] = arith.xori %[[RANK]], %{{.+}} : i32
// CHECK: %[[VALID:.+]] = arith.cmpi ult, %[[PARTNER]], %c256_i32{{.*}} : i32
// CHECK: arith.select %[[VALID]], %[[PARTNER]], %[[RANK]] : i32
// CHECK: nvvm.barrier

// CHECK-LABEL: gpu.func @raking(
// CHECK: memref.get_global @__warp_block_tile_rake
// CHECK: arith.muli %{{.+}}, %c96_i32 : i32
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c64_i32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @block(%io: memref<?xi32>, %out: memref<?xvector<4xi32>>) kernel attributes {known_block_size = array<i32: 100, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xi32>
    %c0 = arith.constant 0 : i32
    %p = arith.cmpi sgt, %x, %c0 : i32
    %m = warp.block_ballot %p : vector<4xi32>
    memref.store %m, %out[%t] : memref<?xvector<4xi32>>
    gpu.return
  }
  gpu.func @tiled(%io: memref<?xi32>, %out: memref<?xvector<4xi32>>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xi32>
    %c0 = arith.constant 0 : i32
    %p = arith.cmpi sgt, %x, %c0 : i32
    %m = warp.block_ballot %p tile 128 : vector<4xi32>
    memref.store %m, %out[%t] : memref<?xvector<4xi32>>
    gpu.return
  }
  gpu.func @one_warp(%io: memref<?xi32>, %out: memref<?xvector<1xi32>>) kernel attributes {known_block_size = array<i32: 5, 4, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xi32>
    %c0 = arith.constant 0 : i32
    %p = arith.cmpi sgt, %x, %c0 : i32
    %m = warp.block_ballot %p : vector<1xi32>
    memref.store %m, %out[%t] : memref<?xvector<1xi32>>
    gpu.return
  }
  gpu.func @xor(%io: memref<?xf32>, %d: i32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xf32>
    %r, %ok = warp.block_shuffle <xor> %x, %d tile 256 : f32
    memref.store %r, %io[%t] : memref<?xf32>
    gpu.return
  }
  gpu.func @raking(%io: memref<?xi32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xi32>
    %s = warp.block_scan <add> %x algorithm = <raking> tile 64 : i32
    memref.store %s, %io[%t] : memref<?xi32>
    gpu.return
  }
}
}
