// PTX of what warp.atomic_rmw needs sm_90 for: the bf16 pair
// (atom.add.noftz.bf16x2), bf16 with an order, and the cluster scope; the
// PTX assembles with ptxas (expand-atomics-chip.mlir: the errors below
// sm_90).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: .entry sm90_only(
  // CHECK: atom.relaxed.gpu.global.add.noftz.bf16x2 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
  // CHECK: atom.release.gpu.global.add.noftz.bf16 %rs{{[0-9]+}}, [%rd{{[0-9]+}}], %rs{{[0-9]+}};
  // CHECK: atom.relaxed.cluster.global.add.u32
  // CHECK: ret;
  gpu.func @sm90_only(%p: memref<?xvector<2xbf16>, 1>, %b: memref<?xbf16, 1>, %a: memref<?xi32, 1>, %i: index,
                      %u: vector<2xbf16>, %x: bf16, %v: i32) kernel {
    %0 = warp.atomic_rmw <add> %u, %p[%i] : vector<2xbf16>, memref<?xvector<2xbf16>, 1>
    %1 = warp.atomic_rmw <add> %x, %b[%i] ordering <release> : bf16, memref<?xbf16, 1>
    %2 = warp.atomic_rmw <add> %v, %a[%i] scope <cluster> : i32, memref<?xi32, 1>
    memref.store %0, %p[%i] : memref<?xvector<2xbf16>, 1>
    memref.store %1, %b[%i] : memref<?xbf16, 1>
    memref.store %2, %a[%i] : memref<?xi32, 1>
    gpu.return
  }
}
}
