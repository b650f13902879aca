// RUN: warp-opt %s --pass-pipeline='builtin.module(gpu.module(warp-align-gpu-memory))' | FileCheck %s

// Workgroup attributions, memref globals and LLVM globals of a gpu.module get
// at least 16-byte alignment; a larger one is kept.
// CHECK-LABEL: gpu.module @m
// CHECK: memref.global "private" @table : memref<4xi32> = dense<[1, 2, 3, 4]> {alignment = 16 : i64}
// CHECK: memref.global "private" @wide : memref<8xi64, #gpu.address_space<workgroup>> {alignment = 64 : i64}
// CHECK: llvm.mlir.global internal @scratch() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<3 x i32>
// CHECK: gpu.func @k(%{{.*}}: memref<8xi32>) workgroup(%{{.*}}: memref<8xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}}: memref<2xf64, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %{{.*}}: memref<3xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
gpu.module @m {
  memref.global "private" @table : memref<4xi32> = dense<[1, 2, 3, 4]>
  memref.global "private" @wide : memref<8xi64, #gpu.address_space<workgroup>> {alignment = 64}
  llvm.mlir.global internal @scratch() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<3 x i32>
  gpu.func @k(%o: memref<8xi32>)
      workgroup(%a: memref<8xi32, #gpu.address_space<workgroup>>,
                %b: memref<2xf64, #gpu.address_space<workgroup>> {llvm.align = 32 : i64},
                %c: memref<3xi8, #gpu.address_space<workgroup>> {llvm.align = 2 : i64}) kernel {
    gpu.return
  }
}
