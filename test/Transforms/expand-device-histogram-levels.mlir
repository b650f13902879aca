// warp.device_histogram with levels through warp-expand-device-ops: each
// sample is given its bin before the counting of a histogram of bin
// numbers; the kernels through the pipeline to PTX.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// FILES: warp_device_histogram_f16_i32_bins8_even.ptx
// FILES-NEXT: warp_device_histogram_f32_i32_bins10_even.ptx
// FILES-NEXT: warp_device_histogram_i32_i64_range.ptx
// FILES-NEXT: warp_device_histogram_i8_i32_bins4_even.ptx

// The even levels go to the kernels as their bits; the range as a memref.
// CHECK: func.func @h
// CHECK: %[[LO:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[HI:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_histogram_f32_i32_bins10_even::@histogram_init
// CHECK-SAME: args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %[[LO]] : i32, %[[HI]] : i32,
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_histogram_i32_i64_range::@histogram
// CHECK-SAME: args(%{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xi32>,

// Floats: the scale K / (upper - lower) once, in f32; per sample an
// ordered check of [lower, upper), the scaled offset truncated and kept
// below K, -1 (not counted) otherwise.
// CHECK: gpu.module @warp_device_histogram_f32_i32_bins10_even
// CHECK: gpu.func @histogram(
// CHECK-DAG: arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[SCALE:.*]] = arith.divf
// CHECK: arith.cmpf oge
// CHECK: arith.cmpf olt
// CHECK: arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.minsi
// CHECK: memref.atomic_rmw addi

// Integers: signed bounds, then (x - lower) * K / (upper - lower) at 64
// bits.
// CHECK: gpu.module @warp_device_histogram_i32_i64_range
// The range: a binary search for the first level above the sample.
// CHECK: gpu.func @histogram(
// CHECK: scf.while
// CHECK: memref.load
// CHECK: arith.cmpi slt
// CHECK: warp.block_histogram %{{.*}} into %{{.*}} accumulate : vector<16xi32>, memref<?xi64>
// CHECK: gpu.module @warp_device_histogram_i8_i32_bins4_even
// CHECK: gpu.func @histogram(
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: arith.extsi %{{.*}} : i8 to i64
// CHECK: arith.muli
// CHECK: arith.divui
// CHECK: arith.trunci %{{.*}} : i64 to i32
func.func @h(%x: memref<?xf32>, %b: memref<10xi32>, %lo: f32, %hi: f32,
             %y: memref<?xi32>, %c: memref<?xi64>, %l: memref<?xi32>,
             %z: memref<?xi8>, %d: memref<4xi32>, %zlo: i8, %zhi: i8,
             %w: memref<?xf16>, %e: memref<8xi32>, %wlo: f16, %whi: f16) {
  warp.device_histogram %x, %b even(%lo, %hi : f32) : memref<?xf32>, memref<10xi32>
  warp.device_histogram %y, %c range %l : memref<?xi32>, memref<?xi64>, memref<?xi32>
  warp.device_histogram %z, %d even(%zlo, %zhi : i8) : memref<?xi8>, memref<4xi32>
  warp.device_histogram %w, %e even(%wlo, %whi : f16) : memref<?xf16>, memref<8xi32>
  return
}
