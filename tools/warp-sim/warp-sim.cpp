//===- warp-sim.cpp - Run one PTX kernel on the SIMT interpreter ----------===//
//
//   warp-sim FILE.ptx --kernel NAME [--grid X[,Y,Z]] [--block X[,Y,Z]]
//            [--shared BYTES] [--allow-undefined-stores] [--highest-pc-first]
//            ARG...
//
// Each ARG makes kernel parameters, in order:
//   i32:V  u32:V  i64:V  u64:V  f32:V  one scalar
//   buf:T:N[=INIT]     a pointer to a fresh buffer of N elements of T
//   memref:T:N[=INIT]  the five parameters of a 1-D memref (ptr, ptr, 0, N, 1)
// T is i8/i16/i32/i64/f32/f64, or x16/x32/x64 (integers printed as hex, for
// bit patterns); INIT is `iota` (0, 1, ...), `iota+K`, one
// value for every element, or a comma-separated list (default 0). After the
// launch every buffer is printed as `bufK: v0 v1 ...`. An undefined-
// behaviour report goes to stderr and the exit status is 1.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Sim/Sim.h"

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

unsigned elemSize(const std::string &t) {
  if (t == "i8") return 1;
  if (t == "i16" || t == "x16") return 2;
  if (t == "i32" || t == "f32" || t == "x32") return 4;
  if (t == "i64" || t == "f64" || t == "x64") return 8;
  die("unknown element type '" + t + "'");
}

void store(Buffer &b, size_t i, const std::string &text) {
  if (b.type == "f32") {
    float f = std::strtof(text.c_str(), nullptr);
    std::memcpy(&b.bytes[i * 4], &f, 4);
  } else if (b.type == "f64") {
    double d = std::strtod(text.c_str(), nullptr);
    std::memcpy(&b.bytes[i * 8], &d, 8);
  } else if (b.type[0] == 'x') {
    unsigned long long v = std::strtoull(text.c_str(), nullptr, 0);
    std::memcpy(&b.bytes[i * b.elem], &v, b.elem);
  } else {
    long long v = std::strtoll(text.c_str(), nullptr, 0);
    std::memcpy(&b.bytes[i * b.elem], &v, b.elem);
  }
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

void parseDims(const char *text, unsigned dims[3]) {
  dims[0] = dims[1] = dims[2] = 1;
  std::stringstream ss(text);
  std::string part;
  for (int d = 0; d < 3 && std::getline(ss, part, ','); ++d)
    dims[d] = (unsigned)std::strtoul(part.c_str(), nullptr, 0);
}

} // namespace

int main(int argc, char **argv) {
  std::string file, kernel;
  unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1}, sharedBytes = 0;
  unsigned flags = 0;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--kernel") kernel = value();
    else if (a == "--grid") parseDims(value(), grid);
    else if (a == "--block") parseDims(value(), block);
    else if (a == "--shared") sharedBytes = (unsigned)std::strtoul(value(), nullptr, 0);
    else if (a == "--allow-undefined-stores") flags |= WARP_SIM_ALLOW_UNDEFINED_STORES;
    else if (a == "--highest-pc-first") flags |= WARP_SIM_SCHEDULE_HIGHEST_PC;
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
      b->count = std::strtoul(countInit.c_str(), nullptr, 0);
      b->bytes.assign(b->count * b->elem, 0);
      if (init.rfind("iota", 0) == 0) {
        long long base = init.size() > 5 ? std::strtoll(init.c_str() + 5, nullptr, 0) : 0;
        for (size_t i = 0; i < b->count; ++i)
          store(*b, i, std::to_string(base + (long long)i));
      } else if (init.find(',') != std::string::npos) {
        std::stringstream ss(init);
        std::string v;
        for (size_t i = 0; i < b->count && std::getline(ss, v, ','); ++i)
          store(*b, i, v);
      } else if (!init.empty()) {
        for (size_t i = 0; i < b->count; ++i)
          store(*b, i, init);
      }
      int64_t ptr = (int64_t)(intptr_t)b->bytes.data();
      addParam(&ptr, 8);
      if (kind == "memref") { // allocated, aligned, offset, size, stride
        int64_t rest4[4] = {ptr, 0, (int64_t)b->count, 1};
        for (int64_t v : rest4)
          addParam(&v, 8);
      }
      buffers.push_back(std::move(b));
    } else if (kind == "i32" || kind == "u32") {
      uint32_t v = (uint32_t)std::strtoll(rest.c_str(), nullptr, 0);
      addParam(&v, 4);
    } else if (kind == "i64" || kind == "u64") {
      uint64_t v = (uint64_t)std::strtoull(rest.c_str(), nullptr, 0);
      addParam(&v, 8);
    } else if (kind == "f32") {
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
  char *report = warpSimLaunch(module, kernel.c_str(), grid, block, sharedBytes,
                               params.data(), (int)params.size(), regions.data(),
                               (int)regions.size(), flags, &stats);
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
  warpSimUnload(module);
  return status;
}
