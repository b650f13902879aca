// PTX of warp.exchange of 8- and 16-bit items and of more than 32 items per
// lane, and of warp.scatter, counted per kernel; every PTX assembles with
// ptxas for its chip (sm_70, sm_80, sm_90).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(ld|st)\.shared" %t.sm90.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(ld|st)\.shared" %t.sm80.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(ld|st)\.shared" %t.sm70.ptx | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm90.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm70.ptx
// RUN: FileCheck %s --check-prefix=SHARED --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}

// Shuffle exchange of N 8- or 16-bit items: each item alone in one
// shfl.sync.idx (N per lane), no shared memory.
// Shared exchange and scatter: two bar.warp.sync and N narrow (8- or 16-bit)
// accesses on the strided side: the striped loads of blocked_to_striped, the
// striped stores of striped_to_blocked, the stores at the ranks (and the
// striped loads) of a scatter. The contiguous blocked side may be merged
// into wider accesses by LLVM, so it is not counted.

// NOLOCAL-NOT: .local
// NOLOCAL-NOT: __local_depot
// The shared buffer: the largest slice is smem_b2s_64xf64's, 2 warps (known
// block size 64) of 32 * 64 f64 items + 127 padding items = 17400 bytes,
// 17408 rounded to 16.
// SHARED: .shared .align 16 .b8 __warp_exchange_buffer[34816];

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK: shfl_b2s_4xi8: shfl.sync.idx.b32=4
  gpu.func @shfl_b2s_4xi8(%in: memref<?xi8>, %out: memref<?xi8>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 4 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi8>, vector<4xi8>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<4xi8>
    vector.store %r, %out[%o] : memref<?xi8>, vector<4xi8>
    gpu.return
  }
  // CHECK: shfl_s2b_8xi8: shfl.sync.idx.b32=8
  gpu.func @shfl_s2b_8xi8(%in: memref<?xi8>, %out: memref<?xi8>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi8>, vector<8xi8>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<8xi8>
    vector.store %r, %out[%o] : memref<?xi8>, vector<8xi8>
    gpu.return
  }
  // CHECK: smem_b2s_5xi8: bar.warp.sync=2 ld.shared.b8=5{{( ?st\.shared[^ ]*=[0-9]+)*}}
  gpu.func @smem_b2s_5xi8(%in: memref<?xi8>, %out: memref<?xi8>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 5 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi8>, vector<5xi8>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<5xi8>
    vector.store %r, %out[%o] : memref<?xi8>, vector<5xi8>
    gpu.return
  }
  // CHECK: smem_s2b_8xi8: bar.warp.sync=2 {{(ld\.shared[^ ]*=[0-9]+ ?)*}}st.shared.b8=8
  gpu.func @smem_s2b_8xi8(%in: memref<?xi8>, %out: memref<?xi8>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi8>, vector<8xi8>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shared> : vector<8xi8>
    vector.store %r, %out[%o] : memref<?xi8>, vector<8xi8>
    gpu.return
  }
  // CHECK: shfl_b2s_4xi16: shfl.sync.idx.b32=4
  gpu.func @shfl_b2s_4xi16(%in: memref<?xi16>, %out: memref<?xi16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 4 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi16>, vector<4xi16>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<4xi16>
    vector.store %r, %out[%o] : memref<?xi16>, vector<4xi16>
    gpu.return
  }
  // CHECK: shfl_s2b_8xi16: shfl.sync.idx.b32=8
  gpu.func @shfl_s2b_8xi16(%in: memref<?xi16>, %out: memref<?xi16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi16>, vector<8xi16>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<8xi16>
    vector.store %r, %out[%o] : memref<?xi16>, vector<8xi16>
    gpu.return
  }
  // CHECK: smem_b2s_5xi16: bar.warp.sync=2 ld.shared.b16=5{{( ?st\.shared[^ ]*=[0-9]+)*}}
  gpu.func @smem_b2s_5xi16(%in: memref<?xi16>, %out: memref<?xi16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 5 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi16>, vector<5xi16>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<5xi16>
    vector.store %r, %out[%o] : memref<?xi16>, vector<5xi16>
    gpu.return
  }
  // CHECK: smem_s2b_8xi16: bar.warp.sync=2 {{(ld\.shared[^ ]*=[0-9]+ ?)*}}st.shared.b16=8
  gpu.func @smem_s2b_8xi16(%in: memref<?xi16>, %out: memref<?xi16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi16>, vector<8xi16>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shared> : vector<8xi16>
    vector.store %r, %out[%o] : memref<?xi16>, vector<8xi16>
    gpu.return
  }
  // CHECK: shfl_b2s_4xf16: shfl.sync.idx.b32=4
  gpu.func @shfl_b2s_4xf16(%in: memref<?xf16>, %out: memref<?xf16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 4 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xf16>, vector<4xf16>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<4xf16>
    vector.store %r, %out[%o] : memref<?xf16>, vector<4xf16>
    gpu.return
  }
  // CHECK: shfl_s2b_8xf16: shfl.sync.idx.b32=8
  gpu.func @shfl_s2b_8xf16(%in: memref<?xf16>, %out: memref<?xf16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xf16>, vector<8xf16>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<8xf16>
    vector.store %r, %out[%o] : memref<?xf16>, vector<8xf16>
    gpu.return
  }
  // CHECK: smem_b2s_5xf16: bar.warp.sync=2 ld.shared.b16=5{{( ?st\.shared[^ ]*=[0-9]+)*}}
  gpu.func @smem_b2s_5xf16(%in: memref<?xf16>, %out: memref<?xf16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 5 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xf16>, vector<5xf16>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<5xf16>
    vector.store %r, %out[%o] : memref<?xf16>, vector<5xf16>
    gpu.return
  }
  // CHECK: smem_s2b_8xf16: bar.warp.sync=2 {{(ld\.shared[^ ]*=[0-9]+ ?)*}}st.shared.b16=8
  gpu.func @smem_s2b_8xf16(%in: memref<?xf16>, %out: memref<?xf16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xf16>, vector<8xf16>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shared> : vector<8xf16>
    vector.store %r, %out[%o] : memref<?xf16>, vector<8xf16>
    gpu.return
  }
  // CHECK: shfl_b2s_4xbf16: shfl.sync.idx.b32=4
  gpu.func @shfl_b2s_4xbf16(%in: memref<?xbf16>, %out: memref<?xbf16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 4 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xbf16>, vector<4xbf16>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shuffle> : vector<4xbf16>
    vector.store %r, %out[%o] : memref<?xbf16>, vector<4xbf16>
    gpu.return
  }
  // CHECK: shfl_s2b_8xbf16: shfl.sync.idx.b32=8
  gpu.func @shfl_s2b_8xbf16(%in: memref<?xbf16>, %out: memref<?xbf16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xbf16>, vector<8xbf16>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shuffle> : vector<8xbf16>
    vector.store %r, %out[%o] : memref<?xbf16>, vector<8xbf16>
    gpu.return
  }
  // CHECK: smem_b2s_5xbf16: bar.warp.sync=2 ld.shared.b16=5{{( ?st\.shared[^ ]*=[0-9]+)*}}
  gpu.func @smem_b2s_5xbf16(%in: memref<?xbf16>, %out: memref<?xbf16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 5 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xbf16>, vector<5xbf16>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<5xbf16>
    vector.store %r, %out[%o] : memref<?xbf16>, vector<5xbf16>
    gpu.return
  }
  // CHECK: smem_s2b_8xbf16: bar.warp.sync=2 {{(ld\.shared[^ ]*=[0-9]+ ?)*}}st.shared.b16=8
  gpu.func @smem_s2b_8xbf16(%in: memref<?xbf16>, %out: memref<?xbf16>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xbf16>, vector<8xbf16>
    %r = warp.exchange <striped_to_blocked> %x strategy = <shared> : vector<8xbf16>
    vector.store %r, %out[%o] : memref<?xbf16>, vector<8xbf16>
    gpu.return
  }
  // CHECK: auto_b2s_64xi8: bar.warp.sync=2 ld.shared.b8=64{{( ?st\.shared[^ ]*=[0-9]+)*}}
  gpu.func @auto_b2s_64xi8(%in: memref<?xi8>, %out: memref<?xi8>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %cn = arith.constant 64 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi8>, vector<64xi8>
    %r = warp.exchange <blocked_to_striped> %x : vector<64xi8>
    vector.store %r, %out[%o] : memref<?xi8>, vector<64xi8>
    gpu.return
  }
  // CHECK: auto_s2b_64xbf16: bar.warp.sync=2 {{(ld\.shared[^ ]*=[0-9]+ ?)*}}st.shared.b16=64
  gpu.func @auto_s2b_64xbf16(%in: memref<?xbf16>, %out: memref<?xbf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %cn = arith.constant 64 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xbf16>, vector<64xbf16>
    %r = warp.exchange <striped_to_blocked> %x : vector<64xbf16>
    vector.store %r, %out[%o] : memref<?xbf16>, vector<64xbf16>
    gpu.return
  }
  // CHECK: auto_b2s_40xf32: bar.warp.sync=2 ld.shared.b32=40{{( ?st\.shared[^ ]*=[0-9]+)*}}
  gpu.func @auto_b2s_40xf32(%in: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %cn = arith.constant 40 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<40xf32>
    %r = warp.exchange <blocked_to_striped> %x : vector<40xf32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<40xf32>
    gpu.return
  }
  // CHECK: auto_s2b_128xi16: bar.warp.sync=2 {{(ld\.shared[^ ]*=[0-9]+ ?)*}}st.shared.b16=128
  gpu.func @auto_s2b_128xi16(%in: memref<?xi16>, %out: memref<?xi16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %cn = arith.constant 128 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi16>, vector<128xi16>
    %r = warp.exchange <striped_to_blocked> %x : vector<128xi16>
    vector.store %r, %out[%o] : memref<?xi16>, vector<128xi16>
    gpu.return
  }
  // CHECK: smem_b2s_64xf64: bar.warp.sync=2 ld.shared.b64=64{{( ?st\.shared[^ ]*=[0-9]+)*}}
  gpu.func @smem_b2s_64xf64(%in: memref<?xf64>, %out: memref<?xf64>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %cn = arith.constant 64 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xf64>, vector<64xf64>
    %r = warp.exchange <blocked_to_striped> %x strategy = <shared> : vector<64xf64>
    vector.store %r, %out[%o] : memref<?xf64>, vector<64xf64>
    gpu.return
  }
  // CHECK: scatter_striped_4xf32: bar.warp.sync=2 ld.shared.b32=4 st.shared.b32=4
  gpu.func @scatter_striped_4xf32(%in: memref<?xf32>, %out: memref<?xf32>, %ranks: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 4 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xf32>, vector<4xf32>
    %rk = vector.load %ranks[%o] : memref<?xi32>, vector<4xi32>
    %r = warp.scatter %x, %rk striped : vector<4xf32>, vector<4xi32>
    vector.store %r, %out[%o] : memref<?xf32>, vector<4xf32>
    gpu.return
  }
  // CHECK: scatter_blocked_3xi64: bar.warp.sync=2 {{(ld\.shared[^ ]*=[0-9]+ ?)*}}st.shared.b64=3
  gpu.func @scatter_blocked_3xi64(%in: memref<?xi64>, %out: memref<?xi64>, %ranks: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 3 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi64>, vector<3xi64>
    %rk = vector.load %ranks[%o] : memref<?xi32>, vector<3xi32>
    %r = warp.scatter %x, %rk : vector<3xi64>, vector<3xi32>
    vector.store %r, %out[%o] : memref<?xi64>, vector<3xi64>
    gpu.return
  }
  // CHECK: scatter_striped_8xf16: bar.warp.sync=2 ld.shared.b16=8 st.shared.b16=8
  gpu.func @scatter_striped_8xf16(%in: memref<?xf16>, %out: memref<?xf16>, %ranks: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %cn = arith.constant 8 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xf16>, vector<8xf16>
    %rk = vector.load %ranks[%o] : memref<?xi32>, vector<8xi32>
    %r = warp.scatter %x, %rk striped : vector<8xf16>, vector<8xi32>
    vector.store %r, %out[%o] : memref<?xf16>, vector<8xf16>
    gpu.return
  }
  // CHECK: scatter_blocked_36xi8: bar.warp.sync=2 {{(ld\.shared[^ ]*=[0-9]+ ?)*}}st.shared.b8=36
  gpu.func @scatter_blocked_36xi8(%in: memref<?xi8>, %out: memref<?xi8>, %ranks: memref<?xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %cn = arith.constant 36 : index
    %o = arith.muli %t, %cn : index
    %x = vector.load %in[%o] : memref<?xi8>, vector<36xi8>
    %rk = vector.load %ranks[%o] : memref<?xi32>, vector<36xi32>
    %r = warp.scatter %x, %rk : vector<36xi8>, vector<36xi32>
    vector.store %r, %out[%o] : memref<?xi8>, vector<36xi8>
    gpu.return
  }
}
}
