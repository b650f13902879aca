"""The seed kernels written with the warp_mlir builder: warp dot product,
ballot compaction and block reduce. Importing this module builds them into
`prog`; running it prints the MLIR and the PTX for sm_90."""
import warp_mlir as wm

prog = wm.Program("seeds")


@prog.kernel(a=wm.memref(wm.f32), b=wm.memref(wm.f32), out=wm.memref(wm.f32))
def warp_dot(k, a, b, out):
    """out[w] = dot(a, b) over warp w's 32 elements."""
    i = k.global_id()
    dot = k.reduce("add", a[i] * b[i], lanes="first")
    with k.if_(k.lane_id() == 0):
        out[i // 32] = dot


@prog.kernel(x=wm.memref(wm.f32), out=wm.memref(wm.f32), counter=wm.memref(wm.i32, (1,)))
def compact_positive(k, x, out, counter):
    """Appends the positive elements of x to out (in warp order within each
    warp); counter[0] ends as their number."""
    value = x[k.global_id()]
    keep = value > 0.0
    offset, count = k.compact(keep)
    first = k.lane_id() == 0
    reserved = k.cond(first, lambda: k.atomic_add(counter, 0, count), lambda: 0, wm.i32)
    base = k.broadcast(reserved, 0)
    with k.if_(keep):
        out[base + offset] = value


@prog.kernel(x=wm.memref(wm.f32), out=wm.memref(wm.f32))
def block_sum(k, x, out):
    """out[block] = sum of the block's elements, for any block size."""
    partials = k.shared(wm.f32, 32)
    warp, lane = k.warp_id(), k.lane_id()
    size = k.cast(k.block_dim(), wm.i32)
    live = k.min(size - warp * 32, 32)  # lanes of this warp that exist
    mask = k.select(live == 32, -1, (k.constant(1, wm.i32) << live) - 1)
    total = k.reduce("add", x[k.global_id()], valid_lanes=live, mask=mask, lanes="first")
    with k.if_(lane == 0):
        partials[warp] = total
    k.barrier()
    with k.if_(warp == 0):
        warps = (size + 31) // 32
        partial = k.cond(lane < warps, lambda: partials[lane], lambda: 0.0, wm.f32)
        block = k.reduce("add", partial, valid_lanes=warps, mask=mask, lanes="first")
        with k.if_(lane == 0):
            out[k.block_id()] = block


if __name__ == "__main__":
    print(prog)
    print(wm.compile(prog, chip="sm_90").ptx)
