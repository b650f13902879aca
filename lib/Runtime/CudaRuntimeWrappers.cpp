//===- CudaRuntimeWrappers.cpp - mgpu* over the CUDA driver API -----------===//
//
// The driver is reached through dlopen/dlsym with the few declarations below
// (the driver's C ABI), so the project builds without the CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Runtime/CudaRuntimeWrappers.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <iterator>
#include <mutex>

namespace {

//===----------------------------------------------------------------------===//
// The slice of the CUDA driver API the wrappers use
//===----------------------------------------------------------------------===//

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx *;
using CUmodule = struct CUmod *;
using CUfunction = struct CUfunc *;
using CUstream = struct CUstrm *;
using CUevent = struct CUevt *;
using CUdeviceptr = uint64_t;

constexpr int kJitErrorLogBuffer = 5;          // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogBufferSize = 6;      // ..._SIZE_BYTES
constexpr int kJitOptimizationLevel = 7;       // CU_JIT_OPTIMIZATION_LEVEL
constexpr unsigned kHostRegisterPortable = 1;  // CU_MEMHOSTREGISTER_PORTABLE
constexpr unsigned kHostRegisterDeviceMap = 2; // CU_MEMHOSTREGISTER_DEVICEMAP
constexpr unsigned kMemAttachGlobal = 1;       // CU_MEM_ATTACH_GLOBAL
constexpr unsigned kStreamNonBlocking = 1;     // CU_STREAM_NON_BLOCKING
constexpr int kAttrComputeMajor =
    75; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_*
constexpr int kAttrComputeMinor = 76;
constexpr int kLaunchAttrClusterDimension = 4;

struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream stream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};

/// Spells a function-pointer type where a declarator needs one name.
template <typename T> using Identity = T;

/// Driver entry points, resolved once.
struct Driver {
#define WARP_DRIVER_FUNCTIONS(X)                                               \
  X(cuInit, CUresult (*)(unsigned))                                            \
  X(cuGetErrorName, CUresult (*)(CUresult, const char **))                     \
  X(cuGetErrorString, CUresult (*)(CUresult, const char **))                   \
  X(cuDeviceGetCount, CUresult (*)(int *))                                     \
  X(cuDeviceGet, CUresult (*)(CUdevice *, int))                                \
  X(cuDeviceGetAttribute, CUresult (*)(int *, int, CUdevice))                  \
  X(cuDevicePrimaryCtxRetain, CUresult (*)(CUcontext *, CUdevice))             \
  X(cuCtxSetCurrent, CUresult (*)(CUcontext))                                  \
  X(cuModuleLoadData, CUresult (*)(CUmodule *, const void *))                  \
  X(cuModuleLoadDataEx,                                                        \
    CUresult (*)(CUmodule *, const void *, unsigned, int *, void **))          \
  X(cuModuleUnload, CUresult (*)(CUmodule))                                    \
  X(cuModuleGetFunction, CUresult (*)(CUfunction *, CUmodule, const char *))   \
  X(cuLaunchKernel,                                                            \
    CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, \
                 unsigned, unsigned, CUstream, void **, void **))              \
  X(cuLaunchKernelEx,                                                          \
    CUresult (*)(const LaunchConfig *, CUfunction, void **, void **))          \
  X(cuStreamCreate, CUresult (*)(CUstream *, unsigned))                        \
  X(cuStreamDestroy_v2, CUresult (*)(CUstream))                                \
  X(cuStreamSynchronize, CUresult (*)(CUstream))                               \
  X(cuStreamWaitEvent, CUresult (*)(CUstream, CUevent, unsigned))              \
  X(cuEventCreate, CUresult (*)(CUevent *, unsigned))                          \
  X(cuEventDestroy_v2, CUresult (*)(CUevent))                                  \
  X(cuEventSynchronize, CUresult (*)(CUevent))                                 \
  X(cuEventRecord, CUresult (*)(CUevent, CUstream))                            \
  X(cuMemAlloc_v2, CUresult (*)(CUdeviceptr *, size_t))                        \
  X(cuMemAllocManaged, CUresult (*)(CUdeviceptr *, size_t, unsigned))          \
  X(cuMemFree_v2, CUresult (*)(CUdeviceptr))                                   \
  X(cuMemcpyAsync, CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream))   \
  X(cuMemsetD16Async,                                                          \
    CUresult (*)(CUdeviceptr, unsigned short, size_t, CUstream))               \
  X(cuMemsetD32Async, CUresult (*)(CUdeviceptr, unsigned, size_t, CUstream))   \
  X(cuMemcpyHtoD_v2, CUresult (*)(CUdeviceptr, const void *, size_t))          \
  X(cuMemHostRegister_v2, CUresult (*)(void *, size_t, unsigned))              \
  X(cuMemHostUnregister, CUresult (*)(void *))

#define WARP_DECLARE(name, type) Identity<type> name = nullptr;
  WARP_DRIVER_FUNCTIONS(WARP_DECLARE)
#undef WARP_DECLARE

  void *library = nullptr;
  std::string loadError;
  CUcontext context = nullptr;
  int device = 0;

  /// Loads libcuda.so.1 and resolves every entry point; false (with
  /// loadError set) when the driver is missing or too old.
  bool load() {
    library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *reason = dlerror();
      loadError = std::string("cannot load libcuda.so.1 (is the NVIDIA "
                              "driver installed?): ") +
                  (reason ? reason : "unknown error");
      return false;
    }
#define WARP_RESOLVE(name, type)                                               \
  name = reinterpret_cast<Identity<type>>(dlsym(library, #name));              \
  if (!name) {                                                                 \
    loadError = "the CUDA driver has no " #name " (driver too old?)";          \
    return false;                                                              \
  }
    WARP_DRIVER_FUNCTIONS(WARP_RESOLVE)
#undef WARP_RESOLVE
    return true;
  }
};

Driver &driver();

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "warp-cuda-runtime: %s\n", message.c_str());
  std::fflush(stderr);
  std::exit(1);
}

bool exitOnError = false;

/// The driver function a CHECK_CU expression calls ("cuda().cuMemFree_v2(
/// toDevicePtr(pointer))" reads "cuMemFree_v2"); other call texts as given.
std::string callName(const char *call) {
  std::string text(call);
  for (const char *prefix : {"cuda().", "d."}) {
    size_t start = std::strlen(prefix);
    if (text.rfind(prefix, 0) == 0)
      return text.substr(start, text.find('(', start) - start);
  }
  return text;
}

/// Checks a driver call: on failure reports the call and CUDA's error, then
/// goes on (upstream's runtime does the same) or, with exitOnError, exits.
void check(CUresult result, const char *call) {
  if (result == 0)
    return;
  const char *name = "?", *text = "?";
  driver().cuGetErrorName(result, &name);
  driver().cuGetErrorString(result, &text);
  std::string message = callName(call) + " failed: " + name + " (" +
                        std::to_string(result) + "): " + text;
  if (exitOnError)
    fail(message);
  std::fprintf(stderr, "warp-cuda-runtime: %s\n", message.c_str());
  std::fflush(stderr);
}

#define CHECK_CU(expr) check(expr, #expr)

Driver &driver() {
  static Driver instance;
  static std::once_flag once;
  std::call_once(once, [] {
    if (!instance.load())
      fail(instance.loadError);
  });
  return instance;
}

/// The driver with device `defaultDevice`'s primary context current on this
/// thread (created on first use).
int defaultDevice = 0;
Driver &cuda() {
  Driver &d = driver();
  static std::once_flag once;
  std::call_once(once, [&d] {
    // Without a context nothing else can work: these end the process.
    bool strict = exitOnError;
    exitOnError = true;
    CHECK_CU(d.cuInit(0));
    int count = 0;
    CHECK_CU(d.cuDeviceGetCount(&count));
    if (count == 0)
      fail("no CUDA device found");
    if (defaultDevice < 0 || defaultDevice >= count)
      fail("device " + std::to_string(defaultDevice) + " does not exist (" +
           std::to_string(count) + " CUDA device(s))");
    CUdevice device;
    CHECK_CU(d.cuDeviceGet(&device, defaultDevice));
    CHECK_CU(d.cuDevicePrimaryCtxRetain(&d.context, device));
    d.device = device;
    exitOnError = strict;
  });
  thread_local bool current = false;
  if (!current) {
    CHECK_CU(d.cuCtxSetCurrent(d.context));
    current = true;
  }
  return d;
}

CUdeviceptr toDevicePtr(const void *pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

/// The descriptor of a strided memref of any rank, as the lowering passes it.
struct MemRefDescriptorPrefix {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

/// cuTensorMapEncodeTiled (CUDA 12+), resolved when a program first makes a
/// tensor map, so that older drivers still run everything else.
using EncodeTiled = CUresult (*)(void *tensorMap, int dataType, unsigned rank,
                                 void *globalAddress, const uint64_t *globalDim,
                                 const uint64_t *globalStrides,
                                 const unsigned *boxDim,
                                 const unsigned *elementStrides, int interleave,
                                 int swizzle, int l2Promotion, int oobFill);

/// Bytes of an element of each CUtensorMapDataType, UINT8 (0) to
/// TFLOAT32_FTZ (12).
constexpr int kTensorMapElementBytes[] = {1, 2, 4, 4, 8, 8, 2,
                                          4, 8, 2, 4, 4, 4};
constexpr int kTensorMapBytes = 128; // sizeof(CUtensorMap)

} // namespace

//===----------------------------------------------------------------------===//
// The mgpu* entry points (C ABI of MLIR 22's gpu-to-llvm)
//===----------------------------------------------------------------------===//

extern "C" {

void *mgpuModuleLoad(void *data, size_t /*size*/) {
  CUmodule module = nullptr;
  CHECK_CU(cuda().cuModuleLoadData(&module, data));
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  CUmodule module = nullptr;
  char log[8192] = {0};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize,
                   kJitOptimizationLevel};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUresult result =
      cuda().cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != 0 && log[0])
    std::fprintf(stderr, "warp-cuda-runtime: PTX JIT log:\n%s\n", log);
  check(result, "cuModuleLoadDataEx (PTX JIT)");
  return module;
}

void mgpuModuleUnload(void *module) {
  CHECK_CU(cuda().cuModuleUnload(static_cast<CUmodule>(module)));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  CUfunction function = nullptr;
  CUresult result = cuda().cuModuleGetFunction(
      &function, static_cast<CUmodule>(module), name);
  check(result, (std::string("cuModuleGetFunction(\"") + name + "\")").c_str());
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  CHECK_CU(cuda().cuLaunchKernel(static_cast<CUfunction>(function), gridX,
                                 gridY, gridZ, blockX, blockY, blockZ, smem,
                                 static_cast<CUstream>(stream), params, extra));
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t /*paramsCount*/) {
  LaunchAttribute cluster{};
  cluster.id = kLaunchAttrClusterDimension;
  cluster.value.clusterDim = {unsigned(clusterX), unsigned(clusterY),
                              unsigned(clusterZ)};
  LaunchConfig config{unsigned(gridX),  unsigned(gridY),
                      unsigned(gridZ),  unsigned(blockX),
                      unsigned(blockY), unsigned(blockZ),
                      unsigned(smem),   static_cast<CUstream>(stream),
                      &cluster,         1};
  CHECK_CU(cuda().cuLaunchKernelEx(&config, static_cast<CUfunction>(function),
                                   params, extra));
}

void *mgpuStreamCreate() {
  CUstream stream = nullptr;
  CHECK_CU(cuda().cuStreamCreate(&stream, kStreamNonBlocking));
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  CHECK_CU(cuda().cuStreamDestroy_v2(static_cast<CUstream>(stream)));
}

void mgpuStreamSynchronize(void *stream) {
  CHECK_CU(cuda().cuStreamSynchronize(static_cast<CUstream>(stream)));
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  CHECK_CU(cuda().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                    static_cast<CUevent>(event), 0));
}

void *mgpuEventCreate() {
  CUevent event = nullptr;
  CHECK_CU(cuda().cuEventCreate(&event, 0));
  return event;
}

void mgpuEventDestroy(void *event) {
  CHECK_CU(cuda().cuEventDestroy_v2(static_cast<CUevent>(event)));
}

void mgpuEventSynchronize(void *event) {
  CHECK_CU(cuda().cuEventSynchronize(static_cast<CUevent>(event)));
}

void mgpuEventRecord(void *event, void *stream) {
  CHECK_CU(cuda().cuEventRecord(static_cast<CUevent>(event),
                                static_cast<CUstream>(stream)));
}

void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/, bool isHostShared) {
  CUdeviceptr pointer = 0;
  if (sizeBytes == 0)
    return nullptr;
  if (isHostShared)
    CHECK_CU(cuda().cuMemAllocManaged(&pointer, sizeBytes, kMemAttachGlobal));
  else
    CHECK_CU(cuda().cuMemAlloc_v2(&pointer, sizeBytes));
  return reinterpret_cast<void *>(pointer);
}

void mgpuMemFree(void *pointer, void * /*stream*/) {
  if (pointer)
    CHECK_CU(cuda().cuMemFree_v2(toDevicePtr(pointer)));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  CHECK_CU(cuda().cuMemcpyAsync(toDevicePtr(dst), toDevicePtr(src), sizeBytes,
                                static_cast<CUstream>(stream)));
}

// nvgpu.tma.create.descriptor's host call (convert-nvgpu-to-nvvm): the
// tensor map of the memref behind `descriptor` (rank 1 to 5, row-major
// sizes and element strides, the innermost contiguous) read in boxes of
// `boxDims` elements (outermost first), written to a new 128-byte device
// buffer whose address the kernel's TMA loads take. The enum arguments are
// CUDA's CUtensorMap* values. Like upstream's, the buffer lives as long as
// the process.
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *boxDims) {
  constexpr int64_t kTypes = std::size(kTensorMapElementBytes);
  if (rank < 1 || rank > 5)
    fail("a tensor map has rank 1 to 5, not " + std::to_string(rank));
  if (dataType < 0 || dataType >= kTypes)
    fail("unknown tensor map data type " + std::to_string(dataType));
  Driver &d = cuda();
  static EncodeTiled encode = reinterpret_cast<EncodeTiled>(
      dlsym(d.library, "cuTensorMapEncodeTiled"));
  if (!encode)
    fail("the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or newer "
         "is needed for TMA)");
  auto *memref = static_cast<MemRefDescriptorPrefix *>(descriptor);
  const int64_t *sizes = memref->sizesAndStrides;
  const int64_t *strides = sizes + rank;
  int64_t element = kTensorMapElementBytes[dataType];
  // The driver counts dimensions innermost first, and strides in bytes for
  // all but the innermost.
  uint64_t globalDim[5], globalStrides[4];
  unsigned boxDim[5], elementStrides[5];
  for (int64_t i = 0; i < rank; ++i) {
    globalDim[i] = uint64_t(sizes[rank - 1 - i]);
    boxDim[i] = unsigned(boxDims[rank - 1 - i]);
    elementStrides[i] = 1;
    if (i + 1 < rank)
      globalStrides[i] = uint64_t(strides[rank - 2 - i] * element);
  }
  char *base = static_cast<char *>(memref->aligned) + memref->offset * element;
  alignas(64) unsigned char map[kTensorMapBytes];
  check(encode(map, int(dataType), unsigned(rank), base, globalDim,
               globalStrides, boxDim, elementStrides, int(interleave),
               int(swizzle), int(l2Promotion), int(oobFill)),
        "cuTensorMapEncodeTiled");
  CUdeviceptr onDevice = 0;
  CHECK_CU(d.cuMemAlloc_v2(&onDevice, kTensorMapBytes));
  CHECK_CU(d.cuMemcpyHtoD_v2(onDevice, map, kTensorMapBytes));
  return reinterpret_cast<void *>(onDevice);
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  CHECK_CU(cuda().cuMemsetD16Async(toDevicePtr(dst), value, count,
                                   static_cast<CUstream>(stream)));
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  CHECK_CU(cuda().cuMemsetD32Async(toDevicePtr(dst), value, count,
                                   static_cast<CUstream>(stream)));
}

void mgpuMemHostRegister(void *pointer, uint64_t sizeBytes) {
  CHECK_CU(cuda().cuMemHostRegister_v2(
      pointer, sizeBytes, kHostRegisterPortable | kHostRegisterDeviceMap));
}

void mgpuMemHostUnregister(void *pointer) {
  CHECK_CU(cuda().cuMemHostUnregister(pointer));
}

/// Registers the whole allocation a memref descriptor of `rank` describes.
void mgpuMemHostRegisterMemRef(int64_t rank, MemRefDescriptorPrefix *desc,
                               int64_t elementSizeBytes) {
  const int64_t *sizes = desc->sizesAndStrides;
  const int64_t *strides = desc->sizesAndStrides + rank;
  int64_t extent = 1; // elements spanned: 1 + sum((size - 1) * stride)
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] == 0)
      return;
    extent += (sizes[i] - 1) * strides[i];
  }
  char *start =
      static_cast<char *>(desc->aligned) + desc->offset * elementSizeBytes;
  mgpuMemHostRegister(start, extent * elementSizeBytes);
}

void mgpuMemHostUnregisterMemRef(int64_t /*rank*/, MemRefDescriptorPrefix *desc,
                                 int64_t elementSizeBytes) {
  mgpuMemHostUnregister(static_cast<char *>(desc->aligned) +
                        desc->offset * elementSizeBytes);
}

void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

} // extern "C"

//===----------------------------------------------------------------------===//
// Queries and the symbol table
//===----------------------------------------------------------------------===//

void mlir::warp::runtime::setExitOnCudaError(bool exit) { exitOnError = exit; }

bool mlir::warp::runtime::isCudaDeviceAvailable(std::string &why) {
  Driver probe;
  if (!probe.load()) {
    why = probe.loadError;
    return false;
  }
  int count = 0;
  if (probe.cuInit(0) != 0 || probe.cuDeviceGetCount(&count) != 0 ||
      count == 0) {
    why = "the CUDA driver loads but reports no device";
    return false;
  }
  return true;
}

std::string mlir::warp::runtime::getDefaultDeviceChip() {
  Driver &d = cuda();
  int major = 0, minor = 0;
  CHECK_CU(d.cuDeviceGetAttribute(&major, kAttrComputeMajor, d.device));
  CHECK_CU(d.cuDeviceGetAttribute(&minor, kAttrComputeMinor, d.device));
  return "sm_" + std::to_string(major) + std::to_string(minor);
}
