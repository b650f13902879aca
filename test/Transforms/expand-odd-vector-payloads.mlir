// Reduce, scan and block ops over a vector of 8- or 16-bit elements whose
// length is not a power of two work on the vector padded with zeros to the
// next power of two (vector<3xi8> -> vector<4xi8>) and cut the results back:
// LLVM's backend holds the odd vector in the registers of the padded one
// with the extra element undefined, which the combines and shuffle words
// carried into the results, and a scratch slot of the odd vector was read
// past its end (test/Sim/odd-subword-vectors.mlir runs them).
// RUN: warp-opt %s --warp-expand-collectives | FileCheck %s
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s --check-prefix=BLOCK

// CHECK-LABEL: func @reduce_v3i8
// CHECK-SAME: (%[[X:.*]]: vector<3xi8>
// CHECK: %[[Z:.*]] = arith.constant dense<0> : vector<3xi8>
// CHECK: %[[P:.*]] = vector.shuffle %[[X]], %[[Z]] [0, 1, 2, 3] : vector<3xi8>, vector<3xi8>
// CHECK: warp.shuffle <down> %[[P]], {{.*}} : vector<4xi8>
// CHECK: arith.addi {{.*}} : vector<4xi8>
// CHECK: %[[R:.*]], %{{.*}} = warp.shuffle <idx> {{.*}} : vector<4xi8>
// CHECK: %[[CUT:.*]] = vector.shuffle %[[R]], %[[R]] [0, 1, 2] : vector<4xi8>, vector<4xi8>
// CHECK: return %[[CUT]] : vector<3xi8>
func.func @reduce_v3i8(%x: vector<3xi8>, %h: i1) -> vector<3xi8> {
  %r = warp.reduce <add> %x heads %h lanes = <all> : vector<3xi8>
  return %r : vector<3xi8>
}

// A combiner region takes the first three elements of its padded arguments
// and its result is padded again; init is padded like the values.
// CHECK-LABEL: func @scan_region_v3f16
// CHECK-SAME: (%[[X:.*]]: vector<3xf16>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<3xf16>
// CHECK: %[[P:.*]] = vector.shuffle %[[X]], %[[Z]] [0, 1, 2, 3]
// CHECK: %[[I:.*]] = vector.shuffle %[[X]], %[[Z]] [0, 1, 2, 3]
// CHECK: %[[S:.*]], %{{.*}} = warp.shuffle <up> %[[P]], {{.*}} : vector<4xf16>
// CHECK: %[[A:.*]] = vector.shuffle %[[S]], %[[S]] [0, 1, 2] : vector<4xf16>, vector<4xf16>
// CHECK: %[[B:.*]] = vector.shuffle %[[P]], %[[P]] [0, 1, 2] : vector<4xf16>, vector<4xf16>
// CHECK: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : vector<3xf16>
// CHECK: vector.shuffle %[[SUM]], %[[Z]] [0, 1, 2, 3] : vector<3xf16>, vector<3xf16>
// CHECK: %[[LAST:.*]] = arith.select {{.*}}, {{.*}}, %[[I]] : vector<4xf16>
// CHECK: %[[CUT:.*]] = vector.shuffle %[[LAST]], %[[LAST]] [0, 1, 2]
// CHECK: return %[[CUT]] : vector<3xf16>
func.func @scan_region_v3f16(%x: vector<3xf16>) -> vector<3xf16> {
  %r = warp.scan %x exclusive init %x : vector<3xf16> combine (%a: vector<3xf16>, %b: vector<3xf16>) {
    %s = arith.addf %a, %b : vector<3xf16>
    warp.yield %s : vector<3xf16>
  }
  return %r : vector<3xf16>
}

// Power-of-two lengths, 32-bit elements and i1 stay as they are.
// CHECK-LABEL: func @unchanged
// CHECK-NOT: vector.shuffle
// CHECK: return
func.func @unchanged(%a: vector<4xi8>, %b: vector<2xf16>, %c: vector<3xf32>, %d: vector<3xi1>) -> (vector<4xi8>, vector<2xf16>, vector<3xf32>, vector<3xi1>) {
  %0 = warp.reduce <add> %a : vector<4xi8>
  %1 = warp.scan <add> %b : vector<2xf16>
  %2 = warp.reduce <add> %c : vector<3xf32>
  %3 = warp.reduce <xor> %d : vector<3xi1>
  return %0, %1, %2, %3 : vector<4xi8>, vector<2xf16>, vector<3xf32>, vector<3xi1>
}

// block_broadcast's scratch slots are vector<4xi16>: 8 bytes each, what
// LLVM allocates and loads for a vector<3xi16> too.
// BLOCK: memref.global "private" @__warp_block_scratch : memref<132xvector<4xi16>, #gpu.address_space<workgroup>>
// BLOCK-LABEL: gpu.func @broadcast_v3i16
// BLOCK-SAME: (%[[X:.*]]: vector<3xi16>
// BLOCK: %[[Z:.*]] = arith.constant dense<0> : vector<3xi16>
// BLOCK: %[[P:.*]] = vector.shuffle %[[X]], %[[Z]] [0, 1, 2, 3] : vector<3xi16>, vector<3xi16>
// BLOCK: memref.store %[[P]], %{{.*}} : memref<132xvector<4xi16>, #gpu.address_space<workgroup>>
// BLOCK: gpu.barrier
// BLOCK: %[[L:.*]] = memref.load %{{.*}} : memref<132xvector<4xi16>, #gpu.address_space<workgroup>>
// BLOCK: %[[CUT:.*]] = vector.shuffle %[[L]], %[[L]] [0, 1, 2] : vector<4xi16>, vector<4xi16>
// BLOCK: memref.store %[[CUT]], %{{.*}} : memref<vector<3xi16>>
gpu.module @m {
  gpu.func @broadcast_v3i16(%x: vector<3xi16>, %src: i32, %out: memref<vector<3xi16>>) kernel {
    %r = warp.block_broadcast %x, %src : vector<3xi16>
    memref.store %r, %out[] : memref<vector<3xi16>>
    gpu.return
  }
}
