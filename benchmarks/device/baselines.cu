// Baselines for benchmarks/device_bench.py and device_ops_bench.py, built on
// the GPU host in the same run (nvcc -O3 -arch=sm_90 -shared; CUB from the
// CUDA toolkit's CCCL):
//   cub_*   CUB device algorithms and block collectives;
//   hand_*  the warp kernels' algorithms written by hand with CUDA intrinsics.
// Every function launches on the legacy default stream (the one the harness
// times with CUDA events) and returns the cudaError_t of the launch. The
// device-wide CUB calls follow CUB's two-phase API: temp == nullptr asks for
// the temporary storage size in *bytes.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/atomic>
#include <type_traits>

#include <cstdint>

#define EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct Greater {
  float threshold;
  __host__ __device__ bool operator()(float x) const { return x > threshold; }
};

struct Product {
  const float *a, *b;
  __host__ __device__ float operator()(long long i) const { return a[i] * b[i]; }
};

// x -> a x + b as an (a, b) pair of i32 (wrapping); left then right: the
// composition applies the left map first (device_ops_bench.py's
// scan_combine_affine_i32, warp_mlir.device.scan's combiner there).
struct AffineThen {
  __host__ __device__ cuda::std::tuple<int, int> operator()(const cuda::std::tuple<int, int> &left,
                                                            const cuda::std::tuple<int, int> &right) const {
    unsigned a1 = cuda::std::get<0>(left), b1 = cuda::std::get<1>(left);
    unsigned a2 = cuda::std::get<0>(right), b2 = cuda::std::get<1>(right);
    return {(int)(a2 * a1), (int)(a2 * b1 + b2)};
  }
};

// Keys in one segment of a scan by key when they agree above their low 4
// bits (arithmetic shifts: C++20's and arith.shrsi's); device_ops_bench.py's
// scan_combine_by_key_i32 and its equal function there.
struct SameRun {
  __host__ __device__ bool operator()(int p, int q) const { return (p >> 4) == (q >> 4); }
};

template <class T> __device__ T warpSum(T v) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  return v;
}
template <> __device__ int warpSum<int>(int v) { return __reduce_add_sync(0xffffffffu, v); }

template <class T, int Threads> __device__ void blockSumToPartial(T v, T *out) {
  __shared__ T words[Threads / 32];
  v = warpSum(v);
  int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  if (lane == 0) words[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < Threads / 32 ? words[lane] : T(0);
    v = warpSum(v);
    if (lane == 0) *out = v;
  }
}

template <class T> struct Vec4;
template <> struct Vec4<float> { using type = float4; };
template <> struct Vec4<int> { using type = int4; };

// Grid-stride sum: 16-byte read-only loads, two accumulators (the warp
// kernel's shape), one partial per block.
template <class T>
__global__ void __launch_bounds__(256) handSum(const T *__restrict__ in, T *__restrict__ part, long long n) {
  using V = typename Vec4<T>::type;
  const V *in4 = reinterpret_cast<const V *>(in);
  long long chunks = n / 4, stride = (long long)gridDim.x * 256;
  long long i = (long long)blockIdx.x * 256 + threadIdx.x;
  T a = 0, b = 0;
  for (; i + stride < chunks; i += 2 * stride) {
    V x = __ldg(in4 + i), y = __ldg(in4 + i + stride);
    a += (x.x + x.y) + (x.z + x.w);
    b += (y.x + y.y) + (y.z + y.w);
  }
  if (i < chunks) {
    V x = __ldg(in4 + i);
    a += (x.x + x.y) + (x.z + x.w);
  }
  long long t = (long long)blockIdx.x * 256 + threadIdx.x;
  if (t < n - chunks * 4) a += in[chunks * 4 + t];
  blockSumToPartial<T, 256>(a + b, part + blockIdx.x);
}

__global__ void __launch_bounds__(256) handDot(const float *__restrict__ x, const float *__restrict__ y,
                                               float *__restrict__ part, long long n) {
  const float4 *x4 = reinterpret_cast<const float4 *>(x), *y4 = reinterpret_cast<const float4 *>(y);
  long long chunks = n / 4, stride = (long long)gridDim.x * 256;
  long long i = (long long)blockIdx.x * 256 + threadIdx.x;
  float a = 0, b = 0;
  for (; i + stride < chunks; i += 2 * stride) {
    float4 p = __ldg(x4 + i), q = __ldg(y4 + i), r = __ldg(x4 + i + stride), s = __ldg(y4 + i + stride);
    a = fmaf(p.x, q.x, fmaf(p.y, q.y, fmaf(p.z, q.z, fmaf(p.w, q.w, a))));
    b = fmaf(r.x, s.x, fmaf(r.y, s.y, fmaf(r.z, s.z, fmaf(r.w, s.w, b))));
  }
  if (i < chunks) {
    float4 p = __ldg(x4 + i), q = __ldg(y4 + i);
    a = fmaf(p.x, q.x, fmaf(p.y, q.y, fmaf(p.z, q.z, fmaf(p.w, q.w, a))));
  }
  long long t = (long long)blockIdx.x * 256 + threadIdx.x;
  if (t < n - chunks * 4) a += x[chunks * 4 + t] * y[chunks * 4 + t];
  blockSumToPartial<float, 256>(a + b, part + blockIdx.x);
}

template <class T> __global__ void __launch_bounds__(1024) handFinish(const T *part, T *out, long long m) {
  T a = 0;
  for (long long i = threadIdx.x; i < m; i += 1024) a += part[i];
  blockSumToPartial<T, 1024>(a, out);
}

// Block micro-kernels: `rounds` dependent block-wide sums / inclusive scans
// per thread, a = op((x ^ r) + a), the result in every thread.
template <int Threads> __global__ void __launch_bounds__(Threads) cubBlockReduce(const int *in, int *out, int rounds) {
  using BR = cub::BlockReduce<int, Threads>;
  __shared__ typename BR::TempStorage tmp[2];
  __shared__ int shared[2];
  int i = blockIdx.x * Threads + threadIdx.x, x = in[i], a = 0;
  for (int r = 0; r < rounds; ++r) {
    int s = BR(tmp[r & 1]).Sum((x ^ r) + a);  // valid in thread 0
    if (threadIdx.x == 0) shared[r & 1] = s;
    __syncthreads();
    a = shared[r & 1];
  }
  out[i] = a;
}

template <int Threads> __global__ void __launch_bounds__(Threads) cubBlockScan(const int *in, int *out, int rounds) {
  using BS = cub::BlockScan<int, Threads>;
  __shared__ typename BS::TempStorage tmp[2];
  int i = blockIdx.x * Threads + threadIdx.x, x = in[i], a = 0;
  for (int r = 0; r < rounds; ++r) BS(tmp[r & 1]).InclusiveSum((x ^ r) + a, a);
  out[i] = a;
}

template <int Threads> __global__ void __launch_bounds__(Threads) handBlockReduce(const int *in, int *out, int rounds) {
  __shared__ int words[2][32];
  int i = blockIdx.x * Threads + threadIdx.x, x = in[i], a = 0;
  int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  for (int r = 0; r < rounds; ++r) {
    int s = __reduce_add_sync(0xffffffffu, (x ^ r) + a);
    if (lane == 0) words[r & 1][wid] = s;
    __syncthreads();
    a = __reduce_add_sync(0xffffffffu, lane < Threads / 32 ? words[r & 1][lane] : 0);
  }
  out[i] = a;
}

template <int Threads> __global__ void __launch_bounds__(Threads) handBlockScan(const int *in, int *out, int rounds) {
  __shared__ int words[2][32];
  int i = blockIdx.x * Threads + threadIdx.x, x = in[i], a = 0;
  int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  for (int r = 0; r < rounds; ++r) {
    int v = (x ^ r) + a;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      int u = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += u;
    }
    if (lane == 31) words[r & 1][wid] = v;
    __syncthreads();
    int w = lane < Threads / 32 ? words[r & 1][lane] : 0, incl = w;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      int u = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += u;
    }
    a = v + __shfl_sync(0xffffffffu, incl - w, wid);
  }
  out[i] = a;
}


// Single-pass scan / selection with decoupled look-back, the algorithm of
// the warp kernels (gen_kernels.py) written with CUDA intrinsics: tiles of
// 256 threads x 16 items claimed in order from status[0], loaded striped
// (coalesced) and exchanged to the blocked arrangement through padded shared
// memory; status words (flag << 32 | 32-bit value), flag 1 = aggregate,
// 2 = inclusive prefix, stored and polled relaxed by a whole warp, 32
// predecessors at a time, with CUB's sm_90 pacing (nanosleep 1245 ns before
// the first poll, 648 ns between polls).
constexpr int TileThreads = 256, TileItems = 16, TileSize = TileThreads * TileItems;
template <class T> __device__ unsigned bitsOf(T v) { return __float_as_uint(v); }
template <> __device__ unsigned bitsOf<int>(int v) { return (unsigned)v; }
template <class T> __device__ T fromBits(unsigned b) { return __uint_as_float(b); }
template <> __device__ int fromBits<int>(unsigned b) { return (int)b; }
__device__ int padded(int g) { return g + g / 32; }

template <class T> __device__ T warpInclusive(T v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    T u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += u;
  }
  return v;
}

template <class T> __device__ void publish(unsigned long long *status, long long tile, unsigned long long flag, T v) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[1 + tile]);
  word.store(flag << 32 | bitsOf(v), cuda::memory_order_relaxed);
}

// Exclusive prefix of `tile` (> 0); every lane of the calling warp returns it.
template <class T> __device__ T lookBack(unsigned long long *status, long long tile, int lane) {
  T acc = 0;
  __nanosleep(1245);
  for (long long end = tile - 1;; end -= 32) {
    long long pred = end - lane;
    unsigned long long w;
    while (true) {
      w = 2ull << 32;  // before tile 0: an inclusive prefix of 0
      if (pred >= 0) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[1 + pred]);
        w = word.load(cuda::memory_order_relaxed);
      }
      if (!__any_sync(0xffffffffu, (w >> 32) == 0)) break;
      __nanosleep(648);
    }
    unsigned prefixes = __ballot_sync(0xffffffffu, (w >> 32) == 2);
    int nearest = prefixes ? __ffs(prefixes) - 1 : 31;
    T v = lane <= nearest ? fromBits<T>((unsigned)w) : T(0);
#pragma unroll
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    acc += v;
    if (prefixes) return acc;
  }
}

// Mode 0: inclusive scan, 1: exclusive scan, 2: select x > threshold (kept
// items gathered in shared memory in tile order, at padded positions, then
// written coalesced).
template <class T, int Mode>
__global__ void __launch_bounds__(TileThreads) handTileScan(const T *__restrict__ in, T *__restrict__ out, int *num,
                                                            unsigned long long *status, long long n, float threshold) {
  using S = typename std::conditional<Mode == 2, int, T>::type;  // what is scanned
  __shared__ long long tileShared;
  __shared__ S totals[TileThreads / 32], prefixShared;
  __shared__ T stage[TileSize + TileSize / 32];
  int tid = threadIdx.x, lane = tid % 32, wid = tid / 32;
  if (tid == 0) tileShared = (long long)atomicAdd(&status[0], 1ull);
  __syncthreads();
  long long tile = tileShared, base = tile * TileSize;
  T x[TileItems];
#pragma unroll
  for (int j = 0; j < TileItems; ++j) stage[padded(j * TileThreads + tid)] = in[base + j * TileThreads + tid];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < TileItems; ++j) x[j] = stage[padded(tid * TileItems + j)];
  S run[TileItems];
#pragma unroll
  for (int j = 0; j < TileItems; ++j) {
    S term = Mode == 2 ? S((float)x[j] > threshold) : S(x[j]);
    run[j] = j ? run[j - 1] + term : term;
  }
  S incl = warpInclusive(run[TileItems - 1], lane), wex = incl - run[TileItems - 1];
  if (lane == 31) totals[wid] = incl;
  __syncthreads();
  S wpre = 0, agg = 0;
#pragma unroll
  for (int j = 0; j < TileThreads / 32; ++j) {
    S t = totals[j];
    if (j < wid) wpre += t;
    agg += t;
  }
  if (wid == 0) {
    S pre = 0;
    if (tile == 0) {
      if (lane == 0) publish(status, tile, 2, agg);
    } else {
      if (lane == 0) publish(status, tile, 1, agg);
      pre = lookBack<S>(status, tile, lane);
      if (lane == 0) publish(status, tile, 2, pre + agg);
    }
    if (lane == 0) {
      prefixShared = pre;
      if (Mode == 2 && tile == n / TileSize - 1) *num = (int)(pre + agg);
    }
  }
  __syncthreads();  // also: every thread has read its items from stage
  S offset = prefixShared + wpre + wex;
  if constexpr (Mode == 2) {
    S local = wpre + wex;  // kept items of the tile before this thread's
#pragma unroll
    for (int j = 0; j < TileItems; ++j)
      if ((float)x[j] > threshold) stage[padded(local + (j ? run[j - 1] : 0))] = x[j];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TileItems; ++j) {
      int i = tid + j * TileThreads;
      if (i < (int)agg) out[(long long)prefixShared + i] = stage[padded(i)];
    }
  } else {
#pragma unroll
    for (int j = 0; j < TileItems; ++j)
      stage[padded(tid * TileItems + j)] = offset + (Mode == 0 ? run[j] : (j ? run[j - 1] : S(0)));
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TileItems; ++j) out[base + j * TileThreads + tid] = stage[padded(j * TileThreads + tid)];
  }
}
} // namespace

EXPORT int cub_sum_f32(void *temp, size_t *bytes, const float *in, float *out, long long n) {
  return cub::DeviceReduce::Sum(temp, *bytes, in, out, n);
}
EXPORT int cub_sum_i32(void *temp, size_t *bytes, const int *in, int *out, long long n) {
  return cub::DeviceReduce::Sum(temp, *bytes, in, out, n);
}
EXPORT int cub_sum_f64(void *temp, size_t *bytes, const double *in, double *out, long long n) {
  return cub::DeviceReduce::Sum(temp, *bytes, in, out, n);  // device_ops_bench.py
}
EXPORT int cub_dot_f32(void *temp, size_t *bytes, const float *a, const float *b, float *out, long long n) {
  auto products = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), Product{a, b});
  return cub::DeviceReduce::Sum(temp, *bytes, products, out, n);
}
EXPORT int cub_scan_incl_f32(void *temp, size_t *bytes, const float *in, float *out, long long n) {
  return cub::DeviceScan::InclusiveSum(temp, *bytes, in, out, n);
}
EXPORT int cub_scan_excl_f32(void *temp, size_t *bytes, const float *in, float *out, long long n) {
  return cub::DeviceScan::ExclusiveSum(temp, *bytes, in, out, n);
}
EXPORT int cub_scan_incl_i32(void *temp, size_t *bytes, const int *in, int *out, long long n) {
  return cub::DeviceScan::InclusiveSum(temp, *bytes, in, out, n);
}
EXPORT int cub_scan_excl_i32(void *temp, size_t *bytes, const int *in, int *out, long long n) {
  return cub::DeviceScan::ExclusiveSum(temp, *bytes, in, out, n);
}
EXPORT int cub_scan_by_key_i32(void *temp, size_t *bytes, const int *keys, const int *in, int *out,
                               long long n) {
  return cub::DeviceScan::InclusiveSumByKey(temp, *bytes, keys, in, out, n);  // device_ops_bench.py
}
EXPORT int cub_select_flagged_f32(void *temp, size_t *bytes, const float *in, const signed char *flags,
                                  float *out, long long *num, long long n) {
  return cub::DeviceSelect::Flagged(temp, *bytes, in, flags, out, num, n);  // device_ops_bench.py
}
EXPORT int cub_partition_flagged_f32(void *temp, size_t *bytes, const float *in, const signed char *flags,
                                     float *out, long long *num, long long n) {
  return cub::DevicePartition::Flagged(temp, *bytes, in, flags, out, num, n);  // device_ops_bench.py
}
EXPORT int cub_unique_i32(void *temp, size_t *bytes, const int *in, int *out, long long *num,
                          long long n) {
  return cub::DeviceSelect::Unique(temp, *bytes, in, out, num, n);  // device_ops_bench.py
}
EXPORT int cub_rle_i32(void *temp, size_t *bytes, const int *in, int *unique, int *counts,
                       long long *num_runs, long long n) {
  // int lengths, as CUB's examples and warp_mlir.device.run_length_encode's default (device_ops_bench.py).
  return cub::DeviceRunLengthEncode::Encode(temp, *bytes, in, unique, counts, num_runs, n);
}
EXPORT int cub_radix_sort_keys_i32(void *temp, size_t *bytes, const int *in, int *out, long long n) {
  // Ascending, every bit, signed order (device_ops_bench.py's radix_sort_i32).
  return cub::DeviceRadixSort::SortKeys(temp, *bytes, in, out, n);
}
EXPORT int cub_segmented_sum_f32(void *temp, size_t *bytes, const float *in, float *out,
                                 const int *offsets, long long segments) {
  // Segment s is [offsets[s], offsets[s + 1]): CUB's usual d_offsets,
  // d_offsets + 1 (device_ops_bench.py's segmented_sum_f32_*).
  return cub::DeviceSegmentedReduce::Sum(temp, *bytes, in, out, static_cast<int>(segments), offsets,
                                         offsets + 1);
}
EXPORT int cub_histogram_u8(void *temp, size_t *bytes, const unsigned char *samples, int *hist, long long n) {
  // 256 bins of width 1 over [0, 256): a count per byte value (device_ops_bench.py).
  return cub::DeviceHistogram::HistogramEven(temp, *bytes, samples, hist, 257, 0, 256, n);
}
EXPORT int cub_non_trivial_runs_i32(void *temp, size_t *bytes, const int *in, int *offsets, int *lengths,
                                    long long *num_runs, long long n) {
  // The runs of two or more: int offsets and lengths (device_ops_bench.py's non_trivial_runs_i32).
  return cub::DeviceRunLengthEncode::NonTrivialRuns(temp, *bytes, in, offsets, lengths, num_runs,
                                                    static_cast<int>(n));
}
EXPORT int cub_radix_sort_pairs_i32(void *temp, size_t *bytes, const int *keys, int *keys_out,
                                    const int *values, int *values_out, long long n) {
  // Ascending, every bit, signed order, i32 values (device_ops_bench.py's radix_sort_pairs_i32).
  return cub::DeviceRadixSort::SortPairs(temp, *bytes, keys, keys_out, values, values_out, n);
}
EXPORT int cub_radix_sort_db_i32(void *temp, size_t *bytes, int *keys, int *alternate, int *current,
                                 long long n) {
  // The DoubleBuffer form over (keys, alternate), both overwritten; *current
  // (host memory) gets the selector of the buffer that holds the sorted keys:
  // 0 keys, 1 alternate (device_ops_bench.py's radix_sort_db_i32).
  cub::DoubleBuffer<int> buffers(keys, alternate);
  cudaError_t error = cub::DeviceRadixSort::SortKeys(temp, *bytes, buffers, n);
  *current = buffers.selector;
  return error;
}
EXPORT int cub_segmented_radix_sort_i32(void *temp, size_t *bytes, const int *in, int *out,
                                        const int *offsets, long long segments, long long n) {
  // Segment s is [offsets[s], offsets[s + 1]), each sorted ascending in
  // signed order (device_ops_bench.py's segmented_radix_sort_i32_*).
  return cub::DeviceSegmentedRadixSort::SortKeys(temp, *bytes, in, out, static_cast<int>(n),
                                                 static_cast<int>(segments), offsets, offsets + 1);
}
EXPORT int cub_segmented_radix_sort_db_i32(void *temp, size_t *bytes, int *keys, int *alternate,
                                           int *current, const int *offsets, long long segments,
                                           long long n) {
  // The DoubleBuffer form of cub_segmented_radix_sort_i32 over (keys,
  // alternate), both overwritten; *current (host memory) gets the selector
  // of the buffer that holds the sorted keys: 0 keys, 1 alternate
  // (device_ops_bench.py's segmented_radix_sort_db_i32_*).
  cub::DoubleBuffer<int> buffers(keys, alternate);
  cudaError_t error = cub::DeviceSegmentedRadixSort::SortKeys(
      temp, *bytes, buffers, static_cast<int>(n), static_cast<int>(segments), offsets, offsets + 1);
  *current = buffers.selector;
  return error;
}
EXPORT int cub_histogram_rgba_u8(void *temp, size_t *bytes, const unsigned char *samples, int *hist,
                                 long long pixels) {
  // Pixels of 4 interleaved u8 channels, the first 3 counted: 256 bins of
  // width 1 each, hist the 3 rows of 256 one after the other
  // (device_ops_bench.py's histogram_rgba_u8).
  cuda::std::array<int *, 3> rows{hist, hist + 256, hist + 512};
  cuda::std::array<int, 3> levels{257, 257, 257}, lower{0, 0, 0}, upper{256, 256, 256};
  return cub::DeviceHistogram::MultiHistogramEven<4, 3>(temp, *bytes, samples, rows, levels, lower, upper,
                                                       pixels);
}
EXPORT int cub_scan_combine_affine_i32(void *temp, size_t *bytes, const int *a, const int *b, int *out_a,
                                       int *out_b, long long n) {
  // The (a, b) pairs of two arrays (a zip iterator, as warp's tuple of
  // arrays) scanned inclusively with AffineThen (device_ops_bench.py).
  auto in = thrust::make_zip_iterator(a, b);
  auto out = thrust::make_zip_iterator(out_a, out_b);
  return cub::DeviceScan::InclusiveScan(temp, *bytes, in, out, AffineThen{}, n);
}
EXPORT int cub_scan_combine_by_key_i32(void *temp, size_t *bytes, const int *keys, const int *a, const int *b,
                                       int *out_a, int *out_b, long long n) {
  // cub_scan_combine_affine_i32's pairs scanned inclusively by key, the
  // segments SameRun's (device_ops_bench.py's scan_combine_by_key_i32).
  auto in = thrust::make_zip_iterator(a, b);
  auto out = thrust::make_zip_iterator(out_a, out_b);
  return cub::DeviceScan::InclusiveScanByKey(temp, *bytes, keys, in, out, AffineThen{}, n, SameRun{});
}
EXPORT int cub_histogram_range_u8_f32(void *temp, size_t *bytes, const unsigned char *samples,
                                      const float *levels, int *hist, int num_levels, long long n) {
  // u8 samples against float levels (CUB's LevelT apart from the sample
  // type): each sample converted to float and searched among the levels,
  // hist of num_levels - 1 bins (device_ops_bench.py's histogram_range_u8_f32).
  return cub::DeviceHistogram::HistogramRange(temp, *bytes, samples, hist, num_levels, levels, n);
}
EXPORT int cub_histogram_even_u8_i32(void *temp, size_t *bytes, const unsigned char *samples, int *hist,
                                     int bins, int lower, int upper, long long n) {
  // u8 samples against int levels (CUB's LevelT apart from the sample type,
  // so that upper may be past 255): bins even bins over [lower, upper), the
  // samples outside not counted (device_ops_bench.py's histogram_even_u8_i32).
  return cub::DeviceHistogram::HistogramEven(temp, *bytes, samples, hist, bins + 1, lower, upper, n);
}
EXPORT int cub_select_gt_f32(void *temp, size_t *bytes, const float *in, float *out, int *num, long long n,
                             float threshold) {
  return cub::DeviceSelect::If(temp, *bytes, in, out, num, n, Greater{threshold});
}

template <class T> static int handSumLaunch(const T *in, T *part, T *out, long long n, int blocks) {
  handSum<T><<<blocks, 256>>>(in, part, n);
  handFinish<T><<<1, 1024>>>(part, out, blocks);
  return cudaGetLastError();
}
EXPORT int hand_sum_f32(const float *in, float *part, float *out, long long n, int blocks) {
  return handSumLaunch(in, part, out, n, blocks);
}
EXPORT int hand_sum_i32(const int *in, int *part, int *out, long long n, int blocks) {
  return handSumLaunch(in, part, out, n, blocks);
}
EXPORT int hand_dot_f32(const float *a, const float *b, float *part, float *out, long long n, int blocks) {
  handDot<<<blocks, 256>>>(a, b, part, n);
  handFinish<float><<<1, 1024>>>(part, out, blocks);
  return cudaGetLastError();
}

// kind: 0 CUB BlockReduce, 1 CUB BlockScan, 2 hand reduce, 3 hand scan.
template <int Threads> static void blockMicroLaunch(int kind, const int *in, int *out, int blocks, int rounds) {
  if (kind == 0) cubBlockReduce<Threads><<<blocks, Threads>>>(in, out, rounds);
  if (kind == 1) cubBlockScan<Threads><<<blocks, Threads>>>(in, out, rounds);
  if (kind == 2) handBlockReduce<Threads><<<blocks, Threads>>>(in, out, rounds);
  if (kind == 3) handBlockScan<Threads><<<blocks, Threads>>>(in, out, rounds);
}
EXPORT int block_micro(int kind, int threads, const int *in, int *out, long long n, int rounds) {
  int blocks = (int)(n / threads);
  if (n % threads || kind < 0 || kind > 3) return (int)cudaErrorInvalidValue;
  switch (threads) {
  case 32: blockMicroLaunch<32>(kind, in, out, blocks, rounds); break;
  case 48:  // CUB only: the hand-written kernels take whole warps
    if (kind > 1) return (int)cudaErrorInvalidValue;
    blockMicroLaunch<48>(kind, in, out, blocks, rounds);
    break;
  case 64: blockMicroLaunch<64>(kind, in, out, blocks, rounds); break;
  case 128: blockMicroLaunch<128>(kind, in, out, blocks, rounds); break;
  case 256: blockMicroLaunch<256>(kind, in, out, blocks, rounds); break;
  case 1024: blockMicroLaunch<1024>(kind, in, out, blocks, rounds); break;
  default: return (int)cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

// status: 1 + n / TileSize words, zeroed by the caller before each launch.
template <class T, int Mode>
static int handTileLaunch(const T *in, T *out, int *num, unsigned long long *status, long long n, float thr) {
  if (n % TileSize) return (int)cudaErrorInvalidValue;
  handTileScan<T, Mode><<<(unsigned)(n / TileSize), TileThreads>>>(in, out, num, status, n, thr);
  return cudaGetLastError();
}
EXPORT int hand_scan_incl_i32(const int *in, int *out, unsigned long long *status, long long n) {
  return handTileLaunch<int, 0>(in, out, nullptr, status, n, 0.f);
}
EXPORT int hand_scan_excl_i32(const int *in, int *out, unsigned long long *status, long long n) {
  return handTileLaunch<int, 1>(in, out, nullptr, status, n, 0.f);
}
EXPORT int hand_scan_incl_f32(const float *in, float *out, unsigned long long *status, long long n) {
  return handTileLaunch<float, 0>(in, out, nullptr, status, n, 0.f);
}
EXPORT int hand_scan_excl_f32(const float *in, float *out, unsigned long long *status, long long n) {
  return handTileLaunch<float, 1>(in, out, nullptr, status, n, 0.f);
}
EXPORT int hand_select_gt_f32(const float *in, float *out, int *num, unsigned long long *status, long long n,
                              float threshold) {
  return handTileLaunch<float, 2>(in, out, num, status, n, threshold);
}
