// Row softmax in CUDA: a warp per row, lanes striding over the row,
// cooperative groups' warp reductions. Compare softmax_warp.py.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void softmax(const float *x, float *y, int n) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  size_t r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float m = -INFINITY, s = 0.0f;
  for (int j = warp.thread_rank(); j < n; j += 32) m = fmaxf(m, x[r * n + j]);
  m = cg::reduce(warp, m, cg::greater<float>());
  for (int j = warp.thread_rank(); j < n; j += 32) s += expf(x[r * n + j] - m);
  s = cg::reduce(warp, s, cg::plus<float>());
  for (int j = warp.thread_rank(); j < n; j += 32) y[r * n + j] = expf(x[r * n + j] - m) / s;
}
