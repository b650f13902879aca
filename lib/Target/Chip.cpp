//===- Chip.cpp - what each NVIDIA chip can do ----------------------------===//
//
// Which chip names exist comes from LLVM's NVPTX backend (its processor
// table), so a name the backend would abort on is rejected up front. The PTX
// versions and the f32 redux.sync chips were measured against the same
// backend (llc 22: the lowest +ptxNN that selects activemask for -mcpu, and
// the chips that select redux.sync.f32); test/Target/chips.test lowers a
// kernel for every chip the backend lists and assembles it where ptxas can.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Target/Chip.h"

#include "WarpDialect/IR/CombineKinds.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>

using namespace mlir;
using namespace mlir::warp;

/// The NVPTX subtarget info of LLVM's backend, for its processor table.
static const llvm::MCSubtargetInfo &getNVPTXSubtargetInfo() {
  static std::unique_ptr<llvm::MCSubtargetInfo> info;
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    llvm::Triple triple("nvptx64-nvidia-cuda");
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(triple, error);
    if (target)
      info.reset(target->createMCSubtargetInfo(triple, "sm_90", ""));
  });
  assert(info && "LLVM was built without the NVPTX target");
  return *info;
}

static bool isKnownProcessor(llvm::StringRef name) {
  return getNVPTXSubtargetInfo().isCPUStringValid(name);
}

std::optional<Chip> Chip::parse(llvm::StringRef name) {
  if (!isKnownProcessor(name))
    return std::nullopt;
  llvm::StringRef digits = name;
  if (!digits.consume_front("sm_"))
    return std::nullopt;
  Chip chip;
  if (digits.consume_back("a"))
    chip.variant = Variant::ArchSpecific;
  else if (digits.consume_back("f"))
    chip.variant = Variant::Family;
  if (digits.getAsInteger(10, chip.smVersion) || chip.smVersion < 70)
    return std::nullopt;
  return chip;
}

std::string Chip::listKnownChips() {
  SmallVector<Chip> chips;
  for (const llvm::SubtargetSubTypeKV &processor :
       getNVPTXSubtargetInfo().getAllProcessorDescriptions())
    if (std::optional<Chip> chip = parse(processor.Key))
      chips.push_back(*chip);
  llvm::sort(chips, [](const Chip &a, const Chip &b) {
    return std::make_pair(a.smVersion, a.variant) <
           std::make_pair(b.smVersion, b.variant);
  });
  std::string list;
  for (const Chip &chip : chips)
    list += (list.empty() ? "" : ", ") + chip.str();
  return list;
}

std::string Chip::unknownChipMessage(llvm::StringRef name) {
  return "unknown chip '" + name.str() +
         "': expected a chip of LLVM's NVPTX backend, sm_70 or newer (" +
         listKnownChips() + ")";
}

std::string Chip::str() const {
  const char *suffix = variant == Variant::ArchSpecific ? "a"
                       : variant == Variant::Family     ? "f"
                                                        : "";
  return "sm_" + std::to_string(smVersion) + suffix;
}

unsigned Chip::minPtxVersion() const {
  bool isBase = variant == Variant::Base;
  switch (smVersion) {
  case 70:
  case 72:
  case 75:
    // sm_70 is named by PTX 6.0 and activemask needs 6.2; nanosleep (the
    // device ops' look-back) needs 6.3, and on sm_72 LLVM selects 8-bit
    // integer wmma from 6.3 on.
    return 63;
  case 80:
    return 70;
  case 86:
    return 71;
  case 87:
    return 74;
  case 89:
    return 78;
  case 90:
    return 80; // elect.sync needs 8.0 (sm_90a needs it anyway)
  case 100:
  case 101:
    return isBase || variant == Variant::ArchSpecific ? 86 : 88;
  case 120:
    return isBase || variant == Variant::ArchSpecific ? 87 : 88;
  case 103:
  case 121:
    return 88;
  default: // sm_88, sm_110 and anything newer LLVM 22 knows: PTX 9.0.
    return 90;
  }
}

std::string Chip::ptxFeature() const {
  return "+ptx" + std::to_string(minPtxVersion());
}

/// The PTX version `features` selects (`+ptxNN`), if it names one.
static std::optional<unsigned> ptxVersionOf(StringRef features) {
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    StringRef digits = part.trim();
    unsigned version;
    if (digits.consume_front("+ptx") && !digits.getAsInteger(10, version))
      return version;
  }
  return std::nullopt;
}

/// `features` selecting PTX `version` instead of the one it names.
static std::string withPtxVersion(StringRef features, unsigned version) {
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string result = "+ptx" + std::to_string(version);
  for (StringRef part : parts)
    if (!part.trim().starts_with("+ptx"))
      result += "," + part.trim().str();
  return result;
}

void mlir::warp::raisePtxVersion(gpu::GPUModuleOp module, unsigned version) {
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets)
    return;
  SmallVector<Attribute> raised(targets.begin(), targets.end());
  bool changed = false;
  for (Attribute &attr : raised) {
    auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
    if (!target)
      continue;
    // Without a version named, LLVM takes the chip's lowest.
    std::optional<unsigned> current = ptxVersionOf(target.getFeatures());
    if (!current)
      if (std::optional<Chip> chip = Chip::parse(target.getChip()))
        current = chip->minPtxVersion();
    if (!current || *current >= version)
      continue;
    attr = NVVM::NVVMTargetAttr::get(
        target.getContext(), target.getO(), target.getTriple(),
        target.getChip(), withPtxVersion(target.getFeatures(), version),
        target.getFlags(), target.getLink(), target.getVerifyTarget());
    changed = true;
  }
  if (changed)
    module.setTargetsAttr(ArrayAttr::get(module.getContext(), raised));
}

bool Chip::hasElectSync() const { return smVersion >= 90; }

bool Chip::hasClusters() const { return smVersion >= 90; }

bool Chip::hasBF16AtomicAdd() const { return smVersion >= 90; }

LogicalResult Chip::checkAtomic(Operation *op, AtomicKind kind, Type value,
                                MemoryScope scope) const {
  // PTX ISA, "atom": .f16 and .f16x2 adds need sm_70 (sm_60 for .f16x2),
  // .bf16 and .bf16x2 sm_90, as does the .cluster scope; a 16-bit exch and
  // a bf16 add below sm_90 are atom.cas.b16, sm_70 and newer: on every chip.
  if (smVersion >= 90)
    return success();
  if (getElementTypeOrSelf(value).isBF16() && kind == AtomicKind::Add &&
      isa<VectorType>(value) && !hasBF16AtomicAdd())
    return op->emitOpError()
           << "on " << value << " needs sm_90 or newer (PTX atom.add.noftz."
           << (isa<VectorType>(value) ? "bf16x2" : "bf16")
           << "); the target chip is " << str();
  if (scope == MemoryScope::Cluster)
    return op->emitOpError()
           << "with scope <cluster> needs sm_90 or newer; the target chip is "
           << str();
  return success();
}

std::optional<unsigned> Chip::wmmaMinSmVersion(Type elementType,
                                               bool isAccumulator) {
  // PTX ISA, "Warp-level matrix instructions: wmma": sm_70 brought
  // .f16/.f32, sm_72 the integer forms, sm_80 .tf32, .bf16 and .f64.
  if (elementType.isF16())
    return 70;
  if (elementType.isF32())
    return isAccumulator ? 70 : 80;
  if (elementType.isInteger(8) || elementType.isInteger(32))
    return 72;
  if (elementType.isF64() || elementType.isBF16())
    return 80;
  return std::nullopt;
}

bool Chip::supportsRedux(CombineKind kind, Type type) const {
  if (smVersion < 80 || !isReduxPayload(kind, type))
    return false;
  // f32 min/max: the sm_100 family's a/f variants (sm_100, sm_103).
  if (type.isF32())
    return variant != Variant::Base && (smVersion == 100 || smVersion == 103);
  return true;
}

FailureOr<std::optional<Chip>>
mlir::warp::getTargetChip(gpu::GPUModuleOp module) {
  std::optional<Chip> chip;
  ArrayAttr targets = module.getTargetsAttr();
  for (Attribute target : targets ? targets.getValue() : ArrayRef<Attribute>()) {
    auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
    if (!nvvm)
      continue;
    std::optional<Chip> parsed = Chip::parse(nvvm.getChip());
    if (!parsed)
      return module.emitError(Chip::unknownChipMessage(nvvm.getChip()));
    if (chip && chip->str() != parsed->str())
      return module.emitError()
             << "warp lowers a gpu.module for one chip, but this one targets "
                "both "
             << chip->str() << " and " << parsed->str();
    chip = parsed;
  }
  return chip;
}

FailureOr<Chip> mlir::warp::getLoweringChip(Operation *op) {
  auto module = dyn_cast<gpu::GPUModuleOp>(op);
  if (!module)
    module = op->getParentOfType<gpu::GPUModuleOp>();
  if (module) {
    FailureOr<std::optional<Chip>> chip = getTargetChip(module);
    if (failed(chip))
      return failure();
    if (*chip)
      return **chip;
  }
  return *Chip::parse(kDefaultChipName);
}
