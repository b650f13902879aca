// The shared-memory exchange adds its buffer to the gpu.module: the
// expansion must run on the gpu.module or above, a diagnostic otherwise.
// RUN: warp-opt %s -verify-diagnostics --pass-pipeline="builtin.module(gpu.module(gpu.func(warp-expand-collectives)))"

gpu.module @kernels {
  gpu.func @k(%x: vector<8xf32>) -> vector<8xf32> attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @+1 {{strategy 'shared' adds a workgroup buffer to the gpu.module: run the expansion on the gpu.module or above, not inside it}}
    %0 = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<8xf32>
    gpu.return %0 : vector<8xf32>
  }
}
