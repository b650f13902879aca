// Layer norm in CUDA: a warp per row, Welford's method in each lane, Chan's
// combination over an xor butterfly (apex's way). Compare layernorm_warp.py.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void layernorm(const float *x, const float *w, const float *b, float *y,
                                     int n, float eps) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  size_t r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float count = 0.0f, mean = 0.0f, m2 = 0.0f;
  for (int j = warp.thread_rank(); j < n; j += 32) {
    float delta = x[r * n + j] - mean;
    count += 1.0f;
    mean += delta / count;
    m2 += delta * (x[r * n + j] - mean);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    float c = warp.shfl_xor(count, offset), m = warp.shfl_xor(mean, offset);
    float q = warp.shfl_xor(m2, offset), total = count + c, delta = m - mean;
    float share = total > 0.0f ? c / total : 0.0f;
    mean += delta * share;
    m2 += q + delta * delta * count * share;
    count = total;
  }
  float rstd = rsqrtf(m2 / count + eps);
  for (int j = warp.thread_rank(); j < n; j += 32)
    y[r * n + j] = (x[r * n + j] - mean) * rstd * w[j] + b[j];
}
