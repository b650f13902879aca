// warp-check-convergence through the kernel body's CFG (cf branches, as
// written by hand or left by scf-to-cf): the lanes that reach a block are
// the union over the edges into it of the lanes that take each edge; block
// arguments merge the edges' operands lane by lane. Loops iterate to a
// fixpoint (loop-carried arguments assumed uniform, then proven or
// dropped); a loop whose exit the analysis cannot evaluate per lane leaves
// what follows it unknown, and unknown stays silent.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-convergence

gpu.module @m {
  // The upper half returns early: a full-warp reduction after it waits for
  // lanes that have exited.
  gpu.func @early_return(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %high = arith.cmpi uge, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    cf.cond_br %high, ^exit, ^body
  ^body:
    // expected-error @+1 {{member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op: the collective waits for every lane of its mask and never completes}}
    %s = warp.reduce <add> %x : f32
    cf.br ^exit
  ^exit:
    gpu.return
  }

  // The same with the mask of the lanes that stay: silent.
  gpu.func @early_return_own_mask(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %low_lanes = arith.constant 65535 : i32
    %l = warp.lane_id : i32
    %high = arith.cmpi uge, %l, %c16 : i32
    cf.cond_br %high, ^exit, ^body
  ^body:
    %s = warp.reduce <add> %x mask %low_lanes : f32
    cf.br ^exit
  ^exit:
    gpu.return
  }

  // After the join of a diamond every lane is back: a full mask is fine
  // there, and each side's own mask inside it.
  gpu.func @diamond(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %low_lanes = arith.constant 65535 : i32
    %high_lanes = arith.constant -65536 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    cf.cond_br %low, ^a, ^b
  ^a:
    %sa = warp.reduce <add> %x mask %low_lanes : f32
    cf.br ^join
  ^b:
    %sb = warp.reduce <add> %x mask %high_lanes : f32
    cf.br ^join
  ^join:
    %s = warp.reduce <add> %x : f32
    gpu.return
  }

  // The wrong half's mask on one side.
  gpu.func @diamond_wrong_side(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %low_lanes = arith.constant 65535 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0xffff0000 take the way through this branch}}
    cf.cond_br %low, ^join, ^b
  ^b:
    // expected-error @+1 {{member mask 0x0000ffff names lanes 0x0000ffff that cannot reach this op}}
    %sb = warp.reduce <add> %x mask %low_lanes : f32
    cf.br ^join
  ^join:
    gpu.return
  }
}

// -----

gpu.module @m {
  // Block arguments: each lane holds the operand of the edge it took, so
  // the condition below is lane < 16 again, and the branch on it narrows.
  gpu.func @block_argument(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %true = arith.constant true
    %false = arith.constant false
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    cf.cond_br %low, ^join(%true : i1), ^join(%false : i1)
  ^join(%p: i1):
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    cf.cond_br %p, ^inner, ^exit
  ^inner:
    // expected-error @+1 {{member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op}}
    warp.syncwarp
    cf.br ^exit
  ^exit:
    gpu.return
  }

  // A uniform value merged where the lanes arrive together stays uniform:
  // a branch on it keeps the warp converged, so the lanes past it are
  // known (and the half mask misses some).
  gpu.func @uniform_merge(%x: f32, %n: i32, %m: i32, %q: i1) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c1 = arith.constant 1 : i32
    %half = arith.constant 65535 : i32
    cf.cond_br %q, ^a, ^b
  ^a:
    cf.br ^join(%n : i32)
  ^b:
    cf.br ^join(%m : i32)
  ^join(%v: i32):
    %big = arith.cmpi sgt, %v, %c1 : i32
    cf.cond_br %big, ^inner, ^exit
  ^inner:
    // expected-warning @+1 {{lanes 0xffff0000 reach this op but are not in its member mask 0x0000ffff}}
    %s = warp.reduce <add> %x mask %half : f32
    cf.br ^exit
  ^exit:
    gpu.return
  }

  // Uniform values merged from the two sides of a lane-dependent branch
  // differ between lanes: a branch on them is not followed (silent).
  gpu.func @divergent_merge(%x: f32, %n: i32, %m: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c1 = arith.constant 1 : i32
    %half = arith.constant 65535 : i32
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    cf.cond_br %low, ^join(%n : i32), ^join(%m : i32)
  ^join(%v: i32):
    %big = arith.cmpi sgt, %v, %c1 : i32
    cf.cond_br %big, ^inner, ^exit
  ^inner:
    %s = warp.reduce <add> %x mask %half : f32
    cf.br ^exit
  ^exit:
    gpu.return
  }

  // After the join of a divergent branch the lanes may arrive apart, each
  // group voting for itself: a branch on the vote is not followed.
  gpu.func @vote_after_join(%x: f32, %data: memref<32xi1>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %half = arith.constant 65535 : i32
    %t = gpu.thread_id x
    %p = memref.load %data[%t] : memref<32xi1>
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    cf.cond_br %low, ^a, ^b
  ^a:
    cf.br ^join
  ^b:
    cf.br ^join
  ^join:
    %any = warp.vote <any> %p : i1
    cf.cond_br %any, ^inner, ^exit
  ^inner:
    %s = warp.reduce <add> %x mask %half : f32
    cf.br ^exit
  ^exit:
    gpu.return
  }

  // cf.switch on the lane id: case 3 is lane 3 alone.
  gpu.func @switch(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %lane3 = arith.constant 8 : i32
    %true = arith.constant true
    %l = warp.lane_id : i32
    // expected-note @+1 {{only lanes 0x00000008 take the way through this branch}}
    cf.switch %l : i32, [
      default: ^exit,
      3: ^three
    ]
  ^three:
    %ok = warp.reduce <add> %x mask %lane3 : f32
    // expected-error @+1 {{member mask 0xffffffff names lanes 0xfffffff7 that cannot reach this op}}
    %bad = warp.vote <any> %true : i1
    cf.br ^exit
  ^exit:
    gpu.return
  }
}

// -----

gpu.module @m {
  // A loop with a loop-invariant lane condition inside: the fixpoint
  // finds lanes 0..7 at the reduction, on every iteration.
  gpu.func @loop_invariant_condition(%x: f32, %n: i1) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c8 = arith.constant 8 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c8 : i32
    cf.br ^header
  ^header:
    // expected-note @+1 {{only lanes 0x000000ff take the way through this branch}}
    cf.cond_br %low, ^body, ^latch
  ^body:
    // expected-error @+1 {{member mask 0xffffffff names lanes 0xffffff00 that cannot reach this op}}
    %s = warp.reduce <add> %x : f32
    cf.br ^latch
  ^latch:
    cf.cond_br %n, ^header, ^exit
  ^exit:
    %t = warp.reduce <add> %x : f32
    gpu.return
  }

  // A counted loop with shared bounds: the counter is uniform (assumed for
  // the fixpoint, then proven: every edge in brings a uniform value and the
  // lanes arrive together), so the warp stays together through the loop
  // and after it, where the half mask misses lanes.
  gpu.func @counted_loop(%x: f32, %n: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %half = arith.constant 65535 : i32
    cf.br ^header(%c0 : i32)
  ^header(%i: i32):
    %more = arith.cmpi slt, %i, %n : i32
    cf.cond_br %more, ^body, ^exit
  ^body:
    %s = warp.reduce <add> %x : f32
    %next = arith.addi %i, %c1 : i32
    cf.br ^header(%next : i32)
  ^exit:
    // expected-warning @+1 {{lanes 0xffff0000 reach this op but are not in its member mask 0x0000ffff}}
    %t = warp.reduce <add> %x mask %half : f32
    gpu.return
  }

  // The same loop counting from the lane id: lanes leave it at different
  // iterations, the counter is not uniform, and what follows is unknown.
  gpu.func @lane_counted_loop(%x: f32, %n: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c1 = arith.constant 1 : i32
    %half = arith.constant 65535 : i32
    %l = warp.lane_id : i32
    cf.br ^header(%l : i32)
  ^header(%i: i32):
    %more = arith.cmpi slt, %i, %n : i32
    cf.cond_br %more, ^body, ^exit
  ^body:
    %s = warp.reduce <add> %x mask %half : f32
    %next = arith.addi %i, %c1 : i32
    cf.br ^header(%next : i32)
  ^exit:
    %t = warp.reduce <add> %x mask %half : f32
    gpu.return
  }

  // Lanes leave a loop at different iterations: the lane-dependent exit
  // is not followed (silent).
  gpu.func @lane_dependent_exit(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %l = warp.lane_id : i32
    cf.br ^header(%c0 : i32)
  ^header(%i: i32):
    %more = arith.cmpi slt, %i, %l : i32
    cf.cond_br %more, ^body, ^exit
  ^body:
    %s = warp.reduce <add> %x : f32
    %next = arith.addi %i, %c1 : i32
    cf.br ^header(%next : i32)
  ^exit:
    gpu.return
  }
}

// -----

gpu.module @m {
  // Block-level ops and barriers in the CFG: warp 1 of 64 threads returns
  // early.
  gpu.func @barrier_after_return(%x: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c32 = arith.constant 32 : index
    %t = gpu.thread_id x
    %second = arith.cmpi uge, %t, %c32 : index
    // expected-note @+1 {{no lane in warp 1 of the block takes the way through this branch}}
    cf.cond_br %second, ^exit, ^body
  ^body:
    // expected-warning @+1 {{not every thread of the block reaches this block-level op (warp 1 does not)}}
    gpu.barrier
    cf.br ^exit
  ^exit:
    gpu.return
  }

  // A branch on a uniform kernel argument: all threads or none.
  gpu.func @barrier_uniform(%x: f32, %p: i1) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    cf.cond_br %p, ^exit, ^body
  ^body:
    gpu.barrier
    %s = warp.block_reduce <add> %x : f32
    cf.br ^exit
  ^exit:
    gpu.return
  }
}
