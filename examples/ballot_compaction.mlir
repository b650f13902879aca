// Ballot compaction (stream compaction of positive values): each warp keeps
// the elements > 0. warp.compact gives every lane its write offset among the
// kept lanes and the warp's count; lane 0 reserves the warp's slice of the
// output with one atomic add, and warp.broadcast hands its base to the warp.
//
//   warp-opt examples/ballot_compaction.mlir --warp-lower-to-ptx="format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @compact_positive(%in: memref<?xf32>, %out: memref<?xf32>, %counter: memref<1xi32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
      %zero = arith.constant 0.0 : f32
      %keep = arith.cmpf ogt, %x, %zero : f32
      %offset, %count = warp.compact %keep : i32
      %lane = warp.lane_id : i32
      %c0 = arith.constant 0 : i32
      %c0_index = arith.constant 0 : index
      %is_first = arith.cmpi eq, %lane, %c0 : i32
      %reserved = scf.if %is_first -> i32 {
        %old = memref.atomic_rmw addi %count, %counter[%c0_index] : (i32, memref<1xi32>) -> i32
        scf.yield %old : i32
      } else {
        scf.yield %c0 : i32
      }
      %warp_base = warp.broadcast %reserved, %c0 : i32
      scf.if %keep {
        %slot = arith.addi %warp_base, %offset : i32
        %slot_index = arith.index_cast %slot : i32 to index
        memref.store %x, %out[%slot_index] : memref<?xf32>
      }
      gpu.return
    }
  }
}
