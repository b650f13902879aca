// warp-record-kernel-abi notes each kernel's source signature before the
// device lowering; after convert-gpu-to-nvvm with 32-bit index,
// warp-widen-kernel-index-args turns the index parameters and memref
// descriptor fields of kernels back into i64, truncated at entry
// (kernel-index-abi-widen.mlir tests that pass alone).
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-record-kernel-abi))' | FileCheck %s --check-prefix=RECORD
// The whole device path: record, lower with 32-bit index, widen.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-record-kernel-abi,convert-gpu-to-nvvm{index-bitwidth=32},reconcile-unrealized-casts,warp-widen-kernel-index-args))' | FileCheck %s --check-prefix=LOWER

// RECORD-LABEL: gpu.module @record
// RECORD: gpu.func @k(%{{.*}}: memref<?xf32>, %{{.*}}: index, %{{.*}}: i32) kernel attributes {warp.kernel_abi = (memref<?xf32>, index, i32) -> ()}
// Only kernels are recorded.
// RECORD: func.func @helper(%{{.*}}: index) -> index {
// LOWER-LABEL: gpu.module @record
// A 1-D descriptor (ptr, ptr, offset, size, stride), then the index and the
// i32: the descriptor fields and the index become i64, the i32 stays.
// LOWER: llvm.func @k(%[[A:arg[0-9]+]]: !llvm.ptr, %[[B:arg[0-9]+]]: !llvm.ptr, %[[OFF:arg[0-9]+]]: i64, %[[SIZE:arg[0-9]+]]: i64, %[[STRIDE:arg[0-9]+]]: i64, %[[N:arg[0-9]+]]: i64, %[[S:arg[0-9]+]]: i32)
// LOWER-NOT: warp.kernel_abi
// LOWER-DAG: llvm.trunc %[[OFF]] : i64 to i32
// LOWER-DAG: llvm.trunc %[[SIZE]] : i64 to i32
// LOWER-DAG: llvm.trunc %[[STRIDE]] : i64 to i32
// LOWER-DAG: %[[N32:.*]] = llvm.trunc %[[N]] : i64 to i32
// LOWER: llvm.getelementptr {{.*}} : (!llvm.ptr, i32) -> !llvm.ptr, f32
// LOWER: llvm.mul %[[S]], %{{.*}} : i32
// LOWER: llvm.getelementptr {{.*}}[%[[N32]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// A device function keeps its 32-bit index parameter.
// LOWER: llvm.func @helper(%{{.*}}: i32) -> i32
gpu.module @record {
  gpu.func @k(%in: memref<?xf32>, %n: index, %s: i32) kernel {
    %tid = gpu.thread_id x
    %x = memref.load %in[%tid] : memref<?xf32>
    %t = arith.index_cast %tid : index to i32
    %y = arith.muli %s, %t : i32
    %f = arith.sitofp %y : i32 to f32
    %z = arith.addf %x, %f : f32
    memref.store %z, %in[%n] : memref<?xf32>
    gpu.return
  }
  func.func @helper(%i: index) -> index {
    return %i : index
  }
}

// -----

// Parameters holding index values in memory change layout with the index
// width, so they are refused.
gpu.module @index_elements {
  // expected-error @+1 {{kernel parameter 0 ('memref<?xindex>') holds index elements}}
  gpu.func @k(%in: memref<?xindex>) kernel {
    gpu.return
  }
}
