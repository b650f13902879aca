"""A tensor-core GEMM as a frontend writes it: cp.async, ldmatrix, mma.sync.

C (M x N, f32) = A (M x K) @ B (K x N), A and B row-major in f16 or bf16.
One 256-thread block per 128 x 128 tile of C; its 8 warps split the tile
2 x 4, 64 x 32 each, as 4 x 4 m16n8 accumulators (vector<4xf32>, carried by
the K loop). The K loop steps by 32 through three stages of shared memory
(48 KB): while the tensor cores work on one tile, cp.async fills the
stages of the next two (one commit group per tile, one barrier per step).
Fragments come out of shared memory by ldmatrix: A's by x4 per m16 tile,
B's by x4 transposed per pair of n8 tiles. The 16-byte chunks of each
shared row are XOR-swizzled by the row (a_chunk, b_chunk), so the 8 rows an
ldmatrix phase reads fall in distinct banks.

Any M; N and K multiples of 8 (cp.async moves 16-byte rows). Rows and
columns past the edges are zero-filled by cp.async (its source size) and
not stored.

Run: python3 examples/python/gemm.py [M N K]
"""
import sys

import warp_mlir as wm

BM, BN, BK = 128, 128, 32
WARPS_M, WARPS_N = 2, 4          # 8 warps; each computes 64 x 32 of C
TM, TN = BM // WARPS_M // 16, BN // WARPS_N // 8  # m16 and n8 tiles per warp
THREADS = 32 * WARPS_M * WARPS_N
STAGES = 3                       # 3 x 16 KB of tiles: all 48 KB of static shared memory


def a_chunk(row, chunk):
    """Where 16-byte chunk `chunk` (of 4) of A's tile row `row` lies in its
    shared row: XOR-swizzled by bits 1-2 of the row, so the 8 rows one
    ldmatrix phase reads (two to a 128-byte line) hit 8 distinct bank
    groups."""
    return chunk ^ ((row // 2) % 4)


def b_chunk(row, chunk):
    """The same for B's 256-byte rows (16 chunks): bits 0-2 of the row."""
    return chunk ^ (row % 8)


def build(element: wm.Type = wm.f16) -> wm.Program:
    prog = wm.Program("gemm")

    @prog.kernel(a=wm.memref(element, (-1, -1)), b=wm.memref(element, (-1, -1)),
                 c=wm.memref(wm.f32, (-1, -1)), m=wm.index, n=wm.index, kk=wm.index)
    def gemm(k, a, b, c, m, n, kk):
        # STAGES tiles, stacked: stage s of A is rows s*BM.., of B rows s*BK...
        sa = k.shared(element, (STAGES * BM, BK), align=16)
        sb = k.shared(element, (STAGES * BK, BN), align=16)
        tid = k.thread_id("x")
        lane, warp = tid % 32, tid // 32
        m0, n0 = k.block_id("y") * BM, k.block_id("x") * BN

        def copy_chunk(src, dst, chunk, per_row, row0, rows, col0, cols, dst_row0, swizzle):
            """cp.async of 16-byte chunk `chunk` (`per_row` to a row) of the
            tile at src[row0, col0] into dst's rows from dst_row0 on,
            zero-filled past rows x cols (its source clamped in bounds)."""
            row, part = chunk // per_row, chunk % per_row
            ok = (row0 + row < rows) & (col0 + part * 8 < cols)
            at = (k.min(row0 + row, rows - 1), k.min(col0 + part * 8, cols - 8))
            return k.async_copy(src, at, dst, (dst_row0 + row, swizzle(row, part) * 8), 8,
                                valid=k.select(ok, 8, 0, wm.index), bypass_l1=True)

        def load_stage(k_tile, stage):
            """This thread's cp.async of K tile `k_tile` into `stage`: two
            16-byte chunks of A's 128 x 32 and two of B's 32 x 128."""
            k0 = k_tile * BK
            tokens = []
            for chunk in (tid, tid + THREADS):
                tokens.append(copy_chunk(a, sa, chunk, BK // 8, m0, m, k0, kk, stage * BM,
                                         a_chunk))
                tokens.append(copy_chunk(b, sb, chunk, BN // 8, k0, kk, n0, n, stage * BK,
                                         b_chunk))
            return k.async_commit(*tokens)

        k_tiles = (kk + BK - 1) // BK
        for t in range(STAGES - 1):
            load_stage(t, t)
        zero = k.constant(0.0, wm.vector(4, wm.f32))
        steps = k.loop(0, k_tiles, init=[zero] * (TM * TN))
        with steps as (t, *acc):
            stage = t % STAGES
            # Tile t is in once at most the newest STAGES - 2 tile groups
            # are in flight, plus the empty group committed here (the wait
            # needs a group token; an empty group completes at once). The
            # barrier then also says every warp is done with tile t - 1,
            # whose stage the copy of tile t + STAGES - 1 refills.
            k.async_wait(k.async_commit(), pending=STAGES - 1)
            k.barrier()
            load_stage(t + STAGES - 1, (t + STAGES - 1) % STAGES)
            row8, half = lane % 8 + 8 * ((lane // 8) % 2), lane // 16
            for k16 in range(0, BK, 16):
                fa = []
                for i in range(TM):
                    row = (warp // WARPS_N) * 64 + i * 16 + row8
                    fa.append(k.ldmatrix(sa, (stage * BM + row,
                                              a_chunk(row, k16 // 8 + half) * 8), count=4))
                fb = []
                for j in range(0, TN, 2):
                    row = k16 + row8
                    part = (warp % WARPS_N) * 4 + j + half
                    x4 = k.ldmatrix(sb, (stage * BK + row, b_chunk(row, part) * 8), count=4,
                                    transpose=True)
                    fb += [k.vector_slice(x4, 0, 4), k.vector_slice(x4, 4, 4)]
                acc = [k.mma_sync(fa[i], fb[j], acc[i * TN + j])
                       for i in range(TM) for j in range(TN)]
            steps.yield_(*acc)
        k.async_wait(k.async_commit(), pending=0)  # no copy left in flight
        g, t4 = lane // 4, lane % 4
        for i in range(TM):
            for j in range(TN):
                d = steps.results[i * TN + j]
                col = n0 + (warp % WARPS_N) * 32 + j * 8 + 2 * t4
                for h in range(2):
                    row = m0 + (warp // WARPS_N) * 64 + i * 16 + g + 8 * h
                    with k.if_((row < m) & (col < n)):
                        k.store_vector(c, (row, col), k.vector_slice(d, 2 * h, 2))

    return prog


def grid(m: int, n: int):
    return ((n + BN - 1) // BN, (m + BM - 1) // BM)


def gemm(compiled, a, b, c, stream=None, sync=True) -> None:
    """Launches the kernel for host or device arrays a (M x K), b (K x N),
    c (M x N, f32); N and K multiples of 8. sync=False (device arrays
    only) returns once it is queued."""
    m, n, kk = sizes(a, b, c)
    wm.launch(compiled, "gemm", grid(m, n), THREADS, a, b, c, m, n, kk, stream=stream,
              sync=sync)


def sizes(a, b, c):
    """(M, N, K) of C = A @ B, checked: ValueError unless the shapes
    multiply and N and K are positive multiples of 8 (16-byte rows)."""
    (m, kk), (k2, n) = a.shape, b.shape
    if k2 != kk or tuple(c.shape) != (m, n):
        raise ValueError(f"shapes {tuple(a.shape)} x {tuple(b.shape)} -> {tuple(c.shape)} "
                         f"do not multiply")
    if n % 8 or kk % 8 or 0 in (m, n, kk):
        raise ValueError(f"N and K must be positive multiples of 8, not {n}, {kk}")
    return m, n, kk


def check(run, m: int, n: int, kk: int) -> None:
    """Runs run(a, b, c) on random f16 host arrays and prints the largest
    error against numpy in f64."""
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, kk)).astype(np.float16)
    b = rng.standard_normal((kk, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    run(a, b, c)
    error = np.abs(c - a.astype(np.float64) @ b.astype(np.float64)).max()
    print(f"{m}x{kk} @ {kk}x{n}: max |error| {error:.2e}")


def main(m: int = 300, n: int = 264, kk: int = 200) -> None:
    compiled = wm.compile(build(), chip="sm_90")
    if not wm.cuda.is_available():
        ptx = compiled.ptx
        print(f"not run (no CUDA GPU): {ptx.count('mma.sync.aligned')} mma.sync, "
              f"{ptx.count('ldmatrix.sync')} ldmatrix, {ptx.count('cp.async.cg')} cp.async "
              f"in the sm_90 PTX")
        return
    check(lambda a, b, c: gemm(compiled, a, b, c), m, n, kk)


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:4]))
