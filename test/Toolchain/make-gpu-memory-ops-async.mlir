// RUN: warp-opt %s --warp-make-gpu-memory-ops-async --split-input-file | FileCheck %s

// Each synchronous memory op gets a stream of its own: a gpu.wait async
// before it, its async form on that token, a gpu.wait for it after it; the
// op's uses take the new op's results.
// CHECK-LABEL: func.func @sync
// CHECK-SAME: (%[[N:.*]]: index, %[[H:.*]]: memref<?xf32>, %[[V:.*]]: f32)
// CHECK-NEXT: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[N]]) : memref<?xf32>
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NEXT: %[[T2:.*]] = gpu.wait async
// CHECK-NEXT: %[[T3:.*]] = gpu.memset async [%[[T2]]] %[[D]], %[[V]] : memref<?xf32>, f32
// CHECK-NEXT: gpu.wait [%[[T3]]]
// CHECK-NEXT: %[[T4:.*]] = gpu.wait async
// CHECK-NEXT: %[[T5:.*]] = gpu.memcpy async [%[[T4]]] %[[H]], %[[D]] : memref<?xf32>, memref<?xf32>
// CHECK-NEXT: gpu.wait [%[[T5]]]
// CHECK-NEXT: %[[T6:.*]] = gpu.wait async
// CHECK-NEXT: %[[T7:.*]] = gpu.dealloc async [%[[T6]]] %[[D]] : memref<?xf32>
// CHECK-NEXT: gpu.wait [%[[T7]]]
// CHECK-NEXT: return
func.func @sync(%n: index, %h: memref<?xf32>, %v: f32) {
  %d = gpu.alloc (%n) : memref<?xf32>
  gpu.memset %d, %v : memref<?xf32>, f32
  gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32>
  gpu.dealloc %d : memref<?xf32>
  return
}

// -----

// A synchronous op's own dependencies are what the first wait waits for;
// async ops and host-shared allocations (which upstream converts only
// synchronously) are left as they are.
// CHECK-LABEL: func.func @kept
// CHECK: %[[A:.*]] = gpu.wait async
// CHECK-NEXT: %[[B:.*]] = gpu.wait async
// CHECK-NEXT: %[[T:.*]] = gpu.wait async [%[[A]], %[[B]]]
// CHECK-NEXT: %{{.*}}, %[[T1:.*]] = gpu.alloc async [%[[T]]] () : memref<4xi32>
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NEXT: %{{.*}} = gpu.alloc  host_shared () : memref<4xi32>
// CHECK-NEXT: %[[C:.*]] = gpu.wait async
// CHECK-NEXT: %{{.*}}, %[[T2:.*]] = gpu.alloc async [%[[C]]] () : memref<8xi32>
// CHECK-NEXT: gpu.wait [%[[T2]]]
// CHECK-NEXT: return
func.func @kept() {
  %a = gpu.wait async
  %b = gpu.wait async
  %m = gpu.alloc [%a, %b] () : memref<4xi32>
  %s = gpu.alloc host_shared () : memref<4xi32>
  %c = gpu.wait async
  %x, %t = gpu.alloc async [%c] () : memref<8xi32>
  gpu.wait [%t]
  return
}
