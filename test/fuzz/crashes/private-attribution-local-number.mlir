// Found by warp-fuzz (twenty-sixth session, the CI run's 30 s of `.ci/run`):
// a kernel's private attribution in memory space 5 by number, unused.
// convert-gpu-to-nvvm allocates it as a generic pointer and built the
// memref's descriptor of local (ptr<5>) pointers from it: invalid IR
// ('llvm.insertvalue' type mismatch), which warp-fuzz's verifier after each
// pass aborts on. Fixed: the lowerability check accepts no memory space,
// 0 or #gpu.address_space<private> only (test/Pipelines/device-checks.mlir
// has the diagnostics).
// RUN: not warp-opt %s --warp-lower-to-ptx="chip=sm_90" -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: 'gpu.func' op private attribution #0 has type 'memref<32xi32, 5>', which is not in private memory
// CHECK-NOT: insertvalue
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<32xi32>, %i: index) private(%p: memref<32xi32, 5>) kernel {
      %b = arith.constant 0 : index
      %e = arith.constant 1 : index
      %true = arith.constant true
      scf.if %true {
        scf.for %j = %b to %e step %e {
        }
      }
      gpu.return
    }
  }
}
