// Regression (issue 26, item 2): segmented reductions and scans under a member
// mask took their segment boundaries from a ballot of the flags restricted to
// the mask, so a segment whose neighbour lies outside the mask ran past the
// mask's edge and its shuffles read lanes outside the mask (undefined; the
// H200 returns 0). The edges of the mask bound segments: a maximal run of
// consecutive lanes of the mask starts a segment at its first lane and ends
// one at its last lane. Only the lanes of the mask execute (scf.if); the
// others keep the output's -7. Expected values are worked out by hand below.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
//
// Lanes 16..31 execute (0xFFFF0000), x = 1, tails at lanes 15, 23 and 31:
// segments 16..23 and 24..31 (lane 15's segment is outside the mask), so
// every executing lane gets 8. A run-time mask, then the same mask as a
// constant of the kernel.
// RUN: warp-sim %t.ptx --kernel tails_add memref:i32:32=1 memref:i32:32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1 memref:i32:32=-7 u32:0xFFFF0000 | FileCheck %s --check-prefix=TAILS
// RUN: warp-sim %t.ptx --kernel tails_add_const memref:i32:32=1 memref:i32:32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1 memref:i32:32=-7 u32:0xFFFF0000 | FileCheck %s --check-prefix=TAILS
// TAILS: buf2: -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8{{$}}
//
// The lowering that ignores the mask's edges (the planted bug) reads lane 0,
// outside the mask, for lanes 16..23's broadcast: the simulator reports it.
// RUN: env WARP_PLANT_BUG=segments-ignore-mask-edges warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.bug.ptx" -o /dev/null
// RUN: not warp-sim %t.bug.ptx --kernel tails_add memref:i32:32=1 memref:i32:32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1 memref:i32:32=-7 u32:0xFFFF0000 2>&1 | FileCheck %s --check-prefix=BUG
// BUG: undefined
//
// Lanes 8..23 execute (0x00FFFF00), x = lane - 100, heads at lanes 12 and 24
// (24 outside the mask), maxsi with lanes = first: segments 8..11 (max -89,
// lane 11) and 12..23 (max -77, lane 23); only lanes 8 and 12 are defined.
// RUN: warp-sim %t.ptx --kernel heads_max_first memref:i32:32=-100,-99,-98,-97,-96,-95,-94,-93,-92,-91,-90,-89,-88,-87,-86,-85,-84,-83,-82,-81,-80,-79,-78,-77,-76,-75,-74,-73,-72,-71,-70,-69 memref:i32:32=0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0 memref:i32:32=-7 u32:0x00FFFF00 | FileCheck %s --check-prefix=FIRST
// FIRST: buf2: -7 -7 -7 -7 -7 -7 -7 -7 -89 {{-?[0-9]+ -?[0-9]+ -?[0-9]+}} -77 {{(-?[0-9]+ )+}}-7 -7 -7 -7 -7 -7 -7 -7{{$}}
//
// A mask with a hole, 0x00FF0F00 (lanes 8..11 and 16..23), x = 1, heads at
// lanes 8, 12 (in the hole), 16 and 24 (outside): an inclusive reverse add
// scan counts the lanes from each lane to its segment's end, 4 3 2 1 and
// 8 7 ... 1, and the totals are 4 and 8.
// RUN: warp-sim %t.ptx --kernel heads_scan_rev memref:i32:32=1 memref:i32:32=0,0,0,0,0,0,0,0,1,0,0,0,1,0,0,0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0 memref:i32:32=-7 memref:i32:32=-7 u32:0x00FF0F00 | FileCheck %s --check-prefix=HOLE
// HOLE: buf2: -7 -7 -7 -7 -7 -7 -7 -7 4 3 2 1 -7 -7 -7 -7 8 7 6 5 4 3 2 1 -7 -7 -7 -7 -7 -7 -7 -7{{$}}
// HOLE: buf3: -7 -7 -7 -7 -7 -7 -7 -7 4 4 4 4 -7 -7 -7 -7 8 8 8 8 8 8 8 8 -7 -7 -7 -7 -7 -7 -7 -7{{$}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tails_add(%in: memref<?xi32>, %flags: memref<?xi32>, %out: memref<?xi32>, %mask: i32) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %lane = warp.lane_id : i32
      %shifted = arith.shrui %mask, %lane : i32
      %bit = arith.andi %shifted, %c1 : i32
      %member = arith.cmpi ne, %bit, %c0 : i32
      scf.if %member {
        %x = memref.load %in[%tid] : memref<?xi32>
        %fw = memref.load %flags[%tid] : memref<?xi32>
        %f = arith.cmpi ne, %fw, %c0 : i32
        %r = warp.reduce <add> %x tails %f mask %mask : i32
        memref.store %r, %out[%tid] : memref<?xi32>
      }
      gpu.return
    }
    gpu.func @tails_add_const(%in: memref<?xi32>, %flags: memref<?xi32>, %out: memref<?xi32>, %unused: i32) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %mask = arith.constant 0xFFFF0000 : i32
      %lane = warp.lane_id : i32
      %shifted = arith.shrui %mask, %lane : i32
      %bit = arith.andi %shifted, %c1 : i32
      %member = arith.cmpi ne, %bit, %c0 : i32
      scf.if %member {
        %x = memref.load %in[%tid] : memref<?xi32>
        %fw = memref.load %flags[%tid] : memref<?xi32>
        %f = arith.cmpi ne, %fw, %c0 : i32
        %r = warp.reduce <add> %x tails %f mask %mask : i32
        memref.store %r, %out[%tid] : memref<?xi32>
      }
      gpu.return
    }
    gpu.func @heads_max_first(%in: memref<?xi32>, %flags: memref<?xi32>, %out: memref<?xi32>, %mask: i32) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %lane = warp.lane_id : i32
      %shifted = arith.shrui %mask, %lane : i32
      %bit = arith.andi %shifted, %c1 : i32
      %member = arith.cmpi ne, %bit, %c0 : i32
      scf.if %member {
        %x = memref.load %in[%tid] : memref<?xi32>
        %fw = memref.load %flags[%tid] : memref<?xi32>
        %f = arith.cmpi ne, %fw, %c0 : i32
        %r = warp.reduce <maxsi> %x heads %f mask %mask lanes = <first> : i32
        memref.store %r, %out[%tid] : memref<?xi32>
      }
      gpu.return
    }
    gpu.func @heads_scan_rev(%in: memref<?xi32>, %flags: memref<?xi32>, %out: memref<?xi32>, %total: memref<?xi32>, %mask: i32) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %lane = warp.lane_id : i32
      %shifted = arith.shrui %mask, %lane : i32
      %bit = arith.andi %shifted, %c1 : i32
      %member = arith.cmpi ne, %bit, %c0 : i32
      scf.if %member {
        %x = memref.load %in[%tid] : memref<?xi32>
        %fw = memref.load %flags[%tid] : memref<?xi32>
        %f = arith.cmpi ne, %fw, %c0 : i32
        %r, %t = warp.scan <add> %x reverse mask %mask heads %f : i32, i32
        memref.store %r, %out[%tid] : memref<?xi32>
        memref.store %t, %total[%tid] : memref<?xi32>
      }
      gpu.return
    }
  }
}
