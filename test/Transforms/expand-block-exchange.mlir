// warp.block_exchange: a barrier, every thread stores its N items where its
// input arrangement puts them, a barrier, every thread loads from where its
// output arrangement puts them. One buffer per element type and kernel
// (kernels that call no common function share none), sized for the
// kernel's largest exchange (B_max * N items plus one padding item per
// 128 bytes; B_max from known_block_size, else 1024).
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_75 format=isa ptx-output=%t.sm75.ptx" -o /dev/null
// RUN: %if ptxas-sm_75 %{ %ptxas -arch=sm_75 %t.sm75.ptx -o %t.sm75.cubin %}

// @blocked_to_striped's f32: 1024 threads x 4 items = 4096, + 4095 / 32 =
// 127 padding items. @striped_to_blocked's i64: known_block_size 33 x 3 =
// 99 threads x 3 items = 297, + 296 / 16 = 18. @round_trip's f32: 1024 x 3
// = 3072, + 3071 / 32 = 95. No scratch array: no other block op here.
// CHECK-DAG: memref.global "private" @[[F32BUF:__warp_block_exchange[_0-9]*]] : memref<4223xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[I64BUF:__warp_block_exchange[_0-9]*]] : memref<315xi64, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[RTBUF:__warp_block_exchange[_0-9]*]] : memref<3167xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @blocked_to_striped
  // CHECK-SAME: (%[[IN:.*]]: memref<?xvector<4xf32>>
  // Thread t = x + X * (y + Y * z), B = X * Y * Z (run time), in i32.
  // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
  // CHECK-DAG: %[[TXI:.*]] = arith.index_castui %[[TX]] : index to i32
  // CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
  // CHECK-DAG: %[[TYI:.*]] = arith.index_castui %[[TY]] : index to i32
  // CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
  // CHECK-DAG: %[[TZI:.*]] = arith.index_castui %[[TZ]] : index to i32
  // CHECK-DAG: %[[BX:.*]] = gpu.block_dim x
  // CHECK-DAG: %[[BXI:.*]] = arith.index_castui %[[BX]] : index to i32
  // CHECK-DAG: %[[BY:.*]] = gpu.block_dim y
  // CHECK-DAG: %[[BYI:.*]] = arith.index_castui %[[BY]] : index to i32
  // CHECK-DAG: %[[BZ:.*]] = gpu.block_dim z
  // CHECK-DAG: %[[BZI:.*]] = arith.index_castui %[[BZ]] : index to i32
  // CHECK: %[[ZY:.*]] = arith.muli %[[BYI]], %[[TZI]] : i32
  // CHECK: %[[YZ:.*]] = arith.addi %[[TYI]], %[[ZY]] : i32
  // CHECK: %[[ROW:.*]] = arith.muli %[[BXI]], %[[YZ]] : i32
  // CHECK: %[[TI:.*]] = arith.addi %[[TXI]], %[[ROW]] : i32
  // CHECK: %[[BXY:.*]] = arith.muli %[[BXI]], %[[BYI]] : i32
  // CHECK: %[[BI:.*]] = arith.muli %[[BXY]], %[[BZI]] : i32
  // CHECK: %[[T:.*]] = arith.index_castui %[[TI]] : i32 to index
  // CHECK: %[[B:.*]] = arith.index_castui %[[BI]] : i32 to index
  // Blocked writes: item 4t + j at (4t + j) + (4t + j) / 32.
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[BASE:.*]] = arith.muli %[[T]], %[[C4]] : index
  // CHECK: %[[C5:.*]] = arith.constant 5 : index
  // CHECK: %[[BUF:.*]] = memref.get_global @[[F32BUF]]
  // CHECK-NEXT: gpu.barrier
  // CHECK: %[[X0:.*]] = vector.extract %{{.*}}[0] : f32 from vector<4xf32>
  // CHECK: %[[G0:.*]] = arith.addi %[[BASE]], %{{.*}} : index
  // CHECK: %[[P0:.*]] = arith.shrui %[[G0]], %[[C5]] : index
  // CHECK: %[[S0:.*]] = arith.addi %[[G0]], %[[P0]] : index
  // CHECK: memref.store %[[X0]], %[[BUF]][%[[S0]]]
  // CHECK-COUNT-3: memref.store
  // CHECK-NOT: memref.load
  // CHECK: gpu.barrier
  // Striped reads: item t + jB.
  // CHECK: %[[JB:.*]] = arith.muli %[[B]], %{{.*}} : index
  // CHECK: %[[H0:.*]] = arith.addi %[[T]], %[[JB]] : index
  // CHECK: %[[Q0:.*]] = arith.shrui %[[H0]], %[[C5]] : index
  // CHECK: %[[R0:.*]] = arith.addi %[[H0]], %[[Q0]] : index
  // CHECK: %[[Y0:.*]] = memref.load %[[BUF]][%[[R0]]]
  // CHECK-COUNT-3: memref.load %[[BUF]]
  // CHECK: vector.from_elements %[[Y0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
  // No third barrier: the next exchange starts with one.
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry blocked_to_striped(
  // PTX: .shared .align 16 .b8 __warp_block_exchange{{[_0-9]*}}[16892];
  // PTX: bar.sync 0;
  // PTX-NOT: shared
  // PTX-COUNT-4: st.shared.b32
  // PTX-NOT: shared
  // PTX: bar.sync 0;
  // PTX-COUNT-4: ld.shared.b32
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @blocked_to_striped(%in: memref<?xvector<4xf32>>, %out: memref<?xvector<4xf32>>, %t: index) kernel {
    %x = memref.load %in[%t] : memref<?xvector<4xf32>>
    %r = warp.block_exchange <blocked_to_striped> %x : vector<4xf32>
    memref.store %r, %out[%t] : memref<?xvector<4xf32>>
    gpu.return
  }

  // striped_to_blocked writes striped (t + jB) and reads blocked (3t + j).
  // CHECK-LABEL: gpu.func @striped_to_blocked
  // CHECK: %[[C3:.*]] = arith.constant 3 : index
  // CHECK: %[[BASE3:.*]] = arith.muli %[[T3:.*]], %[[C3]] : index
  // CHECK: %[[C4S:.*]] = arith.constant 4 : index
  // CHECK: memref.get_global @[[I64BUF]]
  // CHECK: gpu.barrier
  // CHECK: arith.muli %{{.*}}, %{{.*}} : index
  // CHECK: arith.addi %[[T3]], %{{.*}} : index
  // CHECK: arith.shrui %{{.*}}, %[[C4S]] : index
  // CHECK: memref.store
  // CHECK-COUNT-2: memref.store
  // CHECK: gpu.barrier
  // CHECK: arith.addi %[[BASE3]], %{{.*}} : index
  // CHECK-COUNT-3: memref.load
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry striped_to_blocked(
  // (LLVM moves a global used by one kernel into it.)
  // PTX: .shared .align 16 .b8 __warp_block_exchange{{[_0-9]*}}[2520];
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @striped_to_blocked(%in: memref<?xvector<3xi64>>, %out: memref<?xvector<3xi64>>) kernel
      attributes {known_block_size = array<i32: 33, 3, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xvector<3xi64>>
    %r = warp.block_exchange <striped_to_blocked> %x : vector<3xi64>
    memref.store %r, %out[%t] : memref<?xvector<3xi64>>
    gpu.return
  }

  // Two exchanges in a row: four barriers; one item per thread is no
  // exchange at all.
  // CHECK-LABEL: gpu.func @round_trip
  // CHECK-COUNT-4: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK-NOT: warp.block_exchange
  // CHECK: gpu.return
  // PTX-LABEL: .entry round_trip(
  // PTX: .shared .align 16 .b8 __warp_block_exchange{{[_0-9]*}}[12668];
  // PTX-COUNT-4: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @round_trip(%in: memref<?xvector<3xf32>>, %one: memref<?xvector<1xf32>>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xvector<3xf32>>
    %s = warp.block_exchange <blocked_to_striped> %x : vector<3xf32>
    %b = warp.block_exchange <striped_to_blocked> %s : vector<3xf32>
    memref.store %b, %in[%t] : memref<?xvector<3xf32>>
    %y = memref.load %one[%t] : memref<?xvector<1xf32>>
    %z = warp.block_exchange <blocked_to_striped> %y : vector<1xf32>
    memref.store %z, %one[%t] : memref<?xvector<1xf32>>
    gpu.return
  }
}
}
