// Which parts of CUB's single-pass scan make it faster than the warp
// kernels' algorithm (benchmarks/device/gen_kernels.py, the same as
// handTileScan in baselines.cu)? Each variant changes one or more of:
//   Threads x Items  tile shape (ours 256 x 8, CUB's sm_90 tuning 128 x 24)
//   Ticket           tile index from an atomic counter (ours) or blockIdx.x (CUB)
//   Relaxed          status words stored/loaded relaxed (CUB) or release/acquire (ours)
//   DelayNs          __nanosleep between look-back polls (CUB: 648 ns, and
//                    one initial wait of InitNs after publishing the aggregate)
//   Transpose        striped coalesced loads/stores through shared memory
//                    (CUB's BLOCK_LOAD/STORE_WARP_TRANSPOSE) instead of each
//                    thread's vector loads of its own consecutive items
//   Persistent       a resident grid, each block scanning tiles b, b+G, ... and
//                    loading its next tile before its look-back (issue 32)
// A diagnostic for issues 12 and 32, not part of the benchmark table:
//   nvcc -O3 -arch=sm_90 -std=c++17 scan_probe.cu -o scan_probe && ./scan_probe
#include "probe_timing.cuh"

#include <cub/device/device_scan.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>


// Warp 0 of tile `tile` publishes its aggregate `agg`, looks back over
// the tiles before it (a 32-tile window a step) and publishes its
// inclusive prefix; returns the exclusive prefix (in every lane).
template <bool Relaxed, int DelayNs, int InitNs>
__device__ int tilePrefix(unsigned long long *status, long long tile, int agg, int lane) {
  auto store = [&](long long t, unsigned long long flag, int v) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> w(status[1 + t]);
    w.store(flag << 32 | (unsigned)v, Relaxed ? cuda::memory_order_relaxed : cuda::memory_order_release);
  };
  int pre = 0;
  if (tile == 0) {
    if (lane == 0) store(tile, 2, agg);
    return 0;
  }
  if (lane == 0) store(tile, 1, agg);
  if (InitNs) __nanosleep(InitNs);
  for (long long end = tile - 1;; end -= 32) {
    long long p = end - lane;
    unsigned long long w;
    while (true) {
      w = 2ull << 32;
      if (p >= 0) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> a(status[1 + p]);
        w = a.load(Relaxed ? cuda::memory_order_relaxed : cuda::memory_order_acquire);
      }
      if (!__any_sync(0xffffffffu, (w >> 32) == 0)) break;
      if (DelayNs) __nanosleep(DelayNs);
    }
    unsigned prefixes = __ballot_sync(0xffffffffu, (w >> 32) == 2);
    int nearest = prefixes ? __ffs(prefixes) - 1 : 31;
    int v = lane <= nearest ? (int)(unsigned)w : 0;
    pre += __reduce_add_sync(0xffffffffu, v);
    if (prefixes) break;
  }
  if (lane == 0) store(tile, 2, pre + agg);
  return pre;
}

// Each thread's items scanned in place (inclusive, within the thread);
// returns what the block's threads before this one hold and sets `agg`
// to the tile's total (one barrier: `totals` is free again after the
// caller's next one).
template <int Warps, int Items>
__device__ int scanItems(int (&x)[Items], int *totals, int lane, int wid, int &agg) {
#pragma unroll
  for (int j = 1; j < Items; ++j) x[j] += x[j - 1];
  int incl = x[Items - 1];
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    int u = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl += u;
  }
  int wex = incl - x[Items - 1];
  if (lane == 31) totals[wid] = incl;
  __syncthreads();
  int wpre = 0;
  agg = 0;
#pragma unroll
  for (int j = 0; j < Warps; ++j) {
    int t = totals[j];
    if (j < wid) wpre += t;
    agg += t;
  }
  return wpre + wex;
}

template <int Threads, int Items, bool Ticket, bool Relaxed, int DelayNs, int InitNs, bool Transpose>
__global__ void __launch_bounds__(Threads)
    probeScan(const int *__restrict__ in, int *__restrict__ out, unsigned long long *status) {
  constexpr int Warps = Threads / 32, Tile = Threads * Items;
  constexpr int WarpItems = 32 * Items;
  __shared__ long long tileShared;
  __shared__ int totals[Warps], prefixShared;
  __shared__ int stage[Transpose ? Warps * (WarpItems + WarpItems / 32) : 1];
  int tid = threadIdx.x, lane = tid % 32, wid = tid / 32;
  long long tile = blockIdx.x;
  if (Ticket) {
    if (tid == 0) tileShared = (long long)atomicAdd(&status[0], 1ull);
    __syncthreads();
    tile = tileShared;
  }
  int x[Items];
  const int *tin = in + tile * Tile;
  int *tout = out + tile * Tile;
  auto pad = [](int i) { return i + i / 32; };
  int *ws = stage + wid * (WarpItems + WarpItems / 32);
  if (Transpose) {
#pragma unroll
    for (int j = 0; j < Items; ++j) ws[pad(j * 32 + lane)] = tin[wid * WarpItems + j * 32 + lane];
    __syncwarp();
#pragma unroll
    for (int j = 0; j < Items; ++j) x[j] = ws[pad(lane * Items + j)];
  } else {
#pragma unroll
    for (int j = 0; j < Items; j += 4) {
      int4 v = *reinterpret_cast<const int4 *>(tin + tid * Items + j);
      x[j] = v.x, x[j + 1] = v.y, x[j + 2] = v.z, x[j + 3] = v.w;
    }
  }
  int agg, before = scanItems<Warps>(x, totals, lane, wid, agg);
  if (wid == 0) {
    int pre = tilePrefix<Relaxed, DelayNs, InitNs>(status, tile, agg, lane);
    if (lane == 0) prefixShared = pre;
  }
  __syncthreads();
  int offset = prefixShared + before;
  if (Transpose) {
#pragma unroll
    for (int j = 0; j < Items; ++j) ws[pad(lane * Items + j)] = offset + x[j];
    __syncwarp();
#pragma unroll
    for (int j = 0; j < Items; ++j) tout[wid * WarpItems + j * 32 + lane] = ws[pad(j * 32 + lane)];
  } else {
#pragma unroll
    for (int j = 0; j < Items; j += 4)
      *reinterpret_cast<int4 *>(tout + tid * Items + j) =
          int4{offset + x[j], offset + x[j + 1], offset + x[j + 2], offset + x[j + 3]};
  }
}

// Toward the copy's rate: a persistent grid (as many blocks as are
// resident at once; block b scans tiles b, b + G, b + 2G, ... in order,
// so every predecessor a look-back waits on belongs to a running block)
// in which, with Prefetch, a block issues the loads of its next tile
// before its look-back, so that memory stays busy while it waits. Hint 1:
// streaming (evict-first) loads and stores, __ldcs/__stcs. With Ticket the
// blocks take their tiles from a counter instead (any grid is then free
// of deadlock: a tile's predecessors were all taken before it by blocks
// that run), and the grid need not fit at once.
template <int Threads, int Items, bool Prefetch, int Hint, bool Ticket>
__global__ void __launch_bounds__(Threads)
    probePersistent(const int *__restrict__ in, int *__restrict__ out, unsigned long long *status, long long tiles) {
  constexpr int Warps = Threads / 32, Tile = Threads * Items;
  constexpr int WarpItems = 32 * Items;
  __shared__ int totals[Warps], prefixShared;
  __shared__ int stage[Warps * (WarpItems + WarpItems / 32)];
  int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  auto pad = [](int i) { return i + i / 32; };
  int *ws = stage + wid * (WarpItems + WarpItems / 32);
  int raw[Items];
  auto load = [&](long long t) {
    const int *p = in + t * Tile + wid * WarpItems + lane;
#pragma unroll
    for (int j = 0; j < Items; ++j) raw[j] = Hint ? __ldcs(p + j * 32) : __ldg(p + j * 32);
  };
  __shared__ long long ticket;
  auto take = [&]() -> long long {
    if (threadIdx.x == 0) ticket = (long long)atomicAdd(&status[0], 1ull);
    __syncthreads();
    return ticket;
  };
  long long tile = Ticket ? take() : blockIdx.x;
  if (Prefetch && tile < tiles) load(tile);
  while (tile < tiles) {
    long long next = !Ticket ? tile + gridDim.x : Prefetch ? take() : tiles;
    if (!Prefetch) load(tile);
#pragma unroll
    for (int j = 0; j < Items; ++j) ws[pad(j * 32 + lane)] = raw[j];
    __syncwarp();
    int x[Items];
#pragma unroll
    for (int j = 0; j < Items; ++j) x[j] = ws[pad(lane * Items + j)];
    if (Prefetch && next < tiles) load(next);
    int agg, before = scanItems<Warps>(x, totals, lane, wid, agg);
    if (wid == 0) {
      int pre = tilePrefix<true, 648, 1245>(status, tile, agg, lane);
      if (lane == 0) prefixShared = pre;
    }
    __syncthreads();
    int offset = prefixShared + before;
#pragma unroll
    for (int j = 0; j < Items; ++j) ws[pad(lane * Items + j)] = offset + x[j];
    __syncwarp();
    int *p = out + tile * Tile + wid * WarpItems + lane;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      int v = ws[pad(j * 32 + lane)];
      if (Hint)
        __stcs(p + j * 32, v);
      else
        p[j * 32] = v;
    }
    __syncwarp();
    if (Ticket && !Prefetch) next = take();
    tile = next;
  }
}

static const long long N = 1ll << 28;

template <class F> static float timeIt(F launch) { return medianLaunchMs(launch, 3, 30); }

static int *dIn, *dOut, *dRef;
static unsigned long long *dStatus;
static std::vector<int> hRef, hOut;
static float cubMs, copyMs;

// Checks one launch's output against the host's scan, then prints the
// median time per 2^28 elements beside CUB's.
template <class F>
static void report(const char *what, F launch, long long n, int threads, int items, const char *settings) {
  launch();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hOut.data(), dOut, n * 4, cudaMemcpyDeviceToHost));
  long long bad = 0;
  for (long long i = 0; i < n; ++i) bad += hOut[i] != hRef[i];
  float ms = timeIt(launch) * (double)N / n;  // per 2^28 elements
  std::printf("%-46s %4dx%-2d %-52s %.3f ms  cub/this %.3f  copy/this %.3f%s\n", what, threads, items, settings, ms,
              cubMs / ms, copyMs / ms, bad ? "  WRONG" : "");
}

template <int Threads, int Items, bool Ticket, bool Relaxed, int DelayNs, int InitNs, bool Transpose>
static void variant(const char *what) {
  constexpr long long Tile = Threads * Items;
  long long tiles = N / Tile, n = tiles * Tile;
  auto launch = [&] {
    CHECK(cudaMemsetAsync(dStatus, 0, (tiles + 1) * 8));
    probeScan<Threads, Items, Ticket, Relaxed, DelayNs, InitNs, Transpose><<<tiles, Threads>>>(dIn, dOut, dStatus);
  };
  char settings[96];
  std::snprintf(settings, sizeof settings, "ticket=%d relaxed=%d delay=%4d init=%4d transpose=%d", Ticket, Relaxed,
                DelayNs, InitNs, Transpose);
  report(what, launch, n, Threads, Items, settings);
}

template <int Threads, int Items, bool Prefetch, int Hint, bool Ticket = false>
static void persistent(const char *what, int blocksPerSM = 0) {
  constexpr long long Tile = Threads * Items;
  long long tiles = N / Tile, n = tiles * Tile;
  auto kernel = probePersistent<Threads, Items, Prefetch, Hint, Ticket>;
  int resident = 0, sms = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, Threads, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int perSM = blocksPerSM ? std::min(blocksPerSM, resident) : resident;
  long long grid = std::min<long long>(tiles, (long long)perSM * sms);
  auto launch = [&] {
    CHECK(cudaMemsetAsync(dStatus, 0, (tiles + 1) * 8));
    kernel<<<grid, Threads>>>(dIn, dOut, dStatus, tiles);
  };
  char settings[96];
  std::snprintf(settings, sizeof settings, "persistent %d/SM (of %d) prefetch=%d hint=%d ticket=%d", perSM, resident,
                Prefetch, Hint, Ticket);
  report(what, launch, n, Threads, Items, settings);
}

int main() {
  CHECK(cudaMalloc(&dIn, N * 4));
  CHECK(cudaMalloc(&dOut, N * 4));
  CHECK(cudaMalloc(&dRef, N * 4));
  CHECK(cudaMalloc(&dStatus, (N / 256 + 2) * 8));
  std::vector<int> h(N);
  unsigned s = 12345;
  for (auto &v : h) s = s * 1664525u + 1013904223u, v = (int)(s >> 28) - 8;
  CHECK(cudaMemcpy(dIn, h.data(), N * 4, cudaMemcpyHostToDevice));
  hRef.resize(N);
  hOut.resize(N);
  long long run = 0;
  for (long long i = 0; i < N; ++i) run += h[i], hRef[i] = (int)run;
  size_t bytes = 0;
  void *temp = nullptr;
  CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, dIn, dRef, N));
  CHECK(cudaMalloc(&temp, bytes));
  auto cub = [&] { CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, dIn, dRef, N)); };
  cubMs = timeIt(cub);
  auto copy = [&] { CHECK(cudaMemcpyAsync(dOut, dIn, N * 4, cudaMemcpyDeviceToDevice)); };
  copyMs = timeIt(copy);
  std::printf("CUB InclusiveSum i32 2^28: %.3f ms; D2D copy %.3f ms (%.0f GB/s)\n", cubMs, copyMs, 2 * N * 4 / copyMs / 1e6);
  variant<256, 8, true, false, 0, 0, false>("ours (warp kernels' algorithm)");
  variant<256, 8, false, false, 0, 0, false>("ours, blockIdx tiles");
  variant<256, 8, true, true, 0, 0, false>("ours, relaxed");
  variant<256, 8, true, false, 648, 1245, false>("ours, delays");
  variant<256, 8, true, false, 0, 0, true>("ours, transposed");
  variant<256, 8, false, true, 648, 1245, false>("blockIdx+relaxed+delays");
  variant<256, 8, false, true, 648, 1245, true>("blockIdx+relaxed+delays+transposed");
  variant<128, 24, false, true, 648, 1245, true>("CUB's shape and choices");
  variant<128, 24, false, true, 648, 1245, false>("CUB's, direct vector loads");
  variant<128, 24, false, true, 0, 0, true>("CUB's, no delays");
  variant<128, 24, false, false, 648, 1245, true>("CUB's, acquire/release");
  variant<128, 24, true, true, 648, 1245, true>("CUB's, ticket");
  variant<256, 16, false, true, 648, 1245, true>("256x16, CUB's choices");
  variant<128, 16, false, true, 648, 1245, true>("128x16, CUB's choices");
  variant<256, 24, false, true, 648, 1245, true>("256x24, CUB's choices");
  variant<128, 24, true, false, 0, 0, false>("128x24, ours otherwise");
  persistent<256, 16, false, 0>("persistent, no prefetch");
  persistent<256, 16, true, 0>("persistent, prefetch");
  persistent<256, 16, true, 1>("persistent, prefetch, streaming hints");
  persistent<256, 16, false, 1>("persistent, streaming hints");
  persistent<256, 16, true, 0>("persistent, prefetch, 2 blocks/SM", 2);
  persistent<256, 16, true, 0>("persistent, prefetch, 3 blocks/SM", 3);
  persistent<128, 24, true, 0>("persistent 128x24, prefetch");
  persistent<256, 8, true, 0>("persistent 256x8, prefetch");
  persistent<256, 24, true, 0>("persistent 256x24, prefetch");
  persistent<512, 16, true, 0>("persistent 512x16, prefetch");
  persistent<256, 16, true, 0, true>("persistent, prefetch, ticket");
  persistent<256, 16, false, 0, true>("persistent, ticket");
  return 0;
}
