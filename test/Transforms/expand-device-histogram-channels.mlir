// warp.device_histogram with channels (CUB's MultiHistogramEven /
// MultiHistogramRange), and levels over unsigned samples, through
// warp-expand-device-ops: the 2-D bins (and
// levels) go to the kernels collapsed; only whole pixels count (n rounded
// down to a multiple of C); sample p is channel p mod C, counted at row
// `channel` of the flat bins where the channel is active; the kernels
// through the pipeline to PTX that ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// FILES: warp_device_histogram_f32_i64_bins20_channels2x2_even.ptx
// FILES-NEXT: warp_device_histogram_i32_i32_channels3x2_range.ptx
// FILES-NEXT: warp_device_histogram_i8_i32_bins10_unsigned_even.ptx
// FILES-NEXT: warp_device_histogram_i8_i32_bins768_channels4x3.ptx

// CHECK: func.func @h
// CHECK: %[[RGB:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<3x256xi32> into memref<768xi32>
// CHECK: %[[FLAT:.*]] = memref.cast %[[RGB]] : memref<768xi32> to memref<?xi32>
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_histogram_i8_i32_bins768_channels4x3::@histogram_init
// CHECK-SAME: args(%{{.*}} : memref<?xi8>, %[[FLAT]] : memref<?xi32>,
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<2x?xi32> into memref<?xi32>
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<2x?xi32> into memref<?xi32>
// CHECK: @warp_device_histogram_i32_i32_channels3x2_range::@histogram

// Bin numbers of RGBA's RGB, bytes: the active channels' 256 sample
// values counted in workgroup memory (3 x 256); n rounded down to whole
// pixels; per sample its channel's counter of its value where the channel
// is active (the thread's first channel once, the next ones a step on,
// wrapped). The flush gives each counted value of a channel its bin, and
// its flat bin where the bin counts.
// CHECK: gpu.module @warp_device_histogram_i8_i32_bins768_channels4x3
// CHECK: gpu.func @histogram(
// CHECK-SAME: workgroup(%[[LOCAL:.*]] : memref<768xi32, #gpu.address_space<workgroup>>)
// CHECK: %[[REM:.*]] = arith.remui %arg3, %c4 : index
// CHECK: arith.subi %arg3, %[[REM]] : index
// CHECK: vector.load
// CHECK: %[[CH:.*]] = arith.remui %{{.*}}, %c4{{.*}} : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[CH]], %c1{{.*}} : index
// CHECK: %[[WRAP:.*]] = arith.cmpi uge, %[[NEXT]], %c4{{.*}} : index
// CHECK: %[[BACK:.*]] = arith.subi %[[NEXT]], %c4{{.*}} : index
// CHECK: arith.select %[[WRAP]], %[[BACK]], %[[NEXT]] : index
// CHECK: %[[CH32:.*]] = arith.index_cast %[[CH]] : index to i32
// CHECK: %[[BASE:.*]] = arith.muli %[[CH32]], %c256_i32{{.*}} : i32
// CHECK: %[[SLOT:.*]] = arith.addi %[[BASE]], %{{.*}} : i32
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %[[CH]], %c3{{.*}} : index
// CHECK: %[[AT:.*]] = arith.index_castui %[[SLOT]] : i32 to index
// CHECK: scf.if %[[ACTIVE]]
// CHECK: memref.atomic_rmw addi %c1_i32, %[[LOCAL]][%[[AT]]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[S:.*]] = %thread_id_x to %c768
// CHECK: %[[N:.*]] = memref.load %[[LOCAL]][%[[S]]]
// CHECK: %[[V32:.*]] = arith.index_castui %[[S]] : index to i32
// CHECK: %[[V:.*]] = arith.trunci %[[V32]] : i32 to i8
// CHECK: %[[C:.*]] = arith.divui %[[S]], %c256{{.*}} : index
// CHECK: arith.extui %[[V]] : i8 to i64
// CHECK: arith.muli %[[C]], %{{.*}} : index
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi ult, %[[C]], %c3{{.*}} : index
// CHECK: memref.atomic_rmw addi %[[N]], %arg1
// Even levels: each channel's scale once; per sample, the channel's
// lower, upper and scale picked.
// CHECK: gpu.module @warp_device_histogram_f32_i64_bins20_channels2x2_even
// CHECK: gpu.func @histogram(
// CHECK: arith.divf
// CHECK: arith.divf
// CHECK: %[[C:.*]] = arith.minui %{{.*}}, %c1 : index
// CHECK: arith.cmpi eq, %[[C]], %c0{{.*}} : index
// CHECK: arith.select
// Range: levels per channel (the flat levels over the 2 rows), the
// search from the channel's row.
// CHECK: gpu.module @warp_device_histogram_i32_i32_channels3x2_range
// CHECK: gpu.func @histogram(
// CHECK: memref.dim %arg2
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c2{{.*}} : index
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %[[ROW]] : index
// CHECK: scf.while
// CHECK: %[[AT:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK: memref.load %{{.*}}[%[[AT]]]
// unsigned: the samples and levels zero-extended, compared unsigned.
// CHECK: gpu.module @warp_device_histogram_i8_i32_bins10_unsigned_even
// CHECK: gpu.func @histogram(
// CHECK: arith.cmpi uge
// CHECK: arith.cmpi ult
// CHECK: arith.extui %{{.*}} : i8 to i64
// CHECK: arith.divui
func.func @h(%x: memref<?xi8>, %rgb: memref<3x256xi32>,
             %f: memref<?xf32>, %c: memref<2x10xi64>, %l0: f32, %u0: f32, %l1: f32, %u1: f32,
             %k: memref<?xi32>, %d: memref<2x?xi32>, %r: memref<2x?xi32>,
             %ten: memref<10xi32>, %ul: i8, %uh: i8) {
  warp.device_histogram %x, %rgb channels 4 : memref<?xi8>, memref<3x256xi32>
  warp.device_histogram %f, %c channels 2 even(%l0, %u0, %l1, %u1 : f32)
      : memref<?xf32>, memref<2x10xi64>
  warp.device_histogram %k, %d channels 3 range %r : memref<?xi32>, memref<2x?xi32>, memref<2x?xi32>
  warp.device_histogram %x, %ten unsigned even(%ul, %uh : i8) : memref<?xi8>, memref<10xi32>
  return
}
