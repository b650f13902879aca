//===- warp-sim.cpp - Run one PTX kernel on the SIMT interpreter ----------===//
//
//   warp-sim FILE.ptx --kernel NAME [--grid X[,Y,Z]] [--block X[,Y,Z]]
//            [--cluster X[,Y,Z]] [--shared BYTES] [--allow-undefined-stores]
//            [--highest-pc-first] [--no-race-check] [--stats] ARG...
//
// --cluster runs the blocks in thread-block clusters of that shape (a
// kernel's own .reqnctapercluster needs none). --no-race-check turns off
// the report of shared-memory races (docs/Simulator.md).
//
// Each ARG makes kernel parameters, in order:
//   i32:V  u32:V  i64:V  u64:V  f32:V  one scalar
//   buf:T:N[=INIT]     a pointer to a fresh buffer of N elements of T
//   memref:T:N[=INIT]  the five parameters of a 1-D memref (ptr, ptr, 0, N, 1)
// T is i8/i16/i32/i64/f32/f64, or x16/x32/x64 (integers printed as hex, for
// bit patterns); INIT is `iota` (0, 1, ...), `iota+K`, one
// value for every element, or a comma-separated list (default 0). After the
// launch every buffer is printed as `bufK: v0 v1 ...`; with --stats then
// `stats: T threads, W warp instructions, L lane instructions, R shared
// requests, F shared wavefronts, GL global loads in SL sectors, GS global
// stores in SS sectors` (the PTX instructions issued per warp and
// executed per lane, summed over the launch: a kernel's dynamic instruction
// count, to set beside another implementation's PTX on the same input; its
// shared-memory ld/st per warp and the bank wavefronts they take, more
// than the requests' minimum where banks conflict; its global-memory ld
// and st per warp and the 32-byte sectors they touch, more than the bytes
// need where they are not coalesced). An undefined-
// behaviour report goes to stderr and the exit status is 1.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Sim/Sim.h"

#include <cerrno>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Buffer {
  std::string type;
  size_t count = 0;
  unsigned elem = 4;
  std::vector<uint8_t> bytes;
};

[[noreturn]] void die(const std::string &msg) {
  std::cerr << "warp-sim: " << msg << "\n";
  std::exit(2);
}

/// The most buffer memory the arguments may ask for, all buffers together.
constexpr uint64_t kMaxBufferBytes = 1ull << 30;

/// Reads all of `text` as an unsigned integer (decimal, 0x hex or 0 octal).
bool readUnsigned(const std::string &text, uint64_t &v) {
  if (text.empty() || !std::isdigit((unsigned char)text[0]))
    return false;
  errno = 0;
  char *end = nullptr;
  v = std::strtoull(text.c_str(), &end, 0);
  return errno == 0 && *end == '\0';
}

/// Reads all of `text` as an integer of `bits` bits, signed or not: both
/// -1 and 0xffffffff are 32-bit values.
bool readInteger(const std::string &text, unsigned bits, uint64_t &v) {
  bool neg = !text.empty() && text[0] == '-';
  if (!readUnsigned(neg ? text.substr(1) : text, v))
    return false;
  uint64_t limit = bits == 64 ? ~0ull : (1ull << bits) - 1;
  if (neg) {
    if (v > (limit >> 1) + 1)
      return false;
    v = (uint64_t)0 - v;
    return true;
  }
  return v <= limit;
}

bool readFloat(const std::string &text, double &d) {
  if (text.empty() || std::isspace((unsigned char)text[0]))
    return false;
  char *end = nullptr;
  d = std::strtod(text.c_str(), &end);
  return *end == '\0';
}

unsigned elemSize(const std::string &t) {
  if (t == "i8") return 1;
  if (t == "i16" || t == "x16") return 2;
  if (t == "i32" || t == "f32" || t == "x32") return 4;
  if (t == "i64" || t == "f64" || t == "x64") return 8;
  die("unknown element type '" + t + "'");
}

void store(Buffer &b, size_t i, const std::string &text,
           const std::string &arg) {
  auto bad = [&]() {
    die("'" + text + "' is not an " + b.type + " value in '" + arg + "'");
  };
  if (b.type == "f32" || b.type == "f64") {
    double d;
    if (!readFloat(text, d))
      bad();
    if (b.type == "f32") {
      float f = std::strtof(text.c_str(), nullptr);
      std::memcpy(&b.bytes[i * 4], &f, 4);
    } else {
      std::memcpy(&b.bytes[i * 8], &d, 8);
    }
    return;
  }
  uint64_t v;
  if (!readInteger(text, 8 * b.elem, v))
    bad();
  // The low bytes: the host is little endian, like the device.
  std::memcpy(&b.bytes[i * b.elem], &v, b.elem);
}

std::string show(const Buffer &b, size_t i) {
  char text[64];
  if (b.type == "f32") {
    float f;
    std::memcpy(&f, &b.bytes[i * 4], 4);
    std::snprintf(text, sizeof text, "%.9g", f);
  } else if (b.type == "f64") {
    double d;
    std::memcpy(&d, &b.bytes[i * 8], 8);
    std::snprintf(text, sizeof text, "%.17g", d);
  } else if (b.type[0] == 'x') {
    unsigned long long v = 0;
    std::memcpy(&v, &b.bytes[i * b.elem], b.elem);
    std::snprintf(text, sizeof text, "0x%0*llx", (int)b.elem * 2, v);
  } else {
    long long v = 0;
    std::memcpy(&v, &b.bytes[i * b.elem], b.elem);
    int shift = 64 - 8 * (int)b.elem;
    v = (long long)((unsigned long long)v << shift) >> shift;
    std::snprintf(text, sizeof text, "%lld", v);
  }
  return text;
}

/// X[,Y[,Z]], each from 1 to CUDA's limit of that dimension.
void parseDims(const std::string &option, const char *text, unsigned dims[3],
               const unsigned limits[3]) {
  dims[0] = dims[1] = dims[2] = 1;
  std::string all = text, part;
  std::stringstream ss(all);
  int d = 0;
  for (; std::getline(ss, part, ','); ++d) {
    uint64_t v;
    if (d == 3)
      die(option + " takes at most three dimensions, not '" + all + "'");
    if (!readUnsigned(part, v) || v == 0 || v > limits[d])
      die(option + " dimension " + std::to_string(d) + " must be 1.." +
          std::to_string(limits[d]) + ", not '" + part + "'");
    dims[d] = (unsigned)v;
  }
  if (d == 0 || all.back() == ',')
    die("cannot read " + option + " '" + all + "'");
}

} // namespace

int main(int argc, char **argv) {
  std::string file, kernel;
  unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1}, sharedBytes = 0;
  unsigned cluster[3] = {1, 1, 1};
  const unsigned clusterLimits[3] = {255, 255, 255};
  unsigned flags = 0;
  bool printStats = false;
  const unsigned gridLimits[3] = {0x7fffffffu, 65535, 65535};
  const unsigned blockLimits[3] = {1024, 1024, 64};
  std::vector<std::string> args;
  uint64_t bufferBytes = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--kernel") kernel = value();
    else if (a == "--grid") parseDims(a, value(), grid, gridLimits);
    else if (a == "--block") parseDims(a, value(), block, blockLimits);
    else if (a == "--cluster") parseDims(a, value(), cluster, clusterLimits);
    else if (a == "--shared") {
      std::string text = value();
      uint64_t v;
      // The library bounds the size further; this only keeps it exact.
      if (!readUnsigned(text, v) || v > 0xffffffffu)
        die("--shared takes a byte count, not '" + text + "'");
      sharedBytes = (unsigned)v;
    }
    else if (a == "--allow-undefined-stores") flags |= WARP_SIM_ALLOW_UNDEFINED_STORES;
    else if (a == "--highest-pc-first") flags |= WARP_SIM_SCHEDULE_HIGHEST_PC;
    else if (a == "--no-race-check") flags |= WARP_SIM_NO_RACE_CHECK;
    else if (a == "--stats") {
      printStats = true;
      flags |= WARP_SIM_COUNT_SHARED_BANKS | WARP_SIM_COUNT_GLOBAL_SECTORS;
    }
    else if (a.rfind("--", 0) == 0) die("unknown option " + a);
    else if (file.empty()) file = a;
    else args.push_back(a);
  }
  if (file.empty() || kernel.empty())
    die("usage: warp-sim FILE.ptx --kernel NAME [--grid X,Y,Z] [--block X,Y,Z] ARG...");
  std::ifstream in(file);
  if (!in)
    die("cannot read " + file);
  std::stringstream text;
  text << in.rdbuf();
  char *error = nullptr;
  WarpSimModule *module = warpSimLoadPTX(text.str().c_str(), &error);
  if (!module) {
    std::cerr << "warp-sim: " << file << ": " << error << "\n";
    warpSimFree(error);
    return 2;
  }

  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<std::vector<uint8_t>> paramBytes; // one entry per parameter
  auto addParam = [&](const void *p, size_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(p);
    paramBytes.emplace_back(b, b + n);
  };
  for (const std::string &a : args) {
    size_t colon = a.find(':');
    if (colon == std::string::npos)
      die("cannot read argument '" + a + "'");
    std::string kind = a.substr(0, colon), rest = a.substr(colon + 1);
    if (kind == "buf" || kind == "memref") {
      size_t c2 = rest.find(':');
      if (c2 == std::string::npos)
        die("expected " + kind + ":TYPE:N in '" + a + "'");
      auto b = std::make_unique<Buffer>();
      b->type = rest.substr(0, c2);
      b->elem = elemSize(b->type);
      std::string countInit = rest.substr(c2 + 1), init;
      size_t eq = countInit.find('=');
      if (eq != std::string::npos) {
        init = countInit.substr(eq + 1);
        countInit = countInit.substr(0, eq);
      }
      uint64_t count;
      if (!readUnsigned(countInit, count))
        die("expected an element count in '" + a + "', not '" + countInit +
            "'");
      if (count > (kMaxBufferBytes - bufferBytes) / b->elem)
        die("'" + a + "' takes the buffers past the limit of " +
            std::to_string(kMaxBufferBytes) + " bytes");
      b->count = count;
      bufferBytes += count * b->elem;
      b->bytes.assign(b->count * b->elem, 0);
      if (init.rfind("iota", 0) == 0) {
        uint64_t base = 0;
        if (init.size() > 4 &&
            ((init[4] != '+' && init[4] != '-') ||
             !readInteger(init.substr(init[4] == '+' ? 5 : 4), 64, base)))
          die("expected iota, iota+K or iota-K, not '" + init + "'");
        bool isFloat = b->type[0] == 'f';
        for (size_t i = 0; i < b->count; ++i) {
          // Integers wrap to the element's width, as in a kernel.
          uint64_t v = base + i;
          if (isFloat)
            store(*b, i, std::to_string((long long)v), a);
          else
            std::memcpy(&b->bytes[i * b->elem], &v, b->elem);
        }
      } else if (init.find(',') != std::string::npos) {
        std::stringstream ss(init);
        std::string v;
        size_t i = 0;
        for (; std::getline(ss, v, ','); ++i) {
          if (i == b->count)
            die("more initial values than the " + std::to_string(b->count) +
                " elements in '" + a + "'");
          store(*b, i, v, a);
        }
      } else if (!init.empty()) {
        for (size_t i = 0; i < b->count; ++i)
          store(*b, i, init, a);
      }
      int64_t ptr = (int64_t)(intptr_t)b->bytes.data();
      addParam(&ptr, 8);
      if (kind == "memref") { // allocated, aligned, offset, size, stride
        int64_t rest4[4] = {ptr, 0, (int64_t)b->count, 1};
        for (int64_t v : rest4)
          addParam(&v, 8);
      }
      buffers.push_back(std::move(b));
    } else if (kind == "i32" || kind == "u32" || kind == "i64" ||
               kind == "u64") {
      unsigned bits = kind[1] == '3' ? 32 : 64;
      uint64_t v;
      if (!readInteger(rest, bits, v))
        die("'" + rest + "' is not a " + std::to_string(bits) +
            "-bit integer in '" + a + "'");
      uint32_t v32 = (uint32_t)v;
      if (bits == 32)
        addParam(&v32, 4);
      else
        addParam(&v, 8);
    } else if (kind == "f32") {
      double d;
      if (!readFloat(rest, d))
        die("'" + rest + "' is not an f32 value in '" + a + "'");
      float v = std::strtof(rest.c_str(), nullptr);
      addParam(&v, 4);
    } else {
      die("unknown argument kind '" + kind + "'");
    }
  }
  std::vector<void *> params;
  for (std::vector<uint8_t> &p : paramBytes)
    params.push_back(p.data());
  size_t sizes[256];
  int declared = warpSimParamSizes(module, kernel.c_str(), sizes, 256);
  for (int i = 0; i < declared && i < (int)paramBytes.size(); ++i)
    if (sizes[i] != paramBytes[i].size())
      die("parameter " + std::to_string(i) + " of '" + kernel + "' has " +
          std::to_string(sizes[i]) + " bytes, the argument gives " +
          std::to_string(paramBytes[i].size()));
  std::vector<WarpSimBuffer> regions;
  for (auto &b : buffers)
    regions.push_back({b->bytes.data(), b->bytes.size()});
  WarpSimStats stats{};
  char *report = warpSimLaunchCluster(
      module, kernel.c_str(), grid, block, cluster, sharedBytes, params.data(),
      (int)params.size(), regions.data(), (int)regions.size(), flags, &stats);
  int status = 0;
  if (report) {
    std::cerr << "warp-sim: " << report << "\n";
    warpSimFree(report);
    status = 1;
  }
  for (size_t k = 0; k < buffers.size(); ++k) {
    std::cout << "buf" << k << ":";
    for (size_t i = 0; i < buffers[k]->count; ++i)
      std::cout << " " << show(*buffers[k], i);
    std::cout << "\n";
  }
  if (stats.undefinedStores)
    std::cout << "undefined stores: " << stats.undefinedStores << "\n";
  if (printStats)
    std::cout << "stats: " << stats.threads << " threads, "
              << stats.warpInstructions << " warp instructions, "
              << stats.laneInstructions << " lane instructions, "
              << stats.sharedRequests << " shared requests, "
              << stats.sharedWavefronts << " shared wavefronts, "
              << stats.globalLoadRequests << " global loads in "
              << stats.globalLoadSectors << " sectors, "
              << stats.globalStoreRequests << " global stores in "
              << stats.globalStoreSectors << " sectors\n";
  warpSimUnload(module);
  return status;
}
