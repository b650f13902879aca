// A memref atomic on a cluster's shared memory (address space 7) lowers on
// sm_90 to `atom.shared::cluster` (before sm_90 it is a diagnostic,
// memory-spaces.mlir); the PTX assembles with ptxas.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// CHECK: atom.shared::cluster.add.f32
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @cluster_shared(%out: memref<8xf32, 7>, %res: memref<8xf32>, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    %old = memref.atomic_rmw addf %x, %out[%c0] : (f32, memref<8xf32, 7>) -> f32
    memref.store %old, %res[%c0] : memref<8xf32>
    gpu.return
  }
}
}
