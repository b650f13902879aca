// CUB's versions of warp kernels in test/PTX/combiner-counts.mlir and
// test/PTX/exchange-elect-atomic.mlir, each loading and storing like its warp
// twin, for compare.py's SASS instruction counts (one warp per block, 32
// threads; CUB's warp reductions leave the result in lane 0).
#include <cub/util_type.cuh>
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_reduce.cuh>

struct Welford {
  int n;
  float mean, m2;
};
struct WelfordOp {
  __device__ Welford operator()(const Welford &a, const Welford &b) const {
    int n = a.n + b.n;
    float d = b.mean - a.mean, w = float(b.n) / float(n);
    return {n, a.mean + d * w, a.m2 + b.m2 + d * d * (float(a.n) * w)};
  }
};

// argmax over (value, index), lowest index on ties: cub::ArgMax.
extern "C" __global__ void argmax_first(const float *in, float *out, int *outi) {
  using KV = cub::KeyValuePair<int, float>;
  using WR = cub::WarpReduce<KV>;
  __shared__ typename WR::TempStorage tmp;
  int t = threadIdx.x;
  KV r = WR(tmp).Reduce(KV(t, in[t]), cub::ArgMax());
  out[t] = r.value;
  outi[t] = r.key;
}

extern "C" __global__ void welford(const float *in, float *out) {
  using WR = cub::WarpReduce<Welford>;
  __shared__ typename WR::TempStorage tmp;
  int t = threadIdx.x;
  Welford r = WR(tmp).Reduce(Welford{1, in[t], 0.0f}, WelfordOp());
  out[t] = r.m2;
}

// cub::WarpReduce::HeadSegmentedSum: each segment's sum in its head lane.
extern "C" __global__ void segmented_sum(const float *in, const int *flags, float *out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp;
  int t = threadIdx.x;
  out[t] = WR(tmp).HeadSegmentedSum(in[t], flags[t] != 0);
}

template <cub::WarpExchangeAlgorithm Algorithm>
__device__ void exchange8(const float *in, float *out) {
  using WE = cub::WarpExchange<float, 8, 32, Algorithm>;
  __shared__ typename WE::TempStorage tmp;
  float items[8];
  int t = threadIdx.x;
  for (int j = 0; j < 8; ++j)
    items[j] = in[t * 8 + j];
  WE(tmp).BlockedToStriped(items, items);
  for (int j = 0; j < 8; ++j)
    out[t * 8 + j] = items[j];
}
// (CUB's WARP_EXCHANGE_SHUFFLE takes only ITEMS_PER_THREAD == 32.)
extern "C" __global__ void smem_b2s_8xf32(const float *in, float *out) {
  exchange8<cub::WARP_EXCHANGE_SMEM>(in, out);
}
