// async=true: async-dialect host code is lowered with the GPU code in it.
// GPU ops inside async.execute become asynchronous (streams, events), the
// regions coroutines driven by the mlirAsyncRuntime* functions, and nothing
// of the async dialect is left. (warp-cuda-runner sets the option when a
// program uses the dialect: runner/async-host-path.mlir runs this lowering.)
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa async=true ptx-output=%t.ptx" | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa async=true" | FileCheck %s --check-prefix=EVENTS

// CHECK-NOT: async.
// CHECK-DAG: llvm.call @mlirAsyncRuntimeExecute
// CHECK-DAG: llvm.call @mlirAsyncRuntimeAwaitTokenAndExecute
// CHECK-DAG: llvm.call @mlirAsyncRuntimeEmplaceToken
// CHECK-DAG: llvm.call @mlirAsyncRuntimeAwaitToken
// CHECK-DAG: llvm.call @mgpuStreamCreate
// CHECK-DAG: llvm.call @mgpuMemcpy
// CHECK-DAG: gpu.launch_func <%{{.*}} : !llvm.ptr> @main_kernel::@main_kernel
// CHECK-NOT: async.

// GPU work crosses the regions as CUDA events: the copy's region records
// one on its stream and releases the stream, the kernel's region launches on
// a fresh stream that waits for it (and destroys it), the host synchronizes
// on the kernel region's event (convert-async-gpu-tokens-to-events).
// EVENTS-LABEL: llvm.func @main(
// EVENTS: %[[HOSTEV:.*]] = llvm.load
// EVENTS: llvm.call @mgpuEventSynchronize(%[[HOSTEV]])
// EVENTS-NEXT: llvm.call @mgpuEventDestroy(%[[HOSTEV]])
// EVENTS-LABEL: llvm.func @async_execute_fn(
// EVENTS: %[[COPYS:.*]] = llvm.call @mgpuStreamCreate()
// EVENTS: llvm.call @mgpuMemcpy({{.*}}, %[[COPYS]])
// EVENTS-NEXT: %[[COPYEV:.*]] = llvm.call @mgpuEventCreate()
// EVENTS-NEXT: llvm.call @mgpuEventRecord(%[[COPYEV]], %[[COPYS]])
// EVENTS-NEXT: llvm.call @mgpuStreamDestroy(%[[COPYS]])
// EVENTS-LABEL: llvm.func @async_execute_fn_0(
// EVENTS: %[[KS:.*]] = llvm.call @mgpuStreamCreate()
// EVENTS-NEXT: llvm.call @mgpuStreamWaitEvent(%[[KS]], %[[WAITEV:[0-9]+]])
// EVENTS-NEXT: llvm.call @mgpuEventDestroy(%[[WAITEV]])
// EVENTS: gpu.launch_func <%[[KS]] : !llvm.ptr>
// EVENTS-NEXT: %[[KEV:.*]] = llvm.call @mgpuEventCreate()
// EVENTS-NEXT: llvm.call @mgpuEventRecord(%[[KEV]], %[[KS]])
// EVENTS-NEXT: llvm.call @mgpuStreamDestroy(%[[KS]])

// PTX: .visible .entry main_kernel(
// PTX-COUNT-5: shfl.sync.bfly

module attributes {gpu.container_module} {
  func.func @main(%host: memref<32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %t0, %f0 = async.execute () -> !async.value<memref<32xf32>> {
      %dev = gpu.alloc() : memref<32xf32>
      gpu.memcpy %dev, %host : memref<32xf32>, memref<32xf32>
      async.yield %dev : memref<32xf32>
    }
    %t1 = async.execute [%t0] (%f0 as %dev : !async.value<memref<32xf32>>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
        %x = memref.load %dev[%tx] : memref<32xf32>
        %s = warp.reduce <add> %x : f32
        memref.store %s, %dev[%tx] : memref<32xf32>
        gpu.terminator
      }
      async.yield
    }
    async.await %t1 : !async.token
    return
  }
}
