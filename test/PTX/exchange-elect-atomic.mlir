// PTX of warp.exchange, warp.elect and warp.atomic_rmw, counted per kernel;
// every PTX assembles with ptxas for its chip. The shuffle exchange keeps
// everything in registers: no local memory (no stack frame, no ld/st.local).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(elect|atom|fns|selp|ld.shared|st.shared|max.u32|xor.b64)" %t.sm90.ptx | FileCheck %s --check-prefixes=CHECK,SM90 --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(elect|atom|fns|selp|ld.shared|st.shared|max.u32|xor.b64)" %t.sm80.ptx | FileCheck %s --check-prefixes=CHECK,SM80 --match-full-lines
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm90.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm80.ptx
// RUN: FileCheck %s --check-prefix=SHARED --input-file=%t.sm90.ptx
// RUN: FileCheck %s --check-prefix=LEADER80 --input-file=%t.sm80.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}

// Shuffle exchange of N items: N shfl.sync.idx per 32-bit word and two
// rotations by a per-lane amount of N log2(N) selects each (selp per item).
// Shared exchange: N stores, N loads, two bar.warp.sync, no shuffle.

// NOLOCAL-NOT: .local
// NOLOCAL-NOT: __local_depot
// NOLOCAL-NOT: %SP
// The shared buffer: one per module, sized for the largest exchange (4
// warps of 32 * 16 f64 items + 31 padding items, 16-byte aligned).
// SHARED: .shared .align 16 .b8 __warp_exchange_buffer[17408];

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK: shfl_b2s_2xf32: selp.f32=4 shfl.sync.idx.b32=2
  gpu.func @shfl_b2s_2xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %o = arith.muli %t, %c2 : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<2xf32>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<2xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<2xf32>
    gpu.return
  }
  // CHECK: shfl_b2s_4xi32: selp.b32=16 shfl.sync.idx.b32=4
  gpu.func @shfl_b2s_4xi32(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %x = vector.load %in[%o] : memref<?xi32>, vector<4xi32>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<4xi32>
    vector.store %r, %out[%o] : memref<?xi32>, vector<4xi32>
    gpu.return
  }
  // CHECK: shfl_b2s_8xf32: selp.f32=48 shfl.sync.idx.b32=8
  gpu.func @shfl_b2s_8xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %o = arith.muli %t, %c8 : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<8xf32>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<8xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<8xf32>
    gpu.return
  }
  // CHECK: shfl_b2s_16xf32: selp.f32=128 shfl.sync.idx.b32=16
  gpu.func @shfl_b2s_16xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %o = arith.muli %t, %c16 : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<16xf32>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<16xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<16xf32>
    gpu.return
  }
  // CHECK: shfl_b2s_16xf64: selp.f64=128 shfl.sync.idx.b32=32
  gpu.func @shfl_b2s_16xf64(%in: memref<?xf64>, %out: memref<?xf64>) kernel {
    %t = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %o = arith.muli %t, %c16 : index
    %x = vector.load %in[%o] : memref<?xf64>, vector<16xf64>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<16xf64>
    vector.store %r, %out[%o] : memref<?xf64>, vector<16xf64>
    gpu.return
  }
  // CHECK: shfl_b2s_8xi64: selp.b64=48 shfl.sync.idx.b32=16
  gpu.func @shfl_b2s_8xi64(%in: memref<?xi64>, %out: memref<?xi64>) kernel {
    %t = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %o = arith.muli %t, %c8 : index
    %x = vector.load %in[%o] : memref<?xi64>, vector<8xi64>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<8xi64>
    vector.store %r, %out[%o] : memref<?xi64>, vector<8xi64>
    gpu.return
  }
  // CHECK: shfl_s2b_2xf32: selp.f32=4 shfl.sync.idx.b32=2
  gpu.func @shfl_s2b_2xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %o = arith.muli %t, %c2 : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<2xf32>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<2xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<2xf32>
    gpu.return
  }
  // CHECK: shfl_s2b_4xi32: selp.b32=16 shfl.sync.idx.b32=4
  gpu.func @shfl_s2b_4xi32(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %x = vector.load %in[%o] : memref<?xi32>, vector<4xi32>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<4xi32>
    vector.store %r, %out[%o] : memref<?xi32>, vector<4xi32>
    gpu.return
  }
  // CHECK: shfl_s2b_8xf32: selp.f32=48 shfl.sync.idx.b32=8
  gpu.func @shfl_s2b_8xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %o = arith.muli %t, %c8 : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<8xf32>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<8xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<8xf32>
    gpu.return
  }
  // CHECK: shfl_s2b_16xf32: selp.f32=128 shfl.sync.idx.b32=16
  gpu.func @shfl_s2b_16xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %o = arith.muli %t, %c16 : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<16xf32>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<16xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<16xf32>
    gpu.return
  }
  // CHECK: shfl_s2b_16xf64: selp.f64=128 shfl.sync.idx.b32=32
  gpu.func @shfl_s2b_16xf64(%in: memref<?xf64>, %out: memref<?xf64>) kernel {
    %t = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %o = arith.muli %t, %c16 : index
    %x = vector.load %in[%o] : memref<?xf64>, vector<16xf64>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<16xf64>
    vector.store %r, %out[%o] : memref<?xf64>, vector<16xf64>
    gpu.return
  }
  // CHECK: shfl_s2b_8xi64: selp.b64=48 shfl.sync.idx.b32=16
  gpu.func @shfl_s2b_8xi64(%in: memref<?xi64>, %out: memref<?xi64>) kernel {
    %t = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %o = arith.muli %t, %c8 : index
    %x = vector.load %in[%o] : memref<?xi64>, vector<8xi64>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<8xi64>
    vector.store %r, %out[%o] : memref<?xi64>, vector<8xi64>
    gpu.return
  }
  // CHECK: smem_b2s_8xf32: bar.warp.sync=2 ld.shared.b32=8 st.shared.b32=8
  gpu.func @smem_b2s_8xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %o = arith.muli %t, %c8 : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<8xf32>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<8xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<8xf32>
    gpu.return
  }
  // CHECK: smem_b2s_16xf64: bar.warp.sync=2 ld.shared.b64=16 st.shared.b64=16
  gpu.func @smem_b2s_16xf64(%in: memref<?xf64>, %out: memref<?xf64>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %o = arith.muli %t, %c16 : index
    %x = vector.load %in[%o] : memref<?xf64>, vector<16xf64>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<16xf64>
    vector.store %r, %out[%o] : memref<?xf64>, vector<16xf64>
    gpu.return
  }
  // CHECK: smem_b2s_3xi32: bar.warp.sync=2 ld.shared.b32=3 st.shared.b32=3
  gpu.func @smem_b2s_3xi32(%in: memref<?xi32>, %out: memref<?xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c3 = arith.constant 3 : index
    %o = arith.muli %t, %c3 : index
    %x = vector.load %in[%o] : memref<?xi32>, vector<3xi32>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<3xi32>
    vector.store %r, %out[%o] : memref<?xi32>, vector<3xi32>
    gpu.return
  }
  // CHECK: smem_s2b_8xf32: bar.warp.sync=2 ld.shared.b32=8 st.shared.b32=8
  gpu.func @smem_s2b_8xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %o = arith.muli %t, %c8 : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<8xf32>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shared> : vector<8xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<8xf32>
    gpu.return
  }
  // CHECK: smem_s2b_16xf64: bar.warp.sync=2 ld.shared.b64=16 st.shared.b64=16
  gpu.func @smem_s2b_16xf64(%in: memref<?xf64>, %out: memref<?xf64>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %o = arith.muli %t, %c16 : index
    %x = vector.load %in[%o] : memref<?xf64>, vector<16xf64>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shared> : vector<16xf64>
    vector.store %r, %out[%o] : memref<?xf64>, vector<16xf64>
    gpu.return
  }
  // CHECK: smem_s2b_3xi32: bar.warp.sync=2 ld.shared.b32=3 st.shared.b32=3
  gpu.func @smem_s2b_3xi32(%in: memref<?xi32>, %out: memref<?xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c3 = arith.constant 3 : index
    %o = arith.muli %t, %c3 : index
    %x = vector.load %in[%o] : memref<?xi32>, vector<3xi32>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shared> : vector<3xi32>
    vector.store %r, %out[%o] : memref<?xi32>, vector<3xi32>
    gpu.return
  }
  // elect.sync on sm_90; on sm_80 a ballot: the lane with no member below.
  // SM90: elect: elect.sync=1 selp.b32=1
  // SM80: elect: selp.b32=1 vote.sync.ballot.b32=1
  gpu.func @elect(%out: memref<?xi32>, %m: i32) kernel {
    %t = gpu.thread_id x
    %e = warp.elect mask %m : i1
    %w = arith.extui %e : i1 to i32
    memref.store %w, %out[%t] : memref<?xi32>
    gpu.return
  }
  // With the leader's lane: on sm_90 the same elect.sync, its register too;
  // on sm_80 the ballot's lowest set bit's index, popc(~b & (b - 1)) with no
  // branch for a zero ballot (which cannot happen), and a compare with the
  // lane.
  // SM90: elect_leader: elect.sync=1 selp.b32=1
  // SM80: elect_leader: popc.b32=1 selp.b32=1 vote.sync.ballot.b32=1
  // LEADER80-LABEL: .entry elect_leader(
  // LEADER80-NOT: bra
  // LEADER80: ret;
  gpu.func @elect_leader(%out: memref<?xi32>, %lanes: memref<?xi32>, %m: i32) kernel {
    %t = gpu.thread_id x
    %e, %lane = warp.elect mask %m : i1, i32
    %w = arith.extui %e : i1 to i32
    memref.store %w, %out[%t] : memref<?xi32>
    memref.store %lane, %lanes[%t] : memref<?xi32>
    gpu.return
  }
  // The aggregated atomic: match.any on the 64-bit address, a 5-step scan
  // over each group (fns + one shuffle per 32-bit word per step), one atomic,
  // one shuffle of the old value; floats one more shuffle for the exclusive
  // prefix. A constant integer increment (the histogram) needs no scan: the
  // group's total is the constant times popc(group).
  // CHECK: atomic_i32: activemask.b32=1 atom.global.add.u32=1 match.any.sync.b64=1 popc.b32=1 shfl.sync.idx.b32=1
  gpu.func @atomic_i32(%hist: memref<?xi32>, %bins: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %b = memref.load %bins[%t] : memref<?xi32>
    %bin = arith.index_cast %b : i32 to index
    %one = arith.constant 1 : i32
    %old = warp.atomic_rmw <add> %one, %hist[%bin] : i32, memref<?xi32>
    memref.store %old, %bins[%t] : memref<?xi32>
    gpu.return
  }
  // CHECK: atomic_f32: activemask.b32=1 add.rn.f32=6 atom.global.add.f32=1 fns.b32=5 match.any.sync.b64=1 popc.b32=1 selp.f32=6 shfl.sync.idx.b32=7
  gpu.func @atomic_f32(%sums: memref<?xf32>, %bins: memref<?xi32>, %v: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %b = memref.load %bins[%t] : memref<?xi32>
    %bin = arith.index_cast %b : i32 to index
    %x = memref.load %v[%t] : memref<?xf32>
    %old = warp.atomic_rmw <add> %x, %sums[%bin] : f32, memref<?xf32>
    memref.store %old, %v[%t] : memref<?xf32>
    gpu.return
  }
  // CHECK: atomic_f64_masked: add.rn.f64=6 atom.global.add.f64=1 fns.b32=5 match.any.sync.b64=1 popc.b32=1 selp.f64=6 shfl.sync.idx.b32=14
  gpu.func @atomic_f64_masked(%sums: memref<?xf64>, %bins: memref<?xi32>, %v: memref<?xf64>, %m: i32) kernel {
    %t = gpu.thread_id x
    %b = memref.load %bins[%t] : memref<?xi32>
    %bin = arith.index_cast %b : i32 to index
    %x = memref.load %v[%t] : memref<?xf64>
    %old = warp.atomic_rmw <add> %x, %sums[%bin] mask %m : f64, memref<?xf64>
    memref.store %old, %v[%t] : memref<?xf64>
    gpu.return
  }
  // The other kinds: the same scan with the kind's combine and atomic, and
  // the exclusive prefix shuffled from the member below; an idempotent
  // kind's steps need no select (its partner is the lane itself where no
  // member is that far below). exch: no scan, one fns for the member below.
  // Where no step tests the rank, "the lowest member" needs no popc: LLVM
  // tests the members below the lane for zero.
  // CHECK: atomic_maxui_i32: activemask.b32=1 atom.global.max.u32=1 fns.b32=5 match.any.sync.b64=1 max.u32=6 selp.b32=1 shfl.sync.idx.b32=7
  gpu.func @atomic_maxui_i32(%top: memref<?xi32>, %bins: memref<?xi32>, %v: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %b = memref.load %bins[%t] : memref<?xi32>
    %bin = arith.index_cast %b : i32 to index
    %x = memref.load %v[%t] : memref<?xi32>
    %old = warp.atomic_rmw <maxui> %x, %top[%bin] : i32, memref<?xi32>
    memref.store %old, %v[%t] : memref<?xi32>
    gpu.return
  }
  // CHECK: atomic_xor_i64: activemask.b32=1 atom.global.xor.b64=1 fns.b32=5 match.any.sync.b64=1 popc.b32=1 selp.b64=6 shfl.sync.idx.b32=14 xor.b64=6
  gpu.func @atomic_xor_i64(%acc: memref<?xi64>, %bins: memref<?xi32>, %v: memref<?xi64>) kernel {
    %t = gpu.thread_id x
    %b = memref.load %bins[%t] : memref<?xi32>
    %bin = arith.index_cast %b : i32 to index
    %x = memref.load %v[%t] : memref<?xi64>
    %old = warp.atomic_rmw <xor> %x, %acc[%bin] : i64, memref<?xi64>
    memref.store %old, %v[%t] : memref<?xi64>
    gpu.return
  }
  // CHECK: atomic_exch_f32_masked: atom.global.exch.b32=1 fns.b32=1 match.any.sync.b64=1 selp.f32=1 shfl.sync.idx.b32=2
  gpu.func @atomic_exch_f32_masked(%last: memref<?xf32>, %bins: memref<?xi32>, %v: memref<?xf32>, %m: i32) kernel {
    %t = gpu.thread_id x
    %b = memref.load %bins[%t] : memref<?xi32>
    %bin = arith.index_cast %b : i32 to index
    %x = memref.load %v[%t] : memref<?xf32>
    %old = warp.atomic_rmw <exch> %x, %last[%bin] mask %m : f32, memref<?xf32>
    memref.store %old, %v[%t] : memref<?xf32>
    gpu.return
  }
}
}
