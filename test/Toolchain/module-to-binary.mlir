// warp-module-to-binary: every gpu.module becomes a gpu.binary of the same
// name, in place and in order, whether the modules serialize on threads or
// one after another; the PTX is the same either way, and upstream's
// gpu-module-to-binary makes the same objects.
// RUN: warp-opt %s --split-input-file --warp-module-to-binary=format=isa | FileCheck %s
// The objects' properties hold the serializer's time, which is left out.
// RUN: warp-opt %s --split-input-file --warp-module-to-binary=format=isa | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //g' > %t.threads
// RUN: warp-opt %s --split-input-file --warp-module-to-binary=format=isa --mlir-disable-threading | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //g' > %t.serial
// RUN: warp-opt %s --split-input-file --gpu-module-to-binary=format=isa | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //g' > %t.upstream
// RUN: diff %t.threads %t.serial
// RUN: diff %t.threads %t.upstream

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-NEXT: llvm.func @host
// CHECK-NOT: gpu.module
// CHECK: gpu.binary @a [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_90{{.*}}.entry k_a{{.*}}shfl.sync.bfly{{.*}}">]
// CHECK-NEXT: gpu.binary @b [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx70">, {{.*}}assembly = "{{.*}}.target sm_80{{.*}}.entry k_b{{.*}}">]
// CHECK-NEXT: gpu.binary @c [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_90{{.*}}.entry k_c{{.*}}">, #gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx70">, {{.*}}assembly = "{{.*}}.target sm_80{{.*}}.entry k_c{{.*}}">]
// CHECK-NEXT: gpu.binary @d [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.entry k_d{{.*}}ex2.approx{{.*}}">]
// CHECK-NEXT: }
module attributes {gpu.container_module} {
  llvm.func @host() {
    llvm.return
  }
  gpu.module @a [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @k_a(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %o = llvm.mlir.constant(16 : i32) : i32
      %c = llvm.mlir.constant(31 : i32) : i32
      %y = nvvm.shfl.sync bfly %m, %x, %o, %c : i32 -> i32
      %s = llvm.add %x, %y : i32
      llvm.store %s, %p : i32, !llvm.ptr<1>
      llvm.return
    }
  }
  gpu.module @b [#nvvm.target<chip = "sm_80", features = "+ptx70">] {
    llvm.func @k_b(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.fmul %x, %x : f32
      llvm.store %y, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
  gpu.module @c [#nvvm.target<chip = "sm_90", features = "+ptx80">,
                 #nvvm.target<chip = "sm_80", features = "+ptx70">] {
    llvm.func @k_c(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> i32
      %y = llvm.mul %x, %x : i32
      llvm.store %y, %p : i32, !llvm.ptr<1>
      llvm.return
    }
  }
  // A module that calls libdevice: the library is linked (its expf is
  // inlined: ex2, no call), as upstream's serializer does.
  gpu.module @d [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @k_d(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.store %y, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

// No gpu.module: nothing changes.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @f
module {
  func.func @f() {
    return
  }
}
