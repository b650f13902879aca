// warp.block_radix_sort: the keys' images, then one counting pass per
// radix_bits bits of the sorted range: per-thread counters packed in i32
// words, an exclusive block scan of the words with the block totals (here a
// warp scan, parked totals, a barrier, ...), then a barrier, the images
// (and values) stored at their ranks, a barrier, the thread's next items
// loaded. Buffers: B_max * N items plus one padding item per 128 bytes, per
// image type and value type. warp-select-lowering writes radix_bits where
// the op has none.
// RUN: warp-opt %s --split-input-file --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(warp-select-lowering))' | FileCheck %s --check-prefix=SELECT
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: cat %t/two_passes.ptx %t/wide_digits.ptx %t/choice.ptx | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/two_passes.ptx -o %t/a.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/wide_digits.ptx -o %t/b.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/choice.ptx -o %t/c.cubin %}

// 64 threads x 2 items: 128 i32 images (+3 padding), 128 f32 values (+3).
// Bits 0 to 8 with radix_bits = 4: two passes of 16 digits (8 words, one
// scan of vector<8xi32> each).
// CHECK-LABEL: gpu.module @two_passes
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys : memref<131xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_values : memref<131xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xvector<8xi32>, #gpu.address_space<workgroup>>
// CHECK: gpu.func @k
// Signed keys: the sign bit flipped; descending: complemented.
// CHECK: arith.xori %{{.*}}, %c-2147483648_i32
// CHECK: arith.xori %{{.*}}, %c-1_i32
// The first pass: digit = image & 15.
// CHECK: arith.andi %{{.*}}, %c15_i32
// A known block of two whole warps: the block scan's one barrier.
// CHECK: warp.scan <add> %{{.*}} exclusive : vector<8xi32>
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<131xi32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<131xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store
// CHECK: memref.store
// CHECK-NOT: memref.load
// CHECK: gpu.barrier
// CHECK: memref.load %{{.*}} : memref<131xi32, #gpu.address_space<workgroup>>
// CHECK: memref.load %{{.*}} : memref<131xf32, #gpu.address_space<workgroup>>
// The second pass: digit = (image >> 4) & 15.
// CHECK: arith.shrui %{{.*}}, %c4_i32
// CHECK: arith.andi %{{.*}}, %c15_i32
// CHECK: warp.scan <add> %{{.*}} exclusive : vector<8xi32>
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK: memref.load
// No third pass.
// CHECK-NOT: warp.scan
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// SELECT-LABEL: gpu.module @two_passes
// SELECT: warp.block_radix_sort %{{.*}}, %{{.*}} descending signed bits 0 to 8 radix_bits = 4 : vector<2xi32>, vector<2xf32>
// PTX-LABEL: .entry k(
// PTX-COUNT-6: bar.sync 0;
// PTX-NOT: bar.sync
// PTX: ret;
gpu.module @two_passes [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%k: vector<2xi32>, %v: vector<2xf32>, %out: memref<2xvector<2xi32>>, %vout: memref<2xvector<2xf32>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s:2 = warp.block_radix_sort %k, %v descending signed bits 0 to 8 : vector<2xi32>, vector<2xf32>
    memref.store %s#0, %out[%c0] : memref<2xvector<2xi32>>
    memref.store %s#1, %vout[%c0] : memref<2xvector<2xf32>>
    gpu.return
  }
}

// -----

// radix_bits = 8 over 8 bits: one pass of 256 digits, 128 counter words in
// 16 scans of vector<8xi32>. An f16 key without a known block size: 1024
// threads x 1 item (+ 15 padding), striped; the block's size from
// gpu.block_dim.
// CHECK-LABEL: gpu.module @wide_digits
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys : memref<1039xi16, #gpu.address_space<workgroup>>
// CHECK: arith.bitcast %{{.*}} : f16 to i16
// Each block scan of an unknown block: the warps' scans and warp 0's scan
// of the warps' totals.
// CHECK-COUNT-32: warp.scan <add> %{{.*}} exclusive valid_lanes
// CHECK-NOT: warp.scan
// CHECK: gpu.return
// SELECT-LABEL: gpu.module @wide_digits
// SELECT: warp.block_radix_sort %{{.*}} bits 8 to 16 striped radix_bits = 8 : vector<1xf16>
// PTX-LABEL: .entry w(
// PTX: ret;
gpu.module @wide_digits [#nvvm.target<chip = "sm_90">] {
  gpu.func @w(%k: vector<1xf16>, %out: memref<2xvector<1xf16>>) kernel {
    %c0 = arith.constant 0 : index
    %s = warp.block_radix_sort %k bits 8 to 16 striped radix_bits = 8 : vector<1xf16>
    memref.store %s, %out[%c0] : memref<2xvector<1xf16>>
    gpu.return
  }
}

// -----

// The compiler's choice: no more bits per pass than the range has.
// SELECT-LABEL: gpu.module @choice
// SELECT: warp.block_radix_sort %{{.*}} radix_bits = 4 : vector<4xi64>
// SELECT: warp.block_radix_sort %{{.*}} bits 5 to 7 radix_bits = 2 : vector<4xi8>
// CHECK-LABEL: gpu.module @choice
// PTX-LABEL: .entry c(
gpu.module @choice [#nvvm.target<chip = "sm_90">] {
  gpu.func @c(%k: vector<4xi64>, %b: vector<4xi8>, %out: memref<2xvector<4xi64>>, %o8: memref<2xvector<4xi8>>) kernel attributes {known_block_size = array<i32: 17, 2, 3>} {
    %c0 = arith.constant 0 : index
    %s = warp.block_radix_sort %k : vector<4xi64>
    %t = warp.block_radix_sort %b bits 5 to 7 : vector<4xi8>
    memref.store %s, %out[%c0] : memref<2xvector<4xi64>>
    memref.store %t, %o8[%c0] : memref<2xvector<4xi8>>
    gpu.return
  }
}
