//===- Float.h - Bit-exact PTX floating-point helpers ----------*- C++ -*-===//
//
// Narrow formats (f16, bf16) are decoded to double exactly and rounded back
// in one step with the instruction's rounding mode, so no value is rounded
// twice. f32/f64 arithmetic uses the host FPU under the requested rounding
// mode (IEEE 754 on both sides).
//
//===----------------------------------------------------------------------===//
#ifndef WARP_LIB_SIM_FLOAT_H
#define WARP_LIB_SIM_FLOAT_H

#include "PTX.h"

#include <cstdint>

namespace warp::sim {

/// A binary floating-point format with `expBits` exponent and `manBits`
/// stored significand bits.
struct Format {
  unsigned expBits, manBits;
};
constexpr Format kHalf{5, 10}, kBFloat{8, 7}, kSingle{8, 23};
/// fp8: e5m2 is IEEE-like, e4m3 (PTX's, OCP's E4M3FN) has no infinities.
constexpr Format kE5M2{5, 2}, kE4M3{4, 3};

/// The exact value of an encoded number (NaN and infinities included).
double decode(uint64_t bits, Format f);
/// The exact value of an e4m3 byte: the top exponent holds numbers (up to
/// 448), except S.1111.111, the NaN.
double decodeE4M3(uint64_t bits);
/// Rounds `x` once to `f` with `rnd` (RN, RZ, RM or RP; None means RN).
/// NaN gives the canonical NaN (all mantissa bits set, sign clear).
uint64_t encode(double x, Format f, Round rnd);

/// The canonical NaN PTX produces for each type.
uint64_t canonicalNaN(Ty t);

/// Host rounding mode for the scope of one instruction.
class RoundingScope {
public:
  explicit RoundingScope(Round rnd);
  ~RoundingScope();

private:
  int saved = -1;
};

} // namespace warp::sim

#endif // WARP_LIB_SIM_FLOAT_H
