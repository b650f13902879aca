/* A stand-in libcuda.so.1 for machines without a GPU: every driver call the
 * runtime wrappers make succeeds and is logged to stderr with its arguments,
 * so tests can check what warp-cuda-runner asks of the driver. Kernels do not
 * run; device memory is host memory. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LOG(...) (fprintf(stderr, "cuda: " __VA_ARGS__), fputc('\n', stderr))

int cuInit(unsigned flags) { LOG("cuInit"); return 0; }
int cuGetErrorName(int e, const char **s) { *s = "STUB_ERROR"; return 0; }
int cuGetErrorString(int e, const char **s) { *s = "stub error"; return 0; }
int cuDeviceGetCount(int *count) { *count = 1; return 0; }
int cuDeviceGet(int *device, int ordinal) { *device = ordinal; return 0; }
int cuDeviceGetAttribute(int *value, int attribute, int device) {
  *value = attribute == 75 ? 9 : 0; /* compute capability 9.0 */
  return 0;
}
int cuDevicePrimaryCtxRetain(void **context, int device) {
  *context = (void *)0x1;
  LOG("cuDevicePrimaryCtxRetain device=%d", device);
  return 0;
}
int cuCtxSetCurrent(void *context) { return 0; }
int cuModuleLoadData(void **module, const void *image) {
  *module = (void *)0x10;
  LOG("cuModuleLoadData");
  return 0;
}
int cuModuleLoadDataEx(void **module, const void *image, unsigned n,
                       int *options, void **values) {
  *module = (void *)0x10;
  LOG("cuModuleLoadDataEx ptx=%d options=%u", ((const char *)image)[0] == '/',
      n);
  return 0;
}
int cuModuleUnload(void *module) { LOG("cuModuleUnload"); return 0; }
int cuModuleGetFunction(void **function, void *module, const char *name) {
  *function = (void *)0x20;
  LOG("cuModuleGetFunction %s", name);
  /* A missing kernel is CUDA_ERROR_NOT_FOUND (500). */
  return name[0] == 'm' ? 0 : 500;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned smem, void *stream,
                   void **params, void **extra) {
  LOG("cuLaunchKernel grid=(%u,%u,%u) block=(%u,%u,%u) smem=%u", gx, gy, gz,
      bx, by, bz, smem);
  return 0;
}
int cuLaunchKernelEx(const void *config, void *f, void **params, void **extra) {
  LOG("cuLaunchKernelEx");
  return 0;
}
int cuStreamCreate(void **stream, unsigned flags) {
  *stream = (void *)0x30;
  LOG("cuStreamCreate");
  return 0;
}
int cuStreamDestroy_v2(void *stream) { LOG("cuStreamDestroy"); return 0; }
int cuStreamSynchronize(void *stream) { LOG("cuStreamSynchronize"); return 0; }
int cuStreamWaitEvent(void *s, void *e, unsigned f) { return 0; }
int cuEventCreate(void **event, unsigned flags) { *event = (void *)0x40; return 0; }
int cuEventDestroy_v2(void *event) { return 0; }
int cuEventSynchronize(void *event) { return 0; }
int cuEventRecord(void *event, void *stream) { return 0; }
int cuMemAlloc_v2(uint64_t *pointer, size_t bytes) {
  *pointer = (uint64_t)(uintptr_t)malloc(bytes);
  LOG("cuMemAlloc bytes=%zu", bytes);
  return 0;
}
int cuMemAllocManaged(uint64_t *pointer, size_t bytes, unsigned flags) {
  *pointer = (uint64_t)(uintptr_t)malloc(bytes);
  return 0;
}
int cuMemFree_v2(uint64_t pointer) { free((void *)(uintptr_t)pointer); return 0; }
int cuMemcpyAsync(uint64_t dst, uint64_t src, size_t bytes, void *stream) {
  LOG("cuMemcpy bytes=%zu", bytes);
  return 0;
}
int cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes) {
  LOG("cuMemcpyHtoD bytes=%zu", bytes);
  return 0;
}
/* The tensor map's dimensions, strides and box, innermost first. */
int cuTensorMapEncodeTiled(void *map, int type, unsigned rank, void *address,
                           const uint64_t *dims, const uint64_t *strides,
                           const unsigned *box, const unsigned *elementStrides,
                           int interleave, int swizzle, int l2, int oob) {
  fprintf(stderr, "cuda: cuTensorMapEncodeTiled type=%d rank=%u dims=", type,
          rank);
  for (unsigned i = 0; i < rank; ++i)
    fprintf(stderr, "%s%llu", i ? "," : "", (unsigned long long)dims[i]);
  fprintf(stderr, " strides=");
  for (unsigned i = 0; i + 1 < rank; ++i)
    fprintf(stderr, "%s%llu", i ? "," : "", (unsigned long long)strides[i]);
  fprintf(stderr, " box=");
  for (unsigned i = 0; i < rank; ++i)
    fprintf(stderr, "%s%u/%u", i ? "," : "", box[i], elementStrides[i]);
  fprintf(stderr, " interleave=%d swizzle=%d l2=%d oob=%d\n", interleave,
          swizzle, l2, oob);
  return 0;
}
int cuMemsetD16Async(uint64_t d, unsigned short v, size_t n, void *s) { return 0; }
int cuMemsetD32Async(uint64_t d, unsigned v, size_t n, void *s) { return 0; }
int cuMemHostRegister_v2(void *pointer, size_t bytes, unsigned flags) {
  LOG("cuMemHostRegister bytes=%zu flags=%u", bytes, flags);
  return 0;
}
int cuMemHostUnregister(void *pointer) { return 0; }
