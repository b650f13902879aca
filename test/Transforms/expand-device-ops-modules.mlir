// Where warp-expand-device-ops puts kernels: in the module nearest the op
// (a nested module gets its own gpu.module and gpu.container_module), and
// under another name when a gpu.module that states no launches already
// has theirs (ops alike still share the renamed one).
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: warp-opt %s --warp-expand-device-ops --warp-expand-device-ops | FileCheck %s
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=SELECT
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=PARTITION
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=UNIQUE

// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @warp_device_reduce_add_f32 {
// CHECK-NEXT: }
gpu.module @warp_device_reduce_add_f32 {
}

// CHECK: module @inner attributes {gpu.container_module}
// CHECK: func.func @f
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_tiles
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_finish
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_tiles
// CHECK: gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_finish
// CHECK: gpu.module @warp_device_reduce_add_f32 attributes {warp.device_scratch
// CHECK-NOT: gpu.module
// CHECK: }
module @inner {
  func.func @f(%x: memref<?xf32>, %s: memref<1xf32>) {
    warp.device_reduce <add> %x, %s : memref<?xf32>, memref<1xf32>
    warp.device_reduce <add> %x, %s : memref<?xf32>, memref<1xf32>
    return
  }
}

// CHECK: func.func @g
// CHECK: gpu.launch_func async [%{{.*}}] @[[RENAMED:warp_device_reduce_add_f32_[0-9]+]]::@reduce_tiles
// CHECK: gpu.launch_func async [%{{.*}}] @[[RENAMED]]::@reduce_finish
// CHECK: gpu.launch_func async [%{{.*}}] @[[RENAMED]]::@reduce_tiles
// CHECK: gpu.module @[[RENAMED]] attributes {warp.device_scratch
// CHECK-NOT: gpu.module @warp_device_reduce
func.func @g(%x: memref<?xf32>, %s: memref<1xf32>, %t: memref<?xf32>) {
  warp.device_reduce <add> %x, %s : memref<?xf32>, memref<1xf32>
  warp.device_reduce <add> %t, %s : memref<?xf32>, memref<1xf32>
  return
}

// A selection: its module's kernels take (input, flags, output, count,
// scratch, n); the select kernel's tiles are of its data (4096 f32).
// SELECT: func.func @s
// SELECT: gpu.launch_func async [%{{.*}}] @warp_device_select_f32::@scan_init
// SELECT: gpu.launch_func async [%{{.*}}] @warp_device_select_f32::@select {{.*}} args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi8>, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// SELECT: gpu.module @warp_device_select_f32 attributes {warp.device_scratch = array<i64: 0, 24, 4096>}
// SELECT: gpu.func @select({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 5 : i32, warp.device_grid = 4096 : i64}
// A tile's kept counts are scanned in 32 bits, the tiles' in 64 (packed
// with their status flag from bit 62: one load per look-back read).
// SELECT: warp.block_scan <add> %{{.*}} exclusive : i32, i32
// SELECT: arith.extui %{{.*}} : i32 to i64
// SELECT: llvm.store %{{.*}}, %{{.*}} atomic syncscope("device") monotonic {{.*}} : i64
// SELECT: llvm.load %{{.*}} atomic syncscope("device") monotonic {{.*}} -> i64
func.func @s(%x: memref<?xf32>, %f: memref<?xi8>, %y: memref<?xf32>, %k: memref<1xi64>) {
  warp.device_select %x, %f, %y, %k : memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<1xi64>
  return
}

// A partition: a module of its own, the same launches.
// PARTITION: func.func @p
// PARTITION: gpu.launch_func async [%{{.*}}] @warp_device_partition_i64::@scan_init
// PARTITION: gpu.launch_func async [%{{.*}}] @warp_device_partition_i64::@partition
// PARTITION: gpu.module @warp_device_partition_i64 attributes {warp.device_scratch = array<i64: 0, 24, 2048>}
// Its tile stages kept elements from the front and rejected ones from the
// back of a workgroup buffer, then copies each part out with consecutive
// threads in rounds that start on a 128-byte line of the output (by its
// address): a first round, where the threads before the part's first slot
// sit out, then a loop of whole rounds.
// PARTITION: gpu.func @partition({{.*}}) workgroup(%[[STAGE:.*]] : memref<2048xi64, #gpu.address_space<workgroup>>)
// PARTITION: memref.store %{{.*}}, %[[STAGE]]
// PARTITION: gpu.barrier
// PARTITION: %[[OUT:.*]] = memref.extract_aligned_pointer_as_index %arg2 : memref<?xi64>
// PARTITION: %[[BYTE:.*]] = arith.addi %[[OUT]], %{{.*}} : index
// PARTITION: %[[INTO:.*]] = arith.remui %[[BYTE]], %c128
// PARTITION: %[[SHIFT:.*]] = arith.divui %[[INTO]], %c8{{.*}}
// PARTITION: %[[FIRST:.*]] = arith.subi %{{.*}}, %[[SHIFT]]
// PARTITION: arith.cmpi sge, %[[FIRST]], %c0{{.*}}
// PARTITION: scf.if
// PARTITION-NEXT: %[[AT:.*]] = arith.addi %{{.*}}, %[[FIRST]]
// PARTITION-NEXT: %[[V:.*]] = memref.load %[[STAGE]][%[[FIRST]]]
// PARTITION-NEXT: memref.store %[[V]], %arg2[%[[AT]]] : memref<?xi64>
// PARTITION: %[[NEXT:.*]] = arith.addi %[[FIRST]], %c256{{.*}}
// PARTITION: scf.for %[[I:.*]] = %[[NEXT]] to %[[KEPT:.*]] step %c256{{.*}}
// PARTITION-NEXT: %[[AT2:.*]] = arith.addi %{{.*}}, %[[I]]
// PARTITION-NEXT: %[[W:.*]] = memref.load %[[STAGE]][%[[I]]]
// PARTITION-NEXT: memref.store %[[W]], %arg2[%[[AT2]]] : memref<?xi64>
// The rejected part: its own first round (from the kept ones' end) and loop.
// PARTITION: arith.remui %{{.*}}, %c128{{.*}}
// PARTITION: arith.cmpi sge, %{{.*}}, %[[KEPT]]
// PARTITION: scf.if
// PARTITION: scf.for
func.func @p(%x: memref<?xi64>, %f: memref<?xi8>, %y: memref<?xi64>, %k: memref<1xi64>) {
  warp.device_partition %x, %f, %y, %k : memref<?xi64>, memref<?xi8>, memref<?xi64>, memref<1xi64>
  return
}

// Unique: a selection whose keep flags come from the data: each item
// against the one before it (the previous thread's last item by a block
// shuffle, the element before the tile from memory for thread 0), floats
// by `une` (a NaN differs from everything); (input, output, count,
// scratch, n).
// UNIQUE: func.func @u
// UNIQUE: gpu.launch_func async [%{{.*}}] @warp_device_unique_f64::@scan_init
// UNIQUE: gpu.launch_func async [%{{.*}}] @warp_device_unique_f64::@unique {{.*}} args(%{{.*}} : memref<?xf64>, %{{.*}} : memref<?xf64>, %{{.*}} : memref<?xi64>, %{{.*}} : memref<?xi8>, %{{.*}} : index)
// UNIQUE: gpu.module @warp_device_unique_f64 attributes {warp.device_scratch = array<i64: 0, 24, 2048>}
// UNIQUE: gpu.func @unique
// UNIQUE: warp.block_shuffle <offset> %{{.*}}, %{{.*}} : f64
// UNIQUE: memref.load %{{.*}}[%{{.*}}] : memref<?xf64>
// UNIQUE: arith.cmpf une
// UNIQUE: warp.block_scan <add> %{{.*}} exclusive : i32, i32
func.func @u(%x: memref<?xf64>, %y: memref<?xf64>, %k: memref<1xi64>) {
  warp.device_unique %x, %y, %k : memref<?xf64>, memref<?xf64>, memref<1xi64>
  return
}
