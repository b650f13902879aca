// RUN: warp-opt %s --convert-async-gpu-tokens-to-events --split-input-file | FileCheck %s

// A fork: one producer yields its token twice (one event per consumer, the
// stream released once), two consumer regions wait for it on fresh streams
// and yield their own work, the host awaits both.

// The runtime functions are declared with gpu-to-llvm's signatures.
// CHECK-DAG: llvm.func @mgpuEventCreate() -> !llvm.ptr
// CHECK-DAG: llvm.func @mgpuEventRecord(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuStreamDestroy(!llvm.ptr)
// CHECK-DAG: llvm.func @mgpuStreamCreate() -> !llvm.ptr
// CHECK-DAG: llvm.func @mgpuStreamWaitEvent(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuEventDestroy(!llvm.ptr)
// CHECK-LABEL: func.func @fork
// CHECK: %[[T0:.*]], %[[V:.*]]:2 = async.execute -> (!async.value<!llvm.ptr>, !async.value<!llvm.ptr>) {
// CHECK:   %[[COPY:.*]] = gpu.memcpy async
// CHECK:   %[[S:.*]] = builtin.unrealized_conversion_cast %[[COPY]] : !gpu.async.token to !llvm.ptr
// CHECK:   %[[E1:.*]] = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
// CHECK:   llvm.call @mgpuEventRecord(%[[E1]], %[[S]])
// CHECK:   %[[E2:.*]] = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
// CHECK:   llvm.call @mgpuEventRecord(%[[E2]], %[[S]])
// CHECK-NOT: mgpuStreamDestroy
// CHECK:   llvm.call @mgpuStreamDestroy(%[[S]])
// CHECK-NOT: mgpuStreamDestroy
// CHECK:   async.yield %[[E1]], %[[E2]] : !llvm.ptr, !llvm.ptr
// CHECK: async.execute [%[[T0]]] (%[[V]]#0 as %[[EV:.*]]: !async.value<!llvm.ptr>) -> !async.value<!llvm.ptr> {
// CHECK:   %[[NS:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK:   llvm.call @mgpuStreamWaitEvent(%[[NS]], %[[EV]])
// CHECK:   llvm.call @mgpuEventDestroy(%[[EV]])
// CHECK:   %[[NT:.*]] = builtin.unrealized_conversion_cast %[[NS]] : !llvm.ptr to !gpu.async.token
// CHECK:   %[[W:.*]] = gpu.wait async [%[[NT]]]
// CHECK:   %[[L:.*]] = gpu.launch_func async [%[[W]]]
// CHECK:   llvm.call @mgpuEventRecord(%{{.*}}, %{{.*}})
// CHECK:   llvm.call @mgpuStreamDestroy
// CHECK:   async.yield %{{.*}} : !llvm.ptr
// CHECK: async.execute [%[[T0]]] (%[[V]]#1 as %{{.*}}: !async.value<!llvm.ptr>) -> !async.value<!llvm.ptr>
// CHECK:   llvm.call @mgpuStreamWaitEvent
// CHECK: %[[R:.*]] = async.await %{{.*}} : !async.value<!llvm.ptr>
// CHECK: %[[RT:.*]] = builtin.unrealized_conversion_cast %[[R]] : !llvm.ptr to !gpu.async.token
// CHECK: gpu.wait [%[[RT]]]
module attributes {gpu.container_module} {
  func.func @fork(%host: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %t0, %v:2 = async.execute -> (!async.value<!gpu.async.token>, !async.value<!gpu.async.token>) {
      %w = gpu.wait async
      %dev, %a = gpu.alloc async [%w] () : memref<64xi32>
      %copy = gpu.memcpy async [%a] %dev, %host : memref<64xi32>, memref<64xi32>
      async.yield %copy, %copy : !gpu.async.token, !gpu.async.token
    }
    %t1, %v1 = async.execute [%t0] (%v#0 as %tok: !async.value<!gpu.async.token>) -> !async.value<!gpu.async.token> {
      %w = gpu.wait async [%tok]
      %l = gpu.launch_func async [%w] @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      async.yield %l : !gpu.async.token
    }
    %t2, %v2 = async.execute [%t0] (%v#1 as %tok: !async.value<!gpu.async.token>) -> !async.value<!gpu.async.token> {
      %w = gpu.wait async [%tok]
      async.yield %w : !gpu.async.token
    }
    %r1 = async.await %v1 : !async.value<!gpu.async.token>
    gpu.wait [%r1]
    %r2 = async.await %v2 : !async.value<!gpu.async.token>
    gpu.wait [%r2]
    return
  }
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// Regions without GPU tokens are left alone.
// CHECK-LABEL: func.func @plain
// CHECK: async.execute -> !async.value<i32>
// CHECK-NOT: mgpu
// CHECK: return
func.func @plain() {
  %t, %v = async.execute -> !async.value<i32> {
    %c = arith.constant 1 : i32
    async.yield %c : i32
  }
  %r = async.await %v : !async.value<i32>
  return
}
