// warp-lower-vector-ops: upstream's vector rewrites that convert-vector-to-
// llvm applies before converting, for device code: vector ops with no
// direct LLVM form become ones that have one (strided slices become
// shuffles, vector.step a constant, an n-D broadcast per-row ones). Before,
// each of these kernels ended in "missing `LLVMTranslationDialectInterface`
// registration"; now the whole pipeline lowers them and ptxas takes the PTX.
// RUN: warp-opt %s --pass-pipeline="builtin.module(gpu.module(warp-lower-vector-ops))" | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @slices
    // Elements 1 and 2; the insert is shuffles of the two vectors.
    // CHECK: vector.shuffle %[[V:.*]], %[[V]] [1, 2] : vector<4xi32>, vector<4xi32>
    // CHECK-NOT: strided_slice
    // CHECK: gpu.return
    gpu.func @slices(%v: vector<4xi32>, %out: memref<8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %lo = vector.extract_strided_slice %v {offsets = [1], sizes = [2], strides = [1]} : vector<4xi32> to vector<2xi32>
      %r = vector.insert_strided_slice %lo, %v {offsets = [1], strides = [1]} : vector<2xi32> into vector<4xi32>
      vector.store %lo, %out[%c0] : memref<8xi32>, vector<2xi32>
      vector.store %r, %out[%c4] : memref<8xi32>, vector<4xi32>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @step
    // CHECK: arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xindex>
    // CHECK-NOT: vector.step
    gpu.func @step(%out: memref<8xindex>) kernel {
      %c0 = arith.constant 0 : index
      %r = vector.step : vector<8xindex>
      vector.store %r, %out[%c0] : memref<8xindex>, vector<8xindex>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @broadcast
    // CHECK-NOT: vector<2x4xi32>
    // CHECK: gpu.return
    gpu.func @broadcast(%x: vector<4xi32>, %out: memref<8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %b = vector.broadcast %x : vector<4xi32> to vector<2x4xi32>
      %r = vector.shape_cast %b : vector<2x4xi32> to vector<8xi32>
      vector.store %r, %out[%c0] : memref<8xi32>, vector<8xi32>
      gpu.return
    }
  }
}
