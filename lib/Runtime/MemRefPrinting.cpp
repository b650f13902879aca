//===- MemRefPrinting.cpp - mlir-runner compatible printing ---------------===//
//
// The printing functions integration tests call (printMemrefF32, printF32,
// printNewline, ...), in the format of mlir-runner's support libraries, so
// the runner needs no libmlir_runner_utils at run time (the self-contained
// build has none).
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace {

/// The unranked memref MLIR passes to a C-interface function.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

/// A strided descriptor: allocated, aligned, offset, sizes[rank],
/// strides[rank].
struct StridedView {
  const char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};

StridedView view(int64_t rank, void *descriptor) {
  auto *words = static_cast<int64_t *>(descriptor);
  StridedView v;
  std::memcpy(&v.aligned, &words[1], sizeof(void *));
  v.offset = words[2];
  v.sizes = &words[3];
  v.strides = &words[3 + rank];
  return v;
}

template <typename T> void printElement(std::ostream &os, T value) {
  os << value;
}
template <> void printElement<int8_t>(std::ostream &os, int8_t value) {
  os << int(value);
}

/// Nested brackets, one row per line for rank > 1, elements separated by
/// ", " plus indentation (FileCheck treats the runs of spaces as one).
template <typename T>
void printData(std::ostream &os, const T *base, int64_t dim, int64_t rank,
               int64_t offset, const int64_t *sizes, const int64_t *strides) {
  if (dim == 0) {
    printElement(os, base[offset]);
    return;
  }
  os << "[";
  for (int64_t i = 0; i < sizes[0]; ++i) {
    if (i > 0) {
      os << ", ";
      if (dim > 1)
        os << "\n";
      for (int64_t s = 0; s < rank - dim + 1; ++s)
        os << ' ';
    }
    printData(os, base, dim - 1, rank, offset + i * strides[0], sizes + 1,
              strides + 1);
  }
  os << "]";
}

template <typename T> void printMemRef(int64_t rank, void *descriptor) {
  StridedView v = view(rank, descriptor);
  std::ostream &os = std::cout;
  os << "Unranked Memref base@ = " << static_cast<const void *>(v.aligned)
     << " rank = " << rank << " offset = " << v.offset << " sizes = [";
  for (int64_t i = 0; i < rank; ++i)
    os << (i ? ", " : "") << v.sizes[i];
  os << "] strides = [";
  for (int64_t i = 0; i < rank; ++i)
    os << (i ? ", " : "") << v.strides[i];
  os << "] data = \n";
  printData(os, reinterpret_cast<const T *>(v.aligned), rank, rank, v.offset,
            v.sizes, v.strides);
  os << "\n";
  os.flush();
}

float halfToFloat(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 0x1f,
      mantissa = bits & 0x3ff;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(float(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(float(mantissa | 0x400), exponent - 25);
  return sign ? -magnitude : magnitude;
}

float bfloatToFloat(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

} // namespace

extern "C" {

#define WARP_MEMREF_PRINTER(suffix, type)                                      \
  void _mlir_ciface_printMemref##suffix(UnrankedMemRef *memref) {              \
    printMemRef<type>(memref->rank, memref->descriptor);                       \
  }                                                                            \
  void printMemref##suffix(int64_t rank, void *descriptor) {                   \
    printMemRef<type>(rank, descriptor);                                       \
  }
WARP_MEMREF_PRINTER(I8, int8_t)
WARP_MEMREF_PRINTER(I16, int16_t)
WARP_MEMREF_PRINTER(I32, int32_t)
WARP_MEMREF_PRINTER(I64, int64_t)
WARP_MEMREF_PRINTER(Ind, int64_t)
WARP_MEMREF_PRINTER(F32, float)
WARP_MEMREF_PRINTER(F64, double)
#undef WARP_MEMREF_PRINTER

void printI64(int64_t value) { std::fprintf(stdout, "%lld", (long long)value); }
void printU64(uint64_t value) {
  std::fprintf(stdout, "%llu", (unsigned long long)value);
}
void printF32(float value) { std::fprintf(stdout, "%g", value); }
void printF64(double value) { std::fprintf(stdout, "%lg", value); }
void printF16(uint16_t bits) { std::fprintf(stdout, "%g", halfToFloat(bits)); }
void printBF16(uint16_t bits) {
  std::fprintf(stdout, "%g", bfloatToFloat(bits));
}
void printString(const char *text) { std::fputs(text, stdout); }
void printOpen() { std::fputs("( ", stdout); }
void printClose() { std::fputs(" )", stdout); }
void printComma() { std::fputs(", ", stdout); }
void printNewline() {
  std::fputs("\n", stdout);
  std::fflush(stdout);
}

} // extern "C"
