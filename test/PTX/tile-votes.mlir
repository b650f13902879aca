// PTX of a tile's ballot and votes (warp.ballot / warp.vote with `width`
// below 32): vote.sync.ballot and the shift or mask to the tile; the
// warp's vote stays one vote.sync. Assembled by ptxas for sm_70 (as sm_75:
// CUDA 13's ptxas has no sm_70) and sm_90.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.sm70.ptx
// RUN: FileCheck %s --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm70-ptx %{ %ptxas-accepts -arch=%ptxas-sm70-chip %t.sm70.ptx -o %t.sm70.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas-accepts -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

// The 8-lane ballot and the 4-lane all (the ballot of the negated
// predicate) are a ballot each, shifted to the tile; the warp's any stays
// one vote.sync.any.
// CHECK-LABEL: .entry tiles(
// CHECK: vote.sync.ballot.b32
// CHECK: shr.u32
// CHECK: vote.sync.ballot.b32
// CHECK-NOT: vote.sync.ballot
// CHECK: vote.sync.any.pred
// CHECK-NOT: vote.sync
// CHECK: ret;
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @tiles(%out: memref<?xi32, 1>, %flags: memref<?xi1, 1>) kernel {
    %t = gpu.thread_id x
    %p = memref.load %flags[%t] : memref<?xi1, 1>
    %b = warp.ballot %p width 8 : i32
    %all = warp.vote <all> %p width 4 : i1
    %any = warp.vote <any> %p : i1
    %a = arith.extui %all : i1 to i32
    %y = arith.extui %any : i1 to i32
    %s = arith.addi %b, %a : i32
    %r = arith.addi %s, %y : i32
    memref.store %r, %out[%t] : memref<?xi32, 1>
    gpu.return
  }
}
}
