// The pipelines run warp-check-convergence on the program as written: a
// warning by default (the PTX is still written), an error and no output
// with convergence-errors. They run it again after warp-expand-collectives,
// on the kernels the first run found nothing in (@half_warp's finding is
// reported once; @own_mask's expansion, shuffles under its mask, is clean).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: not warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa convergence-errors=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR

// WARN: :[[@LINE+14]]:12: warning: member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op
// WARN: :[[@LINE+12]]:5: note: only lanes 0x0000ffff take the way through this branch
// PTX: .entry half_warp
// ERROR: :[[@LINE+11]]:12: error: member mask 0xffffffff names lanes 0xffff0000 that cannot reach this op
// ERROR-NOT: .entry

module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @half_warp(%x: f32, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %c0 = arith.constant 0 : index
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %s = warp.reduce <add> %x : f32
      memref.store %s, %out[%c0] : memref<?xf32>
    }
    gpu.return
  }

  gpu.func @own_mask(%x: f32, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %half = arith.constant 65535 : i32
    %c0 = arith.constant 0 : index
    %l = warp.lane_id : i32
    %low = arith.cmpi ult, %l, %c16 : i32
    scf.if %low {
      %s = warp.reduce <add> %x mask %half : f32
      %b = warp.ballot %low mask %half : i32
      %p = warp.vote <all> %low mask %half : i1
      %e = warp.scan <add> %x mask %half : f32
      memref.store %s, %out[%c0] : memref<?xf32>
      memref.store %e, %out[%c0] : memref<?xf32>
    }
    gpu.return
  }
}
}

// WARN-NOT: warning
// WARN-NOT: note
// PTX: .entry own_mask
