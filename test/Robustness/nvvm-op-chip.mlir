// NVVM ops in device code that the pipeline's chip lacks: a located error
// from warp-check-lowerable before the target is attached. Without it the
// attach pass succeeded and NVVM's verifier then rejected the op (a fuzz
// finding on the wgmma seed: a pass that succeeds must leave valid IR).
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-lowerable="chip=sm_90"
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-lower-to-ptx="chip=sm_90"
// The chip that has them takes them.
// RUN: warp-opt %s -split-input-file --warp-check-lowerable="chip=sm_90a" -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      // expected-error @+1 {{'nvvm.wgmma.fence.aligned' op needs sm_90a; the pipeline's chip is sm_90}}
      nvvm.wgmma.fence.aligned
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      // expected-error @+1 {{'nvvm.wgmma.wait.group.sync.aligned' op needs sm_90a; the pipeline's chip is sm_90}}
      nvvm.wgmma.wait.group.sync.aligned 0
      gpu.return
    }
  }
}
