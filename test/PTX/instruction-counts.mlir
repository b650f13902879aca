// The PTX of each collective is the minimal sequence, counted per kernel, and
// every PTX assembles with ptxas for its chip.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py %t.sm90.ptx | FileCheck %s --check-prefixes=CHECK,SM90 --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_100a format=isa ptx-output=%t.sm100a.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py %t.sm100a.ptx | FileCheck %s --check-prefixes=CHECK,SM100A --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_75 format=isa ptx-output=%t.sm75.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py %t.sm75.ptx | FileCheck %s --check-prefixes=CHECK,SM75 --match-full-lines
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_100a %{ %ptxas -arch=sm_100a %t.sm100a.ptx -o %t.sm100a.cubin %}
// RUN: %if ptxas-sm_75 %{ %ptxas -arch=sm_75 %t.sm75.ptx -o %t.sm75.cubin %}

// Expected counts follow from the algorithms: a 32-lane butterfly or tree is
// log2(32) = 5 shuffles and 5 combines; redux.sync is one instruction; a
// 64-bit value needs two 32-bit shuffles per step; f16x2 travels in one.

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK: f32_add: add.rn.f32=5 shfl.sync.bfly.b32=5
  gpu.func @f32_add(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %r = warp.reduce <add> %x : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
  // SM90: i32_add: redux.sync.add.s32=1
  // SM100A: i32_add: redux.sync.add.s32=1
  // SM75: i32_add: shfl.sync.bfly.b32=5
  gpu.func @i32_add(%in: memref<32xi32>, %out: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xi32>
    %r = warp.reduce <add> %x : i32
    memref.store %r, %out[%t] : memref<32xi32>
    gpu.return
  }
  // SM90: u32_min: redux.sync.min.u32=1
  // SM100A: u32_min: redux.sync.min.u32=1
  // SM75: u32_min: shfl.sync.bfly.b32=5
  gpu.func @u32_min(%in: memref<32xi32>, %out: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xi32>
    %r = warp.reduce <minui> %x : i32
    memref.store %r, %out[%t] : memref<32xi32>
    gpu.return
  }
  // On sm_90 f32 max is shuffles (redux.sync f32 needs sm_100a).
  // SM90: f32_max: max.f32=5 shfl.sync.bfly.b32=5
  // SM100A: f32_max: redux.sync.max.f32=1
  // SM75: f32_max: max.f32=5 shfl.sync.bfly.b32=5
  gpu.func @f32_max(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %r = warp.reduce <maxnumf> %x : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
  // CHECK: f32_add_first_lane: add.rn.f32=5 shfl.sync.down.b32=5
  gpu.func @f32_add_first_lane(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %r = warp.reduce <add> %x lanes = <first> : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
  // CHECK: f64_add: add.rn.f64=5 shfl.sync.bfly.b32=10
  gpu.func @f64_add(%in: memref<32xf64>, %out: memref<32xf64>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf64>
    %r = warp.reduce <add> %x : f64
    memref.store %r, %out[%t] : memref<32xf64>
    gpu.return
  }
  // CHECK: f16x2_add: add.rn.f16x2=5 shfl.sync.bfly.b32=5
  gpu.func @f16x2_add(%in: memref<32xvector<2xf16>>, %out: memref<32xvector<2xf16>>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xvector<2xf16>>
    %r = warp.reduce <add> %x : vector<2xf16>
    memref.store %r, %out[%t] : memref<32xvector<2xf16>>
    gpu.return
  }
  // CHECK: f16x2_shuffle: shfl.sync.idx.b32=1
  gpu.func @f16x2_shuffle(%in: memref<32xvector<2xf16>>, %out: memref<32xvector<2xf16>>, %lane: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xvector<2xf16>>
    %r:2 = warp.shuffle <idx> %x, %lane : vector<2xf16>
    memref.store %r#0, %out[%t] : memref<32xvector<2xf16>>
    gpu.return
  }
  // CHECK: i64_shuffle: shfl.sync.down.b32=2
  gpu.func @i64_shuffle(%in: memref<32xi64>, %out: memref<32xi64>, %o: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xi64>
    %r:2 = warp.shuffle <down> %x, %o width 8 : i64
    memref.store %r#0, %out[%t] : memref<32xi64>
    gpu.return
  }
  // CHECK: f32_inclusive_scan: add.rn.f32=5 shfl.sync.up.b32=5
  gpu.func @f32_inclusive_scan(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %r = warp.scan <add> %x : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
  // CHECK: f32_exclusive_scan: add.rn.f32=5 shfl.sync.up.b32=6
  gpu.func @f32_exclusive_scan(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %r = warp.scan <add> %x exclusive : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
  // CHECK: compact: popc.b32=2 vote.sync.ballot.b32=1
  gpu.func @compact(%in: memref<32xf32>, %out: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %zero : f32
    %o:2 = warp.compact %p : i32
    %s = arith.addi %o#0, %o#1 : i32
    memref.store %s, %out[%t] : memref<32xi32>
    gpu.return
  }
  // CHECK: votes: match.any.sync.b32=1 vote.sync.all.pred=1 vote.sync.any.pred=1 vote.sync.uni.pred=1
  gpu.func @votes(%in: memref<32xi32>, %out: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xi32>
    %c0 = arith.constant 0 : i32
    %p = arith.cmpi sgt, %x, %c0 : i32
    %a = warp.vote <any> %p : i1
    %b = warp.vote <all> %p : i1
    %u = warp.vote <uni> %p : i1
    %m = warp.match_any %x : i32
    %ab = arith.andi %a, %b : i1
    %abu = arith.andi %ab, %u : i1
    %e = arith.extui %abu : i1 to i32
    %s = arith.addi %e, %m : i32
    memref.store %s, %out[%t] : memref<32xi32>
    gpu.return
  }
  // A scan of 8 live lanes (a constant valid_lanes): 3 steps, the
  // distances 1, 2 and 4 (no live lane has a partner 8 or more lanes
  // away), each CUB's predicated shfl.up + add; a run-time count takes
  // all 5.
  // CHECK: scan_eight_lanes: add.rn.f32=3 shfl.sync.up.b32=3
  gpu.func @scan_eight_lanes(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %c8 = arith.constant 8 : i32
    %s = warp.scan <add> %x valid_lanes %c8 : f32
    memref.store %s, %out[%t] : memref<32xf32>
    gpu.return
  }
  // A match of a digit's 8 bits: 8 ballots (CUB's MatchAny), no match.any.
  // CHECK: match_digit: vote.sync.ballot.b32=8
  gpu.func @match_digit(%in: memref<32xi32>, %out: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xi32>
    %c255 = arith.constant 255 : i32
    %digit = arith.andi %x, %c255 : i32
    %m = warp.match_any %digit : i32
    memref.store %m, %out[%t] : memref<32xi32>
    gpu.return
  }
  // The leader is cttz(mask), which NVPTX computes with one popc.
  // CHECK: broadcast_first: activemask.b32=1 popc.b32=1 shfl.sync.idx.b32=2
  gpu.func @broadcast_first(%in: memref<32xf64>, %out: memref<32xf64>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf64>
    %r = warp.broadcast_first %x : f64
    memref.store %r, %out[%t] : memref<32xf64>
    gpu.return
  }
}
}
