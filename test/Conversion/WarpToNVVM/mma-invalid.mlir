// MMA programs PTX has no wmma for are located errors, never a crash, an
// unlowered op or a backend abort: bf16 fragments (upstream's
// !gpu.mma_matrix takes no bf16), fragment shapes outside PTX's table, and
// element types the chip lacks, and elementwise kinds upstream's lowering
// crashes on (MLIR 22's mlir-opt --convert-gpu-to-nvvm segfaults on extf,
// negatef and the integer kinds and aborts on subf).
// RUN: warp-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-warp-mma-to-nvvm))"
// RUN: not warp-opt %s -split-input-file --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_75},gpu.module(convert-warp-mma-to-nvvm))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75
// The pipelines report them the same way (splits whose loads are dead lose
// them to dead-code elimination first and have nothing to report).
// RUN: not warp-opt %s -split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: error: MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64
// PIPELINE: error: 'gpu.subgroup_mma_compute' op PTX wmma has no m16n16k8 multiply of tf32 into f16
// PIPELINE: error: 'gpu.subgroup_mma_elementwise' op 'extf' has no NVVM lowering
// PIPELINE: error: 'gpu.subgroup_mma_elementwise' op 'subf' has no NVVM lowering
// PIPELINE: error: 'gpu.subgroup_mma_elementwise' op 'addi' has no NVVM lowering
// PIPELINE: error: 'gpu.subgroup_mma_load_matrix' op PTX wmma moves fragments through global or workgroup memory, not 'memref<16x16xf32, 5>'
// PIPELINE: error: 'gpu.subgroup_mma_store_matrix' op PTX wmma moves fragments through global or workgroup memory, not 'memref<?x16xf32, #gpu.address_space<private>>'

// bf16: upstream's type rejects it as it is parsed (MLIR 22's
// MMAMatrixType::verifyInvariants), so no MMA lowering ever sees one.
gpu.module @bf16 {
  gpu.func @f(%a: memref<16x16xbf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xbf16> -> !gpu.mma_matrix<16x16xbf16, "AOp">
    gpu.return
  }
}

// -----

// tf32 (f32 A/B fragments) is m16n16k8 only: A is 16x8.
gpu.module @tf32_shape {
  gpu.func @f(%a: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op PTX wmma has no 16x16 A fragment of tf32 ('!gpu.mma_matrix<16x16xf32, "AOp">'); it has 16x8 (m16n16k8)}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "AOp">
    gpu.return
  }
}

// -----

// f64 is m8n8k4 only.
gpu.module @f64_shape {
  gpu.func @f(%c: memref<16x16xf64>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{PTX wmma has no 16x16 C fragment of f64 ('!gpu.mma_matrix<16x16xf64, "COp">'); it has 8x8 (m8n8k4)}}
    %x = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf64> -> !gpu.mma_matrix<16x16xf64, "COp">
    gpu.return
  }
}

// -----

// A legal tf32 program: fine on sm_90; on sm_75 it needs sm_80.
// SM75: mma-invalid.mlir:[[# @LINE + 4]]:10: error: 'gpu.subgroup_mma_load_matrix' op PTX wmma with tf32 fragments needs sm_80 or newer; the target chip is sm_75
gpu.module @tf32_chip {
  gpu.func @f(%a: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    %y = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<8x16xf32, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

// Every fragment exists, but PTX multiplies tf32 into f32 only.
gpu.module @tf32_into_f16 {
  gpu.func @f(%a: memref<16x16xf32>, %c: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    %y = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<8x16xf32, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    // expected-error @+1 {{'gpu.subgroup_mma_compute' op PTX wmma has no m16n16k8 multiply of tf32 into f16}}
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
}

// -----

// A 32x32 accumulator is no wmma fragment: the message lists those there are.
gpu.module @big_accumulator {
  gpu.func @f(%c: memref<32x32xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{PTX wmma has no 32x32 C fragment of f32 ('!gpu.mma_matrix<32x32xf32, "COp">'); it has 16x16 (m16n16k16, m16n16k8), 32x8 (m32n8k16), 8x32 (m8n32k16)}}
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 32 : index} : memref<32x32xf32> -> !gpu.mma_matrix<32x32xf32, "COp">
    gpu.return
  }
}

// -----

gpu.module @elementwise_extf {
  gpu.func @f(%c: memref<16x16xf16>, %d: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op 'extf' has no NVVM lowering (upstream lowers addf, mulf, divf, maxf and minf on fragments)}}
    %y = gpu.subgroup_mma_elementwise extf %x : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %y, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

gpu.module @elementwise_subf {
  gpu.func @f(%c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @+1 {{'subf' has no NVVM lowering}}
    %y = gpu.subgroup_mma_elementwise subf %x, %x : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %y, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

gpu.module @elementwise_addi {
  gpu.func @f(%c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    // expected-error @+1 {{'addi' has no NVVM lowering}}
    %y = gpu.subgroup_mma_elementwise addi %x, %x : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %y, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
}

// -----

// What upstream does lower: a fragment scaled elementwise (addf, mulf, divf,
// maxf, minf), carried through a loop.
gpu.module @elementwise_ok {
  gpu.func @f(%c: memref<16x16xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      %s = gpu.subgroup_mma_elementwise addf %a, %x : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %m = gpu.subgroup_mma_elementwise maxf %s, %a : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %m : !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

// PTX wmma reads and writes fragments in global or shared memory only: a
// private (5) memref is a located error, not an NVVM wmma op on the wrong
// pointer (found by the fuzzer).
gpu.module @private_load {
  gpu.func @f(%a: memref<16x16xf32, 5>, %out: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op PTX wmma moves fragments through global or workgroup memory, not 'memref<16x16xf32, 5>'}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32, 5> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %x, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

gpu.module @private_store {
  gpu.func @f(%c: memref<?x16xf32, #gpu.address_space<private>>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %x = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @+1 {{'gpu.subgroup_mma_store_matrix' op PTX wmma moves fragments through global or workgroup memory, not 'memref<?x16xf32, #gpu.address_space<private>>'}}
    gpu.subgroup_mma_store_matrix %x, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<?x16xf32, #gpu.address_space<private>>
    gpu.return
  }
}
