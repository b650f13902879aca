"""warp.device_segmented_radix_sort from Python
(warp_mlir.device.segmented_radix_sort), against a numpy model written from
the definition (CUB's DeviceSegmentedRadixSort): each segment [b, e) =
[begin[s], end[s]) is numpy's stable argsort of its keys' images
(test_device_ops.sort_order: signed integers with the sign bit flipped,
floats by their ordered bits, so -0.0 before 0.0 and NaNs by their bits),
applied at the segment's own positions; e <= b is empty; the elements in no
segment keep the output's old ones. Segments empty, of one key, ragged,
in any order with gaps, and longer than one tile (the block's passes over
its tiles: 256 threads x 32 bytes of the wider of keys and values), keys
and key-value pairs, descending, bit ranges, float keys with -0.0, the
infinities and NaNs of both signs. On the SIMT simulator (few, small
cases: each kernel variant is compiled once), on a GPU where there is one
(many segments past the grid cap, long segments, torch)."""
import numpy as np
import pytest

import warp_mlir.device as wd
from conftest import BACKENDS, requires_gpu
from test_device_ops import DOUBLE_BUFFER_CASES, sort_keys_for, sort_order, sort_tile


@pytest.fixture
def rng():
    return np.random.default_rng(20261205)


def model(keys, begin, end, out, values=None, values_out=None, descending=False, bits=(0, None)):
    """The outputs after the sort: `out` (and `values_out`) with each
    segment's keys (and values) in the stable radix order."""
    want, want_values = out.copy(), None if values is None else values_out.copy()
    for b, e in zip(begin.tolist(), end.tolist()):
        if e <= b:
            continue
        order = b + sort_order(keys[b:e], descending, bits[0], bits[1])
        want[b:e] = keys[order]
        if values is not None:
            want_values[b:e] = values[order]
    return want, want_values


def check(got, want):
    """Bit for bit (NaN payloads, -0.0)."""
    assert got.dtype == want.dtype
    bits = f"u{want.dtype.itemsize}"
    np.testing.assert_array_equal(got.view(bits), want.view(bits))


def ragged(n, tile, rng):
    """Offsets (S + 1) of segments covering [0, n): empty ones, a key of
    its own, ragged small ones and, where n allows, one longer than a
    tile."""
    lengths = [0, 1, 0, 5, 33, 2]
    if n > tile + 100:
        lengths.append(tile + 1 + int(rng.integers(0, 40)))
    lengths += list(rng.integers(0, 40, 6))
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    return np.minimum(offsets, n)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int32, np.uint8])
def test_keys(backend, dtype, rng):
    """SortKeys: ragged segments (one longer than a tile), the keys between
    and after the segments untouched; signed and unsigned order."""
    tile = sort_tile(dtype, segmented=True)
    n = tile + 300
    keys = sort_keys_for(dtype, n, rng)[-1]
    offsets = ragged(n - 7, tile, rng).astype(np.int32)
    out = np.full(n, 9, dtype)
    got = wd.segmented_radix_sort(keys, offsets, out=out, backend=backend)
    assert got is out or got.base is out
    want, _ = model(keys, offsets[:-1], offsets[1:], np.full(n, 9, dtype))
    check(out, want)
    assert (out[offsets[-1]:] == 9).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_pairs_descending_begin_end(backend, rng):
    """SortPairsDescending over bits 4 to 14 (two passes: the values go
    through the scratch too) with (begin, end) of two types: segments out
    of order, with gaps, an end before its begin; values are the
    positions, so the stability shows; a new output is a copy of the
    input where no segment lies."""
    tile = sort_tile(np.int16, np.int64, segmented=True)
    n = 2 * tile + 50
    keys = sort_keys_for(np.int16, n, rng)[0]  # few distinct keys: stability
    values = np.arange(n, dtype=np.int64)
    begin = np.array([tile + 40, 3, 10, 50, 9], np.int64)
    end = np.array([2 * tile + 45, 4, 40, 45, 9], np.int32)
    out, values_out = wd.segmented_radix_sort(keys, (begin, end), values, descending=True,
                                              begin_bit=4, end_bit=14, backend=backend)
    want, want_values = model(keys, begin, end, keys, values, values, descending=True,
                              bits=(4, 14))
    check(out, want)
    check(values_out, want_values)


@pytest.mark.parametrize("backend", BACKENDS)
def test_float_keys_and_small_segments(backend, rng):
    """f16 keys with NaNs of both signs, -0.0 and infinities (-0.0 before
    0.0, NaNs by their bits at the ends), f32 values; many segments of up
    to a tile."""
    n = 700
    keys = sort_keys_for(np.float16, n, rng)[-1]
    assert np.isnan(keys).any() and (keys == 0).any()
    values = rng.standard_normal(n).astype(np.float32)
    offsets = np.array([0, 1, 1, 90, 91, 300, 700], np.int64)
    out = np.zeros(n, np.float16)
    values_out = np.zeros(n, np.float32)
    wd.segmented_radix_sort(keys, offsets, values, out=out, values_out=values_out,
                            backend=backend)
    want, want_values = model(keys, offsets[:-1], offsets[1:], out, values, values_out)
    check(out, want)
    check(values_out, want_values)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_segments_and_empty_keys(backend):
    keys = np.arange(5, 0, -1).astype(np.int32)
    got = wd.segmented_radix_sort(keys, np.array([3], np.int32), backend=backend)
    np.testing.assert_array_equal(got, keys)
    got = wd.segmented_radix_sort(np.zeros(0, np.int32), np.zeros(3, np.int32),
                                  backend=backend)
    assert got.shape == (0,)


@pytest.mark.parametrize("backend", BACKENDS)
@DOUBLE_BUFFER_CASES
def test_double_buffer(backend, key_dtype, value_dtype, begin, end, buffer, rng):
    """CUB's DoubleBuffer form: keys and out (values and values_out) are
    the passes' only storage; the buffer that holds each sorted segment is
    returned, the one radix_sort returns for the same keys and bits (the
    parity of ceil((end - begin) / 8) passes), for segments of one tile
    (one block sort) and longer (the passes) alike; empty segments and
    the elements in no segment are left as they are in both buffers."""
    tile = sort_tile(key_dtype, value_dtype, segmented=True)
    n = tile + 300
    keys = sort_keys_for(key_dtype, n, rng)[-1]
    offsets = ragged(n - 7, tile, rng).astype(np.int64)
    original = keys.copy()
    alternate = np.full(n, 7, key_dtype)
    buffers = (keys, alternate)
    if value_dtype is None:
        got = wd.segmented_radix_sort(keys, offsets, out=alternate, begin_bit=begin,
                                      end_bit=end, double_buffer=True, backend=backend)
        assert got is buffers[buffer] or got.base is buffers[buffer]
        want, _ = model(original, offsets[:-1], offsets[1:], (original, alternate.copy())[buffer],
                        bits=(begin, end))
        check(got, want)
        assert (got[offsets[-1]:] == (original, np.full(n, 7, key_dtype))[buffer][offsets[-1]:]).all()
        return
    values = np.arange(n).astype(value_dtype)
    values_alternate = np.full(n, 3, value_dtype)
    got, got_values = wd.segmented_radix_sort(keys, offsets, values, out=alternate,
                                              values_out=values_alternate, begin_bit=begin,
                                              end_bit=end, double_buffer=True, backend=backend)
    assert got is buffers[buffer]
    assert got_values is (values, values_alternate)[buffer]
    old_values = (np.arange(n).astype(value_dtype), np.full(n, 3, value_dtype))[buffer]
    old_keys = (original, np.full(n, 7, key_dtype))[buffer]
    want, want_values = model(original, offsets[:-1], offsets[1:], old_keys,
                              np.arange(n).astype(value_dtype), old_values, bits=(begin, end))
    check(got, want)
    check(got_values, want_values)


def test_errors():
    keys = np.arange(10, dtype=np.int32)
    offsets = np.array([0, 5, 10], np.int32)
    with pytest.raises(TypeError, match="begin offsets must be an int32 or int64 array"):
        wd.segmented_radix_sort(keys, offsets.astype(np.int16), backend="sim")
    with pytest.raises(ValueError, match="end has 1 offsets, begin 2"):
        wd.segmented_radix_sort(keys, (offsets[:2], offsets[:1]), backend="sim")
    with pytest.raises(ValueError, match="bits 3 to 3"):
        wd.segmented_radix_sort(keys, offsets, begin_bit=3, end_bit=3, backend="sim")
    with pytest.raises(ValueError, match="out has 9 elements, needs 10"):
        wd.segmented_radix_sort(keys, offsets, out=np.zeros(9, np.int32), backend="sim")
    with pytest.raises(ValueError, match="must not be the inputs"):
        wd.segmented_radix_sort(keys, offsets, out=keys, backend="sim")
    with pytest.raises(ValueError, match="values has 4 elements, keys 10"):
        wd.segmented_radix_sort(keys, offsets, np.zeros(4, np.int32), backend="sim")


# -- GPU only: many and long segments, device arrays ------------------------------------------

@requires_gpu
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.uint16])
def test_large(dtype, rng):
    """70000 segments (past the grid cap of 65536 blocks) of random lengths,
    some empty, then three segments of many tiles, pairs."""
    lengths = rng.integers(0, 120, 70000)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    n = int(offsets[-1])
    keys = sort_keys_for(dtype, n, rng)[-1]
    got = wd.segmented_radix_sort(keys, offsets)
    check(got, model(keys, offsets[:-1], offsets[1:], keys)[0])
    n = (1 << 20) + 5
    keys = sort_keys_for(dtype, n, rng)[-1]
    values = np.arange(n, dtype=np.int32)
    offsets = np.array([0, 1000, 300000, n], np.int32)
    out, values_out = wd.segmented_radix_sort(keys, offsets, values)
    want, want_values = model(keys, offsets[:-1], offsets[1:], keys, values, values)
    check(out, want)
    check(values_out, want_values)


@requires_gpu
def test_torch(rng):
    """torch arrays in place, offsets as views of one tensor."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    n = 20000
    keys = rng.integers(-1000, 1000, n).astype(np.int32)
    offsets = np.array([0, 7, 7, 5000, 19000, n], np.int64)
    t, o = torch.from_numpy(keys).cuda(), torch.from_numpy(offsets).cuda()
    out = torch.full((n,), 3, dtype=torch.int32, device="cuda")
    got = wd.segmented_radix_sort(t, (o[:-1], o[1:]), out=out, descending=True)
    torch.cuda.synchronize()
    assert got is out
    want, _ = model(keys, offsets[:-1], offsets[1:], np.full(n, 3, np.int32), descending=True)
    check(out.cpu().numpy(), want)
