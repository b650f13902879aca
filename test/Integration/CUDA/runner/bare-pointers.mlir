// The bare-pointer calling conventions on the GPU: host-bare-ptr.mlir's
// program (a warp sum of lanes 0..31, 496 in every lane, printed by a host
// function taking a bare pointer), with and without them.
// REQUIRES: cuda
// RUN: warp-cuda-runner %S/host-bare-ptr.mlir --entry-point-result=void --host-bare-ptr-calling-convention --kernel-bare-ptr-calling-convention | FileCheck %s
// RUN: warp-cuda-runner %S/host-bare-ptr.mlir --entry-point-result=void --kernel-bare-ptr-calling-convention | FileCheck %s
// RUN: warp-cuda-runner %S/host-bare-ptr.mlir --entry-point-result=void | FileCheck %s

// CHECK: 496
// CHECK-NEXT: 496
