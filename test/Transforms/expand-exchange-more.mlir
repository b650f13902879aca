// warp.exchange of 8- and 16-bit items and of more than 32 items per lane,
// and warp.scatter: the strategy choice, the narrow padding and the scatter
// through the exchange buffer.
// RUN: warp-opt %s --warp-expand-collectives -split-input-file | FileCheck %s

// The buffer: 1 warp (known_block_size 32); the largest slice is @many's,
// 32 * 64 bf16 items = 4096 bytes + 31 paddings of 4 bytes = 4220, 4224
// rounded to 16.
// CHECK-LABEL: gpu.module @narrow
// CHECK: memref.global "private" @__warp_exchange_buffer : memref<4224xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64, warp.slice_bytes = 4224 : i64}
gpu.module @narrow {
  // A power-of-two N <= 8 of 16-bit items: shuffles, one item each.
  // CHECK-LABEL: gpu.func @few
  // CHECK-NOT: warp.syncwarp
  // CHECK-COUNT-4: warp.shuffle <idx> %{{.*}}, %{{.*}} : f16
  // CHECK-NOT: warp.shuffle
  // CHECK: gpu.return
  gpu.func @few(%x: vector<4xf16>) -> vector<4xf16> attributes {known_block_size = array<i32: 32, 1, 1>} {
    %0 = warp.exchange <blocked_to_striped> %x : vector<4xf16>
    gpu.return %0 : vector<4xf16>
  }
  // More than 32 items: shared memory; a 2-byte item pads by two items (one
  // 4-byte bank) every 64 items.
  // CHECK-LABEL: gpu.func @many
  // CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
  // CHECK: memref.view %{{.*}} : memref<4224xi8, #gpu.address_space<workgroup>> to memref<2112xbf16, #gpu.address_space<workgroup>>
  // CHECK: warp.syncwarp
  // Item 1 of lane l (striped_to_blocked stores striped): index l + 32.
  // CHECK: vector.extract %{{.*}}[1] : bf16 from vector<64xbf16>
  // CHECK-NEXT: %[[I:.*]] = arith.addi %{{.*}}, %c32 : index
  // CHECK-NEXT: %[[P:.*]] = arith.shrui %[[I]], %[[C6]] : index
  // CHECK-NEXT: %[[Q:.*]] = arith.muli %[[P]], %[[C2]] : index
  // CHECK-NEXT: %[[S:.*]] = arith.addi %[[I]], %[[Q]] : index
  // CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[S]]] : memref<2112xbf16, #gpu.address_space<workgroup>>
  // CHECK-COUNT-62: memref.store
  // CHECK: warp.syncwarp
  // CHECK-COUNT-64: memref.load
  gpu.func @many(%x: vector<64xbf16>) -> vector<64xbf16> attributes {known_block_size = array<i32: 32, 1, 1>} {
    %0 = warp.exchange <striped_to_blocked> %x : vector<64xbf16>
    gpu.return %0 : vector<64xbf16>
  }
}

// -----

// 1-byte items pad by four items every 128. Slice of 32 * 3 i8 = 96 bytes
// (no padding needed), 96 rounded to 16; 1024 threads: 32 warps.
// CHECK-LABEL: gpu.module @bytes
// CHECK: memref.global "private" @__warp_exchange_buffer : memref<3072xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64, warp.slice_bytes = 96 : i64}
gpu.module @bytes {
  // CHECK-LABEL: gpu.func @k
  // CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[P:.*]] = arith.shrui %{{.*}}, %[[C7]] : index
  // CHECK-NEXT: %[[Q:.*]] = arith.muli %[[P]], %[[C4]] : index
  // CHECK: memref.store %{{.*}} : memref<96xi8, #gpu.address_space<workgroup>>
  gpu.func @k(%x: vector<3xi8>) -> vector<3xi8> {
    %0 = warp.exchange <blocked_to_striped> %x : vector<3xi8>
    gpu.return %0 : vector<3xi8>
  }
}

// -----

// The scatter: each item stored at its rank where the rank is a position of
// the warp (unsigned: a negative rank is outside), the lane's positions
// loaded striped (lane + 32 j) or blocked (lane * N + j).
// CHECK-LABEL: gpu.module @scatter
gpu.module @scatter {
  // CHECK-LABEL: gpu.func @striped
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
  // CHECK: %[[LANE_I32:.*]] = warp.lane_id : i32
  // CHECK-NEXT: %[[LANE:.*]] = arith.index_castui %[[LANE_I32]] : i32 to index
  // CHECK: warp.syncwarp
  // CHECK-NEXT: %[[X0:.*]] = vector.extract %{{.*}}[0] : f32 from vector<2xf32>
  // CHECK-NEXT: %[[R0:.*]] = vector.extract %{{.*}}[0] : i32 from vector<2xi32>
  // CHECK-NEXT: %[[P0:.*]] = arith.index_castui %[[R0]] : i32 to index
  // CHECK-NEXT: %[[IN0:.*]] = arith.cmpi ult, %[[P0]], %[[C64]] : index
  // CHECK-NEXT: scf.if %[[IN0]] {
  // CHECK: memref.store %[[X0]]
  // CHECK: scf.if
  // CHECK: warp.syncwarp
  // CHECK: memref.load %{{.*}}[%{{.*}}]
  // CHECK-NEXT: %[[J1:.*]] = arith.addi %[[LANE]], %[[C32]] : index
  // CHECK: memref.load
  // CHECK: vector.from_elements
  gpu.func @striped(%x: vector<2xf32>, %r: vector<2xi32>) -> vector<2xf32> {
    %0 = warp.scatter %x, %r striped : vector<2xf32>, vector<2xi32>
    gpu.return %0 : vector<2xf32>
  }
  // CHECK-LABEL: gpu.func @blocked
  // CHECK: warp.syncwarp
  // CHECK-COUNT-2: scf.if
  // CHECK: warp.syncwarp
  // CHECK: arith.muli %{{.*}}, %c2 : index
  gpu.func @blocked(%x: vector<2xi16>, %r: vector<2xi32>) -> vector<2xi16> {
    %0 = warp.scatter %x, %r : vector<2xi16>, vector<2xi32>
    gpu.return %0 : vector<2xi16>
  }
}
