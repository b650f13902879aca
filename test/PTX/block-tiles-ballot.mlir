// PTX for sm_70 and sm_90 of the rest of cooperative groups'
// tiled_partition<64..512>: warp.block_ballot (a tile's and a known
// block's lane mask, a ballot per warp and the words through shared
// memory), warp.block_shuffle <xor> on 64- and 16-bit payloads, and a
// tiled raking scan over items; every barrier of a tiled op is its tile's
// named barrier (`bar.sync 1 + t / N, N`); every PTX assembles with ptxas.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.sm90.ptx
// RUN: FileCheck %s --input-file=%t.sm70.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_70 %{ %ptxas -arch=sm_70 %t.sm70.ptx -o %t.sm70.cubin %}

// Tiles of 256: one ballot, two barriers of 256 threads, 8 words loaded.
// CHECK-LABEL: .entry ballot_tile_256(
// CHECK-NOT: bar.sync 0;
// CHECK: vote.sync.ballot.b32
// CHECK: bar.sync %r{{[0-9]+}}, 256;
// CHECK: bar.sync %r{{[0-9]+}}, 256;
// CHECK-NOT: bar.sync
// CHECK: ret;

// A known block of 96 threads: three words; the kernel's block ops
// alternate scratch halves, so one block barrier.
// CHECK-LABEL: .entry ballot_block_96(
// CHECK: vote.sync.ballot.b32
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: ret;

// CHECK-LABEL: .entry xor_128(
// CHECK-NOT: bar.sync 0;
// CHECK: xor.b32
// CHECK: bar.sync %r{{[0-9]+}}, 128;
// CHECK: st.shared.b64
// CHECK: bar.sync %r{{[0-9]+}}, 128;
// CHECK: ld.shared.b64
// CHECK: bar.sync %r{{[0-9]+}}, 128;
// CHECK: st.shared.b16
// CHECK: ret;

// CHECK-LABEL: .entry raking_items_64(
// CHECK-NOT: bar.sync 0;
// CHECK: bar.sync %r{{[0-9]+}}, 64;
// CHECK-NOT: bar.sync 0;
// CHECK: ret;

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @ballot_tile_256(%io: memref<?xi32>, %out: memref<?xvector<8xi32>>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : i32
    %x = memref.load %io[%t] : memref<?xi32>
    %p = arith.cmpi sgt, %x, %c0 : i32
    %m = warp.block_ballot %p tile 256 : vector<8xi32>
    memref.store %m, %out[%t] : memref<?xvector<8xi32>>
    gpu.return
  }

  gpu.func @ballot_block_96(%io: memref<?xi32>, %out: memref<?xvector<3xi32>>) kernel
      attributes {known_block_size = array<i32: 32, 3, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : i32
    %x = memref.load %io[%t] : memref<?xi32>
    %p = arith.cmpi sgt, %x, %c0 : i32
    %m = warp.block_ballot %p : vector<3xi32>
    memref.store %m, %out[%t] : memref<?xvector<3xi32>>
    gpu.return
  }

  gpu.func @xor_128(%io: memref<?xi64>, %h: memref<?xf16>, %d: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %io[%t] : memref<?xi64>
    %r, %ok = warp.block_shuffle <xor> %x, %d tile 128 : i64
    memref.store %r, %io[%t] : memref<?xi64>
    %y = memref.load %h[%t] : memref<?xf16>
    %s, %ok2 = warp.block_shuffle <xor> %y, %d tile 128 : f16
    memref.store %s, %h[%t] : memref<?xf16>
    gpu.return
  }

  gpu.func @raking_items_64(%io: memref<?xvector<3xi32>>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %c7 = arith.constant 7 : i32
    %x = memref.load %io[%t] : memref<?xvector<3xi32>>
    %s, %tot = warp.block_scan <add> %x items exclusive init %c7 algorithm = <raking> tile 64 : vector<3xi32>, i32
    %r = warp.block_reduce <maxsi> %x items algorithm = <raking> tile 64 : vector<3xi32>
    %u = vector.broadcast %r : i32 to vector<3xi32>
    %v = arith.addi %s, %u : vector<3xi32>
    memref.store %v, %io[%t] : memref<?xvector<3xi32>>
    gpu.return
  }
}
}
