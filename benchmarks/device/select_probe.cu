// Why is the warp kernels' stream compaction (keep x > threshold, f32, 2^28
// items; benchmarks/device/gen_kernels.py scan_like_kernel(..., "select"),
// the same algorithm as handTileScan<float, 2> in baselines.cu) at 0.86 / 0.91
// / 0.92x the speed of cub::DeviceSelect::If at 0 / 50 / 100 % kept? At 0 %
// nothing is written, so the gap is tile latency (flag counting, barriers,
// decoupled look-back), not bandwidth. A single-pass select kernel, templated
// on one configuration per axis, timed against CUB in one run:
//   Threads x Items  tile shape (ours 256 x 16; CUB's sm_90 select tuning for
//                    4-byte items: 384 x 17); any n (the last tile, partial or
//                    not, takes a guarded path, as CUB's does)
//   load     transpose  warp-striped scalar loads (lane l: items l, l + 32, ...
//                       of the warp's 32 x Items segment), exchanged to the
//                       blocked arrangement through padded shared memory
//                       (ours: warp.exchange; CUB: BLOCK_LOAD_WARP_TRANSPOSE)
//            direct     each thread loads its own Items consecutive items,
//                       16-byte vectors where Items % 4 == 0 (BLOCK_LOAD_DIRECT)
//            striped    warp-striped scalar loads kept striped: no exchange;
//                       items are counted with one ballot per row of 32
//            striped4   warp-striped float4 loads kept striped (lane l holds
//                       4 consecutive items of each 128-item row): 4 ballots
//                       per row; Items % 4 == 0
//   count    scan01     (blocked loads) thread-local running sum of 0/1 ints,
//                       then a warp shuffle scan of the thread totals (ours, CUB)
//            mask       (blocked loads) the thread's flags as a bit mask:
//                       __popc for its count and each item's rank
//            ballot     (striped loads) __ballot_sync + __popc per row: the
//                       warp's count and every rank with no per-item scan;
//                       the block prefix is a sum over the warps' counts
//   write    staged     kept items gathered in tile order in shared memory
//                       (before the look-back), written out coalesced (ours)
//            direct     each kept item stored by its thread at its rank
//            adaptive   staged after the look-back (one more barrier) only if
//                       the tile keeps more items than it has threads, else
//                       direct (CUB's TWO_PHASE_SCATTER rule)
//   keep     sep        the staging buffer separate from the exchange buffer
//                       (ours: %keep_sm and the module's exchange buffer)
//            alias      staging reuses the exchange buffer (CUB's union)
//   pace     S/P        __nanosleep S ns after publishing the aggregate, P ns
//                       between look-back polls (ours 1245/648; CUB's sm_90
//                       select tuning: fixed_delay_constructor_t<76, 1150>)
//   tile     blockIdx (ours, CUB) or an atomic ticket
//   reset    memset     tile status words zeroed by cudaMemsetAsync before
//                       each launch (timed, like device_bench.py; CUB runs its
//                       own init kernel)
//            epoch      no reset: status words carry a launch epoch
//   cache    nc         ld.global.nc (ours), def (CUB's LOAD_DEFAULT: plain
//                       ld.global), cs (ld.global.cs: streaming, evict-first)
//   minB     __launch_bounds__ minimum blocks per SM (0: none)
// Status words: (epoch << 2 | flag) << 32 | 32-bit count, flag 1 = tile
// aggregate, 2 = inclusive prefix, stored and polled relaxed by warp 0, 32
// predecessors per window (ours). Each line prints the configuration, the
// registers, blocks per SM (occupancy calculator) and shared memory of the
// kernel, the median ms at 0 / 50 / 100 % kept and CUB's ms / this ms (> 1:
// faster than CUB). Timing: CUDA events around each launch (the status
// memset included, as device_bench.py does; CUB's own init kernel is inside
// its call), a short GPU spin queued before the first event so that host
// enqueue time is not timed, median of 51 after 5 warm-up launches; input
// 1 GiB, far above L2. Every variant is first checked against CUB on 10
// cases (whole and partial last tiles, one tile and many; count, every kept
// value in order, nothing written past the count); a mismatch prints FAIL
// and the run goes on. Look-back spins give up after 2^20 polls (a second or
// more; never in a correct run) and report GUARD instead of hanging.
// The last tile reads items past n as NaN (never kept by x > thr): enough for
// this predicate, not for a general one.
// A diagnostic, not part of the benchmark table: about 100 variants; on the
// H200 machine about 45 s to compile (one nvcc thread) and under a minute to
// run (it prints its time):
//   nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/device/select_probe.cu -o /tmp/sp && /tmp/sp
//   /tmp/sp 'A|B' [LOG2N [check]]   only the variants whose label contains
//       A or B ("" for all), on 2^LOG2N items; check: verify, do not time
//       (for compute-sanitizer --tool memcheck|racecheck|synccheck)
#include "probe_timing.cuh"

#include <cub/device/device_select.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>


enum { TRANSPOSE, DIRECT, STRIPED, STRIPED4 };  // load
enum { SCAN01, MASK };                          // count (blocked loads; striped loads use ballots)
enum { STAGED, DIRECTW, ADAPTIVE };             // write
enum { NC, DEF, CS };                           // cache

template <int T_, int I_, int LD_, int CNT_, int WR_, int SETTLE_, int POLL_, bool TICKET_, bool EPOCH_, int CACHE_,
          bool SEPKEEP_, int MINB_>
struct Cfg {
  static constexpr int T = T_, I = I_, LD = LD_, CNT = CNT_, WR = WR_, SETTLE = SETTLE_, POLL = POLL_;
  static constexpr bool TICKET = TICKET_, EPOCH = EPOCH_, SEPKEEP = SEPKEEP_;
  static constexpr int CACHE = CACHE_, MINB = MINB_;
  static constexpr int W = T / 32, TILE = T * I;
  static constexpr bool BLOCKED = LD == TRANSPOSE || LD == DIRECT;
  // Exchange slice of a warp: one padding word per 32 unless Items is odd
  // (then lanes' blocked accesses, stride Items, already hit distinct banks).
  static constexpr bool PAD_EX = I % 2 == 0;
  static constexpr int SLICE = 32 * I + (PAD_EX ? I : 0);
  static constexpr int EX_FLOATS = LD == TRANSPOSE ? W * SLICE : 0;
  static constexpr int KEEP_FLOATS = WR == DIRECTW ? 0 : TILE + TILE / 32 + 1;
  static constexpr int KEEP_OFF = SEPKEEP ? EX_FLOATS : 0;
  static constexpr int SMEM_FLOATS = SEPKEEP ? EX_FLOATS + KEEP_FLOATS : (EX_FLOATS > KEEP_FLOATS ? EX_FLOATS : KEEP_FLOATS);
  static constexpr size_t SMEM_BYTES = sizeof(float) * SMEM_FLOATS;
  static_assert(T % 32 == 0 && T <= 1024 && I >= 1 && I <= 32, "shape");
  static_assert(LD != STRIPED4 || I % 4 == 0, "striped4 needs Items % 4 == 0");
  static_assert(!BLOCKED || CNT == SCAN01 || CNT == MASK, "count");
  static_assert(!(TICKET && EPOCH), "the ticket counter is reset by the memset");

  template <int T2, int I2> using Shape = Cfg<T2, I2, LD, CNT, WR, SETTLE, POLL, TICKET, EPOCH, CACHE, SEPKEEP, MINB>;
  template <int L> using Load = Cfg<T, I, L, CNT, WR, SETTLE, POLL, TICKET, EPOCH, CACHE, SEPKEEP, MINB>;
  template <int C> using Count = Cfg<T, I, LD, C, WR, SETTLE, POLL, TICKET, EPOCH, CACHE, SEPKEEP, MINB>;
  template <int X> using Write = Cfg<T, I, LD, CNT, X, SETTLE, POLL, TICKET, EPOCH, CACHE, SEPKEEP, MINB>;
  template <int S, int P> using Pace = Cfg<T, I, LD, CNT, WR, S, P, TICKET, EPOCH, CACHE, SEPKEEP, MINB>;
  template <bool B> using Ticket = Cfg<T, I, LD, CNT, WR, SETTLE, POLL, B, EPOCH, CACHE, SEPKEEP, MINB>;
  template <bool B> using Epoch = Cfg<T, I, LD, CNT, WR, SETTLE, POLL, TICKET, B, CACHE, SEPKEEP, MINB>;
  template <int C> using Cache = Cfg<T, I, LD, CNT, WR, SETTLE, POLL, TICKET, EPOCH, C, SEPKEEP, MINB>;
  template <bool B> using SepKeep = Cfg<T, I, LD, CNT, WR, SETTLE, POLL, TICKET, EPOCH, CACHE, B, MINB>;
  template <int M> using MinB = Cfg<T, I, LD, CNT, WR, SETTLE, POLL, TICKET, EPOCH, CACHE, SEPKEEP, M>;
};

// ours: gen_kernels.py select_gt_f32_transpose16 (select_gt_f32 until
// "s4d 256x24, adaptive, minBlocks 5" replaced it; SCAN_THREADS 256,
// SCAN_ITEMS 16, exchange "warp", staged, relaxed, POLL_NS 648, SETTLE_NS
// 1245, blockIdx tiles, ld.global.nc, separate staging buffer).
using Ours = Cfg<256, 16, TRANSPOSE, SCAN01, STAGED, 1245, 648, false, false, NC, true, 0>;
// CUB's sm_90 choices for select::if on 4-byte items (as far as this kernel
// can express them: CUB stages after the look-back, this kernel before).
using CubLike = Cfg<384, 17, TRANSPOSE, SCAN01, ADAPTIVE, 1150, 76, false, false, DEF, false, 0>;
// Striped float4 loads, ballot counting, direct stores: no shared memory
// beyond the warps' counts.
using S4D = Cfg<256, 16, STRIPED4, SCAN01, DIRECTW, 1245, 648, false, false, NC, false, 0>;

constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned kSpinLimit = 1u << 20;
// What the last tile's items past n read as: NaN > thr is false for every
// threshold, so they are never kept and need no flags of their own (this
// probe's predicate only; a general one would need a valid-item count).
__device__ __forceinline__ float pastN() { return __int_as_float(0x7fffffff); }

// DEF: a plain ld.global (SASS LDG.E, as in CUB's kernel), which the
// compiler would otherwise make ld.global.nc for this const __restrict__
// input (and __ldca becomes LDG.E.STRONG.SM).
template <int CACHE> __device__ __forceinline__ float load1(const float *p) {
  if constexpr (CACHE == NC) {
    return __ldg(p);
  } else if constexpr (CACHE == DEF) {
    float v;
    asm("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
  } else {
    return __ldcs(p);
  }
}
template <int CACHE> __device__ __forceinline__ float4 load4(const float *p) {
  const float4 *q = reinterpret_cast<const float4 *>(p);
  if constexpr (CACHE == NC) {
    return __ldg(q);
  } else if constexpr (CACHE == DEF) {
    float4 v;
    asm("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(q));
    return v;
  } else {
    return __ldcs(q);
  }
}

__device__ __forceinline__ int padded(int i) { return i + (i >> 5); }

__device__ __forceinline__ void publish(unsigned long long *status, int tile, unsigned hi, int value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[1 + tile]);
  word.store((unsigned long long)hi << 32 | (unsigned)value, cuda::memory_order_relaxed);
}

// Exclusive prefix of `tile` (> 0), run by the whole warp 0; `base` is the
// launch's epoch << 2 (0 without epochs): a word is ready when its high half
// exceeds base, an inclusive prefix when it is base | 2.
template <class C>
__device__ __forceinline__ int lookBack(unsigned long long *status, int tile, int lane, unsigned base, unsigned *guard) {
  const unsigned long long none = (unsigned long long)(base | 2) << 32;  // before tile 0: a prefix of 0
  int acc = 0;
  unsigned spins = 0;
  for (int end = tile - 1;; end -= 32) {
    const int p = end - lane;
    unsigned long long w;
    while (true) {
      w = none;
      if (p >= 0) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[1 + p]);
        w = word.load(cuda::memory_order_relaxed);
      }
      const bool waiting = (unsigned)(w >> 32) <= base;
      if (!__any_sync(kFull, waiting)) break;
      if (++spins > kSpinLimit) {  // never in a correct run: report, do not hang
        if (lane == 0) atomicOr(guard, 1u);
        if (waiting) w = none;
        break;
      }
      if (C::POLL) __nanosleep(C::POLL);
    }
    const unsigned prefixes = __ballot_sync(kFull, (unsigned)(w >> 32) == (base | 2));
    const int nearest = prefixes ? __ffs(prefixes) - 1 : 31;
    acc += __reduce_add_sync(kFull, lane <= nearest ? (int)(unsigned)w : 0);
    if (prefixes) return acc;
  }
}

// One tile: `valid` items from in + tile * TILE (Last: guarded, and writes *num).
template <class C, bool Last>
__device__ __forceinline__ void tileBody(const float *__restrict__ in, float *__restrict__ out, int *__restrict__ num,
                                         unsigned long long *status, int tile, int valid, float thr, unsigned epoch,
                                         unsigned *guard, float *sm, int *totals, int *preShared) {
  constexpr int T = C::T, I = C::I, W = C::W;
  const int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5;
  const float *tin = in + tile * C::TILE;
  const int seg = wid * 32 * I;  // this warp's segment (striped arrangements)
  float x[I];

  // ---- load ----
  if constexpr (C::LD == TRANSPOSE) {
    float *ws = sm + wid * C::SLICE;
    auto pad = [](int i) { return C::PAD_EX ? padded(i) : i; };
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int li = seg + j * 32 + lane;
      ws[pad(j * 32 + lane)] = (!Last || li < valid) ? load1<C::CACHE>(tin + li) : pastN();
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < I; ++j) x[j] = ws[pad(lane * I + j)];
  } else if constexpr (C::LD == DIRECT) {
    const int first = tid * I;
    if constexpr (I % 4 == 0) {
#pragma unroll
      for (int h = 0; h < I / 4; ++h) {
        if (!Last || first + 4 * h + 3 < valid) {
          const float4 v = load4<C::CACHE>(tin + first + 4 * h);
          x[4 * h] = v.x, x[4 * h + 1] = v.y, x[4 * h + 2] = v.z, x[4 * h + 3] = v.w;
        } else {
#pragma unroll
          for (int k = 0; k < 4; ++k) x[4 * h + k] = first + 4 * h + k < valid ? load1<C::CACHE>(tin + first + 4 * h + k) : pastN();
        }
      }
    } else {
#pragma unroll
      for (int j = 0; j < I; ++j) x[j] = (!Last || first + j < valid) ? load1<C::CACHE>(tin + first + j) : pastN();
    }
  } else if constexpr (C::LD == STRIPED) {
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int li = seg + j * 32 + lane;
      x[j] = (!Last || li < valid) ? load1<C::CACHE>(tin + li) : pastN();
    }
  } else {  // STRIPED4
#pragma unroll
    for (int r = 0; r < I / 4; ++r) {
      const int li = seg + r * 128 + lane * 4;
      if (!Last || li + 3 < valid) {
        const float4 v = load4<C::CACHE>(tin + li);
        x[4 * r] = v.x, x[4 * r + 1] = v.y, x[4 * r + 2] = v.z, x[4 * r + 3] = v.w;
      } else {
#pragma unroll
        for (int k = 0; k < 4; ++k) x[4 * r + k] = li + k < valid ? load1<C::CACHE>(tin + li + k) : pastN();
      }
    }
  }

  // ---- flags and counts ----
  // Blocked: the thread's count, then its offset in the warp (wex) from a
  // shuffle scan; an item's place is found when it is stored: a running
  // count (scan01) or the popc of the lower flag bits (mask). Striped: the
  // warp's count is the sum of its rows' ballot popcs, and an item's place
  // the popc of the lower lanes' bits of its row's ballot.
  bool f[I];
#pragma unroll
  for (int j = 0; j < I; ++j) f[j] = x[j] > thr;  // items past n hold NaN: never kept
  unsigned m = 0;                                  // mask: bit j = f[j]
  int wex = 0;
  if constexpr (C::BLOCKED) {
    int count = 0;
    if constexpr (C::CNT == SCAN01) {
#pragma unroll
      for (int j = 0; j < I; ++j) count += (int)f[j];
    } else {
#pragma unroll
      for (int j = 0; j < I; ++j) m |= (unsigned)f[j] << j;
      count = __popc(m);
    }
    int incl = count;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const int u = __shfl_up_sync(kFull, incl, d);
      if (lane >= d) incl += u;
    }
    wex = incl - count;
    if (lane == 31) totals[wid] = incl;
  } else {
    int warpCount = 0;
#pragma unroll
    for (int j = 0; j < I; ++j) warpCount += __popc(__ballot_sync(kFull, f[j]));
    if (lane == 0) totals[wid] = warpCount;
  }
  // dst[place(first + kept items of the warp before item j)] = x[j] for the
  // kept items: `first` is the warp's first place.
  auto scatter = [&](float *dst, int first, auto place) {
    if constexpr (C::BLOCKED && C::CNT == SCAN01) {
      int at = first + wex;
#pragma unroll
      for (int j = 0; j < I; ++j) {
        if (f[j]) dst[place(at)] = x[j];
        at += (int)f[j];
      }
    } else if constexpr (C::BLOCKED) {
#pragma unroll
      for (int j = 0; j < I; ++j)
        if (f[j]) dst[place(first + wex + __popc(m & ((1u << j) - 1u)))] = x[j];
    } else {
      // The ballots again (cheaper than keeping I ranks live across the
      // look-back): rows in order, lanes in order within a row.
      const unsigned lt = (1u << lane) - 1u;
      int row = first;  // place of the row's first kept item
      if constexpr (C::LD == STRIPED) {
#pragma unroll
        for (int j = 0; j < I; ++j) {
          const unsigned b = __ballot_sync(kFull, f[j]);
          if (f[j]) dst[place(row + __popc(b & lt))] = x[j];
          row += __popc(b);
        }
      } else {
#pragma unroll
        for (int r = 0; r < I / 4; ++r) {
          int at = row;
#pragma unroll
          for (int k = 0; k < 4; ++k) {
            const unsigned b = __ballot_sync(kFull, f[4 * r + k]);
            at += __popc(b & lt);
            row += __popc(b);
          }
#pragma unroll
          for (int k = 0; k < 4; ++k) {
            if (f[4 * r + k]) dst[place(at)] = x[4 * r + k];
            at += (int)f[4 * r + k];
          }
        }
      }
    }
  };
  __syncthreads();
  int wpre = 0, agg = 0;
#pragma unroll
  for (int w = 0; w < W; ++w) {
    const int t = totals[w];
    if (w < wid) wpre += t;
    agg += t;
  }

  // ---- staged: gather the kept items now (tile-local places need no
  // look-back; warps other than warp 0 do it while warp 0 looks back) ----
  float *keep = sm + C::KEEP_OFF;
  if constexpr (C::WR == STAGED) scatter(keep, wpre, [](int i) { return padded(i); });

  // ---- decoupled look-back (warp 0) ----
  if (wid == 0) {
    const unsigned base = C::EPOCH ? epoch << 2 : 0u;
    int pre = 0;
    if (tile == 0) {
      if (lane == 0) publish(status, 0, base | 2, agg);
    } else {
      if (lane == 0) publish(status, tile, base | 1, agg);
      if (C::SETTLE) __nanosleep(C::SETTLE);
      pre = lookBack<C>(status, tile, lane, base, guard);
      if (lane == 0) publish(status, tile, base | 2, pre + agg);
    }
    if (lane == 0) {
      *preShared = pre;
      if (Last) *num = pre + agg;
    }
  }
  __syncthreads();
  const int pre = *preShared;

  // ---- write ----
  // adaptive: CUB's ScatterSelectedTwoPhase, staged after the look-back and
  // only if the tile keeps more items than it has threads.
  const bool staged = C::WR == STAGED || (C::WR == ADAPTIVE && agg > T);
  if constexpr (C::WR == ADAPTIVE) {
    if (staged) {
      scatter(keep, wpre, [](int i) { return padded(i); });
      __syncthreads();
    }
  }
  if (C::WR != DIRECTW && staged) {
    // Item tid + j T: at padded(tid) + j (T + T / 32) in the staging buffer.
    const float *from = keep + padded(tid);
    float *to = out + pre + tid;
#pragma unroll
    for (int j = 0; j < I; ++j)
      if (tid + j * T < agg) to[j * T] = from[j * (T + T / 32)];
  } else {
    scatter(out + pre + wpre, 0, [](int i) { return i; });
  }
}

template <class C>
__global__ void __launch_bounds__(C::T, C::MINB > 0 ? C::MINB : 1)
    selectProbe(const float *__restrict__ in, float *__restrict__ out, int *__restrict__ num,
                unsigned long long *status, int n, float thr, unsigned epoch, unsigned *guard) {
  extern __shared__ float4 dynamicSmem[];
  __shared__ int totals[C::W], preShared, tileShared;
  int tile = blockIdx.x;
  if constexpr (C::TICKET) {
    if (threadIdx.x == 0) tileShared = (int)atomicAdd(&status[0], 1ull);
    __syncthreads();
    tile = tileShared;
  }
  const int tiles = (int)(((long long)n + C::TILE - 1) / C::TILE);
  float *sm = reinterpret_cast<float *>(dynamicSmem);
  if (tile < tiles - 1)
    tileBody<C, false>(in, out, num, status, tile, C::TILE, thr, epoch, guard, sm, totals, &preShared);
  else
    tileBody<C, true>(in, out, num, status, tile, n - tile * C::TILE, thr, epoch, guard, sm, totals, &preShared);
}

// ---------------------------------------------------------------------------
// Host side.

struct Greater {
  float threshold;
  __host__ __device__ bool operator()(float x) const { return x > threshold; }
};

// A bijection of [0, 2^bits) (odd multipliers and xor-shifts mod 2^bits).
__device__ unsigned permBits(unsigned v, int bits) {
  const unsigned m = (1u << bits) - 1;
  v = (v * 0x9E3779B1u) & m;
  v ^= v >> 14;
  v = (v * 0x85EBCA6Bu) & m;
  v ^= v >> 13;
  v = (v * 0xC2B2AE35u) & m;
  v ^= v >> 15;
  return v;
}

// x[i] in [2, 4) for exactly half of i < n = 2^bits (the top bit of
// permBits(i)), else in [1, 2); mantissas vary with i. Thresholds 4 (0 %),
// the float below 2 (50 %) and 0.5 (100 %) keep exactly 0, n / 2 and n items.
__global__ void genInput(float *x, int bits) {
  const long long n = 1ll << bits;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const unsigned u = (unsigned)i, keep = (permBits(u, bits) >> (bits - 1)) & 1u;
    const unsigned mant = (u * 2654435761u) >> 9;
    x[i] = __uint_as_float((keep ? 0x40000000u : 0x3F800000u) | mant);
  }
}

// bad[0]: elements that differ (out[i] != ref[i] for i < count, out[i] !=
// sentinel after); bad[1]: the first such i.
__global__ void compareOut(const float *out, const float *ref, long long count, long long total, unsigned sentinel,
                           unsigned long long *bad) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
       i += (long long)gridDim.x * blockDim.x) {
    const unsigned got = __float_as_uint(out[i]);
    const unsigned want = i < count ? __float_as_uint(ref[i]) : sentinel;
    if (got != want) {
      atomicAdd(&bad[0], 1ull);
      atomicMin(&bad[1], (unsigned long long)i);
    }
  }
}

static int gLog2 = 28, N = 1 << 28;  // items of the timed runs (argument 2: log2)
static const int kWarm = 5, kReps = 51;
static float *dIn, *dOut, *dRef;
static int *dNum, *dRefNum;
static unsigned long long *dStatus, *dBad;
static unsigned *dGuard;
static void *dTemp;
static size_t tempBytes;
static unsigned gEpoch;
static int gSMs;
static const char *gFilter;
static bool gCheckOnly;  // argument 3 "check": verify, do not time (for compute-sanitizer)
static const float kThr[3] = {4.0f, 0x1.fffffep0f /* the float below 2 */, 0.5f};
static const char *kFrac[3] = {"0%", "50%", "100%"};
static float cubMs[3];

template <class F> static float timeIt(F launch) { return medianLaunchMs(launch, kWarm, kReps, 100000); }

// tempBytes was sized for N items: enough for any n <= N.
static void runCub(float *out, int *num, int n, float thr) {
  size_t bytes = tempBytes;
  CHECK(cub::DeviceSelect::If(dTemp, bytes, dIn, out, num, (long long)n, Greater{thr}));
}

static int readInt(const int *d) {
  int v;
  CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

// "" if out/num match CUB's selection of in[0, n) > thr, else why not.
template <class Launch> static std::string check(Launch launch, int n, float thr) {
  runCub(dRef, dRefNum, n, thr);
  CHECK(cudaMemsetAsync(dOut, 0xff, (size_t)N * 4));  // sentinel: a NaN the input never holds
  CHECK(cudaMemsetAsync(dNum, 0xff, 4));
  launch(n, thr);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const int want = readInt(dRefNum), got = readInt(dNum);
  char why[256];
  if (got != want) {
    std::snprintf(why, sizeof why, "n=%d thr=%g: count %d, want %d", n, thr, got, want);
    return why;
  }
  unsigned long long init[2] = {0, ~0ull}, bad[2];
  CHECK(cudaMemcpy(dBad, init, sizeof init, cudaMemcpyHostToDevice));
  compareOut<<<4 * gSMs, 512>>>(dOut, dRef, want, N, 0xffffffffu, dBad);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(bad, dBad, sizeof bad, cudaMemcpyDeviceToHost));
  if (bad[0]) {
    float g, w = 0;
    CHECK(cudaMemcpy(&g, dOut + bad[1], 4, cudaMemcpyDeviceToHost));
    if ((long long)bad[1] < want) CHECK(cudaMemcpy(&w, dRef + bad[1], 4, cudaMemcpyDeviceToHost));
    std::snprintf(why, sizeof why, "n=%d thr=%g: %llu of %d elements differ, first at %llu (%g, want %s%g)", n, thr,
                  bad[0], N, bad[1], g, (long long)bad[1] < want ? "" : "untouched, not ", w);
    return why;
  }
  return "";
}

struct Result {
  std::string label;
  float ms[3];
};
static std::vector<Result> results;

static const char *loadName(int l) {
  static const char *s[] = {"transpose", "direct", "striped", "striped4"};
  return s[l];
}

// Whether `label` contains one of gFilter's '|'-separated substrings.
static bool selected(const char *label) {
  if (!gFilter) return true;
  for (const char *p = gFilter;;) {
    const char *bar = std::strchr(p, '|');
    const std::string part = bar ? std::string(p, bar) : std::string(p);
    if (!part.empty() && std::strstr(label, part.c_str())) return true;
    if (!bar) return false;
    p = bar + 1;
  }
}

template <class C> static void variant(const char *label) {
  if (!selected(label)) return;
  auto kernel = selectProbe<C>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)C::SMEM_BYTES));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, kernel));
  int perSM = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, kernel, C::T, C::SMEM_BYTES));
  auto launch = [&](int n, float thr) {
    const int tiles = (int)(((long long)n + C::TILE - 1) / C::TILE);
    if (!C::EPOCH) CHECK(cudaMemsetAsync(dStatus, 0, (size_t)(tiles + 1) * 8));
    kernel<<<tiles, C::T, C::SMEM_BYTES>>>(dIn, dOut, dNum, dStatus, n, thr, C::EPOCH ? ++gEpoch : 0u, dGuard);
  };
  CHECK(cudaMemset(dGuard, 0, 4));
  // Whole tiles and partial last tiles, one tile and many.
  const int cases[][2] = {{N, 0}, {N, 1}, {N, 2}, {N - 777, 1}, {N - 1, 2}, {3 * C::TILE, 1}, {C::TILE + 1, 2},
                          {100003, 1}, {1000, 1}, {1, 2}};
  std::string fail;
  for (auto &c : cases) {
    std::string why = check(launch, std::min(c[0], N), kThr[c[1]]);
    if (!why.empty()) {
      fail = why;
      break;
    }
  }
  unsigned guard = 0;
  CHECK(cudaMemcpy(&guard, dGuard, 4, cudaMemcpyDeviceToHost));
  Result r{label, {0, 0, 0}};
  for (int f = 0; f < 3 && !gCheckOnly; ++f) r.ms[f] = timeIt([&] { launch(N, kThr[f]); });
  unsigned guard2 = 0;
  CHECK(cudaMemcpy(&guard2, dGuard, 4, cudaMemcpyDeviceToHost));
  char pace[16];
  std::snprintf(pace, sizeof pace, "%d/%d", C::SETTLE, C::POLL);
  static const char *cnt[] = {"scan01", "mask"}, *wr[] = {"staged", "direct", "adapt"}, *ca[] = {"nc", "def", "cs"};
  std::printf("%-32s %3dx%-2d %-9s %-6s %-6s %-5s %-8s %-5s %-6s %-3s %d | %3d %2d %5.1f | %.4f %.4f %.4f | %.3f %.3f "
              "%.3f%s%s%s\n",
              label, C::T, C::I, loadName(C::LD), C::BLOCKED ? cnt[C::CNT] : "ballot", wr[C::WR],
              C::WR == DIRECTW ? "-" : C::SEPKEEP ? "sep" : "alias", pace, C::TICKET ? "tckt" : "bidx",
              C::EPOCH ? "epoch" : "memset", ca[C::CACHE], C::MINB, attr.numRegs, perSM,
              (C::SMEM_BYTES + attr.sharedSizeBytes) / 1024.0, r.ms[0], r.ms[1], r.ms[2], cubMs[0] / r.ms[0],
              cubMs[1] / r.ms[1], cubMs[2] / r.ms[2], fail.empty() ? "" : "  FAIL ", fail.c_str(),
              guard || guard2 ? "  GUARD (a look-back gave up)" : "");
  if (!fail.empty() || guard || guard2) std::printf("FAIL %s: %s%s\n", label, fail.c_str(), guard || guard2 ? " GUARD" : "");
  else results.push_back(r);
  std::fflush(stdout);
}

static void timeCub(float *ms) {
  for (int f = 0; f < 3; ++f) ms[f] = timeIt([&] { runCub(dOut, dNum, N, kThr[f]); });
}

int main(int argc, char **argv) {
  const auto start = std::chrono::steady_clock::now();
  if (argc > 1 && argv[1][0]) gFilter = argv[1];
  if (argc > 2) gLog2 = std::atoi(argv[2]);
  gCheckOnly = argc > 3 && !std::strcmp(argv[3], "check");
  if (gLog2 < 12 || gLog2 > 30 || (argc > 3 && !gCheckOnly)) {
    std::fprintf(stderr, "usage: %s [LABEL-SUBSTRING|\"\" [LOG2-N (12..30, default 28) [check]]]\n", argv[0]);
    return 2;
  }
  N = 1 << gLog2;
  const long long want[3] = {0, N / 2, N};
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  gSMs = prop.multiProcessorCount;
  std::printf("%s, %d SMs, L2 %d MiB; n = 2^%d f32 (%.2f GiB); median of %d after %d warm-up launches\n", prop.name,
              gSMs, prop.l2CacheSize >> 20, gLog2, N / 268435456.0, kReps, kWarm);
  CHECK(cudaMalloc(&dIn, (size_t)N * 4));
  CHECK(cudaMalloc(&dOut, (size_t)N * 4));
  CHECK(cudaMalloc(&dRef, (size_t)N * 4));
  CHECK(cudaMalloc(&dNum, 4));
  CHECK(cudaMalloc(&dRefNum, 4));
  CHECK(cudaMalloc(&dBad, 16));
  CHECK(cudaMalloc(&dGuard, 4));
  CHECK(cudaMalloc(&dStatus, ((size_t)N / 1024 + 2) * 8));  // tiles of 1024 items at the least
  CHECK(cudaMemset(dStatus, 0, ((size_t)N / 1024 + 2) * 8));
  genInput<<<4 * gSMs, 512>>>(dIn, gLog2);
  CHECK(cudaGetLastError());
  CHECK(cub::DeviceSelect::If(nullptr, tempBytes, dIn, dOut, dNum, (long long)N, Greater{0.f}));
  CHECK(cudaMalloc(&dTemp, tempBytes));
  for (int f = 0; f < 3; ++f) {
    runCub(dOut, dNum, N, kThr[f]);
    const int got = readInt(dNum);
    if (got != want[f]) std::printf("FAIL CUB at %s: selected %d, want %lld (input generator)\n", kFrac[f], got, want[f]);
  }
  if (gCheckOnly) {
    cubMs[0] = cubMs[1] = cubMs[2] = 0;
  } else {
    timeCub(cubMs);
  }
  const float copyMs = timeIt([&] { CHECK(cudaMemcpyAsync(dOut, dIn, (size_t)N * 4, cudaMemcpyDeviceToDevice)); });
  std::printf("CUB DeviceSelect::If: %.4f / %.4f / %.4f ms at 0 / 50 / 100 %% kept; D2D copy %.4f ms (%.0f GB/s)\n",
              cubMs[0], cubMs[1], cubMs[2], copyMs, 2.0 * N * 4 / copyMs / 1e6);
  std::printf("%-32s %-6s %-9s %-6s %-6s %-5s %-8s %-5s %-6s %-3s %s | %3s %2s %5s | %-6s %-6s %-6s | cub/this at "
              "0 50 100 %%\n",
              "variant", "TxI", "load", "count", "write", "keep", "pace", "tile", "reset", "ld", "minB", "reg", "bk",
              "smemK", "ms@0", "ms@50", "ms@100");

  // The current kernel, then each lever switched alone.
  variant<Ours>("ours");
  variant<Ours::Pace<1150, 76>>("ours, CUB pacing 1150/76");
  variant<Ours::Pace<0, 0>>("ours, no pacing");
  variant<Ours::Pace<600, 200>>("ours, pacing 600/200");
  variant<Ours::Pace<2400, 648>>("ours, settle 2400");
  variant<Ours::Pace<1245, 76>>("ours, poll 76");
  variant<Ours::Write<DIRECTW>>("ours, direct stores");
  variant<Ours::Write<ADAPTIVE>>("ours, adaptive stores");
  variant<Ours::SepKeep<false>>("ours, staging aliases exchange");
  variant<Ours::Count<MASK>>("ours, mask count");
  variant<Ours::Load<DIRECT>>("ours, direct vector loads");
  variant<Ours::Load<STRIPED>>("ours, striped+ballot");
  variant<Ours::Load<STRIPED4>>("ours, striped4+ballot");
  variant<Ours::Cache<DEF>>("ours, ld.global (CUB)");
  variant<Ours::Cache<CS>>("ours, ld.global.cs");
  variant<Ours::Ticket<true>>("ours, ticket");
  variant<Ours::Epoch<true>>("ours, epoch (no memset)");
  variant<Ours::MinB<5>>("ours, minBlocks 5");
  // Our algorithm at every tile shape.
  variant<Ours::Shape<128, 8>>("ours 128x8");
  variant<Ours::Shape<128, 12>>("ours 128x12");
  variant<Ours::Shape<128, 16>>("ours 128x16");
  variant<Ours::Shape<128, 17>>("ours 128x17");
  variant<Ours::Shape<128, 20>>("ours 128x20");
  variant<Ours::Shape<128, 24>>("ours 128x24");
  variant<Ours::Shape<256, 8>>("ours 256x8");
  variant<Ours::Shape<256, 12>>("ours 256x12");
  variant<Ours::Shape<256, 17>>("ours 256x17");
  variant<Ours::Shape<256, 20>>("ours 256x20");
  variant<Ours::Shape<256, 24>>("ours 256x24");
  variant<Ours::Shape<384, 8>>("ours 384x8");
  variant<Ours::Shape<384, 12>>("ours 384x12");
  variant<Ours::Shape<384, 16>>("ours 384x16");
  variant<Ours::Shape<384, 17>>("ours 384x17");
  variant<Ours::Shape<384, 20>>("ours 384x20");
  variant<Ours::Shape<384, 24>>("ours 384x24");
  variant<Ours::Shape<512, 8>>("ours 512x8");
  variant<Ours::Shape<512, 12>>("ours 512x12");
  variant<Ours::Shape<512, 16>>("ours 512x16");
  variant<Ours::Shape<512, 17>>("ours 512x17");
  variant<Ours::Shape<512, 20>>("ours 512x20");
  variant<Ours::Shape<512, 24>>("ours 512x24");
  // CUB's choices, and each taken back.
  variant<CubLike>("cublike 384x17");
  variant<CubLike::Shape<256, 16>>("cublike 256x16");
  variant<CubLike::Pace<1245, 648>>("cublike, our pacing");
  variant<CubLike::Write<STAGED>::SepKeep<true>>("cublike, our staging");
  variant<CubLike::Cache<NC>>("cublike, ld.global.nc");
  variant<CubLike::Count<MASK>>("cublike, mask count");
  // Striped float4 loads + ballots + direct stores (no staging memory), at
  // every shape (Items 17: striped scalar loads), then its levers.
  variant<S4D::Shape<128, 8>>("s4d 128x8");
  variant<S4D::Shape<128, 12>>("s4d 128x12");
  variant<S4D::Shape<128, 16>>("s4d 128x16");
  variant<S4D::Load<STRIPED>::Shape<128, 17>>("s1d 128x17");
  variant<S4D::Shape<128, 20>>("s4d 128x20");
  variant<S4D::Shape<128, 24>>("s4d 128x24");
  variant<S4D::Shape<256, 8>>("s4d 256x8");
  variant<S4D::Shape<256, 12>>("s4d 256x12");
  variant<S4D>("s4d 256x16");
  variant<S4D::Load<STRIPED>::Shape<256, 17>>("s1d 256x17");
  variant<S4D::Shape<256, 20>>("s4d 256x20");
  variant<S4D::Shape<256, 24>>("s4d 256x24");
  variant<S4D::Shape<384, 8>>("s4d 384x8");
  variant<S4D::Shape<384, 12>>("s4d 384x12");
  variant<S4D::Shape<384, 16>>("s4d 384x16");
  variant<S4D::Load<STRIPED>::Shape<384, 17>>("s1d 384x17");
  variant<S4D::Shape<384, 20>>("s4d 384x20");
  variant<S4D::Shape<384, 24>>("s4d 384x24");
  variant<S4D::Shape<512, 8>>("s4d 512x8");
  variant<S4D::Shape<512, 12>>("s4d 512x12");
  variant<S4D::Shape<512, 16>>("s4d 512x16");
  variant<S4D::Load<STRIPED>::Shape<512, 17>>("s1d 512x17");
  variant<S4D::Shape<512, 20>>("s4d 512x20");
  variant<S4D::Shape<512, 24>>("s4d 512x24");
  variant<S4D::Load<STRIPED>>("s4d, scalar striped loads");
  variant<S4D::Write<ADAPTIVE>>("s4d, adaptive stores");
  variant<S4D::Write<STAGED>>("s4d, staged stores");
  variant<S4D::Pace<1150, 76>>("s4d, CUB pacing 1150/76");
  variant<S4D::Pace<0, 0>>("s4d, no pacing");
  variant<S4D::Pace<600, 200>>("s4d, pacing 600/200");
  variant<S4D::Epoch<true>>("s4d, epoch (no memset)");
  variant<S4D::Cache<DEF>>("s4d, ld.global (CUB)");
  variant<S4D::Cache<CS>>("s4d, ld.global.cs");
  // Blocked vector loads without an exchange, bit-mask counts.
  variant<S4D::Load<DIRECT>::Count<MASK>>("direct+mask, direct stores");
  variant<S4D::Load<DIRECT>::Count<MASK>::Write<ADAPTIVE>>("direct+mask, adaptive stores");
  // Combinations.
  variant<S4D::Shape<384, 16>::Pace<1150, 76>>("s4d 384x16, CUB pacing");
  variant<S4D::Shape<384, 16>::Epoch<true>>("s4d 384x16, epoch");
  variant<S4D::Shape<384, 16>::Write<ADAPTIVE>>("s4d 384x16, adaptive");
  variant<S4D::Shape<512, 16>::Write<ADAPTIVE>::Epoch<true>>("s4d 512x16, adaptive, epoch");
  variant<S4D::Shape<256, 24>::Write<ADAPTIVE>::Epoch<true>>("s4d 256x24, adaptive, epoch");
  variant<Ours::Write<ADAPTIVE>::SepKeep<false>>("ours, adaptive+alias");
  variant<Ours::Write<ADAPTIVE>::Shape<256, 24>>("ours 256x24, adaptive");
  variant<Ours::Write<ADAPTIVE>::Shape<128, 20>>("ours 128x20, adaptive");
  variant<Ours::Shape<256, 24>::MinB<5>>("ours 256x24, minBlocks 5");
  variant<S4D::Shape<256, 24>::Write<ADAPTIVE>>("s4d 256x24, adaptive");
  variant<S4D::Shape<128, 24>::Write<ADAPTIVE>>("s4d 128x24, adaptive");
  variant<S4D::Shape<384, 24>::Write<ADAPTIVE>>("s4d 384x24, adaptive");
  variant<S4D::Shape<256, 20>::Write<ADAPTIVE>>("s4d 256x20, adaptive");
  variant<S4D::Shape<256, 24>::Write<STAGED>>("s4d 256x24, staged");
  variant<S4D::Shape<256, 24>::Write<ADAPTIVE>::Pace<600, 200>>("s4d 256x24, adaptive, pacing 600/200");
  variant<S4D::Shape<256, 24>::Write<ADAPTIVE>::MinB<5>>("s4d 256x24, adaptive, minBlocks 5");
  variant<S4D::Load<STRIPED>::Shape<384, 17>::Write<ADAPTIVE>>("s1d 384x17, adaptive");
  variant<S4D::Load<STRIPED>::Shape<256, 24>::Write<ADAPTIVE>>("s1d 256x24, adaptive");
  variant<Ours::Write<ADAPTIVE>::SepKeep<false>::Count<MASK>>("ours, adaptive+alias+mask");
  variant<Ours::Write<ADAPTIVE>::SepKeep<false>::Count<MASK>::Shape<384, 17>::Pace<1150, 76>>(
      "ours, adaptive+alias+mask 384x17 CUB pacing");

  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  if (gCheckOnly) {
    std::printf("\n%zu variants checked, all passed unless FAIL is printed above (%.0f s)\n", results.size(), seconds());
    return 0;
  }
  float cubEnd[3];
  timeCub(cubEnd);
  std::printf("\nCUB again at the end: %.4f / %.4f / %.4f ms (start %.4f / %.4f / %.4f)\n", cubEnd[0], cubEnd[1],
              cubEnd[2], cubMs[0], cubMs[1], cubMs[2]);
  if (results.empty()) return 0;
  std::printf("Best passing variant per fraction kept (cub/this > 1: faster than CUB):\n");
  for (int f = 0; f < 3; ++f) {
    auto best = std::min_element(results.begin(), results.end(),
                                 [f](const Result &a, const Result &b) { return a.ms[f] < b.ms[f]; });
    std::printf("  %-4s %-44s %.4f ms  cub/this %.3f\n", kFrac[f], best->label.c_str(), best->ms[f],
                cubMs[f] / best->ms[f]);
  }
  std::vector<std::pair<double, std::string>> geo;
  for (auto &r : results) {
    double g = 1;
    for (int f = 0; f < 3; ++f) g *= cubMs[f] / r.ms[f];
    geo.push_back({std::cbrt(g), r.label});
  }
  std::sort(geo.rbegin(), geo.rend());
  std::printf("Top 8 by geometric mean of cub/this over the three fractions:\n");
  for (size_t i = 0; i < geo.size() && i < 8; ++i) std::printf("  %-44s %.3f\n", geo[i].second.c_str(), geo[i].first);
  std::printf("%zu variants passed, %.0f s\n", results.size(), seconds());
  return 0;
}
