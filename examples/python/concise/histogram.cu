// Histogram in CUDA: an atomic add per element. Compare histogram_warp.py.

extern "C" __global__ void histogram(const int *x, int *hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[x[i]], 1);
}
