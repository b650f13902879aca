// warp-module-to-binary reports each gpu.module it cannot serialize, in
// module order with threads or without, and replaces none of them.
// RUN: warp-opt %s --verify-diagnostics --warp-module-to-binary=format=isa -o /dev/null
// RUN: warp-opt %s --verify-diagnostics --warp-module-to-binary=format=isa --mlir-disable-threading -o /dev/null
// RUN: not warp-opt %s --warp-module-to-binary=format=isa -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: the gpu.module has no target attribute
// CHECK-NEXT: gpu.module @first
// CHECK: error: the gpu.module has no target attribute
// CHECK-NEXT: gpu.module @third
module attributes {gpu.container_module} {
  // expected-error @below {{the gpu.module has no target attribute to serialize it with (nvvm-attach-target adds one)}}
  gpu.module @first {
  }
  gpu.module @second [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  }
  // expected-error @below {{the gpu.module has no target attribute to serialize it with (nvvm-attach-target adds one)}}
  gpu.module @third {
  }
}
