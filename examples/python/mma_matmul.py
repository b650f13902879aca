"""Any-size tensor-core matmul from the Python builder's MMA methods.

C = A @ B for A (M x K) and B (K x N) in f16, C in f32 (`acc=wm.f32`) or
f16 (`acc=wm.f16`), M, N and K multiples of 16 given at run time: one warp
(one 32-thread block) per 16x16 tile of C, grid (N / 16, M / 16). Each K step
copies the warp's 16x16 tiles of A and B into 32-byte aligned shared memory
(lane l copies row l // 2, 8 elements from column 8 * (l % 2)), since wmma's
row stride is a compile-time constant; k.mma_load reads the fragments from
there, k.mma accumulates, and a k.loop carries the accumulator fragment.
examples/mma_matmul_any.mlir is the same kernel written in MLIR.

Run: python3 examples/python/mma_matmul.py [M N K]
"""
import sys

import warp_mlir as wm

TILE = 16


def build(acc: wm.Type = wm.f32) -> wm.Program:
    prog = wm.Program("mma")

    @prog.kernel(a=wm.memref(wm.f16, (-1, -1)), b=wm.memref(wm.f16, (-1, -1)),
                 c=wm.memref(acc, (-1, -1)), k_size=wm.index)
    def matmul(k, a, b, c, k_size):
        tile_a = k.shared(wm.f16, (TILE, TILE), align=32)
        tile_b = k.shared(wm.f16, (TILE, TILE), align=32)
        tile_c = k.shared(acc, (TILE, TILE), align=32)
        row0 = k.block_id("y") * TILE
        col0 = k.block_id("x") * TILE
        lane = k.thread_id("x")
        r, cc = lane // 2, (lane % 2) * 8

        steps = k.loop(0, k_size, TILE, init=[k.mma_fill(0.0, acc)])
        with steps as (kk, total):
            for j in range(8):
                tile_a[r, cc + j] = a[row0 + r, kk + cc + j]
                tile_b[r, cc + j] = b[kk + r, col0 + cc + j]
            k.syncwarp()
            fa = k.mma_load(tile_a, (0, 0), "a")
            fb = k.mma_load(tile_b, (0, 0), "b")
            k.syncwarp()  # every lane's fragments are in before the next copy
            steps.yield_(k.mma(fa, fb, total))
        k.mma_store(steps.results[0], tile_c, (0, 0))
        k.syncwarp()
        for j in range(8):
            c[row0 + r, col0 + cc + j] = tile_c[r, cc + j]

    return prog


def matmul(compiled, a, b, c) -> None:
    """Launches the kernel for host or device arrays a (M x K), b (K x N),
    c (M x N), every size a multiple of 16 (ValueError otherwise)."""
    (m, k_size), (k2, n) = a.shape, b.shape
    if k2 != k_size or tuple(c.shape) != (m, n):
        raise ValueError(f"shapes {tuple(a.shape)} x {tuple(b.shape)} -> {tuple(c.shape)} "
                         f"do not multiply")
    if m % TILE or n % TILE or k_size % TILE or 0 in (m, n, k_size):
        raise ValueError(f"M, N and K must be positive multiples of {TILE}, not "
                         f"{m}, {n}, {k_size}")
    wm.launch(compiled, "matmul", (n // TILE, m // TILE), 32, a, b, c, k_size)


def main(m: int = 128, n: int = 96, k_size: int = 64) -> None:
    import numpy as np

    compiled = wm.compile(build(), chip="sm_90")
    if not wm.cuda.is_available():
        print("not run: the matmul needs a CUDA GPU (the simulator has no tensor cores); "
              f"compiled to {compiled.ptx.count('wmma.mma.sync')} wmma.mma.sync for sm_90")
        return
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k_size)).astype(np.float16)
    b = rng.standard_normal((k_size, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    matmul(compiled, a, b, c)
    error = np.abs(c - a.astype(np.float64) @ b.astype(np.float64)).max()
    print(f"{m}x{k_size} @ {k_size}x{n} on the tensor cores: max |error| {error:.2e}")


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:]))
