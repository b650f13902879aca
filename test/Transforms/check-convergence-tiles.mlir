// warp-check-convergence on ops over tiles of several warps (`tile N`,
// warp.tile_sync N): every thread of each tile that reaches the op must
// reach it, other tiles need not. Worked out by hand: in a block of 256,
// tiles of 64 are warps 0-1, 2-3, 4-5, 6-7.
// RUN: warp-opt %s --warp-check-convergence -split-input-file -verify-diagnostics

gpu.module @m {
  // Tiles 2 and 3 (threads 128..255) reduce, tiles 0 and 1 do not: silent.
  gpu.func @whole_tiles(%x: f32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c128 = arith.constant 128 : index
    %t = gpu.thread_id x
    %upper = arith.cmpi uge, %t, %c128 : index
    scf.if %upper {
      %s = warp.block_reduce <add> %x tile 64 : f32
      warp.tile_sync 128
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // Threads below 96: tile 1 (warps 2 and 3) is cut after warp 2.
  gpu.func @cut_tile(%x: f32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c96 = arith.constant 96 : index
    %t = gpu.thread_id x
    %low = arith.cmpi ult, %t, %c96 : index
    // expected-note @+1 {{no lane in warp 3 of the block takes the way through this branch}}
    scf.if %low {
      // expected-warning @+1 {{not every thread of the tile reaches this block-level op (warp 3 does not)}}
      warp.tile_sync 64
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  // Threads below 96 split the tile of 128 of warps 0-3.
  gpu.func @cut_big_tile(%x: i32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c96 = arith.constant 96 : index
    %t = gpu.thread_id x
    %low = arith.cmpi ult, %t, %c96 : index
    // expected-note @+1 {{no lane in warp 3 of the block takes the way through this branch}}
    scf.if %low {
      // expected-warning @+1 {{not every thread of the tile reaches this block-level op (warp 3 does not)}}
      %s = warp.block_scan <add> %x tile 128 : i32
    }
    gpu.return
  }
}
