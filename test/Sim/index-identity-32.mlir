// Regression (generative tester: scan_sm_70_03e9f636,
// block_scan_sm_80_7c5189a0): the identities of minsi and maxsi over index
// (INT_MAX and INT_MIN, what an exclusive scan's first lane gets and what
// pads lanes that must not count) were 64-bit arith constants of index,
// which device-index-bitwidth=32 truncates to -1 (0xFFFFFFFF) and 0. They
// are built at the width index lowers to now (CombineKinds.cpp). Results
// are index_cast to i64 (sign-extended) and printed.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa device-index-bitwidth=32 ptx-output=%t.32.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.64.ptx" -o /dev/null
//
// x = tid + 5. An exclusive minsi scan: lane 0 gets INT_MAX, every other
// lane min(5, ..., tid + 4) = 5.
// RUN: warp-sim %t.32.ptx --kernel scan_minsi memref:i64:32 | FileCheck %s --check-prefix=MIN32
// RUN: warp-sim %t.64.ptx --kernel scan_minsi memref:i64:32 | FileCheck %s --check-prefix=MIN64
// MIN32: buf0: 2147483647 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5{{$}}
// MIN64: buf0: 9223372036854775807 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5{{$}}
//
// The same x in both elements of a vector<2xindex>, exclusive maxsi: lane 0
// gets INT_MIN twice, lane l > 0 its left neighbour's x, l + 4.
// RUN: warp-sim %t.32.ptx --kernel scan_maxsi_v2 memref:i64:64 | FileCheck %s --check-prefix=MAX32
// RUN: warp-sim %t.64.ptx --kernel scan_maxsi_v2 memref:i64:64 | FileCheck %s --check-prefix=MAX64
// MAX32: buf0: -2147483648 -2147483648 5 5 6 6 7 7 8 8 9 9 10 10 11 11 12 12 13 13 14 14 15 15 16 16 17 17 18 18 19 19 20 20 21 21 22 22 23 23 24 24 25 25 26 26 27 27 28 28 29 29 30 30 31 31 32 32 33 33 34 34 35 35{{$}}
// MAX64: buf0: -9223372036854775808 -9223372036854775808 5 5 6 6 7 7 8 8 9 9 10 10 11 11 12 12 13 13 14 14 15 15 16 16 17 17 18 18 19 19 20 20 21 21 22 22 23 23 24 24 25 25 26 26 27 27 28 28 29 29 30 30 31 31 32 32 33 33 34 34 35 35{{$}}
//
// Block scans of 40 threads (a whole warp and 8 lanes), x = 50 - tid,
// exclusive minsi: thread 0 gets INT_MAX, thread t > 0 the x of thread
// t - 1, 51 - t; by warp scans and by raking.
// RUN: warp-sim %t.32.ptx --kernel block_minsi_warp_scans --block 40 memref:i64:40 | FileCheck %s --check-prefix=BLOCK32
// RUN: warp-sim %t.32.ptx --kernel block_minsi_raking --block 40 memref:i64:40 | FileCheck %s --check-prefix=BLOCK32
// BLOCK32: buf0: 2147483647 50 49 48 47 46 45 44 43 42 41 40 39 38 37 36 35 34 33 32 31 30 29 28 27 26 25 24 23 22 21 20 19 18 17 16 15 14 13 12{{$}}
//
// A block maxsi reduction of 96 threads (3 warps), x = -1 - tid: warp 0
// combines the 3 warp partials with lanes 3..31 padded with INT_MIN, so the
// maximum is -1 everywhere (the truncated padding, 0, gave 0).
// RUN: warp-sim %t.32.ptx --kernel block_reduce_maxsi --block 96 memref:i64:96 | FileCheck %s --check-prefix=REDUCE
// REDUCE: buf0:{{( -1){96}$}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scan_minsi(%out: memref<?xi64>) kernel {
      %tid = gpu.thread_id x
      %c5 = arith.constant 5 : index
      %x = arith.addi %tid, %c5 : index
      %r = warp.scan <minsi> %x exclusive : index
      %w = arith.index_cast %r : index to i64
      memref.store %w, %out[%tid] : memref<?xi64>
      gpu.return
    }
    gpu.func @scan_maxsi_v2(%out: memref<?xi64>) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c5 = arith.constant 5 : index
      %x = arith.addi %tid, %c5 : index
      %v = vector.broadcast %x : index to vector<2xindex>
      %r = warp.scan <maxsi> %v exclusive : vector<2xindex>
      %r0 = vector.extract %r[0] : index from vector<2xindex>
      %r1 = vector.extract %r[1] : index from vector<2xindex>
      %i0 = arith.muli %tid, %c2 : index
      %i1 = arith.addi %i0, %c1 : index
      %w0 = arith.index_cast %r0 : index to i64
      %w1 = arith.index_cast %r1 : index to i64
      memref.store %w0, %out[%i0] : memref<?xi64>
      memref.store %w1, %out[%i1] : memref<?xi64>
      gpu.return
    }
    gpu.func @block_minsi_warp_scans(%out: memref<?xi64>) kernel {
      %tid = gpu.thread_id x
      %c50 = arith.constant 50 : index
      %x = arith.subi %c50, %tid : index
      %r = warp.block_scan <minsi> %x exclusive algorithm = <warp_scans> : index
      %w = arith.index_cast %r : index to i64
      memref.store %w, %out[%tid] : memref<?xi64>
      gpu.return
    }
    gpu.func @block_minsi_raking(%out: memref<?xi64>) kernel {
      %tid = gpu.thread_id x
      %c50 = arith.constant 50 : index
      %x = arith.subi %c50, %tid : index
      %r = warp.block_scan <minsi> %x exclusive algorithm = <raking> : index
      %w = arith.index_cast %r : index to i64
      memref.store %w, %out[%tid] : memref<?xi64>
      gpu.return
    }
    gpu.func @block_reduce_maxsi(%out: memref<?xi64>) kernel {
      %tid = gpu.thread_id x
      %cm1 = arith.constant -1 : index
      %x = arith.subi %cm1, %tid : index
      %r = warp.block_reduce <maxsi> %x : index
      %w = arith.index_cast %r : index to i64
      memref.store %w, %out[%tid] : memref<?xi64>
      gpu.return
    }
  }
}
