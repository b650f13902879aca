// Regression (generative tester: reduce_sm_90_a57def79,
// scan_sm_100a_ae6e7f72, block_scan_sm_70_91a31200, block_broadcast_sm_90_*,
// block_scan_sm_100a_3c7246d7): collectives over vectors of 8- and 16-bit
// elements stored undefined values or read shared memory out of bounds.
// * vector<3 x i8/i16/f16/bf16>: LLVM's backend holds such a vector in the
//   registers of the next power of two, the extra element undefined; the
//   combines (bf16x2/add.s16x2 on a register half of which was undefined)
//   and the shuffle words (a vector<3xi8> bitcast to i24) carried that
//   undefined part into the results, and block_broadcast's scratch slot,
//   shrunk by LLVM to the one vector<3xi16> it uses, was a 6-byte global
//   read with an 8-byte load. The reduce, scan and block ops now work on
//   the vector padded with zeros to vector<4 x ...> (PadPayloads.cpp).
// * vector<4xf16> on sm_100a: its two shuffle words were put back together
//   as a vector<2xi32> (a 64-bit register there), one half of which LLVM
//   left undefined; words are now taken apart one by one.
// Results are stored element by element (f16/bf16 extended to f32).
// RUN: rm -rf %t && mkdir -p %t/sm_70 %t/sm_90 %t/sm_100a
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t/sm_70/" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/sm_90/" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_100a format=isa ptx-output=%t/sm_100a/" -o /dev/null
//
// A segmented add over vector<3xi8>, heads at lanes 0, 8, 16 and 24, x =
// (1, segment k, 100), lanes = all: (8, 8k, 800 mod 256 = 32).
// RUN: warp-sim %t/sm_70/kernels.ptx --kernel reduce_v3i8_heads memref:i8:96 | FileCheck %s --check-prefix=REDUCE
// RUN: warp-sim %t/sm_90/kernels.ptx --kernel reduce_v3i8_heads memref:i8:96 | FileCheck %s --check-prefix=REDUCE
// RUN: warp-sim %t/sm_100a/kernels.ptx --kernel reduce_v3i8_heads memref:i8:96 | FileCheck %s --check-prefix=REDUCE
// REDUCE: buf0:{{( 8 0 32){8}( 8 8 32){8}( 8 16 32){8}( 8 24 32){8}$}}
//
// A reverse inclusive maximumf scan over vector<3xbf16> in groups of 8,
// lane l's x = (3l, 3l + 1, 3l + 2): each lane gets its group's last x,
// 24k + 21, 24k + 22, 24k + 23 in group k.
// RUN: warp-sim %t/sm_70/kernels.ptx --kernel scan_v3bf16_reverse memref:f32:96=iota memref:f32:96 | FileCheck %s --check-prefix=SCAN
// RUN: warp-sim %t/sm_90/kernels.ptx --kernel scan_v3bf16_reverse memref:f32:96=iota memref:f32:96 | FileCheck %s --check-prefix=SCAN
// RUN: warp-sim %t/sm_100a/kernels.ptx --kernel scan_v3bf16_reverse memref:f32:96=iota memref:f32:96 | FileCheck %s --check-prefix=SCAN
// SCAN: buf1:{{( 21 22 23){8}( 45 46 47){8}( 69 70 71){8}( 93 94 95){8}$}}
//
// An inclusive block scan by a combiner region (add) over vector<3xi16>,
// 40 threads, x = (1, t, 3): thread t gets (t + 1, t (t + 1) / 2, 3 (t + 1)).
// RUN: warp-sim %t/sm_70/kernels.ptx --kernel block_scan_v3i16_region --block 40 memref:i16:120 | FileCheck %s --check-prefix=REGION
// RUN: warp-sim %t/sm_90/kernels.ptx --kernel block_scan_v3i16_region --block 40 memref:i16:120 | FileCheck %s --check-prefix=REGION
// RUN: warp-sim %t/sm_100a/kernels.ptx --kernel block_scan_v3i16_region --block 40 memref:i16:120 | FileCheck %s --check-prefix=REGION
// REGION: buf0: 1 0 3 2 1 6 3 3 9 4 6 12 5 10 15 6 15 18 7 21 21 8 28 24 9 36 27 10 45 30 11 55 33 12 66 36 13 78 39 14 91 42 15 105 45 16 120 48 17 136 51 18 153 54 19 171 57 20 190 60 21 210 63 22 231 66 23 253 69 24 276 72 25 300 75 26 325 78 27 351 81 28 378 84 29 406 87 30 435 90 31 465 93 32 496 96 33 528 99 34 561 102 35 595 105 36 630 108 37 666 111 38 703 114 39 741 117 40 780 120{{$}}
//
// An inclusive block maxnumf scan over vector<4xf16> with init 0.5, 40
// threads, x = (t, -t, 1, 0.25): thread t gets (max(0.5, t), 0.5, 1, 0.5).
// RUN: warp-sim %t/sm_70/kernels.ptx --kernel block_scan_v4f16_init --block 40 memref:f32:160 | FileCheck %s --check-prefix=V4F16
// RUN: warp-sim %t/sm_90/kernels.ptx --kernel block_scan_v4f16_init --block 40 memref:f32:160 | FileCheck %s --check-prefix=V4F16
// RUN: warp-sim %t/sm_100a/kernels.ptx --kernel block_scan_v4f16_init --block 40 memref:f32:160 | FileCheck %s --check-prefix=V4F16
// V4F16: buf0: 0.5 0.5 1 0.5 1 0.5 1 0.5 2 0.5 1 0.5 3 0.5 1 0.5 4 0.5 1 0.5 5 0.5 1 0.5 6 0.5 1 0.5 7 0.5 1 0.5 8 0.5 1 0.5 9 0.5 1 0.5 10 0.5 1 0.5 11 0.5 1 0.5 12 0.5 1 0.5 13 0.5 1 0.5 14 0.5 1 0.5 15 0.5 1 0.5 16 0.5 1 0.5 17 0.5 1 0.5 18 0.5 1 0.5 19 0.5 1 0.5 20 0.5 1 0.5 21 0.5 1 0.5 22 0.5 1 0.5 23 0.5 1 0.5 24 0.5 1 0.5 25 0.5 1 0.5 26 0.5 1 0.5 27 0.5 1 0.5 28 0.5 1 0.5 29 0.5 1 0.5 30 0.5 1 0.5 31 0.5 1 0.5 32 0.5 1 0.5 33 0.5 1 0.5 34 0.5 1 0.5 35 0.5 1 0.5 36 0.5 1 0.5 37 0.5 1 0.5 38 0.5 1 0.5 39 0.5 1 0.5{{$}}
//
// block_broadcast over vector<3xi16> of thread 37 of 64 (x = in[3t .. 3t +
// 2] = (3t, 3t + 1, 3t + 2): 111 112 113) and of the one thread of a
// block of one; its scratch slot is the 8 bytes of a vector<4xi16>.
// RUN: warp-sim %t/sm_90/broadcast.ptx --kernel block_broadcast_v3i16 --block 64 memref:i16:192=iota memref:i16:192 i32:37 | FileCheck %s --check-prefix=BCAST
// RUN: warp-sim %t/sm_70/broadcast.ptx --kernel block_broadcast_v3i16 --block 1 memref:i16:3=iota memref:i16:3 i32:0 | FileCheck %s --check-prefix=BCAST1
// RUN: warp-sim %t/sm_100a/broadcast.ptx --kernel block_broadcast_v3i16 --block 1 memref:i16:3=iota memref:i16:3 i32:0 | FileCheck %s --check-prefix=BCAST1
// RUN: FileCheck %s --check-prefix=SLOT --input-file=%t/sm_90/broadcast.ptx
// BCAST: buf1:{{( 111 112 113){64}$}}
// BCAST1: buf1: 0 1 2{{$}}
// SLOT: .shared .align 8 .b8 __warp_block_scratch{{.*}}[8];
// SLOT-NOT: .b8 __warp_block_scratch{{.*}}[6];

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Segments of 8 lanes (heads at lanes 0, 8, 16, 24), x = (1, segment, 100).
    gpu.func @reduce_v3i8_heads(%out: memref<?xi8>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %seg = arith.divui %tid, %c8 : index
      %segi8 = arith.index_cast %seg : index to i8
      %one = arith.constant 1 : i8
      %hundred = arith.constant 100 : i8
      %x = vector.from_elements %one, %segi8, %hundred : vector<3xi8>
      %rem = arith.remui %tid, %c8 : index
      %head = arith.cmpi eq, %rem, %c0 : index
      %r = warp.reduce <add> %x heads %head lanes = <all> : vector<3xi8>
      %base = arith.muli %tid, %c3 : index
      %i1 = arith.addi %base, %c1 : index
      %i2 = arith.addi %base, %c2 : index
      %r0 = vector.extract %r[0] : i8 from vector<3xi8>
      %r1 = vector.extract %r[1] : i8 from vector<3xi8>
      %r2 = vector.extract %r[2] : i8 from vector<3xi8>
      memref.store %r0, %out[%base] : memref<?xi8>
      memref.store %r1, %out[%i1] : memref<?xi8>
      memref.store %r2, %out[%i2] : memref<?xi8>
      gpu.return
    }
    // x = in[3 tid .. 3 tid + 2], a reverse inclusive maximumf scan in
    // groups of 8.
    gpu.func @scan_v3bf16_reverse(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %base = arith.muli %tid, %c3 : index
      %i1 = arith.addi %base, %c1 : index
      %i2 = arith.addi %base, %c2 : index
      %x0 = memref.load %in[%base] : memref<?xf32>
      %x1 = memref.load %in[%i1] : memref<?xf32>
      %x2 = memref.load %in[%i2] : memref<?xf32>
      %xf = vector.from_elements %x0, %x1, %x2 : vector<3xf32>
      %x = arith.truncf %xf : vector<3xf32> to vector<3xbf16>
      %r = warp.scan <maximumf> %x reverse width 8 : vector<3xbf16>
      %w = arith.extf %r : vector<3xbf16> to vector<3xf32>
      %r0 = vector.extract %w[0] : f32 from vector<3xf32>
      %r1 = vector.extract %w[1] : f32 from vector<3xf32>
      %r2 = vector.extract %w[2] : f32 from vector<3xf32>
      memref.store %r0, %out[%base] : memref<?xf32>
      memref.store %r1, %out[%i1] : memref<?xf32>
      memref.store %r2, %out[%i2] : memref<?xf32>
      gpu.return
    }
    // x = (1, tid, 3), an inclusive block add scan by a combiner region.
    gpu.func @block_scan_v3i16_region(%out: memref<?xi16>) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %t = arith.index_cast %tid : index to i16
      %one = arith.constant 1 : i16
      %three = arith.constant 3 : i16
      %x = vector.from_elements %one, %t, %three : vector<3xi16>
      %r = warp.block_scan %x : vector<3xi16> combine (%a: vector<3xi16>, %b: vector<3xi16>) {
        %s = arith.addi %a, %b : vector<3xi16>
        warp.yield %s : vector<3xi16>
      }
      %base = arith.muli %tid, %c3 : index
      %i1 = arith.addi %base, %c1 : index
      %i2 = arith.addi %base, %c2 : index
      %r0 = vector.extract %r[0] : i16 from vector<3xi16>
      %r1 = vector.extract %r[1] : i16 from vector<3xi16>
      %r2 = vector.extract %r[2] : i16 from vector<3xi16>
      memref.store %r0, %out[%base] : memref<?xi16>
      memref.store %r1, %out[%i1] : memref<?xi16>
      memref.store %r2, %out[%i2] : memref<?xi16>
      gpu.return
    }
    // x = (tid, -tid, 1.0, 0.25), init 0.5, an inclusive block maxnumf scan.
    gpu.func @block_scan_v4f16_init(%out: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %t32 = arith.index_cast %tid : index to i32
      %tf = arith.uitofp %t32 : i32 to f16
      %ntf = arith.negf %tf : f16
      %one = arith.constant 1.0 : f16
      %quarter = arith.constant 0.25 : f16
      %x = vector.from_elements %tf, %ntf, %one, %quarter : vector<4xf16>
      %init = arith.constant dense<0.5> : vector<4xf16>
      %r = warp.block_scan <maxnumf> %x init %init : vector<4xf16>
      %w = arith.extf %r : vector<4xf16> to vector<4xf32>
      %base = arith.muli %tid, %c4 : index
      %i1 = arith.addi %base, %c1 : index
      %i2 = arith.addi %base, %c2 : index
      %i3 = arith.addi %base, %c3 : index
      %r0 = vector.extract %w[0] : f32 from vector<4xf32>
      %r1 = vector.extract %w[1] : f32 from vector<4xf32>
      %r2 = vector.extract %w[2] : f32 from vector<4xf32>
      %r3 = vector.extract %w[3] : f32 from vector<4xf32>
      memref.store %r0, %out[%base] : memref<?xf32>
      memref.store %r1, %out[%i1] : memref<?xf32>
      memref.store %r2, %out[%i2] : memref<?xf32>
      memref.store %r3, %out[%i3] : memref<?xf32>
      gpu.return
    }
  }
  // Alone in its module: LLVM shrinks the scratch array to the one slot
  // used (and NVPTX sizes that global by the vector's store size).
  gpu.module @broadcast {
    // x = in[3 tid .. 3 tid + 2], thread src's broadcast.
    gpu.func @block_broadcast_v3i16(%in: memref<?xi16>, %out: memref<?xi16>, %src: i32) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %base = arith.muli %tid, %c3 : index
      %i1 = arith.addi %base, %c1 : index
      %i2 = arith.addi %base, %c2 : index
      %x0 = memref.load %in[%base] : memref<?xi16>
      %x1 = memref.load %in[%i1] : memref<?xi16>
      %x2 = memref.load %in[%i2] : memref<?xi16>
      %x = vector.from_elements %x0, %x1, %x2 : vector<3xi16>
      %r = warp.block_broadcast %x, %src : vector<3xi16>
      %r0 = vector.extract %r[0] : i16 from vector<3xi16>
      %r1 = vector.extract %r[1] : i16 from vector<3xi16>
      %r2 = vector.extract %r[2] : i16 from vector<3xi16>
      memref.store %r0, %out[%base] : memref<?xi16>
      memref.store %r1, %out[%i1] : memref<?xi16>
      memref.store %r2, %out[%i2] : memref<?xi16>
      gpu.return
    }
  }
}
