// warp-lower-float-min-max: arith.maxnumf/minnumf become LLVM's maxnum and
// minnum intrinsics (scalars and vectors, f16 to f64), so that the PTX
// needs no libdevice: max/min instructions and no call. The NaN-propagating
// maximumf/minimumf and other arith ops are left to convert-gpu-to-nvvm.
// RUN: warp-opt %s --warp-lower-float-min-max | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=-" -o /dev/null | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @k
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (vector<2xf16>, vector<2xf16>) -> vector<2xf16>
// CHECK: arith.maximumf
// CHECK-NOT: arith.maxnumf
// CHECK-NOT: arith.minnumf
// PTX-NOT: call
// PTX-NOT: .extern
// PTX-DAG: max.f32
// PTX-DAG: min.f64
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%a: f32, %b: f32, %c: f64, %d: f64, %h: vector<2xf16>,
              %o: memref<?xf32>, %p: memref<?xf64>, %q: memref<?xvector<2xf16>>) kernel {
    %0 = arith.maxnumf %a, %b : f32
    %1 = arith.minnumf %c, %d : f64
    %2 = arith.maxnumf %h, %h : vector<2xf16>
    %3 = arith.maximumf %a, %b : f32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    memref.store %0, %o[%i0] : memref<?xf32>
    memref.store %3, %o[%i1] : memref<?xf32>
    memref.store %1, %p[%i0] : memref<?xf64>
    memref.store %2, %q[%i0] : memref<?xvector<2xf16>>
    gpu.return
  }
}
