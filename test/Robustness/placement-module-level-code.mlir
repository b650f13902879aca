// Control flow directly in a gpu.module (a fuzzer finding): nothing runs it,
// and scf-to-cf split the module's block, leaving a gpu.module that does not
// verify. warp-check-lowerable refuses it at the op.
// RUN: warp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --warp-lower-to-ptx="chip=sm_90 format=isa" -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @kernels {
    %c = arith.constant true
    // expected-error @+1 {{'scf.if' op is at the top of a gpu.module, where nothing executes it: put it in a gpu.func}}
    scf.if %c {
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'scf.for' op is at the top of a gpu.module, where nothing executes it: put it in a gpu.func}}
    scf.for %i = %c0 to %c4 step %c1 {
    }
  }
}
