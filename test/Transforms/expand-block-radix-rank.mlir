// warp.block_radix_rank: one counting pass of warp.block_radix_sort (the
// same ranking code) without the exchange. Where the counter grid fits
// (L + 1 lanes of B_max i32 words, L = 2^R / 2), every thread zeroes its
// column and counts its keys there, a barrier, the raking scan (one scalar
// block scan), a barrier, the ranks read from the thread's own column; no
// key buffer. With the exclusive digit prefix, each bin's start is read
// from thread 0's column, then a barrier (the next ranking clears it).
// Where the grid does not fit (R = 8 in 256 threads: 129 x 256 words) and
// the block is known to be whole warps, a grid of a column per warp
// counted by groups of equal digits, each a warp.match_any of the digit's
// bits (CUB's BlockRadixRankMatch and its MatchAny); else the
// counters are in registers and block scans of vectors of counter words.
// RUN: warp-opt %s --split-input-file --warp-expand-block-collectives | FileCheck %s

// 64 threads, R = 4: L = 8 lanes, a grid of 9 x 64 words (2304 bytes).
// CHECK-LABEL: gpu.module @grid
// CHECK: memref.global "private" @__warp_block_radix_counters : memref<2304xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-NOT: __warp_block_radix_keys
// CHECK-LABEL: gpu.func @rank
// CHECK: memref.view {{.*}} to memref<576xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}} to memref<1152xi16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: memref.store {{.*}} : memref<1152xi16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load {{.*}} : memref<1152xi16, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @grid {
  gpu.func @rank(%k: vector<4xi32>, %out: memref<4xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %r = warp.block_radix_rank %k bits 4 to 8 : vector<4xi32>
    %c0 = arith.constant 0 : index
    vector.store %r, %out[%c0] : memref<4xi32>, vector<4xi32>
    gpu.return
  }
}

// -----

// The digit prefix with the grid: 32 threads, R = 8, CUB's 8 bins per
// thread, each one load of thread 0's column, then the barrier that keeps
// the next ranking from clearing it early. Descending: bin b is the
// images' digit 255 - b.
// CHECK-LABEL: gpu.module @prefix
// CHECK: memref.global "private" @__warp_block_radix_counters : memref<16512xi8
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.load {{.*}} : memref<8256xi16, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: arith.subi %c255_i32
// CHECK-COUNT-8: memref.load {{.*}} : memref<8256xi16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.load
// CHECK: gpu.barrier
// CHECK-NEXT: vector.from_elements {{.*}} : vector<8xi32>
gpu.module @prefix {
  gpu.func @rank(%k: vector<2xf32>, %out: memref<8xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %r, %p = warp.block_radix_rank %k descending bits 24 to 32 : vector<2xf32>, vector<8xi32>
    %c0 = arith.constant 0 : index
    vector.store %p, %out[%c0] : memref<8xi32>, vector<8xi32>
    gpu.return
  }
}

// -----

// R = 8 in 256 threads: the grid (129 x 256 words) does not fit; the
// grid of a column per warp does (129 x 9 words, 4644 bytes: 8 warps'
// columns and a padding one, so that a lane's words stride by 9 and the
// counters of a warp's distinct digits fall in distinct banks). The
// digits go warp-striped by shuffles, the warp's lanes zero their column
// (lanes 0..31, 32..63, ... of it, those past the padding lane 128
// zeroing lane 128; the last warp the padding column too; threads 0..118
// the 119 raked words past the grid), then per item a match of the
// digit's 8 bits (its group), every lane reads the counter, a syncwarp,
// the group's lowest lane updates it in a scf.if, a syncwarp; the raking
// of 1280 words (ceil(1161 / 256) = 5 a thread, odd) with no bounds, the
// ranks back to the blocked arrangement; the digit prefix's barrier.
// CHECK-LABEL: gpu.module @match
// CHECK: memref.global "private" @__warp_block_radix_counters : memref<5120xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-LABEL: gpu.func @rank
// CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shuffle> : vector<4xi32>
// CHECK: warp.syncwarp
// CHECK-COUNT-5: memref.store {{.*}} : memref<1280xi32, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK-COUNT-5: memref.store {{.*}} : memref<1280xi32, #gpu.address_space<workgroup>>
// CHECK: %[[PAST:.*]] = arith.addi %{{.*}}, %c1161_i32 : i32
// CHECK: %[[TAIL:.*]] = arith.cmpi ult, %{{.*}}, %c119_i32 : i32
// CHECK: scf.if %[[TAIL]] {
// CHECK: %[[SLOT:.*]] = arith.index_castui %[[PAST]]
// CHECK: memref.store {{.*}}[%[[SLOT]]] : memref<1280xi32, #gpu.address_space<workgroup>>
// CHECK: warp.syncwarp
// CHECK-COUNT-4: warp.match_any %{{.*}} bits 8 : i32
// CHECK-NOT: warp.match_any
// CHECK: gpu.barrier
// CHECK: warp.scan <add> %{{.*}} exclusive : i32
// CHECK: gpu.barrier
// CHECK-NOT: scf.if
// CHECK-COUNT-5: memref.store {{.*}} : memref<1280xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store {{.*}} : memref<1280xi32
// CHECK: gpu.barrier
// CHECK: warp.exchange <striped_to_blocked> %{{.*}} strategy = <shuffle> : vector<4xi32>
// CHECK: gpu.barrier
// CHECK: gpu.return
gpu.module @match {
  gpu.func @rank(%k: vector<4xi16>, %out: memref<1xi32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %r, %p = warp.block_radix_rank %k signed bits 8 to 16 : vector<4xi16>, vector<1xi32>
    %c0 = arith.constant 0 : index
    vector.store %p, %out[%c0] : memref<1xi32>, vector<1xi32>
    gpu.return
  }
}

// -----

// The same in 100 threads (a ragged last warp): neither grid;
// the counters are in registers: 128 words in 16 block scans of 8 words,
// no grid and no barrier of the op's own after the prefix.
// CHECK-LABEL: gpu.module @registers
// CHECK-NOT: __warp_block_radix_counters
// CHECK-LABEL: gpu.func @rank
// CHECK-COUNT-16: vector.from_elements {{.*}} : vector<8xi32>
// CHECK-NOT: memref.load {{.*}}i16
// CHECK-NOT: warp.match_any
// CHECK: gpu.return
gpu.module @registers {
  gpu.func @rank(%k: vector<4xi16>, %out: memref<3xi32>) kernel attributes {known_block_size = array<i32: 100, 1, 1>} {
    %r, %p = warp.block_radix_rank %k signed bits 8 to 16 : vector<4xi16>, vector<3xi32>
    %c0 = arith.constant 0 : index
    vector.store %p, %out[%c0] : memref<3xi32>, vector<3xi32>
    gpu.return
  }
}

// -----

// Warp-striped keys (warp_striped): the match ranking, the compiler's
// choice for them in a block of whole warps, counts them as they are: no
// warp.exchange before the counting or after it.
// CHECK-LABEL: gpu.module @warp_striped_match
// CHECK-LABEL: gpu.func @rank
// CHECK-NOT: warp.exchange
// CHECK-COUNT-4: warp.match_any %{{.*}} bits 4 : i32
// CHECK-NOT: warp.exchange
// CHECK: gpu.return
gpu.module @warp_striped_match {
  gpu.func @rank(%k: vector<4xi32>, %out: memref<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = warp.block_radix_rank %k bits 0 to 4 warp_striped : vector<4xi32>
    %c0 = arith.constant 0 : index
    vector.store %r, %out[%c0] : memref<4xi32>, vector<4xi32>
    gpu.return
  }
}

// -----

// The grid ranking counts blocked digits: warp-striped keys' digits go
// through a block exchange there (expanded here: its buffer), the
// raking's block scan, and the ranks back through another.
// CHECK-LABEL: gpu.module @warp_striped_grid
// CHECK-LABEL: gpu.func @rank
// CHECK: memref.get_global @__warp_block_radix_counters
// CHECK: memref.get_global @__warp_block_exchange
// CHECK: memref.get_global @__warp_block_scratch
// CHECK: memref.get_global @__warp_block_exchange
// CHECK: gpu.return
gpu.module @warp_striped_grid {
  gpu.func @rank(%k: vector<4xi32>, %out: memref<4xi32>) kernel attributes {known_block_size = array<i32: 100, 1, 1>} {
    %r = warp.block_radix_rank %k bits 0 to 4 warp_striped : vector<4xi32>
    %c0 = arith.constant 0 : index
    vector.store %r, %out[%c0] : memref<4xi32>, vector<4xi32>
    gpu.return
  }
}

// -----

// ranking = <match_early> (CUB's BlockRadixRankMatchEarlyCounts) of
// warp-striped keys: a grid of a row of 2^R i32 a warp and a row of the
// digits' starts (256 x 5 words, 5120 bytes); each warp zeroes and counts
// its row (workgroup atomics), a barrier, thread t's two digits (256 over
// 128 threads) each summed over the 4 warps, one scalar block scan (its
// scratch), the starts and the warps' offsets stored, a barrier, then a
// warp.match_any per key against the warp's row (no raking, no exchange).
// CHECK-LABEL: gpu.module @warp_striped_early
// CHECK: memref.global "private" @__warp_block_radix_counters : memref<5120xi8, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @rank
// CHECK-NOT: warp.exchange
// CHECK: warp.syncwarp
// CHECK-COUNT-8: memref.store %{{.*}} : memref<1280xi32, #gpu.address_space<workgroup>>
// CHECK: warp.syncwarp
// CHECK-COUNT-3: memref.atomic_rmw addi %{{.*}} : (i32, memref<1280xi32, #gpu.address_space<workgroup>>) -> i32
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: memref.load %{{.*}} : memref<1280xi32, #gpu.address_space<workgroup>>
// CHECK: memref.get_global @__warp_block_scratch
// CHECK: gpu.barrier
// CHECK: warp.lanemask <lt> : i32
// CHECK-COUNT-3: warp.match_any %{{.*}} bits 8 : i32
// CHECK-NOT: warp.exchange
// CHECK: gpu.return
gpu.module @warp_striped_early {
  gpu.func @rank(%k: vector<3xi32>, %out: memref<3xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = warp.block_radix_rank %k bits 0 to 8 warp_striped ranking = <match_early> : vector<3xi32>
    %c0 = arith.constant 0 : index
    vector.store %r, %out[%c0] : memref<3xi32>, vector<3xi32>
    gpu.return
  }
}

// -----

// The counts region (CUB's counts callback) of that ranking: inlined once,
// after the counting and the sums of thread t's two digits' columns, with
// them as a vector<2xi32>, before the block scan and the ranking.
// CHECK-LABEL: gpu.module @warp_striped_early_counts
// CHECK-LABEL: gpu.func @rank
// CHECK-COUNT-3: memref.atomic_rmw addi %{{.*}} : (i32, memref<1280xi32, #gpu.address_space<workgroup>>) -> i32
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: memref.load %{{.*}} : memref<1280xi32, #gpu.address_space<workgroup>>
// CHECK: %[[COUNTS:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xi32>
// CHECK-NEXT: vector.store %[[COUNTS]], %{{.*}}[%{{.*}}] : memref<256xi32>, vector<2xi32>
// CHECK-NOT: warp.yield
// CHECK: memref.get_global @__warp_block_scratch
// CHECK: warp.match_any
gpu.module @warp_striped_early_counts {
  gpu.func @rank(%k: vector<3xi32>, %out: memref<3xi32>, %counts: memref<256xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %at = arith.muli %t, %c2 : index
    %r = warp.block_radix_rank %k bits 0 to 8 warp_striped ranking = <match_early> : vector<3xi32> counts(%c: vector<2xi32>) {
      vector.store %c, %counts[%at] : memref<256xi32>, vector<2xi32>
      warp.yield
    }
    %c0 = arith.constant 0 : index
    vector.store %r, %out[%c0] : memref<3xi32>, vector<3xi32>
    gpu.return
  }
}

// -----

// Fewer digits than threads (16 over one warp): a thread past the digits
// loads no counter (an scf.if yields its column's zeros), so no lane reads
// the word another lane then stores with no barrier between (one warp's
// block scan has none); the stores of the starts and offsets are guarded
// by the same range check.
// CHECK-LABEL: gpu.module @early_fewer_digits
// CHECK-LABEL: gpu.func @rank
// CHECK-COUNT-2: memref.atomic_rmw addi
// CHECK-NEXT: gpu.barrier
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[SUM:.*]] = scf.if %[[IN]] -> (i32) {
// CHECK: %[[LOADED:.*]] = memref.load %{{.*}} : memref<32xi32, #gpu.address_space<workgroup>>
// CHECK: scf.yield %{{.*}} : i32
// CHECK-NEXT: } else {
// CHECK-NOT: memref.load
// CHECK: scf.yield %{{.*}} : i32
// CHECK-NEXT: }
// CHECK-NOT: memref.load %{{.*}} : memref<32xi32, #gpu.address_space<workgroup>>
// CHECK: scf.if %[[IN]] {
// CHECK-COUNT-2: memref.store
// CHECK: gpu.barrier
gpu.module @early_fewer_digits {
  gpu.func @rank(%k: vector<2xi32>, %out: memref<2xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %r = warp.block_radix_rank %k bits 0 to 4 warp_striped ranking = <match_early> : vector<2xi32>
    %c0 = arith.constant 0 : index
    vector.store %r, %out[%c0] : memref<2xi32>, vector<2xi32>
    gpu.return
  }
}
