"""launch()'s arguments without a GPU: DLPack and __cuda_array_interface__
marshalling (with stand-in array objects), streams and devices, the
bare-pointer kernel ABI, and the on-disk compile cache. The GPU versions of
these checks are at the end (skipped without a GPU)."""
import ctypes
import os
import sys

import numpy as np
import pytest

import seed_kernels
import warp_mlir as wm
from conftest import requires_gpu
from warp_mlir import _cache, cuda
from warp_mlir.cuda import ArrayArgument, marshal_arguments, pack_parameters


# -- stand-in arrays -------------------------------------------------------------

class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", cuda.DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
_DLTENSOR = ctypes.create_string_buffer(b"dltensor")

# (DLPack type code, bits) of numpy-style names.
_DL = {"f32": (2, 32), "f64": (2, 64), "i32": (0, 32), "u32": (1, 32), "bf16": (4, 16),
       "bool": (6, 8)}


class FakeDLPack:
    """An array that exports itself only through DLPack, like a JAX or torch
    array: a legacy 'dltensor' capsule describing `address` (not
    dereferenced by launch's checks)."""

    def __init__(self, shape, dtype="f32", device=(cuda.DL_CUDA, 0), address=0x10000,
                 strides=None, byte_offset=0):
        self.device = device
        self._shape = (ctypes.c_int64 * len(shape))(*shape)
        self._strides = None if strides is None else (ctypes.c_int64 * len(strides))(*strides)
        self.managed = _DLManagedTensor()
        tensor = self.managed.dl_tensor
        tensor.data = address
        tensor.device.device_type, tensor.device.device_id = device
        tensor.ndim = len(shape)
        tensor.dtype.code, tensor.dtype.bits = _DL[dtype]
        tensor.dtype.lanes = 1
        tensor.shape = ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64))
        if self._strides is not None:
            tensor.strides = ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64))
        tensor.byte_offset = byte_offset
        self.streams = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _capsule_new(ctypes.addressof(self.managed), ctypes.addressof(_DLTENSOR), None)


class FakeCAI:
    """A device array through __cuda_array_interface__ only, like numba's."""

    def __init__(self, shape, typestr="<f4", address=0x20000, strides=None, readonly=False):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr,
                                         "data": (address, readonly), "strides": strides,
                                         "version": 3}


@pytest.fixture(scope="module")
def compiled():
    return wm.compile(seed_kernels.prog, chip="sm_90")


# -- DLPack and the CUDA array interface ------------------------------------------

def test_dlpack_device_arrays_are_used_in_place(compiled):
    a = FakeDLPack((64,), address=0x1000)
    b = FakeDLPack((64,), address=0x2000, byte_offset=16)
    out = FakeDLPack((2,), address=0x3000, device=(cuda.DL_CUDA_MANAGED, 0))
    args = marshal_arguments(compiled, "warp_dot", [a, b, out])
    assert [x.pointer for x in args] == [0x1000, 0x2010, 0x3000]
    assert [x.shape for x in args] == [(64,), (64,), (2,)]
    assert all(x.source == "dlpack" and x.host is None and x.device == 0 for x in args)
    # The consumer's stream goes to the producer: DLPack spells CUDA's legacy
    # default stream 1.
    assert a.streams == [1]
    marshal_arguments(compiled, "warp_dot", [a, b, out], stream=0xABC)
    assert a.streams[-1] == 0xABC


def test_tensor_map_reads_dlpack_arrays():
    """tensor_map's view of a DLPack device array (torch's way; the
    fields read once from the DLTensor, as launch reads them): its
    address past byte_offset, shape, type and device, and the checks a
    map's array must pass, before the driver is asked."""
    address, shape, code, device, owner = cuda._device_matrix(
        FakeDLPack((8, 64), "bf16", device=(cuda.DL_CUDA, 3), address=0x40000,
                   byte_offset=256))
    assert (address, shape, code, device) == (0x40100, (8, 64), "V2", 3)
    with pytest.raises(ValueError, match="contiguous"):
        cuda._device_matrix(FakeDLPack((8, 64), strides=(1, 8)))
    with pytest.raises(ValueError, match="float16, bfloat16 or float32"):
        wm.cuda.tensor_map(FakeDLPack((8, 64), "i32"), (8, 64))


def test_tensor_map_reads_torch_tensors_from_their_attributes(monkeypatch):
    """A CUDA torch tensor's address, shape, type and device come from its
    own attributes (data_ptr, ...), not DLPack, whose stream handshake a
    map (an address, no data read) does not need: a stand-in torch module
    whose tensors refuse __dlpack__."""
    import types

    class Dtype:
        def __init__(self, name):
            self.name = name

        def __str__(self):
            return "torch." + self.name

    class Tensor:
        is_cuda = True

        def __init__(self, shape, dtype, contiguous=True):
            self.shape, self.dtype, self.contiguous = shape, Dtype(dtype), contiguous

        def data_ptr(self):
            return 0x50200

        def get_device(self):
            return 2

        def is_contiguous(self):
            return self.contiguous

        def __dlpack__(self, stream=None):
            raise AssertionError("read through DLPack")

    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(Tensor=Tensor))
    address, shape, code, device, owner = cuda._device_matrix(Tensor((16, 64), "bfloat16"))
    assert (address, shape, code, device) == (0x50200, (16, 64), "V2", 2)
    assert cuda._device_matrix(Tensor((4, 8), "float16"))[2] == "f2"
    with pytest.raises(ValueError, match="contiguous"):
        cuda._device_matrix(Tensor((16, 64), "float16", contiguous=False))


def test_dlpack_checks_dtype_layout_and_device(compiled):
    good = FakeDLPack((64,))
    with pytest.raises(wm.LaunchError, match="argument 1: dtype float64 does not match"):
        marshal_arguments(compiled, "warp_dot", [good, FakeDLPack((64,), "f64"), good])
    with pytest.raises(wm.LaunchError, match="dtype uint32"):
        marshal_arguments(compiled, "compact_positive",
                          [good, good, FakeDLPack((1,), "u32")])
    with pytest.raises(wm.LaunchError, match="contiguous"):
        marshal_arguments(compiled, "warp_dot", [good, FakeDLPack((64,), strides=(2,)), good])
    with pytest.raises(wm.LaunchError, match="rank 2"):
        marshal_arguments(compiled, "warp_dot", [good, FakeDLPack((8, 8)), good])
    with pytest.raises(wm.LaunchError, match="opencl device"):
        marshal_arguments(compiled, "warp_dot", [good, FakeDLPack((64,), device=(4, 0)), good])
    # Row-major strides, and any stride for a size-1 dimension, are fine.
    row_major = FakeDLPack((64,), strides=(1,))
    assert marshal_arguments(compiled, "warp_dot", [good, row_major, good])[1].pointer == 0x10000


def test_dlpack_cpu_arrays_are_copied(compiled):
    host = FakeDLPack((64,), device=(cuda.DL_CPU, 0), address=0x5000)
    pinned = FakeDLPack((64,), device=(cuda.DL_CUDA_HOST, 0), address=0x6000)
    arguments = marshal_arguments(compiled, "warp_dot", [host, pinned, host], stream=0x77)
    assert arguments[0].pointer is None and arguments[0].host == (0x5000, 256)
    assert arguments[1].host == (0x6000, 256)
    # No stream for host memory (torch refuses one for CPU tensors).
    assert host.streams == [None, None] and pinned.streams == [None]


def test_launch_refuses_arrays_on_another_device_before_the_gpu(compiled):
    on1 = FakeDLPack((64,), device=(cuda.DL_CUDA, 1))
    on0 = FakeDLPack((64,), device=(cuda.DL_CUDA, 0))
    with pytest.raises(wm.LaunchError, match="argument 0 is on CUDA device 1, the launch on "
                                             "device 0"):
        wm.launch(compiled, "warp_dot", 2, 32, on1, on1, on1, device=0)
    with pytest.raises(wm.LaunchError, match="argument 1 is on CUDA device 0, the launch on "
                                             "device 1"):
        wm.launch(compiled, "warp_dot", 2, 32, on1, on0, on1)  # device from argument 0


def test_cuda_array_interface(compiled):
    a = FakeCAI((64,), address=0x7000)
    args = marshal_arguments(compiled, "warp_dot", [a, FakeCAI((64,), readonly=True), a])
    assert args[0].pointer == 0x7000 and args[0].source == "cuda_array_interface"
    assert not args[1].writable
    with pytest.raises(wm.LaunchError, match="contiguous"):
        marshal_arguments(compiled, "warp_dot", [a, FakeCAI((64,), strides=(8,)), a])
    with pytest.raises(wm.LaunchError, match="dtype float64"):
        marshal_arguments(compiled, "warp_dot", [a, FakeCAI((64,), "<f8"), a])


def test_numpy_arrays_need_sync(compiled):
    x = np.zeros(64, np.float32)
    with pytest.raises(ValueError, match="sync=False needs device arrays"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, np.zeros(2, np.float32), sync=False)
    readonly = np.zeros(64, np.float32)
    readonly.flags.writeable = False
    argument = marshal_arguments(compiled, "warp_dot", [readonly, x, x])[0]
    assert argument.host[1] == 256 and not argument.writable


def test_descriptor_packing():
    params = [wm.ArgType("f32", (-1, 4)), wm.ArgType("i32")]
    array = ArrayArgument(0, (3, 4), pointer=0xBEEF)
    words = pack_parameters(params, [array, ctypes.c_int32(7)])
    values = [w.value for w in words]
    # allocated, aligned, offset, sizes, row-major strides, then the scalar
    assert values == [0xBEEF, 0xBEEF, 0, 3, 4, 4, 1, 7]
    assert [type(w) for w in words[:3]] == [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]


def test_bare_pointer_packing():
    params = [wm.ArgType("f32", (64,)), wm.ArgType("i32"), wm.ArgType("f32", (2, 4))]
    words = pack_parameters(params, [ArrayArgument(0, (64,), pointer=0x100), ctypes.c_int32(3),
                                     ArrayArgument(2, (2, 4), pointer=0x200)], bare_pointers=True)
    assert [w.value for w in words] == [0x100, 3, 0x200]
    assert isinstance(words[0], ctypes.c_void_p) and isinstance(words[2], ctypes.c_void_p)


def test_dltensor_fields_cover_the_struct():
    """The DLTensor fields launch reads at once span dlpack.h's layout."""
    assert cuda._DLTENSOR_FIELDS.size == ctypes.sizeof(cuda.DLTensor)


@pytest.mark.parametrize("bare", [False, True])
def test_launch_words_match_pack_parameters(bare):
    """The parameter buffer a launch hands cuLaunchKernel holds, behind
    each of its pointers, the bytes of pack_parameters' word: every scalar
    type between memrefs of rank 1 and 2."""
    scalars = [("i1", True), ("i8", -5), ("i16", -300), ("i32", -70000), ("i64", -(1 << 40)),
               ("index", 1 << 33), ("f32", 1.5), ("f64", -2.25)]
    params, arguments = [wm.ArgType("f32", (2, 3) if bare else (-1, 3))], \
        [ArrayArgument(0, (2, 3), pointer=0xBEEF00)]
    for element, value in scalars:
        params.append(wm.ArgType(element))
        arguments.append(cuda._SCALARS[element](value))
        params.append(wm.ArgType("i8", (7,)))
        arguments.append(ArrayArgument(len(arguments), (7,), pointer=0x1000 + len(arguments)))
    words = pack_parameters(params, arguments, bare_pointers=bare)
    signature = cuda._Signature(params, bare)  # owns the buffer the pointers point into
    pointers = signature.pack(arguments)
    assert len(pointers) == len(words)
    for pointer, word in zip(pointers, words):
        assert ctypes.string_at(pointer, ctypes.sizeof(word)) == bytes(word)
    # The buffer is reused by the next call on this thread, with new words.
    arguments[0] = ArrayArgument(0, (2, 3), pointer=0xCAFE00)
    assert list(signature.pack(arguments)) == list(pointers)
    assert ctypes.c_uint64.from_address(pointers[0]).value == 0xCAFE00


# -- streams and devices ---------------------------------------------------------

class TorchStream:
    cuda_stream = 0x1234


class CupyStream:
    ptr = 0x5678


class NumbaStream:
    handle = ctypes.c_void_p(0x9ABC)


class CudaCoreStream:
    def __cuda_stream__(self):
        return (0, 0xDEF0)


@pytest.mark.parametrize("stream, handle", [
    (None, 0), (0, 0), (0x42, 0x42), (TorchStream(), 0x1234), (CupyStream(), 0x5678),
    (NumbaStream(), 0x9ABC), (CudaCoreStream(), 0xDEF0), (np.uint64(7), 7),
])
def test_stream_handles(stream, handle):
    assert cuda.stream_handle(stream) == handle


@pytest.mark.parametrize("stream, error", [
    (True, TypeError), (-1, ValueError), (1.5, TypeError), ("default", TypeError),
    (2 ** 64, ValueError),
])
def test_bad_streams(stream, error, compiled):
    with pytest.raises(error):
        cuda.stream_handle(stream)
    x = np.zeros(64, np.float32)
    with pytest.raises(error):  # before any GPU work
        wm.launch(compiled, "warp_dot", 2, 32, x, x, np.zeros(2, np.float32), stream=stream)


class TorchDevice:
    def __init__(self, type, index):
        self.type, self.index = type, index


class CupyDevice:
    id = 3


@pytest.mark.parametrize("device, ordinal", [
    (None, None), (0, 0), (2, 2), ("cuda", None), ("cuda:1", 1), (TorchDevice("cuda", 1), 1),
    (TorchDevice("cuda", None), None), (CupyDevice(), 3), (np.int64(1), 1),
])
def test_device_ordinals(device, ordinal):
    assert cuda.device_ordinal(device) == ordinal


@pytest.mark.parametrize("device, error", [
    (-1, ValueError), (True, TypeError), ("cpu", ValueError), (TorchDevice("cpu", None),
                                                               ValueError), (1.0, TypeError),
])
def test_bad_devices(device, error):
    with pytest.raises(error):
        cuda.device_ordinal(device)


def test_sync_must_be_a_bool(compiled):
    x = FakeDLPack((64,))
    with pytest.raises(TypeError, match="sync must be a bool"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, FakeDLPack((2,)), sync=1)


# -- the bare-pointer ABI ----------------------------------------------------------

STATIC = wm.Program("static_shapes")


@STATIC.kernel(x=wm.memref(wm.f32, (64,)), out=wm.memref(wm.f32, (2,)), scale=wm.f32)
def scaled_sums(k, x, out, scale):
    i = k.global_id()
    s = k.reduce("add", x[i], lanes="first")
    with k.if_(k.lane_id() == 0):
        out[i // 32] = s * scale


def _entry_params(ptx: str, name: str):
    head = ptx.split(f".entry {name}(", 1)[1].split(")", 1)[0]
    return [line.strip() for line in head.splitlines() if ".param" in line]


def test_bare_pointers_compile_to_one_pointer_per_memref(ptxas, tmp_path):
    bare = wm.compile(STATIC, bare_pointers=True)
    assert bare.bare_pointers
    params = _entry_params(bare.ptx, "scaled_sums")
    assert len(params) == 3 and all(".ptr" in p for p in params[:2]) and ".f32" in params[2]
    descriptor = wm.compile(STATIC)
    # A rank-1 memref descriptor: allocated, aligned, offset, size, stride.
    assert len(_entry_params(descriptor.ptx, "scaled_sums")) == 2 * 5 + 1
    path = tmp_path / "bare.ptx"
    path.write_text(bare.ptx)
    import subprocess
    subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "bare.o")], check=True)


def test_bare_pointers_need_static_shapes():
    with pytest.raises(ValueError, match=r"kernel 'warp_dot' parameter 0 \(memref<\?xf32>\) "
                                         r"needs a static shape"):
        wm.compile(seed_kernels.prog, bare_pointers=True)
    with pytest.raises(TypeError, match="bare_pointers must be a bool"):
        wm.compile(STATIC, bare_pointers="yes")


def test_bare_pointer_option_string():
    assert wm.compiler.pipeline_options(bare_pointers=True).endswith(" bare-ptr-memref=true")
    assert "bare-ptr" not in wm.compiler.pipeline_options()


# -- 32-bit index arithmetic in kernels --------------------------------------------

def test_device_index_bitwidth_32_keeps_the_kernel_parameters(ptxas, tmp_path):
    narrow = wm.compile(seed_kernels.prog, device_index_bitwidth=32, cache=False)
    wide = wm.compile(seed_kernels.prog, cache=False)
    for name in narrow.kernels:
        # The same parameters as the 64-bit lowering: launch is unchanged.
        assert _entry_params(narrow.ptx, name) == _entry_params(wide.ptx, name)
    assert narrow.kernels == wide.kernels
    # The index arithmetic is 32-bit: addresses are formed with mul.wide
    # from 32-bit values instead of 64-bit multiplies.
    assert "mul.wide.s32" in narrow.ptx or "mul.wide.u32" in narrow.ptx
    assert "mul.lo.s64" not in narrow.ptx
    path = tmp_path / "narrow.ptx"
    path.write_text(narrow.ptx)
    import subprocess
    subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "narrow.o")], check=True)


def test_device_index_bitwidth_option_string():
    assert wm.compiler.pipeline_options(device_index_bitwidth=32).endswith(
        " device-index-bitwidth=32")
    assert "device-index" not in wm.compiler.pipeline_options(device_index_bitwidth=64)
    for bad in (16, 0, "32", 32.0, True):
        with pytest.raises(ValueError, match="device_index_bitwidth"):
            wm.compiler.pipeline_options(device_index_bitwidth=bad)


# -- the compile cache ---------------------------------------------------------------

@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("WARP_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("WARP_MLIR_CACHE", raising=False)
    return tmp_path / "cache"


def _entries(folder):
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) \
        if folder.exists() else []


def test_cache_hits_and_misses(cache_dir):
    first = wm.compile(STATIC)
    assert not first.from_cache and len(_entries(cache_dir)) == 1
    again = wm.compile(STATIC)
    assert again.from_cache and again.binary == first.binary
    assert again.kernels == first.kernels and again.format == "ptx" and again.chip == "sm_90"
    # Every option is part of the key: each change is a miss and a new entry.
    variants = [dict(chip="sm_80"), dict(opt_level=2), dict(strategy="tree"),
                dict(bare_pointers=True), dict(format="cubin")]
    for options in variants:
        try:
            result = wm.compile(STATIC, **options)
        except wm.MLIRError:  # cubin without ptxas
            continue
        assert not result.from_cache, options
        assert wm.compile(STATIC, **options).from_cache, options
    # The IR text is part of the key.
    other = wm.Program("static_shapes_2")
    other.kernels.update(STATIC.kernels)
    assert not wm.compile(other).from_cache


def test_cache_can_be_turned_off(cache_dir, monkeypatch):
    wm.compile(STATIC, cache=False)
    assert _entries(cache_dir) == []
    monkeypatch.setenv("WARP_MLIR_CACHE", "0")
    wm.compile(STATIC)
    assert _entries(cache_dir) == [] and not wm.compile(STATIC).from_cache
    # cache=True wins over the environment.
    wm.compile(STATIC, cache=True)
    assert wm.compile(STATIC, cache=True).from_cache
    with pytest.raises(TypeError, match="cache must be a bool"):
        wm.compile(STATIC, cache="yes")


def test_cache_keys_on_the_compiler_version():
    base = _cache.key("text", "opts", "0.1.0", "lib")
    assert _cache.key("text", "opts", "0.1.1", "lib") != base
    assert _cache.key("text", "opts", "0.1.0", "lib2") != base
    assert _cache.key("text", "opts2", "0.1.0", "lib") != base
    assert _cache.key("text2", "opts", "0.1.0", "lib") != base
    # Parts cannot run into each other.
    assert _cache.key("ab", "c", "v", "l") != _cache.key("a", "bc", "v", "l")


def test_broken_entries_are_misses_and_writes_are_atomic(cache_dir):
    wm.compile(STATIC)
    (entry,) = _entries(cache_dir)
    (cache_dir / entry).write_bytes(b"not an entry")
    result = wm.compile(STATIC)
    assert not result.from_cache  # recompiled, and the entry rewritten
    assert wm.compile(STATIC).from_cache
    assert not [p for p in cache_dir.iterdir() if p.name.startswith(".tmp-")]


def test_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("WARP_MLIR_CACHE_DIR", str(blocker / "cache"))  # cannot be created
    assert not wm.compile(STATIC).from_cache


def test_default_cache_directory(monkeypatch):
    monkeypatch.delenv("WARP_MLIR_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/x/cache")
    assert str(_cache.directory()) == "/x/cache/warp_mlir"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert str(_cache.directory()) == os.path.join(os.path.expanduser("~"), ".cache",
                                                   "warp_mlir")


# -- on the GPU ---------------------------------------------------------------------

@requires_gpu
def test_bare_pointers_on_the_gpu():
    compiled = wm.compile(STATIC, bare_pointers=True)
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(2, np.float32)
    wm.launch(compiled, "scaled_sums", 2, 32, x, out, 0.5)
    np.testing.assert_array_equal(out, [0.5 * sum(range(32)), 0.5 * sum(range(32, 64))])


@requires_gpu
def test_torch_stream_async_and_dlpack():
    torch = pytest.importorskip("torch")
    compiled = wm.compile(seed_kernels.prog, chip="sm_90")
    a = torch.arange(1024, device="cuda", dtype=torch.float32)
    b = torch.ones(1024, device="cuda")
    out = torch.zeros(32, device="cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    wm.launch(compiled, "warp_dot", 4, 256, a, b, out, stream=stream, sync=False,
              device=a.device)
    wm.synchronize(stream)
    want = torch.arange(1024, dtype=torch.float64).reshape(32, 32).sum(dim=1)
    torch.testing.assert_close(out.double().cpu(), want)


def _counting_dlpack_reads(monkeypatch):
    """The arguments launch reads through DLPack from now on (a list)."""
    reads = []
    through_dlpack = cuda._from_dlpack

    def counting(position, array, param, stream):
        reads.append(position)
        return through_dlpack(position, array, param, stream)
    monkeypatch.setattr(cuda, "_from_dlpack", counting)
    return reads


@requires_gpu
def test_torch_tensors_on_the_launch_stream_skip_dlpack(monkeypatch):
    """Where torch's current stream is the launch's, a tensor is read from
    its attributes (DLPack's handshake would do nothing); the result is
    the same."""
    torch = pytest.importorskip("torch")
    compiled = wm.compile(seed_kernels.prog, chip="sm_90")
    reads = _counting_dlpack_reads(monkeypatch)
    a = torch.arange(1024, device="cuda", dtype=torch.float32)
    b = torch.full((1024,), 2.0, device="cuda")
    out = torch.zeros(32, device="cuda")
    wm.launch(compiled, "warp_dot", 4, 256, a, b, out, sync=False)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        wm.launch(compiled, "warp_dot", 4, 256, a, b, out, stream=stream, sync=False)
    torch.cuda.synchronize()
    assert reads == []
    want = 2 * torch.arange(1024, dtype=torch.float64).reshape(32, 32).sum(dim=1)
    torch.testing.assert_close(out.double().cpu(), want)


@requires_gpu
def test_torch_tensors_written_on_another_stream_are_ordered(monkeypatch):
    """A tensor torch writes on its current side stream, read by a launch
    on the default stream, goes through DLPack, whose handshake makes the
    launch wait for the write (a long sleep queued before it)."""
    torch = pytest.importorskip("torch")
    compiled = wm.compile(seed_kernels.prog, chip="sm_90")
    reads = _counting_dlpack_reads(monkeypatch)
    a = torch.zeros(1024, device="cuda")
    b = torch.ones(1024, device="cuda")
    out = torch.zeros(32, device="cuda")
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.cuda._sleep(200_000_000)  # about 0.1 s of GPU cycles
        a.fill_(3.0)
        wm.launch(compiled, "warp_dot", 4, 256, a, b, out, sync=False)  # the default stream
    torch.cuda.synchronize()
    assert sorted(reads) == [0, 1, 2]
    torch.testing.assert_close(out.cpu(), torch.full((32,), 96.0))


@requires_gpu
def test_cupy_arrays_on_the_launch_stream_skip_dlpack(monkeypatch):
    """A cupy array is read from its attributes where cupy's current stream
    is the launch's, through DLPack where not; a launch on the default
    stream waits for cupy's write on its current side stream (queued
    behind a spinning kernel)."""
    cp = pytest.importorskip("cupy")
    compiled = wm.compile(seed_kernels.prog, chip="sm_90")
    reads = _counting_dlpack_reads(monkeypatch)
    a = cp.arange(1024, dtype=cp.float32)
    b = cp.full(1024, 2.0, dtype=cp.float32)
    out = cp.zeros(32, dtype=cp.float32)
    wm.launch(compiled, "warp_dot", 4, 256, a, b, out, sync=False)
    cp.cuda.Device().synchronize()
    assert reads == []
    want = 2 * np.arange(1024, dtype=np.float64).reshape(32, 32).sum(axis=1)
    np.testing.assert_array_equal(cp.asnumpy(out), want)
    spin = cp.RawKernel(r"""extern "C" __global__ void spin(long long cycles) {
        long long start = clock64(); while (clock64() - start < cycles) {} }""", "spin")
    side = cp.cuda.Stream(non_blocking=True)
    with side:
        spin((1,), (1,), (cp.int64(200_000_000),))
        a.fill(3.0)
        wm.launch(compiled, "warp_dot", 4, 256, a, b, out, sync=False)  # the default stream
    cp.cuda.Device().synchronize()
    assert sorted(reads) == [0, 1, 2]
    np.testing.assert_array_equal(cp.asnumpy(out), np.full(32, 192.0))


@requires_gpu
def test_cupy_arrays_and_stream():
    cp = pytest.importorskip("cupy")
    compiled = wm.compile(seed_kernels.prog, chip="sm_90")
    a = cp.arange(1024, dtype=cp.float32)
    b = cp.full(1024, 2.0, dtype=cp.float32)
    out = cp.zeros(32, dtype=cp.float32)
    stream = cp.cuda.Stream(non_blocking=True)
    wm.launch(compiled, "warp_dot", 4, 256, a, b, out, stream=stream, sync=False)
    stream.synchronize()
    want = 2 * np.arange(1024, dtype=np.float64).reshape(32, 32).sum(axis=1)
    np.testing.assert_array_equal(cp.asnumpy(out), want)


@requires_gpu
def test_numba_cuda_array_interface():
    numba_cuda = pytest.importorskip("numba.cuda")
    compiled = wm.compile(seed_kernels.prog, chip="sm_90")
    a = numba_cuda.to_device(np.ones(1024, np.float32))
    out = numba_cuda.to_device(np.zeros(32, np.float32))
    wm.launch(compiled, "warp_dot", 4, 256, a, a, out)
    np.testing.assert_array_equal(out.copy_to_host(), np.full(32, 32.0))


@requires_gpu
def test_synchronize_reports_kernel_results_on_the_default_stream():
    compiled = wm.compile(STATIC, bare_pointers=True)
    cp = pytest.importorskip("cupy")
    x = cp.arange(64, dtype=cp.float32)
    out = cp.zeros(2, dtype=cp.float32)
    wm.launch(compiled, "scaled_sums", 2, 32, x, out, 2.0, sync=False, device=0)
    wm.synchronize(device=0)
    np.testing.assert_array_equal(cp.asnumpy(out), [2.0 * 496, 2.0 * 1520])


@requires_gpu
def test_torch_cpu_tensors_are_copied_in_and_out():
    torch = pytest.importorskip("torch")
    compiled = wm.compile(STATIC)
    x = torch.arange(64, dtype=torch.float32)
    out = torch.zeros(2)
    wm.launch(compiled, "scaled_sums", 2, 32, x, out, 1.0)
    assert out.tolist() == [496.0, 1520.0]


@requires_gpu
def test_jax_arrays_through_dlpack():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX without a GPU backend")
    compiled = wm.compile(STATIC)
    x = jnp.arange(64, dtype=jnp.float32)  # read in place (JAX arrays are immutable:
    out = np.zeros(2, np.float32)          # the result goes to a numpy array)
    wm.launch(compiled, "scaled_sums", 2, 32, x, out, 1.0)
    assert out.tolist() == [496.0, 1520.0]
