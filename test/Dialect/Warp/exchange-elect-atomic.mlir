// warp.exchange, warp.elect and warp.atomic_add round-trip three ways.
// RUN: warp-opt %s | warp-opt | FileCheck %s
// RUN: warp-opt %s --mlir-print-op-generic | warp-opt | FileCheck %s
// RUN: warp-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @exchange
func.func @exchange(%b: vector<8xf32>, %d: vector<16xf64>, %i: vector<4xi64>, %t: vector<3xi32>)
    -> (vector<8xf32>, vector<16xf64>, vector<4xi64>, vector<3xi32>) {
  // CHECK: warp.exchange <blocked_to_striped> %{{.*}} : vector<8xf32>
  // GENERIC: "warp.exchange"(%{{.*}}) <{direction = #warp.exchange_direction<blocked_to_striped>}> : (vector<8xf32>) -> vector<8xf32>
  %0 = warp.exchange <blocked_to_striped> %b : vector<8xf32>
  // CHECK: warp.exchange <striped_to_blocked> %{{.*}} strategy = <shared> : vector<16xf64>
  // GENERIC: strategy = #warp.exchange_strategy<shared>
  %1 = warp.exchange <striped_to_blocked> %d strategy = <shared> : vector<16xf64>
  // CHECK: warp.exchange <blocked_to_striped> %{{.*}} strategy = <shuffle> : vector<4xi64>
  %2 = warp.exchange <blocked_to_striped> %i strategy = <shuffle> : vector<4xi64>
  // Any N up to 32 through shared memory (the compiler's choice here).
  // CHECK: warp.exchange <striped_to_blocked> %{{.*}} : vector<3xi32>
  %3 = warp.exchange <striped_to_blocked> %t : vector<3xi32>
  return %0, %1, %2, %3 : vector<8xf32>, vector<16xf64>, vector<4xi64>, vector<3xi32>
}

// CHECK-LABEL: func @elect
func.func @elect(%m: i32) -> (i1, i1) {
  // CHECK: warp.elect : i1
  // GENERIC: "warp.elect"() : () -> i1
  %0 = warp.elect : i1
  // CHECK: warp.elect mask %{{.*}} : i1
  %1 = warp.elect mask %m : i1
  return %0, %1 : i1, i1
}

// CHECK-LABEL: func @atomic_add
func.func @atomic_add(%h: memref<256xi32>, %bin: index, %f: memref<?x?xf32>, %i: index, %j: index,
                      %w: f32, %m: i32, %d: memref<?xf64, #gpu.address_space<workgroup>>, %x: f64,
                      %l: memref<8xi64>, %y: i64) -> (i32, f32, f64, i64) {
  %one = arith.constant 1 : i32
  // CHECK: warp.atomic_add %{{.*}}, %{{.*}}[%{{.*}}] : i32, memref<256xi32>
  // GENERIC: "warp.atomic_add"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (i32, memref<256xi32>, index) -> i32
  %0 = warp.atomic_add %one, %h[%bin] : i32, memref<256xi32>
  // CHECK: warp.atomic_add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mask %{{.*}} : f32, memref<?x?xf32>
  %1 = warp.atomic_add %w, %f[%i, %j] mask %m : f32, memref<?x?xf32>
  // CHECK: warp.atomic_add %{{.*}}, %{{.*}}[%{{.*}}] : f64, memref<?xf64, #gpu.address_space<workgroup>>
  %2 = warp.atomic_add %x, %d[%i] : f64, memref<?xf64, #gpu.address_space<workgroup>>
  // CHECK: warp.atomic_add %{{.*}}, %{{.*}}[%{{.*}}] : i64, memref<8xi64>
  %3 = warp.atomic_add %y, %l[%i] : i64, memref<8xi64>
  return %0, %1, %2, %3 : i32, f32, f64, i64
}
