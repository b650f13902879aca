// Block ops on vector payloads lower to PTX (they crashed warp-opt in
// warp-check-shared-memory, which could not size a workgroup buffer of
// vectors): the vector travels through shared memory whole (one vector
// access per slot) and is combined and shuffled element by element (packed
// f16x2 where the hardware has it). Buffer sizes by hand: the scratch array
// is 2 halves x 66 slots (the kernels call nothing, so their block ops
// alternate halves), the raking buffer B + (B - 1) / S + 1 slots (S = B / 32
// items per segment, padded after each even-length segment); a vector<3xi32>
// slot takes the 16 bytes LLVM allocates for it.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// block_reduce <add> over vector<2xf32>, block size known at run time: each
// whole warp reduces with the shfl.down tree (5 steps, one shuffle and one
// add.rn.f32 per element each), lane 0 parks the pair in its warp's slot
// (8 bytes each), a barrier, warp 0 reduces the partials (-0.0 padding past
// the last warp) and parks the total in slot 32 (byte 256), a barrier,
// everyone reads it.
// CHECK-LABEL: .entry reduce_v2f32(
// CHECK: .shared .align 16 .b8 __warp_block_scratch[1056];
// CHECK: ld.global.v2.b32 {{.*}}{[[X0:%r[0-9]+]], [[X1:%r[0-9]+]]}
// CHECK: shfl.sync.down.b32 [[S0:%r[0-9]+]], [[X0]], 16, 31, -1;
// CHECK: shfl.sync.down.b32 [[S1:%r[0-9]+]], [[X1]], 16, 31, -1;
// CHECK-DAG: add.rn.f32 {{%r[0-9]+}}, [[X1]], [[S1]];
// CHECK-DAG: add.rn.f32 {{%r[0-9]+}}, [[X0]], [[S0]];
// CHECK-COUNT-8: shfl.sync.down.b32 {{.*}}, 31, -1;
// CHECK: st.shared.v2.b32 [{{%rd[0-9]+}}], {
// CHECK: bar.sync 0;
// CHECK: mov.b32 {{%r[0-9]+}}, 0f80000000;
// CHECK: ld.shared.v2.b32
// CHECK-COUNT-10: shfl.sync.down.b32 {{.*}}, 31, -1;
// CHECK: st.shared.v2.b32 [__warp_block_scratch+256], {
// CHECK: bar.sync 0;
// CHECK: ld.shared.v2.b32 {[[T0:%r[0-9]+]], [[T1:%r[0-9]+]]}, [__warp_block_scratch+256];
// CHECK: st.global.v2.b32 [{{%rd[0-9]+}}], {[[T0]], [[T1]]};
// CHECK: ret;

// block_scan <add> exclusive with the block total over vector<4xi32>,
// warp_scans: the warp's Kogge-Stone scan (shfl.up by 1, 2, 4, 8, 16 on each
// of the 4 elements), lane 0 parks the warp total (16 bytes a slot, one
// v4 store), warp 0 scans the totals into the prefixes (slots 34.. : byte
// 544 on) and parks the block total in slot 32 (byte 512), and each thread
// adds its prefix to its own scan, element by element.
// CHECK-LABEL: .entry scan_v4i32(
// CHECK: .shared .align 16 .b8 __warp_block_scratch_0[2112];
// CHECK-COUNT-4: shfl.sync.up.b32 {{.*}}, 1, 0,
// CHECK-COUNT-4: add.s32
// CHECK-COUNT-4: shfl.sync.up.b32 {{.*}}, 2, 0,
// CHECK-COUNT-4: shfl.sync.up.b32 {{.*}}, 4, 0,
// CHECK-COUNT-4: shfl.sync.up.b32 {{.*}}, 8, 0,
// CHECK-COUNT-4: shfl.sync.up.b32 {{.*}}, 16, 0,
// CHECK: st.shared.v4.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.b32
// CHECK-DAG: st.shared.v4.b32 [{{%rd[0-9]+}}+544], {
// CHECK-DAG: st.shared.v4.b32 [__warp_block_scratch_0+512], {
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.b32 {{.*}}+544];
// CHECK-COUNT-4: add.s32
// CHECK: ld.shared.v4.b32 {{.*}}, [__warp_block_scratch_0+512];
// CHECK: st.global.v4.b32
// CHECK: st.global.v4.b32 [{{%rd[0-9]+}}+65536]
// CHECK: ret;

// block_scan <maxsi> over vector<3xi32>, raking, 128 threads: segments of
// S = 4, padded, so 128 + 31 + 1 = 160 slots of 16 bytes; thread t's slot
// t + t / 4 (16 bytes apart, the third element 8 bytes in). Warp 0's lanes
// keep their segment's 4 items (bytes 0, 16, 32, 48 from the segment's
// start; each a b64 and a b32 load) in registers, fold them with max.s32
// per element, scan the segment totals (shfl.up, Kogge-Stone) and write the
// rescanned items back.
// CHECK-LABEL: .entry rake_v3i32(
// CHECK: .shared .align 16 .b8 __warp_block_rake[2560];
// CHECK-DAG: st.shared.b32 {{\[}}[[OWN:%rd[0-9]+]]+8],
// CHECK-DAG: st.shared.b64 {{\[}}[[OWN]]],
// CHECK: bar.sync 0;
// CHECK-DAG: ld.shared.b64 {{%rd[0-9]+}}, {{\[}}[[SEG:%rd[0-9]+]]];
// CHECK-DAG: ld.shared.b64 {{%rd[0-9]+}}, {{\[}}[[SEG]]+48];
// CHECK-DAG: ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[SEG]]+56];
// CHECK: max.s32
// CHECK: shfl.sync.up.b32 {{.*}}, 1, 0, -1;
// CHECK: shfl.sync.up.b32 {{.*}}, 16, 0, -1;
// CHECK: st.shared.b64 {{\[}}[[SEG]]+48],
// CHECK: bar.sync 0;
// CHECK-DAG: ld.shared.b64 {{%rd[0-9]+}}, {{\[}}[[OWN]]];
// CHECK-DAG: ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[OWN]]+8];
// CHECK: ret;

// block_broadcast over vector<2xf16>: the source thread writes the pair as
// one 32-bit word, a barrier, everyone reads it (the one block op of the
// kernel needs no leading barrier: it takes the first scratch half).
// CHECK-LABEL: .entry broadcast_v2f16(
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: ld.shared.b32
// CHECK: ret;

// block_reduce <maxnumf> over vector<2xf16> in a known block of one warp:
// the warp's butterfly in packed f16x2, no shared memory, no barrier.
// CHECK-LABEL: .entry warp_v2f16(
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK: shfl.sync.bfly.b32 [[B16:%r[0-9]+]], [[V:%r[0-9]+]], 16, 31, -1;
// CHECK: max.f16x2 {{%r[0-9]+}}, [[V]], [[B16]];
// CHECK: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: max.f16x2
// CHECK-NOT: bar.sync
// CHECK: ret;

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @reduce_v2f32(%in: memref<?xvector<2xf32>>, %out: memref<?xvector<2xf32>>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<?xvector<2xf32>>
      %r = warp.block_reduce <add> %x : vector<2xf32>
      memref.store %r, %out[%t] : memref<?xvector<2xf32>>
      gpu.return
    }
    gpu.func @scan_v4i32(%in: memref<?xvector<4xi32>>, %out: memref<?xvector<4xi32>>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<?xvector<4xi32>>
      %e, %tot = warp.block_scan <add> %x exclusive algorithm = <warp_scans> : vector<4xi32>, vector<4xi32>
      memref.store %e, %out[%t] : memref<?xvector<4xi32>>
      %c4096 = arith.constant 4096 : index
      %t2 = arith.addi %t, %c4096 : index
      memref.store %tot, %out[%t2] : memref<?xvector<4xi32>>
      gpu.return
    }
    gpu.func @rake_v3i32(%in: memref<?xvector<3xi32>>, %out: memref<?xvector<3xi32>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<?xvector<3xi32>>
      %s = warp.block_scan <maxsi> %x algorithm = <raking> : vector<3xi32>
      memref.store %s, %out[%t] : memref<?xvector<3xi32>>
      gpu.return
    }
    gpu.func @broadcast_v2f16(%in: memref<?xvector<2xf16>>, %out: memref<?xvector<2xf16>>, %src: i32) kernel {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<?xvector<2xf16>>
      %b = warp.block_broadcast %x, %src : vector<2xf16>
      memref.store %b, %out[%t] : memref<?xvector<2xf16>>
      gpu.return
    }
    gpu.func @warp_v2f16(%in: memref<?xvector<2xf16>>, %out: memref<?xvector<2xf16>>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<?xvector<2xf16>>
      %r = warp.block_reduce <maxnumf> %x : vector<2xf16>
      memref.store %r, %out[%t] : memref<?xvector<2xf16>>
      gpu.return
    }
  }
}
