// The NVVM ops of TMA pipelines that upstream does not tag with a chip
// (no RequiresSMInterface): warp-check-lowerable's own table gives them
// theirs, a located error instead of a ptxas failure after the pipeline
// succeeded. mbarrier.init and mbarrier.arrive are sm_80's.
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-lowerable="chip=sm_80"
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-lower-to-ptx="chip=sm_80"
// The chip that has them takes them.
// RUN: warp-opt %s -split-input-file --warp-check-lowerable="chip=sm_90a" -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%bar: !llvm.ptr<3>, %bytes: i32) kernel {
      nvvm.mbarrier.init %bar, %bytes : !llvm.ptr<3>, i32
      // expected-error @+1 {{'nvvm.fence.mbarrier.init' op needs sm_90 or newer; the pipeline's chip is sm_80}}
      nvvm.fence.mbarrier.init
      // expected-error @+1 {{'nvvm.mbarrier.arrive.expect_tx' op needs sm_90 or newer; the pipeline's chip is sm_80}}
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      // expected-error @+1 {{'nvvm.mbarrier.try_wait.parity' op needs sm_90 or newer; the pipeline's chip is sm_80}}
      nvvm.mbarrier.try_wait.parity %bar, %bytes, %bytes : !llvm.ptr<3>, i32, i32
      %state = nvvm.mbarrier.arrive %bar : !llvm.ptr<3> -> i64
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%dst: !llvm.ptr<7>, %map: !llvm.ptr, %bar: !llvm.ptr<3>, %x: i32) kernel {
      // expected-error @+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op needs sm_90 or newer; the pipeline's chip is sm_80}}
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %x] : !llvm.ptr<7>, !llvm.ptr
      // expected-error @+1 {{'nvvm.fence.proxy' op needs sm_90 or newer; the pipeline's chip is sm_80}}
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      // The alias proxy's fence is sm_70's.
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      // expected-error @+1 {{'nvvm.setmaxregister' op needs sm_90a; the pipeline's chip is sm_80}}
      nvvm.setmaxregister increase 232
      gpu.return
    }
  }
}
