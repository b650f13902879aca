// Segmented sum over segment ids in CUDA: an atomic add per element.
// Compare segment_sum_warp.py.

extern "C" __global__ void segment_sum(const float *x, const int *seg, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[seg[i]], x[i]);
}
