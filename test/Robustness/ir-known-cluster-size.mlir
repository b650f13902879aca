// known_cluster_size of a gpu.func: sizes CUDA can launch a cluster of (at
// most 16 blocks, sm_90 with the non-portable size allowed), checked by
// warp-check-lowerable at the function; NVPTX would otherwise stop the
// process on a dimension it cannot print (a fuzz finding,
// test/fuzz/crashes/cluster-size-negative.mlir).
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-lowerable

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{cluster size x = -2147483648 is outside [1, 16], which CUDA can launch}}
    gpu.func @k() kernel attributes {known_cluster_size = array<i32: -2147483648, 1, 1>} { gpu.return }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{cluster size z = 0 is outside [1, 16], which CUDA can launch}}
    gpu.func @k() kernel attributes {known_cluster_size = array<i32: 2, 1, 0>} { gpu.return }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{cluster of 32 blocks: CUDA launches at most 16}}
    gpu.func @k() kernel attributes {known_cluster_size = array<i32: 8, 4, 1>} { gpu.return }
  }
}

// -----

// Accepted: 16 blocks, and the portable 8.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel attributes {known_cluster_size = array<i32: 4, 4, 1>} { gpu.return }
    gpu.func @l() kernel attributes {known_cluster_size = array<i32: 8, 1, 1>} { gpu.return }
  }
}
