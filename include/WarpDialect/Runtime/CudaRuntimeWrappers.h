//===- CudaRuntimeWrappers.h - the mgpu* runtime for GPU programs -*- C++
//-*-===//
//
// The `mgpu*` entry points that MLIR 22's gpu-to-llvm lowering and gpu.binary
// module loading call, implemented against the CUDA driver API. libcuda.so.1
// is loaded with dlopen on first use, so nothing here needs a GPU or the CUDA
// toolkit to build. A failing driver call is reported on stderr (which call,
// CUDA's error name and string) and the program goes on, as upstream's
// runtime does: after a device-side assert the runner prints the assertion
// and the failed synchronization and exits 0 (setExitOnCudaError(true) makes
// every failure end the process with status 1 instead). The entry points
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

/// Whether a failing driver call ends the process with status 1 (true) or is
/// reported and the program goes on (false, the default: upstream's
/// behaviour). A driver that cannot be loaded always ends it.
void setExitOnCudaError(bool exit);

} // namespace mlir::warp::runtime

#endif // WARPDIALECT_RUNTIME_CUDARUNTIMEWRAPPERS_H
