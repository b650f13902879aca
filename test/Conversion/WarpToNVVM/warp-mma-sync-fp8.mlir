// An fp8 warp.mma_sync (convert-warp-mma-to-nvvm) is a call of LLVM's
// llvm.nvvm.mma.m16n8k32.row.col.<D>.<A>.<B>.<C> intrinsic (nvvm.mma.sync
// has no fp8) on its fragments four bytes to an i32, and raises the PTX
// version of its gpu.module to the first with it: 8.4 for f32 accumulators,
// 8.7 for f16. Modules without one keep their chip's version.
// RUN: warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_89 module=f32_.*},nvvm-attach-target{chip=sm_90 module=f16_.*},nvvm-attach-target{chip=sm_90 features=+ptx86 module=explicit_.*},nvvm-attach-target{chip=sm_89 module=none_.*},gpu.module(convert-warp-mma-to-nvvm))" | FileCheck %s
// Older chips: a located error naming the instruction and its chip.
// RUN: not warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_80},gpu.module(convert-warp-mma-to-nvvm))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80
// A pass inside the module cannot raise its version: an error, not a
// backend abort later.
// RUN: not warp-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(gpu.func(convert-warp-mma-to-nvvm)))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED

// CHECK-LABEL: gpu.module @f32_kernels [#nvvm.target<chip = "sm_89", features = "+ptx84">]
// CHECK: %[[A:.*]] = llvm.bitcast %{{.*}} : vector<16xi8> to vector<4xi32>
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : vector<8xi8> to vector<2xi32>
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e5m2.f32"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {warp.convergent = {{.*}}} : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// SM80: warp-mma-sync-fp8.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'warp.mma_sync' op PTX mma.sync.m16n8k32.e4m3 needs sm_89 or newer; the target chip is sm_80
gpu.module @f32_kernels {
  gpu.func @f32(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E5M2>, %c: vector<4xf32>) -> vector<4xf32> {
    %d = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E5M2> -> vector<4xf32>
    gpu.return %d : vector<4xf32>
  }
}

// CHECK-LABEL: gpu.module @f16_kernels [#nvvm.target<chip = "sm_90", features = "+ptx87">]
// f16 pairs as <2 x half>, like every f16 accumulator.
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f16.e5m2.e5m2.f16"({{.*}}) {warp.convergent = {{.*}}} : (i32, i32, i32, i32, i32, i32, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"
// SM80: error: 'warp.mma_sync' op PTX mma.sync.m16n8k32.e5m2 needs sm_89 or newer; the target chip is sm_80
// NESTED: error: 'warp.mma_sync' op needs PTX 8.7 or newer, which only a pass on the enclosing gpu.module can select: run convert-warp-mma-to-nvvm on it
gpu.module @f16_kernels {
  gpu.func @f16(%a: vector<16xf8E5M2>, %b: vector<8xf8E5M2>, %c: vector<4xf16>,
                %x: vector<16xf8E4M3FN>, %y: vector<8xf8E4M3FN>, %z: vector<4xf32>) -> vector<4xf16> {
    %d = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E5M2>, vector<8xf8E5M2> -> vector<4xf16>
    %e = warp.mma_sync %x, %y, %z shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
    gpu.return %d : vector<4xf16>
  }
}

// A newer version than fp8 needs stays.
// CHECK-LABEL: gpu.module @explicit_kernels [#nvvm.target<chip = "sm_90", features = "+ptx86">]
gpu.module @explicit_kernels {
  gpu.func @f32(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf32>) -> vector<4xf32> {
    %d = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
    gpu.return %d : vector<4xf32>
  }
}

// No fp8: the chip's own version (none named).
// CHECK-LABEL: gpu.module @none_kernels [#nvvm.target<chip = "sm_89">]
// CHECK: nvvm.mma.sync
gpu.module @none_kernels {
  gpu.func @i8(%a: vector<16xi8>, %b: vector<8xi8>, %c: vector<4xi32>) -> vector<4xi32> {
    %d = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xi8>, vector<8xi8> -> vector<4xi32>
    gpu.return %d : vector<4xi32>
  }
}
