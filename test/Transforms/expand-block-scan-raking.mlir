// block_scan algorithm = <raking> (CUB's BLOCK_SCAN_RAKING): every thread
// parks its value in its slot of the raking buffer, a barrier, warp 0's lane
// l folds slots [l S, min(l S + S, B)) serially (S = ceil(B / 32)), warp 0
// scans the segment totals, lane l rescans its segment from its prefix in
// place, a barrier, every thread reads its slot. The default is raking for a
// known_block_size of at most 64 threads that is not a whole number of
// warps and for an integer kind in a known block of 128 to 768 threads,
// warp_scans otherwise.
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// A raking buffer per payload type and kernel (kernels that call no common
// function share none): a slot per thread of the kernel's largest raking
// block (1024 without known_block_size) and the total's slot. f32's
// raking scan has a known 7 x 7 block: segments of S = 2, an even length,
// so the buffer has a padding slot after each (thread t at t + t / 2, lane
// l's segment from 3 l: an odd stride, free of bank conflicts): 49 + 24 + 1
// = 74 slots; 256 threads in segments of 8, 256 + 32. The warp_scans
// lowering keeps a scratch array (two halves of 66 slots, per type); the
// scan of a one-warp block needs none.
// CHECK-DAG: memref.global "private" @[[RAKE:__warp_block_rake]] : memref<1025xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[RAKE_INCL:__warp_block_rake_0]] : memref<1025xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[RAKE_REDUCE:__warp_block_rake_1]] : memref<1025xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[RAKEF:__warp_block_rake_2]] : memref<74xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[RAKE256:__warp_block_rake_3]] : memref<288xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_rake_4 : memref<288xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[RAKE_RCO:__warp_block_rake_5]] : memref<1025xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[WHOLE:__warp_block_scratch]] : memref<132xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[LARGE:__warp_block_scratch_0]] : memref<132xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch_1 : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch_2 : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch_3 : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[SCRATCH:__warp_block_scratch_4]] : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[SCRATCHF:__warp_block_scratch_5]] : memref<132xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @raking
  // CHECK-SAME: (%[[IN:.*]]: memref<?xi32>, %[[OUT:.*]]: memref<?xi32>, %[[INIT:.*]]: i32, %[[X:.*]]: i32)
  // Thread x + X * (y + Y * z), B = X * Y * Z.
  // CHECK: %[[YZ:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
  // CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %[[YZ]] : i32
  // CHECK: %[[THREAD:.*]] = arith.addi %{{.*}}, %[[ROW]] : i32
  // CHECK: %[[XY:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
  // CHECK: %[[B:.*]] = arith.muli %[[XY]], %{{.*}} : i32
  // The lane: the thread's number mod 32 (warps are consecutive numbers).
  // CHECK: %[[LANE:.*]] = arith.andi %[[THREAD]], %{{.*}} : i32
  // CHECK: %[[WARP:.*]] = arith.shrui %[[THREAD]], %{{.*}} : i32
  // The block's warps, S = (B + 31) / 32, also the raking segments' length.
  // CHECK: %[[B31:.*]] = arith.addi %[[B]], %{{.*}} : i32
  // CHECK: %[[S:.*]] = arith.shrui %[[B31]], %{{.*}} : i32
  // CHECK: %[[MASK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: %[[BUF:.*]] = memref.get_global @[[RAKE]] :
  // The total's slot: the buffer's last.
  // CHECK: %[[C1024:.*]] = arith.constant 1024 : i32
  // CHECK: %[[MINE:.*]] = arith.index_castui %[[THREAD]] : i32 to index
  // CHECK: memref.store %[[X]], %[[BUF]][%[[MINE]]]
  // CHECK-NEXT: gpu.barrier
  // CHECK: %[[W0:.*]] = arith.cmpi eq, %[[WARP]], %{{.*}} : i32
  // CHECK: scf.if %[[W0]] {
  // The number of segments ceil(B / S).
  // CHECK:   %[[NSEG:.*]] = arith.divui %{{.*}}, %[[S]] : i32
  // CHECK:   %[[START:.*]] = arith.muli %[[LANE]], %[[S]] : i32
  // CHECK:   %[[END:.*]] = arith.minui %{{.*}}, %[[B]] : i32
  // CHECK:   %[[NEXT:.*]] = arith.addi %[[START]], %{{.*}} : i32
  // CHECK:   %[[HAS:.*]] = arith.cmpi ult, %[[LANE]], %[[NSEG]] : i32
  // The serial fold of the segment.
  // CHECK:   %[[SEG:.*]] = scf.if %[[HAS]] -> (i32) {
  // CHECK:     %[[FIRST:.*]] = memref.load %[[BUF]]
  // CHECK:     %[[FOLD:.*]] = scf.for %{{.*}} = %[[NEXT]] to %[[END]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (i32) : i32 {
  // CHECK:       %[[V:.*]] = memref.load %[[BUF]]
  // CHECK:       %[[SUM:.*]] = arith.addi %[[ACC]], %[[V]] : i32
  // CHECK:       scf.yield %[[SUM]] : i32
  // CHECK:     scf.yield %[[FOLD]] : i32
  // CHECK:   } else {
  // CHECK:     scf.yield %[[X]] : i32
  // The segment totals' exclusive scan, init in front.
  // CHECK:   %[[P:.*]]:2 = warp.scan <add> %[[SEG]] exclusive init %[[INIT]] valid_lanes %[[NSEG]] mask %[[MASK]] : i32, i32
  // The rescan from the prefix, exclusive: each slot gets the sum before it.
  // CHECK:   scf.if %[[HAS]] {
  // CHECK:     %[[F:.*]] = memref.load %[[BUF]]
  // CHECK:     %[[I0:.*]] = arith.addi %[[P]]#0, %[[F]] : i32
  // CHECK:     memref.store %[[P]]#0, %[[BUF]]
  // CHECK:     scf.for %{{.*}} = %[[NEXT]] to %[[END]] step %{{.*}} iter_args(%[[ACC2:.*]] = %[[I0]]) -> (i32) : i32 {
  // CHECK:       %[[V2:.*]] = memref.load %[[BUF]]
  // CHECK:       %[[SUM2:.*]] = arith.addi %[[ACC2]], %[[V2]] : i32
  // CHECK:       memref.store %[[ACC2]], %[[BUF]]
  // CHECK:       scf.yield %[[SUM2]] : i32
  // Lane 0 parks the total in the last slot.
  // CHECK:   scf.if
  // CHECK:     %[[TS:.*]] = arith.index_castui %[[C1024]]
  // CHECK:     memref.store %[[P]]#1, %[[BUF]][%[[TS]]]
  // CHECK: gpu.barrier
  // CHECK: memref.load %[[BUF]][%{{.*}}]
  // CHECK: memref.load %[[BUF]][%{{.*}}]
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry raking(
  // PTX: st.shared.b32
  // PTX-NEXT: bar.sync 0;
  // PTX-COUNT-1: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @raking(%in: memref<?xi32>, %out: memref<?xi32>, %init: i32, %x: i32) kernel {
    %t = gpu.thread_id x
    %s, %total = warp.block_scan <add> %x exclusive init %init algorithm = <raking> : i32, i32
    %sum = arith.addi %s, %total : i32
    memref.store %sum, %out[%t] : memref<?xi32>
    gpu.return
  }

  // Inclusive, no init: lane 0's segment starts from its first value; the
  // others from their prefix.
  // CHECK-LABEL: gpu.func @raking_inclusive
  // CHECK: %[[P:.*]]:2 = warp.scan <maxsi> %{{.*}} exclusive valid_lanes
  // CHECK: scf.if
  // CHECK:   %[[F:.*]] = memref.load
  // CHECK:   %[[C:.*]] = arith.maxsi %[[P]]#0, %[[F]] : i32
  // CHECK:   %[[L0:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
  // CHECK:   %[[I0:.*]] = arith.select %[[L0]], %[[F]], %[[C]] : i32
  // CHECK:   memref.store %[[I0]]
  // CHECK:   scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[I0]])
  // CHECK:     %[[M:.*]] = arith.maxsi %[[ACC]], %{{.*}} : i32
  // CHECK:     memref.store %[[M]]
  // No total result: no lane parks the total (a lane's store in front of the
  // barrier would hold up warp 0 there); the barrier, then each thread's slot.
  // CHECK-NOT: scf.if
  // CHECK:   gpu.barrier
  // CHECK:   memref.load
  // CHECK-NOT: memref.load
  // CHECK: gpu.return
  gpu.func @raking_inclusive(%out: memref<?xi32>, %x: i32) kernel {
    %t = gpu.thread_id x
    %s = warp.block_scan <maxsi> %x algorithm = <raking> : i32
    memref.store %s, %out[%t] : memref<?xi32>
    gpu.return
  }

  // block_reduce algorithm = <raking>: the same segments folded, then
  // warp.reduce over the segments' lanes; every thread reads the total slot.
  // CHECK-LABEL: gpu.func @raking_reduce
  // CHECK-SAME: (%{{.*}}: memref<?xi32>, %[[X:.*]]: i32)
  // CHECK: %[[BUF:.*]] = memref.get_global @[[RAKE_REDUCE]] :
  // CHECK: %[[C1024:.*]] = arith.constant 1024 : i32
  // CHECK: memref.store %[[X]], %[[BUF]]
  // CHECK-NEXT: gpu.barrier
  // CHECK: scf.if
  // CHECK:   %[[NSEG:.*]] = arith.divui
  // CHECK:   %[[SEG:.*]] = scf.if %{{.*}} -> (i32) {
  // CHECK:     scf.for
  // CHECK:       arith.xori
  // CHECK:   %[[R:.*]] = warp.reduce <xor> %[[SEG]] valid_lanes %[[NSEG]] mask %{{.*}} lanes = <first> : i32
  // CHECK:   scf.if
  // CHECK:     %[[TS:.*]] = arith.index_castui %[[C1024]]
  // CHECK:     memref.store %[[R]], %[[BUF]][%[[TS]]]
  // CHECK: gpu.barrier
  // CHECK: %[[TL:.*]] = arith.index_castui %[[C1024]]
  // CHECK: memref.load %[[BUF]][%[[TL]]]
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry raking_reduce(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @raking_reduce(%out: memref<?xi32>, %x: i32) kernel {
    %t = gpu.thread_id x
    %r = warp.block_reduce <xor> %x algorithm = <raking> : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }

  // Defaults: raking up to 64 known threads with a partial warp, warp_scans
  // for whole warps, above 64 and when the size is unknown; an explicit
  // warp_scans wins over the size.
  // CHECK-LABEL: gpu.func @default_small
  // CHECK: memref.get_global @[[RAKEF]] :
  // CHECK: scf.for
  // CHECK: warp.scan <add> %{{.*}} exclusive valid_lanes
  // CHECK: gpu.return
  gpu.func @default_small(%out: memref<?xf32>, %x: f32) kernel
      attributes {known_block_size = array<i32: 7, 7, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x : f32
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }
  // Two whole warps: each warp's scan over all 32 lanes (no valid_lanes),
  // warp 0 scans the two totals.
  // CHECK-LABEL: gpu.func @default_whole_warps
  // CHECK: memref.get_global @[[WHOLE]] :
  // CHECK: warp.scan <add> %{{[^ ]*}} : f32, f32
  // CHECK: warp.scan <add> %{{.*}} exclusive valid_lanes
  gpu.func @default_whole_warps(%out: memref<?xf32>, %x: f32) kernel
      attributes {known_block_size = array<i32: 8, 8, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x : f32
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @default_large
  // CHECK: memref.get_global @[[LARGE]] :
  // CHECK: warp.scan <add> %{{.*}} valid_lanes
  gpu.func @default_large(%out: memref<?xf32>, %x: f32) kernel
      attributes {known_block_size = array<i32: 65, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x : f32
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }
  // One whole warp: its scan is the block's, with no memory and no barrier.
  // CHECK-LABEL: gpu.func @forced_warp_scans
  // CHECK-NOT: gpu.barrier
  // CHECK: warp.scan <add> %{{[^ ]*}} : i32
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  gpu.func @forced_warp_scans(%out: memref<?xi32>, %x: i32) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x algorithm = <warp_scans> : i32
    memref.store %s, %out[%t] : memref<?xi32>
    gpu.return
  }

  // An integer kind in a known block of 128 to 768 threads rakes by default
  // (exact in any order; faster there on the H200: block_probe.py), block
  // reduce from 224 to 512 threads; floats and other sizes keep the warps'
  // collectives.
  // CHECK-LABEL: gpu.func @default_integer_sizes
  // CHECK: memref.get_global @[[SCRATCH]]
  // CHECK: warp.scan <add> %{{[^ ]*}} : i32
  // CHECK: memref.get_global @[[RAKE256]] :
  // CHECK: memref.get_global @[[RAKE256]] :
  // CHECK: memref.get_global @[[SCRATCHF]] :
  // CHECK: warp.scan <add> %{{[^ ]*}} : f32
  // CHECK: memref.get_global @[[SCRATCH]] :
  // CHECK: warp.reduce <add> %{{[^ ]*}} lanes = <first> : i32
  // CHECK: gpu.return
  gpu.func @default_integer_sizes(%out: memref<?xi32>, %x: i32, %y: f32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x algorithm = <warp_scans> : i32
    %r = warp.block_scan <maxsi> %s : i32
    %m = warp.block_reduce <xor> %r : i32
    %f = warp.block_scan <add> %y : f32
    %fi = arith.fptosi %f : f32 to i32
    %sum = arith.addi %m, %fi : i32
    %w = warp.block_reduce <add> %sum algorithm = <warp_reductions> : i32
    memref.store %w, %out[%t] : memref<?xi32>
    gpu.return
  }
  // 96 and 1024 threads: warp_scans (raking took 1.07x and 1.30x as long),
  // block reduce of 192 threads: its warps' reductions (1.16x).
  // CHECK-LABEL: gpu.func @default_integer_96
  // CHECK-NOT: @__warp_block_rake
  // CHECK: gpu.return
  gpu.func @default_integer_96(%out: memref<?xi32>, %x: i32) kernel
      attributes {known_block_size = array<i32: 96, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x : i32
    memref.store %s, %out[%t] : memref<?xi32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @default_integer_1024
  // CHECK-NOT: @__warp_block_rake
  // CHECK: gpu.return
  gpu.func @default_integer_1024(%out: memref<?xi32>, %x: i32) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x : i32
    memref.store %s, %out[%t] : memref<?xi32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @default_reduce_192
  // CHECK-NOT: @__warp_block_rake
  // CHECK: gpu.return
  gpu.func @default_reduce_192(%out: memref<?xi32>, %x: i32) kernel
      attributes {known_block_size = array<i32: 192, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_reduce <add> %x : i32
    memref.store %s, %out[%t] : memref<?xi32>
    gpu.return
  }

  // A known block of 32 S threads: every lane of warp 0 has a whole segment
  // of S = 8 items, loaded once at 9 l .. 9 l + 7 (padded), folded and
  // rescanned from registers (CUB's RAKING_MEMOIZE): no loop, no condition
  // on the lane, thread t's slot t + t / 8.
  // CHECK-LABEL: gpu.func @raking_whole_segments
  // CHECK: %[[Q:.*]] = arith.divui %[[T:.*]], %c8_i32{{(_[0-9]+)?}} : i32
  // CHECK-NEXT: arith.addi %[[T]], %[[Q]] : i32
  // CHECK: gpu.barrier
  // CHECK-NOT: scf.for
  // CHECK-COUNT-8: memref.load
  // CHECK-NOT: memref.load
  // CHECK: warp.scan <add>
  // CHECK-NOT: memref.load
  // CHECK-COUNT-8: memref.store
  // CHECK-NOT: scf.for
  // CHECK: gpu.barrier
  // PTX-LABEL: .entry raking_whole_segments(
  // PTX-COUNT-9: ld.shared.b32
  // PTX-NOT: ld.shared
  // PTX: ret;
  gpu.func @raking_whole_segments(%out: memref<?xi32>, %x: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x algorithm = <raking> : i32
    memref.store %s, %out[%t] : memref<?xi32>
    gpu.return
  }

  // algorithm = <raking_commutative_only> (CUB's RAKING_COMMUTATIVE_ONLY):
  // only the threads past warp 0 store; warp 0's lanes fold their own
  // values with threads l + 32 w, w = 1 .. ceil(B / 32) - 1 (below B),
  // warp.reduce over the first min(B, 32) lanes, the total parked and read.
  // CHECK-LABEL: gpu.func @commutative_raking_reduce
  // CHECK-SAME: (%{{.*}}: memref<?xi32>, %[[X:.*]]: i32)
  // CHECK: %[[BUF:.*]] = memref.get_global @[[RAKE_RCO]] :
  // CHECK: %[[ABOVE:.*]] = arith.cmpi ult, %{{.*}}, %[[WARP:.*]] : i32
  // CHECK: scf.if %[[ABOVE]] {
  // CHECK:   memref.store %[[X]], %[[BUF]]
  // CHECK: gpu.barrier
  // CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[WARP]], %{{.*}} : i32
  // CHECK: scf.if %[[FIRST]] {
  // CHECK:   %[[FOLD:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[X]]) -> (i32)
  // CHECK:     arith.muli %{{.*}}, %c32_i32
  // CHECK:     scf.if %{{.*}} -> (i32) {
  // CHECK:       memref.load %[[BUF]]
  // CHECK:       arith.ori %[[ACC]], %{{.*}} : i32
  // CHECK:   %[[LANES:.*]] = arith.minui %{{.*}}, %c32_i32{{.*}} : i32
  // CHECK:   %[[R:.*]] = warp.reduce <or> %[[FOLD]] valid_lanes %[[LANES]] mask %{{.*}} lanes = <first> : i32
  // CHECK:   scf.if
  // CHECK:     memref.store %[[R]], %[[BUF]]
  // CHECK: gpu.barrier
  // CHECK: memref.load %[[BUF]]
  // CHECK-NOT: gpu.barrier
  // CHECK: gpu.return
  // PTX-LABEL: .entry commutative_raking_reduce(
  // PTX-COUNT-2: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @commutative_raking_reduce(%out: memref<?xi32>, %x: i32) kernel {
    %t = gpu.thread_id x
    %r = warp.block_reduce <or> %x algorithm = <raking_commutative_only> : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }
}
}
