// Without known_block_size, warp-check-convergence counts only the lanes
// known to exist: those below a lane that reaches the op (threads are
// numbered without gaps), or, for a lane outside the mask, below a member
// that reaches it. A launch of 16 (17) threads makes the first (third)
// kernel below valid, so by default only the second is reported, where lane
// 30 reaches the op and the odd lanes below it exist; `whole-warps` assumes
// 32 lanes.
// RUN: not warp-opt %s --warp-check-convergence -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not warp-opt %s --warp-check-convergence=whole-warps -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE

// DEFAULT-NOT: {{error|warning}}:
// DEFAULT: check-convergence-block-size.mlir:37:12: error: member mask 0xffffffff names lanes 0x2aaaaaaa that cannot reach this op
// DEFAULT-NOT: {{error|warning}}:

// WHOLE: error: member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op
// WHOLE: error: member mask 0xffffffff names lanes 0xaaaaaaaa that cannot reach this op
// WHOLE: warning: lanes 0xfffe0000 reach this op but are not in its member mask 0x0001ffff

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

  gpu.func @seventeen(%x: f32) kernel {
    %m = arith.constant 131071 : i32
    %s = warp.reduce <add> %x mask %m : f32
    gpu.return
  }
}
