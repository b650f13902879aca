/*===- Sim.h - C API of the 32-lane SIMT interpreter of PTX -------*- C -*-===//
 *
 * libWarpSim runs the PTX our pipelines emit (and nvcc's, for the oracles)
 * on the host, lane by lane, with independent thread scheduling: each lane
 * has its own PC, the lanes at the lowest PC of a warp execute together, and
 * a `.sync` collective runs once every lane of its member mask has arrived.
 * Undefined behaviour (a deadlocked or divergent collective, an undefined
 * value that reaches memory, a branch or an address, an out-of-bounds
 * access) is reported, never guessed. docs/Simulator.md describes the model.
 *
 * No MLIR or LLVM dependency: plain C++17 behind this C interface.
 *===----------------------------------------------------------------------===*/
#ifndef WARPDIALECT_SIM_SIM_H
#define WARPDIALECT_SIM_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A parsed PTX module. */
typedef struct WarpSimModule WarpSimModule;

/** A host buffer the kernel may access through global memory. */
typedef struct {
  const void *base;
  size_t bytes;
} WarpSimBuffer;

/** Counts of one launch (or accumulated over several). */
typedef struct {
  uint64_t threads;          /**< threads launched */
  uint64_t warpInstructions; /**< instructions issued (one per lane group) */
  uint64_t laneInstructions; /**< instructions executed, summed over lanes */
  uint64_t undefinedStores;  /**< undefined values stored (allowed mode) */
  uint64_t sharedRequests;   /**< shared-memory ld/st issued (per warp),
                                  with WARP_SIM_COUNT_SHARED_BANKS */
  uint64_t sharedWavefronts; /**< their bank wavefronts (Interpreter.cpp's
                                  model: more than the requests' minimum
                                  means bank conflicts), likewise */
  uint64_t globalLoadRequests;  /**< global-memory ld issued (per warp),
                                     with WARP_SIM_COUNT_GLOBAL_SECTORS */
  uint64_t globalLoadSectors;   /**< the distinct 32-byte sectors they
                                     touch, per request (Interpreter.cpp's
                                     model), likewise */
  uint64_t globalStoreRequests; /**< global-memory st issued, likewise */
  uint64_t globalStoreSectors;  /**< their sectors, likewise */
} WarpSimStats;

/** Launch flag: an undefined value (e.g. a shuffle read from a lane outside
 * the member mask) may be stored to memory; it is counted, not reported.
 * Tests that ignore such lanes by design use it. */
#define WARP_SIM_ALLOW_UNDEFINED_STORES 1u
/** Launch flag: schedule the lanes at the highest PC first instead of the
 * lowest. Both are legal under independent thread scheduling; this one keeps
 * diverged lanes apart as long as it can, so a lowering that relies on
 * reconvergence (e.g. on what activemask returns after a branch) shows. */
#define WARP_SIM_SCHEDULE_HIGHEST_PC 2u
/** Launch flag: count the shared-memory requests and their bank wavefronts
 * (WarpSimStats); off by default, as it slows a launch that uses shared
 * memory. */
#define WARP_SIM_COUNT_SHARED_BANKS 4u
/** Launch flag: do not check for shared-memory races. By default an access
 * to shared memory that conflicts with another thread's (one of them a
 * write, not both atomics, not two stores of one warp's lanes) without a
 * barrier ordering them (bar.sync, barrier.cluster, and between lanes of a
 * warp bar.warp.sync) is reported like undefined behaviour
 * (docs/Simulator.md, "Races"). */
#define WARP_SIM_NO_RACE_CHECK 8u
/** Launch flag: count the global-memory ld and st requests and the 32-byte
 * sectors each touches (WarpSimStats): the coalescing of a kernel's
 * accesses, as a profiler's sectors per request. Sectors are numbered from
 * the start of the buffer the access falls in (a device allocation is
 * aligned to 256 bytes); atomics and reductions are not counted. */
#define WARP_SIM_COUNT_GLOBAL_SECTORS 16u
/** Launch flag: run the blocks of a one-dimensional grid without clusters
 * (and without cluster instructions) eight at a time, as co-resident blocks
 * on a GPU: their warps take turns, the blocks in order and then in reverse,
 * and a warp yields at each nanosleep. A kernel whose blocks wait on each
 * other through global memory (a decoupled look-back) then meets
 * predecessors that have published only part of their state, or nothing
 * yet; without the flag every earlier block has finished. A wait without a
 * nanosleep in its loop never yields and ends at the step limit. */
#define WARP_SIM_CORESIDENT_BLOCKS 32u

/** Parses PTX text. Returns NULL and sets *error (free with warpSimFree) on
 * failure, e.g. an instruction or modifier outside the supported subset. */
WarpSimModule *warpSimLoadPTX(const char *text, char **error);

void warpSimUnload(WarpSimModule *module);

/** Number of parameters of entry `name` (-1 if there is no such entry);
 * fills sizes[0..max) with their sizes in bytes. */
int warpSimParamSizes(const WarpSimModule *module, const char *name,
                      size_t *sizes, int max);

/** Launches entry `name`. params[i] points at the bytes of parameter i (its
 * size comes from the .param declaration). Global memory accesses must fall
 * inside one of `buffers` (or a module .global variable). Returns NULL on
 * success, else a report (free with warpSimFree). `stats` may be NULL. */
char *warpSimLaunch(WarpSimModule *module, const char *name,
                    const unsigned grid[3], const unsigned block[3],
                    unsigned dynamicSharedBytes, void *const *params,
                    int numParams, const WarpSimBuffer *buffers,
                    int numBuffers, unsigned flags, WarpSimStats *stats);

/** warpSimLaunch in thread-block clusters of cluster[0] x cluster[1] x
 * cluster[2] blocks (NULL or 1x1x1: none), for a kernel without
 * .reqnctapercluster (one with it runs in its own clusters; a different
 * shape here is an error). The grid must be a multiple of the cluster in
 * each dimension. */
char *warpSimLaunchCluster(WarpSimModule *module, const char *name,
                           const unsigned grid[3], const unsigned block[3],
                           const unsigned cluster[3],
                           unsigned dynamicSharedBytes, void *const *params,
                           int numParams, const WarpSimBuffer *buffers,
                           int numBuffers, unsigned flags,
                           WarpSimStats *stats);

void warpSimFree(char *text);

#ifdef __cplusplus
}
#endif

#endif /* WARPDIALECT_SIM_SIM_H */
