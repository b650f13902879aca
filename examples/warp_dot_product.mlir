// Warp dot product: warp w of the grid computes dot(a, b) over its 32-wide
// chunk; each lane multiplies its element, warp.reduce sums the products, and
// lane 0 writes the warp's result.
//
//   warp-opt examples/warp_dot_product.mlir --warp-lower-to-ptx="format=isa ptx-output=-" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @warp_dot(%a: memref<?xf32>, %b: memref<?xf32>, %out: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %a[%i] : memref<?xf32>
      %y = memref.load %b[%i] : memref<?xf32>
      %xy = arith.mulf %x, %y : f32
      %dot = warp.reduce <add> %xy lanes = <first> : f32
      %lane = warp.lane_id : i32
      %c0 = arith.constant 0 : i32
      %is_first = arith.cmpi eq, %lane, %c0 : i32
      scf.if %is_first {
        %c32 = arith.constant 32 : index
        %w = arith.divui %i, %c32 : index
        memref.store %dot, %out[%w] : memref<?xf32>
      }
      gpu.return
    }
  }
}
