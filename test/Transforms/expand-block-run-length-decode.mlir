// warp.block_run_length_decode: an exclusive block scan of each thread's
// sum of its run lengths (widened to the offset type) with the total, a barrier,
// each thread's runs stored (values and start offsets, slots t*R + j of
// two workgroup buffers of B_max * R), a barrier, then per decoded item a
// binary search of the offsets (ceil(log2(B_max R + 1)) steps of one load)
// and the run's value and start read.
// RUN: warp-opt %s --split-input-file --warp-expand-block-collectives | FileCheck %s

// 64 threads x 2 runs: 128 runs, 8 search steps per item; i16 lengths
// widened to i32; `default` past the total.
// CHECK-LABEL: gpu.module @decode
// CHECK-DAG: memref.global "private" @__warp_block_run_values : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_run_offsets : memref<128xi32, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @k
// CHECK: arith.extui %{{.*}} : i16 to i32
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.store {{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-COUNT-8: memref.load {{.*}} : memref<128xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT: arith.cmpi ult
// CHECK: memref.load {{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load {{.*}} : memref<128xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT: arith.cmpi ult
// CHECK-NEXT: arith.select
// CHECK-NEXT: arith.subi
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @decode {
  gpu.func @k(%v: vector<2xf32>, %n: vector<2xi16>, %from: i32, %z: f32, %out: memref<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %items, %total, %rel = warp.block_run_length_decode %v, %n from %from default %z : vector<2xf32>, vector<2xi16>, i32 -> vector<3xf32>, vector<3xi32>
    %c0 = arith.constant 0 : index
    vector.store %items, %out[%c0] : memref<4xf32>, vector<3xf32>
    gpu.return
  }
}

// -----

// Block size unknown: B_max = 1024, 3 runs each, 3072 runs: 12 steps; i64
// offsets; no default (no compare with the total).
// CHECK-LABEL: gpu.module @unknown
// CHECK-DAG: memref.global "private" @__warp_block_run_values : memref<3072xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_run_offsets : memref<3072xi64, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @k
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-COUNT-12: memref.load {{.*}} : memref<3072xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT: arith.cmpi ult
// CHECK: memref.load {{.*}} : memref<3072xi8, #gpu.address_space<workgroup>>
// CHECK: memref.load {{.*}} : memref<3072xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT: arith.subi
gpu.module @unknown {
  gpu.func @k(%v: vector<3xi8>, %n: vector<3xi64>, %from: i64, %out: memref<2xi8>) kernel {
    %items, %total = warp.block_run_length_decode %v, %n from %from : vector<3xi8>, vector<3xi64>, i64 -> vector<1xi8>
    %c0 = arith.constant 0 : index
    vector.store %items, %out[%c0] : memref<2xi8>, vector<1xi8>
    gpu.return
  }
}

// -----

// From offsets: no scan (two barriers in all), the starts stored as given
// (i16 widened to i32), the total the last run's start (slot B R - 1 = 127),
// and a position before the first start takes the first run (the search's
// bound raised to at least 1).
// CHECK-LABEL: gpu.module @offsets
// CHECK-LABEL: gpu.func @k
// CHECK-NOT: warp.block_scan
// CHECK: %[[S0:.*]] = arith.extui %{{.*}} : i16 to i32
// CHECK: gpu.barrier
// CHECK: memref.store %[[S0]], %{{.*}} : memref<128xi32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: %[[LAST:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<128xi32, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: memref.load {{.*}} : memref<128xi32, #gpu.address_space<workgroup>>
// CHECK: %[[LOW:.*]] = arith.maxui %{{.*}}, %c1_i32{{.*}} : i32
// CHECK: arith.subi %[[LOW]], %c1_i32{{.*}} : i32
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %[[LAST]], %{{.*}} : memref<1xi32>
// CHECK: gpu.return
gpu.module @offsets {
  gpu.func @k(%v: vector<2xf32>, %o: vector<2xi16>, %from: i32, %out: memref<4xf32>, %t: memref<1xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %items, %last = warp.block_run_length_decode %v, offsets %o from %from : vector<2xf32>, vector<2xi16>, i32 -> vector<3xf32>
    %c0 = arith.constant 0 : index
    vector.store %items, %out[%c0] : memref<4xf32>, vector<3xf32>
    memref.store %last, %t[%c0] : memref<1xi32>
    gpu.return
  }
}
