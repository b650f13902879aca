// fp8 warp.mma_sync through the whole warp-lower-to-ptx pipeline: each op is
// one mma.sync.aligned.m16n8k32 whose operands are the fragments' registers
// (no moves or shuffles around it), and the module's PTX version is the
// first with the instruction: 8.7 with an f16 accumulator, 8.4 with f32 only
// (sm_89's own is 7.8, sm_90's 8.0, which ptxas refuses it under). The PTX
// assembles for sm_89 and sm_90.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_89 format=isa ptx-output=%t.sm89.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "mma\.[a-z.0-9]+" %t.sm89.ptx | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.sm89.ptx
// RUN: %if ptxas-sm_89 %{ %ptxas -arch=sm_89 %t.sm89.ptx -o %t.sm89.cubin %}
// Without the f16 accumulator: PTX 8.4, on sm_90 too.
// RUN: sed -e '/^ *gpu.func @f16_acc/,/^    }$/d' %s | warp-opt --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX84 --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// Older chips: a located error, not a backend abort.
// RUN: not warp-opt %s --warp-lower-to-ptx="chip=sm_86 format=isa ptx-output=%t.sm86.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM86

// CHECK: f32_acc: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32=1 mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32=1 mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32=1 mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32=1
// CHECK: f16_acc: mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16=1 mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16=1

// PTX: .version 8.7
// PTX: .target sm_89
// PTX-LABEL: .entry f32_acc(
// PTX-DAG: ld.param.v4.b32 {[[C0:%r[0-9]+]], [[C1:%r[0-9]+]], [[C2:%r[0-9]+]], [[C3:%r[0-9]+]]}, [f32_acc_param_4];
// PTX-DAG: ld.param.v4.b32 {[[A0:%r[0-9]+]], [[A1:%r[0-9]+]], [[A2:%r[0-9]+]], [[A3:%r[0-9]+]]}, [f32_acc_param_0];
// PTX-DAG: ld.param.v2.b32 {[[B0:%r[0-9]+]], [[B1:%r[0-9]+]]}, [f32_acc_param_1];
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// PTX-NEXT: {[[A0]], [[A1]], [[A2]], [[A3]]},
// PTX-NEXT: {[[B0]], [[B1]]},
// PTX-NEXT: {[[C0]], [[C1]], [[C2]], [[C3]]};

// PTX84: .version 8.4
// PTX84: .target sm_90
// PTX84: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32

// SM86: error: 'warp.mma_sync' op PTX mma.sync.m16n8k32.e4m3 needs sm_89 or newer; the target chip is sm_86

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f32_acc(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>,
                      %x: vector<16xf8E5M2>, %y: vector<8xf8E5M2>,
                      %c: vector<4xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c12 = arith.constant 12 : index
      %d = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      %e = warp.mma_sync %a, %y, %c shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E5M2> -> vector<4xf32>
      %f = warp.mma_sync %x, %b, %c shape = m16n8k32 : vector<16xf8E5M2>, vector<8xf8E4M3FN> -> vector<4xf32>
      %g = warp.mma_sync %x, %y, %c shape = m16n8k32 : vector<16xf8E5M2>, vector<8xf8E5M2> -> vector<4xf32>
      vector.store %d, %out[%c0] : memref<16xf32>, vector<4xf32>
      vector.store %e, %out[%c4] : memref<16xf32>, vector<4xf32>
      vector.store %f, %out[%c8] : memref<16xf32>, vector<4xf32>
      vector.store %g, %out[%c12] : memref<16xf32>, vector<4xf32>
      gpu.return
    }

    gpu.func @f16_acc(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %x: vector<16xf8E5M2>,
                      %c: vector<4xf16>, %out: memref<8xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %d = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
      %e = warp.mma_sync %x, %b, %c shape = m16n8k32 : vector<16xf8E5M2>, vector<8xf8E4M3FN> -> vector<4xf16>
      vector.store %d, %out[%c0] : memref<8xf16>, vector<4xf16>
      vector.store %e, %out[%c4] : memref<8xf16>, vector<4xf16>
      gpu.return
    }
  }
}
