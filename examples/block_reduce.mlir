// Block reduce for any block size, ragged last warp included: each warp sums
// its live lanes (valid_lanes + a member mask of exactly those lanes), lane 0
// parks the partial in shared memory, and warp 0 sums the partials.
//
//   warp-opt examples/block_reduce.mlir --warp-lower-to-ptx="format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sum(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%partials: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>

      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c31 = arith.constant 31 : i32
      %c32 = arith.constant 32 : i32
      %all = arith.constant -1 : i32
      %lane = warp.lane_id : i32
      %warp = warp.warp_id : i32
      %bdim_i32 = arith.index_cast %bdim : index to i32

      // Lanes of this warp that exist: min(32, blockDim - 32 * warp).
      %first_thread = arith.muli %warp, %c32 : i32
      %left = arith.subi %bdim_i32, %first_thread : i32
      %live = arith.minsi %left, %c32 : i32
      %is_full = arith.cmpi eq, %live, %c32 : i32
      %low_bits = arith.shli %c1, %live : i32
      %partial_mask = arith.subi %low_bits, %c1 : i32
      %mask = arith.select %is_full, %all, %partial_mask : i32
      %warp_sum = warp.reduce <add> %x valid_lanes %live mask %mask lanes = <first> : f32

      %is_lane0 = arith.cmpi eq, %lane, %c0 : i32
      scf.if %is_lane0 {
        %w = arith.index_cast %warp : i32 to index
        memref.store %warp_sum, %partials[%w] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier

      %is_warp0 = arith.cmpi eq, %warp, %c0 : i32
      scf.if %is_warp0 {
        // ceil(blockDim / 32) partials, read by the first lanes of warp 0.
        %rounded = arith.addi %bdim_i32, %c31 : i32
        %num_warps = arith.divui %rounded, %c32 : i32
        %has_partial = arith.cmpi ult, %lane, %num_warps : i32
        %zero = arith.constant 0.0 : f32
        %p = scf.if %has_partial -> f32 {
          %l = arith.index_cast %lane : i32 to index
          %v = memref.load %partials[%l] : memref<32xf32, #gpu.address_space<workgroup>>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        %total = warp.reduce <add> %p valid_lanes %num_warps mask %mask lanes = <first> : f32
        scf.if %is_lane0 {
          memref.store %total, %out[%bid] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
