// Block ops: each warp works on its live lanes, lane 0 parks the warp's value
// in one workgroup-memory scratch array per payload type, warp 0 combines the
// parked values, barriers in between.
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_75 format=isa ptx-output=%t.sm75.ptx" -o /dev/null
// RUN: %if ptxas-sm_75 %{ %ptxas -arch=sm_75 %t.sm75.ptx -o %t.sm75.cubin %}

// One scratch array per payload type and kernel (kernels that call no
// common function share none), shared by the kernel's block ops, in two
// halves (the kernel's block ops alternate them) of 32 warp slots, the
// block total (32), the broadcast slot (33) and 32 prefix slots.
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch_0 : memref<132xi64, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch_1 : memref<132xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch_2 : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @reduce
  // The thread index is x + X * (y + Y * z); warp = thread / 32.
  // CHECK: %[[TX:.*]] = gpu.thread_id x
  // CHECK: %[[LIVE:.*]] = arith.minui %{{.*}}, %{{.*}} : i32
  // CHECK: %[[MASK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: %[[BUF:.*]] = memref.get_global @__warp_block_scratch : memref<132xf32, #gpu.address_space<workgroup>>
  // Whole warps: the plain 32-lane reduction; a ragged warp: its live lanes.
  // CHECK: %[[P:.*]] = scf.if
  // CHECK:   warp.reduce <add> %{{[^ ]*}} lanes = <first> : f32
  // CHECK: } else {
  // CHECK:   warp.reduce <add> %{{.*}} valid_lanes %[[LIVE]] mask %[[MASK]] lanes = <first> : f32
  // CHECK: scf.if
  // CHECK:   memref.store %[[P]], %[[BUF]]
  // CHECK: gpu.barrier
  // Warp 0: one warp's partial is the total; else the partials padded with
  // -0.0 (x + -0.0 == x bit for bit) through the plain reduction.
  // CHECK: scf.if
  // CHECK:   scf.if
  // CHECK:     scf.yield %[[P]] : f32
  // CHECK:   } else {
  // CHECK:     %[[PAD:.*]] = arith.constant -0.000000e+00 : f32
  // CHECK:     scf.yield %[[PAD]] : f32
  // CHECK:     warp.reduce <add> %{{[^ ]*}} lanes = <first> : f32
  // CHECK:   memref.store
  // CHECK: gpu.barrier
  // CHECK: memref.load %[[BUF]]
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry reduce(
  // PTX: .shared .align 16 .b8 __warp_block_scratch[528];
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @reduce(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %r = warp.block_reduce <add> %x : f32
    memref.store %r, %out[%t] : memref<?xf32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @scan
  // Each warp scans its live lanes and parks its total.
  // CHECK: %[[S:.*]]:2 = warp.scan <maxsi> %{{.*}} exclusive valid_lanes %{{.*}} mask %{{.*}} : i64, i64
  // CHECK: memref.store %[[S]]#1
  // CHECK: gpu.barrier
  // Warp 0 scans the totals exclusively, init in front.
  // CHECK: warp.scan <maxsi> %{{.*}} exclusive init %{{.*}} valid_lanes %{{.*}} mask %{{.*}} : i64, i64
  // CHECK: gpu.barrier
  // prefix (op) own, and the prefix alone in the first lane of each warp.
  // CHECK: %[[PREFIX:.*]] = memref.load
  // CHECK: %[[C:.*]] = arith.maxsi %[[PREFIX]], %[[S]]#0 : i64
  // CHECK: arith.select %{{.*}}, %[[PREFIX]], %[[C]] : i64
  // The block total.
  // CHECK: memref.load
  // PTX-LABEL: .entry scan(
  // (LLVM moves a global used by one kernel into it.)
  // PTX: .shared .align 16 .b8 __warp_block_scratch_0[1056];
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @scan(%in: memref<?xi64>, %out: memref<?xi64>, %init: i64) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xi64>
    %s, %total = warp.block_scan <maxsi> %x exclusive init %init : i64, i64
    %sum = arith.addi %s, %total : i64
    memref.store %sum, %out[%t] : memref<?xi64>
    gpu.return
  }

  // A known block of one warp, whole or partial: its block reduce and scan
  // are its warp's collectives over the live lanes (the reduction in every
  // lane), with no memory and no barrier.
  // CHECK-LABEL: gpu.func @one_warp
  // CHECK-NOT: gpu.barrier
  // CHECK-NOT: memref.get_global
  // 20 lanes, mask 0xfffff.
  // CHECK: warp.reduce <add> %{{[^ ]*}} valid_lanes %c20_i32{{[_0-9]*}} mask %c1048575_i32{{[_0-9]*}} : f32
  // CHECK: warp.scan <add> %{{[^ ]*}} valid_lanes %c20_i32{{[_0-9]*}} mask %c1048575_i32{{[_0-9]*}} : f32
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry one_warp(
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @one_warp(%in: memref<?xf32>, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 20, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %r = warp.block_reduce <add> %x : f32
    %s = warp.block_scan <add> %r : f32
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }

  // Broadcast: the source thread writes slot 33 of its half, a barrier,
  // everyone reads (expand-block-halves.mlir: the barrier in front of the
  // write that one half needs).
  // CHECK-LABEL: gpu.func @broadcast
  // CHECK-NOT: gpu.barrier
  // CHECK: scf.if
  // CHECK:   memref.store
  // CHECK: gpu.barrier
  // CHECK: memref.load
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry broadcast(
  // PTX-COUNT-1: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @broadcast(%in: memref<?xf32>, %out: memref<?xf32>, %src: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %r = warp.block_broadcast %x, %src : f32
    memref.store %r, %out[%t] : memref<?xf32>
    gpu.return
  }

  // valid_threads %n (CUB's num_valid): n taken to at least 1; each warp
  // reduces its lanes below n (n - 32 w, at least 1, at most its live
  // lanes), and warp 0 the first ceil(n / 32) partials, the other lanes
  // padded with the kind's neutral value; two barriers as without it.
  // CHECK-LABEL: gpu.func @reduce_partial
  // CHECK: %[[WARP:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
  // CHECK: %[[LIVE:.*]] = arith.minui %{{.*}}, %{{.*}} : i32
  // CHECK: %[[N:.*]] = arith.maxsi %{{.*}}, %[[ONE:.*]] : i32
  // CHECK: %[[LEFT:.*]] = arith.subi %[[N]], %{{.*}} : i32
  // CHECK: %[[LOW:.*]] = arith.maxsi %[[LEFT]], %{{.*}} : i32
  // CHECK: %[[VALID:.*]] = arith.minsi %[[LOW]], %[[LIVE]] : i32
  // CHECK: %[[UP:.*]] = arith.addi %[[N]], %{{.*}} : i32
  // CHECK: %[[CEIL:.*]] = arith.shrui %[[UP]], %{{.*}} : i32
  // CHECK: %[[WARPS:.*]] = arith.minui %{{.*}}, %[[CEIL]] : i32
  // CHECK: scf.if
  // CHECK:   warp.reduce <add> %{{[^ ]*}} lanes = <first> : i32
  // CHECK: } else {
  // CHECK:   warp.reduce <add> %{{.*}} valid_lanes %[[VALID]] mask %{{.*}} lanes = <first> : i32
  // CHECK: gpu.barrier
  // CHECK: arith.cmpi eq, %[[WARPS]]
  // CHECK: arith.cmpi ult, %{{.*}}, %[[WARPS]] : i32
  // CHECK: warp.reduce <add> %{{[^ ]*}} lanes = <first> : i32
  // CHECK: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry reduce_partial(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @reduce_partial(%in: memref<?xi32>, %out: memref<?xi32>, %n: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xi32>
    %r = warp.block_reduce <add> %x valid_threads %n : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }

  // A known block of one warp: its reduction over the lanes below n, no
  // memory and no barrier.
  // CHECK-LABEL: gpu.func @reduce_partial_one_warp
  // CHECK-NOT: gpu.barrier
  // CHECK: warp.reduce <add> %{{.*}} valid_lanes %{{.*}} mask %{{.*}} : i32
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  gpu.func @reduce_partial_one_warp(%in: memref<?xi32>, %out: memref<?xi32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xi32>
    %r = warp.block_reduce <add> %x valid_threads %n : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }

}
}
