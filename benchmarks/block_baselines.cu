// CUB baselines for benchmarks/block_bench.py (issue 31): CUB's block
// primitives, one extern "C" __global__ kernel per configuration, each the
// counterpart of a warp kernel of the same name with `warp_` for `cub_`
// (block_bench.py writes those). Built on the GPU host in the same run
// (nvcc -O3 -arch=sm_90 -cubin; CUB from the CUDA toolkit's CCCL) and
// launched through cupy with T threads per block and one tile of T * N items
// per block (grid = n / (T * N)).
//
// Arguments are plain pointers (the warp kernels take memref descriptors:
// the same pointers, the sizes unused); non-const, as in CUB's examples, so
// that BlockLoad's VECTORIZE overload for T* applies in every CCCL version.
// Every kernel has __launch_bounds__(T), as the warp kernels' `.maxntid T`
// (from known_block_size).
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace {

// ---------------------------------------------------------------------------
// 1. Load/store arrangements: a tile loaded and stored with the same
// algorithm. The load's and the store's temporary storage share memory (a
// union, as CUB's examples do), with the synchronization CUB asks for before
// storage is reused: __syncthreads() for TRANSPOSE (block-wide exchange),
// __syncwarp() for WARP_TRANSPOSE (each warp reuses its own slice), none
// for DIRECT and VECTORIZE (no storage).
template <int T, int N, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA>
__device__ __forceinline__ void copyTile(float *in, float *out) {
  using Load = cub::BlockLoad<float, T, N, LA>;
  using Store = cub::BlockStore<float, T, N, SA>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } temp;
  const int offset = blockIdx.x * (T * N);
  float items[N];
  Load(temp.load).Load(in + offset, items);
  if (LA == cub::BLOCK_LOAD_TRANSPOSE)
    __syncthreads();
  else if (LA == cub::BLOCK_LOAD_WARP_TRANSPOSE)
    __syncwarp();
  Store(temp.store).Store(out + offset, items);
}

// The striped form: LoadDirectStriped / StoreDirectStriped (coalesced, no
// storage).
template <int T, int N> __device__ __forceinline__ void copyTileStriped(float *in, float *out) {
  const int offset = blockIdx.x * (T * N);
  float items[N];
  cub::LoadDirectStriped<T>(threadIdx.x, in + offset, items);
  cub::StoreDirectStriped<T>(threadIdx.x, out + offset, items);
}

// ---------------------------------------------------------------------------
// 2. Items-per-thread reduce and scan: the tile loaded blocked with
// BLOCK_LOAD_VECTORIZE, BlockReduce::Sum(items) (thread 0 writes the
// block's sum) or BlockScan::InclusiveSum(items, items) stored back with
// BLOCK_STORE_VECTORIZE. CUB's default algorithms (reduce: WARP_REDUCTIONS,
// scan: RAKING).
template <class V, int T, int N,
          cub::BlockReduceAlgorithm A = cub::BLOCK_REDUCE_WARP_REDUCTIONS>
__device__ __forceinline__ void reduceTile(V *in, V *out) {
  using Load = cub::BlockLoad<V, T, N, cub::BLOCK_LOAD_VECTORIZE>;
  using Reduce = cub::BlockReduce<V, T, A>;
  __shared__ typename Reduce::TempStorage temp;
  V items[N];
  Load().Load(in + blockIdx.x * (T * N), items);
  V sum = Reduce(temp).Sum(items);
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}

template <class V, int T, int N> __device__ __forceinline__ void scanTile(V *in, V *out) {
  using Load = cub::BlockLoad<V, T, N, cub::BLOCK_LOAD_VECTORIZE>;
  using Scan = cub::BlockScan<V, T>;
  using Store = cub::BlockStore<V, T, N, cub::BLOCK_STORE_VECTORIZE>;
  __shared__ typename Scan::TempStorage temp;
  const int offset = blockIdx.x * (T * N);
  V items[N];
  Load().Load(in + offset, items);
  Scan(temp).InclusiveSum(items, items);
  Store().Store(out + offset, items);
}

// ---------------------------------------------------------------------------
// 3. Block histogram: 256 threads x N 8-bit samples (BLOCK_LOAD_VECTORIZE),
// BlockHistogram::Histogram (zeroes the 256 shared bins, then counts), a
// barrier, and each thread adds one bin to the global histogram (skipping
// empty bins), as the warp kernels do.
template <int N, cub::BlockHistogramAlgorithm A>
__device__ __forceinline__ void histogramTile(unsigned char *in, unsigned *hist) {
  using Load = cub::BlockLoad<unsigned char, 256, N, cub::BLOCK_LOAD_VECTORIZE>;
  using Histogram = cub::BlockHistogram<unsigned char, 256, N, 256, A>;
  __shared__ typename Histogram::TempStorage temp;
  __shared__ unsigned bins[256];
  unsigned char samples[N];
  Load().Load(in + blockIdx.x * (256 * N), samples);
  Histogram(temp).Histogram(samples, bins);
  __syncthreads();
  unsigned count = bins[threadIdx.x];
  if (count != 0)
    atomicAdd(&hist[threadIdx.x], count);
}

// ---------------------------------------------------------------------------
// 4. Block radix sort of 32-bit unsigned keys (and u32 values): the tile
// loaded blocked (BLOCK_LOAD_VECTORIZE, no shared storage), then as CUB's
// example_block_radix_sort: SortBlockedToStriped and StoreDirectStriped
// (Striped = true), or Sort and a blocked BLOCK_STORE_VECTORIZE store.
// BlockRadixSort's defaults (4 radix bits).
template <int T, int N, bool Striped> __device__ __forceinline__ void sortKeys(unsigned *in, unsigned *out) {
  using Load = cub::BlockLoad<unsigned, T, N, cub::BLOCK_LOAD_VECTORIZE>;
  using Sort = cub::BlockRadixSort<unsigned, T, N>;
  using Store = cub::BlockStore<unsigned, T, N, cub::BLOCK_STORE_VECTORIZE>;
  __shared__ typename Sort::TempStorage temp;
  const int offset = blockIdx.x * (T * N);
  unsigned keys[N];
  Load().Load(in + offset, keys);
  if (Striped) {
    Sort(temp).SortBlockedToStriped(keys);
    cub::StoreDirectStriped<T>(threadIdx.x, out + offset, keys);
  } else {
    Sort(temp).Sort(keys);
    Store().Store(out + offset, keys);
  }
}

template <int T, int N, bool Striped>
__device__ __forceinline__ void sortPairs(unsigned *keysIn, unsigned *valuesIn, unsigned *keysOut,
                                          unsigned *valuesOut) {
  using Load = cub::BlockLoad<unsigned, T, N, cub::BLOCK_LOAD_VECTORIZE>;
  using Sort = cub::BlockRadixSort<unsigned, T, N, unsigned>;
  using Store = cub::BlockStore<unsigned, T, N, cub::BLOCK_STORE_VECTORIZE>;
  __shared__ typename Sort::TempStorage temp;
  const int offset = blockIdx.x * (T * N);
  unsigned keys[N], values[N];
  Load().Load(keysIn + offset, keys);
  Load().Load(valuesIn + offset, values);
  if (Striped) {
    Sort(temp).SortBlockedToStriped(keys, values);
    cub::StoreDirectStriped<T>(threadIdx.x, keysOut + offset, keys);
    cub::StoreDirectStriped<T>(threadIdx.x, valuesOut + offset, values);
  } else {
    Sort(temp).Sort(keys, values);
    Store().Store(keysOut + offset, keys);
    Store().Store(valuesOut + offset, values);
  }
}

// ---------------------------------------------------------------------------
// 4b. Warp merge sort of 32-bit unsigned keys (and u32 values): the block's
// tile loaded blocked (BLOCK_LOAD_VECTORIZE), each warp's 32 N items sorted
// on their own by WarpMergeSort<unsigned, N, 32>::Sort with an unsigned
// less-than (one TempStorage per warp), stored blocked (vectorize).
struct UnsignedLess {
  __device__ bool operator()(unsigned a, unsigned b) const { return a < b; }
};

template <int T, int N, bool Pairs>
__device__ __forceinline__ void mergeSortTile(unsigned *keysIn, unsigned *valuesIn, unsigned *keysOut,
                                              unsigned *valuesOut) {
  using Load = cub::BlockLoad<unsigned, T, N, cub::BLOCK_LOAD_VECTORIZE>;
  using Store = cub::BlockStore<unsigned, T, N, cub::BLOCK_STORE_VECTORIZE>;
  using Sort = cub::WarpMergeSort<unsigned, N, 32, ::cuda::std::conditional_t<Pairs, unsigned, cub::NullType>>;
  __shared__ typename Sort::TempStorage temp[T / 32];
  const int offset = blockIdx.x * (T * N);
  unsigned keys[N], values[N];
  Load().Load(keysIn + offset, keys);
  if constexpr (Pairs) {
    Load().Load(valuesIn + offset, values);
    Sort(temp[threadIdx.x / 32]).Sort(keys, values, UnsignedLess());
    Store().Store(valuesOut + offset, values);
  } else {
    Sort(temp[threadIdx.x / 32]).Sort(keys, UnsignedLess());
  }
  Store().Store(keysOut + offset, keys);
}

// 4c. Block merge sort of 32-bit unsigned keys (and u32 values): the block's
// tile loaded blocked (BLOCK_LOAD_VECTORIZE), sorted as a whole by
// BlockMergeSort<unsigned, T, N(, unsigned)>::Sort with the unsigned
// less-than, stored blocked (vectorize).
template <int T, int N, bool Pairs>
__device__ __forceinline__ void blockMergeSortTile(unsigned *keysIn, unsigned *valuesIn, unsigned *keysOut,
                                                   unsigned *valuesOut) {
  using Load = cub::BlockLoad<unsigned, T, N, cub::BLOCK_LOAD_VECTORIZE>;
  using Store = cub::BlockStore<unsigned, T, N, cub::BLOCK_STORE_VECTORIZE>;
  using Sort = cub::BlockMergeSort<unsigned, T, N, ::cuda::std::conditional_t<Pairs, unsigned, cub::NullType>>;
  __shared__ typename Sort::TempStorage temp;
  const int offset = blockIdx.x * (T * N);
  unsigned keys[N], values[N];
  Load().Load(keysIn + offset, keys);
  if constexpr (Pairs) {
    Load().Load(valuesIn + offset, values);
    Sort(temp).Sort(keys, values, UnsignedLess());
    Store().Store(valuesOut + offset, values);
  } else {
    Sort(temp).Sort(keys, UnsignedLess());
  }
  Store().Store(keysOut + offset, keys);
}

// ---------------------------------------------------------------------------
// 4c. Radix rank of 32-bit unsigned keys by their lowest R bits: the tile
// loaded blocked (vectorized), each key's rank in the block by
// BlockRadixRank::RankKeys with a BFEDigitExtractor of bits [0, R), the
// ranks stored blocked (vectorized). R = 4: CUB's basic ranking (the
// counter grid); R = 8: its grid of 129 x T words is over the 48 KiB of
// static shared memory, so BlockRadixRankMatch (match.any per warp), the
// ranking CUB's own sorts take for 8-bit digits. That one counts item 0 of
// every lane of a warp, then item 1, ...: stable in the warp-striped
// order, so its keys are loaded warp-striped and its ranks stored so (each
// rank lands where its key was, as the blocked ranking's).
template <int T, int N, int R>
__device__ __forceinline__ void rankTile(unsigned *in, int *out) {
  using Rank = ::cuda::std::conditional_t<(R <= 4), cub::BlockRadixRank<T, R, false>,
                                          cub::BlockRadixRankMatch<T, R, false>>;
  __shared__ typename Rank::TempStorage temp;
  const int offset = blockIdx.x * (T * N);
  unsigned keys[N];
  int ranks[N];
  if constexpr (R <= 4)
    cub::LoadDirectBlockedVectorized(threadIdx.x, in + offset, keys);
  else
    cub::LoadDirectWarpStriped(threadIdx.x, in + offset, keys);
  Rank(temp).RankKeys(keys, ranks, cub::BFEDigitExtractor<unsigned>(0, R));
  if constexpr (R <= 4)
    cub::StoreDirectBlockedVectorized(threadIdx.x, out + offset, ranks);
  else
    cub::StoreDirectWarpStriped(threadIdx.x, out + offset, ranks);
}

// ---------------------------------------------------------------------------
// 5. Logical sub-warp reductions: 256 threads, one element each,
// WarpReduce<V, C>::Sum over each logical warp of C lanes; its first lane
// (the one holding CUB's result) writes out[gid / C].
template <class V, int C> __device__ __forceinline__ void subwarpReduce(V *in, V *out) {
  using WarpReduce = cub::WarpReduce<V, C>;
  __shared__ typename WarpReduce::TempStorage temp[256 / C];
  const int gid = blockIdx.x * 256 + threadIdx.x;
  V sum = WarpReduce(temp[threadIdx.x / C]).Sum(in[gid]);
  if (threadIdx.x % C == 0)
    out[gid / C] = sum;
}

} // namespace

// The kernels, named as block_bench.py's rows: cub_<row>.
#define KERNEL(T, NAME) extern "C" __global__ void __launch_bounds__(T) NAME

#define LOAD_STORE(T, N)                                                                                     \
  KERNEL(T, cub_load_store_##T##x##N##_direct)(float *in, float *out) {                                     \
    copyTile<T, N, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(in, out);                               \
  }                                                                                                          \
  KERNEL(T, cub_load_store_##T##x##N##_vectorize)(float *in, float *out) {                                  \
    copyTile<T, N, cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(in, out);                         \
  }                                                                                                          \
  KERNEL(T, cub_load_store_##T##x##N##_transpose)(float *in, float *out) {                                  \
    copyTile<T, N, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(in, out);                         \
  }                                                                                                          \
  KERNEL(T, cub_load_store_##T##x##N##_warp_transpose)(float *in, float *out) {                             \
    copyTile<T, N, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(in, out);               \
  }                                                                                                          \
  KERNEL(T, cub_load_store_##T##x##N##_striped)(float *in, float *out) { copyTileStriped<T, N>(in, out); }

#define REDUCE_SCAN(T, N)                                                                                    \
  KERNEL(T, cub_block_reduce_i32_##T##x##N)(int *in, int *out) { reduceTile<int, T, N>(in, out); }          \
  KERNEL(T, cub_block_reduce_f32_##T##x##N)(float *in, float *out) { reduceTile<float, T, N>(in, out); }    \
  KERNEL(T, cub_block_scan_i32_##T##x##N)(int *in, int *out) { scanTile<int, T, N>(in, out); }              \
  KERNEL(T, cub_block_scan_f32_##T##x##N)(float *in, float *out) { scanTile<float, T, N>(in, out); }

#define SORT(T, N)                                                                                           \
  KERNEL(T, cub_sort_keys_##T##x##N)(unsigned *in, unsigned *out) { sortKeys<T, N, true>(in, out); }        \
  KERNEL(T, cub_sort_keys_##T##x##N##_blocked)(unsigned *in, unsigned *out) {                               \
    sortKeys<T, N, false>(in, out);                                                                          \
  }                                                                                                          \
  KERNEL(T, cub_sort_pairs_##T##x##N)(unsigned *ki, unsigned *vi, unsigned *ko, unsigned *vo) {             \
    sortPairs<T, N, true>(ki, vi, ko, vo);                                                                   \
  }                                                                                                          \
  KERNEL(T, cub_sort_pairs_##T##x##N##_blocked)(unsigned *ki, unsigned *vi, unsigned *ko, unsigned *vo) {   \
    sortPairs<T, N, false>(ki, vi, ko, vo);                                                                  \
  }

#define EACH_CONFIG(M)                                                                                       \
  M(128, 4) M(128, 8) M(128, 16) M(256, 4) M(256, 8) M(256, 16) M(512, 4) M(512, 8) M(512, 16)

EACH_CONFIG(LOAD_STORE)
EACH_CONFIG(REDUCE_SCAN)

// BlockReduce's other algorithms at 4 items a thread (block_bench.py's
// REDUCE_ALGORITHMS).
#define REDUCE_ALGORITHM(T, NAME, ALG)                                                                       \
  KERNEL(T, cub_block_reduce_i32_##T##x4_##NAME)(int *in, int *out) { reduceTile<int, T, 4, ALG>(in, out); } \
  KERNEL(T, cub_block_reduce_f32_##T##x4_##NAME)(float *in, float *out) {                                   \
    reduceTile<float, T, 4, ALG>(in, out);                                                                   \
  }
#define REDUCE_ALGORITHMS(T)                                                                                 \
  REDUCE_ALGORITHM(T, raking, cub::BLOCK_REDUCE_RAKING)                                                      \
  REDUCE_ALGORITHM(T, raking_commutative_only, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY)
REDUCE_ALGORITHMS(128)
REDUCE_ALGORITHMS(256)
REDUCE_ALGORITHMS(512)
EACH_CONFIG(SORT)

#define MERGE_SORT(N)                                                                                        \
  KERNEL(256, cub_merge_sort_keys_256x##N)(unsigned *in, unsigned *out) {                                   \
    mergeSortTile<256, N, false>(in, nullptr, out, nullptr);                                                 \
  }                                                                                                          \
  KERNEL(256, cub_merge_sort_pairs_256x##N)(unsigned *ki, unsigned *vi, unsigned *ko, unsigned *vo) {       \
    mergeSortTile<256, N, true>(ki, vi, ko, vo);                                                             \
  }
MERGE_SORT(4)
MERGE_SORT(8)
MERGE_SORT(16)

#define BLOCK_MERGE_SORT(T, N)                                                                               \
  KERNEL(T, cub_block_merge_sort_keys_##T##x##N)(unsigned *in, unsigned *out) {                             \
    blockMergeSortTile<T, N, false>(in, nullptr, out, nullptr);                                              \
  }                                                                                                          \
  KERNEL(T, cub_block_merge_sort_pairs_##T##x##N)(unsigned *ki, unsigned *vi, unsigned *ko, unsigned *vo) { \
    blockMergeSortTile<T, N, true>(ki, vi, ko, vo);                                                          \
  }
BLOCK_MERGE_SORT(128, 4)
BLOCK_MERGE_SORT(128, 8)
BLOCK_MERGE_SORT(256, 4)
BLOCK_MERGE_SORT(256, 8)

#define RADIX_RANK(T, R)                                                                                     \
  KERNEL(T, cub_radix_rank_##T##x4_r##R)(unsigned *in, int *out) { rankTile<T, 4, R>(in, out); }
RADIX_RANK(128, 4)
RADIX_RANK(128, 8)
RADIX_RANK(256, 4)
RADIX_RANK(256, 8)

#define HISTOGRAM(N)                                                                                         \
  KERNEL(256, cub_histogram_256x##N##_atomic)(unsigned char *in, unsigned *hist) {                          \
    histogramTile<N, cub::BLOCK_HISTO_ATOMIC>(in, hist);                                                     \
  }                                                                                                          \
  KERNEL(256, cub_histogram_256x##N##_sort)(unsigned char *in, unsigned *hist) {                            \
    histogramTile<N, cub::BLOCK_HISTO_SORT>(in, hist);                                                       \
  }
HISTOGRAM(8)
HISTOGRAM(16)

#define SUBWARP(C)                                                                                           \
  KERNEL(256, cub_subwarp_reduce_f32_c##C)(float *in, float *out) { subwarpReduce<float, C>(in, out); }     \
  KERNEL(256, cub_subwarp_reduce_i32_c##C)(int *in, int *out) { subwarpReduce<int, C>(in, out); }
SUBWARP(4)
SUBWARP(8)
SUBWARP(16)
