// examples/mma_matmul_any.mlir with f32 inputs: C (f32) = A (f32) x B (f32)
// for any M x K by K x N (multiples of 16, at run time), through PTX wmma
// with tf32 operands (m16n16k8: A fragments 16x8, B fragments 8x16, f32
// accumulator; sm_80 or newer). The tensor cores read A and B as tf32, that
// is with 10 of f32's 23 mantissa bits, so the result is that of the
// rounded inputs, accumulated in f32. One warp per 16x16 tile of C, grid
// (N / 16, M / 16), the K loop in steps of 8 through workgroup-memory tiles
// as in mma_matmul_any.mlir (lane l copies 4 consecutive elements: of the
// 16x8 A tile row l / 2 from column 4 * (l % 2), of the 8x16 B tile row
// l / 4 from column 4 * (l % 4)).
//
//   warp-opt examples/mma_matmul_tf32.mlir --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile_a : memref<16x8xf32, #gpu.address_space<workgroup>> {alignment = 32 : i64}
    memref.global "private" @tile_b : memref<8x16xf32, #gpu.address_space<workgroup>> {alignment = 32 : i64}
    memref.global "private" @tile_c : memref<16x16xf32, #gpu.address_space<workgroup>> {alignment = 32 : i64}

    gpu.func @matmul_tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %sa = memref.get_global @tile_a : memref<16x8xf32, #gpu.address_space<workgroup>>
      %sb = memref.get_global @tile_b : memref<8x16xf32, #gpu.address_space<workgroup>>
      %sc = memref.get_global @tile_c : memref<16x16xf32, #gpu.address_space<workgroup>>
      %row0 = gpu.block_id y
      %col0 = gpu.block_id x
      %tile_row = arith.muli %row0, %c16 : index
      %tile_col = arith.muli %col0, %c16 : index
      %lane = gpu.thread_id x
      // A tile (16x8): row lane / 2, columns 4 * (lane % 2) + 0..3.
      %ar = arith.divui %lane, %c2 : index
      %ah = arith.remui %lane, %c2 : index
      %ac = arith.muli %ah, %c4 : index
      // B tile (8x16): row lane / 4, columns 4 * (lane % 4) + 0..3.
      %br = arith.divui %lane, %c4 : index
      %bq = arith.remui %lane, %c4 : index
      %bc = arith.muli %bq, %c4 : index
      %a_row = arith.addi %tile_row, %ar : index
      %b_col = arith.addi %tile_col, %bc : index
      %k_size = memref.dim %a, %c1 : memref<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %k_size step %c8 iter_args(%sum = %init)
          -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %a_col = arith.addi %k, %ac : index
        %va = vector.load %a[%a_row, %a_col] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
        vector.store %va, %sa[%ar, %ac] : memref<16x8xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %b_row = arith.addi %k, %br : index
        %vb = vector.load %b[%b_row, %b_col] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
        vector.store %vb, %sb[%br, %bc] : memref<8x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        warp.syncwarp
        %fa = gpu.subgroup_mma_load_matrix %sa[%c0, %c0] {leadDimension = 8 : index}
            : memref<16x8xf32, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x8xf32, "AOp">
        %fb = gpu.subgroup_mma_load_matrix %sb[%c0, %c0] {leadDimension = 16 : index}
            : memref<8x16xf32, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<8x16xf32, "BOp">
        warp.syncwarp
        %next = gpu.subgroup_mma_compute %fa, %fb, %sum
            : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp">
            -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %sc[%c0, %c0] {leadDimension = 16 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>
      warp.syncwarp
      // C out: 8 consecutive f32 per lane, as in mma_matmul_any.mlir.
      %cr = arith.divui %lane, %c2 : index
      %ch = arith.remui %lane, %c2 : index
      %cc = arith.muli %ch, %c8 : index
      %c_row = arith.addi %tile_row, %cr : index
      %c_col = arith.addi %tile_col, %cc : index
      %vc = vector.load %sc[%cr, %cc] : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<8xf32>
      vector.store %vc, %c[%c_row, %c_col] {alignment = 16} : memref<?x?xf32>, vector<8xf32>
      gpu.return
    }
  }
}
