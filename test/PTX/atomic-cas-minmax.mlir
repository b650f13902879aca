// PTX of warp.atomic_rmw and warp.lane_atomic_rmw <minnumf>, <maxnumf> on
// f32 and f64 (CUDA's fminf/fmaxf, fmin/fmax): PTX atom has no float
// min/max, so the group's atomic is a compare-and-swap loop of atom.cas.b32
// or atom.cas.b64 (the 16-bit loop's code, atomic-cas-16bit.mlir) with the
// op's .sem and .scope and the pointer's state space, min.f32/max.f64 of
// the bits it found and the value inside the loop. Every PTX assembles
// with ptxas for its chip (sm_70 as sm_75: CUDA 13's ptxas has no sm_70).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.sm70.ptx
// RUN: FileCheck %s --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm70-ptx %{ %ptxas-accepts -arch=%ptxas-sm70-chip %t.sm70.ptx -o %t.sm70.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas-accepts -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

// CHECK-LABEL: .entry minmax(
// CHECK-NOT: atom.{{.*}}.{{min|max}}
// CHECK: ld.relaxed.sys.global.b32 [[GUESS:%r[0-9]+]], {{\[}}[[P:%rd[0-9]+]]];
// CHECK-NEXT: [[MIN:\$L__BB[0-9_]+]]:
// CHECK: min.f32
// CHECK: atom.relaxed.gpu.global.cas.b32 {{%r[0-9]+}}, {{\[}}[[P]]], {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK: @{{%p[0-9]+}} bra [[MIN]];
// CHECK: ld.relaxed.sys.global.b64
// CHECK-NEXT: [[MAX:\$L__BB[0-9_]+]]:
// CHECK: max.f64
// CHECK: atom.acquire.gpu.global.cas.b64 {{%rd[0-9]+}}, {{\[}}{{%rd[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}};
// CHECK: @{{%p[0-9]+}} bra [[MAX]];
// CHECK-NOT: atom.
// CHECK: ret;

// One lane's atomic: the same loop with its scope and order.
// CHECK-LABEL: .entry lane(
// CHECK: max.f32
// CHECK: atom.release.cta.shared.cas.b32
// CHECK: min.f64
// CHECK: atom.relaxed.sys.cas.b64
// CHECK-NOT: atom.
// CHECK: ret;
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @minmax(%a: memref<?xf32, 1>, %b: memref<?xf64, 1>, %i: index, %v: f32, %w: f64) kernel {
    %0 = warp.atomic_rmw <minnumf> %v, %a[%i] : f32, memref<?xf32, 1>
    %1 = warp.atomic_rmw <maxnumf> %w, %b[%i] ordering <acquire> : f64, memref<?xf64, 1>
    memref.store %0, %a[%i] : memref<?xf32, 1>
    memref.store %1, %b[%i] : memref<?xf64, 1>
    gpu.return
  }

  gpu.func @lane(%a: memref<?xf64>, %i: index, %v: f32, %w: f64) workgroup(%s: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    %0 = warp.lane_atomic_rmw <maxnumf> %v, %s[%i] scope <cta> ordering <release> : f32, memref<64xf32, #gpu.address_space<workgroup>>
    %1 = warp.lane_atomic_rmw <minnumf> %w, %a[%i] scope <sys> : f64, memref<?xf64>
    memref.store %0, %s[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %1, %a[%i] : memref<?xf64>
    gpu.return
  }
}
}
