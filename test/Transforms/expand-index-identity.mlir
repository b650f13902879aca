// The identities of minsi and maxsi over index (INT_MAX and INT_MIN) depend
// on the width index lowers to (64 bits, or 32 with device-index-bitwidth=32):
// an arith.constant of index holds 64 bits, which truncate to -1 and 0 at 32.
// They are built with the index dialect, whose folders fold only what both
// widths agree on: INT_MAX = -1 >> 1 (logical), INT_MIN = INT_MAX xor -1;
// LLVM folds them once the width is known (test/Sim/index-identity-32.mlir
// runs them at both widths). The other identities are the same bits at any
// width: arith constants.
// RUN: warp-opt %s --warp-expand-collectives | FileCheck %s
// RUN: warp-opt %s --warp-expand-block-collectives | FileCheck %s --check-prefix=BLOCK

// CHECK-LABEL: func @exclusive_minsi
// CHECK-DAG: %[[ONES:.*]] = index.constant -1
// CHECK-DAG: %[[ONE:.*]] = index.constant 1
// CHECK: %[[MAX:.*]] = index.shru %[[ONES]], %[[ONE]]
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[MAX]] : index
// CHECK: return %[[R]]
func.func @exclusive_minsi(%x: index) -> index {
  %r = warp.scan <minsi> %x exclusive : index
  return %r : index
}

// CHECK-LABEL: func @exclusive_maxsi_vector
// CHECK-DAG: %[[ONES:.*]] = index.constant -1
// CHECK-DAG: %[[ONE:.*]] = index.constant 1
// CHECK: %[[MAX:.*]] = index.shru %[[ONES]], %[[ONE]]
// CHECK: %[[MIN:.*]] = index.xor %[[MAX]], %[[ONES]]
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[MIN]] : index to vector<2xindex>
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[SPLAT]] : vector<2xindex>
// CHECK: return %[[R]]
func.func @exclusive_maxsi_vector(%x: vector<2xindex>) -> vector<2xindex> {
  %r = warp.scan <maxsi> %x exclusive : vector<2xindex>
  return %r : vector<2xindex>
}

// minui's identity, all ones, is -1 at any width.
// CHECK-LABEL: func @exclusive_minui
// CHECK-NOT: index.
// CHECK: arith.constant -1 : index
// CHECK-NOT: index.
// CHECK: return
func.func @exclusive_minui(%x: index) -> index {
  %r = warp.scan <minui> %x exclusive : index
  return %r : index
}

// A raking exclusive block scan gives thread 0 the identity; a block
// reduction pads warp 0's lanes past the last warp with it.
// BLOCK-LABEL: gpu.func @block_ops
// BLOCK: %[[ONES:.*]] = index.constant -1
// BLOCK: %[[MAX:.*]] = index.shru %[[ONES]], %{{.*}}
// BLOCK: arith.select %{{.*}}, %[[MAX]], %{{.*}} : index
// BLOCK: %[[ONES2:.*]] = index.constant -1
// BLOCK: %[[MAX2:.*]] = index.shru %[[ONES2]], %{{.*}}
// BLOCK: %[[MIN:.*]] = index.xor %[[MAX2]], %[[ONES2]]
// BLOCK: scf.yield %[[MIN]] : index
// BLOCK: warp.reduce <maxsi>
gpu.module @m {
  gpu.func @block_ops(%x: index, %out: memref<2xindex>) kernel {
    %s = warp.block_scan <minsi> %x exclusive algorithm = <raking> : index
    %r = warp.block_reduce <maxsi> %x : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %out[%c0] : memref<2xindex>
    memref.store %r, %out[%c1] : memref<2xindex>
    gpu.return
  }
}
