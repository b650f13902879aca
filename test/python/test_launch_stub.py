"""The launch path of the device ops without a GPU: the CUDA driver
replaced by a recorder, device arrays by numpy memory behind
__cuda_array_interface__. Each launch's kernel, grid, block and parameter
words (read back through the addresses the driver is given) are checked
against what the arrays and the op's plan say: the packing a GPU run
depends on, checked on any machine."""
import ctypes

import numpy as np
import pytest

import warp_mlir.cuda as cuda
import warp_mlir.device as wd


class DeviceArray:
    """A 1-D device array as the CUDA array interface describes one."""

    def __init__(self, array):
        self.array = array
        self.dtype, self.shape = array.dtype, array.shape

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "strides": None,
                "data": (self.array.ctypes.data, False), "version": 3}


class Recorder:
    """cuda._Driver's interface: records each cuLaunchKernel (called with
    ints, as its typed prototype takes them) with its parameter words read
    back (as 64-bit words; 4-byte scalars as their low half), and succeeds
    at everything else."""

    def __init__(self):
        self.launches = []
        recorder = self

        class Lib:
            def cuLaunchKernel(self, function, gx, gy, gz, bx, by, bz, shared, stream, params,
                               extra):
                recorder.launches.append({
                    "function": function.value, "grid": (gx, gy, gz),
                    "block": (bx, by, bz), "shared": shared,
                    "words": [ctypes.c_uint64.from_address(params[i]).value
                              for i in range(len(params))]})
                return 0

            def __getattr__(self, name):
                return lambda *args: 0

        self.lib = Lib()
        self.functions = {}

    def use(self, device):
        return self

    def check(self, result, call):
        assert result == 0, call

    def pointer_device(self, pointer):
        return 0

    def function(self, compiled, name, device):
        return self.functions.setdefault(name, ctypes.c_void_p(len(self.functions) + 1))


@pytest.fixture
def recorder(monkeypatch):
    driver = Recorder()
    monkeypatch.setattr(cuda, "driver", lambda device=0: driver)
    # The scratch comes from the input's library: numpy memory behind the
    # same stand-in.
    monkeypatch.setattr(wd, "_empty", lambda like, n, dtype: DeviceArray(np.zeros(n, dtype)))
    return driver


def descriptor(array):
    """A 1-D memref's five parameter words: allocated and aligned pointers,
    offset 0, size, stride 1."""
    address = array.array.ctypes.data
    return [address, address, 0, array.shape[0], 1]


@pytest.mark.parametrize("n", [1, 1000, 3 * 4096 + 5])
def test_reduce_launches(recorder, n):
    """A reduce's kernels in the plan's order, one 256-thread block per
    tile of the first (at most the cap), each given (x, out, scratch, n) as
    descriptors and the element count."""
    x, out = DeviceArray(np.arange(n, dtype=np.int32)), DeviceArray(np.zeros(1, np.int32))
    plan = wd._plan("reduce", "add", "i32", False, "sm_90")
    wd.reduce(x, out=out)
    want = plan.launches(n, [x, out])
    assert [launch["grid"] for launch in recorder.launches] == [(g, 1, 1) for _, g, _ in want]
    assert [launch["block"] for launch in recorder.launches] == [(t, 1, 1) for _, _, t in want]
    assert all(launch["shared"] == 0 for launch in recorder.launches)
    # One function per kernel, in the plan's order.
    names = {v.value: k for k, v in recorder.functions.items()}
    assert [names[launch["function"]] for launch in recorder.launches] == [k for k, _, _ in want]
    for launch in recorder.launches:
        words = launch["words"]
        assert words[:5] == descriptor(x)
        assert words[5:10] == descriptor(out)
        assert words[12:14] == [0, plan.scratch_bytes(n)]  # the scratch's offset and size
        assert words[10] == words[11] and words[14] == 1
        assert words[15] == n


def test_radix_sort_launches(recorder):
    """A radix sort of int32 keys, onesweep's: one block clears the digit
    totals and one scans them, the histogram and each of the 4 passes'
    kernels take a block per 8192-key tile (256 threads x 128 bytes of
    keys alone: onesweep ranks 4-byte keys' tiles)."""
    n = 17000
    keys, out = DeviceArray(np.arange(n, dtype=np.int32)), DeviceArray(np.zeros(n, np.int32))
    wd.radix_sort(keys, out=out)
    names = {v.value: k for k, v in recorder.functions.items()}
    got = [(names[launch["function"]], launch["grid"][0]) for launch in recorder.launches]
    tiles = -(-n // 8192)
    assert got == [("radix_init", 1), ("radix_histogram", tiles), ("radix_digit_starts", 1)] + \
        [(f"radix_onesweep_{p}", tiles) for p in range(4)]
    for launch in recorder.launches:
        assert launch["words"][:5] == descriptor(keys)
        assert launch["words"][5:10] == descriptor(out)
        assert launch["words"][-1] == n
