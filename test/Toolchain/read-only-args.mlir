// warp-record-read-only-args: llvm.noalias + llvm.readonly memref kernel
// arguments whose buffer the kernel only reads are taken off the gpu.func
// and recorded (warp.read_only_args); a write through any llvm.readonly
// memref argument is an error; a use the pass cannot see through is a
// warning and drops llvm.noalias. read-only-params.mlir tests
// warp-mark-read-only-params and the device lowering between the two,
// test/PTX/read-only-args.mlir the PTX.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-record-read-only-args))' | FileCheck %s

// Read through a load, a vector load, a subview, a cast, a callee and a
// branch: recorded, both attributes taken off. Only the pair is recorded:
// llvm.readonly alone stays (no nc loads without noalias), llvm.noalias
// alone too (upstream warns about it, as before), and so do the other
// attributes of a recorded argument.
// CHECK-LABEL: gpu.module @read_only
// CHECK: gpu.func @k(%{{[a-z0-9]+}}: memref<?xf32>, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: memref<?x?xi32> {llvm.nonnull}, %{{[a-z0-9]+}}: memref<?xf32> {llvm.readonly}, %{{[a-z0-9]+}}: memref<?xf32>)
// CHECK-SAME: kernel attributes {warp.read_only_args = {args = array<i64: 0, 2>, signature = (memref<?xf32>, index, memref<?x?xi32>, memref<?xf32>, memref<?xf32>) -> ()}}
gpu.module @read_only {
  func.func @first(%m: memref<?xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %v = memref.load %m[%c0] : memref<?xf32>
    return %v : f32
  }
  gpu.func @k(%in: memref<?xf32> {llvm.noalias, llvm.readonly}, %n: index,
              %grid: memref<?x?xi32> {llvm.noalias, llvm.readonly, llvm.nonnull},
              %ro: memref<?xf32> {llvm.readonly}, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %v = vector.load %in[%t] {alignment = 16} : memref<?xf32>, vector<4xf32>
    %s = memref.subview %in[%n] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %x = memref.load %s[%c0] : memref<4xf32, strided<[1], offset: ?>>
    %c = memref.cast %in : memref<?xf32> to memref<4xf32>
    %y = memref.load %c[%c0] : memref<4xf32>
    %z = func.call @first(%in) : (memref<?xf32>) -> f32
    %g = memref.load %grid[%t, %c0] : memref<?x?xi32>
    %r = memref.load %ro[%t] : memref<?xf32>
    cf.br ^next(%in : memref<?xf32>)
  ^next(%m: memref<?xf32>):
    %w = memref.load %m[%t] : memref<?xf32>
    memref.store %w, %out[%t] : memref<?xf32>
    gpu.return
  }
}

// -----

// Writes through an llvm.readonly argument are errors, with or without
// llvm.noalias, however the buffer gets there.
gpu.module @store {
  // expected-note @+1 {{the kernel is declared here}}
  gpu.func @k(%in: memref<?xf32> {llvm.noalias, llvm.readonly}) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<?xf32>
    // expected-error @+1 {{'memref.store' op writes to the buffer of argument 0 of kernel @k, which is marked llvm.readonly}}
    memref.store %v, %in[%t] : memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @vector_store_readonly_alone {
  // expected-note @+1 {{the kernel is declared here}}
  gpu.func @k(%out: memref<?xf32>, %in: memref<?xf32> {llvm.readonly}) kernel {
    %t = gpu.thread_id x
    %v = vector.load %out[%t] : memref<?xf32>, vector<4xf32>
    // expected-error @+1 {{'vector.store' op writes to the buffer of argument 1 of kernel @k, which is marked llvm.readonly}}
    vector.store %v, %in[%t] : memref<?xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @atomics {
  // expected-note @+1 {{the kernel is declared here}}
  gpu.func @k(%hist: memref<256xi32> {llvm.noalias, llvm.readonly}, %bin: index) kernel {
    %one = arith.constant 1 : i32
    // expected-error @+1 {{'warp.atomic_rmw' op writes to the buffer of argument 0 of kernel @k, which is marked llvm.readonly}}
    %old = warp.atomic_rmw <add> %one, %hist[%bin] : i32, memref<256xi32>
    gpu.return
  }
  // expected-note @+1 {{the kernel is declared here}}
  gpu.func @rmw(%hist: memref<256xi32> {llvm.noalias, llvm.readonly}, %bin: index) kernel {
    %one = arith.constant 1 : i32
    // expected-error @+1 {{'memref.atomic_rmw' op writes to the buffer of argument 0 of kernel @rmw, which is marked llvm.readonly}}
    %old = memref.atomic_rmw addi %one, %hist[%bin] : (i32, memref<256xi32>) -> i32
    gpu.return
  }
}

// -----

// Through a view, a copy into it, and a store in a called function.
gpu.module @indirect {
  // expected-note @+1 {{the kernel is declared here}}
  gpu.func @view(%in: memref<?xf32> {llvm.noalias, llvm.readonly}, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %s = memref.subview %in[%c4] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{'memref.store' op writes to the buffer of argument 0 of kernel @view}}
    memref.store %x, %s[%c0] : memref<4xf32, strided<[1], offset: ?>>
    gpu.return
  }
  // expected-note @+1 {{the kernel is declared here}}
  gpu.func @copy(%in: memref<4xf32> {llvm.noalias, llvm.readonly}, %src: memref<4xf32>) kernel {
    // expected-error @+1 {{'memref.copy' op writes to the buffer of argument 0 of kernel @copy}}
    memref.copy %src, %in : memref<4xf32> to memref<4xf32>
    gpu.return
  }
  func.func @zero(%m: memref<?xf32>, %i: index) {
    %z = arith.constant 0.0 : f32
    // expected-error @+1 {{'memref.store' op writes to the buffer of argument 0 of kernel @call}}
    memref.store %z, %m[%i] : memref<?xf32>
    return
  }
  // expected-note @+1 {{the kernel is declared here}}
  gpu.func @call(%in: memref<?xf32> {llvm.noalias, llvm.readonly}) kernel {
    %t = gpu.thread_id x
    func.call @zero(%in, %t) : (memref<?xf32>, index) -> ()
    gpu.return
  }
}

// -----

// Uses the pass cannot see through: a warning, llvm.noalias dropped,
// llvm.readonly kept, nothing recorded.
// CHECK-LABEL: gpu.module @unknown
// CHECK: gpu.func @external_call(%{{[a-z0-9]+}}: memref<?xf32> {llvm.readonly}) kernel {
// CHECK: gpu.func @pointer_as_index(%{{[a-z0-9]+}}: memref<?xf32> {llvm.readonly}, %{{[a-z0-9]+}}: memref<?xindex>) kernel {
gpu.module @unknown {
  func.func private @opaque(memref<?xf32>)
  gpu.func @external_call(%in: memref<?xf32> {llvm.noalias, llvm.readonly}) kernel {
    // expected-warning @+1 {{cannot tell whether argument 0 of kernel @external_call (llvm.noalias, llvm.readonly) is only read: this op passes it to a function whose body is not in the module; llvm.noalias is dropped, so its loads do not use the read-only path (ld.global.nc)}}
    func.call @opaque(%in) : (memref<?xf32>) -> ()
    gpu.return
  }
  gpu.func @pointer_as_index(%in: memref<?xf32> {llvm.noalias, llvm.readonly}, %out: memref<?xindex>) kernel {
    %c0 = arith.constant 0 : index
    // expected-warning @+1 {{this op takes its address as an integer}}
    %p = memref.extract_aligned_pointer_as_index %in : memref<?xf32> -> index
    memref.store %p, %out[%c0] : memref<?xindex>
    gpu.return
  }
}

// -----

// Not kernels, not ranked memrefs: left to upstream's lowering.
// CHECK-LABEL: gpu.module @untouched
// CHECK: gpu.func @device(%{{[a-z0-9]+}}: memref<?xf32> {llvm.noalias, llvm.readonly})
// CHECK-NOT: warp.read_only_args
// CHECK: gpu.func @pointer(%{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}) kernel {
gpu.module @untouched {
  gpu.func @device(%in: memref<?xf32> {llvm.noalias, llvm.readonly}) {
    gpu.return
  }
  gpu.func @pointer(%p: !llvm.ptr {llvm.noalias, llvm.readonly}) kernel {
    gpu.return
  }
}

// -----

// Workgroup and private attributions follow the arguments in the entry
// block but are not arguments: only the argument is recorded (the pass
// asked the attributions for argument attributes, past the end of the
// kernel's list: an assertion, found by the fuzzer).
// CHECK-LABEL: gpu.module @attributions
// CHECK: gpu.func @k(%{{[a-z0-9]+}}: memref<?xf64>, %{{[a-z0-9]+}}: memref<?xf64>) workgroup
// CHECK-SAME: warp.read_only_args = {args = array<i64: 0>
gpu.module @attributions {
  gpu.func @k(%in: memref<?xf64> {llvm.noalias, llvm.readonly}, %out: memref<?xf64>)
      workgroup(%w: memref<4xf64, #gpu.address_space<workgroup>>)
      private(%p: memref<2xf64, #gpu.address_space<private>>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %in[%c0] : memref<?xf64>
    memref.store %v, %w[%c0] : memref<4xf64, #gpu.address_space<workgroup>>
    memref.store %v, %p[%c0] : memref<2xf64, #gpu.address_space<private>>
    %x = memref.load %w[%c0] : memref<4xf64, #gpu.address_space<workgroup>>
    memref.store %x, %out[%c0] : memref<?xf64>
    gpu.return
  }
}
