// warp-select-lowering writes each lowering decision on the op, for the chip
// of the gpu.module's #nvvm.target. Expected decisions follow the documented
// policy: redux.sync for integers of up to 32 bits (every kind but mul) from
// sm_80 on; else a tree for lanes = first and a butterfly for lanes = all;
// the member lanes in rank order under a mask that may split clusters
// (unless the op forces a strategy); CUB's predicated step for i32 kinds and
// f32 add, the last step of an integer add/mul/and/or/xor lane-tested by
// default; raking for integer block scans of 128..768 and block reductions
// of 224..512 known threads. A pass-wide strategy preference applies
// wherever the chip can do it (the second run: a tree even where redux
// would do).
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-select-lowering))' | FileCheck %s
// RUN: warp-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(warp-select-lowering{scan-steps=lane-test strategy=tree}))' | FileCheck %s --check-prefix=LEVERS

// CHECK-LABEL: gpu.module @sm90
// CHECK: warp.reduce <add> %{{.*}} {warp.lowering = "redux"} : i32
// CHECK: warp.reduce <add> %{{.*}} {warp.lowering = "butterfly"} : f32
// CHECK: warp.reduce <add> %{{.*}} lanes = <first> {warp.lowering = "tree"} : f32
// CHECK: warp.reduce <add> %{{.*}} mask %{{.*}} cluster_size = 8 {warp.lowering = "over_members"} : f32
// CHECK: warp.reduce <add> %{{.*}} mask %{{.*}} cluster_size = 8 strategy = <butterfly> {warp.lowering = "butterfly"} : f32
// CHECK: warp.reduce <mul> %{{.*}} {warp.lowering = "butterfly"} : i32
// CHECK: warp.scan <add> %{{.*}} {warp.lowering = "predicated_steps_lane_test_last"} : i32
// CHECK: warp.scan <minsi> %{{.*}} {warp.lowering = "predicated_steps"} : i32
// CHECK: warp.scan <add> %{{.*}} {warp.lowering = "predicated_steps"} : f32
// CHECK: warp.scan <mul> %{{.*}} {warp.lowering = "lane_test_steps"} : f32
// CHECK: warp.reduce <maxsi> %{{.*}} heads %{{.*}} {warp.lowering = "predicated_steps"} : i32
// LEVERS-LABEL: gpu.module @sm90
// LEVERS: warp.reduce <add> %{{.*}} {warp.lowering = "tree"} : i32
// LEVERS: warp.reduce <add> %{{.*}} {warp.lowering = "tree"} : f32
// LEVERS: warp.scan <add> %{{.*}} {warp.lowering = "lane_test_steps"} : i32
gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
  gpu.func @warp_ops(%i: i32, %f: f32, %m: i32, %h: i1) {
    %0 = warp.reduce <add> %i : i32
    %1 = warp.reduce <add> %f : f32
    %2 = warp.reduce <add> %f lanes = <first> : f32
    %3 = warp.reduce <add> %f mask %m cluster_size = 8 : f32
    %4 = warp.reduce <add> %f mask %m cluster_size = 8 strategy = <butterfly> : f32
    %5 = warp.reduce <mul> %i : i32
    %6 = warp.scan <add> %i : i32
    %7 = warp.scan <minsi> %i : i32
    %8 = warp.scan <add> %f : f32
    %9 = warp.scan <mul> %f : f32
    %10 = warp.reduce <maxsi> %i heads %h : i32
    gpu.return
  }
}

// -----

// A decision already on the op stands (the expansion checks it).
// CHECK-LABEL: gpu.module @pinned
// CHECK: warp.reduce <add> %{{.*}} {warp.lowering = "tree"} : i32
// CHECK: warp.scan <add> %{{.*}} {warp.lowering = "lane_test_steps"} : i32
gpu.module @pinned [#nvvm.target<chip = "sm_90">] {
  gpu.func @ops(%i: i32) {
    %0 = warp.reduce <add> %i {warp.lowering = "tree"} : i32
    %1 = warp.scan <add> %i {warp.lowering = "lane_test_steps"} : i32
    gpu.return
  }
}

// -----

// Before sm_80 there is no redux.sync.
// CHECK-LABEL: gpu.module @sm70
// CHECK: warp.reduce <add> %{{.*}} {warp.lowering = "butterfly"} : i32
gpu.module @sm70 [#nvvm.target<chip = "sm_70">] {
  gpu.func @reduce(%i: i32) {
    %0 = warp.reduce <add> %i : i32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @blocks
// CHECK: gpu.func @b256
// CHECK: warp.block_scan <add> %{{.*}} algorithm = <raking> : i32
// CHECK: warp.block_scan <add> %{{.*}} algorithm = <warp_scans> : f32
// CHECK: warp.block_reduce <add> %{{.*}} algorithm = <raking> : i32
// CHECK: gpu.func @b1024
// CHECK: warp.block_scan <add> %{{.*}} algorithm = <warp_scans> : i32
// CHECK: warp.block_reduce <add> %{{.*}} algorithm = <warp_reductions> : i32
gpu.module @blocks [#nvvm.target<chip = "sm_90">] {
  gpu.func @b256(%i: i32, %f: f32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %0 = warp.block_scan <add> %i : i32
    %1 = warp.block_scan <add> %f : f32
    %2 = warp.block_reduce <add> %i : i32
    gpu.return
  }
  gpu.func @b1024(%i: i32) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %0 = warp.block_scan <add> %i : i32
    %1 = warp.block_reduce <add> %i : i32
    gpu.return
  }
}

// -----

// Block loads and stores: vectors where the items make whole 16-byte (or
// smaller power-of-two) accesses and no valid cuts the tile, else the warps'
// exchanges in a known block of whole warps, the block's elsewhere, direct
// for subword items, striped items and one item per thread; a reverse
// block scan takes the warp scans even where raking would be the choice.
// CHECK-LABEL: gpu.module @block_memory
// CHECK: gpu.func @whole_warps
// CHECK: warp.block_load %{{.*}} algorithm = <vectorize> : memref<?xf32>, vector<4xf32>
// CHECK: warp.block_load %{{.*}} valid %{{.*}} algorithm = <warp_transpose> : memref<?xf32>, vector<4xf32>
// CHECK: warp.block_load %{{.*}} algorithm = <warp_transpose> : memref<?xf32>, vector<3xf32>
// CHECK: warp.block_load %{{.*}} algorithm = <direct> : memref<?xi16>, vector<3xi16>
// CHECK: warp.block_load %{{.*}} striped : memref<?xf32>, vector<3xf32>
// CHECK: warp.block_store %{{.*}} algorithm = <direct> : vector<1xf32>, memref<?xf32>
// CHECK: warp.block_scan <add> %{{.*}} reverse algorithm = <warp_scans> : i32
// A warp's tile the same, its transpose (warp.exchange) only where no warp
// misses lanes.
// CHECK: warp.load %{{.*}} algorithm = <transpose> : memref<?xf32>, vector<3xf32>
// CHECK: warp.store %{{.*}} algorithm = <vectorize> : vector<8xi16>, memref<?xi16>
// CHECK: gpu.func @ragged
// CHECK: warp.block_load %{{.*}} algorithm = <transpose> : memref<?xf32>, vector<3xf32>
// CHECK: warp.block_store %{{.*}} algorithm = <vectorize> : vector<8xi16>, memref<?xi16>
// CHECK: warp.load %{{.*}} algorithm = <direct> : memref<?xf32>, vector<3xf32>
gpu.module @block_memory [#nvvm.target<chip = "sm_90">] {
  gpu.func @whole_warps(%m: memref<?xf32>, %h: memref<?xi16>, %o: index, %n: i32, %i: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %0 = warp.block_load %m[%o] : memref<?xf32>, vector<4xf32>
    %1 = warp.block_load %m[%o] valid %n : memref<?xf32>, vector<4xf32>
    %2 = warp.block_load %m[%o] : memref<?xf32>, vector<3xf32>
    %3 = warp.block_load %h[%o] : memref<?xi16>, vector<3xi16>
    %4 = warp.block_load %m[%o] striped : memref<?xf32>, vector<3xf32>
    %5 = vector.extract_strided_slice %0 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
    warp.block_store %5, %m[%o] : vector<1xf32>, memref<?xf32>
    %6 = warp.block_scan <add> %i reverse : i32
    %7 = warp.load %m[%o] : memref<?xf32>, vector<3xf32>
    %8 = warp.block_load %h[%o] : memref<?xi16>, vector<8xi16>
    warp.store %8, %h[%o] : vector<8xi16>, memref<?xi16>
    gpu.return
  }
  gpu.func @ragged(%m: memref<?xf32>, %h: memref<?xi16>, %o: index, %v: vector<8xi16>) kernel
      attributes {known_block_size = array<i32: 100, 1, 1>} {
    %0 = warp.block_load %m[%o] : memref<?xf32>, vector<3xf32>
    warp.block_store %v, %h[%o] : vector<8xi16>, memref<?xi16>
    %1 = warp.load %m[%o] : memref<?xf32>, vector<3xf32>
    gpu.return
  }
}

// -----

// expected-error @+1 {{warp-select-lowering needs an #nvvm.target on the gpu.module}}
gpu.module @no_target {
  gpu.func @reduce(%i: i32) {
    %0 = warp.reduce <add> %i : i32
    gpu.return
  }
}

// -----

// expected-error @+1 {{warp lowers a gpu.module for one chip, but this one targets both sm_80 and sm_90}}
gpu.module @two_chips [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
  gpu.func @reduce(%i: i32) {
    %0 = warp.reduce <add> %i : i32
    gpu.return
  }
}

// -----

gpu.module @forced_redux [#nvvm.target<chip = "sm_70">] {
  gpu.func @reduce(%i: i32) {
    // expected-error @+1 {{strategy 'redux' is not available for 'i32' with kind 'add' on sm_70}}
    %0 = warp.reduce <add> %i strategy = <redux> : i32
    gpu.return
  }
}

// -----

// Exchanges: shuffles up to 8 items per lane (a power of two), shared
// memory above and for other counts; an item count shuffles cannot do and
// a buffer over the chip's static shared memory is an error.
// CHECK-LABEL: gpu.module @exchanges
// CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shuffle> : vector<8xf32>
// CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shared> : vector<16xf32>
// CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shared> : vector<3xf32>
// CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shuffle> : vector<16xf32>
gpu.module @exchanges [#nvvm.target<chip = "sm_90">] {
  gpu.func @exchange(%a: vector<8xf32>, %b: vector<16xf32>, %c: vector<3xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = warp.exchange <blocked_to_striped> %a : vector<8xf32>
    %1 = warp.exchange <blocked_to_striped> %b : vector<16xf32>
    %2 = warp.exchange <blocked_to_striped> %c : vector<3xf32>
    %3 = warp.exchange <blocked_to_striped> %b strategy = <shuffle> : vector<16xf32>
    gpu.return
  }
}

// -----

gpu.module @exchange_too_big [#nvvm.target<chip = "sm_90">] {
  gpu.func @exchange(%c: vector<31xf64>) kernel {
    // expected-error @+1 {{strategy 'shared' needs 269824 bytes of shared memory per block (32 warps of 8432), more than the 49152 of static shared memory}}
    %0 = warp.exchange <blocked_to_striped> %c : vector<31xf64>
    gpu.return
  }
}

// -----

// Matches: the lanes of equal low bits by ballots up to 8 bits (a mask of
// the value's low bits counts as `bits`, the fewer of the two), one match.any above and for
// whole values; a strategy on the op stands.
// CHECK-LABEL: gpu.module @matches
// CHECK: warp.match_any %[[X:.*]] bits 8 strategy = <ballots> : i32
// CHECK: warp.match_any %[[X]] bits 3 strategy = <ballots> : i32
// CHECK: warp.match_any %[[X]] bits 8 strategy = <ballots> : i32
// CHECK: warp.match_any %[[X]] bits 9 strategy = <match> : i32
// CHECK: warp.match_any %[[X]] strategy = <match> : i32
// CHECK: warp.match_any %[[X]] bits 4 strategy = <match> : i32
gpu.module @matches [#nvvm.target<chip = "sm_90">] {
  gpu.func @match(%x: i32) {
    %c255 = arith.constant 255 : i32
    %digit = arith.andi %x, %c255 : i32
    %0 = warp.match_any %x bits 8 : i32
    %1 = warp.match_any %digit bits 3 : i32
    %2 = warp.match_any %digit bits 9 : i32
    %5 = warp.match_any %x bits 9 : i32
    %3 = warp.match_any %x : i32
    %4 = warp.match_any %x bits 4 strategy = <match> : i32
    gpu.return
  }
}
