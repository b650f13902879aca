// Found by warp-fuzz (the clean-clone CI run of 2026-12-03, evening, on the
// new cluster seed): a gpu.func whose known_cluster_size has a negative
// dimension. Upstream lowers it to nvvm.cluster_dim, and NVPTX stopped the
// process with "can't parse integer attribute -2147483648 in
// nvvm.cluster_dim". Fixed: warp-check-lowerable checks known_cluster_size
// against CUDA's cluster limits at the function
// (test/Robustness/ir-known-cluster-size.mlir has the diagnostics).
// RUN: %python %S/../no_crash.py warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @fuzz [#nvvm.target<chip = "sm_90">] {
    gpu.func @cluster(%x: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_cluster_size = array<i32: -2147483648, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<?xf32>
      %r = warp.cluster_reduce <maxnumf> %v : f32
      memref.store %r, %x[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
