// warp.block_scan with `reverse`: the warp scans mirrored. Each warp's
// reverse scan over its live lanes, lane 0 parks the warp's total (the
// reverse scan's total is in every lane), warp 0 scans the totals in reverse
// with init after the last warp, and every thread combines its own suffix
// on the LEFT of its warp's suffix (thread order kept); in an exclusive scan
// the last live lane of each warp takes the warp's suffix alone.
// RUN: warp-opt %s --warp-expand-block-collectives --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @exclusive_init
  // CHECK-SAME: (%[[X:.*]]: f32, %[[P:.*]]: f32
  // CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32 : i32
  // CHECK: %[[LIVE:.*]] = arith.minui %{{.*}}, %c32_i32 : i32
  // CHECK: %[[OWN:.*]]:2 = warp.scan <add> %[[X]] exclusive reverse valid_lanes %[[LIVE]] mask %{{.*}} : f32, f32
  // CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %c0_i32 : i32
  // CHECK: scf.if %[[LANE0]] {
  // CHECK: memref.store %[[OWN]]#1
  // CHECK: gpu.barrier
  // CHECK: warp.scan <add> %{{.*}} exclusive reverse init %[[P]] valid_lanes
  // CHECK: gpu.barrier
  // CHECK: %[[SUFFIX:.*]] = memref.load
  // CHECK: %[[SUM:.*]] = arith.addf %[[OWN]]#0, %[[SUFFIX]] : f32
  // CHECK: %[[LAST:.*]] = arith.subi %[[LIVE]], %c1_i32 : i32
  // CHECK: %[[EDGE:.*]] = arith.cmpi eq, %[[LANE]], %[[LAST]] : i32
  // CHECK: arith.select %[[EDGE]], %[[SUFFIX]], %[[SUM]] : f32
  gpu.func @exclusive_init(%x: f32, %p: f32, %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s, %t = warp.block_scan <add> %x exclusive reverse init %p : f32, f32
    memref.store %s, %out[%c0] : memref<?xf32>
    memref.store %t, %out[%c0] : memref<?xf32>
    gpu.return
  }

  // Without init the last warp has no suffix: its own scan is its result.
  // CHECK-LABEL: gpu.func @inclusive
  // CHECK: %[[OWN:.*]]:2 = warp.scan <maxsi> %{{.*}} reverse valid_lanes
  // CHECK: gpu.barrier
  // CHECK: gpu.barrier
  // CHECK: %[[LASTWARP:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
  // CHECK: %[[SUFFIX:.*]] = memref.load
  // CHECK: %[[M:.*]] = arith.maxsi %[[OWN]]#0, %[[SUFFIX]] : i32
  // CHECK: arith.select %[[LASTWARP]], %[[OWN]]#0, %[[M]] : i32
  gpu.func @inclusive(%x: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <maxsi> %x reverse : i32
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }

  // A region's exclusive warp scan is the inclusive one shifted down a
  // lane, clamped at the warp's last live lane.
  // CHECK-LABEL: gpu.func @region_exclusive
  // CHECK: %[[LIVE:.*]] = arith.minui
  // CHECK: %[[INC:.*]]:4 = warp.scan %{{.*}}, %{{.*}} reverse valid_lanes %[[LIVE]]
  // CHECK: %[[LAST:.*]] = arith.subi %[[LIVE]], %c1_i32 : i32
  // CHECK: warp.shuffle <down> %[[INC]]#0, %c1_i32 bound %[[LAST]]
  gpu.func @region_exclusive(%a: i32, %b: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %x, %y = warp.block_scan %a, %b exclusive reverse init %c1, %c0_i32 : i32, i32
        combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a1, %a2 : i32
      %t = arith.muli %b1, %a2 : i32
      %b3 = arith.addi %t, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    memref.store %x, %out[%c0] : memref<?xi32>
    memref.store %y, %out[%c0] : memref<?xi32>
    gpu.return
  }

  // Chosen, not raking: the policy picks warp_scans for a reverse scan in
  // a small ragged block, where it would pick raking for a forward one.
  // CHECK-LABEL: gpu.func @small_ragged
  // CHECK-NOT: __warp_block_rake
  // CHECK: warp.scan <add> %{{.*}} reverse
  gpu.func @small_ragged(%x: i32, %out: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 48, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s = warp.block_scan <add> %x reverse : i32
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }
}
}
