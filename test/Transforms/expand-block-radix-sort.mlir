// warp.block_radix_sort: the keys' images, then one counting pass per
// radix_bits bits of the sorted range. Where the counter grid fits the
// static shared memory with the buffers, the grid ranking: every thread
// zeroes its column of the grid (L + 1 lanes of B_max i32 words, L =
// 2^R / 2) and counts its items there, a barrier, it rakes its L + 1
// consecutive words into one exclusive scalar block scan (a warp scan,
// parked totals, a barrier, ...), writes the prefixes back (the high
// halves after every low half), a barrier, reads its items' ranks.
// Where only the union of the grid and the buffers fits, one i8 buffer
// holds them by turns (memref.views at its start), with barriers between.
// Otherwise per-thread counters in registers and a block scan of vectors
// of counter words. Then a barrier, the images (and values) stored at
// their ranks, a barrier, the thread's next items loaded. Buffers: B_max *
// N items plus one padding item per 128 bytes, per image type and value
// type. warp-select-lowering writes radix_bits where the op has none.
// RUN: warp-opt %s --split-input-file --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(warp-select-lowering))' | FileCheck %s --check-prefix=SELECT
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: cat %t/two_passes.ptx %t/wide_digits.ptx %t/choice.ptx %t/grid_fits_exactly.ptx %t/grid_over_aligned.ptx %t/union_keys_512x16.ptx %t/union_pairs_512x8.ptx %t/union_pairs_512x16.ptx %t/grid_over_union.ptx | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/two_passes.ptx -o %t/a.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/wide_digits.ptx -o %t/b.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/choice.ptx -o %t/c.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/grid_fits_exactly.ptx -o %t/d.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/grid_over_aligned.ptx -o %t/e.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/union_keys_512x16.ptx -o %t/f.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/union_pairs_512x8.ptx -o %t/g.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/union_pairs_512x16.ptx -o %t/h.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/grid_over_union.ptx -o %t/i.cubin %}

// 64 threads x 2 items: 128 i32 images (+3 padding), 128 f32 values (+3).
// Bits 0 to 8 with radix_bits = 4: two passes of 16 digits, L = 8 counter
// lanes; the grid is 9 lanes x 64 threads = 576 words, the scan's scratch
// two halves of 66 i32 slots (a scalar scan, no vector of words). The
// grid's 2304 bytes are seen as 576 i32 words and as 1152 i16 halves.
// CHECK-LABEL: gpu.module @two_passes
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys : memref<131xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_values : memref<131xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_counters : memref<2304xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: vector<8xi32>
// CHECK: gpu.func @k
// CHECK: %[[BYTES:.*]] = memref.get_global @__warp_block_radix_counters
// CHECK: %[[GRID:.*]] = memref.view %[[BYTES]][%{{.*}}][] : memref<2304xi8, #gpu.address_space<workgroup>> to memref<576xi32
// CHECK: %[[HALVES:.*]] = memref.view %[[BYTES]][%{{.*}}][] : memref<2304xi8, #gpu.address_space<workgroup>> to memref<1152xi16
// Signed keys: the sign bit flipped; descending: complemented.
// CHECK: arith.xori %{{.*}}, %c-2147483648_i32
// CHECK: arith.xori %{{.*}}, %c-1_i32
// The first pass. The thread zeroes its column: lanes 0 to 8.
// CHECK-COUNT-9: memref.store %c0_i32{{[_0-9]*}}, %[[GRID]][%{{.*}}] : memref<576xi32
// CHECK-NOT: gpu.barrier
// digit = image & 15; lane = digit & 7; the item's half of the grid:
// 2 (lane * T + thread) + (digit >> 3).
// CHECK: %[[D:.*]] = arith.andi %{{.*}}, %c15_i32
// CHECK: arith.andi %[[D]], %c7_i32
// CHECK: %[[WORD2:.*]] = arith.shli %{{.*}}, %c1_i32
// CHECK: %[[SUB:.*]] = arith.shrui %[[D]], %c3_i32
// CHECK: arith.addi %[[WORD2]], %[[SUB]]
// Each item: its counter's half loaded and kept, stored plus one.
// CHECK: memref.load %[[HALVES]]
// CHECK: memref.store %{{.*}}, %[[HALVES]]
// CHECK: memref.load %[[HALVES]]
// CHECK: memref.store %{{.*}}, %[[HALVES]]
// CHECK-NOT: memref.load %[[GRID]]
// CHECK: gpu.barrier
// Raking: the thread's 9 words from 9 * thread, their sum in one
// exclusive scan of an i32 (a known block of two whole warps: the scan's
// one barrier).
// CHECK: arith.muli %{{.*}}, %c9_i32
// CHECK-COUNT-9: memref.load %[[GRID]]
// CHECK-NOT: memref.load %[[GRID]]
// CHECK: warp.scan <add> %{{.*}} exclusive : i32
// CHECK-NOT: warp.scan
// CHECK: gpu.barrier
// The high halves after all low halves: the total's low half, shifted.
// CHECK: arith.andi %{{.*}}, %c65535_i32
// CHECK: arith.shli %{{.*}}, %c16_i32
// CHECK-COUNT-9: memref.store %{{.*}}, %[[GRID]]
// CHECK-NOT: memref.load %[[GRID]]
// CHECK: gpu.barrier
// Each item's rank: its half of the grid plus its count.
// CHECK: memref.load %[[HALVES]]
// CHECK: memref.load %[[HALVES]]
// CHECK-NOT: %[[GRID]]
// CHECK-NOT: %[[HALVES]]
// The scatter: a barrier, the stores, a barrier, the loads.
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<131xi32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<131xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store
// CHECK: memref.store
// CHECK-NOT: memref.load
// CHECK: gpu.barrier
// CHECK: memref.load %{{.*}} : memref<131xi32, #gpu.address_space<workgroup>>
// CHECK: memref.load %{{.*}} : memref<131xf32, #gpu.address_space<workgroup>>
// The second pass: the column zeroed again; digit = (image >> 4) & 15.
// CHECK-COUNT-9: memref.store %c0_i32{{[_0-9]*}}, %[[GRID]][%{{.*}}] : memref<576xi32
// CHECK: arith.shrui %{{.*}}, %c4_i32
// CHECK: arith.andi %{{.*}}, %c15_i32
// CHECK: gpu.barrier
// CHECK: warp.scan <add> %{{.*}} exclusive : i32
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %[[GRID]]
// CHECK: gpu.barrier
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK: memref.load
// No third pass.
// CHECK-NOT: warp.scan
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// SELECT-LABEL: gpu.module @two_passes
// SELECT: warp.block_radix_sort %{{.*}}, %{{.*}} descending signed bits 0 to 8 radix_bits = 4 ranking = <grid> : vector<2xi32>, vector<2xf32>
// Five barriers a pass: after the counting, the scan's, after the
// prefixes, and the scatter's two.
// PTX-LABEL: .entry k(
// PTX: .shared .align 16 .b8 __warp_block_radix_counters[2304];
// PTX-COUNT-10: bar.sync 0;
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

// radix_bits = 8 over 8 bits: one pass of 256 digits. An f16 key without a
// known block size: 1024 threads x 1 item (+ 15 padding), striped; the
// block's size from gpu.block_dim. The grid would be 129 lanes x 1024
// threads x 4 = 528384 bytes: the register counters instead, 128 counter
// words in 16 scans of vector<8xi32> (2078 + 4224 bytes).
// CHECK-LABEL: gpu.module @wide_digits
// CHECK-NOT: __warp_block_radix_counters
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys : memref<1039xi16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xvector<8xi32>, #gpu.address_space<workgroup>>
// CHECK-NOT: __warp_block_radix_counters
// CHECK: arith.bitcast %{{.*}} : f16 to i16
// Each block scan of an unknown block: the warps' scans and warp 0's scan
// of the warps' totals.
// CHECK-COUNT-32: warp.scan <add> %{{.*}} exclusive valid_lanes %{{.*}} : vector<8xi32>
// CHECK-NOT: warp.scan
// CHECK-NOT: __warp_block_radix_counters
// CHECK: gpu.return
// SELECT-LABEL: gpu.module @wide_digits
// SELECT: warp.block_radix_sort %{{.*}} bits 8 to 16 striped radix_bits = 8 ranking = <registers> : vector<1xf16>
// Two barriers a scan of an unknown block, and the scatter's two.
// PTX-LABEL: .entry w(
// PTX-NOT: __warp_block_radix_counters
// PTX-COUNT-34: bar.sync 0;
// PTX-NOT: bar.sync
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

// The compiler's choice: no more bits per pass than the range has. A known
// block of 102 threads (three warps and 6 lanes). The i64 sort: 16 passes
// of 4 bits, a grid of 9 lanes x 102 = 918 words; the i8 sort: one pass of
// 2 bits, 3 lanes (306 words) of the same grid. 408 items: 433 i64 images,
// 411 i8 images.
// SELECT-LABEL: gpu.module @choice
// SELECT: warp.block_radix_sort %{{.*}} radix_bits = 4 ranking = <grid> : vector<4xi64>
// SELECT: warp.block_radix_sort %{{.*}} bits 5 to 7 radix_bits = 2 ranking = <grid> : vector<4xi8>
// CHECK-LABEL: gpu.module @choice
// CHECK-DAG: memref.global "private" @__warp_block_radix_counters : memref<3672xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys : memref<433xi64, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys_0 : memref<411xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// Each scalar block scan of a ragged block: the warps' scans and warp 0's
// scan of the warps' totals.
// CHECK: gpu.func @c
// CHECK-COUNT-32: warp.scan <add> %{{.*}} exclusive valid_lanes %{{.*}} : i32, i32
// The i8 sort's one pass: digit = (image >> 5) & 3, zeroing 3 lanes.
// CHECK: arith.shrui %{{.*}}, %c5_i8
// CHECK: arith.andi %{{.*}}, %c3_i8
// CHECK-COUNT-2: warp.scan <add> %{{.*}} exclusive valid_lanes %{{.*}} : i32, i32
// CHECK-NOT: warp.scan
// CHECK: gpu.return
// 17 passes of six barriers: two scan barriers in a ragged block.
// PTX-LABEL: .entry c(
// PTX: .shared .align 16 .b8 __warp_block_radix_counters[3672];
// PTX-COUNT-102: bar.sync 0;
// PTX-NOT: bar.sync
// PTX: ret;
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

// -----

// The grid where the workgroup variables, each aligned to 16 bytes, take
// the 48 KiB exactly: 76 threads x 15 i32 keys and values, radix_bits = 8
// (L = 128). 1140 items + 35 padding = 1175 words (4700 bytes, 4704
// aligned) of keys and of values, 129 x 76 = 9804 words of grid (39216
// bytes), 528 of scratch: 4704 + 4704 + 39216 + 528 = 49152.
// CHECK-LABEL: gpu.module @grid_fits_exactly
// CHECK-DAG: memref.global "private" @__warp_block_radix_counters : memref<39216xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys : memref<1175xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_values : memref<1175xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK: gpu.func @fits
// CHECK-COUNT-129: memref.store %c0_i32{{[_0-9]*}}, %{{.*}} : memref<9804xi32
// CHECK-COUNT-2: warp.scan <add> %{{.*}} exclusive valid_lanes %{{.*}} : i32, i32
// CHECK-NOT: warp.scan
// CHECK: gpu.return
// PTX-LABEL: .entry fits(
// PTX: .shared .align 16 .b8 __warp_block_radix_counters[39216];
// PTX-COUNT-6: bar.sync 0;
// PTX-NOT: bar.sync
// PTX: ret;
gpu.module @grid_fits_exactly [#nvvm.target<chip = "sm_90">] {
  gpu.func @fits(%k: vector<15xi32>, %v: vector<15xi32>, %out: memref<2xvector<15xi32>>) kernel attributes {known_block_size = array<i32: 76, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s:2 = warp.block_radix_sort %k, %v bits 0 to 8 radix_bits = 8 : vector<15xi32>, vector<15xi32>
    memref.store %s#0, %out[%c0] : memref<2xvector<15xi32>>
    memref.store %s#1, %out[%c1] : memref<2xvector<15xi32>>
    gpu.return
  }
}

// -----

// Unaligned, 63 threads x 31 keys and values at radix_bits = 8 would fit
// (8056 + 8056 + 129 x 63 x 4 = 32508 + 528 = 49148 bytes), aligned they
// do not (8064 + 8064 + 32512 + 528 = 49168): the grid in a union with the
// buffers, the grid the largest of the three (32508 bytes).
// CHECK-LABEL: gpu.module @grid_over_aligned
// CHECK-NOT: __warp_block_radix_counters
// CHECK-NOT: __warp_block_radix_keys
// CHECK-DAG: memref.global "private" @__warp_block_radix_union : memref<32508xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// CHECK: gpu.func @over
// CHECK-COUNT-2: warp.scan <add> %{{.*}} exclusive valid_lanes %{{.*}} : i32, i32
// CHECK-NOT: warp.scan
// CHECK: gpu.return
// One pass: a barrier before the zeroing, the grid's two, the ragged
// block scan's two, the keys' two and the values' two.
// PTX-LABEL: .entry over(
// PTX: .shared .align 16 .b8 __warp_block_radix_union[32508];
// PTX-COUNT-9: bar.sync 0;
// PTX-NOT: bar.sync
// PTX: ret;
gpu.module @grid_over_aligned [#nvvm.target<chip = "sm_90">] {
  gpu.func @over(%k: vector<31xi32>, %v: vector<31xi32>, %out: memref<2xvector<31xi32>>) kernel attributes {known_block_size = array<i32: 63, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s:2 = warp.block_radix_sort %k, %v bits 0 to 8 radix_bits = 8 : vector<31xi32>, vector<31xi32>
    memref.store %s#0, %out[%c0] : memref<2xvector<31xi32>>
    memref.store %s#1, %out[%c1] : memref<2xvector<31xi32>>
    gpu.return
  }
}

// -----

// CUB's TempStorage union: 512 threads x 16 i32 keys are 8192 + 255
// padding images (33788 bytes, 33792 aligned), the grid 9 lanes x 512
// words (18432 bytes): with the scan's 528 bytes, 52752 bytes separately.
// One i8 buffer of the larger, a view of the keys and one of the grid at
// its start. Each of the 8 passes: a barrier (the previous pass's loads
// are done) before the zeroing, the counting, a barrier, the raking and
// block scan, a barrier, the ranks read, a barrier, the keys stored, a
// barrier, the keys loaded.
// CHECK-LABEL: gpu.module @union_keys_512x16
// CHECK-DAG: memref.global "private" @__warp_block_radix_union : memref<33788xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// CHECK: gpu.func @k16
// CHECK: %[[UNION:.*]] = memref.get_global @__warp_block_radix_union
// CHECK: %[[KEYS:.*]] = memref.view %[[UNION]][%{{.*}}][] : memref<33788xi8, #gpu.address_space<workgroup>> to memref<8447xi32, #gpu.address_space<workgroup>>
// CHECK: %[[GRID:.*]] = memref.view %[[UNION]][%{{.*}}][] : memref<33788xi8, #gpu.address_space<workgroup>> to memref<4608xi32, #gpu.address_space<workgroup>>
// CHECK: %[[HALVES:.*]] = memref.view %[[UNION]][%{{.*}}][] : memref<33788xi8, #gpu.address_space<workgroup>> to memref<9216xi16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-9: memref.store %c0_i32{{[_0-9]*}}, %[[GRID]][
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-16: memref.store %{{.*}}, %[[HALVES]][
// CHECK-NEXT: gpu.barrier
// CHECK: warp.scan <add>
// CHECK-COUNT-9: memref.store %{{.*}}, %[[GRID]][
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-16: memref.load %[[HALVES]][
// CHECK-NOT: memref.store
// CHECK: gpu.barrier
// CHECK-NOT: %[[GRID]]
// CHECK-NOT: %[[HALVES]]
// CHECK-COUNT-16: memref.store %{{.*}}, %[[KEYS]][
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-16: memref.load %[[KEYS]][
// CHECK-NOT: memref.store
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-9: memref.store %c0_i32{{[_0-9]*}}, %[[GRID]][
// CHECK: gpu.return
// Seven barriers a pass (the scan's two of them).
// PTX-LABEL: .entry k16(
// PTX: .shared .align 16 .b8 __warp_block_radix_union[33788];
// PTX-NOT: __warp_block_radix_keys
// PTX-COUNT-56: bar.sync 0;
// PTX-NOT: bar.sync
// PTX: ret;
gpu.module @union_keys_512x16 [#nvvm.target<chip = "sm_90">] {
  gpu.func @k16(%k: vector<16xi32>, %out: memref<2xvector<16xi32>>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s = warp.block_radix_sort %k : vector<16xi32>
    memref.store %s, %out[%c0] : memref<2xvector<16xi32>>
    gpu.return
  }
}

// -----

// 512 threads x 8 i32 keys and values: 4096 + 127 items each (16892
// bytes, 16896 aligned), with the grid (18432) and the scan 52752 bytes
// separately. The union is the grid's size. After the keys' loads, a
// barrier, the values stored at the same ranks, a barrier, the values
// loaded; then the next pass's barrier before its zeroing.
// CHECK-LABEL: gpu.module @union_pairs_512x8
// CHECK-DAG: memref.global "private" @__warp_block_radix_union : memref<18432xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// CHECK: gpu.func @p8
// CHECK: %[[UNION:.*]] = memref.get_global @__warp_block_radix_union
// CHECK: %[[KEYS:.*]] = memref.view %[[UNION]][%{{.*}}][] : memref<18432xi8, #gpu.address_space<workgroup>> to memref<4223xi32, #gpu.address_space<workgroup>>
// CHECK: %[[VALUES:.*]] = memref.view %[[UNION]][%{{.*}}][] : memref<18432xi8, #gpu.address_space<workgroup>> to memref<4223xi32, #gpu.address_space<workgroup>>
// CHECK: %[[GRID:.*]] = memref.view %[[UNION]][%{{.*}}][] : memref<18432xi8, #gpu.address_space<workgroup>> to memref<4608xi32, #gpu.address_space<workgroup>>
// CHECK: %[[HALVES:.*]] = memref.view %[[UNION]][%{{.*}}][] : memref<18432xi8, #gpu.address_space<workgroup>> to memref<9216xi16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-9: memref.store %c0_i32{{[_0-9]*}}, %[[GRID]][
// CHECK: warp.scan <add>
// CHECK-COUNT-9: memref.store %{{.*}}, %[[GRID]][
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: memref.load %[[HALVES]][
// CHECK-NOT: memref.store
// CHECK: gpu.barrier
// CHECK-NOT: %[[VALUES]]
// CHECK-COUNT-8: memref.store %{{.*}}, %[[KEYS]][
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: memref.load %[[KEYS]][
// CHECK-NOT: memref.store
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: memref.store %{{.*}}, %[[VALUES]][
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: memref.load %[[VALUES]][
// CHECK-NOT: memref.store
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-9: memref.store %c0_i32{{[_0-9]*}}, %[[GRID]][
// CHECK: gpu.return
// Nine barriers a pass.
// PTX-LABEL: .entry p8(
// PTX: .shared .align 16 .b8 __warp_block_radix_union[18432];
// PTX-NOT: __warp_block_radix_values
// PTX-COUNT-72: bar.sync 0;
// PTX-NOT: bar.sync
// PTX: ret;
gpu.module @union_pairs_512x8 [#nvvm.target<chip = "sm_90">] {
  gpu.func @p8(%k: vector<8xi32>, %v: vector<8xi32>, %out: memref<2xvector<8xi32>>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s:2 = warp.block_radix_sort %k, %v : vector<8xi32>, vector<8xi32>
    memref.store %s#0, %out[%c0] : memref<2xvector<8xi32>>
    memref.store %s#1, %out[%c1] : memref<2xvector<8xi32>>
    gpu.return
  }
}

// -----

// 512 threads x 16 i32 keys and values: 2 x 33792 + 18432 + 528 = 86544
// bytes separately, and with the register counters 2 x 33788 + 4224 =
// 71800, neither fits; the union, the keys' 33788 bytes, does.
// CHECK-LABEL: gpu.module @union_pairs_512x16
// CHECK-DAG: memref.global "private" @__warp_block_radix_union : memref<33788xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// CHECK: gpu.func @p16
// CHECK-COUNT-4: memref.view
// CHECK-NOT: memref.view
// CHECK: gpu.return
// PTX-LABEL: .entry p16(
// PTX: .shared .align 16 .b8 __warp_block_radix_union[33788];
// PTX-COUNT-72: bar.sync 0;
// PTX-NOT: bar.sync
// PTX: ret;
gpu.module @union_pairs_512x16 [#nvvm.target<chip = "sm_90">] {
  gpu.func @p16(%k: vector<16xi32>, %v: vector<16xi32>, %out: memref<2xvector<16xi32>>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s:2 = warp.block_radix_sort %k, %v : vector<16xi32>, vector<16xi32>
    memref.store %s#0, %out[%c0] : memref<2xvector<16xi32>>
    memref.store %s#1, %out[%c1] : memref<2xvector<16xi32>>
    gpu.return
  }
}

// -----

// Where not even the union fits: 97 threads at radix_bits = 8 have a grid
// of 129 x 97 words (50052 bytes). The register counters, 16 scans of
// vector<8xi32>, and separate buffers (776 + 24 items each).
// CHECK-LABEL: gpu.module @grid_over_union
// CHECK-NOT: __warp_block_radix_union
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys : memref<800xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_values : memref<800xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_scratch : memref<132xvector<8xi32>, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// CHECK: gpu.func @regs
// CHECK-NOT: memref.view
// CHECK-COUNT-32: warp.scan <add> %{{.*}} : vector<8xi32>, vector<8xi32>
// CHECK-NOT: warp.scan
// CHECK: gpu.return
// Two barriers a scan of a ragged block, and the scatter's two.
// PTX-LABEL: .entry regs(
// PTX-NOT: __warp_block_radix_counters
// PTX-COUNT-34: bar.sync 0;
// PTX-NOT: bar.sync
// PTX: ret;
gpu.module @grid_over_union [#nvvm.target<chip = "sm_90">] {
  gpu.func @regs(%k: vector<8xi32>, %v: vector<8xi32>, %out: memref<2xvector<8xi32>>) kernel attributes {known_block_size = array<i32: 97, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s:2 = warp.block_radix_sort %k, %v bits 0 to 8 radix_bits = 8 : vector<8xi32>, vector<8xi32>
    memref.store %s#0, %out[%c0] : memref<2xvector<8xi32>>
    memref.store %s#1, %out[%c1] : memref<2xvector<8xi32>>
    gpu.return
  }
}
