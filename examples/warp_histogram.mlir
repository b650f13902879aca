// Histogram with warp-aggregated atomics (the histogram pattern of the
// seed): hist[keys[i] % bins] += 1 for every key. warp.atomic_rmw groups
// the lanes of a warp that hit the same bin (match.any on the address) and
// issues one atomic per distinct bin; with a constant increment the group's
// total is popc(group) * 1, so no scan is needed. The lanes past the end of
// `keys` do not execute it: the member set is the lanes that do
// (warp.activemask), as in CUDA's aggregated-atomics idiom.
//
//   warp-opt examples/warp_histogram.mlir --warp-lower-to-ptx="format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @histogram(%keys: memref<?xi32>, %hist: memref<?xi32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %c0 = arith.constant 0 : index
      %n = memref.dim %keys, %c0 : memref<?xi32>
      %in_range = arith.cmpi ult, %i, %n : index
      scf.if %in_range {
        %key = memref.load %keys[%i] : memref<?xi32>
        %bins = memref.dim %hist, %c0 : memref<?xi32>
        %bins_i32 = arith.index_cast %bins : index to i32
        %bin_i32 = arith.remui %key, %bins_i32 : i32
        %bin = arith.index_cast %bin_i32 : i32 to index
        %one = arith.constant 1 : i32
        %old = warp.atomic_rmw <add> %one, %hist[%bin] : i32, memref<?xi32>
      }
      gpu.return
    }
  }
}
