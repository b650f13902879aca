// Block sum in CUDA: CUB's BlockReduce over BLOCK threads. Compare
// block_sum_warp.py.
#include <cub/block/block_reduce.cuh>

constexpr int BLOCK = 256;

extern "C" __global__ void block_sum(const float *x, float *out, int n) {
  using BlockReduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename BlockReduce::TempStorage temp;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float total = BlockReduce(temp).Sum(i < n ? x[i] : 0.0f);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}
