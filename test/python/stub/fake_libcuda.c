/* A stand-in libcuda.so.1 for launch()'s driver path without a GPU: every
 * call the Python launcher makes succeeds and is logged to stderr with its
 * arguments (device memory is host memory, copies are real, kernels do not
 * run). FAKE_CUDA_DEVICES sets the device count (default 2) and
 * FAKE_CUDA_PARAMS how many 8-byte kernel parameters cuLaunchKernel logs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG(...) (fprintf(stderr, "cuda: " __VA_ARGS__), fputc('\n', stderr))

static int devices(void) {
  const char *n = getenv("FAKE_CUDA_DEVICES");
  return n ? atoi(n) : 2;
}

int cuInit(unsigned flags) { return 0; }
int cuGetErrorName(int e, const char **s) { *s = "FAKE_ERROR"; return 0; }
int cuGetErrorString(int e, const char **s) { *s = "fake error"; return 0; }
int cuDeviceGetCount(int *count) { *count = devices(); return 0; }
int cuDeviceGet(int *device, int ordinal) { *device = ordinal; return 0; }
int cuDevicePrimaryCtxRetain(void **context, int device) {
  *context = (void *)(uintptr_t)(0x100 + device);
  LOG("cuDevicePrimaryCtxRetain device=%d", device);
  return 0;
}
int cuCtxSetCurrent(void *context) {
  LOG("cuCtxSetCurrent context=%#lx", (unsigned long)(uintptr_t)context);
  return 0;
}
int cuCtxSynchronize(void) { LOG("cuCtxSynchronize"); return 0; }
int cuModuleLoadData(void **module, const void *image) {
  *module = (void *)0x10;
  LOG("cuModuleLoadData ptx=%d", strncmp((const char *)image, "//", 2) == 0);
  return 0;
}
int cuModuleGetFunction(void **function, void *module, const char *name) {
  *function = (void *)0x20;
  LOG("cuModuleGetFunction %s", name);
  return 0;
}
int cuPointerGetAttribute(void *data, int attribute, uint64_t pointer) {
  /* Device ordinal (9): pointers at or above 0x100000000000 are device 1's. */
  if (attribute != 9)
    return 1;
  *(int *)data = pointer >= 0x100000000000ull ? 1 : 0;
  return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned smem, void *stream,
                   void **params, void **extra) {
  LOG("cuLaunchKernel grid=(%u,%u,%u) block=(%u,%u,%u) smem=%u stream=%#lx", gx,
      gy, gz, bx, by, bz, smem, (unsigned long)(uintptr_t)stream);
  const char *n = getenv("FAKE_CUDA_PARAMS");
  for (int i = 0; n && i < atoi(n); ++i) {
    uint64_t word = 0;
    memcpy(&word, params[i], sizeof(word));
    LOG("param %d = %#llx", i, (unsigned long long)word);
  }
  return 0;
}
int cuStreamSynchronize(void *stream) {
  LOG("cuStreamSynchronize stream=%#lx", (unsigned long)(uintptr_t)stream);
  return 0;
}
int cuMemAlloc_v2(uint64_t *pointer, size_t bytes) {
  *pointer = (uint64_t)(uintptr_t)malloc(bytes);
  LOG("cuMemAlloc bytes=%zu", bytes);
  return 0;
}
int cuMemFree_v2(uint64_t pointer) { free((void *)(uintptr_t)pointer); return 0; }
int cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes) {
  memcpy((void *)(uintptr_t)dst, src, bytes);
  LOG("cuMemcpyHtoD bytes=%zu", bytes);
  return 0;
}
int cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes) {
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  LOG("cuMemcpyDtoH bytes=%zu", bytes);
  return 0;
}
