// The adoption path: upstream gpu subgroup ops become warp ops.
// RUN: warp-opt %s --convert-gpu-to-warp | FileCheck %s
// Upstream's own pipeline fails on subgroup_reduce; through warp it lowers.
// RUN: not mlir-opt %s --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_90 cubin-features=+ptx80" 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %python %S/../../PTX/ptx_histogram.py %t.ptx | FileCheck %s --check-prefix=PTX --match-full-lines
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=ENCODING
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// UPSTREAM: failed to legalize operation 'gpu.subgroup_reduce'

module attributes {gpu.container_module} {
gpu.module @kernels {
  // A `uniform` reduction in a known block of whole warps: every lane of
  // every warp executes it, so it is the whole-warp warp.reduce.
  // CHECK-LABEL: gpu.func @reduce
  // CHECK-NOT: warp.activemask
  // CHECK: warp.reduce <add> %{{.*}} : f32
  // CHECK: warp.reduce <maxsi> %{{.*}} cluster_size = 4 cluster_stride = 2 : i32
  // CHECK: warp.reduce <add> %{{.*}} : i32
  // PTX: reduce: add.rn.f32=5 redux.sync.add.s32=1 shfl.sync.bfly.b32=7
  gpu.func @reduce(%in: memref<32xf32>, %iin: memref<32xi32>, %out: memref<32xf32>, %iout: memref<32xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %i = memref.load %iin[%t] : memref<32xi32>
    %r = gpu.subgroup_reduce add %x uniform : (f32) -> f32
    %m = gpu.subgroup_reduce maxsi %i uniform cluster(size = 4, stride = 2) : (i32) -> i32
    %s = gpu.subgroup_reduce add %m uniform : (i32) -> i32
    memref.store %r, %out[%t] : memref<32xf32>
    memref.store %s, %iout[%t] : memref<32xi32>
    gpu.return
  }

  // Otherwise the reduction is over the lanes that execute it together
  // (upstream's active lanes: a block of 48 threads has 16 in its second
  // warp): the whole-warp lowering where they are all 32, else the
  // member-mask one. In a kernel's body those are the warp's existing
  // lanes, counted from the thread's number and the block's size (not
  // read with activemask, which may miss lanes that have not arrived).
  // CHECK-LABEL: gpu.func @reduce_any_block
  // CHECK-NOT: warp.activemask
  // CHECK: %[[LIVE:.*]] = arith.minui %{{.*}}, %{{.*}} : i32
  // CHECK: %[[M:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: %[[FULL:.*]] = arith.cmpi eq, %[[M]], %{{.*}} : i32
  // CHECK: scf.if %[[FULL]] -> (f32) {
  // CHECK:   warp.reduce <add> %{{.*}} : f32
  // CHECK: } else {
  // CHECK:   warp.reduce <add> %{{.*}} mask %[[M]] : f32
  gpu.func @reduce_any_block(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %r = gpu.subgroup_reduce add %x : (f32) -> f32
    memref.store %r, %out[%t] : memref<?xf32>
    gpu.return
  }

  // Width 16 `up`: upstream's meaning (lanes 0..15 take part, lane l reads
  // l - 1, valid iff l >= 1) is the first segment of CUDA's width 16, so it
  // stays one shuffle with c = ((32 - 16) << 8) | 0 = 4096, under upstream's
  // member mask (the first 16 lanes); not upstream's clamp 32 - 16, which
  // returns every lane's own value. (gpu-shuffle-width.mlir: every mode and
  // width.)
  // CHECK-LABEL: gpu.func @shuffle_up_16
  // CHECK: %[[M:.*]] = arith.constant 65535 : i32
  // CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} width 16 mask %[[M]] : f32
  // ENCODING-LABEL: .entry shuffle_up_16
  // ENCODING: shfl.sync.up.b32 {{.*}}, 1, 4096, 65535;
  gpu.func @shuffle_up_16(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %r, %v = gpu.shuffle up %x, %c1, %c16 : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }

  // A run-time width is taken too (upstream would mis-encode `up` again),
  // any width 1..32: the whole warp with clamp 0 under the member mask
  // -1 >> (32 - w), the lanes below w, computed in the kernel.
  // CHECK-LABEL: gpu.func @shuffle_up_dynamic_width
  // CHECK: %[[M:.*]] = arith.shrui
  // CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} mask %[[M]] : f32
  // ENCODING-LABEL: .entry shuffle_up_dynamic_width
  // ENCODING: sub.s32 [[N:%r[0-9]+]], 32, {{%r[0-9]+}};
  // ENCODING: shr.u32 [[M:%r[0-9]+]], {{%r[0-9]+}}, [[N]];
  // ENCODING: shfl.sync.up.b32 {{.*}}, 1, 0, [[M]];
  gpu.func @shuffle_up_dynamic_width(%in: memref<32xf32>, %out: memref<32xf32>, %w: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %c1 = arith.constant 1 : i32
    %r, %v = gpu.shuffle up %x, %c1, %w : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @broadcast_and_lane
  // CHECK: %[[L:.*]] = warp.lane_id : i32
  // CHECK: arith.index_castui %[[L]] : i32 to index
  // CHECK: warp.broadcast_first %{{.*}} : f32
  // CHECK-NOT: warp.activemask
  // CHECK: %[[LIVE:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: warp.broadcast %{{.*}}, %{{.*}} mask %[[LIVE]] : f32
  gpu.func @broadcast_and_lane(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %lane = gpu.lane_id
    %x = memref.load %in[%lane] : memref<32xf32>
    %c3 = arith.constant 3 : i32
    %a = gpu.subgroup_broadcast %x, first_active_lane : f32
    %b = gpu.subgroup_broadcast %x, specific_lane %c3 : f32
    %ab = arith.addf %a, %b : f32
    memref.store %ab, %out[%lane] : memref<32xf32>
    gpu.return
  }

  // In the body of an scf.for whose bounds and step every thread shares
  // (a constant, a kernel argument, arith of the block's size) the
  // executing lanes are the loop's own: each lane that enters runs every
  // iteration (no activemask, which could miss lanes not yet back from the
  // last iteration's branch); an scf.if in such a body narrows them by its
  // ballot. A loop whose bound depends on the thread takes activemask.
  // (Each imported op builds its own copy of the loop's lanes.)
  // CHECK-LABEL: gpu.func @uniform_loops
  // CHECK-NOT: warp.activemask
  // CHECK: %[[LOOP1:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: %[[LOOP2:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: scf.for
  // CHECK:   warp.reduce <add> %{{.*}} mask %[[LOOP2]] : i32
  // CHECK:   %[[ODD:.*]] = warp.ballot %{{.*}} mask %[[LOOP1]] : i32
  // CHECK:   scf.if
  // CHECK:     warp.broadcast %{{.*}}, %{{.*}} mask %[[ODD]] : i32
  // CHECK: scf.for
  // CHECK:   %[[ACTIVE:.*]] = warp.activemask : i32
  // CHECK:   warp.broadcast %{{.*}}, %{{.*}} mask %[[ACTIVE]] : i32
  gpu.func @uniform_loops(%in: memref<?xi32>, %out: memref<?xi32>, %n: index) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bd = gpu.block_dim x
    %ub = arith.addi %n, %bd : index
    %s = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %x) -> (i32) {
      %r = gpu.subgroup_reduce add %acc : (i32) -> i32
      %ii = arith.index_cast %i : index to i32
      %c1_i32 = arith.constant 1 : i32
      %bit = arith.andi %ii, %c1_i32 : i32
      %odd = arith.cmpi ne, %bit, %c1_i32 : i32
      %y = scf.if %odd -> (i32) {
        %c3 = arith.constant 3 : i32
        %b = gpu.subgroup_broadcast %r, specific_lane %c3 : i32
        scf.yield %b : i32
      } else {
        scf.yield %r : i32
      }
      scf.yield %y : i32
    }
    %own = scf.for %i = %c0 to %t step %c1 iter_args(%acc = %s) -> (i32) {
      %c2 = arith.constant 2 : i32
      %b = gpu.subgroup_broadcast %acc, specific_lane %c2 : i32
      scf.yield %b : i32
    }
    memref.store %own, %out[%t] : memref<?xi32>
    gpu.return
  }

  // In an arm of a branch in the kernel's body the executing lanes are
  // the existing ones whose condition takes the arm: their ballot of it,
  // before the branch (activemask there could miss lanes still on their
  // way from an earlier branch); after the branch, in the kernel's body
  // again, all of the warp's existing lanes (the shuffle waits for the
  // arm that has not arrived yet). In a function that is not a kernel (a
  // branch may call it) activemask.
  // (Each imported op builds its own ballot.)
  // CHECK-LABEL: gpu.func @divergent_arms
  // CHECK-NOT: warp.activemask
  // CHECK: %[[COND:.*]] = arith.cmpi ult
  // CHECK: %[[LANES2:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: %[[TAKEN2:.*]] = warp.ballot %[[COND]] mask %[[LANES2]] : i32
  // CHECK: %[[NOT:.*]] = arith.xori %[[TAKEN2]], %{{.*}} : i32
  // CHECK: %[[ELSE:.*]] = arith.andi %[[LANES2]], %[[NOT]] : i32
  // CHECK: %[[LANES:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: %[[ARM:.*]] = warp.ballot %[[COND]] mask %[[LANES]] : i32
  // CHECK: scf.if %[[COND]]
  // CHECK:   warp.reduce <add> %{{.*}} mask %[[ARM]] : i32
  // CHECK: } else {
  // CHECK:   warp.reduce <maxsi> %{{.*}} mask %[[ELSE]] : i32
  // CHECK: }
  // CHECK-NOT: warp.activemask
  // CHECK: %[[LIVE:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK: warp.broadcast %{{.*}}, %{{.*}} mask %[[LIVE]] : i32
  // CHECK-LABEL: gpu.func @not_a_kernel
  // CHECK: %[[CALLED:.*]] = warp.activemask : i32
  // CHECK: warp.broadcast %{{.*}}, %{{.*}} mask %[[CALLED]] : i32
  gpu.func @divergent_arms(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xi32>
    %c5 = arith.constant 5 : index
    %odd = arith.cmpi ult, %t, %c5 : index
    %y = scf.if %odd -> (i32) {
      %r = gpu.subgroup_reduce add %x : (i32) -> i32
      scf.yield %r : i32
    } else {
      %m = gpu.subgroup_reduce maxsi %x : (i32) -> i32
      scf.yield %m : i32
    }
    %c7 = arith.constant 7 : i32
    %b = gpu.subgroup_broadcast %y, specific_lane %c7 : i32
    memref.store %b, %out[%t] : memref<?xi32>
    gpu.return
  }

  gpu.func @not_a_kernel(%x: i32) -> i32 {
    %c7 = arith.constant 7 : i32
    %b = gpu.subgroup_broadcast %x, specific_lane %c7 : i32
    gpu.return %b : i32
  }
}
}
