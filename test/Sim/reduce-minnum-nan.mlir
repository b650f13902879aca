// Regression (found by the simulator): on sm_100a, `valid_lanes` with
// minnumf/maxnumf lowers to redux.sync.{min,max}.f32, and the lanes past n
// were padded with +-inf, so a reduction whose valid lanes all hold NaN gave
// +-inf instead of NaN. The padding is NaN now, which redux ignores.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_100a format=isa ptx-output=%t.sm_100a.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.sm_100a.ptx
// RUN: warp-sim %t.sm_100a.ptx --kernel min_valid memref:f32:32=nan,5 memref:f32:32 i32:1 | FileCheck %s --check-prefix=ALLNAN-MIN
// RUN: warp-sim %t.sm_100a.ptx --kernel max_valid memref:f32:32=nan,5 memref:f32:32 i32:1 | FileCheck %s --check-prefix=ALLNAN-MAX
// RUN: warp-sim %t.sm_100a.ptx --kernel min_valid memref:f32:32=nan,5,nan,1 memref:f32:32 i32:3 | FileCheck %s --check-prefix=SOME
// The butterfly/tree lowering of sm_90 agrees.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm_90.ptx" -o /dev/null
// RUN: warp-sim %t.sm_90.ptx --kernel min_valid memref:f32:32=nan,5 memref:f32:32 i32:1 | FileCheck %s --check-prefix=ALLNAN-MIN
// RUN: warp-sim %t.sm_90.ptx --kernel max_valid memref:f32:32=nan,5 memref:f32:32 i32:1 | FileCheck %s --check-prefix=ALLNAN-MAX
// RUN: warp-sim %t.sm_90.ptx --kernel min_valid memref:f32:32=nan,5,nan,1 memref:f32:32 i32:3 | FileCheck %s --check-prefix=SOME

// PTX-LABEL: .entry min_valid
// PTX: selp.f32 {{.*}}, 0f7FC00000,
// PTX: redux.sync.min.f32
// PTX-LABEL: .entry max_valid
// PTX: selp.f32 {{.*}}, 0f7FC00000,
// PTX: redux.sync.max.f32

// ALLNAN-MIN: buf1: nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan
// ALLNAN-MAX: buf1: nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan
// SOME: buf1: 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @min_valid(%in: memref<?xf32>, %out: memref<?xf32>, %n: i32) kernel {
      %tid = gpu.thread_id x
      %x = memref.load %in[%tid] : memref<?xf32>
      %r = warp.reduce <minnumf> %x valid_lanes %n : f32
      memref.store %r, %out[%tid] : memref<?xf32>
      gpu.return
    }
    gpu.func @max_valid(%in: memref<?xf32>, %out: memref<?xf32>, %n: i32) kernel {
      %tid = gpu.thread_id x
      %x = memref.load %in[%tid] : memref<?xf32>
      %r = warp.reduce <maxnumf> %x valid_lanes %n : f32
      memref.store %r, %out[%tid] : memref<?xf32>
      gpu.return
    }
  }
}
