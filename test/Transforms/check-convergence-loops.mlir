// warp-check-convergence on loops whose trip counts differ between lanes
// (scf.for bounds known per lane; scf.while loops whose carried values each
// lane's arithmetic decides): each lane runs its own number of iterations,
// so the body's last run is made only by the lanes with the most; a
// collective there whose mask names the others never completes (CUDA:
// `for (i = 0; i < lane / 8; ++i) __reduce_add_sync(~0u, x)`). Loops with
// shared bounds keep every lane (check-convergence.mlir); counts not known
// per lane stay silent.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-convergence

gpu.module @m {
  // Lane l runs l / 8 + 1 iterations: only lanes 24..31 run the fourth.
  gpu.func @trip_count_from_lane(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %l = warp.lane_id : i32
    %li = arith.index_cast %l : i32 to index
    %q = arith.divui %li, %c8 : index
    %n = arith.addi %q, %c1 : index
    // expected-note @+1 {{only lanes 0xff000000 run this loop's last iteration; the others run fewer (its bounds differ between lanes)}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0x00ffffff that cannot reach this op}}
      %s = warp.reduce <add> %x : i32
    }
    gpu.return
  }

  // The same with the thread id of a known block, a lower bound and a step
  // that vary too, and a mask of the lanes that enter the loop at all.
  gpu.func @thread_bounds(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %t = gpu.thread_id x
    %lo = arith.remui %t, %c2 : index
    %step = arith.addi %lo, %c1 : index
    %m = arith.constant -1 : i32
    // Even lanes: 0 to 16 by 1 (16 iterations); odd lanes: 1 to 16 by 2 (8).
    // expected-note @+1 {{only lanes 0x55555555 run this loop's last iteration}}
    scf.for %i = %lo to %c16 step %step {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0xaaaaaaaa that cannot reach this op}}
      warp.syncwarp mask %m
    }
    gpu.return
  }

  // A barrier in such a loop: the threads with fewer iterations leave the
  // others waiting at it.
  gpu.func @barrier_in_ragged_loop() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %t = gpu.thread_id x
    %low = arith.cmpi ult, %t, %c16 : index
    %n = arith.select %low, %c2, %c1 : index
    // expected-note @+1 {{only lanes 0x0000ffff in warp 0 of the block run this loop's last iteration}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-warning @+1 {{not every thread of the block reaches this block-level op}}
      gpu.barrier
    }
    gpu.return
  }

  // A mask of just the lanes with the most iterations fits the last run
  // only: in the first, the lanes with fewer run the op outside its mask.
  gpu.func @mask_of_the_last(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %l = warp.lane_id : i32
    %li = arith.index_cast %l : i32 to index
    %low = arith.cmpi ult, %li, %c16 : index
    %n = arith.select %low, %c2, %c1 : index
    %m = arith.constant 65535 : i32
    // expected-note @+1 {{only lanes 0x0000ffff run this loop's last iteration}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-warning @+1 {{lanes 0xffff0000 reach this op but are not in its member mask 0x0000ffff}}
      %s = warp.reduce <add> %x mask %m : i32
    }
    gpu.return
  }

  // Nested: lanes 0..7 run the outer loop once, the others twice, so the
  // outer loop's second iteration has no lane 0..7 (the inner loop's
  // counts, 3 and 2, are not needed to see it). An activemask inside is
  // not taken as known (it differs between runs), so a collective on it is
  // not reported.
  gpu.func @nested(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %l = warp.lane_id : i32
    %li = arith.index_cast %l : i32 to index
    %low = arith.cmpi ult, %li, %c8 : index
    %outer = arith.select %low, %c1, %c2 : index
    %inner = arith.select %low, %c3, %c2 : index
    // expected-note @+1 {{only lanes 0xffffff00 run this loop's last iteration}}
    scf.for %i = %c0 to %outer step %c1 {
      %active = warp.activemask : i32
      %s = warp.reduce <add> %x mask %active : i32
      scf.for %j = %c0 to %inner step %c1 {
        // expected-error @+1 {{member mask 0xffffffff names lanes 0x000000ff that cannot reach this op}}
        warp.syncwarp
      }
    }
    gpu.return
  }

  // A loop that only some lanes enter: the others never reach its body.
  gpu.func @not_entered(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c4 : i32
    %n = arith.select %low, %c1, %c0 : index
    // expected-note @+1 {{only lanes 0x0000000f run an iteration of this loop (its bounds differ between lanes)}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0xfffffff0 that cannot reach this op}}
      %s = warp.reduce <add> %x : i32
    }
    gpu.return
  }

  // Only the lanes that reach the op count: lanes 0..7 run two iterations,
  // 8..31 one, but the branch inside lets only lanes 8..15 through, and
  // they run the same count. Its mask is theirs: nothing to report.
  gpu.func @counts_of_those_that_reach(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c8 : i32
    %n = arith.select %low, %c2, %c1 : index
    %ge8 = arith.cmpi uge, %l, %c8 : i32
    %lt16 = arith.cmpi ult, %l, %c16 : i32
    %mine = arith.andi %ge8, %lt16 : i1
    %m = arith.constant 65280 : i32
    scf.for %i = %c0 to %n step %c1 {
      scf.if %mine {
        %s = warp.reduce <add> %x mask %m : i32
      }
    }
    gpu.return
  }

  // Bounds that differ but give every lane the same count, and a loop no
  // lane enters: nothing to report.
  gpu.func @same_count(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %l = warp.lane_id : i32
    %li = arith.index_cast %l : i32 to index
    %hi = arith.addi %li, %c4 : index
    scf.for %i = %li to %hi step %c1 {
      %s = warp.reduce <add> %x : i32
    }
    scf.for %i = %hi to %li step %c1 {
      %s = warp.reduce <add> %x : i32
    }
    gpu.return
  }

  // Lane-dependent bounds of an unknown block's thread id, or loaded ones:
  // not known per lane, silent.
  gpu.func @unknown_bounds(%x: i32, %data: memref<32xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    scf.for %i = %c0 to %t step %c1 {
      %s = warp.reduce <add> %x : i32
    }
    %n = memref.load %data[%t] : memref<32xindex>
    scf.for %i = %c0 to %n step %c1 {
      %s = warp.reduce <add> %x : i32
    }
    gpu.return
  }

  // while (i < lane / 8 + 1) { reduce; ++i }: as the scf.for above.
  gpu.func @while_from_lane(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %l = warp.lane_id : i32
    %q = arith.divui %l, %c8 : i32
    %n = arith.addi %q, %c1 : i32
    // expected-note @+1 {{only lanes 0xff000000 run this loop's last iteration}}
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%j: i32):
      // expected-error @+1 {{member mask 0xffffffff names lanes 0x00ffffff that cannot reach this op}}
      %s = warp.reduce <add> %x : i32
      %next = arith.addi %j, %c1 : i32
      scf.yield %next : i32
    }
    gpu.return
  }

  // The condition region runs once more than the body: lanes 0..15 run it
  // twice, the others once (they never enter the body).
  gpu.func @while_condition_region(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    %n = arith.select %low, %c1, %c0 : i32
    // expected-note @+1 {{only lanes 0x0000ffff run this loop's last iteration}}
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op}}
      %s = warp.reduce <add> %x : i32
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%j: i32):
      %next = arith.addi %j, %c1 : i32
      scf.yield %next : i32
    }
    gpu.return
  }

  // Counts every lane shares (to a constant, or from the lane id by the
  // same distance), a loaded start, a loop that never ends, a carried value
  // from a collective: nothing to report.
  gpu.func @while_silent(%x: i32, %data: memref<32xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %l = warp.lane_id : i32
    %end = arith.addi %l, %c4 : i32
    %a = scf.while (%i = %l) : (i32) -> i32 {
      %go = arith.cmpi slt, %i, %end : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%j: i32):
      %s = warp.reduce <add> %x : i32
      %next = arith.addi %j, %c1 : i32
      scf.yield %next : i32
    }
    %t = gpu.thread_id x
    %start = memref.load %data[%t] : memref<32xi32>
    %b = scf.while (%i = %start) : (i32) -> i32 {
      %go = arith.cmpi slt, %i, %c4 : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%j: i32):
      %s = warp.reduce <add> %x : i32
      %next = arith.addi %j, %c1 : i32
      scf.yield %next : i32
    }
    %true = arith.constant true
    %c = scf.while (%i = %l) : (i32) -> i32 {
      scf.condition(%true) %i : i32
    } do {
    ^bb0(%j: i32):
      %s = warp.reduce <add> %x : i32
      scf.yield %j : i32
    }
    %d = scf.while (%i = %c0) : (i32) -> i32 {
      %go = arith.cmpi slt, %i, %c4 : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%j: i32):
      %s = warp.reduce <add> %j : i32
      scf.yield %s : i32
    }
    gpu.return
  }
}
