// What the CUDA probes (scan_probe.cu, select_probe.cu) share: error checks
// and the median time of a launch.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                                       \
  do {                                                                                                                 \
    cudaError_t e_ = (x);                                                                                              \
    if (e_ != cudaSuccess) {                                                                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                        \
      std::exit(1);                                                                                                    \
    }                                                                                                                  \
  } while (0)

// Keeps the GPU busy for about `cycles` clocks, so that the launches queued
// behind it start back to back (no host enqueue time inside the events).
__global__ void gpuSpin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

// The median of `reps` launches (CUDA events) after `warm` unmeasured ones;
// with `spinCycles`, each measured launch queues behind a gpuSpin.
template <class F> static float medianLaunchMs(F launch, int warm, int reps, long long spinCycles = 0) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < warm; ++i) launch();
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) {
    if (spinCycles > 0) gpuSpin<<<1, 1>>>(spinCycles);
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
