"""What the block-op tests share: the thread numbering of the block ops,
the combiners they check tuples with, 32-bit wrap-around, and the check of
a tile-copy kernel (the block and warp loads and stores)."""
import numpy as np

import warp_mlir as wm


def kind_inputs(name, size, rng):
    """Inputs for the kinds the block scan tests draw: "add_i32" any i32
    (sums wrap), "maxsi_i32" in [-1000, 1000), else small integral f32
    (every partial sum exact)."""
    if name == "add_i32":
        return rng.integers(-2 ** 31, 2 ** 31, size, dtype=np.int64).astype(np.int32)
    if name == "maxsi_i32":
        return rng.integers(-1000, 1000, size).astype(np.int32)
    return rng.integers(-50, 50, size).astype(np.float32)


def block_threads(block):
    """Threads of a block shape (an int or a tuple of up to three sizes)."""
    if isinstance(block, int):
        return block
    count = 1
    for size in block:
        count *= size
    return count


def linear_thread(k):
    """x + X * (y + Y * z): the thread's number in the block (an index)."""
    return k.thread_id("x") + k.block_dim("x") * (
        k.thread_id("y") + k.block_dim("y") * k.thread_id("z"))


def argmax(k, left, right):
    """The larger value; on a tie the left one (the lower thread or item:
    the combiner is not commutative, the order is kept)."""
    (lv, li), (rv, ri) = left, right
    take = rv > lv
    return k.select(take, rv, lv), k.select(take, ri, li)


def affine(left, right):
    """x -> a x + b, the left map applied first (not commutative)."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


def wrap(x):
    """An integer (Python's or numpy's) as two's-complement i32 arithmetic leaves it."""
    return ((int(x) + 2 ** 31) % 2 ** 32) - 2 ** 31


def check_tile_copy(compiled, grid, block, x, scalars, want, backend, what):
    """Launches `copy(x, seen, out, *scalars)`, a kernel that loads tiles of
    x, writes each thread's items to seen and stores them to out, and
    compares seen and out (its unwritten items -1) with want = (seen, out)."""
    seen = np.zeros(want[0].size, x.dtype)
    out = np.full_like(x, -1)
    wm.launch(compiled, "copy", grid, block, x, seen, out, *scalars, backend=backend)
    np.testing.assert_array_equal(seen, want[0], err_msg=what)
    np.testing.assert_array_equal(out, want[1], err_msg=what)
