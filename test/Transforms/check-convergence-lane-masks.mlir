// warp-check-convergence on member masks a program computes from the lanes
// that run: `warp.activemask` is the lanes that reach it together (known
// with the block size), `warp.ballot` the lanes of its members whose
// predicate holds, `warp.match_any`/`match_all` the members holding the
// same value; the result of a collective with a member mask is the same in
// every member. Such a mask used where it was taken is fine; used past
// another branch it can be checked.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-convergence

gpu.module @m {
  // The lanes that reach the activemask are those that reach the reduction.
  gpu.func @activemask_same_place(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %m = warp.activemask : i32
      %s = warp.reduce <add> %x mask %m : f32
      %b = warp.ballot %low mask %m : i32
    }
    gpu.return
  }

  // A mask taken before the branch and used after it: the CUDA bug of a
  // mask computed before a branch.
  gpu.func @activemask_before_branch(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %m = warp.activemask : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    scf.if %low {
      // expected-error @+1 {{member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op}}
      %s = warp.reduce <add> %x mask %m : f32
    }
    gpu.return
  }

  // A mask taken in one branch and used in a nested one.
  gpu.func @activemask_nested(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    scf.if %low {
      %m = warp.activemask : i32
      %r = arith.remui %l, %c2 : i32
      %even = arith.cmpi eq, %r, %c0 : i32
      // expected-note @+1 {{only lanes 0x00005555 take the way through this branch}}
      scf.if %even {
        // expected-error @+1 {{member mask 0x0000ffff names lanes 0x0000aaaa that cannot reach this op}}
        warp.syncwarp mask %m
      }
    }
    gpu.return
  }

  // In a ragged warp the activemask is the lanes that exist.
  gpu.func @activemask_ragged(%x: f32) kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
    %m = warp.activemask : i32
    %s = warp.reduce <add> %x mask %m : f32
    gpu.return
  }

  // Without the block size the lanes that exist, and so the activemask,
  // are unknown: silent.
  gpu.func @activemask_no_block_size(%x: f32) kernel {
    %c16 = arith.constant 16 : i32
    %m = warp.activemask : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %s = warp.reduce <add> %x mask %m : f32
    }
    gpu.return
  }

  // Lanes that arrive by different ways (a join after a divergent cf
  // branch) may run the activemask apart: silent.
  gpu.func @activemask_after_join(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %c8 = arith.constant 8 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    cf.cond_br %low, ^a, ^b
  ^a:
    cf.br ^join
  ^b:
    cf.br ^join
  ^join:
    %m = warp.activemask : i32
    %lower = arith.cmpi ult, %l, %c8 : i32
    scf.if %lower {
      %s = warp.reduce <add> %x mask %m : f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // The ballot of the branch's condition, taken by the whole warp, is the
  // mask of the lanes that take it.
  gpu.func @ballot_mask(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    %m = warp.ballot %low : i32
    scf.if %low {
      %s = warp.reduce <add> %x mask %m : f32
    }
    gpu.return
  }

  // The ballot of another condition than the branch's.
  gpu.func @ballot_wrong_condition(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    %lower = arith.cmpi ult, %l, %c8 : i32
    %m = warp.ballot %low : i32
    // expected-note @+1 {{only lanes 0x000000ff take the way through this branch}}
    scf.if %lower {
      // expected-error @+1 {{member mask 0x0000ffff names lanes 0x0000ff00 that cannot reach this op}}
      %s = warp.reduce <add> %x mask %m : f32
    }
    gpu.return
  }

  // A ballot with a mask inside a branch: the members' predicates. Lanes
  // 0..15 vote, the even ones hold: the syncwarp on that mask in the
  // branch on the odd lanes names lanes that are not there.
  gpu.func @ballot_in_branch(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    scf.if %low {
      %half = warp.activemask : i32
      %r = arith.remui %l, %c2 : i32
      %even = arith.cmpi eq, %r, %c0 : i32
      %m = warp.ballot %even mask %half : i32
      // expected-note @+1 {{only lanes 0x0000aaaa take the way through this branch}}
      scf.if %even {
        warp.syncwarp mask %m
      } else {
        // expected-error @+1 {{member mask 0x00005555 names lanes 0x00005555 that cannot reach this op}}
        warp.syncwarp mask %m
      }
    }
    gpu.return
  }

  // A ballot of a predicate the analysis cannot evaluate: unknown, silent.
  gpu.func @ballot_unknown(%x: f32, %data: memref<32xi1>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %t = gpu.thread_id x
    %p = memref.load %data[%t] : memref<32xi1>
    %m = warp.ballot %p : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %s = warp.reduce <add> %x mask %m : f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // Results every member shares: a branch on a masked vote keeps the
  // lanes that took the outer branch together, so the lanes inside are
  // known (and the full mask names the others).
  gpu.func @masked_vote_branch(%x: f32, %data: memref<32xi1>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %half = arith.constant 65535 : i32
    %t = gpu.thread_id x
    %p = memref.load %data[%t] : memref<32xi1>
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    scf.if %low {
      %any = warp.vote <any> %p mask %half : i1
      scf.if %any {
        // expected-error @+1 {{member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op}}
        %s = warp.reduce <add> %x : f32
      }
    }
    gpu.return
  }

  // match_any of a uniform value is its members; of the lane's parity,
  // the lanes of the same parity.
  gpu.func @match_any(%x: f32, %k: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %l = warp.lane_id : i32
    %all = warp.match_any %k : i32
    %s = warp.reduce <add> %x mask %all : f32
    %r = arith.remui %l, %c2 : i32
    %peers = warp.match_any %r : i32
    %even = arith.cmpi eq, %r, %c0 : i32
    scf.if %even {
      %e = warp.reduce <add> %x mask %peers : f32
    }
    %allm, %same = warp.match_all %r : i32
    // expected-warning @+1 {{lanes 0xffffffff reach this op but are not in its member mask 0x00000000}}
    %z = warp.reduce <add> %x mask %allm : f32
    gpu.return
  }
}
