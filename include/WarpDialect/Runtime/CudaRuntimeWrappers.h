//===- CudaRuntimeWrappers.h - the mgpu* runtime for GPU programs -*- C++ -*-===//
//
// The `mgpu*` entry points that MLIR 22's gpu-to-llvm lowering and gpu.binary
// module loading call, implemented against the CUDA driver API. libcuda.so.1
// is loaded with dlopen on first use, so nothing here needs a GPU or the CUDA
// toolkit to build. Every failing driver call reports which call failed and
// CUDA's error name and string, then exits with status 1.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_RUNTIME_CUDARUNTIMEWRAPPERS_H
#define WARPDIALECT_RUNTIME_CUDARUNTIMEWRAPPERS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::warp::runtime {

/// Name and address of every runtime entry point, for a JIT's symbol map.
std::vector<std::pair<const char *, void *>> getCudaRuntimeSymbols();

/// Name and address of the memref/vector printing functions mlir-runner's
/// support libraries provide (printMemrefF32, printF32, printNewline, ...).
std::vector<std::pair<const char *, void *>> getPrintingSymbols();

/// Whether a CUDA driver loads and reports at least one device; on failure
/// `why` says what is missing.
bool isCudaDeviceAvailable(std::string &why);

/// The compute capability of device 0 as `sm_XY` (or `sm_90a` for 9.0, whose
/// arch-specific features the driver accepts), or an empty string.
std::string getDefaultDeviceChip();

} // namespace mlir::warp::runtime

#endif // WARPDIALECT_RUNTIME_CUDARUNTIMEWRAPPERS_H
