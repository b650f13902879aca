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

  // The same sums in Triton's shape (warp_bench.py's triton_warp_sum:
  // 8 rows per warp): lane l loads floats 8l .. 8l + 7 of its warp's 256
  // (two 16-byte loads), so lanes 4r .. 4r + 3 hold row r, and a
  // warp.reduce over clusters of 4 lanes finishes each row.
  gpu.func @warp_sum_f32_rows(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %at = arith.muli %i, %c8 : index
    %at4 = arith.addi %at, %c4 : index
    %a = vector.load %in[%at] {alignment = 16} : memref<?xf32>, vector<4xf32>
    %b = vector.load %in[%at4] {alignment = 16} : memref<?xf32>, vector<4xf32>
    %ab = arith.addf %a, %b : vector<4xf32>
    %e0 = vector.extract %ab[0] : f32 from vector<4xf32>
    %e1 = vector.extract %ab[1] : f32 from vector<4xf32>
    %e2 = vector.extract %ab[2] : f32 from vector<4xf32>
    %e3 = vector.extract %ab[3] : f32 from vector<4xf32>
    %e01 = arith.addf %e0, %e1 : f32
    %e23 = arith.addf %e2, %e3 : f32
    %x = arith.addf %e01, %e23 : f32
    %s = warp.reduce <add> %x cluster_size = 4 lanes = <first> : f32
    %lane = warp.lane_id : i32
    %c3 = arith.constant 3 : i32
    %c0 = arith.constant 0 : i32
    %low = arith.andi %lane, %c3 : i32
    %first = arith.cmpi eq, %low, %c0 : i32
    scf.if %first {
      %row = arith.divui %i, %c4 : index
      memref.store %s, %out[%row] : memref<?xf32>
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
