// warp.merge_sort's expansion: what its buffer cannot do is a diagnostic at
// the op; what it becomes (the lane's network, the rounds' barriers and
// accesses of the buffer it adds to the gpu.module).
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-expand-collectives | FileCheck %s

func.func @host_function(%k: vector<4xi32>) -> vector<4xi32> {
  // expected-error @+1 {{'warp.merge_sort' op needs the op in a gpu.func of a gpu.module, where its workgroup buffer is allocated}}
  %0 = warp.merge_sort %k : vector<4xi32> compare(%a: i32, %b: i32) {
    %lt = arith.cmpi slt, %a, %b : i32
    warp.yield %lt : i1
  }
  return %0 : vector<4xi32>
}

// -----

// Without known_block_size the buffer is sized for 1024 threads: 32 warps
// of (2 + 512 + 1) f64 keys and (4 + 512 + 1) i32 values.
gpu.module @too_big {
  gpu.func @k(%k: vector<16xf64>, %v: vector<16xi32>) -> vector<16xf64> {
    // expected-error @+1 {{'warp.merge_sort' op needs 198656 bytes of shared memory per block (32 warps of 6208, the largest warp merge sort its kernel may run), more than the 49152 of static shared memory: give the gpu.func a smaller known_block_size}}
    %0:2 = warp.merge_sort %k, %v : vector<16xf64>, vector<16xi32> compare(%a: f64, %b: f64) {
      %lt = arith.cmpf olt, %a, %b : f64
      warp.yield %lt : i1
    }
    gpu.return %0#0 : vector<16xf64>
  }
}

// -----

// A lane's own sort needs no buffer, so it may be anywhere: 3 items, three
// compare-exchanges of neighbours (0-1, 1-2, 0-1), each a copy of the
// region and two selects.
// CHECK-LABEL: func @lane_only
// CHECK-NOT: warp.syncwarp
// CHECK-COUNT-3: arith.cmpi ugt
// CHECK-NOT: arith.cmpi ugt
// CHECK-NOT: memref
// CHECK: return
func.func @lane_only(%k: vector<3xi32>) -> vector<3xi32> {
  %0 = warp.merge_sort %k width 1 : vector<3xi32> compare(%a: i32, %b: i32) {
    %gt = arith.cmpi ugt, %a, %b : i32
    warp.yield %gt : i1
  }
  return %0 : vector<3xi32>
}

// -----

// Two lanes (width 2): one round, two warp.syncwarp around the stores.
// CHECK: memref.global "private" @__warp_merge_sort_buffer : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @pairs
// CHECK: warp.syncwarp
// CHECK-COUNT-2: memref.store
// CHECK: warp.syncwarp
// CHECK-NOT: warp.syncwarp
// CHECK: gpu.return
gpu.module @m {
  gpu.func @pairs(%k: vector<2xi8>) -> vector<2xi8> attributes {known_block_size = array<i32: 32, 1, 1>} {
    %0 = warp.merge_sort %k width 2 : vector<2xi8> compare(%a: i8, %b: i8) {
      %lt = arith.cmpi slt, %a, %b : i8
      warp.yield %lt : i1
    }
    gpu.return %0 : vector<2xi8>
  }
}
