// warp.cluster_reduce / cluster_scan / cluster_broadcast through
// warp-expand-cluster-collectives, then the whole pipeline to PTX that
// ptxas takes for sm_90.
// RUN: warp-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(warp-expand-cluster-collectives))' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: cat %t/known.ptx | FileCheck %s --check-prefix=PTX
// RUN: cat %t/dynamic.ptx | FileCheck %s --check-prefix=DYN
// RUN: grep -c "ld.shared::cluster" %t/known.ptx > %t/counts
// RUN: grep -c "barrier.cluster.arrive" %t/known.ptx >> %t/counts
// RUN: FileCheck %s --check-prefix=COUNTS < %t/counts
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/known.ptx -o %t/a.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/dynamic.ptx -o %t/b.cubin %}

// A cluster of 4 blocks stated by known_cluster_size: the ranks' loop is
// unrolled (4 mapa + ld.shared::cluster for the reduce's fold), two
// cluster barriers an op, one slot buffer of 3 per payload type.
// CHECK-LABEL: gpu.module @known
// CHECK: memref.global "private" @__warp_cluster_slots : memref<3xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// CHECK: gpu.func @k
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: warp.block_reduce <add> %{{.*}} threads = <first> : f32
// CHECK: scf.if
// CHECK: memref.store
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: scf.if
// CHECK-COUNT-4: nvvm.mapa
// CHECK: memref.store
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: memref.load
// The scan: the block scan with its total, the ranks below this block's
// folded for its prefix.
// CHECK: warp.block_scan <add> %{{.*}} exclusive : f32, f32
// CHECK: nvvm.cluster.arrive
// CHECK: scf.if
// CHECK-COUNT-4: nvvm.mapa
// CHECK: nvvm.cluster.arrive
// CHECK: arith.select
// The broadcast: the source parks its value, every thread reads it.
// CHECK: scf.if
// CHECK: nvvm.cluster.arrive
// CHECK: nvvm.mapa
// CHECK: nvvm.cluster.arrive
// CHECK: gpu.return
// PTX: .reqnctapercluster 4, 1, 1
// PTX: mov.u32 {{.*}}, %cluster_ctarank;
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX: ld.shared::cluster.b32
// Every distributed shared memory read: 4 ranks for the reduce, 4 for the
// scan (prefix and total from one read each), 1 for the broadcast; two
// cluster barriers for each of the three ops.
// COUNTS: 9
// COUNTS-NEXT: 6
gpu.module @known [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%x: memref<?xf32>, %out: memref<?xf32>, %out2: memref<?xf32>, %out3: memref<?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_cluster_size = array<i32: 4, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<?xf32>
    %r = warp.cluster_reduce <add> %v : f32
    %s, %tot = warp.cluster_scan <add> %v exclusive : f32
    %c0 = arith.constant 0 : i32
    %c5 = arith.constant 5 : i32
    %b = warp.cluster_broadcast %v, %c0, %c5 : f32
    memref.store %r, %out[%t] : memref<?xf32>
    memref.store %s, %out2[%t] : memref<?xf32>
    memref.store %b, %out3[%t] : memref<?xf32>
    gpu.return
  }
}

// -----

// Clusters of the launch: the block count from %cluster_nctarank, the
// ranks folded in a loop. Two payload types, two slot buffers.
// CHECK-LABEL: gpu.module @dynamic
// CHECK-DAG: memref.global "private" @__warp_cluster_slots{{.*}} : memref<3xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_cluster_slots{{.*}} : memref<3xf64, #gpu.address_space<workgroup>>
// CHECK: nvvm.read.ptx.sreg.cluster.nctarank : i32
// CHECK: warp.block_scan <maxsi> %{{.*}} : i32, i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: nvvm.mapa
// CHECK: arith.maxsi
// CHECK: warp.block_reduce <maxnumf>
// DYN: mov.u32 {{.*}}, %cluster_nctarank;
// DYN: ld.shared::cluster.b32
// DYN: ld.shared::cluster.b64
// DYN-NOT: reqnctapercluster
gpu.module @dynamic [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%x: memref<?xi32>, %y: memref<?xf64>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<?xi32>
    %w = memref.load %y[%t] : memref<?xf64>
    %s, %tot = warp.cluster_scan <maxsi> %v : i32
    %m = warp.cluster_reduce <maxnumf> %w : f64
    memref.store %s, %x[%t] : memref<?xi32>
    memref.store %m, %y[%t] : memref<?xf64>
    gpu.return
  }
}
