// gpu.shuffle keeps upstream's meaning of `width` through
// --convert-gpu-to-warp: `width` is the number of participating lanes
// (0..width-1, any width 1..32, constant or run time), no segments; a lane
// whose source lane is not below `width` gets its own value and
// valid = false; the member mask is the lanes below `width` (upstream's
// lowering), clamp `width - 1` (`up`: 0, reading only lanes below).
// RUN: warp-opt %s --convert-gpu-to-warp | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// The old import (width read as CUDA's segment width) only comes back as the
// planted bug of the generative tester:
// RUN: env WARP_PLANT_BUG=gpu-shuffle-width-as-segment warp-opt %s --convert-gpu-to-warp | FileCheck %s --check-prefix=PLANTED

module attributes {gpu.container_module} {
gpu.module @kernels {
  // Upstream's integration program: xor 4 over 13 lanes. Lanes 9..11 would
  // read lanes 13..15, which are not below 13: own value, not valid; lane 12
  // reads lane 8. Member mask 0x1fff; `valid = (lane ^ 4) < 13`, and an idx
  // shuffle from `valid ? lane ^ 4 : lane`: no lane reads outside the mask.
  // CHECK-LABEL: gpu.func @xor_13
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
  // CHECK-DAG: %[[C13:.*]] = arith.constant 13 : i32
  // CHECK-DAG: %[[M:.*]] = arith.constant 8191 : i32
  // CHECK: %[[X:.*]] = memref.load
  // CHECK: %[[L:.*]] = warp.lane_id : i32
  // CHECK: %[[S:.*]] = arith.xori %[[L]], %[[C4]] : i32
  // CHECK: %[[V:.*]] = arith.cmpi ult, %[[S]], %[[C13]] : i32
  // CHECK: %[[F:.*]] = arith.select %[[V]], %[[S]], %[[L]] : i32
  // CHECK: %[[R:.*]], %{{.*}} = warp.shuffle <idx> %[[X]], %[[F]] mask %[[M]] : f32
  // CHECK: memref.store %[[R]]
  // CHECK: memref.store %[[V]]
  // PTX-LABEL: .entry xor_13
  // PTX: mov.u32 [[L:%r[0-9]+]], %laneid;
  // PTX: xor.b32 [[S:%r[0-9]+]], [[L]], 4;
  // PTX: setp.lt.u32 [[P:%p[0-9]+]], [[S]], 13;
  // PTX: selp.b32 [[F:%r[0-9]+]], [[S]], [[L]], [[P]];
  // PTX: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[F]], 31, 8191;
  // PLANTED-LABEL: gpu.func @xor_13
  // PLANTED: gpu.shuffle xor
  gpu.func @xor_13(%in: memref<32xf32>, %out: memref<32xf32>, %ok: memref<32xi1>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %c4 = arith.constant 4 : i32
    %c13 = arith.constant 13 : i32
    %r, %v = gpu.shuffle xor %x, %c4, %c13 : f32
    memref.store %r, %out[%t] : memref<32xf32>
    memref.store %v, %ok[%t] : memref<32xi1>
    gpu.return
  }

  // up over 13 lanes: lane l reads l - o, valid iff l >= o; the whole warp
  // with clamp 0 does exactly that (upstream's lowering's clamp 32 - 13
  // would make every lane below 19 + o keep its own value).
  // CHECK-LABEL: gpu.func @up_13
  // CHECK: %[[M:.*]] = arith.constant 8191 : i32
  // CHECK: warp.shuffle <up> %{{.*}}, %{{.*}} mask %[[M]] : f32
  // CHECK-NOT: arith.select
  // PTX-LABEL: .entry up_13
  // PTX: shfl.sync.up.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, 3, 0, 8191;
  // PLANTED-LABEL: gpu.func @up_13
  // PLANTED: gpu.shuffle up
  gpu.func @up_13(%in: memref<32xf32>, %out: memref<32xf32>, %ok: memref<32xi1>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %c3 = arith.constant 3 : i32
    %c13 = arith.constant 13 : i32
    %r, %v = gpu.shuffle up %x, %c3, %c13 : f32
    memref.store %r, %out[%t] : memref<32xf32>
    memref.store %v, %ok[%t] : memref<32xi1>
    gpu.return
  }

  // down over 13 lanes: valid iff l + o <= 12, PTX's clamp lane 12 over the
  // whole warp (warp.shuffle's `bound`).
  // CHECK-LABEL: gpu.func @down_13
  // CHECK-DAG: %[[B:.*]] = arith.constant 12 : i32
  // CHECK-DAG: %[[M:.*]] = arith.constant 8191 : i32
  // CHECK: warp.shuffle <down> %{{.*}}, %{{.*}} bound %[[B]] mask %[[M]] : f32
  // CHECK-NOT: arith.select
  // PTX-LABEL: .entry down_13
  // PTX: shfl.sync.down.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, 2, 12, 8191;
  gpu.func @down_13(%in: memref<32xf32>, %out: memref<32xf32>, %ok: memref<32xi1>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %c2 = arith.constant 2 : i32
    %c13 = arith.constant 13 : i32
    %r, %v = gpu.shuffle down %x, %c2, %c13 : f32
    memref.store %r, %out[%t] : memref<32xf32>
    memref.store %v, %ok[%t] : memref<32xi1>
    gpu.return
  }

  // idx over 13 lanes: lane 5 is below 13 (one shuffle, valid); lane 20 is
  // not (every lane keeps its own value, not valid: no shuffle at all); a
  // run-time source lane o is compared at run time, and a lane reads
  // `valid ? o & 31 : lane`.
  // CHECK-LABEL: gpu.func @idx_13
  // CHECK-SAME: %[[O:[a-z0-9]+]]: i32)
  // CHECK-DAG: %[[FALSE:.*]] = arith.constant false
  // CHECK-DAG: %[[C5:.*]] = arith.constant 5 : i32
  // CHECK-DAG: %[[C13:.*]] = arith.constant 13 : i32
  // CHECK-DAG: %[[M:.*]] = arith.constant 8191 : i32
  // CHECK: %[[X:.*]] = memref.load
  // CHECK: %[[A:.*]], %[[AV:.*]] = warp.shuffle <idx> %[[X]], %[[C5]] mask %[[M]] : f32
  // CHECK: %[[L:.*]] = warp.lane_id : i32
  // CHECK: %[[S:.*]] = arith.andi %[[O]], %{{.*}} : i32
  // CHECK: %[[V:.*]] = arith.cmpi ult, %[[S]], %[[C13]] : i32
  // CHECK: %[[F:.*]] = arith.select %[[V]], %[[S]], %[[L]] : i32
  // CHECK: %[[B:.*]], %{{.*}} = warp.shuffle <idx> %[[X]], %[[F]] mask %[[M]] : f32
  // CHECK-NOT: warp.shuffle
  // CHECK: memref.store %[[A]], %{{.*}}
  // CHECK: memref.store %[[AV]], %{{.*}}
  // CHECK: memref.store %[[B]], %{{.*}}
  // CHECK: memref.store %[[V]], %{{.*}}
  // CHECK: memref.store %[[X]], %{{.*}}
  // CHECK: memref.store %[[FALSE]], %{{.*}}
  // PTX-LABEL: .entry idx_13
  // PTX: shfl.sync.idx.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, 5, 31, 8191;
  // PTX: selp.b32 [[F:%r[0-9]+]]
  // PTX: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[F]], 31, 8191;
  // PTX-NOT: shfl.sync
  // PTX: ret;
  gpu.func @idx_13(%in: memref<32xf32>, %out: memref<96xf32>, %ok: memref<96xi1>, %o: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %c5 = arith.constant 5 : i32
    %c13 = arith.constant 13 : i32
    %c20 = arith.constant 20 : i32
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %a, %av = gpu.shuffle idx %x, %c5, %c13 : f32
    %b, %bv = gpu.shuffle idx %x, %o, %c13 : f32
    %c, %cv = gpu.shuffle idx %x, %c20, %c13 : f32
    %t1 = arith.addi %t, %c32 : index
    %t2 = arith.addi %t, %c64 : index
    memref.store %a, %out[%t] : memref<96xf32>
    memref.store %av, %ok[%t] : memref<96xi1>
    memref.store %b, %out[%t1] : memref<96xf32>
    memref.store %bv, %ok[%t1] : memref<96xi1>
    memref.store %c, %out[%t2] : memref<96xf32>
    memref.store %cv, %ok[%t2] : memref<96xi1>
    gpu.return
  }

  // A constant power-of-two width: lanes 0..15 are the first segment of
  // CUDA's width 16, where both meanings agree for up, down and xor, so the
  // shuffle stays CUDA's (one shfl.sync, c = ((32 - 16) << 8) | clamp),
  // under upstream's member mask 0xffff. idx agrees for a constant lane
  // below 16 (3); lane 20 is past the width: own value, not valid.
  // CHECK-LABEL: gpu.func @pow2_16
  // CHECK-DAG: %[[M:.*]] = arith.constant 65535 : i32
  // CHECK-DAG: %[[FALSE:.*]] = arith.constant false
  // CHECK: warp.shuffle <xor> %{{.*}}, %{{.*}} width 16 mask %[[M]] : i32
  // CHECK: warp.shuffle <down> %{{.*}}, %{{.*}} width 16 mask %[[M]] : i32
  // CHECK: warp.shuffle <idx> %{{.*}}, %{{.*}} width 16 mask %[[M]] : i32
  // CHECK-NOT: warp.shuffle
  // CHECK-NOT: arith.select
  // CHECK: memref.store %[[FALSE]]
  // PTX-LABEL: .entry pow2_16
  // PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, 4, 4127, 65535;
  // PTX: shfl.sync.down.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, 4, 4127, 65535;
  // PTX: shfl.sync.idx.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, 3, 4127, 65535;
  // PTX-NOT: shfl.sync
  // PTX: ret;
  // PLANTED-LABEL: gpu.func @pow2_16
  // PLANTED: warp.shuffle <xor> %{{.*}}, %{{.*}} width 16 : i32
  gpu.func @pow2_16(%in: memref<32xi32>, %out: memref<128xi32>, %ok: memref<128xi1>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xi32>
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c16 = arith.constant 16 : i32
    %c20 = arith.constant 20 : i32
    %i32 = arith.constant 32 : index
    %i64 = arith.constant 64 : index
    %i96 = arith.constant 96 : index
    %a, %av = gpu.shuffle xor %x, %c4, %c16 : i32
    %b, %bv = gpu.shuffle down %x, %c4, %c16 : i32
    %c, %cv = gpu.shuffle idx %x, %c3, %c16 : i32
    %d, %dv = gpu.shuffle idx %x, %c20, %c16 : i32
    %t1 = arith.addi %t, %i32 : index
    %t2 = arith.addi %t, %i64 : index
    %t3 = arith.addi %t, %i96 : index
    memref.store %a, %out[%t] : memref<128xi32>
    memref.store %av, %ok[%t] : memref<128xi1>
    memref.store %b, %out[%t1] : memref<128xi32>
    memref.store %bv, %ok[%t1] : memref<128xi1>
    memref.store %c, %out[%t2] : memref<128xi32>
    memref.store %cv, %ok[%t2] : memref<128xi1>
    memref.store %d, %out[%t3] : memref<128xi32>
    memref.store %dv, %ok[%t3] : memref<128xi1>
    gpu.return
  }

  // Width 32 is the whole warp: no member mask, as before.
  // CHECK-LABEL: gpu.func @xor_32
  // CHECK: warp.shuffle <xor> %{{.*}}, %{{.*}} : f32
  // CHECK-NOT: arith.select
  // PTX-LABEL: .entry xor_32
  // PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, -1;
  gpu.func @xor_32(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %r, %v = gpu.shuffle xor %x, %c1, %c32 : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }

  // A run-time width, every mode: member mask -1 >> (32 - w) (lanes below
  // w), then up over the whole warp (clamp 0), down with clamp lane w - 1,
  // xor and idx as `valid = source < w` (unsigned) and an idx shuffle from
  // `valid ? source : lane`.
  // CHECK-LABEL: gpu.func @run_time_width
  // CHECK-SAME: %[[O:[a-z0-9]+]]: i32, %[[W:[a-z0-9]+]]: i32)
  // CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
  // CHECK-DAG: %[[ALL:.*]] = arith.constant -1 : i32
  // CHECK: %[[N:.*]] = arith.subi %[[C32]], %[[W]] : i32
  // CHECK: %[[M:.*]] = arith.shrui %[[ALL]], %[[N]] : i32
  // CHECK: warp.shuffle <up> %[[X:.*]], %[[O]] mask %[[M]] : f32
  // CHECK: %[[N2:.*]] = arith.subi %[[C32]], %[[W]] : i32
  // CHECK: %[[M2:.*]] = arith.shrui %[[ALL]], %[[N2]] : i32
  // CHECK: %[[B:.*]] = arith.subi %[[W]], %[[ONE]] : i32
  // CHECK: warp.shuffle <down> %[[X]], %[[O]] bound %[[B]] mask %[[M2]] : f32
  // CHECK: %[[N3:.*]] = arith.subi %[[C32]], %[[W]] : i32
  // CHECK: %[[M3:.*]] = arith.shrui %[[ALL]], %[[N3]] : i32
  // CHECK: %[[L:.*]] = warp.lane_id : i32
  // CHECK: %[[XO:.*]] = arith.andi %[[O]], %[[C31]] : i32
  // CHECK: %[[XS:.*]] = arith.xori %[[L]], %[[XO]] : i32
  // CHECK: %[[XV:.*]] = arith.cmpi ult, %[[XS]], %[[W]] : i32
  // CHECK: %[[XF:.*]] = arith.select %[[XV]], %[[XS]], %[[L]] : i32
  // CHECK: warp.shuffle <idx> %[[X]], %[[XF]] mask %[[M3]] : f32
  // CHECK: %[[N4:.*]] = arith.subi %[[C32]], %[[W]] : i32
  // CHECK: %[[M4:.*]] = arith.shrui %[[ALL]], %[[N4]] : i32
  // CHECK: %[[L2:.*]] = warp.lane_id : i32
  // CHECK: %[[IO:.*]] = arith.andi %[[O]], %[[C31]] : i32
  // CHECK: %[[IV:.*]] = arith.cmpi ult, %[[IO]], %[[W]] : i32
  // CHECK: %[[IF:.*]] = arith.select %[[IV]], %[[IO]], %[[L2]] : i32
  // CHECK: warp.shuffle <idx> %[[X]], %[[IF]] mask %[[M4]] : f32
  // PTX-LABEL: .entry run_time_width
  // PTX: sub.s32 [[N:%r[0-9]+]], 32, [[W:%r[0-9]+]];
  // PTX: shr.u32 [[M:%r[0-9]+]], {{%r[0-9]+}}, [[N]];
  // PTX-DAG: shfl.sync.up.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, [[O:%r[0-9]+]], 0, [[M]];
  // PTX-DAG: add.s32 [[B:%r[0-9]+]], [[W]], -1;
  // PTX-DAG: shfl.sync.down.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, [[O]], [[B]], [[M]];
  // PTX-DAG: mov.u32 [[L:%r[0-9]+]], %laneid;
  // PTX-DAG: and.b32 [[S:%r[0-9]+]], [[O]], 31;
  // PTX-DAG: setp.lt.u32 [[PI:%p[0-9]+]], [[S]], [[W]];
  // PTX-DAG: selp.b32 [[FI:%r[0-9]+]], [[S]], [[L]], [[PI]];
  // PTX-DAG: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[FI]], 31, [[M]];
  // PTX-DAG: xor.b32 [[XS:%r[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}};
  // PTX-DAG: setp.lt.u32 [[PX:%p[0-9]+]], [[XS]], [[W]];
  // PTX-DAG: selp.b32 [[FX:%r[0-9]+]], [[XS]], [[L]], [[PX]];
  // PTX-DAG: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[FX]], 31, [[M]];
  // PTX-NOT: shfl.sync
  // PTX: ret;
  // PLANTED-LABEL: gpu.func @run_time_width
  // PLANTED: warp.shuffle <up> %{{.*}}, %{{.*}} width %{{.*}} : f32
  // PLANTED: warp.shuffle <down> %{{.*}}, %{{.*}} width %{{.*}} : f32
  // PLANTED: warp.shuffle <xor> %{{.*}}, %{{.*}} width %{{.*}} : f32
  // PLANTED: warp.shuffle <idx> %{{.*}}, %{{.*}} width %{{.*}} : f32
  gpu.func @run_time_width(%in: memref<32xf32>, %out: memref<128xf32>, %ok: memref<128xi1>, %o: i32, %w: i32) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %i32 = arith.constant 32 : index
    %i64 = arith.constant 64 : index
    %i96 = arith.constant 96 : index
    %a, %av = gpu.shuffle up %x, %o, %w : f32
    %b, %bv = gpu.shuffle down %x, %o, %w : f32
    %c, %cv = gpu.shuffle xor %x, %o, %w : f32
    %d, %dv = gpu.shuffle idx %x, %o, %w : f32
    %t1 = arith.addi %t, %i32 : index
    %t2 = arith.addi %t, %i64 : index
    %t3 = arith.addi %t, %i96 : index
    memref.store %a, %out[%t] : memref<128xf32>
    memref.store %av, %ok[%t] : memref<128xi1>
    memref.store %b, %out[%t1] : memref<128xf32>
    memref.store %bv, %ok[%t1] : memref<128xi1>
    memref.store %c, %out[%t2] : memref<128xf32>
    memref.store %cv, %ok[%t2] : memref<128xi1>
    memref.store %d, %out[%t3] : memref<128xf32>
    memref.store %dv, %ok[%t3] : memref<128xi1>
    gpu.return
  }

  // A 64-bit payload travels in two shuffles, both from the selected lane.
  // CHECK-LABEL: gpu.func @xor_13_i64
  // CHECK: %[[F:.*]] = arith.select %{{.*}} : i32
  // CHECK: warp.shuffle <idx> %{{.*}}, %[[F]] mask %{{.*}} : i64
  // PTX-LABEL: .entry xor_13_i64
  // PTX: selp.b32 [[F:%r[0-9]+]]
  // PTX-COUNT-2: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[F]], 31, 8191;
  // PTX-NOT: shfl.sync
  // PTX: ret;
  gpu.func @xor_13_i64(%in: memref<32xi64>, %out: memref<32xi64>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xi64>
    %c6 = arith.constant 6 : i32
    %c13 = arith.constant 13 : i32
    %r, %v = gpu.shuffle xor %x, %c6, %c13 : i64
    memref.store %r, %out[%t] : memref<32xi64>
    gpu.return
  }
}
}
