// A warp sum: every lane of each warp loads one float, the warp reduces it
// with warp.reduce, and lane 0 writes the warp's total.
//
//   warp-opt examples/warp_reduce.mlir --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @warp_sum(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
      %sum = warp.reduce <add> %x : f32
      %lane = warp.lane_id : i32
      %c0 = arith.constant 0 : i32
      %is_first = arith.cmpi eq, %lane, %c0 : i32
      scf.if %is_first {
        %c32 = arith.constant 32 : index
        %w = arith.divui %i, %c32 : index
        memref.store %sum, %out[%w] : memref<?xf32>
      }
      gpu.return
    }
  }
}
