// A bf16 add below sm_90 is a loop of atom.cas.b16 on the element alone (as
// CUDA's atomicAdd(__nv_bfloat16 *)), never a CAS of the 32-bit word around
// it, which would read and write the 2 bytes beside the element (past a
// buffer's end: out of bounds); sm_90 has atom.add.noftz.bf16.
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_80 --convert-warp-mma-to-nvvm | FileCheck %s --check-prefix=SM80
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_90 --convert-warp-mma-to-nvvm | FileCheck %s --check-prefix=SM90

// SM80-LABEL: func @bf16_add
// SM80: arith.addf %{{.*}}, %{{.*}} : bf16
// SM80: llvm.inline_asm{{.*}}"atom.release.gpu.global.cas.b16 $0, [$1], $2, $3;"
// SM80-NOT: b32
// SM80: return
// SM90-LABEL: func @bf16_add
// SM90: llvm.inline_asm{{.*}}"atom.release.gpu.global.add.noftz.bf16 $0, [$1], $2;"
gpu.module @m {
func.func @bf16_add(%p: memref<?xbf16, 1>, %x: bf16, %i: index) -> bf16 {
  %0 = warp.lane_atomic_rmw <add> %x, %p[%i] ordering <release> : bf16, memref<?xbf16, 1>
  return %0 : bf16
}
}
