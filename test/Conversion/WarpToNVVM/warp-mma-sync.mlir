// warp.mma_sync, warp.ldmatrix and warp.stmatrix lower (convert-warp-mma-to-
// nvvm) to nvvm.mma.sync (row.col, PTX types from the element types and the
// a_unsigned/b_unsigned/satfinite attributes), nvvm.ldmatrix and
// nvvm.stmatrix (m8n8 b16; transpose is the col layout) on the row's shared
// pointer; the fragments split into and pack from PTX's 32-bit registers.
// RUN: warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-warp-mma-to-nvvm))" | FileCheck %s
// The chip gates: a located error per op on chips that lack it.
// RUN: not warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_75},gpu.module(convert-warp-mma-to-nvvm))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_80},gpu.module(convert-warp-mma-to-nvvm))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @f16
  // Two f16 per register: vector<2xf16> operands, as PTX's .f16x2.
  // CHECK: %[[A:.*]] = llvm.bitcast %{{.*}} : vector<4xf16> to vector<2xi32>
  // CHECK: nvvm.mma.sync A[%{{.*}}, %{{.*}}]  B[%{{.*}}]  C[%{{.*}}, %{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  // CHECK: llvm.bitcast %{{.*}} : vector<2xi32> to vector<4xf16>
  // The row pointer: aligned pointer + r * 8 + c in space 3.
  // CHECK: %[[PTR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
  // CHECK: nvvm.ldmatrix %[[PTR]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
  // SM75-NOT: error: 'warp.mma_sync' op PTX mma.sync.m16n8k8.f16
  gpu.func @f16(%a: vector<4xf16>, %b: vector<2xf16>, %c: vector<4xf16>, %t: memref<32x8xf16, 3>, %r: index) -> vector<4xf16> {
    %d = warp.mma_sync %a, %b, %c shape = m16n8k8 : vector<4xf16>, vector<2xf16> -> vector<4xf16>
    %x = warp.ldmatrix %t[%r, %r] count = 2 : memref<32x8xf16, 3> -> vector<4xf16>
    %e = arith.addf %d, %x : vector<4xf16>
    gpu.return %e : vector<4xf16>
  }

  // CHECK-LABEL: gpu.func @bf16
  // bf16 and tf32 travel as i32 words; f32 accumulators as f32.
  // CHECK: nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 4>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  // SM75: warp-mma-sync.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'warp.mma_sync' op PTX mma.sync.m16n8k16.bf16 needs sm_80 or newer; the target chip is sm_75
  gpu.func @bf16(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>, %ta: vector<2xf32>, %tb: vector<1xf32>) -> vector<4xf32> {
    %d = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
    %e = warp.mma_sync %ta, %tb, %d shape = m16n8k4 : vector<2xf32>, vector<1xf32> -> vector<4xf32>
    gpu.return %e : vector<4xf32>
  }

  // CHECK-LABEL: gpu.func @i8
  // Four i8 per i32 word; wrapping unless satfinite.
  // CHECK: nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<u8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, {{.*}}multiplicandAPtxType = #nvvm.mma_type<u8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
  gpu.func @i8(%a: vector<16xi8>, %b: vector<8xi8>, %c: vector<4xi32>, %a8: vector<8xi8>, %b4: vector<4xi8>) -> vector<4xi32> {
    %d = warp.mma_sync %a, %b, %c shape = m16n8k32 {b_unsigned} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
    %e = warp.mma_sync %a8, %b4, %d shape = m16n8k16 {a_unsigned, satfinite} : vector<8xi8>, vector<4xi8> -> vector<4xi32>
    gpu.return %e : vector<4xi32>
  }

  // CHECK-LABEL: gpu.func @store
  // CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
  // SM80: warp-mma-sync.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'warp.stmatrix' op PTX stmatrix needs sm_90 or newer; the target chip is sm_80
  gpu.func @store(%v: vector<8xbf16>, %t: memref<64x64xbf16, #gpu.address_space<workgroup>>, %r: index) {
    warp.stmatrix %v, %t[%r, %r] count = 4 transpose : vector<8xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}
