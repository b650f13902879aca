// The pipelines decide before each level of expansion: warp-select-lowering
// runs before warp-expand-block-collectives (block algorithms, warp ops of
// the program) and again before warp-expand-collectives, so the warp scans
// the block expansion creates carry their decisions too. An f32 block scan
// of 128 threads takes warp scans (raking is the default for integer kinds
// only); f32 add has CUB's predicated step, every step of it.
// RUN: warp-opt %s --warp-lower-to-nvvm="chip=sm_90" --mlir-print-ir-before=warp-expand-block-collectives --mlir-print-ir-before=warp-expand-collectives -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: IR Dump Before WarpExpandBlockCollectivesPass
// CHECK: warp.block_scan <add> %{{.*}} algorithm = <warp_scans> : f32
// CHECK: warp.reduce <add> %{{.*}} {warp.lowering = "redux"} : i32
// CHECK-LABEL: IR Dump Before WarpExpandCollectivesPass
// CHECK-NOT: warp.block_scan
// CHECK: warp.scan <add> %{{.*}} {warp.lowering = "predicated_steps"} : f32, f32
// CHECK: warp.scan <add> {{.*}} exclusive valid_lanes {{.*}} {warp.lowering = "predicated_steps"} : f32, f32
// CHECK: warp.reduce <add> %{{.*}} {warp.lowering = "redux"} : i32
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %x: f32, %i: i32, %iout: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %s = warp.block_scan <add> %x : f32
    memref.store %s, %out[%t] : memref<?xf32>
    %r = warp.reduce <add> %i : i32
    memref.store %r, %iout[%t] : memref<?xi32>
    gpu.return
  }
}
}
