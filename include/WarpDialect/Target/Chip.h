//===- Chip.h - what each NVIDIA chip can do --------------------*- C++ -*-===//
//
// The single table of target facts the lowerings and tests rely on: which
// chip names exist (LLVM's NVPTX target decides), the PTX version a chip
// needs and which reductions `redux.sync` can do on it.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TARGET_CHIP_H
#define WARPDIALECT_TARGET_CHIP_H

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace mlir::warp {

/// The chip the pipelines target when none is named, and the one the
/// passes lower for where the IR names none (code outside a gpu.module
/// with an #nvvm.target, as in a test of one pass).
inline constexpr llvm::StringLiteral kDefaultChipName = "sm_90";

/// An NVIDIA compute capability as written in a chip name: `sm_90` is
/// {90, Base}, `sm_100a` is {100, ArchSpecific}, `sm_100f` {100, Family}.
struct Chip {
  /// The PTX target suffix: none, `f` (family-portable features) or `a`
  /// (architecture-specific features such as wgmma or f32 redux).
  enum class Variant { Base, Family, ArchSpecific };

  unsigned smVersion = 90;
  Variant variant = Variant::Base;

  /// Parses `sm_NN`, `sm_NNf` or `sm_NNa` and accepts it when LLVM's NVPTX
  /// backend knows that processor and NN >= 70 (match.sync needs sm_70);
  /// std::nullopt otherwise.
  static std::optional<Chip> parse(llvm::StringRef name);

  /// The chips parse() accepts, for diagnostics: "sm_70, sm_72, ...".
  static std::string listKnownChips();

  /// The diagnostic for a `name` parse() rejects, listing the known chips.
  static std::string unknownChipMessage(llvm::StringRef name);

  /// The chip's name, e.g. `sm_90`, `sm_100a` or `sm_103f`.
  std::string str() const;

  /// The lowest PTX ISA version (times 10, e.g. 78) with which LLVM's NVPTX
  /// backend targets this chip and selects every instruction the warp
  /// lowerings emit (activemask needs 6.2).
  unsigned minPtxVersion() const;
  /// The NVPTX feature string that selects that PTX version, e.g. `+ptx78`.
  std::string ptxFeature() const;

  /// Whether `redux.sync` can reduce `type` with `kind` on this chip:
  /// integers of up to 32 bits (widened to i32) for add/and/or/xor/min/max
  /// kinds on sm_80+, and f32 min/max where LLVM's NVPTX backend selects it
  /// (sm_100a/f and sm_103a/f).
  bool supportsRedux(CombineKind kind, Type type) const;

  /// Whether the chip has `elect.sync` (sm_90 and newer, PTX 8.0).
  bool hasElectSync() const;

  /// Whether the chip runs thread-block clusters and reaches their shared
  /// memory (`.shared::cluster`, barrier.cluster: sm_90 and newer).
  bool hasClusters() const;

  /// Whether PTX `atom` adds bf16 on this chip (`atom.add.noftz.bf16` and
  /// `.bf16x2`, sm_90 and newer); below, a bf16 add is a loop of
  /// `atom.cas.b16`, as CUDA's atomicAdd(__nv_bfloat16 *) is.
  bool hasBF16AtomicAdd() const;

  /// Whether PTX `atom` on this chip has an instruction for `kind` on
  /// `value` (an atomic's value type, warp.lane_atomic_rmw's) with `scope`:
  /// 32- and 64-bit values, f16 (`atom.add.noftz.f16`, `.f16x2`), every
  /// 16-bit exch, every minnumf and maxnumf (a loop of `atom.cas`) and the
  /// bf16 add (`.bf16`, a loop of `atom.cas.b16` below sm_90) everywhere
  /// parse() accepts; the bf16 pair (`.bf16x2`) and the `cluster` scope on
  /// sm_90 and newer. On failure, an error at `op`
  /// saying what needs which chip.
  LogicalResult checkAtomic(Operation *op, AtomicKind kind, Type value,
                            MemoryScope scope) const;

  /// The static shared memory a block can have, in bytes: the same on
  /// every chip (kMaxStaticSharedBytes).
  uint64_t staticSharedMemoryBytes() const { return kMaxStaticSharedBytes; }

  /// The oldest chip (as its sm version) with PTX `wmma` for fragments of
  /// `elementType` (the element type of a `gpu.mma_matrix`): 70 for f16 and
  /// f32 accumulators, 72 for 8-bit integers and their i32 accumulators, 80
  /// for tf32 (f32 A/B fragments) and f64; std::nullopt for a type wmma does
  /// not take. `isAccumulator` tells an f32 C/D fragment from a tf32 A/B one.
  static std::optional<unsigned> wmmaMinSmVersion(Type elementType,
                                                  bool isAccumulator);
};

/// The chip of `module`'s #nvvm.target: std::nullopt where it has none;
/// failure, with an error at the module, for a chip parse() rejects or for
/// two different chips (warp lowers a gpu.module for one chip).
FailureOr<std::optional<Chip>> getTargetChip(gpu::GPUModuleOp module);

/// The chip `op` lowers for: the target chip of the gpu.module it is in (or
/// is), else kDefaultChipName; failure as getTargetChip.
FailureOr<Chip> getLoweringChip(Operation *op);

/// Raises the PTX version of `module`'s NVVM targets to `version` (times
/// 10) where they select an older one (their `+ptxNN` feature, or their
/// chip's minPtxVersion without one). Instructions newer than the chip
/// (large kernel parameters, fp8 mma.sync) ask for it; every other module
/// keeps its chip's own version, so that older drivers still load it.
void raisePtxVersion(gpu::GPUModuleOp module, unsigned version);

} // namespace mlir::warp

#endif // WARPDIALECT_TARGET_CHIP_H
