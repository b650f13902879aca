// A gpu.module's own NVVM target for the pipeline's chip gives way to the
// pipeline's (one object, not two); one for another chip is an error.
// RUN: warp-opt %s --split-input-file --warp-reconcile-targets=chip=sm_90 | FileCheck %s
// RUN: warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PIPE
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa" | grep -o "#gpu.object<" | wc -l | FileCheck %s --check-prefix=OBJECTS
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/same_chip.ptx -o %t/a.cubin %}

// CHECK-LABEL: gpu.module @same_chip {
// PIPE: gpu.binary @same_chip [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}>]
// PIPE-NOT: #gpu.object
gpu.module @same_chip [#nvvm.target<chip = "sm_90">, #nvvm.target<O = 1, chip = "sm_90", features = "+ptx81">] {
  gpu.func @k(%out: memref<32xi32>) kernel {
    %lane = warp.lane_id : i32
    %sum = warp.reduce <add> %lane : i32
    %i = arith.index_cast %lane : i32 to index
    memref.store %sum, %out[%i] : memref<32xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @no_target {
// PIPE: gpu.binary @no_target [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}>]
gpu.module @no_target {
}

// Two modules, one object each.
// OBJECTS: {{^}}2{{$}}
