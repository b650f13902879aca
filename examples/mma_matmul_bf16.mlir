// Warp matrix multiply with bf16 inputs and an f32 accumulator through
// warp's own MMA ops (warp.mma_load / warp.mma_compute / warp.mma_store),
// for any M x K by K x N whose sizes are multiples of 16, given at run time
// by the memref<?x?> sizes: one warp (one 32-thread block) per 16x16 tile of
// C, block (x, y) = tile (column, row), grid (N / 16, M / 16).
//
// Upstream's !gpu.mma_matrix takes no bf16 (and NVVM's wmma ops have no bf16
// entries), so examples/mma_matmul_any.mlir has no bf16 form; the warp ops
// carry fragments as plain vectors and lower to LLVM's wmma intrinsics. Their
// leading dimension is the memref's row stride, known only at run time here,
// so the fragments load straight from global memory (no workgroup-memory
// staging as in mma_matmul_any.mlir). The K loop is an scf.for carrying the
// accumulator vector (registers); `arith.constant dense<0.0>` is its fill.
//
//   @matmul_bf16: C (f32) = A (bf16) x B (bf16), m16n16k16, sm_80+
//   @matmul_f16:  C (f32) = A (f16) x B (f16), m16n16k16, sm_70+
//   @matmul_tf32: C (f32) = A (f32 as tf32) x B (f32 as tf32), m16n16k8, sm_80+
//
// The kernels do not check the sizes: the caller launches them only for
// multiples of 16 (test/python/test_mma_bf16.py), with each matrix's first
// element 32-byte aligned (as every CUDA allocation is), so that every tile
// starts on the 32 bytes wmma.load and wmma.store need.
//
//   warp-opt examples/mma_matmul_bf16.mlir --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %row = gpu.block_id y
      %col = gpu.block_id x
      %i = arith.muli %row, %c16 : index
      %j = arith.muli %col, %c16 : index
      %k_size = memref.dim %a, %c1 : memref<?x?xbf16>
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %acc = scf.for %k = %c0 to %k_size step %c16 iter_args(%sum = %zero) -> (vector<8xf32>) {
        %fa = warp.mma_load %a[%i, %k] operand = a layout = row shape = m16n16k16
            : memref<?x?xbf16> -> vector<8xbf16>
        %fb = warp.mma_load %b[%k, %j] operand = b layout = row shape = m16n16k16
            : memref<?x?xbf16> -> vector<8xbf16>
        %next = warp.mma_compute %fa, %fb, %sum shape = m16n16k16 a_layout = row b_layout = row
            : vector<8xbf16>, vector<8xf32>
        scf.yield %next : vector<8xf32>
      }
      warp.mma_store %acc, %c[%i, %j] layout = row : vector<8xf32>, memref<?x?xf32>
      gpu.return
    }

    gpu.func @matmul_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %row = gpu.block_id y
      %col = gpu.block_id x
      %i = arith.muli %row, %c16 : index
      %j = arith.muli %col, %c16 : index
      %k_size = memref.dim %a, %c1 : memref<?x?xf16>
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %acc = scf.for %k = %c0 to %k_size step %c16 iter_args(%sum = %zero) -> (vector<8xf32>) {
        %fa = warp.mma_load %a[%i, %k] operand = a layout = row shape = m16n16k16
            : memref<?x?xf16> -> vector<16xf16>
        %fb = warp.mma_load %b[%k, %j] operand = b layout = row shape = m16n16k16
            : memref<?x?xf16> -> vector<16xf16>
        %next = warp.mma_compute %fa, %fb, %sum shape = m16n16k16 a_layout = row b_layout = row
            : vector<16xf16>, vector<8xf32>
        scf.yield %next : vector<8xf32>
      }
      warp.mma_store %acc, %c[%i, %j] layout = row : vector<8xf32>, memref<?x?xf32>
      gpu.return
    }

    gpu.func @matmul_tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %row = gpu.block_id y
      %col = gpu.block_id x
      %i = arith.muli %row, %c16 : index
      %j = arith.muli %col, %c16 : index
      %k_size = memref.dim %a, %c1 : memref<?x?xf32>
      %zero = arith.constant dense<0.0> : vector<8xf32>
      // m16n16k8: eight columns of A (rows of B) per step.
      %acc = scf.for %k = %c0 to %k_size step %c8 iter_args(%sum = %zero) -> (vector<8xf32>) {
        %fa = warp.mma_load %a[%i, %k] operand = a layout = row shape = m16n16k8
            : memref<?x?xf32> -> vector<4xf32>
        %fb = warp.mma_load %b[%k, %j] operand = b layout = row shape = m16n16k8
            : memref<?x?xf32> -> vector<4xf32>
        %next = warp.mma_compute %fa, %fb, %sum shape = m16n16k8 a_layout = row b_layout = row
            : vector<4xf32>, vector<8xf32>
        scf.yield %next : vector<8xf32>
      }
      warp.mma_store %acc, %c[%i, %j] layout = row : vector<8xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}
