"""A warp-specialised Hopper GEMM as a frontend writes it: TMA loads
(cp.async.bulk.tensor) into swizzled shared memory, mbarriers with
transaction counts, warpgroup MMA (warp.wgmma, sm_90a) reading it.

C (M x N, f32) = A (M x K) @ B (K x N), A and B row-major in f16 or bf16.
One 384-thread block (three warpgroups) per BM x BN tile of C, BN = 256
(128 where N fits it or where 256-wide tiles would not fill the SMs, as
gemm_wgmma.tile_n). Warpgroup 0 is the producer:
its thread 0 walks the K tiles (BK = 64), and for each waits until the
stage it refills is free (`empty`), arms the stage's `full` barrier with
the tile's bytes (mbarrier.arrive.expect_tx) and issues the TMA loads: A's
box of 64 (K) x 128 (M) and B as BN / 64 panels of 64 (N) x 64 (K). The
loads complete the bytes on `full`. Warpgroups 1 and 2 are the consumers:
rows 0-63 and 64-127 of the tile, one m64 x BN x k16 wgmma per 16 of K,
the accumulator (BN / 2 f32 a thread) carried by the K loop. Each waits
for its stage's `full` phase, issues the tile's four wgmmas as a group,
waits until at most that group is in flight (so the previous tile's group
has retired) and releases the previous tile's stage: lane 0 of each of the
8 consumer warps arrives on its `empty` barrier (count 8). A warp's
wgmma.wait_group says its own reads are done, so one arrival a warp is
the least that covers every reader without a warpgroup-wide sync.

Phases: tile t uses stage s = t % STAGES in round r = t // STAGES. `full[s]`
completes its phase r when tile t has arrived: consumers wait for parity
r % 2. `empty[s]` completes its phase r when the consumers have released
tile t: before loading tile t the producer waits for the phase r - 1, of
parity (r - 1) % 2 = (r % 2) ^ 1; in round 0 that is parity 1, which a
fresh barrier reports complete at once, so the first STAGES loads go
ahead.

Shared layouts (the TMA's 128-byte swizzle writes them; the same as
gemm_wgmma.py's, so are the wgmma descriptors): A K-major, rows of 64
elements; B N-major in panels of 64 K rows x 64 columns. STAGES: as many
stages as fit in the 227 KB of shared memory a block may have (4 of 48 KB
for BN = 256, 7 of 32 KB for BN = 128). With `max_registers` the producer
gives up registers (setmaxnreg 40) and the consumers take them (232).

The tensor maps (warp_mlir.cuda.tensor_map, one per operand) are passed
by their device addresses (i64 parameters: a memref's address taken as an
index would not survive the 32-bit device index). Any M; N and K multiples
of 8 (the tensor maps' 16-byte row strides); the TMA fills what lies past
the edges with zeros, and the epilogue stores only inside C.

Run: python3 examples/python/gemm_tma.py [M N K]   (an H100/H200, torch)
"""
import sys

import warp_mlir as wm
from gemm import sizes
from gemm_wgmma import (BK, BM, GROUP_M, ROW, multiply_stage, splits_for, store_tile, tile_n,
                        tile_origin)

THREADS = 384                    # a producer warpgroup and two consumer warpgroups
CONSUMER_WARPS = 8               # one arrival each on an `empty` barrier
SHARED_LIMIT = 227 * 1024        # shared memory a block may have on sm_90
PRODUCER_REGISTERS, CONSUMER_REGISTERS = 40, 232

__all__ = ["build", "compile_gemm", "gemm", "grid", "main", "splits_for", "stages_for", "tile_n"]


def stage_bytes(bn: int) -> int:
    """The bytes of one stage: A's BM x BK and B's BK x bn tiles (2-byte elements)."""
    return (BM + bn) * BK * 2


def stages_for(bn: int) -> int:
    """How many stages fit beside the barriers and the 1024-byte alignment."""
    return (SHARED_LIMIT - 1024 - 256) // stage_bytes(bn)


def build(element: wm.Type = wm.f16, bn: int = 256, group_m: int = GROUP_M,
          max_registers: bool = True, rotate_k: bool = False):
    """The program and the dynamic shared memory its kernel needs. With
    `rotate_k` block x starts its K walk at tile x * k_count / grid_x (and
    wraps around), so that the blocks do not all read the same K tile of
    an operand they share at once."""
    if bn % 64 or not 64 <= bn <= 256:
        raise ValueError(f"BN is 64, 128, 192 or 256, not {bn}")
    panels, stages, tile_bytes = bn // 64, stages_for(bn), stage_bytes(bn)
    prog = wm.Program("gemm_tma")

    @prog.kernel(map_a=wm.i64, map_b=wm.i64, c=wm.memref(wm.f32, (-1, -1)), m=wm.index,
                 n=wm.index, kk=wm.index)
    def gemm(k, map_a, map_b, c, m, n, kk):
        k.known_block_size(THREADS)
        sa = k.dynamic_shared(element, (stages * BM, ROW), align=1024)
        sb = k.dynamic_shared(element, (stages * panels * BK, ROW), align=1024)
        full = k.mbarrier(1, stages)
        empty = k.mbarrier(CONSUMER_WARPS, stages)
        tid = k.thread_id("x")
        m0, n0 = tile_origin(k, m, n, bn, group_m)
        # Split K: block row y of the grid takes the y-th of grid_dim.y
        # parts of the K tiles (and adds its sums into C).
        k_tiles = (kk + BK - 1) // BK
        per_part = (k_tiles + k.grid_dim("y") - 1) // k.grid_dim("y")
        k_first = k.block_id("y") * per_part
        k_count = k.max(k.min(per_part, k_tiles - k_first), 0)
        warpgroup = tid // 128

        def parity(t, flip):
            """The i32 parity of round t // stages (flipped)."""
            return k.cast(((t // stages) % 2) ^ flip, wm.i32)

        with k.if_(warpgroup == 0):
            if max_registers:
                k.set_max_registers(PRODUCER_REGISTERS, increase=False)
            with k.if_(tid == 0):
                rotation = 0
                if rotate_k:
                    rotation = k.block_id("x") * k_count // k.grid_dim("x")
                with k.loop(0, k_count) as t:
                    stage = t % stages
                    k.mbarrier_wait(empty, parity(t, 1), index=stage)
                    k.mbarrier_arrive_expect_tx(full, tile_bytes, index=stage)
                    walked = (t + rotation) % k_count if rotate_k else t
                    k0 = (k_first + walked) * BK
                    k.tma_load(map_a, (k0, m0), sa, (stage * BM, 0), full, index=stage)
                    for p in range(panels):
                        k.tma_load(map_b, (n0 + 64 * p, k0), sb,
                                   ((stage * panels + p) * BK, 0), full, index=stage)

        with k.if_(warpgroup > 0):
            if max_registers:
                k.set_max_registers(CONSUMER_REGISTERS, increase=True)
            group = warpgroup - 1
            steps = k.loop(0, k_count, init=[k.constant(0.0, wm.vector(bn // 2, wm.f32))])
            with steps as (t, acc):
                stage = t % stages
                k.mbarrier_wait(full, parity(t, 0), index=stage)
                acc = multiply_stage(k, sa, sb, stage, group, panels, acc, element)
                # Tile t - 1's group has retired: its stage may be refilled.
                with k.if_((t > 0) & (tid % 32 == 0)):
                    k.mbarrier_arrive(empty, index=(t + stages - 1) % stages)
                steps.yield_(acc)
            k.wgmma_wait(0)
            store_tile(k, c, steps.results[0], m, n, m0, n0, group, tid, bn,
                       modes=(k.grid_dim("y") == 1, k.grid_dim("y") > 1))

    return prog, gemm.dynamic_shared_bytes


def compile_gemm(element: wm.Type = wm.f16, bn: int = 256, group_m: int = GROUP_M,
                 max_registers: bool = True, rotate_k: bool = False):
    """The kernel for sm_90a with 32-bit index arithmetic (every offset of
    C below 2**31 elements), and its dynamic shared memory."""
    prog, shared_bytes = build(element, bn, group_m, max_registers, rotate_k)
    return wm.compile(prog, chip="sm_90a", device_index_bitwidth=32), shared_bytes


def grid(m: int, n: int, bn: int = 256, splits: int = 1):
    return ((n + bn - 1) // bn * ((m + BM - 1) // BM), splits)


# The tensor maps made so far, by what they encode (address, shape, element
# type, box): a map depends on nothing else, so one made for an array that
# has gone describes a new array at that address and shape as well, and
# launches that reuse arrays (a benchmark's) make none.
_maps = {}


def _tensor_map(array, box):
    key = (wm.cuda._device_matrix(array)[:3], tuple(box))
    if key not in _maps:
        _maps[key] = wm.cuda.tensor_map(array, box)
        _maps[key]._source = None  # the key's address, not the array, is what it holds
    return _maps[key]


def gemm(compiled, shared_bytes, a, b, c, bn: int = 256, splits: int = 1, stream=None,
         sync=True) -> None:
    """Launches the kernel for device arrays (torch, cupy) a (M x K), b
    (K x N), c (M x N, f32); N and K multiples of 8. `splits` > 1 splits K
    into that many parts whose blocks add their sums into C (zeroed here
    first): for shapes with fewer tiles than SMs (splits_for). sync=False
    returns once it is queued."""
    m, n, kk = sizes(a, b, c)
    if splits > 1:
        c[...] = 0
    map_a, map_b = _tensor_map(a, (BM, BK)), _tensor_map(b, (BK, 64))
    wm.launch(compiled, "gemm", grid(m, n, bn, splits), THREADS, map_a.address, map_b.address, c, m,
              n, kk, shared_bytes=shared_bytes, stream=stream, sync=sync)


def main(m: int = 300, n: int = 264, kk: int = 200) -> None:
    compiled, shared_bytes = compile_gemm(bn=tile_n(n))
    if not wm.cuda.is_available():
        ptx = compiled.ptx
        print(f"not run (no CUDA GPU): {ptx.count('cp.async.bulk.tensor')} cp.async.bulk.tensor, "
              f"{ptx.count('mbarrier.try_wait.parity')} mbarrier.try_wait.parity, "
              f"{ptx.count('wgmma.mma_async')} wgmma.mma_async in the sm_90a PTX, "
              f"{shared_bytes} bytes of dynamic shared memory")
        return
    import torch

    gen = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(m, kk, device="cuda", generator=gen).half()
    b = torch.randn(kk, n, device="cuda", generator=gen).half()
    c = torch.zeros(m, n, device="cuda")
    gemm(compiled, shared_bytes, a, b, c, tile_n(n))
    error = (c.double() - a.double() @ b.double()).abs().max().item()
    print(f"{m}x{kk} @ {kk}x{n}: max |error| {error:.2e}")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:4]))
