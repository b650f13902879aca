// `tile N` on the block ops and warp.tile_sync N: N a power of two from 64
// to 512, dividing a known block into at most 15 tiles; a constant
// broadcast rank below N; warp.block_ballot's words.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @+1 {{tile must be a power of two from 64 to 512 threads}}
    %r = warp.block_reduce <add> %x tile 32 : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @+1 {{tile must be a power of two from 64 to 512 threads (whole warps; a tile of a warp or less is a warp op's width or cluster_size), got 96}}
    %r = warp.block_scan <add> %x tile 96 : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %c = arith.constant 0 : i32
    // expected-error @+1 {{got 1024}}
    %r = warp.block_broadcast %x, %c tile 1024 : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error @+1 {{tile must be a power of two from 64 to 512 threads}}
    warp.tile_sync 0
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {known_block_size = array<i32: 96, 2, 1>} {
    // expected-error @+1 {{tile 128 does not divide the block's 192 threads (known_block_size)}}
    %r = warp.block_reduce <add> %x tile 128 : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
    // expected-error @+1 {{tile 64 splits the block's 1024 threads into 16 tiles; at most 15 (a named barrier each, 1 to 15)}}
    warp.tile_sync 64
    gpu.return
  }
}

// -----

// `items` and `raking` take tiles; raking's other rules still hold.
gpu.module @m {
  gpu.func @k(%x: i32, %v: vector<4xi32>) kernel {
    %a = warp.block_reduce <add> %v items tile 64 : vector<4xi32>
    %b = warp.block_scan <add> %v items exclusive tile 128 : vector<4xi32>
    %c = warp.block_scan <add> %x algorithm = <raking> tile 64 : i32
    %d = warp.block_reduce <add> %x algorithm = <raking> tile 256 : i32
    // expected-error @+1 {{algorithm 'raking' does not take 'reverse'}}
    %e = warp.block_scan <add> %x reverse algorithm = <raking> tile 64 : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xi32>, %n: i32) kernel {
    // expected-error @+1 {{takes 'items' or 'valid_threads', not both}}
    %r = warp.block_reduce <add> %v items valid_threads %n tile 64 : vector<4xi32>
    gpu.return
  }
}

// -----

// warp.block_ballot: a word per warp of the tile or of the known block.
gpu.module @m {
  gpu.func @k(%p: i1) kernel attributes {known_block_size = array<i32: 16, 5, 1>} {
    %a = warp.block_ballot %p : vector<3xi32>
    // expected-error @+1 {{result must have 3 words (one per warp of the block's 80 threads), got 2}}
    %c = warp.block_ballot %p : vector<2xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%p: i1) kernel {
    %b = warp.block_ballot %p tile 64 : vector<2xi32>
    // expected-error @+1 {{result of a tile of 256 threads must have 8 words (one per warp), got 4}}
    %c = warp.block_ballot %p tile 256 : vector<4xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%p: i1) kernel {
    // expected-error @+1 {{without 'tile' needs the gpu.func's known_block_size}}
    %b = warp.block_ballot %p : vector<8xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%p: i1) kernel {
    // expected-error @+1 {{tile must be a power of two from 64 to 512}}
    %b = warp.block_ballot %p tile 32 : vector<1xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%p: i1) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    // expected-error @+1 {{tile 64 does not divide the block's 96 threads}}
    %b = warp.block_ballot %p tile 64 : vector<2xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%p: i1) kernel {
    // expected-error @+1 {{'warp.block_ballot' op result #0 must be fixed-length vector of 32-bit signless integer values of ranks 1}}
    %b = warp.block_ballot %p tile 64 : vector<2xi64>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel {
    %c = arith.constant 64 : i32
    // expected-error @+1 {{thread 64 is not a rank of a tile of 64 threads}}
    %r = warp.block_broadcast %x, %c tile 64 : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32, %d: i32) kernel attributes {known_block_size = array<i32: 640, 1, 1>} {
    // expected-error @+1 {{tile 256 does not divide the block's 640 threads (known_block_size)}}
    %r, %ok = warp.block_shuffle <offset> %x, %d tile 256 : i32
    gpu.return
  }
}
