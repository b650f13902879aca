//===- ShuffleRule.h - PTX shfl.sync source-lane rule -----------*- C++ -*-===//
//
// The lane a shuffle reads and whether that read is valid, as PTX defines it
// for `shfl.sync` with CUDA's segment encoding c = ((32 - width) << 8) | clamp.
// The verifier and the folders evaluate it on constants; it is the one place
// in the compiler that spells out the rule.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_IR_SHUFFLERULE_H
#define WARPDIALECT_IR_SHUFFLERULE_H

#include "WarpDialect/IR/WarpDialect.h"
#include <cstdint>

namespace mlir::warp {

/// The source lane of one lane's shuffle and the `valid` bit.
struct ShuffleSource {
  unsigned lane;
  bool valid;
};

/// The PTX `c` operand CUDA passes for a shuffle of `mode` and `width`:
/// segment mask in bits 12:8, clamp in bits 4:0 (0 for `up`, 31 otherwise).
inline uint32_t shuffleClampOperand(ShuffleMode mode, unsigned width) {
  uint32_t clamp = mode == ShuffleMode::Up ? 0 : 31;
  return ((kWarpSize - width) << 8) | clamp;
}

/// Evaluates the PTX rule for `lane` reading with `offset` (low 5 bits used).
inline ShuffleSource evaluateShuffle(ShuffleMode mode, unsigned lane,
                                     uint32_t offset, unsigned width) {
  uint32_t c = shuffleClampOperand(mode, width);
  uint32_t b = offset & 31;
  uint32_t segMask = (c >> 8) & 31;
  uint32_t maxLane = (lane & segMask) | (c & 31 & ~segMask);
  uint32_t minLane = lane & segMask;
  int64_t j = 0;
  bool valid = false;
  switch (mode) {
  case ShuffleMode::Up:
    j = int64_t(lane) - b;
    valid = j >= int64_t(maxLane);
    break;
  case ShuffleMode::Down:
    j = int64_t(lane) + b;
    valid = j <= int64_t(maxLane);
    break;
  case ShuffleMode::Xor:
    j = lane ^ b;
    valid = j <= int64_t(maxLane);
    break;
  case ShuffleMode::Idx:
    j = minLane | (b & ~segMask);
    valid = j <= int64_t(maxLane);
    break;
  }
  return valid ? ShuffleSource{unsigned(j), true} : ShuffleSource{lane, false};
}

} // namespace mlir::warp

#endif // WARPDIALECT_IR_SHUFFLERULE_H
