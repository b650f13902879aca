// warp-widen-kernel-index-args: the index parameters and memref descriptor
// fields of kernels lowered with 32-bit index (as warp.kernel_abi records
// them) become i64, truncated to i32 at entry where they are used.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-widen-kernel-index-args))' | FileCheck %s

// CHECK-LABEL: gpu.module @widen
// A 2-D descriptor: offset, two sizes, two strides widened; the pointers
// and the plain i32 parameter not. Unused parameters (the offset, the first
// size, the second stride) get no truncation.
// CHECK: llvm.func @k(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[OFF:arg[0-9]+]]: i64, %[[S0:arg[0-9]+]]: i64, %[[S1:arg[0-9]+]]: i64, %[[T0:arg[0-9]+]]: i64, %[[T1:arg[0-9]+]]: i64, %[[X:arg[0-9]+]]: i32) attributes {nvvm.kernel} {
// CHECK-NEXT: %[[S1N:.*]] = llvm.trunc %[[S1]] : i64 to i32
// CHECK-NEXT: %[[T0N:.*]] = llvm.trunc %[[T0]] : i64 to i32
// CHECK-NEXT: llvm.mul %[[S1N]], %[[X]] : i32
// CHECK-NEXT: llvm.add %{{.*}}, %[[T0N]] : i32
// Bare pointers: the memref is one pointer, the index is widened.
// CHECK: llvm.func @bare(%{{.*}}: !llvm.ptr, %[[N:arg[0-9]+]]: i64, %{{.*}}: i32)
// CHECK-NEXT: llvm.trunc %[[N]] : i64 to i32
// Already 64-bit: nothing to do.
// CHECK: llvm.func @wide(%{{.*}}: i64)
// CHECK-NOT: llvm.trunc
// CHECK: llvm.return
// Without the attribute, functions are left alone.
// CHECK: llvm.func @device(%{{.*}}: i32)
gpu.module @widen {
  llvm.func @k(%a: !llvm.ptr, %b: !llvm.ptr, %off: i32, %s0: i32, %s1: i32, %t0: i32, %t1: i32, %x: i32)
      attributes {nvvm.kernel, warp.kernel_abi = (memref<?x?xf32>, i32) -> ()} {
    %m = llvm.mul %s1, %x : i32
    %r = llvm.add %m, %t0 : i32
    llvm.return
  }
  llvm.func @bare(%a: !llvm.ptr, %n: i32, %x: i32)
      attributes {nvvm.kernel, warp.kernel_abi = (memref<4xf32>, index, i32) -> ()} {
    %r = llvm.add %n, %x : i32
    llvm.return
  }
  llvm.func @wide(%n: i64) attributes {nvvm.kernel, warp.kernel_abi = (index) -> ()} {
    %r = llvm.add %n, %n : i64
    llvm.return
  }
  llvm.func @device(%n: i32) {
    llvm.return
  }
}

// -----

gpu.module @mismatch {
  // expected-error @+1 {{lowered kernel has 2 parameters, which matches neither calling convention of its source signature '(memref<?xf32>) -> ()'}}
  llvm.func @k(%a: !llvm.ptr, %n: i32) attributes {nvvm.kernel, warp.kernel_abi = (memref<?xf32>) -> ()} {
    llvm.return
  }
}

// -----

gpu.module @not_integer {
  // expected-error @+1 {{kernel parameter 0 is 'f32' where an index value was expected}}
  llvm.func @k(%n: f32) attributes {nvvm.kernel, warp.kernel_abi = (index) -> ()} {
    llvm.return
  }
}
