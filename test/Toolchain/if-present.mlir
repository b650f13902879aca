// warp-if-present runs its pipeline only on ops that hold one of its
// dialects (an op, also in a nested region, or a value of one of its types);
// elsewhere the IR stays as it is. warp-lower-to-ptx wraps upstream's
// single-dialect lowerings with it, and a printed pipeline names the wrapped
// pass with its options.
// RUN: warp-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(warp-if-present{dialects=scf pipeline=convert-scf-to-cf}))" | FileCheck %s --check-prefix=SCF
// RUN: warp-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(warp-if-present{dialects=vector,affine pipeline=convert-scf-to-cf}))" | FileCheck %s --check-prefix=NONE
// RUN: warp-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(warp-if-present{dialects=scf pipeline=canonicalize}))" | FileCheck %s --check-prefix=CANON
// With no dialects the pipeline runs everywhere (how the passes gated on
// the roots of their patterns print).
// RUN: warp-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(warp-if-present{pipeline=convert-scf-to-cf}))" | FileCheck %s --check-prefix=SCF
// RUN: warp-opt %s --warp-lower-to-ptx="device-index-bitwidth=32" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// SCF-LABEL: gpu.module @loop
// SCF: cf.cond_br
// SCF-NOT: scf.for
// NONE-LABEL: gpu.module @loop
// NONE: scf.for
// CANON-LABEL: gpu.module @loop
// CANON-NOT: arith.constant 7
gpu.module @loop {
  gpu.func @k(%a: memref<?xf32>, %n: index) kernel {
    %unused = arith.constant 7 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      memref.store %x, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// SCF-LABEL: gpu.module @nested
// SCF-NOT: scf.if
// NONE-LABEL: gpu.module @nested
// NONE: scf.if
gpu.module @nested {
  gpu.func @k(%a: memref<?xf32>, %p: i1) kernel {
    %c0 = arith.constant 0 : index
    scf.if %p {
      %x = memref.load %a[%c0] : memref<?xf32>
      memref.store %x, %a[%c0] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// No scf: canonicalize does not run, the unused constant stays.
// CANON-LABEL: gpu.module @plain
// CANON: arith.constant 7 : i32
gpu.module @plain {
  gpu.func @k(%a: memref<?xi32>) kernel {
    %unused = arith.constant 7 : i32
    gpu.return
  }
}

// PIPELINE: warp-if-present{dialects={nvgpu} pipeline=warp-convert-nvgpu-to-nvvm}
// PIPELINE: warp-if-present{dialects={vector} pipeline=convert-vector-to-scf{{.*}}},warp-lower-vector-ops}
// PIPELINE: warp-if-present{dialects={scf} pipeline=convert-scf-to-cf{
// PIPELINE: warp-if-present{ pipeline=convert-nvvm-to-llvm}
// PIPELINE: warp-if-present{ pipeline=expand-strided-metadata}
// PIPELINE: warp-if-present{dialects={affine} pipeline=lower-affine}
// PIPELINE: warp-if-present{dialects={math} pipeline=convert-math-to-llvm{
