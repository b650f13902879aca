//===- Float.cpp - Bit-exact PTX floating-point helpers -------------------===//

#include "Float.h"

#include <cfenv>
#include <cmath>

namespace warp::sim {

double decode(uint64_t bits, Format f) {
  uint64_t manMask = (1ull << f.manBits) - 1;
  uint64_t expMax = (1ull << f.expBits) - 1;
  int bias = (int)(expMax >> 1);
  bool neg = (bits >> (f.expBits + f.manBits)) & 1;
  uint64_t e = (bits >> f.manBits) & expMax, m = bits & manMask;
  double v;
  if (e == expMax)
    v = m ? NAN : INFINITY;
  else if (e == 0)
    v = std::ldexp((double)m, 1 - bias - (int)f.manBits);
  else
    v = std::ldexp((double)(m | (1ull << f.manBits)), (int)e - bias - (int)f.manBits);
  return neg ? -v : v;
}

double decodeE4M3(uint64_t bits) {
  if ((bits & 0x7F) == 0x7F)
    return NAN;
  // Exponent field 15 is an ordinary binade: decode it one exponent lower
  // (a finite encoding there) and double it.
  if (((bits >> 3) & 0xF) == 0xF)
    return 2 * decode((bits & 0x87) | (0xE << 3), kE4M3);
  return decode(bits & 0xFF, kE4M3);
}

uint64_t encode(double x, Format f, Round rnd) {
  uint64_t expMax = (1ull << f.expBits) - 1;
  int bias = (int)(expMax >> 1);
  uint64_t signBit = 1ull << (f.expBits + f.manBits);
  uint64_t inf = expMax << f.manBits;
  uint64_t maxFinite = inf - 1;
  if (std::isnan(x))
    return inf | ((1ull << f.manBits) - 1);
  bool neg = std::signbit(x);
  uint64_t sign = neg ? signBit : 0;
  double a = std::fabs(x);
  // Directed modes that round this sign towards zero stop at the largest
  // finite value; the others overflow to infinity.
  bool towardZero = rnd == Round::RZ || (rnd == Round::RM && !neg) ||
                    (rnd == Round::RP && neg);
  if (std::isinf(a))
    return sign | inf;
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  int unbiased = e - 1;
  int quantumExp = unbiased < 1 - bias ? 1 - bias - (int)f.manBits
                                       : unbiased - (int)f.manBits;
  double q = std::ldexp(a, -quantumExp); // exact: a power-of-two scaling
  double n = std::floor(q), frac = q - n;
  bool up = false;
  switch (rnd) {
  case Round::None: case Round::RN: case Round::RNI:
    up = frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) == 1.0);
    break;
  case Round::RZ: case Round::RZI:
    break;
  case Round::RM: case Round::RMI:
    up = neg && frac > 0;
    break;
  case Round::RP: case Round::RPI:
    up = !neg && frac > 0;
    break;
  }
  uint64_t mant = (uint64_t)n + (up ? 1 : 0);
  uint64_t bits;
  if (unbiased < 1 - bias)
    bits = mant; // subnormal; a carry into 2^manBits is the smallest normal
  else
    bits = ((uint64_t)(unbiased + bias) << f.manBits) + mant -
           (1ull << f.manBits);
  if (bits >= inf)
    return sign | (towardZero ? maxFinite : inf);
  return sign | bits;
}

uint64_t canonicalNaN(Ty t) {
  switch (t) {
  case Ty::F16: case Ty::BF16: return 0x7FFF;
  case Ty::F16x2: case Ty::BF16x2: return 0x7FFF7FFF;
  case Ty::F32: return 0x7FFFFFFF;
  case Ty::F64: return 0x7FFFFFFFFFFFFFFFull;
  default: return 0;
  }
}

RoundingScope::RoundingScope(Round rnd) {
  int mode;
  switch (rnd) {
  case Round::RZ: case Round::RZI: mode = FE_TOWARDZERO; break;
  case Round::RM: case Round::RMI: mode = FE_DOWNWARD; break;
  case Round::RP: case Round::RPI: mode = FE_UPWARD; break;
  default: return;
  }
  saved = std::fegetround();
  std::fesetround(mode);
}

RoundingScope::~RoundingScope() {
  if (saved >= 0)
    std::fesetround(saved);
}

} // namespace warp::sim
