// Benchmark kernels, lowered by scripts/gpu-bundle.sh (warp-lower-to-ptx,
// sm_90) and timed against CUB and Triton by warp_bench.py.
module attributes {gpu.container_module} {
gpu.module @kernels {
  // Memory-bound: each warp sums 32 consecutive floats; lane 0 writes.
  gpu.func @warp_sum_f32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %x = memref.load %in[%i] : memref<?xf32>
    %s = warp.reduce <add> %x lanes = <first> : f32
    %lane = warp.lane_id : i32
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %lane, %c0 : i32
    scf.if %first {
      %c32 = arith.constant 32 : index
      %w = arith.divui %i, %c32 : index
      memref.store %s, %out[%w] : memref<?xf32>
    }
    gpu.return
  }

  // Collective-bound: 2048 dependent warp sums per thread (i32 and f32).
  gpu.func @repeated_sum_i32(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %x = memref.load %in[%i] : memref<?xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %trips = arith.constant 2048 : index
    %zero = arith.constant 0 : i32
    %acc = scf.for %r = %c0 to %trips step %c1 iter_args(%a = %zero) -> i32 {
      %ri = arith.index_cast %r : index to i32
      %v = arith.xori %x, %ri : i32
      %w = arith.addi %v, %a : i32
      %s = warp.reduce <add> %w : i32
      scf.yield %s : i32
    }
    memref.store %acc, %out[%i] : memref<?xi32>
    gpu.return
  }

  gpu.func @repeated_sum_f32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %x = memref.load %in[%i] : memref<?xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %trips = arith.constant 2048 : index
    %half = arith.constant 0.5 : f32
    %acc = scf.for %r = %c0 to %trips step %c1 iter_args(%a = %x) -> f32 {
      %w = arith.mulf %a, %half : f32
      %v = arith.addf %w, %x : f32
      %s = warp.reduce <add> %v : f32
      scf.yield %s : f32
    }
    memref.store %acc, %out[%i] : memref<?xf32>
    gpu.return
  }

  // Collective-bound scan: 1024 dependent inclusive sums per thread.
  gpu.func @repeated_scan_f32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %x = memref.load %in[%i] : memref<?xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %trips = arith.constant 1024 : index
    %scale = arith.constant 0.03125 : f32
    %acc = scf.for %r = %c0 to %trips step %c1 iter_args(%a = %x) -> f32 {
      %v = arith.mulf %a, %scale : f32
      %s = warp.scan <add> %v : f32
      scf.yield %s : f32
    }
    memref.store %acc, %out[%i] : memref<?xf32>
    gpu.return
  }
}
}
