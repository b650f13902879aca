//===- Chip.h - what each NVIDIA chip can do --------------------*- C++ -*-===//
//
// The single table of target facts the lowerings and tests rely on: the PTX
// version a chip needs and which reductions `redux.sync` can do on it.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TARGET_CHIP_H
#define WARPDIALECT_TARGET_CHIP_H

#include "WarpDialect/IR/WarpDialect.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace mlir::warp {

/// An NVIDIA compute capability as written in a chip name: `sm_90` is
/// {90, false}, `sm_100a` is {100, true}.
struct Chip {
  unsigned smVersion = 90;
  /// The `a` suffix: architecture-specific features (wgmma, f32 redux).
  bool archSpecific = false;

  /// Parses `sm_NN` or `sm_NNa`; std::nullopt for anything else.
  static std::optional<Chip> parse(llvm::StringRef name);

  /// The chip's name, e.g. `sm_90` or `sm_100a`.
  std::string str() const;

  /// The lowest PTX ISA version (times 10, e.g. 78) that supports this chip.
  unsigned minPtxVersion() const;
  /// The NVPTX feature string that selects that PTX version, e.g. `+ptx78`.
  std::string ptxFeature() const;

  /// Whether `redux.sync` can reduce `type` with `kind` on this chip:
  /// integers of up to 32 bits (widened to i32) for add/and/or/xor/min/max
  /// kinds on sm_80+, and f32 min/max on sm_100a-class chips.
  bool supportsRedux(CombineKind kind, Type type) const;
};

} // namespace mlir::warp

#endif // WARPDIALECT_TARGET_CHIP_H
