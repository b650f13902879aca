// warp.block_shuffle: through the block exchange buffer of its payload
// type, a slot per thread of the largest block (1,024 without a known size).
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}

// CHECK-DAG: memref.global "private" @__warp_block_exchange : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_exchange_0 : memref<96xvector<4xi8>, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global

module attributes {gpu.container_module} {
gpu.module @kernels {
  // Block shuffles: a barrier (the exchange buffer's earlier readers are
  // done), each thread stores its value at its slot, a barrier, each loads
  // its source's slot. Offset: t + d where -t <= d < B - t, else its own
  // slot (valid false); rotate: t + (d rem B), brought into [0, B).
  // CHECK-LABEL: gpu.func @shuffles
  // CHECK: %[[NEGT:.*]] = arith.subi %{{.*}}, %[[T:.*]] : i32
  // CHECK: %[[LOW:.*]] = arith.cmpi sge, %[[D:.*]], %[[NEGT]] : i32
  // CHECK: %[[ROOM:.*]] = arith.subi %[[B:.*]], %[[T]] : i32
  // CHECK: %[[HIGH:.*]] = arith.cmpi slt, %[[D]], %[[ROOM]] : i32
  // CHECK: %[[VALID:.*]] = arith.andi %[[LOW]], %[[HIGH]] : i1
  // CHECK: %[[SUM:.*]] = arith.addi %[[T]], %[[D]] : i32
  // CHECK: %[[SRC:.*]] = arith.select %[[VALID]], %[[SUM]], %[[T]] : i32
  // CHECK: %[[BUF:.*]] = memref.get_global @__warp_block_exchange : memref<1024xf32, #gpu.address_space<workgroup>>
  // CHECK: gpu.barrier
  // CHECK: %[[OWN:.*]] = arith.index_castui %[[T]] : i32 to index
  // CHECK: memref.store %{{.*}}, %[[BUF]][%[[OWN]]]
  // CHECK: gpu.barrier
  // CHECK: %[[FROM:.*]] = arith.index_castui %[[SRC]] : i32 to index
  // CHECK: memref.load %[[BUF]][%[[FROM]]]
  // CHECK: arith.remsi
  // CHECK: arith.cmpi slt
  // CHECK: arith.cmpi sge
  // CHECK: gpu.barrier
  // CHECK: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry shuffles(
  // PTX: .shared .align 16 .b8 __warp_block_exchange[4096];
  // PTX-COUNT-4: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @shuffles(%in: memref<?xf32>, %out: memref<?xf32>, %ok: memref<?xi1>, %d: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %r, %v = warp.block_shuffle <offset> %x, %d : f32
    %q, %w = warp.block_shuffle <rotate> %r, %d : f32
    memref.store %q, %out[%t] : memref<?xf32>
    memref.store %v, %ok[%t] : memref<?xi1>
    gpu.return
  }

  // A known block: the buffer has its size; an odd vector of bytes takes
  // four-byte slots (padded, as every block op's payload).
  // CHECK-LABEL: gpu.func @known_odd_vector
  // CHECK: memref.get_global @__warp_block_exchange_0
  // CHECK-COUNT-2: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry known_odd_vector(
  // PTX: .shared .align 16 .b8 __warp_block_exchange_0[384];
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  gpu.func @known_odd_vector(%in: memref<?xvector<3xi8>>, %out: memref<?xvector<3xi8>>) kernel
      attributes {known_block_size = array<i32: 32, 3, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xvector<3xi8>>
    %c1 = arith.constant 1 : i32
    %r, %v = warp.block_shuffle <offset> %x, %c1 : vector<3xi8>
    memref.store %r, %out[%t] : memref<?xvector<3xi8>>
    gpu.return
  }
}
}
