"""Ballot compaction: keep the positive elements of an array.

Uses the seed kernel `compact_positive` (examples/python/seed_kernels.py):
warp.compact gives each lane its slot, one atomic per warp reserves space.
Run: python3 examples/python/ballot_compaction.py (on the GPU, or on the
SIMT simulator with a smaller array where there is none)
"""
import numpy as np

import warp_mlir as wm
from seed_kernels import prog


def main(n: int = 1 << 20) -> None:
    backend = "cuda" if wm.cuda.is_available() else "sim"
    if backend == "sim":
        n = min(n, 1 << 13)  # the simulator runs about a million lane instructions a second
    compiled = wm.compile(prog, chip="sm_90")
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    out, counter = np.zeros(n, np.float32), np.zeros(1, np.int32)
    wm.launch(compiled, "compact_positive", n // 256, 256, x, out, counter, backend=backend)
    kept = x[x > 0]
    assert counter[0] == kept.size
    assert np.array_equal(np.sort(out[:kept.size]), np.sort(kept))
    print(f"kept {counter[0]} of {n} elements, same multiset as numpy ({backend})")


if __name__ == "__main__":
    main()
