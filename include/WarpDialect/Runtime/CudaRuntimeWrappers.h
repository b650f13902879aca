//===- CudaRuntimeWrappers.h - the mgpu* runtime for GPU programs -*- C++
//-*-===//
//
// The `mgpu*` entry points that MLIR 22's gpu-to-llvm lowering and gpu.binary
// module loading call, implemented against the CUDA driver API. libcuda.so.1
// is loaded with dlopen on first use, so nothing here needs a GPU or the CUDA
// toolkit to build. Every failing driver call reports which call failed and
// CUDA's error name and string, then exits with status 1. The entry points
// and the printing functions (MemRefPrinting.cpp) are extern "C" symbols a
// JIT resolves in the executable that links this library.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_RUNTIME_CUDARUNTIMEWRAPPERS_H
#define WARPDIALECT_RUNTIME_CUDARUNTIMEWRAPPERS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlir::warp::runtime {

/// Whether a CUDA driver loads and reports at least one device; on failure
/// `why` says what is missing.
bool isCudaDeviceAvailable(std::string &why);

/// The compute capability of the default device as `sm_XY`. Call only when
/// isCudaDeviceAvailable() said yes: a driver failure ends the process.
std::string getDefaultDeviceChip();

} // namespace mlir::warp::runtime

#endif // WARPDIALECT_RUNTIME_CUDARUNTIMEWRAPPERS_H
