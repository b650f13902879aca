// PTX of warp.block_run_length_decode (CUB BlockRunLengthDecode) for
// sm_70, sm_80 and sm_90: per kernel the block barriers and the runs'
// shared-memory accesses, no local memory; every PTX assembles with ptxas.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(bar\.sync|ld\.shared|st\.shared)" %t.sm90.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py --also "^(bar\.sync|ld\.shared|st\.shared)" %t.sm70.ptx | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm90.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.sm70.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}

// NOLOCAL-NOT: .local
// NOLOCAL-NOT: __local_depot

module attributes {gpu.container_module} {
gpu.module @kernels {
  // 128 threads x 2 runs: 256 runs, 9 search steps; 4 items each: 4 x
  // (9 + 2) offset and value loads, less the 3 repeats of the first
  // step's load (its middle, run 128, is the same for every item); the
  // block scan of the 4 warps: 5 shfl.up, its totals stored (1) and read
  // (2 pairs), one barrier; the runs stored as two pairs (values,
  // offsets) between the op's two barriers.
  // CHECK: decode_f32_128: bar.sync=3 ld.shared.b32=41 ld.shared.v2.b32=2 shfl.sync.up.b32=5 st.shared.b32=1 st.shared.v2.b32=2
  gpu.func @decode_f32_128(%vals: memref<?xf32>, %lens: memref<?xi32>, %from: i32, %out: memref<?xf32>, %rel: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c2 : index
    %v = vector.load %vals[%o] : memref<?xf32>, vector<2xf32>
    %n = vector.load %lens[%o] : memref<?xi32>, vector<2xi32>
    %zero = arith.constant 0.0 : f32
    %items, %total, %r = warp.block_run_length_decode %v, %n from %from default %zero : vector<2xf32>, vector<2xi32>, i32 -> vector<4xf32>, vector<4xi32>
    %od = arith.muli %t, %c4 : index
    vector.store %items, %out[%od] : memref<?xf32>, vector<4xf32>
    vector.store %r, %rel[%od] : memref<?xi32>, vector<4xi32>
    gpu.return
  }

  // From offsets, as decode_f32_128 less its block scan: no shuffles, two
  // barriers (the op's own), the same 41 search, value and start loads and
  // one more for the total (the last run's start, slot 255).
  // CHECK: decode_offsets_f32_128: bar.sync=2 ld.shared.b32=42 st.shared.v2.b32=2
  gpu.func @decode_offsets_f32_128(%vals: memref<?xf32>, %starts: memref<?xi32>, %from: i32, %out: memref<?xf32>, %rel: memref<?xi32>, %last: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c2 : index
    %v = vector.load %vals[%o] : memref<?xf32>, vector<2xf32>
    %s = vector.load %starts[%o] : memref<?xi32>, vector<2xi32>
    %items, %total, %r = warp.block_run_length_decode %v, offsets %s from %from : vector<2xf32>, vector<2xi32>, i32 -> vector<4xf32>, vector<4xi32>
    %od = arith.muli %t, %c4 : index
    vector.store %items, %out[%od] : memref<?xf32>, vector<4xf32>
    vector.store %r, %rel[%od] : memref<?xi32>, vector<4xi32>
    memref.store %total, %last[%t] : memref<?xi32>
    gpu.return
  }

  // i64 values and offsets, 256 threads x 1 run, 9 steps, 2 items: the
  // i64 scan's 5 steps of two shfl.up, the run's value and offset and the
  // warp's total stored, three barriers.
  // CHECK: decode_i64_256: bar.sync=3 {{.*}}shfl.sync.up.b32=10 st.shared.b64=3
  gpu.func @decode_i64_256(%vals: memref<?xi64>, %lens: memref<?xi64>, %from: i64, %out: memref<?xi64>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %v = vector.load %vals[%t] : memref<?xi64>, vector<1xi64>
    %n = vector.load %lens[%t] : memref<?xi64>, vector<1xi64>
    %items, %total = warp.block_run_length_decode %v, %n from %from : vector<1xi64>, vector<1xi64>, i64 -> vector<2xi64>
    %od = arith.muli %t, %c2 : index
    vector.store %items, %out[%od] : memref<?xi64>, vector<2xi64>
    gpu.return
  }
}
}
