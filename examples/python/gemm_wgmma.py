"""A Hopper GEMM as a frontend writes it: cp.async into swizzled shared
memory, warpgroup MMA (warp.wgmma, sm_90a) reading it through descriptors.

C (M x N, f32) = A (M x K) @ B (K x N), A and B row-major in f16 or bf16.
One 256-thread block (two warpgroups) per BM x BN tile of C; warpgroup w
computes rows 64 w .. 64 w + 63 with one m64 x BN x k16 wgmma per 16 of K,
its accumulator (BN / 2 f32 a thread) carried by the K loop. The loop steps
by BK = 64 through STAGES buffers of dynamic shared memory: cp.async fills
tile t + STAGES - 2 while the tensor cores work on tiles t and t - 1 (one
wgmma group stays in flight across the step).

Shared layouts, both with 128-byte rows and the 128-byte swizzle (16-byte
chunk c of row r stored at chunk c ^ (r % 8), atoms of 8 rows at 1024-byte
boundaries):
- A, K-major: row m of a stage's BM x 64 tile is A's 64 elements of K.
- B, N-major: BN / 64 panels of 64 rows (K) x 64 columns (N); the
  descriptor's `leading` is the distance between panels, `stride` between
  groups of 8 K rows.

Any M; N and K multiples of 8 (cp.async moves 16-byte rows); edges
zero-filled by cp.async and not stored. Where the tiles are fewer than the
SMs (skinny shapes), the grid's y dimension splits K into parts whose
blocks add their sums into C with atomics (`splits`, splits_for).

Run: python3 examples/python/gemm_wgmma.py [M N K]   (an H100/H200)
"""
import sys

import warp_mlir as wm
from gemm import check, sizes

BM, BK = 128, 64
THREADS = 256                    # two warpgroups
STAGES = 4
ROW = 64                         # elements in one 128-byte swizzled row
B_LEADING = BK * 128             # bytes from one 64-column panel of B to the next
B_STRIDE = 1024                  # bytes from 8 rows (of A, or of K in B) to the next 8
GROUP_M = 8                      # rows of tiles a group of blocks walks down


def swizzle(row, chunk):
    """Where 16-byte chunk `chunk` (of 8) of a 128-byte row lies."""
    return chunk ^ (row % 8)


def build(element: wm.Type = wm.f16, bn: int = 256, group_m: int = GROUP_M):
    """The program and the dynamic shared memory its kernel needs. Blocks
    take their tiles in groups of `group_m` rows of tiles, column by
    column within a group, so that the tiles running at once share rows
    of A and columns of B in L2 (1: row by row)."""
    if bn % 64 or not 64 <= bn <= 256:
        raise ValueError(f"BN is 64, 128, 192 or 256, not {bn}")
    panels = bn // 64
    prog = wm.Program("gemm_wgmma")

    @prog.kernel(a=wm.memref(element, (-1, -1)), b=wm.memref(element, (-1, -1)),
                 c=wm.memref(wm.f32, (-1, -1)), m=wm.index, n=wm.index, kk=wm.index)
    def gemm(k, a, b, c, m, n, kk):
        sa = k.dynamic_shared(element, (STAGES * BM, ROW), align=1024)
        sb = k.dynamic_shared(element, (STAGES * panels * BK, ROW), align=1024)
        tid = k.thread_id("x")
        m0, n0 = tile_origin(k, m, n, bn, group_m)

        def copy_chunk(src, row0, rows, col0, cols, row, part, dst, dst_row, dst_chunk):
            """cp.async of the 16 bytes at src[row0 + row, col0 + 8 part]
            into dst[dst_row, 8 dst_chunk], zero-filled past rows x cols
            (the source clamped in bounds)."""
            ok = (row0 + row < rows) & (col0 + part * 8 < cols)
            at = (k.min(row0 + row, rows - 1), k.min(col0 + part * 8, cols - 8))
            return k.async_copy(src, at, dst, (dst_row, dst_chunk * 8), 8,
                                valid=k.select(ok, 8, 0, wm.index), bypass_l1=True)

        def load_stage(k_tile, stage):
            """This thread's cp.async of K tile `k_tile` into `stage`."""
            k0 = k_tile * BK
            tokens = []
            for i in range(BM * 8 // THREADS):
                chunk = tid + i * THREADS
                row, part = chunk // 8, chunk % 8
                tokens.append(copy_chunk(a, m0, m, k0, k_end, row, part, sa,
                                         stage * BM + row, swizzle(row, part)))
            for i in range(BK * bn // 8 // THREADS):
                chunk = tid + i * THREADS
                row, part = chunk // (bn // 8), chunk % (bn // 8)
                dst_row = (stage * panels + part // 8) * BK + row
                tokens.append(copy_chunk(b, k0, k_end, n0, n, row, part, sb, dst_row,
                                         swizzle(row, part % 8)))
            return k.async_commit(*tokens)

        # Split K: block row y of the grid takes the y-th of grid_dim.y
        # parts of the K tiles (and adds its sums into C).
        k_tiles = (kk + BK - 1) // BK
        per_part = (k_tiles + k.grid_dim("y") - 1) // k.grid_dim("y")
        k_first = k.block_id("y") * per_part
        k_count = k.max(k.min(per_part, k_tiles - k_first), 0)
        k_end = k.min((k_first + k_count) * BK, kk)
        for t in range(STAGES - 2):
            load_stage(k_first + t, t)
        group = tid // 128
        steps = k.loop(0, k_count, init=[k.constant(0.0, wm.vector(bn // 2, wm.f32))])
        with steps as (t, acc):
            # Tile t is in once at most the newest STAGES - 3 tile groups
            # are in flight (plus the empty group committed here, whose
            # token the wait needs); its writes then reach the async proxy
            # the wgmma reads through, and the barrier publishes them. It
            # also says every warpgroup waited for its tile t - 2 wgmma in
            # the step before: that stage is refilled now.
            k.async_wait(k.async_commit(), pending=STAGES - 2)
            k.fence_async_shared()
            k.barrier()
            load_stage(k_first + t + STAGES - 2, (t + STAGES - 2) % STAGES)
            acc = multiply_stage(k, sa, sb, t % STAGES, group, panels, acc, element)
            steps.yield_(acc)
        k.wgmma_wait(0)
        k.async_wait(k.async_commit(), pending=0)  # no copy left in flight
        store_tile(k, c, steps.results[0], m, n, m0, n0, group, tid, bn,
                   modes=(k.grid_dim("y") == 1, k.grid_dim("y") > 1))

    return prog, gemm.dynamic_shared_bytes


def multiply_stage(k, sa, sb, stage, group, panels: int, acc, element):
    """Warpgroup `group`'s wgmmas of one BK step: its 64 rows of A's tile
    and B's `panels` panels in `stage`, added to acc as one wgmma group;
    returns once at most that group is in flight (the step before it has
    retired)."""
    k.wgmma_fence()
    for s in range(BK // 16):
        da = k.wgmma_descriptor(sa, (stage * BM + group * 64, s * 16), swizzle=128,
                                stride=B_STRIDE)
        db = k.wgmma_descriptor(sb, (stage * panels * BK + s * 16, 0), swizzle=128,
                                leading=B_LEADING, stride=B_STRIDE)
        acc = k.wgmma(da, db, acc, input=element, b_mn_major=True)
    k.wgmma_commit()
    k.wgmma_wait(1)
    return acc


def tile_origin(k, m, n, bn: int, group_m: int):
    """(m0, n0): where the block's BM x bn tile of C starts. Blocks take
    their tiles in groups of `group_m` rows of tiles, column by column
    within a group."""
    tiles_m, tiles_n = (m + BM - 1) // BM, (n + bn - 1) // bn
    block, per_group = k.block_id("x"), tiles_n * group_m
    first_m = (block // per_group) * group_m
    rows = k.min(tiles_m - first_m, group_m)
    return (first_m + (block % per_group) % rows) * BM, ((block % per_group) // rows) * bn


def store_tile(k, c, d, m, n, m0, n0, group, tid, bn: int, modes=None) -> None:
    """Stores warpgroup `group`'s m64 x bn accumulator d (wgmma's layout;
    `tid`: the thread's number, its lane in the warpgroup tid % 128) as
    rows m0 + 64 group .. of C from column n0 on, inside M x N. `modes`:
    None to store, or two i1 Values (whole, split): store where `whole`
    is true, add into C with atomics where `split` is (split K)."""
    lane, warp = tid % 32, (tid // 32) % 4
    whole, split = modes if modes is not None else (None, None)
    for h in range(2):
        row = m0 + group * 64 + warp * 16 + lane // 4 + 8 * h
        for j in range(bn // 8):
            col = n0 + j * 8 + 2 * (lane % 4)
            with k.if_((row < m) & (col < n)):
                pair = k.vector_slice(d, 4 * j + 2 * h, 2)
                if split is None:
                    k.store_vector(c, (row, col), pair)
                    continue
                with k.if_(whole):
                    k.store_vector(c, (row, col), pair)
                with k.if_(split):
                    for i in range(2):
                        k.atomic_add(c, (row, col + i), k.vector_element(pair, i))


def compile_gemm(element: wm.Type = wm.f16, bn: int = 256, group_m: int = GROUP_M):
    """The kernel for sm_90a with 32-bit index arithmetic (every offset of
    A, B and C below 2**31 elements), and its dynamic shared memory."""
    prog, shared_bytes = build(element, bn, group_m)
    return wm.compile(prog, chip="sm_90a", device_index_bitwidth=32), shared_bytes


def grid(m: int, n: int, bn: int = 256, splits: int = 1):
    return ((n + bn - 1) // bn * ((m + BM - 1) // BM), splits)


def tile_n(n: int, m: int = 0, sms: int = 0) -> int:
    """The block tile's N for a C of M x N: 128 where N fits it (half of a
    256-wide tile would be padding) or, given the GPU's `sms`, where tiles
    256 wide would be fewer than its SMs (a short M: twice the tiles keep
    twice the SMs streaming the operands), else 256."""
    if n <= 128 or (sms and grid(m, n, 256)[0] < sms):
        return 128
    return 256


def splits_for(m: int, n: int, kk: int, sms: int, bn: int = 256) -> int:
    """How many parts to split K into so that the blocks fill `sms` SMs
    once (one block an SM), each part at least 8 K tiles: 1 where the tiles
    alone fill them."""
    tiles = grid(m, n, bn)[0]
    return max(1, min(sms // tiles, (kk + BK - 1) // BK // 8))


def gemm(compiled, shared_bytes, a, b, c, bn: int = 256, splits: int = 1, stream=None,
         sync=True) -> None:
    """Launches the kernel for host or device arrays a (M x K), b (K x N),
    c (M x N, f32); N and K multiples of 8. `splits` > 1 splits K into
    that many parts whose blocks add their sums into C (zeroed here
    first): for shapes with fewer tiles than SMs (see splits_for).
    sync=False (device arrays only) returns once it is queued."""
    m, n, kk = sizes(a, b, c)
    if splits > 1:
        c[...] = 0
    wm.launch(compiled, "gemm", grid(m, n, bn, splits), THREADS, a, b, c, m, n, kk,
              shared_bytes=shared_bytes, stream=stream, sync=sync)


def main(m: int = 300, n: int = 264, kk: int = 200) -> None:
    compiled, shared_bytes = compile_gemm()
    if not wm.cuda.is_available():
        ptx = compiled.ptx
        print(f"not run (no CUDA GPU): {ptx.count('wgmma.mma_async')} wgmma.mma_async, "
              f"{ptx.count('cp.async.cg')} cp.async in the sm_90a PTX, "
              f"{shared_bytes} bytes of dynamic shared memory")
        return
    check(lambda a, b, c: gemm(compiled, shared_bytes, a, b, c), m, n, kk)


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:4]))
