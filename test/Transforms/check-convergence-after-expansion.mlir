// warp-check-convergence on the program warp-expand-collectives produced
// (the pipelines' second run): `record` marks the kernels the first run
// reported on, `after-expansion` skips those (dropping the mark) and, in
// the others, says with each finding that the expansion made the op. The
// kernels below stand for expanded ones: shuffles with their masks.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-convergence=after-expansion
// RUN: warp-opt %s -split-input-file --warp-check-convergence="record as-warnings" 2>/dev/null | FileCheck %s --check-prefix=RECORD
// RUN: warp-opt %s -split-input-file --warp-check-convergence="after-expansion as-warnings" 2>/dev/null | FileCheck %s --check-prefix=DROP

// RECORD-LABEL: gpu.func @wrong_expansion
// RECORD-SAME: warp.convergence_reported
// RECORD-LABEL: gpu.func @right_expansion
// RECORD-NOT: warp.convergence_reported
// RECORD-LABEL: gpu.func @reported_before
// RECORD-SAME: warp.convergence_reported
// DROP-NOT: warp.convergence_reported

gpu.module @m {
  // A reduction over lanes 0..15 under lane < 16, expanded with a full
  // mask: the expansion's bug.
  gpu.func @wrong_expansion(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %full = arith.constant -1 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    // expected-note @+1 {{only lanes 0x0000ffff take the way through this branch}}
    scf.if %low {
      // expected-error @+2 {{member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op}}
      // expected-note @+1 {{found in the 'warp.shuffle' that warp-expand-collectives made here; the check before the expansion reported nothing in this kernel, so the expansion's mask is suspect (a compiler bug)}}
      %r, %valid = warp.shuffle <xor> %x, %c1 mask %full : f32
    }
    gpu.return
  }

  // The same with the mask of the lanes that take the branch: silent.
  gpu.func @right_expansion(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %half = arith.constant 65535 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %r, %valid = warp.shuffle <xor> %x, %c1 mask %half : f32
    }
    gpu.return
  }

  // A kernel the first run reported on: its findings are the program's,
  // reported once, before the expansion.
  gpu.func @reported_before(%x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>, warp.convergence_reported} {
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %full = arith.constant -1 : i32
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %r, %valid = warp.shuffle <xor> %x, %c1 mask %full : f32
    }
    gpu.return
  }
}
