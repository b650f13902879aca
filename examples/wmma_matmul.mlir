// Warp matrix multiply-accumulate through upstream's gpu.subgroup_mma_* ops,
// which the warp pipelines lower to nvvm.wmma (PTX wmma.load / wmma.mma /
// wmma.store, sm_70+): C (64x48, f32) = A (64x32, f16) x B (32x48, f16).
// One warp per 16x16 tile of C (grid 3 x 4, 32 threads), over K in steps of
// 16 with an f32 accumulator carried by an scf.for. The tile sizes and the
// row strides (`leadDimension`) are static: instantiate the kernel per
// shape, every dimension a multiple of 16 (examples/mma_matmul_any.mlir
// takes any shape at run time). test/python/test_wmma.py checks it against
// numpy on the GPU.
//
//   warp-opt examples/wmma_matmul.mlir --warp-lower-to-ptx="format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%a: memref<64x32xf16>, %b: memref<32x48xf16>, %c: memref<64x48xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %col = arith.muli %bx, %c16 : index
      %row = arith.muli %by, %c16 : index
      %zero = arith.constant 0.0 : f32
      %acc0 = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      // K = 32: two 16-deep steps, the accumulator carried by the loop (LLVM
      // unrolls a loop this short).
      %c32 = arith.constant 32 : index
      %acc = scf.for %k = %c0 to %c32 step %c16 iter_args(%sum = %acc0)
          -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %fa = gpu.subgroup_mma_load_matrix %a[%row, %k] {leadDimension = 32 : index}
            : memref<64x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %fb = gpu.subgroup_mma_load_matrix %b[%k, %col] {leadDimension = 48 : index}
            : memref<32x48xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %next = gpu.subgroup_mma_compute %fa, %fb, %sum
            : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
            -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %c[%row, %col] {leadDimension = 48 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x48xf32>
      gpu.return
    }
  }
}
