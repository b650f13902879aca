// 8-bit integer wmma (m16n16k16) on sm_72, which brought it: sm_72 got PTX
// 6.2, where LLVM selects these wmma instructions only from PTX 6.3 on
// ("Cannot select"); it gets 6.3 now. The PTX assembles (this CUDA has no
// sm_72 target: for sm_75, which takes sm_72 code).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_72 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas-sm_75 %{ %ptxas -arch=sm_75 %t.ptx -o %t.cubin %}
// CHECK: .version 6.3
// CHECK: .target sm_72
// CHECK: wmma.load.a.sync.aligned.row.m16n16k16.s8
// CHECK: wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8
// CHECK: wmma.store.d.sync.aligned.row.m16n16k16.s32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @int8(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %d = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
      gpu.return
    }
  }
}
