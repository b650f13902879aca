//===- CAPI.cpp - The C interface of libWarpSim ---------------------------===//

#include "Interpreter.h"
#include "PTX.h"

#include "WarpDialect/Sim/Sim.h"

#include <cstdlib>
#include <cstring>
#include <exception>

using namespace warp::sim;

struct WarpSimModule {
  std::unique_ptr<Module> module;
};

static char *copyString(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

WarpSimModule *warpSimLoadPTX(const char *text, char **error) {
  std::string err;
  std::unique_ptr<Module> m;
  // Callers are C and Python: an exception must not cross this boundary.
  // The parser bounds what it allocates; this is the last resort.
  try {
    m = parsePTX(text ? text : "", err);
  } catch (const std::exception &e) {
    m.reset();
    err = std::string("allocation failed while parsing (") + e.what() + ")";
  }
  if (!m) {
    if (error)
      *error = copyString("PTX: " + err);
    return nullptr;
  }
  WarpSimModule *handle = new WarpSimModule;
  handle->module = std::move(m);
  return handle;
}

void warpSimUnload(WarpSimModule *module) { delete module; }

int warpSimParamSizes(const WarpSimModule *module, const char *name,
                      size_t *sizes, int max) {
  auto it = module->module->entries.find(name);
  if (it == module->module->entries.end())
    return -1;
  const Function &fn = *it->second;
  for (int i = 0; i < (int)fn.params.size() && i < max; ++i)
    sizes[i] = fn.params[i].size;
  return (int)fn.params.size();
}

char *warpSimLaunch(WarpSimModule *module, const char *name,
                    const unsigned grid[3], const unsigned block[3],
                    unsigned dynamicSharedBytes, void *const *params,
                    int numParams, const WarpSimBuffer *buffers,
                    int numBuffers, unsigned flags, WarpSimStats *stats) {
  return warpSimLaunchCluster(module, name, grid, block, nullptr,
                              dynamicSharedBytes, params, numParams, buffers,
                              numBuffers, flags, stats);
}

char *warpSimLaunchCluster(WarpSimModule *module, const char *name,
                           const unsigned grid[3], const unsigned block[3],
                           const unsigned cluster[3],
                           unsigned dynamicSharedBytes, void *const *params,
                           int numParams, const WarpSimBuffer *buffers,
                           int numBuffers, unsigned flags,
                           WarpSimStats *stats) {
  auto it = module->module->entries.find(name);
  if (it == module->module->entries.end())
    return copyString(std::string("error: no kernel named '") + name + "'");
  const Function &fn = *it->second;
  if (numParams != (int)fn.params.size())
    return copyString("error: '" + fn.name + "' takes " +
                      std::to_string(fn.params.size()) + " parameters, got " +
                      std::to_string(numParams));
  LaunchConfig cfg;
  for (int d = 0; d < 3; ++d) {
    cfg.grid[d] = grid[d];
    cfg.block[d] = block[d];
    if (!grid[d] || !block[d])
      return copyString("error: empty grid or block dimension");
    if (cluster) {
      if (!cluster[d])
        return copyString("error: empty cluster dimension");
      cfg.cluster[d] = cluster[d];
    }
  }
  cfg.dynamicShared = dynamicSharedBytes;
  cfg.paramBytes.assign(fn.paramBytes, 0);
  for (int i = 0; i < numParams; ++i)
    std::memcpy(cfg.paramBytes.data() + fn.params[i].offset, params[i],
                fn.params[i].size);
  cfg.buffers.assign(buffers, buffers + numBuffers);
  cfg.flags = flags;
  std::string report;
  try {
    report = launch(*module->module, fn, cfg);
  } catch (const std::exception &e) {
    report = std::string("error: allocation failed while simulating (") +
             e.what() + ")";
  }
  if (stats) {
    stats->threads += cfg.stats.threads;
    stats->warpInstructions += cfg.stats.warpInstructions;
    stats->laneInstructions += cfg.stats.laneInstructions;
    stats->undefinedStores += cfg.stats.undefinedStores;
    stats->sharedRequests += cfg.stats.sharedRequests;
    stats->sharedWavefronts += cfg.stats.sharedWavefronts;
    stats->globalLoadRequests += cfg.stats.globalLoadRequests;
    stats->globalLoadSectors += cfg.stats.globalLoadSectors;
    stats->globalStoreRequests += cfg.stats.globalStoreRequests;
    stats->globalStoreSectors += cfg.stats.globalStoreSectors;
  }
  return report.empty() ? nullptr : copyString(report);
}

void warpSimFree(char *text) { std::free(text); }
