// 8-bit integer gpu.subgroup_mma_compute in the m32n8k16 and m8n32k16
// shapes passed the MMA check, then crashed translating to LLVM IR (MLIR
// 22's NVVM lowering, upstream's pipeline too): a located error now.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --warp-lower-to-ptx="chip=sm_90 format=isa" -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @m32n8k16(%a: memref<32x16xi8>, %b: memref<16x8xi8>, %c: memref<32x8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<32x16xi8> -> !gpu.mma_matrix<32x16xsi8, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xi8> -> !gpu.mma_matrix<16x8xsi8, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<32x8xi32> -> !gpu.mma_matrix<32x8xi32, "COp">
      // expected-error @+1 {{'gpu.subgroup_mma_compute' op the m32n8k16 multiply of s8 has no working NVVM lowering; 8-bit integer wmma takes m16n16k16 here}}
      %d = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<32x16xsi8, "AOp">, !gpu.mma_matrix<16x8xsi8, "BOp"> -> !gpu.mma_matrix<32x8xi32, "COp">
      gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<32x8xi32, "COp">, memref<32x8xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @m8n32k16(%a: memref<8x16xi8>, %b: memref<16x32xi8>, %c: memref<8x32xi32>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<8x16xi8> -> !gpu.mma_matrix<8x16xui8, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 32 : index} : memref<16x32xi8> -> !gpu.mma_matrix<16x32xui8, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 32 : index} : memref<8x32xi32> -> !gpu.mma_matrix<8x32xi32, "COp">
      // expected-error @+1 {{the m8n32k16 multiply of u8 has no working NVVM lowering}}
      %d = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<8x16xui8, "AOp">, !gpu.mma_matrix<16x32xui8, "BOp"> -> !gpu.mma_matrix<8x32xi32, "COp">
      gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 32 : index} : !gpu.mma_matrix<8x32xi32, "COp">, memref<8x32xi32>
      gpu.return
    }
  }
}
