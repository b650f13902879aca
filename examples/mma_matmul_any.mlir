// Warp matrix multiply for any M x K by K x N (each a multiple of 16, given
// at run time by the memref<?x?> sizes) through upstream's
// gpu.subgroup_mma_* ops: one warp (one 32-thread block) per 16x16 tile of
// C, block (x, y) = tile (column, row), grid (N / 16, M / 16).
//
// wmma's row stride (`leadDimension`) is a compile-time attribute, so each
// 16x16 tile of A and B is first copied from the run-time-strided global
// memref into a 16x16 workgroup-memory tile (8 consecutive elements per lane:
// lane l copies row l / 2, columns 8 * (l % 2) ...), and the fragments are
// loaded from there; the result goes back the same way. warp.syncwarp orders
// the lanes' workgroup-memory stores and the fragment loads. The K loop is an
// scf.for carrying the accumulator fragment.
//
//   @matmul_f32acc: C (f32) = A (f16) x B (f16), f32 accumulator
//   @matmul_f16acc: C (f16) = A (f16) x B (f16), f16 accumulator
//
// The kernels do not check the sizes: the caller launches them only for
// multiples of 16 (test/python/test_mma_any.py, benchmarks/mma_bench.py),
// with each matrix's first element 16-byte aligned (as every CUDA
// allocation is), so that every 8-element row piece moves in one 16-byte
// access. examples/mma_matmul_tf32.mlir is the f32-input (tf32, sm_80+)
// variant; bf16 has no form here: upstream's !gpu.mma_matrix rejects it.
//
//   warp-opt examples/mma_matmul_any.mlir --warp-lower-to-ptx="format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // wmma.load/store need 32-byte aligned addresses.
    memref.global "private" @tile_a : memref<16x16xf16, #gpu.address_space<workgroup>> {alignment = 32 : i64}
    memref.global "private" @tile_b : memref<16x16xf16, #gpu.address_space<workgroup>> {alignment = 32 : i64}
    memref.global "private" @tile_c32 : memref<16x16xf32, #gpu.address_space<workgroup>> {alignment = 32 : i64}
    memref.global "private" @tile_c16 : memref<16x16xf16, #gpu.address_space<workgroup>> {alignment = 32 : i64}

    gpu.func @matmul_f32acc(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %sa = memref.get_global @tile_a : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sb = memref.get_global @tile_b : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sc = memref.get_global @tile_c32 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %row0 = gpu.block_id y
      %col0 = gpu.block_id x
      %tile_row = arith.muli %row0, %c16 : index
      %tile_col = arith.muli %col0, %c16 : index
      // This lane's 8 elements of a 16x16 tile: row lane / 2, columns
      // 8 * (lane % 2) to 8 * (lane % 2) + 7.
      %lane = gpu.thread_id x
      %r = arith.divui %lane, %c2 : index
      %half = arith.remui %lane, %c2 : index
      %cc = arith.muli %half, %c8 : index
      %a_row = arith.addi %tile_row, %r : index
      %b_col = arith.addi %tile_col, %cc : index
      %k_size = memref.dim %a, %c1 : memref<?x?xf16>
      %zero = arith.constant 0.0 : f32
      %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %k_size step %c16 iter_args(%sum = %init)
          -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %a_col = arith.addi %k, %cc : index
        %va = vector.load %a[%a_row, %a_col] {alignment = 16} : memref<?x?xf16>, vector<8xf16>
        vector.store %va, %sa[%r, %cc] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %b_row = arith.addi %k, %r : index
        %vb = vector.load %b[%b_row, %b_col] {alignment = 16} : memref<?x?xf16>, vector<8xf16>
        vector.store %vb, %sb[%r, %cc] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        warp.syncwarp
        %fa = gpu.subgroup_mma_load_matrix %sa[%c0, %c0] {leadDimension = 16 : index}
            : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %fb = gpu.subgroup_mma_load_matrix %sb[%c0, %c0] {leadDimension = 16 : index}
            : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
        // The next iteration's stores wait for every lane's fragment loads.
        warp.syncwarp
        %next = gpu.subgroup_mma_compute %fa, %fb, %sum
            : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
            -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %sc[%c0, %c0] {leadDimension = 16 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>
      warp.syncwarp
      %vc = vector.load %sc[%r, %cc] : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<8xf32>
      vector.store %vc, %c[%a_row, %b_col] {alignment = 16} : memref<?x?xf32>, vector<8xf32>
      gpu.return
    }

    gpu.func @matmul_f16acc(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %sa = memref.get_global @tile_a : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sb = memref.get_global @tile_b : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sc = memref.get_global @tile_c16 : memref<16x16xf16, #gpu.address_space<workgroup>>
      %row0 = gpu.block_id y
      %col0 = gpu.block_id x
      %tile_row = arith.muli %row0, %c16 : index
      %tile_col = arith.muli %col0, %c16 : index
      %lane = gpu.thread_id x
      %r = arith.divui %lane, %c2 : index
      %half = arith.remui %lane, %c2 : index
      %cc = arith.muli %half, %c8 : index
      %a_row = arith.addi %tile_row, %r : index
      %b_col = arith.addi %tile_col, %cc : index
      %k_size = memref.dim %a, %c1 : memref<?x?xf16>
      %zero = arith.constant 0.0 : f16
      %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf16, "COp">
      %acc = scf.for %k = %c0 to %k_size step %c16 iter_args(%sum = %init)
          -> (!gpu.mma_matrix<16x16xf16, "COp">) {
        %a_col = arith.addi %k, %cc : index
        %va = vector.load %a[%a_row, %a_col] {alignment = 16} : memref<?x?xf16>, vector<8xf16>
        vector.store %va, %sa[%r, %cc] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %b_row = arith.addi %k, %r : index
        %vb = vector.load %b[%b_row, %b_col] {alignment = 16} : memref<?x?xf16>, vector<8xf16>
        vector.store %vb, %sb[%r, %cc] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        warp.syncwarp
        %fa = gpu.subgroup_mma_load_matrix %sa[%c0, %c0] {leadDimension = 16 : index}
            : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %fb = gpu.subgroup_mma_load_matrix %sb[%c0, %c0] {leadDimension = 16 : index}
            : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
        warp.syncwarp
        %next = gpu.subgroup_mma_compute %fa, %fb, %sum
            : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
            -> !gpu.mma_matrix<16x16xf16, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf16, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %sc[%c0, %c0] {leadDimension = 16 : index}
          : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16, #gpu.address_space<workgroup>>
      warp.syncwarp
      %vc = vector.load %sc[%r, %cc] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      vector.store %vc, %c[%a_row, %b_col] {alignment = 16} : memref<?x?xf16>, vector<8xf16>
      gpu.return
    }
  }
}
