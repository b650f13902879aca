// warp-mark-read-only-params: after the device lowering, the pointer the
// loads of each memref recorded by warp-record-read-only-args go through
// (the aligned pointer of a descriptor, or the bare pointer) gets
// llvm.noalias and llvm.readonly (read-only-args.mlir tests the recording).
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-mark-read-only-params))' | FileCheck %s
// The device path between the two: record, lower, mark; descriptors with
// 64- and 32-bit index, and bare pointers.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-record-read-only-args,convert-gpu-to-nvvm,reconcile-unrealized-casts,warp-mark-read-only-params))' | FileCheck %s --check-prefix=DESC
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-record-read-only-args,warp-record-kernel-abi,convert-gpu-to-nvvm{index-bitwidth=32},reconcile-unrealized-casts,warp-mark-read-only-params,warp-widen-kernel-index-args))' | FileCheck %s --check-prefix=DESC32
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-record-read-only-args,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},reconcile-unrealized-casts,warp-mark-read-only-params))' | FileCheck %s --check-prefix=BARE

// A 1-D and a 2-D memref recorded, an index between them, a written memref
// after them: 5 + 1 + 7 + 5 parameters with descriptors, 4 with bare
// pointers. Only the aligned (or bare) pointers of arguments 0 and 2 get
// the attributes; the attribute is removed.
// DESC-LABEL: gpu.module @lowered
// DESC: llvm.func @k(%{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// DESC-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// DESC-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64)
// DESC-SAME: attributes {gpu.kernel, nvvm.kernel} {
// DESC32-LABEL: gpu.module @lowered
// DESC32: llvm.func @k(%{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// DESC32-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// DESC32-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64)
// DESC32-SAME: attributes {gpu.kernel, nvvm.kernel} {
// BARE-LABEL: gpu.module @lowered
// BARE: llvm.func @k(%{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: !llvm.ptr)
// BARE-SAME: attributes {gpu.kernel, nvvm.kernel} {
gpu.module @lowered {
  gpu.func @k(%in: memref<64xf32> {llvm.noalias, llvm.readonly}, %n: index,
              %grid: memref<8x8xi32> {llvm.noalias, llvm.readonly},
              %out: memref<64xf32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %v = memref.load %in[%t] : memref<64xf32>
    %g = memref.load %grid[%t, %n] : memref<8x8xi32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

// The pass alone, on lowered kernels: descriptors (told from bare pointers
// by the number of parameters), bare pointers, and functions without the
// attribute, which are left alone.
// CHECK-LABEL: gpu.module @mark
// CHECK: llvm.func @desc(%{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i32) attributes {nvvm.kernel} {
// CHECK: llvm.func @bare(%{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}) attributes {nvvm.kernel} {
// CHECK: llvm.func @plain(%{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64) attributes {nvvm.kernel} {
gpu.module @mark {
  llvm.func @desc(%a: !llvm.ptr, %b: !llvm.ptr, %off: i64, %size: i64, %stride: i64, %x: i32)
      attributes {nvvm.kernel, warp.read_only_args = {args = array<i64: 0>, signature = (memref<?xf32>, i32) -> ()}} {
    llvm.return
  }
  llvm.func @bare(%x: i32, %p: !llvm.ptr)
      attributes {nvvm.kernel, warp.read_only_args = {args = array<i64: 1>, signature = (i32, memref<4xf32>) -> ()}} {
    llvm.return
  }
  llvm.func @plain(%a: !llvm.ptr, %b: !llvm.ptr, %off: i64, %size: i64, %stride: i64) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

gpu.module @mismatch {
  // expected-error @+1 {{lowered kernel has 2 parameters, which matches neither calling convention of its source signature '(memref<?xf32>) -> ()'}}
  llvm.func @k(%a: !llvm.ptr, %n: i32) attributes {nvvm.kernel, warp.read_only_args = {args = array<i64: 0>, signature = (memref<?xf32>) -> ()}} {
    llvm.return
  }
}

// -----

gpu.module @not_a_pointer {
  // expected-error @+1 {{parameter 0 ('i64') of the lowered kernel is not the pointer of memref argument 0}}
  llvm.func @k(%a: i64) attributes {nvvm.kernel, warp.read_only_args = {args = array<i64: 0>, signature = (memref<4xf32>) -> ()}} {
    llvm.return
  }
}

// -----

gpu.module @malformed {
  // expected-error @+1 {{'warp.read_only_args' must be {args = array<i64: ...>, signature = <function type>} naming memref arguments of the signature, got {args = array<i64: 1>, signature = (memref<?xf32>) -> ()}}}
  llvm.func @out_of_range(%a: !llvm.ptr) attributes {nvvm.kernel, warp.read_only_args = {args = array<i64: 1>, signature = (memref<?xf32>) -> ()}} {
    llvm.return
  }
  // expected-error @+1 {{'warp.read_only_args' must be}}
  llvm.func @not_memref(%a: i32) attributes {nvvm.kernel, warp.read_only_args = {args = array<i64: 0>, signature = (i32) -> ()}} {
    llvm.return
  }
  // expected-error @+1 {{'warp.read_only_args' must be}}
  llvm.func @not_dict(%a: !llvm.ptr) attributes {nvvm.kernel, warp.read_only_args = 0 : i64} {
    llvm.return
  }
  // expected-error @+1 {{'warp.read_only_args' must be}}
  llvm.func @no_signature(%a: !llvm.ptr) attributes {nvvm.kernel, warp.read_only_args = {args = array<i64: 0>}} {
    llvm.return
  }
}
