// warp.lane_atomic_rmw to one inline PTX atom with its .sem and .scope (the
// defaults written out), the state space from the pointer's (generic:
// none), the value as an integer register of its width (lane-atomic-chip.mlir:
// the chip's errors).
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_90 --convert-warp-mma-to-nvvm -split-input-file | FileCheck %s

// CHECK-LABEL: func @lane_atomics
// CHECK: %[[P:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: %[[V:.*]] = llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK: %[[O:.*]] = llvm.inline_asm has_side_effects {{.*}}"atom.acq_rel.sys.global.add.noftz.f16x2 $0, [$1], $2;", "=r,l,r" %[[P]], %[[V]] : (i64, i32) -> i32
// CHECK: llvm.bitcast %[[O]] : i32 to vector<2xf16>
// CHECK: llvm.inline_asm has_side_effects {{.*}}"atom.relaxed.gpu.shared.add.noftz.f16 $0, [$1], $2;", "=h,l,h"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"atom.acquire.cta.min.s64 $0, [$1], $2;", "=l,l,l"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"atom.release.gpu.global.exch.b32 $0, [$1], $2;", "=r,l,r"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"atom.relaxed.gpu.global.add.f32 $0, [$1], $2;", "=r,l,r"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"atom.relaxed.gpu.global.and.b32 $0, [$1], $2;", "=r,l,r"
gpu.module @m {
func.func @lane_atomics(%p: memref<?xvector<2xf16>, 1>, %v: vector<2xf16>, %h: memref<8xf16, 3>, %x: f16,
                        %l: memref<?xi64>, %y: i64, %f: memref<?xf32, 1>, %w: f32, %n: memref<?xi32, 1>, %z: i32, %i: index)
    -> (vector<2xf16>, f16, i64, f32, f32, i32) {
  %0 = warp.lane_atomic_rmw <add> %v, %p[%i] scope <sys> ordering <acq_rel> : vector<2xf16>, memref<?xvector<2xf16>, 1>
  %1 = warp.lane_atomic_rmw <add> %x, %h[%i] : f16, memref<8xf16, 3>
  %2 = warp.lane_atomic_rmw <minsi> %y, %l[%i] scope <cta> ordering <acquire> : i64, memref<?xi64>
  %3 = warp.lane_atomic_rmw <exch> %w, %f[%i] ordering <release> : f32, memref<?xf32, 1>
  %4 = warp.lane_atomic_rmw <add> %w, %f[%i] : f32, memref<?xf32, 1>
  %5 = warp.lane_atomic_rmw <and> %z, %n[%i] : i32, memref<?xi32, 1>
  return %0, %1, %2, %3, %4, %5 : vector<2xf16>, f16, i64, f32, f32, i32
}
}


// -----

// A 16-bit exch, minnumf or maxnumf: a relaxed load for the first guess,
// then an scf.while whose attempt is one atom.cas.b16 with the op's .sem and
// .scope, looping while the bits it found differ from the guess; min/max
// combine the bits found (as the element type) with the value first.
// CHECK-LABEL: func @lane_atomics_16bit_cas
// CHECK: %[[P:.*]] = llvm.ptrtoint %[[PTR:.*]] : !llvm.ptr<3> to i64
// CHECK: %[[G:.*]] = llvm.load %[[PTR]] atomic monotonic {alignment = 2 : i64} : !llvm.ptr<3> -> i16
// CHECK: %[[O:.*]] = scf.while (%[[E:.*]] = %[[G]]) : (i16) -> i16 {
// CHECK:   %[[F:.*]] = llvm.inline_asm has_side_effects {{.*}}"atom.acq_rel.cta.shared.cas.b16 $0, [$1], $2, $3;", "=h,l,h,h" %[[P]], %[[E]], %{{.*}} : (i64, i16, i16) -> i16
// CHECK:   %[[R:.*]] = llvm.icmp "ne" %[[F]], %[[E]] : i16
// CHECK:   scf.condition(%[[R]]) %[[F]] : i16
// CHECK: } do {
// CHECK: ^bb0(%[[A:.*]]: i16):
// CHECK:   scf.yield %[[A]] : i16
// CHECK: }
// CHECK: scf.while
// CHECK:   %[[H:.*]] = llvm.bitcast %{{.*}} : i16 to f16
// CHECK:   %[[M:.*]] = arith.minnumf %[[H]], %{{.*}} : f16
// CHECK:   %[[B:.*]] = llvm.bitcast %[[M]] : f16 to i16
// CHECK:   llvm.inline_asm has_side_effects {{.*}}"atom.relaxed.gpu.cas.b16 $0, [$1], $2, $3;", "=h,l,h,h" %{{.*}}, %{{.*}}, %[[B]]
// CHECK: scf.while
// CHECK:   arith.maxnumf %{{.*}}, %{{.*}} : bf16
// CHECK:   llvm.inline_asm has_side_effects {{.*}}"atom.release.sys.global.cas.b16
gpu.module @m {
func.func @lane_atomics_16bit_cas(%s: memref<8xi16, 3>, %w: i16, %h: memref<?xf16>, %x: f16,
                                  %b: memref<?xbf16, 1>, %y: bf16, %i: index) -> (i16, f16, bf16) {
  %0 = warp.lane_atomic_rmw <exch> %w, %s[%i] scope <cta> ordering <acq_rel> : i16, memref<8xi16, 3>
  %1 = warp.lane_atomic_rmw <minnumf> %x, %h[%i] : f16, memref<?xf16>
  %2 = warp.lane_atomic_rmw <maxnumf> %y, %b[%i] scope <sys> ordering <release> : bf16, memref<?xbf16, 1>
  return %0, %1, %2 : i16, f16, bf16
}
}
