//===- Chip.cpp - what each NVIDIA chip can do ----------------------------===//

#include "WarpDialect/Target/Chip.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::warp;

std::optional<Chip> Chip::parse(llvm::StringRef name) {
  if (!name.consume_front("sm_"))
    return std::nullopt;
  Chip chip;
  chip.archSpecific = name.consume_back("a");
  if (name.getAsInteger(10, chip.smVersion) || chip.smVersion < 70)
    return std::nullopt;
  return chip;
}

std::string Chip::str() const {
  return "sm_" + std::to_string(smVersion) + (archSpecific ? "a" : "");
}

unsigned Chip::minPtxVersion() const {
  // First PTX ISA release that names each target (PTX ISA release notes),
  // and at least 6.2, which every warp lowering may need.
  if (smVersion >= 120)
    return 87;
  if (smVersion >= 100)
    return 86;
  if (smVersion >= 90)
    return archSpecific ? 80 : 78;
  if (smVersion >= 89)
    return 78;
  if (smVersion >= 87)
    return 74;
  if (smVersion >= 86)
    return 71;
  if (smVersion >= 80)
    return 70;
  if (smVersion >= 75)
    return 63;
  // sm_70/sm_72 are named by PTX 6.0/6.1, but `activemask` (LLVM's
  // convergent llvm.nvvm.activemask) needs PTX 6.2.
  return 62;
}

std::string Chip::ptxFeature() const {
  return "+ptx" + std::to_string(minPtxVersion());
}

bool Chip::supportsRedux(CombineKind kind, Type type) const {
  if (smVersion < 80)
    return false;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() <= 32 && kind != CombineKind::Mul &&
           !isFloatOnlyKind(kind);
  // f32 min/max exist only on the sm_100a family (PTX ISA 8.6).
  if (type.isF32() && isFloatOnlyKind(kind))
    return archSpecific && smVersion >= 100 && smVersion < 120;
  return false;
}
