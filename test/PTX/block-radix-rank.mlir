// PTX of warp.block_radix_rank (CUB BlockRadixRank) for sm_70, sm_80 and
// sm_90: the block barriers and the counter grid's 16-bit accesses per
// kernel, the grid's size, no local memory (the register counters stay in
// registers); every PTX assembles with ptxas.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(bar\.sync|ld\.shared\.b16|st\.shared\.b16)" %t.sm90.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(bar\.sync|ld\.shared\.b16|st\.shared\.b16)" %t.sm70.ptx | FileCheck %s --check-prefix=SM70 --match-full-lines
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm90.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm70.ptx
// RUN: FileCheck %s --check-prefix=SHARED --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}

// NOLOCAL-NOT: .local
// NOLOCAL-NOT: __local_depot
// A grid per kernel (kernels that call no common function share no
// buffer): grid_4bits_64's 9 lanes x 64 threads of i32 words (2304
// bytes), prefix_8bits_32's 129 x 32 (16512), match_6bits_512's 33 lanes
// x 17 columns (16 warps, padded to an odd count: 561 words) raked by 512
// threads in segments of 3 (ceil(561 / 512) = 2, made odd): 1536 words
// (6144 bytes); the register ranking has none.
// SHARED: .shared .align 16 .b8 __warp_block_radix_counters[2304];
// SHARED: .shared .align 16 .b8 __warp_block_radix_counters_0[16512];
// SHARED: .shared .align 16 .b8 __warp_block_radix_counters_1[6144];
// SHARED-NOT: __warp_block_radix_counters_2

module attributes {gpu.container_module} {
gpu.module @kernels {
  // Each kernel ranks in one layout, in a grid of its own: no ranking
  // starts with a barrier (that one is for a kernel whose rankings lay
  // the grid out in columns of threads and of warps both,
  // test_block_radix_rank.py). The grid: N = 4 keys counted (a 16-bit load and store each), the
  // ranks read back (4 loads); the two barriers around the raking and the
  // scalar block scan's one (two warps), whose warp scan is 5 shfl.up.
  // CHECK: grid_4bits_64: bar.sync=3 ld.shared.b16=8 shfl.sync.up.b32=5 st.shared.b16=4
  // SM70: grid_4bits_64: bar.sync=3 ld.shared.b16=8 shfl.sync.up.b32=5 st.shared.b16=4
  gpu.func @grid_4bits_64(%io: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %k = vector.load %io[%o] : memref<?xi32>, vector<4xi32>
    %r = warp.block_radix_rank %k bits 4 to 8 : vector<4xi32>
    vector.store %r, %io[%o] : memref<?xi32>, vector<4xi32>
    gpu.return
  }

  // The prefix: 2 keys counted (2 loads, 2 stores) and ranked (2 loads),
  // then 8 bins of thread 0's column read (8 loads); one warp: the block
  // scan needs no barrier, the op's two and the one after the prefix.
  // CHECK: prefix_8bits_32: bar.sync=3 ld.shared.b16=12 shfl.sync.idx.b32=1 shfl.sync.up.b32=5 st.shared.b16=2
  // SM70: prefix_8bits_32: bar.sync=3 ld.shared.b16=12 shfl.sync.idx.b32=1 shfl.sync.up.b32=5 st.shared.b16=2
  gpu.func @prefix_8bits_32(%io: memref<?xf32>, %bins: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %o = arith.muli %t, %c2 : index
    %k = vector.load %io[%o] : memref<?xf32>, vector<2xf32>
    %r, %p = warp.block_radix_rank %k descending bits 24 to 32 : vector<2xf32>, vector<8xi32>
    %ob = arith.muli %t, %c8 : index
    vector.store %p, %bins[%ob] : memref<?xi32>, vector<8xi32>
    %ri = memref.cast %bins : memref<?xi32> to memref<?xi32>
    vector.store %r, %ri[%o] : memref<?xi32>, vector<2xi32>
    gpu.return
  }

  // A column per warp (R = 6 in 512 threads: the grid of a column per
  // thread, 33 x 512 words, is over 48 KiB; CUB's BlockRadixRankMatch):
  // the 4 digits warp-striped and the ranks back by shuffles (4 shfl.idx
  // each way); per item its digit's lanes from 6 ballots (one per digit
  // bit, CUB's MatchAny: 24 in all), every lane's 16-bit load of the
  // warp's counter, a bar.warp.sync, the group's lowest lane's store of
  // the counter plus the group's size, a bar.warp.sync, two popc; two
  // bar.warp.sync around the column's zeroing. Then the raking: its two barriers, the scalar block
  // scan of 16 warps (a warp scan of 5 shfl.up and 1 more for the
  // exclusive shift, warp 0's scan of the 16 totals in 4 steps and its
  // shift: 4 + ... = 9 in all; 2 shfl.idx, two barriers); 4 rank loads,
  // the digit prefix's load and barrier.
  // CHECK: match_6bits_512: bar.sync=5 bar.warp.sync=10 ld.shared.b16=9 popc.b32=8 shfl.sync.idx.b32=10 shfl.sync.up.b32=9 st.shared.b16=4 vote.sync.ballot.b32=24
  // SM70: match_6bits_512: bar.sync=5 bar.warp.sync=10 ld.shared.b16=9 popc.b32=8 shfl.sync.idx.b32=10 shfl.sync.up.b32=9 st.shared.b16=4 vote.sync.ballot.b32=24
  gpu.func @match_6bits_512(%io: memref<?xi16>, %out: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %k = vector.load %io[%o] : memref<?xi16>, vector<4xi16>
    %r, %p = warp.block_radix_rank %k signed bits 10 to 16 : vector<4xi16>, vector<1xi32>
    vector.store %r, %out[%o] : memref<?xi32>, vector<4xi32>
    vector.store %p, %out[%t] : memref<?xi32>, vector<1xi32>
    gpu.return
  }

  // The register counters: as above with 3 keys a thread (the digits go
  // warp-striped only by shuffles, which take a power-of-two count): no
  // 16-bit shared access; 32 counter words in 4 block scans of 8 words,
  // each of 16 warps: per word the warp's scan (5 shfl.up) and warp 0's
  // scan of the 16 warps' totals (4: no partner 16 lanes away), and 2
  // shfl.idx; two barriers around warp 0's scan.
  // CHECK: registers_6bits_512: bar.sync=8 shfl.sync.idx.b32=64 shfl.sync.up.b32=288
  // SM70: registers_6bits_512: bar.sync=8 shfl.sync.idx.b32=64 shfl.sync.up.b32=288
  gpu.func @registers_6bits_512(%io: memref<?xi16>, %out: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %c3 = arith.constant 3 : index
    %o = arith.muli %t, %c3 : index
    %k = vector.load %io[%o] : memref<?xi16>, vector<3xi16>
    %r, %p = warp.block_radix_rank %k signed bits 10 to 16 : vector<3xi16>, vector<1xi32>
    vector.store %r, %out[%o] : memref<?xi32>, vector<3xi32>
    vector.store %p, %out[%t] : memref<?xi32>, vector<1xi32>
    gpu.return
  }
}
}
