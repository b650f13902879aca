//===- MemorySpaces.cpp - what a memref's memory space names --------------===//

#include "WarpDialect/IR/MemorySpaces.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

std::optional<NVVM::NVVMMemorySpace>
mlir::warp::getNVVMMemorySpace(Attribute space) {
  if (!space)
    return NVVM::NVVMMemorySpace::Generic;
  if (auto number = dyn_cast<IntegerAttr>(space)) {
    int64_t value = number.getInt();
    if (value < 0 || value > int64_t(UINT32_MAX))
      return std::nullopt;
    return NVVM::symbolizeNVVMMemorySpace(uint32_t(value));
  }
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return NVVM::NVVMMemorySpace::Global;
    case gpu::AddressSpace::Workgroup:
      return NVVM::NVVMMemorySpace::Shared;
    case gpu::AddressSpace::Private:
      return NVVM::NVVMMemorySpace::Local;
    }
  }
  return std::nullopt;
}

bool mlir::warp::isGlobalOrWorkgroupSpace(Attribute space) {
  std::optional<NVVM::NVVMMemorySpace> nvvm = getNVVMMemorySpace(space);
  return nvvm && llvm::is_contained({NVVM::NVVMMemorySpace::Generic,
                                     NVVM::NVVMMemorySpace::Global,
                                     NVVM::NVVMMemorySpace::Shared},
                                    *nvvm);
}

bool mlir::warp::isWorkgroupMemory(MemRefType type) {
  return getNVVMMemorySpace(type.getMemorySpace()) ==
         NVVM::NVVMMemorySpace::Shared;
}
