"""Custom keys of the block radix ops: warp.block_radix_rank with a digit
function (CUB's RankKeys with a user digit extractor) and
warp.block_radix_sort of a tuple of key members (CUB's custom types through
a decomposer), on the simulator (and a GPU) against numpy.

The rank's reference: each key's digit computed here from the key (the
low radix_bits bits of what the digit function returns; the bits above are
ignored), its rank its position in numpy's stable argsort of the digits
(of their complements within R bits when descending); the exclusive digit
prefix of bin b counts the keys of digits below b (descending: above b).
The tuple sort's reference: np.lexsort of the members' unsigned images
(test_block_radix_sort's, from the definition), the first member most
significant, stable; descending sorts by the complemented images."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import block_threads, linear_thread
from test_block_radix_sort import TYPES, image

# ---------------------------------------------------------------- the rank


def shift3(k, key):
    """(key >> 3): the digit function leaves the masking to radix_bits."""
    return key >> 3


def scaled(k, key):
    """An f32 key's digit: trunc(4 key) as an i32 (bits above R ignored)."""
    return k.cast(key * 4.0, wm.i32)


DIGITS = {"shift3": (wm.i32, np.int32, shift3, lambda x: x.astype(np.int64) >> 3),
          "scaled": (wm.f32, np.float32, scaled,
                     lambda x: np.trunc(x.astype(np.float64) * 4).astype(np.int64))}


@functools.lru_cache(maxsize=None)
def rank_program(name, n, radix_bits, known, prefix, descending):
    element, _, function, _ = DIGITS[name]
    prog = wm.Program(f"rank_digit_{name}_{n}")

    @prog.kernel(x=wm.memref(element), r=wm.memref(wm.i32), p=wm.memref(wm.i32))
    def rank(k, x, r, p):
        k.known_block_size(*known)
        t = linear_thread(k)
        keys = k.load_vector(x, t * n, n)
        result = k.block_radix_rank(keys, digit=lambda key: function(k, key),
                                    radix_bits=radix_bits, descending=descending,
                                    digit_prefix=bool(prefix))
        if prefix:
            ranks, bins = result
            k.store_vector(p, t * prefix, bins)
        else:
            ranks = result
        k.store_vector(r, t * n, ranks)
    return prog


def run_rank(backend, name, n, block, radix_bits, prefix=False, descending=False):
    _, dtype, _, model = DIGITS[name]
    threads = block_threads(block)
    shape = (block,) if isinstance(block, int) else tuple(block)
    radix = 1 << radix_bits
    per_thread = max(1, -(-radix // threads)) if prefix else 0
    program = rank_program(name, n, radix_bits, shape, per_thread, descending)
    compiled = wm.compile(program, chip="sm_90")
    rng = np.random.default_rng([threads, n, radix_bits, descending])
    if dtype == np.float32:
        # Few distinct keys, both signs: digits repeat (stability shows).
        x = (rng.integers(-400, 400, threads * n) / 8).astype(np.float32)
    else:
        x = rng.integers(-2 ** 31, 2 ** 31, threads * n, dtype=np.int64).astype(np.int32)
        x[1::3] = x[::3][:x[1::3].size]
    r = np.full(threads * n, -1, np.int32)
    p = np.full(threads * max(per_thread, 1), -1, np.int32)
    wm.launch(compiled, "rank", 1, block, x, r, p, backend=backend)
    d = model(x) & (radix - 1)
    order = np.argsort(radix - 1 - d if descending else d, kind="stable")
    expected = np.empty(d.size, np.int32)
    expected[order] = np.arange(d.size, dtype=np.int32)
    np.testing.assert_array_equal(r, expected)
    if prefix:
        bins = np.arange(threads * per_thread)
        before = [np.count_nonzero(d > b if descending else d < b) for b in bins]
        np.testing.assert_array_equal(p, np.where(bins < radix, before, 0))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,n,block,radix_bits,prefix,descending", [
    ("shift3", 4, 96, 4, True, False),
    ("shift3", 1, 32, 8, False, True),
    ("scaled", 1, (16, 2), 3, True, True),
    ("scaled", 4, 32, 5, False, False),
    # 8-bit digits in 256 threads: a counter column per warp (ballots of the digits' bits).
    ("shift3", 4, 256, 8, True, False),
], ids=str)
def test_rank_by_digit_function(backend, name, n, block, radix_bits, prefix, descending):
    run_rank(backend, name, n, block, radix_bits, prefix, descending)


# ----------------------------------------------------------- the tuple sort


@functools.lru_cache(maxsize=None)
def tuple_program(members, n, known, values, options):
    prog = wm.Program("radix_tuple_" + "_".join(members))
    memrefs = {f"x{m}": wm.memref(TYPES[key][0]) for m, key in enumerate(members)}
    memrefs.update({f"o{m}": wm.memref(TYPES[key][0]) for m, key in enumerate(members)})

    @prog.kernel(v=wm.memref(wm.i32), ov=wm.memref(wm.i32), **memrefs)
    def radix(k, v, ov, *args):
        buffers = dict(zip(memrefs, args))
        k.known_block_size(*known)
        base = linear_thread(k) * n
        keys = tuple(k.load_vector(buffers[f"x{m}"], base, n) for m in range(len(members)))
        if values:
            keys, vals = k.block_radix_sort(keys, k.load_vector(v, base, n), **dict(options))
            k.store_vector(ov, base, vals)
        else:
            keys = k.block_radix_sort(keys, **dict(options))
        for m, member in enumerate(keys):
            k.store_vector(buffers[f"o{m}"], base, member)
    return prog


def member_keys(rng, key, size):
    """Few distinct values per member (ties in the first members, so the
    later ones decide), both signs; floats with -0.0, +0.0 and infinities."""
    dtype = TYPES[key][1]
    if key.startswith("f"):
        x = (rng.integers(-6, 6, size) / 4).astype(dtype)
        x[:4] = np.array([-0.0, 0.0, np.inf, -np.inf], dtype)[:size]
        return x
    info = np.iinfo(dtype)
    pool = rng.integers(info.min, info.max, 5, dtype=np.int64, endpoint=True)
    return pool[rng.integers(0, 5, size)].astype(dtype)


def run_tuple(backend, members, n, block, values=True, signed=False, descending=False,
              striped=False, radix_bits=None):
    threads = block_threads(block)
    shape = (block,) if isinstance(block, int) else tuple(block)
    options = tuple((o, True) for o, on in
                    (("signed", signed), ("descending", descending), ("striped", striped)) if on)
    if radix_bits:
        options += (("radix_bits", radix_bits),)
    compiled = wm.compile(tuple_program(tuple(members), n, shape, values, options),
                          chip="sm_90")
    rng = np.random.default_rng([threads, n, len(members), signed, descending])
    xs = [member_keys(rng, key, threads * n) for key in members]
    outs = [np.zeros_like(x) for x in xs]
    v = np.arange(threads * n, dtype=np.int32)
    ov = np.zeros_like(v)
    wm.launch(compiled, "radix", 1, block, v, ov, *xs, *outs, backend=backend)
    images = [image(x, key, signed=signed and not key.startswith("f"), descending=descending)
              for x, key in zip(xs, members)]
    order = np.lexsort(images[::-1])   # the last key given is the primary one
    if striped:
        order = order.reshape(n, threads).T.reshape(-1)
    for key, x, out in zip(members, xs, outs):
        unsigned = TYPES[key][2]
        np.testing.assert_array_equal(out.view(unsigned), x[order].view(unsigned))
    if values:
        np.testing.assert_array_equal(ov, v[order])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("members,n,block,values,signed,descending,striped", [
    (("i32", "f32"), 4, 96, True, True, False, False),
    (("i16", "i16", "i64"), 1, 32, False, False, True, False),
    (("f32", "i8"), 4, (8, 4), True, False, True, True),
], ids=str)
def test_tuple_sort(backend, members, n, block, values, signed, descending, striped):
    run_tuple(backend, members, n, block, values, signed, descending, striped)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tuple_sort_match_ranking(backend):
    """8-bit passes in 128 threads x 4: each pass ranks in a counter column
    per warp (ballots of the digits' bits), every member moving with it."""
    run_tuple(backend, ("i16", "f32"), 4, 128, values=True, signed=True, radix_bits=8)


# ------------------------------------------------------------ IR and errors


def test_ir():
    prog = wm.Program("ir")

    @prog.kernel(x=wm.memref(wm.i32), f=wm.memref(wm.f32))
    def k(k, x, f):
        k.known_block_size(64)
        keys = k.load_vector(x, 0, 2)
        k.block_radix_rank(keys, digit=lambda key: key >> 3, radix_bits=4,
                           descending=True)
        k.block_radix_sort((keys, k.load_vector(f, 0, 2)), keys, signed=True)
    text = str(prog)
    assert "descending radix_bits = 4 : vector<2xi32> digit(%" in text
    assert "warp.yield" in text
    assert "signed : (vector<2xi32>, vector<2xf32>), vector<2xi32>" in text


@pytest.mark.parametrize("call,error", [
    (lambda k, v, f: k.block_radix_rank(v, digit=lambda x: x), TypeError),
    (lambda k, v, f: k.block_radix_rank(v, (0, 4), digit=lambda x: x, radix_bits=4),
     ValueError),
    (lambda k, v, f: k.block_radix_rank(v, digit=lambda x: x, radix_bits=9), ValueError),
    (lambda k, v, f: k.block_radix_rank(v, (0, 4), radix_bits=4), ValueError),
    (lambda k, v, f: k.block_radix_rank(v, digit=lambda x: x.builder.cast(x, wm.i64),
                                        radix_bits=4), TypeError),
    (lambda k, v, f: k.block_radix_sort((v, f), bits=(0, 4)), ValueError),
    (lambda k, v, f: k.block_radix_sort((f, f), signed=True), ValueError),
    (lambda k, v, f: k.block_radix_sort((v, k.load_vector(f, 0, 3))), TypeError),
    (lambda k, v, f: k.block_radix_sort(()), TypeError),
])
def test_errors_at_the_call(call, error):
    prog = wm.Program("bad")

    @prog.kernel(x=wm.memref(wm.i32), y=wm.memref(wm.f32))
    def k(k, x, y):
        with pytest.raises(error):
            call(k, k.load_vector(x, 0, 2), k.load_vector(y, 0, 2))
