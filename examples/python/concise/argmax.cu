// Row argmax in CUDA: a warp per row, each lane's best, then an xor
// butterfly of (value, column) pairs; ties go to the lowest column.
// Compare argmax_warp.py.
#include <climits>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void argmax(const float *x, int *out, int n) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  size_t r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float best = -INFINITY;
  int at = INT_MAX;
  for (int j = warp.thread_rank(); j < n; j += 32)
    if (x[r * n + j] > best || at == INT_MAX) best = x[r * n + j], at = j;
  for (int offset = 16; offset > 0; offset /= 2) {
    float other = warp.shfl_xor(best, offset);
    int other_at = warp.shfl_xor(at, offset);
    if (other > best || (other == best && other_at < at)) best = other, at = other_at;
  }
  if (warp.thread_rank() == 0) out[r] = at;
}
