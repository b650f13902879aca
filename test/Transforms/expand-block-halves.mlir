// Where the block ops of a kernel alternate the two halves of the scratch
// array: each thread keeps the phase in a private variable (a memref.alloca
// set to 0 at the kernel's entry), and each block op that uses the scratch
// array loads it, takes half `phase * 66` and stores `phase xor 1`. In a loop
// the phase is carried from one trip to the next (LLVM's SROA turns the
// variable into a register). A kernel that calls a function keeps one half
// and the barriers in front of block_broadcast and the folded block_scan:
// the callee's block ops could not know the phase. Each kernel has scratch
// arrays of its own, shared with the functions it calls.
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>
  // CHECK-DAG: memref.global "private" @[[TYPES_I32:__warp_block_scratch_0]] : memref<132xi32, #gpu.address_space<workgroup>>
  // CHECK-DAG: memref.global "private" @[[TYPES_F32:__warp_block_scratch_1]] : memref<132xf32, #gpu.address_space<workgroup>>
  // One half for @calls and its callee.
  // CHECK-DAG: memref.global "private" @[[CALLS:__warp_block_scratch_2]] : memref<66xi32, #gpu.address_space<workgroup>>
  // CHECK-DAG: memref.global "private" @[[FIRST:__warp_block_scratch_3]] : memref<132xf32, #gpu.address_space<workgroup>>

  // CHECK-LABEL: gpu.func @loop
  // CHECK: %[[PHASE:.*]] = memref.alloca() : memref<i32>
  // CHECK: memref.store %{{.*}}, %[[PHASE]][] : memref<i32>
  // CHECK: scf.for
  // CHECK:   %[[P:.*]] = memref.load %[[PHASE]][] : memref<i32>
  // CHECK:   %[[FLIP:.*]] = arith.xori %[[P]], %{{.*}} : i32
  // CHECK:   memref.store %[[FLIP]], %[[PHASE]][] : memref<i32>
  // CHECK:   %[[HALF:.*]] = arith.muli %[[P]], %{{.*}} : i32
  // CHECK-NOT: gpu.barrier
  // CHECK:   warp.scan <add>
  // CHECK:   arith.addi %[[HALF]], %{{.*}} : i32
  // CHECK:   memref.store
  // CHECK:   gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK:   scf.yield
  // The loop keeps one barrier per scan (LLVM unrolls it 2x).
  // PTX-LABEL: .entry loop(
  // PTX-NOT: local
  // PTX: bar.sync 0;
  // PTX: ret;
  gpu.func @loop(%out: memref<?xi32>, %x: i32, %n: index) kernel
      attributes {known_block_size = array<i32: 96, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> i32 {
      %s = warp.block_scan <add> %a : i32
      scf.yield %s : i32
    }
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }

  // Each type's array alternates with the others': the phase is the
  // kernel's, whatever the payload.
  // CHECK-LABEL: gpu.func @types
  // CHECK: %[[PHASE:.*]] = memref.alloca() : memref<i32>
  // CHECK: memref.load %[[PHASE]][]
  // CHECK: memref.get_global @[[TYPES_I32]] :
  // CHECK: warp.scan <add>
  // CHECK-NOT: memref.alloca
  // CHECK: memref.load %[[PHASE]][]
  // CHECK: memref.get_global @[[TYPES_F32]] :
  // CHECK: memref.load %[[PHASE]][]
  // CHECK: memref.get_global @[[TYPES_I32]] :
  // CHECK: warp.reduce <add>
  gpu.func @types(%out: memref<?xi32>, %x: i32, %y: f32, %src: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x : i32
    %b = warp.block_broadcast %y, %src : f32
    %r = warp.block_reduce <add> %s : i32
    %bi = arith.fptosi %b : f32 to i32
    %sum = arith.addi %r, %bi : i32
    memref.store %sum, %out[%t] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: func.func @broadcast_in_function
  // CHECK-NOT: memref.alloca
  // CHECK: memref.get_global @[[CALLS]] :
  // CHECK: gpu.barrier
  // CHECK: scf.if
  // CHECK:   memref.store
  // CHECK: gpu.barrier
  // CHECK: memref.load
  func.func @broadcast_in_function(%x: i32, %src: i32) -> i32 {
    %r = warp.block_broadcast %x, %src : i32
    return %r : i32
  }

  // CHECK-LABEL: gpu.func @calls
  // CHECK-NOT: memref.alloca
  // CHECK: gpu.barrier
  // CHECK: scf.if
  // CHECK:   memref.store
  // CHECK: gpu.barrier
  // CHECK: memref.load
  // CHECK: func.call @broadcast_in_function
  // PTX-LABEL: .entry calls(
  // PTX-COUNT-4: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @calls(%out: memref<?xi32>, %x: i32, %src: i32) kernel {
    %t = gpu.thread_id x
    %b = warp.block_broadcast %x, %src : i32
    %c = func.call @broadcast_in_function(%b, %src) : (i32, i32) -> i32
    memref.store %c, %out[%t] : memref<?xi32>
    gpu.return
  }

  // threads = <first> with alternating halves: after the parking barrier
  // warp 0 reduces the partials and thread 0 keeps the total; no second
  // barrier, no total slot (the op after next writes the slots warp 0
  // reads, behind the next op's barrier). Two such reductions: two
  // barriers in all.
  // CHECK-LABEL: gpu.func @first_only
  // CHECK: memref.get_global @[[FIRST]] :
  // CHECK: gpu.barrier
  // CHECK: %[[R:.*]] = scf.if
  // CHECK:   warp.reduce <add> %{{[^ ]*}} lanes = <first> : f32
  // CHECK: } else {
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.barrier
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry first_only(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @first_only(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %r = warp.block_reduce <add> %x threads = <first> : f32
    %s = warp.block_reduce <maxnumf> %r threads = <first> : f32
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }
}
}
