// gpu.subgroup_mma_* fragments carried by loops, branches and scf.if lower
// to nvvm.wmma (convert-warp-mma-to-nvvm, part of the warp pipelines):
// upstream's pipeline alone fails on them ("failed to legalize operation
// 'scf.for'" in convert-nvgpu-to-nvvm). The PTX keeps the K loop (its trip
// count is a kernel argument) with one fragment load per operand and one
// wmma.mma per iteration, and assembles with ptxas.
// RUN: warp-opt %s --pass-pipeline="builtin.module(gpu.module(convert-warp-mma-to-nvvm))" | FileCheck %s --check-prefix=IR
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.sm90.ptx
// RUN: %python %S/../../PTX/ptx_histogram.py --also "wmma\.[a-z.0-9]+" %t.sm90.ptx | FileCheck %s --check-prefix=COUNT --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // IR-LABEL: gpu.func @k_loop
  // IR: %[[ZERO:.*]] = llvm.insertvalue %{{.*}}[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // IR: %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[C:.*]] = %[[ZERO]]) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)
  // IR: nvvm.wmma.load {{.*}}frag = #nvvm.mma_frag<a>
  // IR: nvvm.wmma.load {{.*}}frag = #nvvm.mma_frag<b>
  // IR: %[[D:.*]] = nvvm.wmma.mma
  // IR: scf.yield %[[D]] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // IR: llvm.extractvalue %[[ACC]][0]
  // IR: nvvm.wmma.store
  // IR-NOT: gpu.subgroup_mma
  // IR-NOT: !gpu.mma_matrix
  // COUNT: k_loop: wmma.load.a.sync.aligned.row.m16n16k16.f16=1 wmma.load.b.sync.aligned.row.m16n16k16.f16=1 wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32=1 wmma.store.d.sync.aligned.row.m16n16k16.f32=1
  // PTX-LABEL: .entry k_loop(
  // PTX: [[LOOP:\$L__BB0_[0-9]+]]:
  // PTX: wmma.load.a.sync.aligned.row.m16n16k16.f16
  // PTX: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
  // PTX: bra{{.*}} [[LOOP]];
  // PTX: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @k_loop(%a: memref<16x1024xf16>, %b: memref<1024x16xf16>,
                   %c: memref<16x16xf32>, %k_end: index) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %acc = scf.for %k = %c0 to %k_end step %c16 iter_args(%sum = %init)
        -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %k] {leadDimension = 1024 : index}
          : memref<16x1024xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%k, %c0] {leadDimension = 16 : index}
          : memref<1024x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %next = gpu.subgroup_mma_compute %fa, %fb, %sum
          : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
          -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.subgroup_mma_store_matrix %acc, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }

  // Two accumulators (a 32x16 tile), the B fragment shared, and an scf.if
  // choosing between fragments: every carried fragment is converted.
  // IR-LABEL: gpu.func @k_loop_two_tiles_and_if
  // IR: scf.for {{.*}} -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)
  // IR: scf.if {{.*}} -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)
  // IR-NOT: !gpu.mma_matrix
  // COUNT: k_loop_two_tiles_and_if: wmma.load.a.sync.aligned.row.m16n16k16.f16=2 wmma.load.b.sync.aligned.row.m16n16k16.f16=1 wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32=2 wmma.store.d.sync.aligned.row.m16n16k16.f32=1
  gpu.func @k_loop_two_tiles_and_if(%a: memref<32x1024xf16>, %b: memref<1024x16xf16>,
                                    %c: memref<16x16xf32>, %k_end: index, %upper: i1) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %acc:2 = scf.for %k = %c0 to %k_end step %c16 iter_args(%s0 = %init, %s1 = %init)
        -> (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) {
      %fb = gpu.subgroup_mma_load_matrix %b[%k, %c0] {leadDimension = 16 : index}
          : memref<1024x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %fa0 = gpu.subgroup_mma_load_matrix %a[%c0, %k] {leadDimension = 1024 : index}
          : memref<32x1024xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fa1 = gpu.subgroup_mma_load_matrix %a[%c16, %k] {leadDimension = 1024 : index}
          : memref<32x1024xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %n0 = gpu.subgroup_mma_compute %fa0, %fb, %s0
          : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
          -> !gpu.mma_matrix<16x16xf32, "COp">
      %n1 = gpu.subgroup_mma_compute %fa1, %fb, %s1
          : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
          -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %n0, %n1 : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">
    }
    %pick = scf.if %upper -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      scf.yield %acc#0 : !gpu.mma_matrix<16x16xf32, "COp">
    } else {
      scf.yield %acc#1 : !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.subgroup_mma_store_matrix %pick, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }

  // A fragment on cf block arguments (what scf-to-cf makes of a loop).
  // IR-LABEL: gpu.func @cf_branch
  // IR: cf.br ^bb1({{.*}} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)
  // IR: ^bb1(%{{.*}}: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>):
  // COUNT: cf_branch: wmma.store.d.sync.aligned.row.m16n16k16.f32=1
  gpu.func @cf_branch(%c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %init = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf32, "COp">
    cf.br ^store(%init : !gpu.mma_matrix<16x16xf32, "COp">)
  ^store(%m: !gpu.mma_matrix<16x16xf32, "COp">):
    gpu.subgroup_mma_store_matrix %m, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}
}
