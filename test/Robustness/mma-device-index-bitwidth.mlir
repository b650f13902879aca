// MMA kernels with device-index-bitwidth=32: the MMA lowering took its index
// width from a data layout that said 64 bits while the rest of device code
// was lowered at 32, which left casts between the two widths ("LLVM
// Translation failed for operation: builtin.unrealized_conversion_cast").
// The pipeline now puts the device index width in each gpu.module's data
// layout. The kernel ABI stays 64-bit (sizes and strides are .u64
// parameters); the address arithmetic of the loads is 32-bit.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32 ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// The 64-bit default is unchanged.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.64.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.64.ptx -o %t.64.cubin %}

// CHECK-LABEL: .entry subgroup_mma(
// CHECK-COUNT-7: .param .u64
// CHECK: )
// The row offset, block_id.y * 16 rows of 32 elements, computed in 32 bits
// (at 64 bits the product is one mul.wide.u32 by 1024 bytes).
// CHECK: mov.u32 [[BY:%r[0-9]+]], %ctaid.y;
// CHECK-NEXT: shl.b32 %r{{[0-9]+}}, [[BY]], 9;
// CHECK: wmma.load.a.sync.aligned.row.m16n16k16.f16
// CHECK: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32

// CHECK-LABEL: .entry warp_mma(
// CHECK: wmma.load.a.sync.aligned.row.m16n16k16.global.bf16
// CHECK: wmma.mma.sync.aligned.row.row.m16n16k16.f32.bf16.bf16.f32
// CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @subgroup_mma(%a: memref<64x32xf16>, %b: memref<32x16xf16>, %c: memref<?x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %by = gpu.block_id y
      %row = arith.muli %by, %c16 : index
      %zero = arith.constant 0.0 : f32
      %acc0 = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %c32 step %c16 iter_args(%sum = %acc0)
          -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %fa = gpu.subgroup_mma_load_matrix %a[%row, %k] {leadDimension = 32 : index}
            : memref<64x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %fb = gpu.subgroup_mma_load_matrix %b[%k, %c0] {leadDimension = 16 : index}
            : memref<32x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %next = gpu.subgroup_mma_compute %fa, %fb, %sum
            : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
            -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %c[%row, %c0] {leadDimension = 16 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<?x16xf32>
      gpu.return
    }

    gpu.func @warp_mma(%a: memref<?x?xbf16, 1>, %b: memref<?x?xbf16, 1>, %c: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %k_size = memref.dim %a, %c1 : memref<?x?xbf16, 1>
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %acc = scf.for %k = %c0 to %k_size step %c16 iter_args(%sum = %zero) -> (vector<8xf32>) {
        %fa = warp.mma_load %a[%c0, %k] operand = a layout = row shape = m16n16k16 : memref<?x?xbf16, 1> -> vector<8xbf16>
        %fb = warp.mma_load %b[%k, %c0] operand = b layout = row shape = m16n16k16 : memref<?x?xbf16, 1> -> vector<8xbf16>
        %next = warp.mma_compute %fa, %fb, %sum shape = m16n16k16 a_layout = row b_layout = row : vector<8xbf16>, vector<8xf32>
        scf.yield %next : vector<8xf32>
      }
      warp.mma_store %acc, %c[%c0, %c0] layout = row : vector<8xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}
