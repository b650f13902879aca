// Without known_block_size, warp-check-convergence counts only the lanes
// that exist wherever the op runs: threads are numbered without gaps and the
// block may be as small as the lowest lane that reaches the op, so the lanes
// up to that one. Each finding then holds for every block size at which the
// op runs: a block of 16 threads makes @below_sixteen valid, one of 1 thread
// @even_lanes, one of 17 @seventeen; no block makes @upper_half or
// @lane_zero_outside valid. `whole-warps` assumes 32 lanes.
// RUN: not warp-opt %s --warp-check-convergence -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not warp-opt %s --warp-check-convergence=whole-warps -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE

// DEFAULT-NOT: {{error|warning}}:
// DEFAULT: error: member mask 0xffffffff names lanes 0x0000ffff that cannot reach this op
// DEFAULT-NOT: {{error|warning}}:
// DEFAULT: warning: lanes 0x00000001 reach this op but are not in its member mask 0xfffffffe
// DEFAULT-NOT: {{error|warning}}:

// WHOLE: error: member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op
// WHOLE: error: member mask 0xffffffff names lanes 0xaaaaaaaa that cannot reach this op
// WHOLE: error: member mask 0xffffffff names lanes 0x0000ffff that cannot reach this op
// WHOLE: warning: lanes 0xfffe0000 reach this op but are not in its member mask 0x0001ffff
// WHOLE: warning: lanes 0x00000001 reach this op but are not in its member mask 0xfffffffe

gpu.module @m {
  gpu.func @below_sixteen(%x: f32) kernel {
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %s = warp.reduce <add> %x : f32
    }
    gpu.return
  }

  gpu.func @even_lanes(%x: f32) kernel {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %l = warp.lane_id : i32
    %r = arith.remui %l, %c2 : i32
    %even = arith.cmpi eq, %r, %c0 : i32
    scf.if %even {
      %s = warp.reduce <add> %x : f32
    }
    gpu.return
  }

  gpu.func @upper_half(%x: f32) kernel {
    %c16 = arith.constant 16 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
    } else {
      %s = warp.reduce <add> %x : f32
    }
    gpu.return
  }

  gpu.func @seventeen(%x: f32) kernel {
    %m = arith.constant 131071 : i32
    %s = warp.reduce <add> %x mask %m : f32
    gpu.return
  }

  gpu.func @lane_zero_outside(%x: f32) kernel {
    %m = arith.constant -2 : i32
    %s = warp.reduce <add> %x mask %m : f32
    gpu.return
  }
}
