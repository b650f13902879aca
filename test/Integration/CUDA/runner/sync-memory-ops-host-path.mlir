// sync-memory-ops.mlir's host code without a GPU: each synchronous memory
// op runs on a stream of its own, synchronized before the next op. A
// stand-in libcuda.so.1 logs the driver calls (kernels do not run under
// it). Before warp-make-gpu-memory-ops-async the pipeline failed in the
// translation to LLVM IR, at an unrelated op.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %S/sync-memory-ops.mlir --entry-point-result=void > %t/out 2> %t/err
// RUN: FileCheck %s --input-file=%t/err

// CHECK: cuda: cuStreamCreate
// CHECK-NEXT: cuda: cuMemAlloc bytes=128
// CHECK-NEXT: cuda: cuStreamSynchronize
// CHECK-NEXT: cuda: cuStreamDestroy
// CHECK-NEXT: cuda: cuStreamCreate
// CHECK-NEXT: cuda: cuMemcpy bytes=128
// CHECK-NEXT: cuda: cuStreamSynchronize
// CHECK-NEXT: cuda: cuStreamDestroy
// CHECK: cuda: cuLaunchKernel grid=(1,1,1) block=(32,1,1) smem=0
// CHECK: cuda: cuMemcpy bytes=128
// CHECK-NEXT: cuda: cuStreamSynchronize
// The dealloc's stream, the memset's buffer and its copy back.
// CHECK: cuda: cuMemAlloc bytes=32
// CHECK: cuda: cuMemcpy bytes=32
// CHECK-NEXT: cuda: cuStreamSynchronize
// CHECK-NOT: error
