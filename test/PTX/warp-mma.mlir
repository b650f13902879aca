// warp.mma_* through the whole warp-lower-to-ptx pipeline for sm_80 and
// sm_90: bf16 (global memory, run-time row stride, a K loop carrying the
// accumulator vector), f16 into f16 and f32 (workgroup memory), tf32; every
// PTX assembles with ptxas for sm_90 (and sm_80 where this CUDA has it). The
// histograms pin one wmma per op and per loop step.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "wmma\.[a-z.0-9]+" %t.sm90.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "wmma\.[a-z.0-9]+" %t.sm80.ptx | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.sm80.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm80.ptx -o %t.sm80-on-90.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}

// CHECK: bf16_loop: wmma.load.a.sync.aligned.row.m16n16k16.global.bf16=1 wmma.load.b.sync.aligned.row.m16n16k16.global.bf16=1 wmma.mma.sync.aligned.row.row.m16n16k16.f32.bf16.bf16.f32=1 wmma.store.d.sync.aligned.row.m16n16k16.f32=1
// CHECK: f16_shared: mul.rn.f16x2=4 wmma.load.a.sync.aligned.col.m16n16k16.shared.f16=1 wmma.load.b.sync.aligned.row.m16n16k16.shared.f16=1 wmma.load.c.sync.aligned.row.m16n16k16.shared.f32=1 wmma.mma.sync.aligned.col.row.m16n16k16.f16.f16=1 wmma.mma.sync.aligned.col.row.m16n16k16.f32.f32=1 wmma.store.d.sync.aligned.col.m16n16k16.f16=1 wmma.store.d.sync.aligned.row.m16n16k16.shared.f32=1
// CHECK: tf32: wmma.load.a.sync.aligned.row.m16n16k8.tf32=1 wmma.load.b.sync.aligned.col.m16n16k8.tf32=1 wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32=1 wmma.store.d.sync.aligned.row.m16n16k16.f32=1

// The run-time row stride reaches wmma as a register operand.
// PTX-LABEL: .entry bf16_loop(
// PTX: wmma.load.a.sync.aligned.row.m16n16k16.global.bf16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile : memref<16x16xf16, #gpu.address_space<workgroup>> {alignment = 32 : i64}
    memref.global "private" @acc : memref<16x16xf32, #gpu.address_space<workgroup>> {alignment = 32 : i64}

    gpu.func @bf16_loop(%a: memref<?x?xbf16, 1>, %b: memref<?x?xbf16, 1>, %c: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %k_size = memref.dim %a, %c1 : memref<?x?xbf16, 1>
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %acc = scf.for %k = %c0 to %k_size step %c16 iter_args(%sum = %zero) -> (vector<8xf32>) {
        %fa = warp.mma_load %a[%c0, %k] operand = a layout = row shape = m16n16k16 : memref<?x?xbf16, 1> -> vector<8xbf16>
        %fb = warp.mma_load %b[%k, %c0] operand = b layout = row shape = m16n16k16 : memref<?x?xbf16, 1> -> vector<8xbf16>
        %next = warp.mma_compute %fa, %fb, %sum shape = m16n16k16 a_layout = row b_layout = row : vector<8xbf16>, vector<8xf32>
        scf.yield %next : vector<8xf32>
      }
      warp.mma_store %acc, %c[%c0, %c0] layout = row : vector<8xf32>, memref<?x?xf32>
      gpu.return
    }

    gpu.func @f16_shared(%out16: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = memref.get_global @tile : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sc = memref.get_global @acc : memref<16x16xf32, #gpu.address_space<workgroup>>
      %fa = warp.mma_load %s[%c0, %c0] operand = a layout = col shape = m16n16k16 : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<16xf16>
      %fb = warp.mma_load %s[%c0, %c0] operand = b layout = row shape = m16n16k16 : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<16xf16>
      %fc = warp.mma_load %sc[%c0, %c0] operand = c layout = row shape = m16n16k16 : memref<16x16xf32, #gpu.address_space<workgroup>> -> vector<8xf32>
      %zero = arith.constant dense<0.0> : vector<8xf16>
      %d16 = warp.mma_compute %fa, %fb, %zero shape = m16n16k16 a_layout = col b_layout = row : vector<16xf16>, vector<8xf16>
      %d32 = warp.mma_compute %fa, %fb, %fc shape = m16n16k16 a_layout = col b_layout = row : vector<16xf16>, vector<8xf32>
      %half = arith.constant dense<0.5> : vector<8xf16>
      %scaled = arith.mulf %d16, %half : vector<8xf16>
      warp.mma_store %scaled, %out16[%c0, %c0] layout = col : vector<8xf16>, memref<16x16xf16>
      warp.mma_store %d32, %sc[%c0, %c0] layout = row : vector<8xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.return
    }

    gpu.func @tf32(%a: memref<16x8xf32>, %b: memref<16x8xf32>, %c: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %fa = warp.mma_load %a[%c0, %c0] operand = a layout = row shape = m16n16k8 : memref<16x8xf32> -> vector<4xf32>
      %fb = warp.mma_load %b[%c0, %c0] operand = b layout = col shape = m16n16k8 : memref<16x8xf32> -> vector<4xf32>
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %d = warp.mma_compute %fa, %fb, %zero shape = m16n16k8 a_layout = row b_layout = col : vector<4xf32>, vector<8xf32>
      warp.mma_store %d, %c[%c0, %c0] layout = row : vector<8xf32>, memref<16x16xf32>
      gpu.return
    }
  }
}
