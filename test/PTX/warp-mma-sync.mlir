// warp.mma_sync, warp.ldmatrix and warp.stmatrix through the whole
// warp-lower-to-ptx pipeline: each op is one PTX instruction whose operands
// are the fragment's registers (no moves, shuffles or arithmetic around it;
// the histogram would count them), for every mma.sync form and ldmatrix
// count; the PTX assembles for sm_80 (no stmatrix there) and sm_90.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "(mma|ldmatrix|stmatrix)\.[a-z.0-9]+" %t.sm90.ptx | FileCheck %s --match-full-lines
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// sm_80 has everything but stmatrix.
// RUN: sed -e '/^ *gpu.func @store_x4/,/^    }$/d' %s | warp-opt --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// The register operands, in PTX's order: D, A, B, C.
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.sm90.ptx

// CHECK: f16: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16=1 mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32=1 mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32=1
// CHECK: bf16_tf32: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32=1 mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32=1 mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32=1 mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32=1
// CHECK: i8: mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32=1 mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32=1 mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32=1
// CHECK: load: ldmatrix.sync.aligned.m8n8.x1.shared.b16=1 ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16=1 ldmatrix.sync.aligned.m8n8.x4.shared.b16=1
// CHECK: store_x4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16=1 stmatrix.sync.aligned.m8n8.x4.trans.shared.b16=1

// PTX-LABEL: .entry f16(
// PTX: ld.param.v4.b32 {[[C0:%r[0-9]+]], [[C1:%r[0-9]+]], [[C2:%r[0-9]+]], [[C3:%r[0-9]+]]}, [f16_param_2];
// PTX: ld.param.v4.b32 {[[A0:%r[0-9]+]], [[A1:%r[0-9]+]], [[A2:%r[0-9]+]], [[A3:%r[0-9]+]]}, [f16_param_0];
// PTX: ld.param.v2.b32 {[[B0:%r[0-9]+]], [[B1:%r[0-9]+]]}, [f16_param_1];
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// PTX-NEXT: {[[A0]], [[A1]], [[A2]], [[A3]]},
// PTX-NEXT: {[[B0]], [[B1]]},
// PTX-NEXT: {[[C0]], [[C1]], [[C2]], [[C3]]};

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile : memref<64x40xf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}

    gpu.func @f16(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>, %ch: vector<4xf16>,
                  %a4: vector<4xf16>, %b2: vector<2xf16>, %out: memref<12xf32>, %outh: memref<4xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %d = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xf32>
      %e = warp.mma_sync %a, %b, %ch shape = m16n8k16 : vector<8xf16>, vector<4xf16> -> vector<4xf16>
      %f = warp.mma_sync %a4, %b2, %c shape = m16n8k8 : vector<4xf16>, vector<2xf16> -> vector<4xf32>
      vector.store %d, %out[%c0] : memref<12xf32>, vector<4xf32>
      vector.store %f, %out[%c4] : memref<12xf32>, vector<4xf32>
      vector.store %e, %outh[%c0] : memref<4xf16>, vector<4xf16>
      gpu.return
    }

    gpu.func @bf16_tf32(%a: vector<8xbf16>, %b: vector<4xbf16>, %a4: vector<4xbf16>, %b2: vector<2xbf16>,
                        %ta: vector<4xf32>, %tb: vector<2xf32>, %ta2: vector<2xf32>, %tb1: vector<1xf32>,
                        %c: vector<4xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c12 = arith.constant 12 : index
      %d = warp.mma_sync %a, %b, %c shape = m16n8k16 : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
      %e = warp.mma_sync %a4, %b2, %c shape = m16n8k8 : vector<4xbf16>, vector<2xbf16> -> vector<4xf32>
      %f = warp.mma_sync %ta, %tb, %c shape = m16n8k8 : vector<4xf32>, vector<2xf32> -> vector<4xf32>
      %g = warp.mma_sync %ta2, %tb1, %c shape = m16n8k4 : vector<2xf32>, vector<1xf32> -> vector<4xf32>
      vector.store %d, %out[%c0] : memref<16xf32>, vector<4xf32>
      vector.store %e, %out[%c4] : memref<16xf32>, vector<4xf32>
      vector.store %f, %out[%c8] : memref<16xf32>, vector<4xf32>
      vector.store %g, %out[%c12] : memref<16xf32>, vector<4xf32>
      gpu.return
    }

    gpu.func @i8(%a: vector<16xi8>, %b: vector<8xi8>, %a8: vector<8xi8>, %b4: vector<4xi8>,
                 %c: vector<4xi32>, %out: memref<12xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %d = warp.mma_sync %a, %b, %c shape = m16n8k32 : vector<16xi8>, vector<8xi8> -> vector<4xi32>
      %e = warp.mma_sync %a, %b, %c shape = m16n8k32 {a_unsigned, satfinite} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
      %f = warp.mma_sync %a8, %b4, %c shape = m16n8k16 {b_unsigned} : vector<8xi8>, vector<4xi8> -> vector<4xi32>
      vector.store %d, %out[%c0] : memref<12xi32>, vector<4xi32>
      vector.store %e, %out[%c4] : memref<12xi32>, vector<4xi32>
      vector.store %f, %out[%c8] : memref<12xi32>, vector<4xi32>
      gpu.return
    }

    gpu.func @load(%r: index, %col: index, %out: memref<14xf16>) kernel {
      %t = memref.get_global @tile : memref<64x40xf16, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c12 = arith.constant 12 : index
      %x4 = warp.ldmatrix %t[%r, %col] count = 4 : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<8xf16>
      %x2 = warp.ldmatrix %t[%r, %col] count = 2 transpose : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
      %x1 = warp.ldmatrix %t[%r, %col] count = 1 : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<2xf16>
      vector.store %x4, %out[%c0] : memref<14xf16>, vector<8xf16>
      vector.store %x2, %out[%c8] : memref<14xf16>, vector<4xf16>
      vector.store %x1, %out[%c12] : memref<14xf16>, vector<2xf16>
      gpu.return
    }

    gpu.func @store_x4(%r: index, %col: index) kernel {
      %t = memref.get_global @tile : memref<64x40xf16, #gpu.address_space<workgroup>>
      %x = warp.ldmatrix %t[%r, %col] count = 4 transpose : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<8xf16>
      warp.stmatrix %x, %t[%col, %r] count = 4 transpose : vector<8xf16>, memref<64x40xf16, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
