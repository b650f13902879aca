// warp.device_histogram with levels of another type than the samples (CUB's
// LevelT): even levels in C++'s common type of the two (u8 samples with i32
// levels: the sample zero-extended to a signed i32; f32 samples with f64
// levels: extended to f64, the scale and bin in f64), a range in the
// levels' type (i32 samples to f64 by sitofp; to unsigned i16 levels by
// truncation, compared unsigned); a module per level type. 8-bit samples
// are counted by value, each value's bin computed once at the flush. The whole
// pipeline to PTX that ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// FILES: warp_device_histogram_f32_i32_bins10_even_f64.ptx
// FILES-NEXT: warp_device_histogram_i32_i32_bins10_range_i16_unsigned.ptx
// FILES-NEXT: warp_device_histogram_i32_i64_range_f64.ptx
// FILES-NEXT: warp_device_histogram_i8_i32_bins10_unsigned_even_i32.ptx

// Bytes are counted by value (256 counters in workgroup memory); the
// block's 10 bins, also there, take each counted value's count at its bin
// (fewer bins than values: one global atomic a bin, not a value), then go
// to the output where non-zero.
// CHECK-LABEL: gpu.module @warp_device_histogram_i8_i32_bins10_unsigned_even_i32
// CHECK: gpu.func @histogram(%{{.*}}: memref<?xi8>, %[[OUT:.*]]: memref<?xi32>, %[[LO:.*]]: i32, %[[HI:.*]]: i32,
// CHECK-SAME: workgroup(%[[VALUES:.*]] : memref<256xi32, #gpu.address_space<workgroup>>, %[[BINS:.*]] : memref<10xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[VALUES]]
// CHECK: memref.store %{{.*}}, %[[BINS]]
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[VALUES]]
// CHECK: gpu.barrier
// CHECK: %[[N:.*]] = memref.load %[[VALUES]]
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: %[[S:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: arith.cmpi sge, %[[S]], %[[LO]] : i32
// CHECK: arith.cmpi slt, %[[S]], %[[HI]] : i32
// CHECK: arith.extsi %[[S]] : i32 to i64
// CHECK: arith.divui {{.*}} : i64
// CHECK: memref.atomic_rmw addi %[[N]], %[[BINS]]
// CHECK: gpu.barrier
// CHECK: %[[M:.*]] = memref.load %[[BINS]]
// CHECK: memref.atomic_rmw addi %[[M]], %[[OUT]]

// CHECK-LABEL: gpu.module @warp_device_histogram_i32_i64_range_f64
// CHECK: gpu.func @histogram(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi64>, %{{.*}}: memref<?xf64>,
// CHECK: %[[X:.*]] = arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.cmpf olt, %[[X]], %{{.*}} : f64

// CHECK-LABEL: gpu.module @warp_device_histogram_f32_i32_bins10_even_f64
// CHECK: gpu.func @histogram(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi32>, %{{.*}}: i64, %{{.*}}: i64,
// CHECK: arith.divf {{.*}} : f64
// CHECK: %[[F:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: arith.cmpf oge, %[[F]], %{{.*}} : f64

// CHECK-LABEL: gpu.module @warp_device_histogram_i32_i32_bins10_range_i16_unsigned
// CHECK: %[[T:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.cmpi ult, %[[T]], %{{.*}} : i16
func.func @h(%x: memref<?xi8>, %bins: memref<10xi32>, %lo: i32, %hi: i32,
             %k: memref<?xi32>, %c: memref<?xi64>, %l: memref<?xf64>,
             %f: memref<?xf32>, %dl: f64, %dh: f64, %ul: memref<11xi16>) {
  warp.device_histogram %x, %bins unsigned even(%lo, %hi : i32) : memref<?xi8>, memref<10xi32>
  warp.device_histogram %k, %c range %l : memref<?xi32>, memref<?xi64>, memref<?xf64>
  warp.device_histogram %f, %bins even(%dl, %dh : f64) : memref<?xf32>, memref<10xi32>
  warp.device_histogram %k, %bins unsigned_levels range %ul : memref<?xi32>, memref<10xi32>, memref<11xi16>
  return
}
