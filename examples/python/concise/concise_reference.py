"""The six concise kernels' definitions in numpy (float64 where it
matters): what every version, warp_mlir, Triton and CUDA, is checked
against, and the inputs the checks use (ragged sizes, ties, NaN)."""
import numpy as np


def softmax(x):
    """y[r] = exp(x[r] - max x[r]) / sum exp(x[r] - max x[r])."""
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def argmax(x):
    """The lowest column of each row's largest value; NaN counts as the
    largest (numpy's rule, torch's too)."""
    return np.argmax(x, axis=1).astype(np.int32)


def layernorm(x, w, b, eps):
    """(x - mean) / sqrt(var + eps) * w + b per row, var biased."""
    x = x.astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def block_sum(x, block):
    """The sum of each run of `block` elements (the last one ragged)."""
    blocks = -(-x.size // block)
    padded = np.zeros(blocks * block, np.float64)
    padded[:x.size] = x
    return padded.reshape(blocks, block).sum(axis=1)


def histogram(x, bins):
    """How many elements fall in each bin (x holds bin numbers)."""
    return np.bincount(x, minlength=bins).astype(np.int32)


def segment_sum(x, seg, segments):
    """out[s] = the sum of x where seg == s (0 for an empty segment)."""
    return np.bincount(seg, weights=x.astype(np.float64), minlength=segments)


def rows(count, n, seed=0, ties=False, nan=False):
    """`count` rows of `n` f32 values; with ties, small integers (so the
    largest value repeats); with nan, NaN in some rows."""
    rng = np.random.default_rng(seed)
    if ties:
        x = rng.integers(-3, 4, (count, n)).astype(np.float32)
    else:
        x = rng.standard_normal((count, n)).astype(np.float32)
    if nan and n:
        x[::3, rng.integers(0, n)] = np.nan
        if n > 1:
            x[::3, n - 1] = np.nan
    return x


def sorted_segments(n, segments, seed=0):
    """Sorted segment ids in [0, segments) for n elements, with empty
    segments among them (ids skip)."""
    rng = np.random.default_rng(seed)
    used = np.sort(rng.choice(segments, size=max(1, segments // 2), replace=False))
    return np.sort(rng.choice(used, size=n)).astype(np.int32)
