//===- Interpreter.h - 32-lane SIMT execution of decoded PTX ---*- C++ -*-===//
#ifndef WARP_LIB_SIM_INTERPRETER_H
#define WARP_LIB_SIM_INTERPRETER_H

#include "PTX.h"

#include "WarpDialect/Sim/Sim.h"

namespace warp::sim {

struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  /// Blocks per thread-block cluster when the kernel has no
  /// .reqnctapercluster (1x1x1: no clusters).
  unsigned cluster[3] = {1, 1, 1};
  unsigned dynamicShared = 0;
  std::vector<uint8_t> paramBytes; ///< laid out as Function::params says
  std::vector<WarpSimBuffer> buffers;
  unsigned flags = 0;
  uint64_t stepLimit = 20000000; ///< warp instructions issued, all blocks
  WarpSimStats stats{};
};

/// Runs `fn`; returns "" or the report of the first undefined behaviour.
std::string launch(const Module &module, const Function &fn, LaunchConfig &cfg);

} // namespace warp::sim

#endif // WARP_LIB_SIM_INTERPRETER_H
