// PTX of warp.merge_sort (CUB WarpMergeSort) for sm_70, sm_80 and sm_90:
// the warp-synchronizing barriers and shared-memory accesses per kernel,
// the buffer's size, no local memory; every PTX assembles with ptxas.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(ld|st)\.shared" %t.sm90.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(ld|st)\.shared" %t.sm80.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(ld|st)\.shared" %t.sm70.ptx | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm90.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm70.ptx
// RUN: FileCheck %s --check-prefix=SHARED --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}

// Per merge round (five for 32 lanes, three for 8): two bar.warp.sync, N
// stores of the keys (and N of the values), the search's two loads per
// step (ceil(log2(N 2^(r-1) + 1)) steps in round r), two loads to start
// the merge and one per item after the first (of keys, and of values).
// With width 1 there is no round: no barrier, no shared memory.

// NOLOCAL-NOT: .local
// NOLOCAL-NOT: __local_depot
// The buffer: the largest slice is pairs_7xf64_8's, 2 warps (known block
// size 64) of 2 + 224 + 1 f64 keys (1816 bytes, 1824 rounded to 16) and
// 8 + 224 + 1 i16 values (466, 480 rounded) = 4608 bytes.
// SHARED: .shared .align 16 .b8 __warp_merge_sort_buffer[4608];

module attributes {gpu.container_module} {
gpu.module @kernels {
  // 5 rounds: 25 search steps of 2 loads, 5 merges of 2 + 3 loads; the
  // lane's 4 keys stored as one v4 per round.
  // CHECK: keys_4xi32: bar.warp.sync=10 ld.shared.b32=75 st.shared.v4.b32=5
  gpu.func @keys_4xi32(%io: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %k = vector.load %io[%o] : memref<?xi32>, vector<4xi32>
    %s = warp.merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    vector.store %s, %io[%o] : memref<?xi32>, vector<4xi32>
    gpu.return
  }

  // The keys' loads and stores, and the values' at the merges' positions.
  // CHECK: pairs_4xi32: bar.warp.sync=10 ld.shared.b32=100 st.shared.v4.b32=10
  gpu.func @pairs_4xi32(%io: memref<?xi32>, %vo: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %k = vector.load %io[%o] : memref<?xi32>, vector<4xi32>
    %v = vector.load %vo[%o] : memref<?xi32>, vector<4xi32>
    %s:2 = warp.merge_sort %k, %v : vector<4xi32>, vector<4xi32> compare(%a: i32, %b: i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      warp.yield %lt : i1
    }
    vector.store %s#0, %io[%o] : memref<?xi32>, vector<4xi32>
    vector.store %s#1, %vo[%o] : memref<?xi32>, vector<4xi32>
    gpu.return
  }

  // 3 rounds (logical warps of 8 lanes): 3 + 4 + 5 search steps.
  // CHECK: pairs_7xf64_8: bar.warp.sync=6 ld.shared.b16=24 ld.shared.b64=48 st.shared.b16=21 st.shared.b64=21
  gpu.func @pairs_7xf64_8(%io: memref<?xf64>, %vo: memref<?xi16>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c7 = arith.constant 7 : index
    %o = arith.muli %t, %c7 : index
    %k = vector.load %io[%o] : memref<?xf64>, vector<7xf64>
    %v = vector.load %vo[%o] : memref<?xi16>, vector<7xi16>
    %inf = arith.constant 0x7FF0000000000000 : f64
    %s:2 = warp.merge_sort %k, %v valid_items %n default %inf width 8
        : vector<7xf64>, vector<7xi16> compare(%a: f64, %b: f64) {
      %gt = arith.cmpf ogt, %a, %b : f64
      warp.yield %gt : i1
    }
    vector.store %s#0, %io[%o] : memref<?xf64>, vector<7xf64>
    vector.store %s#1, %vo[%o] : memref<?xi16>, vector<7xi16>
    gpu.return
  }

  // One item: 1 + 2 + 3 + 4 + 5 search steps.
  // CHECK: keys_1xi8: bar.warp.sync=10 ld.shared.b8=40 st.shared.b8=5
  gpu.func @keys_1xi8(%io: memref<?xi8>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %k = vector.load %io[%t] : memref<?xi8>, vector<1xi8>
    %s = warp.merge_sort %k : vector<1xi8> compare(%a: i8, %b: i8) {
      %lt = arith.cmpi ult, %a, %b : i8
      warp.yield %lt : i1
    }
    vector.store %s, %io[%t] : memref<?xi8>, vector<1xi8>
    gpu.return
  }

  // width 1: the lane's network only.
  // CHECK: lane_5xf32:
  gpu.func @lane_5xf32(%io: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c5 = arith.constant 5 : index
    %o = arith.muli %t, %c5 : index
    %k = vector.load %io[%o] : memref<?xf32>, vector<5xf32>
    %s = warp.merge_sort %k width 1 : vector<5xf32> compare(%a: f32, %b: f32) {
      %lt = arith.cmpf olt, %a, %b : f32
      warp.yield %lt : i1
    }
    vector.store %s, %io[%o] : memref<?xf32>, vector<5xf32>
    gpu.return
  }
}
}
