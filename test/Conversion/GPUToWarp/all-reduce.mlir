// A uniform gpu.all_reduce with a named operation becomes warp.block_reduce;
// with a reduction region it stays for upstream's lowering.
// RUN: warp-opt %s --convert-gpu-to-warp | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @named
  // CHECK: warp.block_reduce <add> %{{.*}} : f32
  // CHECK: warp.block_reduce <maximumf> %{{.*}} : f32
  // CHECK: warp.block_reduce <minui> %{{.*}} : i32
  // CHECK-NOT: gpu.all_reduce
  // PTX-LABEL: .entry named(
  // PTX: .shared .align 4 .b8 __warp_block_scratch[264];
  // PTX-COUNT-6: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @named(%in: memref<?xf32>, %iin: memref<?xi32>, %out: memref<?xf32>, %iout: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %i = memref.load %iin[%t] : memref<?xi32>
    %s = gpu.all_reduce add %x uniform {} : (f32) -> f32
    %m = gpu.all_reduce maximumf %s uniform {} : (f32) -> f32
    %u = gpu.all_reduce minui %i uniform {} : (i32) -> i32
    memref.store %m, %out[%t] : memref<?xf32>
    memref.store %u, %iout[%t] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @region
  // CHECK: gpu.all_reduce %{{.*}} uniform {
  // CHECK-NOT: warp.block_reduce
  gpu.func @region(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %s = gpu.all_reduce %x uniform {
    ^bb(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      gpu.yield %c : f32
    } : (f32) -> f32
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }
}
}
