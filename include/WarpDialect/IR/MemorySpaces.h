//===- MemorySpaces.h - what a memref's memory space names ------*- C++ -*-===//
//
// One reading of a memref's memory-space attribute on NVIDIA GPUs, for the
// verifiers (warp.atomic_rmw's memory) and the toolchain's checks (what
// counts as workgroup memory).
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_IR_MEMORYSPACES_H
#define WARPDIALECT_IR_MEMORYSPACES_H

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::warp {

/// Kernel parameter memory's address space in NVPTX, which NVVM's memory
/// space enum does not name.
inline constexpr int64_t kParamAddressSpace = 101;

/// The NVVM memory space `space` names: none is the generic space,
/// `#gpu.address_space<global|workgroup|private>` are global, shared and
/// local, an integer is NVVM's memory space of that number. std::nullopt
/// for any other attribute or number.
std::optional<NVVM::NVVMMemorySpace> getNVVMMemorySpace(Attribute space);

/// Whether `space` is global (no memory space, 1 or
/// `#gpu.address_space<global>`) or workgroup memory (3 or
/// `#gpu.address_space<workgroup>`): the spaces whose addresses name the
/// same element in every thread. Private, constant and unknown spaces are
/// not.
bool isGlobalOrWorkgroupSpace(Attribute space);

/// Whether `type` lives in workgroup (shared) memory.
bool isWorkgroupMemory(MemRefType type);

} // namespace mlir::warp

#endif // WARPDIALECT_IR_MEMORYSPACES_H
