//===- CheckLowerable.cpp - device code the backend can take --------------===//
//
// Everything here would otherwise surface further down as invalid IR, an
// NVPTX abort ("Symbol name with unsupported characters") or a ptxas error:
// it is reported on the op that causes it instead.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "WarpDialect/IR/MemorySpaces.h"
#include "WarpDialect/Target/Chip.h"

#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPCHECKLOWERABLEPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

bool mlir::warp::isPTXIdentifier(StringRef name) {
  if (name.empty() || name == "WARP_SZ")
    return false;
  auto isTail = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  if (!llvm::all_of(name.drop_front(), isTail))
    return false;
  if (llvm::isAlpha(name.front()))
    return true;
  return (name.front() == '_' || name.front() == '$' || name.front() == '%') &&
         name.size() > 1;
}

namespace {

/// CUDA's launch limits of a block, a grid or a thread-block cluster: per
/// dimension and on the number of `units` in all (0: none). A cluster has
/// at most 16 blocks (sm_90 with the non-portable size allowed); NVPTX
/// stops the process on a cluster dimension it cannot print.
struct DimLimits {
  int64_t max[3];
  int64_t maxProduct;
  const char *what;
  const char *units;
};
constexpr DimLimits kBlockLimits{{1024, 1024, 64}, 1024, "block", "threads"};
constexpr DimLimits kGridLimits{{2147483647, 65535, 65535}, 0, "grid", "blocks"};
constexpr DimLimits kClusterLimits{{16, 16, 16}, 16, "cluster", "blocks"};

/// Checks known sizes (std::nullopt: unknown) against `limits`.
LogicalResult checkLaunchSizes(Operation *op,
                               ArrayRef<std::optional<int64_t>> sizes,
                               const DimLimits &limits) {
  static const char *dims[] = {"x", "y", "z"};
  int64_t product = 1;
  bool allKnown = true;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    if (!size) {
      allKnown = false;
      continue;
    }
    if (*size < 1 || *size > limits.max[i])
      return op->emitError() << limits.what << " size " << dims[i] << " = "
                             << *size << " is outside [1, " << limits.max[i]
                             << "], which CUDA can launch";
    product *= *size;
  }
  if (allKnown && limits.maxProduct && product > limits.maxProduct)
    return op->emitError() << limits.what << " of " << product << " "
                           << limits.units << ": CUDA launches at most "
                           << limits.maxProduct;
  return success();
}

/// NVPTX cannot pass a zero-width integer ("Empty parameter types are not
/// supported", a fatal error).
LogicalResult checkParameterTypes(FunctionOpInterface function) {
  auto isZeroWidth = [](Type type) {
    auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
    return integer && integer.getWidth() == 0;
  };
  for (auto [i, type] : llvm::enumerate(function.getArgumentTypes()))
    if (isZeroWidth(type))
      return function.emitOpError()
             << "argument #" << i << " has type " << type
             << ", which PTX cannot pass (zero-width integer)";
  for (auto [i, type] : llvm::enumerate(function.getResultTypes()))
    if (isZeroWidth(type))
      return function.emitOpError()
             << "result #" << i << " has type " << type
             << ", which PTX cannot pass (zero-width integer)";
  return success();
}

/// What encloses an op, as far as the checks below need to know.
struct Placement {
  bool inLaunch = false;
  bool inDeviceModule = false;
  bool inFunction = false;
};

/// The placement of `op`, from the one recorded for its parent region (none
/// for the op the walk starts at).
Placement placementOf(const DenseMap<Region *, Placement> &placements,
                      Operation *op) {
  Region *region = op->getParentRegion();
  return region ? placements.lookup(region) : Placement();
}

/// The memrefs `op` reads or writes (its memory effects' values), each
/// with whether it is a write.
SmallVector<std::pair<MemRefType, bool>> getMemRefAccesses(Operation *op) {
  SmallVector<std::pair<MemRefType, bool>> accesses;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return accesses;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &effect : instances) {
    auto memref = dyn_cast_or_null<TypedValue<MemRefType>>(effect.getValue());
    bool write = isa<MemoryEffects::Write>(effect.getEffect());
    if (memref && (write || isa<MemoryEffects::Read>(effect.getEffect())))
      accesses.push_back({memref.getType(), write});
  }
  return accesses;
}

/// The error at `op` that `action` (its verb and the memref) reaches a
/// cluster's shared memory (address space 7) on `chip`, older than sm_90.
LogicalResult emitClusterSharedBeforeSM90(Operation *op, StringRef action,
                                          MemRefType type,
                                          const warp::Chip &chip) {
  return op->emitOpError()
         << action << " " << type
         << ", a cluster's shared memory (address space 7), which PTX has "
            "from sm_90 on; the pipeline's chip is "
         << chip.str();
}

/// A device op that writes a memref of constant memory (NVVM's address
/// space 4, which kernels only read) is an error at the op: the NVPTX
/// backend would stop at it with a fatal error ("Cannot store to pointer
/// that points to constant memory space").
LogicalResult checkNoConstantWrites(Operation *op) {
  for (auto [type, write] : getMemRefAccesses(op)) {
    if (!write || warp::getNVVMMemorySpace(type.getMemorySpace()) !=
                      NVVM::NVVMMemorySpace::Constant)
      continue;
    return op->emitOpError()
           << "writes to " << type
           << ", constant memory (address space 4), which kernels can only "
              "read: write to global memory instead";
  }
  return success();
}

/// A memref atomic on a memory space that PTX's `atom` cannot reach on
/// the chip is an error at the op: the NVPTX backend would stop at it with
/// a fatal error ("Cannot select: AtomicLoad..."). `atom` reaches generic,
/// global and shared memory, and a cluster's shared memory
/// (`.shared::cluster`, address space 7) from sm_90 on; private memory
/// (address space 5) needs no atomic; constant memory is read-only
/// (checkNoConstantWrites); any other space (param, tensor memory, or a
/// number NVVM does not name) has none.
LogicalResult checkAtomicMemorySpace(Operation *op,
                                     std::optional<warp::Chip> chip) {
  Value memref;
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    memref = atomic.getMemref();
  else if (auto generic = dyn_cast<memref::GenericAtomicRMWOp>(op))
    memref = generic.getMemref();
  if (!memref)
    return success();
  auto type = cast<MemRefType>(memref.getType());
  std::optional<NVVM::NVVMMemorySpace> space =
      warp::getNVVMMemorySpace(type.getMemorySpace());
  if (space == NVVM::NVVMMemorySpace::Local)
    return op->emitOpError()
           << "is an atomic on " << type
           << ", private memory (address space 5), which PTX's atomics "
              "cannot reach: a thread's own memory needs no atomic, use a "
              "load and a store";
  if (space == NVVM::NVVMMemorySpace::Generic ||
      space == NVVM::NVVMMemorySpace::Global ||
      space == NVVM::NVVMMemorySpace::Shared ||
      space == NVVM::NVVMMemorySpace::Constant)
    return success();
  if (space == NVVM::NVVMMemorySpace::SharedCluster) {
    if (!chip || chip->hasClusters())
      return success();
    return emitClusterSharedBeforeSM90(op, "is an atomic on", type, *chip);
  }
  return op->emitOpError()
         << "is an atomic on " << type
         << ", a memory space PTX's atomics cannot reach: use global (1), "
            "shared (3) or generic (no memory space) memory";
}

/// A device op that reads or writes a memref where PTX cannot (atomics
/// have checkAtomicMemorySpace) is an error at the op, not invalid or
/// missing PTX: a cluster's shared memory (address space 7) before sm_90
/// (`st.shared::cluster`, which ptxas rejects for the older target),
/// tensor memory (6: only tcgen05 instructions reach it; NVPTX emitted a
/// 32-bit generic access), a number NVPTX does not name (2, 8, ...: NVPTX
/// accessed it as generic memory) and writes to kernel parameter memory
/// (101, which kernels only read: NVPTX dropped the store).
LogicalResult checkMemorySpaceAccess(Operation *op,
                                     std::optional<warp::Chip> chip) {
  if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op))
    return success();
  for (auto [type, write] : getMemRefAccesses(op)) {
    std::optional<NVVM::NVVMMemorySpace> space =
        warp::getNVVMMemorySpace(type.getMemorySpace());
    if (space == NVVM::NVVMMemorySpace::SharedCluster && chip &&
        !chip->hasClusters())
      return emitClusterSharedBeforeSM90(op, "accesses", type, *chip);
    if (space == NVVM::NVVMMemorySpace::Tensor)
      return op->emitOpError()
             << "accesses " << type
             << ", tensor memory (address space 6), which loads and stores "
                "cannot reach (tcgen05 instructions do)";
    auto number = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
    // A number NVPTX does not name lowered as generic memory, whatever the
    // author meant by it.
    if (number && !space && number.getInt() != warp::kParamAddressSpace)
      return op->emitOpError()
             << "accesses " << type << ", memory space " << number.getInt()
             << ", which NVPTX does not name (0 generic, 1 global, 3 shared, "
                "4 constant, 5 local, 7 a cluster's shared, 101 kernel "
                "parameters): give the memref one of those";
    if (number && number.getInt() == warp::kParamAddressSpace && write)
      return op->emitOpError()
             << "writes to " << type
             << ", kernel parameter memory (address space 101), which "
                "kernels can only read: write to global memory instead";
  }
  return success();
}

/// convert-gpu-to-nvvm puts a gpu.func's workgroup attributions in shared
/// memory and its private ones on the stack, and builds each memref from a
/// pointer of that space whatever the memref's memory space says: another
/// space leaves invalid IR behind (a descriptor of one pointer type built
/// from another).
LogicalResult checkAttributions(gpu::GPUFuncOp func) {
  for (auto [i, argument] : llvm::enumerate(func.getWorkgroupAttributions())) {
    auto type = cast<MemRefType>(argument.getType());
    if (!warp::isWorkgroupMemory(type))
      return func.emitOpError()
             << "workgroup attribution #" << i << " has type " << type
             << ", which is not in workgroup memory: give it the memory "
                "space #gpu.address_space<workgroup> (or 3)";
  }
  // The private ones are allocas of generic pointers, which the memref of
  // no memory space (or 0) and of #gpu.address_space<private> take; the
  // number 5 would make a descriptor of local pointers.
  for (auto [i, argument] : llvm::enumerate(func.getPrivateAttributions())) {
    auto type = cast<MemRefType>(argument.getType());
    auto named = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
    bool isPrivate = named ? named.getValue() == gpu::AddressSpace::Private
                           : warp::getNVVMMemorySpace(type.getMemorySpace()) ==
                                 NVVM::NVVMMemorySpace::Generic;
    if (!isPrivate)
      return func.emitOpError()
             << "private attribution #" << i << " has type " << type
             << ", which is not in private memory: give it no memory space "
                "or #gpu.address_space<private>";
  }
  return success();
}

/// A memref.global of device code becomes a PTX variable of its memory
/// space: global (none, 1), shared (3) or constant (4). NVPTX has no
/// module-scope variable in another space and stops with a fatal error
/// ("Bad address space found while emitting PTX").
LogicalResult checkGlobalSpace(memref::GlobalOp global) {
  Attribute space = global.getType().getMemorySpace();
  if (warp::isGlobalOrWorkgroupSpace(space) ||
      warp::getNVVMMemorySpace(space) == NVVM::NVVMMemorySpace::Constant)
    return success();
  return global.emitOpError()
         << "has type " << global.getType()
         << ", whose memory space PTX has no module-scope variables in: use "
            "global (no memory space or 1), workgroup (3) or constant (4) "
            "memory";
}

/// The chip an NVVM op needs where upstream does not say (no
/// RequiresSMInterface): the mbarrier transaction-count and parity-wait
/// ops, the mbarrier-init fence and the async-proxy fences come with
/// sm_90, setmaxnreg with sm_90a only. Without this ptxas would reject
/// them, unlocated, after the pipeline succeeded.
std::optional<NVVM::NVVMCheckSMVersion> unstatedChip(Operation *op) {
  if (isa<NVVM::SetMaxRegisterOp>(op))
    return NVVM::NVVMCheckSMVersion(/*archAccelerated=*/true, 90);
  if (isa<NVVM::MBarrierArriveExpectTxOp, NVVM::MBarrierExpectTxOp,
          NVVM::MBarrierCompleteTxOp, NVVM::MBarrierTryWaitParityOp,
          NVVM::FenceMbarrierInitOp>(op))
    return NVVM::NVVMCheckSMVersion(/*archAccelerated=*/false, 90);
  if (auto fence = dyn_cast<NVVM::FenceProxyOp>(op);
      fence && fence.getKind() != NVVM::ProxyKind::alias)
    return NVVM::NVVMCheckSMVersion(/*archAccelerated=*/false, 90);
  return std::nullopt;
}

/// An NVVM op the chip lacks (wgmma on sm_90 rather than sm_90a, ...): its
/// own verifier rejects it only once the target is attached, which leaves a
/// pass that succeeded with invalid IR behind it.
LogicalResult checkNVVMChip(Operation *op, StringRef chip) {
  std::optional<NVVM::NVVMCheckSMVersion> stated;
  if (auto requires_ = dyn_cast<NVVM::RequiresSMInterface>(op))
    stated = requires_.getRequiredMinSMVersion();
  else
    stated = unstatedChip(op);
  if (!stated)
    return success();
  NVVM::NVVMCheckSMVersion needed = *stated;
  if (needed.isCompatibleWith(
          NVVM::NVVMCheckSMVersion::getTargetSMVersionFromStr(chip)))
    return success();
  std::string names;
  llvm::raw_string_ostream os(names);
  llvm::interleave(
      needed.smVersionList, os,
      [&](int version) {
        os << "sm_" << version << (needed.archAccelerated ? "a" : "");
      },
      " or ");
  return op->emitOpError() << "needs " << names
                           << (needed.archAccelerated ? "" : " or newer")
                           << "; the pipeline's chip is " << chip;
}

struct WarpCheckLowerablePass
    : public warp::impl::WarpCheckLowerablePassBase<WarpCheckLowerablePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp root = getOperation();
    bool failed = false;
    auto fail = [&](LogicalResult result) { failed |= mlir::failed(result); };
    std::optional<warp::Chip> parsedChip;
    if (!chip.empty()) {
      parsedChip = warp::Chip::parse(chip);
      if (!parsedChip) {
        root.emitError(warp::Chip::unknownChipMessage(chip));
        return signalPassFailure();
      }
    }

    // Where each region lies, filled in before the checks so that no op
    // looks up its ancestors (which costs the nesting depth per op).
    DenseMap<Region *, Placement> placements;
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      Placement inside = placementOf(placements, op);
      if (isa<gpu::LaunchOp>(op))
        inside.inLaunch = true;
      if (isa<gpu::GPUModuleOp>(op))
        inside.inDeviceModule = true;
      if (isa<FunctionOpInterface>(op))
        inside.inFunction = true;
      for (Region &region : op->getRegions())
        placements[&region] = inside;
    });

    root.walk([&](Operation *op) {
      Placement placement = placementOf(placements, op);
      if (auto gpuModule = dyn_cast<gpu::GPUModuleOp>(op)) {
        if (gpuModule->getParentOp() != root.getOperation())
          fail(gpuModule.emitError(
              "gpu.module is nested in another module, where the pipelines "
              "do not lower it: move it into the top-level module"));
        for (Operation &child : gpuModule.getBody()->getOperations()) {
          auto name = child.getAttrOfType<StringAttr>(
              SymbolTable::getSymbolAttrName());
          if (name && !warp::isPTXIdentifier(name.getValue()))
            fail(child.emitError()
                 << "symbol name '" << name.getValue()
                 << "' cannot be spelled in PTX: use [a-zA-Z][a-zA-Z0-9_$]* "
                    "or [_$%][a-zA-Z0-9_$]+ (not WARP_SZ)");
          if (auto function = dyn_cast<FunctionOpInterface>(child))
            fail(checkParameterTypes(function));
          // Nothing executes code at the top of a gpu.module, and lowering
          // its control flow would split the module's own block.
          else if (child.getNumRegions() != 0 && !isa<SymbolOpInterface>(child))
            fail(child.emitOpError(
                "is at the top of a gpu.module, where nothing executes it: "
                "put it in a gpu.func"));
        }
        return;
      }
      if (!allowAsync && !placement.inDeviceModule &&
          warp::usesAsyncDialect(op)) {
        fail(op->emitOpError(
            "is async-dialect host code, which this pipeline does not lower: "
            "add the pipeline option async=true (warp-cuda-runner sets it "
            "for such programs)"));
        return;
      }
      if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
        auto checkKnown = [&](std::optional<ArrayRef<int32_t>> sizes,
                              const DimLimits &limits) {
          if (sizes)
            fail(checkLaunchSizes(
                func, llvm::to_vector(llvm::map_range(*sizes, [](int32_t v) {
                  return std::optional<int64_t>(v);
                })),
                limits));
        };
        checkKnown(func.getKnownBlockSize(), kBlockLimits);
        checkKnown(func.getKnownGridSize(), kGridLimits);
        checkKnown(func.getKnownClusterSize(), kClusterLimits);
        fail(checkAttributions(func));
        return;
      }
      if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
        fail(checkLaunchSizes(launch,
                              {getConstantIntValue(launch.getBlockSizeX()),
                               getConstantIntValue(launch.getBlockSizeY()),
                               getConstantIntValue(launch.getBlockSizeZ())},
                              kBlockLimits));
        fail(checkLaunchSizes(launch,
                              {getConstantIntValue(launch.getGridSizeX()),
                               getConstantIntValue(launch.getGridSizeY()),
                               getConstantIntValue(launch.getGridSizeZ())},
                              kGridLimits));
        return;
      }
      if (auto global = dyn_cast<memref::GlobalOp>(op);
          global && placement.inDeviceModule) {
        fail(checkGlobalSpace(global));
        return;
      }
      if (placement.inLaunch || placement.inDeviceModule) {
        fail(checkNoConstantWrites(op));
        fail(checkAtomicMemorySpace(op, parsedChip));
        fail(checkMemorySpaceAccess(op, parsedChip));
        if (!chip.empty())
          fail(checkNVVMChip(op, chip));
      }
      // Device-wide ops are host code (their verifier keeps them there).
      if (!isa<warp::WarpDialect>(op->getDialect()) ||
          warp::isDeviceCollective(op))
        return;
      // So is a device op's region (a selection's predicate): its kernels
      // take a copy of it.
      for (Operation *parent = op->getParentOp(); parent;
           parent = parent->getParentOp())
        if (warp::isDeviceCollective(parent))
          return;
      if (!placement.inLaunch && !placement.inDeviceModule) {
        fail(op->emitOpError("runs on the GPU but is in host code: put it in "
                             "a gpu.module function or a gpu.launch body"));
        return;
      }
      if (placement.inDeviceModule && !placement.inFunction)
        fail(op->emitOpError("is outside any function of its gpu.module: "
                             "put it in a gpu.func"));
    });
    if (failed)
      return signalPassFailure();
    // A check: the IR is unchanged, so the pass manager need not verify it
    // again.
    markAllAnalysesPreserved();
  }
};

} // namespace

bool mlir::warp::usesAsyncDialect(Operation *op) {
  auto isAsync = [](Type type) {
    return isa<async::AsyncDialect>(type.getDialect());
  };
  if (isa<async::AsyncDialect>(op->getDialect()) ||
      llvm::any_of(op->getOperandTypes(), isAsync) ||
      llvm::any_of(op->getResultTypes(), isAsync))
    return true;
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    return llvm::any_of(function.getArgumentTypes(), isAsync) ||
           llvm::any_of(function.getResultTypes(), isAsync);
  return false;
}
