// warp.device_segmented_reduce through warp-expand-device-ops, and its
// kernels through the whole pipeline to PTX that ptxas takes.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=PTX < %t/warp_device_segmented_reduce_add_f32_i32_i64_init.ptx
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// FILES: warp_device_segmented_reduce_add_f32_i32_i64.ptx
// FILES-NEXT: warp_device_segmented_reduce_add_f32_i32_i64_init.ptx
// FILES-NEXT: warp_device_segmented_reduce_and_i8_i64_i64.ptx
// FILES-NEXT: warp_device_segmented_reduce_maximumf_bf16_i32_i32.ptx
// FILES-NEXT: warp_device_segmented_reduce_mul_f16_i64_i32_init.ptx
// FILES-NEXT: warp_device_segmented_reduce_xor_i16_i32_i32.ptx

// The input takes the read-only path: four loads in flight, then the
// rest one at a time; then the block's reduction.
// PTX-LABEL: .entry segmented_reduce(
// PTX-COUNT-4: ld.global.nc.b32
// PTX: ld.global.nc.b32
// PTX: bar.sync

// One launch per op, a block per output element (segment) up to the cap;
// init passes as its bits, so the ops alike share their kernels whatever
// their init; an op without init has kernels of its own.
// CHECK-LABEL: func.func @segments
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[SEGMENTS:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK: %[[GRID:.*]] = arith.maxui %{{.*}}, %{{.*}} : index
// CHECK: %[[CAP:.*]] = arith.constant 65536 : index
// CHECK: %[[CAPPED:.*]] = arith.minui %[[GRID]], %[[CAP]] : index
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_segmented_reduce_add_f32_i32_i64_init::@segmented_reduce blocks in (%[[CAPPED]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi64>, %[[BITS]] : i32, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_segmented_reduce_add_f32_i32_i64_init::@segmented_reduce
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_segmented_reduce_add_f32_i32_i64::@segmented_reduce {{.*}} args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi32>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_segmented_reduce_and_i8_i64_i64::@segmented_reduce {{.*}} args(%{{.*}} : memref<?xi8>, %{{.*}} : memref<?xi8>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// CHECK: %[[HBITS:.*]] = arith.bitcast %{{.*}} : f16 to i16
// CHECK: gpu.launch_func async {{.*}} @warp_device_segmented_reduce_mul_f16_i64_i32_init::@segmented_reduce {{.*}} %[[HBITS]] : i16
// CHECK: gpu.launch_func async {{.*}} @warp_device_segmented_reduce_maximumf_bf16_i32_i32::@segmented_reduce
// CHECK: gpu.launch_func async {{.*}} @warp_device_segmented_reduce_xor_i16_i32_i32::@segmented_reduce

// The kernel: segments blockIdx.x, + gridDim.x, ...; offsets read signed;
// thread t folds elements first + t + 256 k in order: 4 loads at once
// over whole steps of 1024, then one at a time; the block reduces the
// folds (thread 0's result), and thread 0 writes init (kind) total, or
// init for an empty segment.
// CHECK: gpu.module @warp_device_segmented_reduce_add_f32_i32_i64_init attributes {warp.device_scratch = array<i64: 8, 0, 1>}
// CHECK: gpu.func @segmented_reduce(%[[X:.*]]: memref<?xf32> {llvm.noalias, llvm.readonly}, %[[OUT:.*]]: memref<?xf32>, %[[BEGIN:.*]]: memref<?xi32>, %[[END:.*]]: memref<?xi64>, %[[INIT:.*]]: i32, %{{.*}}: memref<?xi8>, %{{.*}}: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 1 : i64, warp.device_grid_max = 65536 : i64, warp.device_grid_operand = 1 : i64}
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[INITF:.*]] = arith.bitcast %[[INIT]] : i32 to f32
// CHECK: %[[S:.*]] = memref.dim %[[OUT]]
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: %[[G:.*]] = gpu.grid_dim x
// CHECK: scf.for %[[SEG:.*]] = %[[B]] to %[[S]] step %[[G]] {
// CHECK: %[[B32:.*]] = memref.load %[[BEGIN]][%[[SEG]]] : memref<?xi32>
// CHECK: %[[FIRST:.*]] = arith.index_cast %[[B32]] : i32 to index
// CHECK: %[[E64:.*]] = memref.load %[[END]][%[[SEG]]] : memref<?xi64>
// CHECK: %[[LAST:.*]] = arith.index_cast %[[E64]] : i64 to index
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi slt, %[[FIRST]], %[[LAST]] : index
// CHECK: %[[PAD:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[WHOLE:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1024{{.*}} iter_args(%{{.*}} = %[[PAD]]) -> (f32) {
// CHECK-COUNT-4: memref.load %[[X]]
// CHECK-COUNT-4: arith.addf
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[LAST]] step %c256{{.*}} iter_args(%{{.*}} = %[[WHOLE]]) -> (f32) {
// CHECK: memref.load %[[X]]
// CHECK: arith.addf
// CHECK: %[[TOTAL:.*]] = warp.block_reduce <add> %{{.*}} threads = <first> : f32
// CHECK: scf.if
// CHECK: %[[SUM:.*]] = arith.addf %[[INITF]], %[[TOTAL]] : f32
// CHECK: %[[R:.*]] = arith.select %[[NONEMPTY]], %[[SUM]], %[[INITF]] : f32
// CHECK: memref.store %[[R]], %[[OUT]][%[[SEG]]] : memref<?xf32>
// Without init: the identity in the kernel (0.0 for a float sum, not
// the padding -0.0 of the folds).
// CHECK: gpu.module @warp_device_segmented_reduce_add_f32_i32_i64 attributes
// CHECK: gpu.func @segmented_reduce(%{{.*}}: memref<?xf32> {llvm.noalias, llvm.readonly}, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi64>, %{{.*}}: memref<?xi8>, %{{.*}}: index)
// CHECK: %[[IDENTITY:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.addf %{{.*}}, %[[IDENTITY]] : f32
// CHECK: gpu.module @warp_device_segmented_reduce_and_i8_i64_i64
// CHECK: %[[ONES:.*]] = arith.constant -1 : i8
// CHECK: warp.block_reduce <and> %{{.*}} threads = <first> : i8
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[ONES]] : i8
// CHECK: gpu.module @warp_device_segmented_reduce_mul_f16_i64_i32_init
// CHECK: arith.bitcast %{{.*}} : i16 to f16
// CHECK: gpu.module @warp_device_segmented_reduce_maximumf_bf16_i32_i32
// CHECK-NOT: gpu.module @warp_device_segmented_reduce_add_f32_i32_i64
func.func @segments(%x: memref<?xf32>, %sums: memref<?xf32>, %b: memref<?xi32>, %e: memref<?xi64>,
                    %init: f32, %k: memref<?xi8>, %ands: memref<16xi8>, %o: memref<?xi64>,
                    %h: memref<?xf16>, %hs: memref<?xf16>, %o32: memref<?xi32>, %hi: f16,
                    %g: memref<?xbf16>, %gs: memref<?xbf16>, %w: memref<?xi16>, %ws: memref<?xi16>) {
  warp.device_segmented_reduce <add> %x, %sums, %b, %e init %init
      : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi64>, f32
  %one = arith.constant 1.0 : f32
  warp.device_segmented_reduce <add> %x, %sums, %b, %e init %one
      : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi64>, f32
  warp.device_segmented_reduce <add> %x, %sums, %b, %e
      : memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xi64>
  warp.device_segmented_reduce <and> %k, %ands, %o, %o
      : memref<?xi8>, memref<16xi8>, memref<?xi64>, memref<?xi64>
  warp.device_segmented_reduce <mul> %h, %hs, %o, %o32 init %hi
      : memref<?xf16>, memref<?xf16>, memref<?xi64>, memref<?xi32>, f16
  warp.device_segmented_reduce <maximumf> %g, %gs, %o32, %o32
      : memref<?xbf16>, memref<?xbf16>, memref<?xi32>, memref<?xi32>
  warp.device_segmented_reduce <xor> %w, %ws, %o32, %o32
      : memref<?xi16>, memref<?xi16>, memref<?xi32>, memref<?xi32>
  return
}
