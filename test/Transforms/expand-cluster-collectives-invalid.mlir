// The cluster ops need sm_90 and clusters of at most 16 blocks.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-expand-cluster-collectives))'

gpu.module @old [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%v: f32) kernel {
    // expected-error @+1 {{'warp.cluster_reduce' op needs thread-block clusters, sm_90 or newer; the target chip is sm_80}}
    %r = warp.cluster_reduce <add> %v : f32
    gpu.return
  }
}

// -----

gpu.module @big [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%v: i32) kernel attributes {known_cluster_size = array<i32: 8, 8, 1>} {
    // expected-error @+1 {{'warp.cluster_broadcast' op takes clusters of at most 16 blocks; the gpu.func's known_cluster_size has 64}}
    %r = warp.cluster_broadcast %v, %v, %v : i32
    gpu.return
  }
}
