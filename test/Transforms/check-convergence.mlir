// warp-check-convergence: a member mask that names a lane which cannot reach
// the collective is an error (CUDA's collective never completes), lanes that
// reach it outside its mask a warning, a block-level op that only some
// threads of the block reach a warning. Each case below was worked out by
// hand from the lane and thread ids (lane = linear thread id mod 32); the
// cases without an expected diagnostic must stay silent, including those the
// analysis cannot decide. The kernels declare their block size, so that every
// lane of it is known to exist (check-convergence-block-size.mlir: without).
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-convergence
// RUN: warp-opt %s -split-input-file --warp-check-convergence=as-warnings 2>&1 | FileCheck %s --check-prefix=WARN

// WARN-NOT: error:
// WARN: warning: member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op

gpu.module @m {
  gpu.func @half_warp_full_mask(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    scf.if %low {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op: the collective waits for every lane of its mask and never completes}}
      %s = warp.reduce <add> %x : f32
    }
    gpu.return
  }

  // The mask of the lanes that take the branch: nothing to report, on
  // either side of it.
  gpu.func @half_warp_own_mask(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %low_lanes = arith.constant 65535 : i32
    %high_lanes = arith.constant -65536 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %s = warp.reduce <add> %x mask %low_lanes : f32
    } else {
      %s = warp.reduce <add> %x mask %high_lanes : f32
    }
    gpu.return
  }

  gpu.func @mask_misses_lanes(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %half = arith.constant 65535 : i32
    // expected-warning @+1 {{lanes 0xffff0000 reach this op but are not in its member mask 0x0000ffff: a lane that executes a collective must be in its mask}}
    %s = warp.reduce <add> %x mask %half : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  // Even lanes of the low half: lane < 16, then lane % 2 == 0.
  gpu.func @nested(%p: i1) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c16 = arith.constant 16 : i32
    %even_low = arith.constant 21845 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    scf.if %low {
      %r = arith.remui %l, %c2 : i32
      %even = arith.cmpi eq, %r, %c0 : i32
      // expected-note @+1 {{only lanes 0x00005555 take the way through this branch}}
      scf.if %even {
        %ok = warp.ballot %p mask %even_low : i32
        // expected-error @+1 {{member mask 0xffffffff names lanes 0xffffaaaa that cannot reach this op}}
        %bad = warp.vote <any> %p : i1
      }
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // Branches every lane takes alike keep the warp together: a kernel
  // argument, a full-warp vote, a loop with shared bounds.
  gpu.func @uniform_branches(%x: f32, %n: index, %p: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.cmpi ugt, %n, %c1 : index
    scf.if %big {
      %s = warp.reduce <add> %x : f32
    }
    %any = warp.vote <any> %p : i1
    scf.if %any {
      %s = warp.reduce <add> %x : f32
    }
    scf.for %i = %c0 to %n step %c1 {
      %s = warp.reduce <add> %x : f32
      gpu.barrier
    }
    gpu.return
  }

  // What the analysis cannot decide stays silent: a branch on a loaded
  // value, a loop whose bounds are not known per lane (the thread id of a
  // block of unknown size), a mask from activemask, a
  // device function (its callers' lanes are unknown).
  gpu.func @unknown(%x: f32, %data: memref<32xi1>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    %p = memref.load %data[%t] : memref<32xi1>
    scf.if %p {
      %s = warp.reduce <add> %x : f32
    }
    scf.for %i = %c0 to %t step %c1 {
      %s = warp.reduce <add> %x : f32
    }
    %m = warp.activemask : i32
    %s = warp.reduce <add> %x mask %m : f32
    gpu.return
  }

  gpu.func @device_function(%x: f32) {
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %s = warp.reduce <add> %x : f32
    }
    gpu.return
  }

  // warp.exchange and the tensor-core ops have no mask: every lane of the
  // warp takes part, so under a lane condition they wait for the others.
  gpu.func @whole_warp_ops(%items: vector<4xf32>, %a: memref<16x16xf16>, %c: memref<16x16xf32>, %tile: memref<32x8xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    %high = arith.cmpi uge, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0xffff0000 take the way through this branch}}
    scf.if %high {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0x0000ffff that cannot reach this op}}
      %e = warp.exchange <blocked_to_striped> %items : vector<4xf32>
    }
    // expected-note @+1 {{only lanes 0xffff0000 take the way through this branch}}
    scf.if %high {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0x0000ffff that cannot reach this op}}
      %fa = warp.mma_load %a[%c0, %c0] operand = a layout = row shape = m16n16k16 : memref<16x16xf16> -> vector<16xf16>
    }
    // mma.sync and ldmatrix are .aligned: the whole warp, like wmma.
    // expected-note @+1 {{only lanes 0xffff0000 take the way through this branch}}
    scf.if %high {
      %v8 = arith.constant dense<1.0> : vector<8xf16>
      %v4 = arith.constant dense<1.0> : vector<4xf16>
      %acc = arith.constant dense<0.0> : vector<4xf32>
      // expected-error @+1 {{member mask 0xffffffff names lanes 0x0000ffff that cannot reach this op}}
      %m = warp.mma_sync %v8, %v4, %acc shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xf32>
    }
    // expected-note @+1 {{only lanes 0xffff0000 take the way through this branch}}
    scf.if %high {
      %lane = arith.index_cast %l : i32 to index
      // expected-error @+1 {{member mask 0xffffffff names lanes 0x0000ffff that cannot reach this op}}
      %x = warp.ldmatrix %tile[%lane, %c0] count = 4 : memref<32x8xf16, 3> -> vector<8xf16>
    }
    // Every lane: nothing to report.
    %fb = warp.mma_load %a[%c0, %c0] operand = b layout = row shape = m16n16k16 : memref<16x16xf16> -> vector<16xf16>
    %zero = arith.constant dense<0.0> : vector<8xf32>
    %d = warp.mma_compute %fb, %fb, %zero shape = m16n16k16 a_layout = row b_layout = row : vector<16xf16>, vector<8xf32>
    warp.mma_store %d, %c[%c0, %c0] layout = row : vector<8xf32>, memref<16x16xf32>
    gpu.return
  }

  // Without a mask these take the lanes that execute them.
  gpu.func @executing_lanes(%x: f32, %out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %b = warp.broadcast_first %x : f32
      %old = warp.atomic_rmw <add> %x, %out[%c0] : f32, memref<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // 48 threads: warp 1 has lanes 0..15 only. A full mask there names lanes
  // that do not exist, which the hardware does not wait for (the GPU suite
  // runs such kernels): silent. A mask of 16 lanes misses lanes of warp 0.
  gpu.func @ragged(%x: f32) kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
    %half = arith.constant 65535 : i32
    %s = warp.reduce <add> %x : f32
    // expected-warning @+1 {{lanes 0xffff0000 in warp 0 of the block reach this op but are not in its member mask 0x0000ffff}}
    %t = warp.reduce <add> %x mask %half : f32
    gpu.return
  }

  // Threads 32..39 are lanes 0..7 of warp 1 (of lanes 0..15): the full
  // mask names lanes 8..15 of it, which exist and do not come. Warp 0 does
  // not reach the op at all.
  // expected-note @+1 {{warp 1 of the block has only lanes 0x0000ffff (known_block_size = 48x1x1)}}
  gpu.func @ragged_branch(%x: f32) kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
    %c32 = arith.constant 32 : index
    %c40 = arith.constant 40 : index
    %t = gpu.thread_id x
    %second = arith.cmpi uge, %t, %c32 : index
    %low = arith.cmpi ult, %t, %c40 : index
    %both = arith.andi %second, %low : i1
    // expected-note @+1 {{only lanes 0x000000ff in warp 1 of the block take the way through this branch}}
    scf.if %both {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0x0000ff00 that cannot reach this op in warp 1 of the block}}
      %s = warp.reduce <add> %x : f32
    }
    gpu.return
  }

  // Thread ids from the block size: with 64 threads, tid.x < 32 is warp 0.
  gpu.func @first_warp(%x: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c32 = arith.constant 32 : index
    %t = gpu.thread_id x
    %first = arith.cmpi ult, %t, %c32 : index
    // expected-note @+1 {{no lane in warp 1 of the block takes the way through this branch}}
    scf.if %first {
      %s = warp.reduce <add> %x : f32
      // expected-warning @+1 {{not every thread of the block reaches this block-level op (warp 1 does not): the threads that reach it wait at its barrier for the others}}
      gpu.barrier
    }
    gpu.return
  }

  // A 2-D block of 16x4: warp 0 holds rows 0 and 1, so tid.y < 1 lets
  // lanes 0..15 through.
  gpu.func @two_d(%x: f32) kernel attributes {known_block_size = array<i32: 16, 4, 1>} {
    %c1 = arith.constant 1 : index
    %y = gpu.thread_id y
    %row0 = arith.cmpi ult, %y, %c1 : index
    // expected-note @+1 {{only lanes 0x0000ffff in warp 0 of the block take the way through this branch}}
    scf.if %row0 {
      // expected-warning @+1 {{not every thread of the block reaches this block-level op (lanes 0x0000ffff in warp 0 of the block)}}
      %s = warp.block_reduce <add> %x : f32
    }
    gpu.return
  }

  // A block shuffle is block-level too (two barriers): threads 0..4 of 64.
  gpu.func @block_shuffle_in_branch(%x: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c5 = arith.constant 5 : index
    %c1 = arith.constant 1 : i32
    %t = gpu.thread_id x
    %low = arith.cmpi ult, %t, %c5 : index
    // expected-note @+1 {{only lanes 0x0000001f in warp 0 of the block take the way through this branch}}
    scf.if %low {
      // expected-warning @+1 {{not every thread of the block reaches this block-level op (lanes 0x0000001f in warp 0 of the block)}}
      %r, %v = warp.block_shuffle <offset> %x, %c1 : f32
    }
    gpu.return
  }

  // So is a block shift: threads 32..63 of 64 (warp 1).
  gpu.func @block_shift_in_branch(%x: vector<2xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c32 = arith.constant 32 : index
    %t = gpu.thread_id x
    %high = arith.cmpi uge, %t, %c32 : index
    scf.if %high {
      // expected-warning @+1 {{not every thread of the block reaches this block-level op (warp 1 reaches it): the threads that reach it wait at its barrier for the others}}
      %r, %e = warp.block_shift <down> %x : vector<2xf32>
    }
    gpu.return
  }
}
