// The gpu.modules are translated to LLVM IR with their target's data
// layout (warp-module-to-binary sets llvm.data_layout): a load or store
// that states no alignment gets its type's alignment there, i64 on 8
// bytes, where LLVM's default layout (i64 on 4) made NVPTX split every i64
// access into two 32-bit ones. Global, shared, and with 32-bit indices.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa" | warp-opt --warp-print-isa -o /dev/null | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32" | warp-opt --warp-print-isa -o /dev/null | FileCheck %s

// CHECK: .entry copy
// CHECK-NOT: .b32 {{.*}}[
// CHECK: ld.global.b64
// CHECK-NOT: .b32 {{.*}}[
// CHECK: st.shared.b64
// CHECK-NOT: .b32 {{.*}}[
// CHECK: ld.shared.b64
// CHECK-NOT: .b32 {{.*}}[
// CHECK: st.global.b64
// CHECK-NOT: .b32 {{.*}}[
// CHECK: ret;

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<64xi64>, %out: memref<64xi64>)
        workgroup(%stage : memref<64xi64, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c63 = arith.constant 63 : index
      %x = memref.load %in[%t] : memref<64xi64>
      memref.store %x, %stage[%t] : memref<64xi64, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63, %t : index
      %y = memref.load %stage[%r] : memref<64xi64, #gpu.address_space<workgroup>>
      memref.store %y, %out[%t] : memref<64xi64>
      gpu.return
    }
  }
}
