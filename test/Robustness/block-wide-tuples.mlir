// warp.block_scan over tuples of 7 or more values with a combine region
// (issue 28, item 6): the warp scan the block expansion builds returns the
// scans then the totals, and it took the totals' types by appending its
// type list to itself, which read freed memory once the list outgrew its
// inline storage (7 values and up) and gave the scan garbage types or a
// crash. The payloads mix types so that a wrong type in either half fails
// the check. Each kernel must expand to a warp.scan whose types are the
// tuple's twice, lower to PTX and assemble; block_reduce over 7 and 16
// values too.
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // Warps' inclusive scans (scans and totals), then warp 0 scans the totals.
  // CHECK-LABEL: gpu.func @scan7
  // CHECK: warp.scan {{.*}} : i32, f32, i64, f64, i16, f16, i8, i32, f32, i64, f64, i16, f16, i8 combine
  // CHECK: warp.scan {{.*}} : i32, f32, i64, f64, i16, f16, i8, i32, f32, i64, f64, i16, f16, i8 combine
  // CHECK: gpu.return
  // PTX-LABEL: .entry scan7(
  // PTX: ret;
  gpu.func @scan7(%o0: memref<?xi32>, %o1: memref<?xf32>, %o2: memref<?xi64>, %o3: memref<?xf64>, %o4: memref<?xi16>, %o5: memref<?xf16>, %o6: memref<?xi8>, %a0: i32, %a1: f32, %a2: i64, %a3: f64, %a4: i16, %a5: f16, %a6: i8) kernel {
    %t = gpu.thread_id x
    %r:7 = warp.block_scan %a0, %a1, %a2, %a3, %a4, %a5, %a6 : i32, f32, i64, f64, i16, f16, i8 combine (%x0: i32, %x1: f32, %x2: i64, %x3: f64, %x4: i16, %x5: f16, %x6: i8, %y0: i32, %y1: f32, %y2: i64, %y3: f64, %y4: i16, %y5: f16, %y6: i8) {
      %z0 = arith.addi %x0, %y0 : i32
      %z1 = arith.addf %x1, %y1 : f32
      %z2 = arith.addi %x2, %y2 : i64
      %z3 = arith.addf %x3, %y3 : f64
      %z4 = arith.addi %x4, %y4 : i16
      %z5 = arith.addf %x5, %y5 : f16
      %z6 = arith.addi %x6, %y6 : i8
      warp.yield %z0, %z1, %z2, %z3, %z4, %z5, %z6 : i32, f32, i64, f64, i16, f16, i8
    }
    memref.store %r#0, %o0[%t] : memref<?xi32>
    memref.store %r#1, %o1[%t] : memref<?xf32>
    memref.store %r#2, %o2[%t] : memref<?xi64>
    memref.store %r#3, %o3[%t] : memref<?xf64>
    memref.store %r#4, %o4[%t] : memref<?xi16>
    memref.store %r#5, %o5[%t] : memref<?xf16>
    memref.store %r#6, %o6[%t] : memref<?xi8>
    gpu.return
  }

  // Exclusive, with init and the block total: warp 0's scan of the warps'
  // totals carries the init.
  // CHECK-LABEL: gpu.func @scan8
  // CHECK: warp.scan {{.*}} : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32 combine
  // CHECK: warp.scan {{.*}} exclusive init {{.*}} : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32 combine
  // CHECK: gpu.return
  // PTX-LABEL: .entry scan8(
  // PTX: ret;
  gpu.func @scan8(%o0: memref<?xi32>, %o1: memref<?xf32>, %o2: memref<?xi64>, %o3: memref<?xf64>, %o4: memref<?xi16>, %o5: memref<?xf16>, %o6: memref<?xi8>, %o7: memref<?xf32>, %o8: memref<?xi32>, %o9: memref<?xf32>, %o10: memref<?xi64>, %o11: memref<?xf64>, %o12: memref<?xi16>, %o13: memref<?xf16>, %o14: memref<?xi8>, %o15: memref<?xf32>, %a0: i32, %a1: f32, %a2: i64, %a3: f64, %a4: i16, %a5: f16, %a6: i8, %a7: f32, %i0: i32, %i1: f32, %i2: i64, %i3: f64, %i4: i16, %i5: f16, %i6: i8, %i7: f32) kernel {
    %t = gpu.thread_id x
    %r:16 = warp.block_scan %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7 exclusive init %i0, %i1, %i2, %i3, %i4, %i5, %i6, %i7 : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32 combine (%x0: i32, %x1: f32, %x2: i64, %x3: f64, %x4: i16, %x5: f16, %x6: i8, %x7: f32, %y0: i32, %y1: f32, %y2: i64, %y3: f64, %y4: i16, %y5: f16, %y6: i8, %y7: f32) {
      %z0 = arith.addi %x0, %y0 : i32
      %z1 = arith.addf %x1, %y1 : f32
      %z2 = arith.addi %x2, %y2 : i64
      %z3 = arith.addf %x3, %y3 : f64
      %z4 = arith.addi %x4, %y4 : i16
      %z5 = arith.addf %x5, %y5 : f16
      %z6 = arith.addi %x6, %y6 : i8
      %z7 = arith.addf %x7, %y7 : f32
      warp.yield %z0, %z1, %z2, %z3, %z4, %z5, %z6, %z7 : i32, f32, i64, f64, i16, f16, i8, f32
    }
    memref.store %r#0, %o0[%t] : memref<?xi32>
    memref.store %r#1, %o1[%t] : memref<?xf32>
    memref.store %r#2, %o2[%t] : memref<?xi64>
    memref.store %r#3, %o3[%t] : memref<?xf64>
    memref.store %r#4, %o4[%t] : memref<?xi16>
    memref.store %r#5, %o5[%t] : memref<?xf16>
    memref.store %r#6, %o6[%t] : memref<?xi8>
    memref.store %r#7, %o7[%t] : memref<?xf32>
    memref.store %r#8, %o8[%t] : memref<?xi32>
    memref.store %r#9, %o9[%t] : memref<?xf32>
    memref.store %r#10, %o10[%t] : memref<?xi64>
    memref.store %r#11, %o11[%t] : memref<?xf64>
    memref.store %r#12, %o12[%t] : memref<?xi16>
    memref.store %r#13, %o13[%t] : memref<?xf16>
    memref.store %r#14, %o14[%t] : memref<?xi8>
    memref.store %r#15, %o15[%t] : memref<?xf32>
    gpu.return
  }

  // Raking (128 threads, so that 16 rake buffers fit in shared memory):
  // warp 0 scans the segment totals, 16 scans then 16 totals.
  // CHECK-LABEL: gpu.func @scan16
  // CHECK: warp.scan {{.*}} : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32 combine
  // CHECK: gpu.return
  // PTX-LABEL: .entry scan16(
  // PTX: ret;
  gpu.func @scan16(%o0: memref<?xi32>, %o1: memref<?xf32>, %o2: memref<?xi64>, %o3: memref<?xf64>, %o4: memref<?xi16>, %o5: memref<?xf16>, %o6: memref<?xi8>, %o7: memref<?xf32>, %o8: memref<?xi32>, %o9: memref<?xf32>, %o10: memref<?xi64>, %o11: memref<?xf64>, %o12: memref<?xi16>, %o13: memref<?xf16>, %o14: memref<?xi8>, %o15: memref<?xf32>, %a0: i32, %a1: f32, %a2: i64, %a3: f64, %a4: i16, %a5: f16, %a6: i8, %a7: f32, %a8: i32, %a9: f32, %a10: i64, %a11: f64, %a12: i16, %a13: f16, %a14: i8, %a15: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %r:16 = warp.block_scan %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15 algorithm = <raking> : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32 combine (%x0: i32, %x1: f32, %x2: i64, %x3: f64, %x4: i16, %x5: f16, %x6: i8, %x7: f32, %x8: i32, %x9: f32, %x10: i64, %x11: f64, %x12: i16, %x13: f16, %x14: i8, %x15: f32, %y0: i32, %y1: f32, %y2: i64, %y3: f64, %y4: i16, %y5: f16, %y6: i8, %y7: f32, %y8: i32, %y9: f32, %y10: i64, %y11: f64, %y12: i16, %y13: f16, %y14: i8, %y15: f32) {
      %z0 = arith.addi %x0, %y0 : i32
      %z1 = arith.addf %x1, %y1 : f32
      %z2 = arith.addi %x2, %y2 : i64
      %z3 = arith.addf %x3, %y3 : f64
      %z4 = arith.addi %x4, %y4 : i16
      %z5 = arith.addf %x5, %y5 : f16
      %z6 = arith.addi %x6, %y6 : i8
      %z7 = arith.addf %x7, %y7 : f32
      %z8 = arith.addi %x8, %y8 : i32
      %z9 = arith.addf %x9, %y9 : f32
      %z10 = arith.addi %x10, %y10 : i64
      %z11 = arith.addf %x11, %y11 : f64
      %z12 = arith.addi %x12, %y12 : i16
      %z13 = arith.addf %x13, %y13 : f16
      %z14 = arith.addi %x14, %y14 : i8
      %z15 = arith.addf %x15, %y15 : f32
      warp.yield %z0, %z1, %z2, %z3, %z4, %z5, %z6, %z7, %z8, %z9, %z10, %z11, %z12, %z13, %z14, %z15 : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32
    }
    memref.store %r#0, %o0[%t] : memref<?xi32>
    memref.store %r#1, %o1[%t] : memref<?xf32>
    memref.store %r#2, %o2[%t] : memref<?xi64>
    memref.store %r#3, %o3[%t] : memref<?xf64>
    memref.store %r#4, %o4[%t] : memref<?xi16>
    memref.store %r#5, %o5[%t] : memref<?xf16>
    memref.store %r#6, %o6[%t] : memref<?xi8>
    memref.store %r#7, %o7[%t] : memref<?xf32>
    memref.store %r#8, %o8[%t] : memref<?xi32>
    memref.store %r#9, %o9[%t] : memref<?xf32>
    memref.store %r#10, %o10[%t] : memref<?xi64>
    memref.store %r#11, %o11[%t] : memref<?xf64>
    memref.store %r#12, %o12[%t] : memref<?xi16>
    memref.store %r#13, %o13[%t] : memref<?xf16>
    memref.store %r#14, %o14[%t] : memref<?xi8>
    memref.store %r#15, %o15[%t] : memref<?xf32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @reduce7
  // CHECK: warp.reduce {{.*}} : i32, f32, i64, f64, i16, f16, i8 combine
  // CHECK: gpu.return
  // PTX-LABEL: .entry reduce7(
  // PTX: ret;
  gpu.func @reduce7(%o0: memref<?xi32>, %o1: memref<?xf32>, %o2: memref<?xi64>, %o3: memref<?xf64>, %o4: memref<?xi16>, %o5: memref<?xf16>, %o6: memref<?xi8>, %a0: i32, %a1: f32, %a2: i64, %a3: f64, %a4: i16, %a5: f16, %a6: i8) kernel {
    %t = gpu.thread_id x
    %r:7 = warp.block_reduce %a0, %a1, %a2, %a3, %a4, %a5, %a6 : i32, f32, i64, f64, i16, f16, i8 combine (%x0: i32, %x1: f32, %x2: i64, %x3: f64, %x4: i16, %x5: f16, %x6: i8, %y0: i32, %y1: f32, %y2: i64, %y3: f64, %y4: i16, %y5: f16, %y6: i8) {
      %z0 = arith.addi %x0, %y0 : i32
      %z1 = arith.addf %x1, %y1 : f32
      %z2 = arith.addi %x2, %y2 : i64
      %z3 = arith.addf %x3, %y3 : f64
      %z4 = arith.addi %x4, %y4 : i16
      %z5 = arith.addf %x5, %y5 : f16
      %z6 = arith.addi %x6, %y6 : i8
      warp.yield %z0, %z1, %z2, %z3, %z4, %z5, %z6 : i32, f32, i64, f64, i16, f16, i8
    }
    memref.store %r#0, %o0[%t] : memref<?xi32>
    memref.store %r#1, %o1[%t] : memref<?xf32>
    memref.store %r#2, %o2[%t] : memref<?xi64>
    memref.store %r#3, %o3[%t] : memref<?xf64>
    memref.store %r#4, %o4[%t] : memref<?xi16>
    memref.store %r#5, %o5[%t] : memref<?xf16>
    memref.store %r#6, %o6[%t] : memref<?xi8>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @reduce16
  // CHECK: warp.reduce {{.*}} : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32 combine
  // CHECK: gpu.return
  // PTX-LABEL: .entry reduce16(
  // PTX: ret;
  gpu.func @reduce16(%o0: memref<?xi32>, %o1: memref<?xf32>, %o2: memref<?xi64>, %o3: memref<?xf64>, %o4: memref<?xi16>, %o5: memref<?xf16>, %o6: memref<?xi8>, %o7: memref<?xf32>, %o8: memref<?xi32>, %o9: memref<?xf32>, %o10: memref<?xi64>, %o11: memref<?xf64>, %o12: memref<?xi16>, %o13: memref<?xf16>, %o14: memref<?xi8>, %o15: memref<?xf32>, %a0: i32, %a1: f32, %a2: i64, %a3: f64, %a4: i16, %a5: f16, %a6: i8, %a7: f32, %a8: i32, %a9: f32, %a10: i64, %a11: f64, %a12: i16, %a13: f16, %a14: i8, %a15: f32) kernel {
    %t = gpu.thread_id x
    %r:16 = warp.block_reduce %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15 : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32 combine (%x0: i32, %x1: f32, %x2: i64, %x3: f64, %x4: i16, %x5: f16, %x6: i8, %x7: f32, %x8: i32, %x9: f32, %x10: i64, %x11: f64, %x12: i16, %x13: f16, %x14: i8, %x15: f32, %y0: i32, %y1: f32, %y2: i64, %y3: f64, %y4: i16, %y5: f16, %y6: i8, %y7: f32, %y8: i32, %y9: f32, %y10: i64, %y11: f64, %y12: i16, %y13: f16, %y14: i8, %y15: f32) {
      %z0 = arith.addi %x0, %y0 : i32
      %z1 = arith.addf %x1, %y1 : f32
      %z2 = arith.addi %x2, %y2 : i64
      %z3 = arith.addf %x3, %y3 : f64
      %z4 = arith.addi %x4, %y4 : i16
      %z5 = arith.addf %x5, %y5 : f16
      %z6 = arith.addi %x6, %y6 : i8
      %z7 = arith.addf %x7, %y7 : f32
      %z8 = arith.addi %x8, %y8 : i32
      %z9 = arith.addf %x9, %y9 : f32
      %z10 = arith.addi %x10, %y10 : i64
      %z11 = arith.addf %x11, %y11 : f64
      %z12 = arith.addi %x12, %y12 : i16
      %z13 = arith.addf %x13, %y13 : f16
      %z14 = arith.addi %x14, %y14 : i8
      %z15 = arith.addf %x15, %y15 : f32
      warp.yield %z0, %z1, %z2, %z3, %z4, %z5, %z6, %z7, %z8, %z9, %z10, %z11, %z12, %z13, %z14, %z15 : i32, f32, i64, f64, i16, f16, i8, f32, i32, f32, i64, f64, i16, f16, i8, f32
    }
    memref.store %r#0, %o0[%t] : memref<?xi32>
    memref.store %r#1, %o1[%t] : memref<?xf32>
    memref.store %r#2, %o2[%t] : memref<?xi64>
    memref.store %r#3, %o3[%t] : memref<?xf64>
    memref.store %r#4, %o4[%t] : memref<?xi16>
    memref.store %r#5, %o5[%t] : memref<?xf16>
    memref.store %r#6, %o6[%t] : memref<?xi8>
    memref.store %r#7, %o7[%t] : memref<?xf32>
    memref.store %r#8, %o8[%t] : memref<?xi32>
    memref.store %r#9, %o9[%t] : memref<?xf32>
    memref.store %r#10, %o10[%t] : memref<?xi64>
    memref.store %r#11, %o11[%t] : memref<?xf64>
    memref.store %r#12, %o12[%t] : memref<?xi16>
    memref.store %r#13, %o13[%t] : memref<?xf16>
    memref.store %r#14, %o14[%t] : memref<?xi8>
    memref.store %r#15, %o15[%t] : memref<?xf32>
    gpu.return
  }
}
}
