// warp.exchange: the compiler's strategy choice, the shuffle transposition
// and the shared-memory form with its workgroup buffer.
// RUN: warp-opt %s --warp-expand-collectives -split-input-file | FileCheck %s

// One buffer per gpu.module, sized for the largest shared exchange: 2 warps
// (known_block_size 64) of 32 * 16 f64 items + 31 padding items = 4344
// bytes, rounded to 4352 (the largest slice, on the buffer).
// CHECK-LABEL: gpu.module @choice
// CHECK: memref.global "private" @__warp_exchange_buffer : memref<8704xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64, warp.slice_bytes = 4352 : i64}
gpu.module @choice {
  // N = 1: blocked and striped are the same arrangement.
  // CHECK-LABEL: gpu.func @one
  // CHECK-NEXT: gpu.return %arg0
  gpu.func @one(%x: vector<1xf32>) -> vector<1xf32> {
    %0 = warp.exchange <blocked_to_striped> %x : vector<1xf32>
    gpu.return %0 : vector<1xf32>
  }
  // N <= 8, a power of two: shuffles (two per item for f64).
  // CHECK-LABEL: gpu.func @few
  // CHECK-NOT: warp.syncwarp
  // CHECK-COUNT-8: warp.shuffle <idx> %{{.*}}, %{{.*}} : f64
  // CHECK-NOT: warp.shuffle
  // CHECK: gpu.return
  gpu.func @few(%x: vector<8xf64>) -> vector<8xf64> attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.exchange <striped_to_blocked> %x : vector<8xf64>
    gpu.return %0 : vector<8xf64>
  }
  // Larger N: shared memory, syncwarp before the stores and before the loads.
  // CHECK-LABEL: gpu.func @many
  // CHECK: %[[BUF:.*]] = memref.get_global @__warp_exchange_buffer
  // CHECK: %[[W:.*]] = warp.warp_id linear : i32
  // CHECK: %[[WI:.*]] = arith.index_castui %[[W]] : i32 to index
  // CHECK: %[[SHIFT:.*]] = arith.muli %[[WI]], %{{.*}} : index
  // CHECK: %[[SLICE:.*]] = memref.view %[[BUF]][%[[SHIFT]]][] : memref<8704xi8, #gpu.address_space<workgroup>> to memref<544xf64, #gpu.address_space<workgroup>>
  // CHECK: warp.syncwarp
  // CHECK-COUNT-16: memref.store %{{.*}}, %[[SLICE]]
  // CHECK: warp.syncwarp
  // CHECK-COUNT-16: memref.load %[[SLICE]]
  // CHECK-NOT: warp.shuffle
  gpu.func @many(%x: vector<16xf64>) -> vector<16xf64> attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.exchange <blocked_to_striped> %x : vector<16xf64>
    gpu.return %0 : vector<16xf64>
  }
  // Not a power of two: only shared memory can. Its own slices (400
  // bytes): no other exchange runs in its kernel.
  // CHECK-LABEL: gpu.func @odd
  // CHECK: %[[STRIDE:.*]] = arith.constant 400 : index
  // CHECK: %[[SHIFT:.*]] = arith.muli %{{.*}}, %[[STRIDE]] : index
  // CHECK: memref.view %{{.*}}[%[[SHIFT]]][] : memref<8704xi8, #gpu.address_space<workgroup>> to memref<100xi32, #gpu.address_space<workgroup>>
  // CHECK: warp.syncwarp
  // CHECK-COUNT-3: memref.store
  gpu.func @odd(%x: vector<3xi32>) -> vector<3xi32> attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.exchange <blocked_to_striped> %x : vector<3xi32>
    gpu.return %0 : vector<3xi32>
  }
}

// -----

// Outside a gpu.func the compiler falls back to shuffles for a large N.
// CHECK-LABEL: func @host_side
// CHECK-COUNT-16: warp.shuffle <idx>
// CHECK-NOT: memref.global
func.func @host_side(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = warp.exchange <blocked_to_striped> %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// The transposition for N = 2, blocked_to_striped (M = 16): each lane
// rotates its items left by lane / 16, step k reads, from lane
// 16 * ((k + lane % 2) % 2) + lane / 2, the item at position (2 - k) % 2 of
// the rotated vector, and the result rotates right by lane % 2.
// CHECK-LABEL: func @two
// CHECK-SAME: (%[[X:.*]]: vector<2xi32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: %[[LANE:.*]] = warp.lane_id : i32
// CHECK: %[[R:.*]] = arith.andi %[[LANE]], %[[C1]] : i32
// CHECK: %[[Q:.*]] = arith.shrui %[[LANE]], %[[C1]] : i32
// CHECK: %[[A:.*]] = arith.shrui %[[LANE]], %[[C4]] : i32
// CHECK: %[[ROT:.*]] = vector.shuffle %[[X]], %[[X]] [1, 0]
// CHECK: %[[ABIT:.*]] = arith.andi %[[A]], %[[C1]] : i32
// CHECK: %[[ASET:.*]] = arith.cmpi ne, %[[ABIT]], %{{.*}} : i32
// CHECK: %[[PRE:.*]] = arith.select %[[ASET]], %[[ROT]], %[[X]] : vector<2xi32>
// CHECK: %[[HI0:.*]] = arith.shli %[[R]], %[[C4]] : i32
// CHECK: %[[SRC0:.*]] = arith.ori %[[HI0]], %[[Q]] : i32
// CHECK: %[[E0:.*]] = vector.extract %[[PRE]][0]
// CHECK: %[[Y0:.*]], %{{.*}} = warp.shuffle <idx> %[[E0]], %[[SRC0]] : i32
// CHECK: %[[K1:.*]] = arith.addi %[[R]], %[[C1]] : i32
// CHECK: %[[P1:.*]] = arith.andi %[[K1]], %[[C1]] : i32
// CHECK: %[[HI1:.*]] = arith.shli %[[P1]], %[[C4]] : i32
// CHECK: %[[SRC1:.*]] = arith.ori %[[HI1]], %[[Q]] : i32
// CHECK: %[[E1:.*]] = vector.extract %[[PRE]][1]
// CHECK: %[[Y1:.*]], %{{.*}} = warp.shuffle <idx> %[[E1]], %[[SRC1]] : i32
// CHECK: %[[G:.*]] = vector.from_elements %[[Y0]], %[[Y1]] : vector<2xi32>
// CHECK: %[[GROT:.*]] = vector.shuffle %[[G]], %[[G]] [1, 0]
// CHECK: %[[RSET:.*]] = arith.cmpi ne, %[[R]], %{{.*}} : i32
// CHECK: %[[OUT:.*]] = arith.select %[[RSET]], %[[GROT]], %[[G]] : vector<2xi32>
// CHECK: return %[[OUT]]
func.func @two(%x: vector<2xi32>) -> vector<2xi32> {
  %0 = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<2xi32>
  return %0 : vector<2xi32>
}

// -----

// A buffer an earlier run made, whose slices (96 bytes) are too small for
// this run's exchange: its code keeps it under a new name, and this run's
// exchanges get a buffer of their own.
// CHECK-LABEL: gpu.module @earlier
// CHECK-DAG: memref.global "private" @__warp_exchange_buffer_0 : memref<192xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64, warp.slice_bytes = 96 : i64}
// CHECK-DAG: memref.global "private" @__warp_exchange_buffer : memref<8704xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64, warp.slice_bytes = 4352 : i64}
// CHECK-LABEL: gpu.func @lowered
// CHECK: memref.get_global @__warp_exchange_buffer_0
// CHECK-LABEL: gpu.func @fresh
// CHECK: memref.get_global @__warp_exchange_buffer :
gpu.module @earlier {
  memref.global "private" @__warp_exchange_buffer : memref<192xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64, warp.slice_bytes = 96 : i64}
  gpu.func @lowered() -> memref<192xi8, #gpu.address_space<workgroup>> attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = memref.get_global @__warp_exchange_buffer : memref<192xi8, #gpu.address_space<workgroup>>
    gpu.return %0 : memref<192xi8, #gpu.address_space<workgroup>>
  }
  gpu.func @fresh(%x: vector<16xf64>) -> vector<16xf64> attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.exchange <blocked_to_striped> %x : vector<16xf64>
    gpu.return %0 : vector<16xf64>
  }
}

// -----

// Two exchanges of different sizes in one kernel: both take the larger
// one's slices (4352 bytes a warp). With a slice each, warp 1's slice of
// the small one (400 bytes in) would lie in warp 0's of the large one,
// which warp 0 may run while warp 1 runs the small one.
// CHECK-LABEL: gpu.module @mixed
// CHECK: memref.global "private" @__warp_exchange_buffer : memref<8704xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64, warp.slice_bytes = 4352 : i64}
// CHECK-LABEL: gpu.func @two
// CHECK: %[[S:.*]] = arith.constant 4352 : index
// CHECK: arith.muli %{{.*}}, %[[S]] : index
// CHECK: memref.view {{.*}} to memref<100xi32, #gpu.address_space<workgroup>>
// CHECK: arith.muli %{{.*}}, %[[S]] : index
// CHECK: memref.view {{.*}} to memref<544xf64, #gpu.address_space<workgroup>>
gpu.module @mixed {
  gpu.func @two(%x: vector<3xi32>, %y: vector<16xf64>) -> (vector<3xi32>, vector<16xf64>) attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.exchange <blocked_to_striped> %x : vector<3xi32>
    %1 = warp.exchange <blocked_to_striped> %y strategy = <shared> : vector<16xf64>
    gpu.return %0, %1 : vector<3xi32>, vector<16xf64>
  }
}
