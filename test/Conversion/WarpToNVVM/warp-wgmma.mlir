// warp.wgmma_descriptor lowers (convert-warp-mma-to-nvvm) to the element's
// shared address >> 4 in bits 0-13, or-ed with leading >> 4 at bit 16,
// stride >> 4 at bit 32 and the swizzle mode at bit 62; warp.wgmma to
// nvvm.wgmma.mma_async m64nNk16 with the accumulator moved into and out of
// its struct of f32 (K-major A is layout row, K-major B col; mn_major
// flips them).
// RUN: warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90a},gpu.module(convert-warp-mma-to-nvvm))" | FileCheck %s
// Only sm_90a has wgmma: a located error elsewhere.
// RUN: not warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-warp-mma-to-nvvm))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_100a},gpu.module(convert-warp-mma-to-nvvm))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM100A

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @multiply
  // CHECK: %[[PTR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[PTR]] : !llvm.ptr<3> to i64
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[SHIFTED:.*]] = llvm.lshr %[[ADDR]], %[[FOUR]] : i64
  // CHECK: %[[MASK:.*]] = llvm.mlir.constant(16383 : i64) : i64
  // CHECK: %[[START:.*]] = llvm.and %[[SHIFTED]], %[[MASK]] : i64
  // 1 << 62 | (1024 >> 4) << 32 | (16 >> 4) << 16
  // CHECK: %[[FIELDS:.*]] = llvm.mlir.constant(4611686293305360384 : i64) : i64
  // CHECK: %[[DA:.*]] = llvm.or %[[START]], %[[FIELDS]] : i64
  // 2 << 62 | (512 >> 4) << 32 | (8192 >> 4) << 16
  // CHECK: llvm.mlir.constant(-9223371899382267904 : i64) : i64
  // CHECK: %[[DB:.*]] = llvm.or
  // CHECK: %[[IN:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[63] : !llvm.struct<(f32, {{(f32, )+}}f32)>
  // CHECK: %[[OUT:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %[[IN]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, {{(f32, )+}}f32)> -> !llvm.struct<(f32, {{(f32, )+}}f32)>
  // CHECK: llvm.extractvalue %[[OUT]][63]
  // CHECK: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <col>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)>
  // k is 32 bytes of the input; integers accumulate in s32 (wrapping).
  // CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
  // CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
  // CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 32>, D[<s32>, <one>, <wrapped>], A[<u8>, <one>, <row>], B[<u8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)>
  // SM90: error: 'warp.wgmma' op PTX wgmma.mma_async needs sm_90a; the target chip is sm_90
  // SM100A: error: 'warp.wgmma' op PTX wgmma.mma_async needs sm_90a; the target chip is sm_100a
  gpu.func @multiply(%a: memref<128x64xf16, 3>, %b: memref<128x64xf16, 3>, %r: index,
                     %acc: vector<64xf32>, %acc8: vector<4xf32>,
                     %acci: vector<4xi32>) -> vector<64xf32> {
    %c0 = arith.constant 0 : index
    %da = warp.wgmma_descriptor %a[%r, %c0] swizzle = b128 {leading = 16, stride = 1024} : memref<128x64xf16, 3>
    %db = warp.wgmma_descriptor %b[%c0, %r] swizzle = b64 {leading = 8192, stride = 512} : memref<128x64xf16, 3>
    %d = warp.wgmma %da, %db, %acc {b_mn_major} : f16, vector<64xf32>
    %e = warp.wgmma %da, %db, %acc8 {a_mn_major} : bf16, vector<4xf32>
    %f = warp.wgmma %da, %db, %acc8 : f8E4M3FN, vector<4xf32>
    %g = warp.wgmma %da, %db, %acc8 : f32, vector<4xf32>
    %h = warp.wgmma %da, %db, %acci {a_unsigned, b_unsigned} : i8, vector<4xi32>
    gpu.return %d : vector<64xf32>
  }
}

