// warp.mma_load / mma_compute / mma_store lower (convert-warp-mma-to-nvvm)
// to llvm.call_intrinsic of LLVM's llvm.nvvm.wmma.* intrinsics: the element
// pointer of src[i, j] with the memref's row stride (a descriptor field when
// dynamic, a constant when static), the address-space overload suffix, and
// the vector fragment bitcast to and from the intrinsics' registers.
// RUN: warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_80},gpu.module(convert-warp-mma-to-nvvm))" | FileCheck %s
// convert-warp-to-nvvm leaves them to that pass.
// RUN: warp-opt %s --pass-pipeline="builtin.module(gpu.module(convert-warp-to-nvvm))" | FileCheck %s --check-prefix=KEEP
// bf16 and tf32 need sm_80: a located error on older chips.
// RUN: not warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_75},gpu.module(convert-warp-mma-to-nvvm))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75

// KEEP-COUNT-3: warp.mma_load
// KEEP: warp.mma_compute
// KEEP: warp.mma_store

// SM75: warp-mma.mlir:[[@LINE+22]]:{{[0-9]+}}: error: 'warp.mma_load' op PTX wmma with bf16 fragments needs sm_80 or newer; the target chip is sm_75
// SM75: warp-mma.mlir:[[@LINE+24]]:{{[0-9]+}}: error: 'warp.mma_compute' op PTX wmma with bf16 fragments needs sm_80 or newer; the target chip is sm_75
// SM75-NOT: f16 fragments needs
// SM75: error: 'warp.mma_load' op PTX wmma with tf32 fragments needs sm_80 or newer

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @bf16_global
  // The A pointer: aligned pointer + offset + i * stride + j, in space 1.
  // CHECK: %[[STRIDE64:.*]] = llvm.extractvalue %{{.*}}[4, 0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK: %[[PTR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
  // CHECK: %[[STRIDE:.*]] = llvm.trunc %{{.*}} : i64 to i32
  // CHECK: %[[A:.*]] = llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.load.a.row.stride.bf16.p1"(%[[PTR]], %[[STRIDE]]) {{.*}}: (!llvm.ptr<1>, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  // Four i32 registers become vector<8xbf16>: insertelement, then one bitcast.
  // CHECK-COUNT-4: llvm.insertelement {{.*}} : vector<4xi32>
  // CHECK: llvm.bitcast %{{.*}} : vector<4xi32> to vector<8xbf16>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.load.b.col.stride.bf16.p1"
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.load.c.row.stride.f32.p1"({{.*}}) {{.*}}: (!llvm.ptr<1>, i32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: llvm.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.mma.row.col.bf16"({{.*}}) {{.*}}: (i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p1"({{.*}}) {{.*}}: (!llvm.ptr<1>, f32, f32, f32, f32, f32, f32, f32, f32, i32) -> ()
  // CHECK-NOT: warp.mma
  gpu.func @bf16_global(%a: memref<?x?xbf16, 1>, %b: memref<?x?xbf16, 1>, %c: memref<?x?xf32, 1>, %i: index, %j: index) kernel {
    %fa = warp.mma_load %a[%i, %j] operand = a layout = row shape = m16n16k16 : memref<?x?xbf16, 1> -> vector<8xbf16>
    %fb = warp.mma_load %b[%i, %j] operand = b layout = col shape = m16n16k16 : memref<?x?xbf16, 1> -> vector<8xbf16>
    %fc = warp.mma_load %c[%i, %j] operand = c layout = row shape = m16n16k16 : memref<?x?xf32, 1> -> vector<8xf32>
    %d = warp.mma_compute %fa, %fb, %fc shape = m16n16k16 a_layout = row b_layout = col : vector<8xbf16>, vector<8xf32>
    warp.mma_store %d, %c[%i, %j] layout = row : vector<8xf32>, memref<?x?xf32, 1>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @f16_shared
  // A static row stride is a constant; workgroup memory is space 3.
  // CHECK: %[[C24:.*]] = llvm.mlir.constant(24 : i32) : i32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.load.a.col.stride.f16.p3"(%{{.*}}, %[[C24]]) {{.*}}: (!llvm.ptr<3>, i32) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // <2 x half> registers: bitcast to i32 words, then to vector<16xf16>.
  // CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
  // CHECK: llvm.bitcast %{{.*}} : vector<8xi32> to vector<16xf16>
  // The f16 multiply names the D and C types.
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.mma.col.row.f16.f16"({{.*}}) {{.*}}: (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.store.d.col.stride.f16.p0"({{.*}}) {{.*}}: (!llvm.ptr, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, i32) -> ()
  gpu.func @f16_shared(%s: memref<16x24xf16, #gpu.address_space<workgroup>>, %out: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %fa = warp.mma_load %s[%c0, %c0] operand = a layout = col shape = m16n16k16 : memref<16x24xf16, #gpu.address_space<workgroup>> -> vector<16xf16>
    %fb = warp.mma_load %s[%c0, %c0] operand = b layout = row shape = m16n16k16 : memref<16x24xf16, #gpu.address_space<workgroup>> -> vector<16xf16>
    // A constant fill is an accumulator fragment; so is elementwise arith.
    %zero = arith.constant dense<1.0> : vector<8xf16>
    %d = warp.mma_compute %fa, %fb, %zero shape = m16n16k16 a_layout = col b_layout = row : vector<16xf16>, vector<8xf16>
    %two = arith.constant dense<2.0> : vector<8xf16>
    %scaled = arith.mulf %d, %two : vector<8xf16>
    warp.mma_store %scaled, %out[%c0, %c0] layout = col : vector<8xf16>, memref<16x16xf16>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @tf32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k8.load.a.row.stride.tf32.p0"({{.*}}) {{.*}}: (!llvm.ptr, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: llvm.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k8.load.b.row.stride.tf32.p0"
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k8.mma.row.row.tf32"({{.*}}) {{.*}}: (i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0"
  gpu.func @tf32(%a: memref<64x64xf32>, %c: memref<64x64xf32>, %i: index) kernel {
    %fa = warp.mma_load %a[%i, %i] operand = a layout = row shape = m16n16k8 : memref<64x64xf32> -> vector<4xf32>
    %fb = warp.mma_load %a[%i, %i] operand = b layout = row shape = m16n16k8 : memref<64x64xf32> -> vector<4xf32>
    %zero = arith.constant dense<0.0> : vector<8xf32>
    %d = warp.mma_compute %fa, %fb, %zero shape = m16n16k8 a_layout = row b_layout = row : vector<4xf32>, vector<8xf32>
    warp.mma_store %d, %c[%i, %i] layout = row : vector<8xf32>, memref<64x64xf32>
    gpu.return
  }
}
