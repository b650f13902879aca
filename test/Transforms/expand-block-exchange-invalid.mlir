// A block exchange buffer that cannot fit in static shared memory is a
// diagnostic at the op, with the numbers and what to do.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-expand-block-collectives

// Without known_block_size: sized for 1024 threads. 12 f32 items: 12288 items
// + 383 padding = 50684 bytes.
gpu.module @unknown_block {
  gpu.func @k(%x: vector<12xf32>) -> vector<12xf32> {
    // expected-error @+1 {{'warp.block_exchange' op needs a workgroup buffer of 50684 bytes (1024 threads x 12 items of 'f32', padded), more than the 49152 bytes of static shared memory: give the gpu.func a (smaller) known_block_size or exchange fewer items}}
    %0 = warp.block_exchange <blocked_to_striped> %x : vector<12xf32>
    gpu.return %0 : vector<12xf32>
  }
}

// -----

// The same exchange fits a known 256-thread block; 8 f64 items do not fit
// 1024 known threads (8192 + 511 padding items of 8 bytes).
gpu.module @known_block {
  gpu.func @fits(%x: vector<12xf32>) -> vector<12xf32> attributes {known_block_size = array<i32: 16, 16, 1>} {
    %0 = warp.block_exchange <blocked_to_striped> %x : vector<12xf32>
    gpu.return %0 : vector<12xf32>
  }
  gpu.func @too_big(%x: vector<8xf64>) -> vector<8xf64> attributes {known_block_size = array<i32: 8, 8, 16>} {
    // expected-error @+1 {{needs a workgroup buffer of 69624 bytes (1024 threads x 8 items of 'f64', padded)}}
    %0 = warp.block_exchange <striped_to_blocked> %x : vector<8xf64>
    gpu.return %0 : vector<8xf64>
  }
}
