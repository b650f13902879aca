// PTX of the block ops with `tile N` and of warp.tile_sync N (cooperative
// groups' tiled_partition<64..512>) for sm_70 and sm_90: every barrier of
// a tiled op is the named barrier of its tile, `bar.sync 1 + t / N, N`
// (the id in a register, the count N), and a tiled kernel has no
// block-wide `bar.sync 0`; every PTX assembles with ptxas.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.sm90.ptx
// RUN: FileCheck %s --input-file=%t.sm70.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_70 %{ %ptxas -arch=sm_70 %t.sm70.ptx -o %t.sm70.cubin %}

// The reduce in tiles of 128 of a known block of 256: the barrier id is
// (t >> 7) + 1, two barriers of 128 threads. The kernel's scratch array
// (its own: kernels that call no common function share no buffer) holds
// the block's half and 66 slots per tile of each tile size of its ops: 2
// tiles of 128; (1 + 2) x 66 x 4 bytes.
// CHECK-LABEL: .entry reduce_128(
// CHECK: .shared .align 16 .b8 __warp_block_scratch[792];
// CHECK: shr.u32 [[T:%r[0-9]+]], %r{{[0-9]+}}, 7;
// CHECK: add.s32 [[ID:%r[0-9]+]], [[T]], 1;
// CHECK: bar.sync [[ID]], 128;
// CHECK: bar.sync [[ID]], 128;
// CHECK-NOT: bar.sync
// CHECK: ret;

// CHECK-LABEL: .entry scan_broadcast_64(
// CHECK-NOT: bar.sync 0;
// CHECK: bar.sync %r{{[0-9]+}}, 64;
// CHECK-NOT: bar.sync 0;
// CHECK: bar.sync %r{{[0-9]+}}, 512;
// CHECK-NOT: bar.sync 0;
// CHECK: bar.sync %r{{[0-9]+}}, 64;
// CHECK-NOT: bar.sync 0;
// CHECK: ret;

// CHECK-LABEL: .entry sync_256(
// CHECK: shr.u32 [[T:%r[0-9]+]], %r{{[0-9]+}}, 8;
// CHECK: add.s32 [[ID:%r[0-9]+]], [[T]], 1;
// CHECK: bar.sync [[ID]], 256;
// CHECK-NEXT: ret;

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @reduce_128(%io: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xf32>
    %r = warp.block_reduce <add> %x tile 128 : f32
    memref.store %r, %io[%t] : memref<?xf32>
    gpu.return
  }

  // A block of unknown size: a scan in tiles of 64, a broadcast in tiles
  // of 512, a shuffle in tiles of 64 (its own buffer).
  gpu.func @scan_broadcast_64(%io: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : i32
    %x = memref.load %io[%t] : memref<?xi32>
    %s = warp.block_scan <add> %x exclusive tile 64 : i32
    %b = warp.block_broadcast %s, %c0 tile 512 : i32
    %u, %ok = warp.block_shuffle <offset> %b, %c0 tile 64 : i32
    memref.store %u, %io[%t] : memref<?xi32>
    gpu.return
  }

  gpu.func @sync_256(%io: memref<?xi32>) kernel {
    warp.tile_sync 256
    gpu.return
  }
}
}
