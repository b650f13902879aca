// What the shared-memory exchange cannot do is a diagnostic at the op.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-expand-collectives

func.func @shared_in_host_function(%x: vector<8xf32>) -> vector<8xf32> {
  // expected-error @+1 {{strategy 'shared' needs the op in a gpu.func of a gpu.module, where its workgroup buffer is allocated (use strategy 'shuffle')}}
  %0 = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

func.func @odd_outside_gpu_func(%x: vector<6xf32>) -> vector<6xf32> {
  // expected-error @+1 {{strategy 'shared' needs the op in a gpu.func of a gpu.module}}
  %0 = warp.exchange <blocked_to_striped> %x : vector<6xf32>
  return %0 : vector<6xf32>
}

// -----

gpu.module @too_big {
  gpu.func @k(%x: vector<16xf64>) -> vector<16xf64> attributes {known_block_size = array<i32: 1024, 1, 1>} {
    // expected-error @+1 {{strategy 'shared' needs 139264 bytes of shared memory per block (32 warps of 4352), more than the 49152 of static shared memory: give the gpu.func a smaller known_block_size or use strategy 'shuffle'}}
    %0 = warp.exchange <striped_to_blocked> %x strategy = <shared> : vector<16xf64>
    gpu.return %0 : vector<16xf64>
  }
}

// -----

// Without known_block_size the buffer is sized for 1024 threads.
gpu.module @unknown_block {
  gpu.func @k(%x: vector<12xf64>) -> vector<12xf64> {
    // expected-error @+1 {{strategy 'shared' needs 104448 bytes of shared memory per block (32 warps of 3264)}}
    %0 = warp.exchange <striped_to_blocked> %x : vector<12xf64>
    gpu.return %0 : vector<12xf64>
  }
}

// -----

// More than 32 items: only shared memory, so no hint to use shuffles.
gpu.module @many_items {
  gpu.func @k(%x: vector<64xi16>) -> vector<64xi16> {
    // expected-error @+1 {{strategy 'shared' needs 135168 bytes of shared memory per block (32 warps of 4224), more than the 49152 of static shared memory: give the gpu.func a smaller known_block_size}}
    %0 = warp.exchange <blocked_to_striped> %x : vector<64xi16>
    gpu.return %0 : vector<64xi16>
  }
}

// -----

func.func @scatter_in_host_function(%x: vector<4xi8>, %r: vector<4xi32>) -> vector<4xi8> {
  // expected-error @+1 {{'warp.scatter' op needs the op in a gpu.func of a gpu.module, where its workgroup buffer is allocated}}
  %0 = warp.scatter %x, %r striped : vector<4xi8>, vector<4xi32>
  return %0 : vector<4xi8>
}

// -----

// 128 f64 per lane need 33 KiB per warp: two warps do not fit.
gpu.module @scatter_too_big {
  gpu.func @k(%x: vector<128xf64>, %r: vector<128xi32>) -> vector<128xf64> attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{'warp.scatter' op needs 69632 bytes of shared memory per block (2 warps of 34816), more than the 49152 of static shared memory: give the gpu.func a smaller known_block_size}}
    %0 = warp.scatter %x, %r : vector<128xf64>, vector<128xi32>
    gpu.return %0 : vector<128xf64>
  }
}
