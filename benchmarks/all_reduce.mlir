// gpu.all_reduce as frontends write it, compiled twice for all_reduce_bench.py:
// by upstream's gpu-lower-to-nvvm-pipeline (its own all-reduce rewrite) and by
// warp-lower-to-ptx (convert-gpu-to-warp makes it a warp.block_reduce).
// Block b reduces elements b * blockDim .. b * blockDim + blockDim - 1.
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @all_reduce_add_f32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %x = memref.load %in[%i] : memref<?xf32>
    %s = gpu.all_reduce add %x uniform {} : (f32) -> f32
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      memref.store %s, %out[%bid] : memref<?xf32>
    }
    gpu.return
  }
  gpu.func @all_reduce_max_i32(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %x = memref.load %in[%i] : memref<?xi32>
    %s = gpu.all_reduce maxsi %x uniform {} : (i32) -> i32
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      memref.store %s, %out[%bid] : memref<?xi32>
    }
    gpu.return
  }
}
}
