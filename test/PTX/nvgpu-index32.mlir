// cp.async (nvgpu.device_async_copy) and a workgroup buffer aligned through
// its address under device-index-bitwidth=32: the copies' memrefs convert at
// the device's index width (warp-convert-nvgpu-to-nvvm; upstream's pass
// converted them at 64 bits and the mismatch failed in LLVM translation),
// the address arithmetic is 32-bit, and a workgroup address may be an index
// (it is an offset into shared memory; a global one is still rejected, see
// device-kernels.test). ptxas assembles the result.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32 ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry copy_tile(
// The dynamic buffer's base rounded up to 256 bytes, in 32 bits (LLVM knows
// the base is 16-byte aligned).
// CHECK: cvt.u32.u64 [[BASE:%r[0-9]+]], %rd{{[0-9]+}};
// CHECK: sub.s32 [[REST:%r[0-9]+]], 256, [[BASE]];
// CHECK: and.b32 {{%r[0-9]+}}, [[REST]], 240;
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0;
// CHECK-NOT: mul.lo.s64
// CHECK: ret;
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy_tile(%src: memref<?x?xf16>, %dst: memref<?x?xf16>, %rows: index) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c255 = arith.constant 255 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %address = memref.extract_aligned_pointer_as_index %base : memref<?xi8, #gpu.address_space<workgroup>> -> index
      %low = arith.andi %address, %c255 : index
      %rest = arith.subi %c256, %low : index
      %shift = arith.andi %rest, %c255 : index
      %tile = memref.view %base[%shift][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x8xf16, #gpu.address_space<workgroup>>
      %row = arith.remui %tid, %rows : index
      %t = nvgpu.device_async_copy %src[%row, %c0], %tile[%tid, %c0], 8 {bypassL1} : memref<?x?xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
      %v = vector.load %tile[%tid, %c0] : memref<64x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      vector.store %v, %dst[%tid, %c0] : memref<?x?xf16>, vector<8xf16>
      gpu.return
    }
  }
}
