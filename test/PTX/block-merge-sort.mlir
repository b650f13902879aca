// PTX of warp.block_merge_sort (CUB BlockMergeSort) for sm_75 and sm_90:
// the block barriers and shared-memory accesses per kernel, the buffer's
// size, no local memory; every PTX assembles with ptxas.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^((ld|st)\.shared|bar\.sync)" %t.sm90.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_75 format=isa ptx-output=%t.sm75.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^((ld|st)\.shared|bar\.sync)" %t.sm75.ptx | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm90.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm75.ptx
// RUN: FileCheck %s --check-prefix=SHARED --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas-accepts -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_75 %{ %ptxas-accepts -arch=sm_75 %t.sm75.ptx -o %t.sm75.cubin %}

// Per merge round (ceil(log2(B)) of them for B threads): two barriers
// (bar.warp.sync for the five rounds within warps, in a block of whole
// warps without clamped runs, but a barrier before the first round's
// stores and after the sixth round's), N stores of the keys (and N of the
// values), the search's two loads per step (ceil(log2(N 2^(r-1) + 1))
// steps in round r), two loads to start the merge and one per item after
// the first (of keys, and of values).
// One thread has no round: no barrier, no shared memory.

// NOLOCAL-NOT: .local
// NOLOCAL-NOT: __local_depot
// A buffer per kernel (kernels that call no common function share none),
// its keys' part (16 bytes of padding items, one per item, one more)
// rounded to 16 bytes, then the values': keys_4xi32's (4 + 512 + 1) i32
// keys, 2068 bytes (2080); pairs_4xi32's (4 + 1024 + 1) i32 keys (4128)
// and as many i32 values (8256); pairs_2xf64_valid's (2 + 192 + 1) f64
// keys (1568) and (8 + 192 + 1) i16 values (416), 1984 bytes;
// keys_1xi8's 16 + 64 + 1 (96).
// SHARED: .shared .align 16 .b8 __warp_block_merge_sort_buffer[2080];
// SHARED: .shared .align 16 .b8 __warp_block_merge_sort_buffer_0[8256];
// SHARED: .shared .align 16 .b8 __warp_block_merge_sort_buffer_1[1984];
// SHARED: .shared .align 16 .b8 __warp_block_merge_sort_buffer_2[96];

module attributes {gpu.container_module} {
gpu.module @kernels {
  // 7 rounds: 3 + 4 + ... + 9 = 42 search steps of 2 loads, 7 merges of
  // 2 + 3 loads; the thread's 4 keys stored as one v4 per round. Rounds
  // 1-5 within warps: 1 + 1 + 2 barriers, 1 + 2 x 4 + 1 warp syncs.
  // CHECK: keys_4xi32: bar.sync=4 bar.warp.sync=10 ld.shared.b32=119 st.shared.v4.b32=7
  gpu.func @keys_4xi32(%io: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %k = vector.load %io[%o] : memref<?xi32>, vector<4xi32>
    %s = warp.block_merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    vector.store %s, %io[%o] : memref<?xi32>, vector<4xi32>
    gpu.return
  }

  // 8 rounds (3 + ... + 10 = 52 steps): the keys' 104 + 40 loads, the
  // values' 40 at the merges' positions.
  // CHECK: pairs_4xi32: bar.sync=6 bar.warp.sync=10 ld.shared.b32=184 st.shared.v4.b32=16
  gpu.func @pairs_4xi32(%io: memref<?xi32>, %vo: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %k = vector.load %io[%o] : memref<?xi32>, vector<4xi32>
    %v = vector.load %vo[%o] : memref<?xi32>, vector<4xi32>
    %s:2 = warp.block_merge_sort %k, %v : vector<4xi32>, vector<4xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    vector.store %s#0, %io[%o] : memref<?xi32>, vector<4xi32>
    vector.store %s#1, %vo[%o] : memref<?xi32>, vector<4xi32>
    gpu.return
  }

  // 96 threads, not a power of two, and valid_items: 7 rounds as for 128
  // (2 + 3 + ... + 8 = 35 steps), the runs clamped to the valid items
  // (clamped runs: barriers in every round).
  // CHECK: pairs_2xf64_valid: bar.sync=14 ld.shared.b16=21 ld.shared.b64=91 st.shared.v2.b16=7 st.shared.v2.b64=7
  gpu.func @pairs_2xf64_valid(%io: memref<?xf64>, %vo: memref<?xi16>, %n: i32) kernel
      attributes {known_block_size = array<i32: 32, 3, 1>} {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %c32 = arith.constant 32 : index
    %row = arith.muli %ty, %c32 : index
    %t = arith.addi %row, %tx : index
    %c2 = arith.constant 2 : index
    %o = arith.muli %t, %c2 : index
    %k = vector.load %io[%o] : memref<?xf64>, vector<2xf64>
    %v = vector.load %vo[%o] : memref<?xi16>, vector<2xi16>
    %inf = arith.constant 0x7FF0000000000000 : f64
    %s:2 = warp.block_merge_sort %k, %v valid_items %n default %inf
        : vector<2xf64>, vector<2xi16> compare(%a: f64, %b: f64) {
      %gt = arith.cmpf ogt, %a, %b : f64
      warp.yield %gt : i1
    }
    vector.store %s#0, %io[%o] : memref<?xf64>, vector<2xf64>
    vector.store %s#1, %vo[%o] : memref<?xi16>, vector<2xi16>
    gpu.return
  }

  // One item over 64 threads: 1 + 2 + ... + 6 search steps; the sixth
  // round alone crosses warps.
  // CHECK: keys_1xi8: bar.sync=2 bar.warp.sync=10 ld.shared.b8=54 st.shared.b8=6
  gpu.func @keys_1xi8(%io: memref<?xi8>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %k = vector.load %io[%t] : memref<?xi8>, vector<1xi8>
    %s = warp.block_merge_sort %k : vector<1xi8> compare(%a: i8, %b: i8) {
      %lt = arith.cmpi ult, %a, %b : i8
      warp.yield %lt : i1
    }
    vector.store %s, %io[%t] : memref<?xi8>, vector<1xi8>
    gpu.return
  }

  // One thread: its network only.
  // CHECK: thread_5xf32:
  gpu.func @thread_5xf32(%io: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : index
    %k = vector.load %io[%c0] : memref<?xf32>, vector<5xf32>
    %s = warp.block_merge_sort %k : vector<5xf32> compare(%a: f32, %b: f32) {
      %lt = arith.cmpf olt, %a, %b : f32
      warp.yield %lt : i1
    }
    vector.store %s, %io[%c0] : memref<?xf32>, vector<5xf32>
    gpu.return
  }
}
}
