module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @sum(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %s = warp.reduce <add> %x : f32
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }
}
}
