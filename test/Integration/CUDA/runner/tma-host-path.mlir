// The host side of tma.mlir without a GPU: nvgpu.tma.create.descriptor
// lowers to mgpuTensorMapEncodeTiledMemref, which hands the driver the
// memref's sizes and byte strides innermost first (12 x 12 f32: dims 12,12,
// a row stride of 48 bytes), the box innermost first, CUDA's enums for the
// descriptor type's attributes (f32 is 7; no interleave, swizzle or L2
// promotion; out-of-bounds elements zero), then copies the map to a 128-byte
// device buffer; the kernel launch takes the buffer's address. A stand-in
// libcuda.so.1 logs the calls (kernels do not run under it).
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -shared -fPIC -o %t/libcuda.so.1 %S/../stub-driver/stub_libcuda.c
// RUN: env LD_LIBRARY_PATH=%t warp-cuda-runner %S/tma.mlir --entry-point-result=void > %t/out 2> %t/err
// RUN: FileCheck %s --input-file=%t/err

// CHECK: cuda: cuTensorMapEncodeTiled type=7 rank=2 dims=12,12 strides=48 box=8/1,8/1 interleave=0 swizzle=0 l2=0 oob=0
// CHECK-NEXT: cuda: cuMemAlloc bytes=128
// CHECK-NEXT: cuda: cuMemcpyHtoD bytes=128
// CHECK-NEXT: cuda: cuModuleGetFunction move_tile
// CHECK-NOT: failed
// CHECK: cuda: cuLaunchKernel grid=(1,1,1) block=(64,1,1)
