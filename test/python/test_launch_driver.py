"""launch()'s whole driver path without a GPU: a stand-in libcuda.so.1
(stub/fake_libcuda.c, built here) logs every driver call, so the tests see
which context, stream, parameter words and copies a launch uses. Needs a C
compiler; kernels do not run under the stand-in."""
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from probes import package_paths

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CC = next((shutil.which(c) for c in ("cc", "gcc", "clang-22", "clang") if shutil.which(c)), None)


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    if CC is None:
        pytest.skip("needs a C compiler")
    folder = tmp_path_factory.mktemp("fake-cuda")
    subprocess.run([CC, "-shared", "-fPIC", "-o", str(folder / "libcuda.so.1"),
                    str(HERE / "stub" / "fake_libcuda.c")], check=True)
    return folder


def _run(fake_driver, code: str, params: int = 0, devices: int = 2):
    env = dict(os.environ, LD_LIBRARY_PATH=str(fake_driver),
               PYTHONPATH=os.pathsep.join(package_paths(ROOT) + [str(HERE),
                                          str(ROOT / "examples" / "python")]),
               FAKE_CUDA_PARAMS=str(params), FAKE_CUDA_DEVICES=str(devices))
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    log = [line[len("cuda: "):] for line in result.stderr.splitlines() if line.startswith("cuda: ")]
    return result.stdout, log


def test_numpy_launch_copies_in_and_out_and_syncs_the_stream(fake_driver):
    out, log = _run(fake_driver, """
        import numpy as np, warp_mlir as wm, seed_kernels
        c = wm.compile(seed_kernels.prog, cache=False)
        a = np.arange(64, dtype=np.float32)
        out = np.full(2, 7.0, np.float32)
        wm.launch(c, "warp_dot", 2, 32, a, a, out)
        print(out.tolist())
    """, params=15)
    assert out.strip() == "[7.0, 7.0]"  # copied in and back (the stand-in runs nothing)
    assert log[0] == "cuDevicePrimaryCtxRetain device=0"
    assert log.count("cuMemcpyHtoD bytes=256") == 2 and "cuMemcpyHtoD bytes=8" in log
    launch = next(i for i, line in enumerate(log) if line.startswith("cuLaunchKernel"))
    assert log[launch] == "cuLaunchKernel grid=(2,1,1) block=(32,1,1) smem=0 stream=0"
    words = [line.split(" = ")[1] for line in log[launch + 1:launch + 16]]
    # Three descriptors: allocated == aligned, offset 0, size, stride 1.
    for d, size in zip(range(3), (64, 64, 2)):
        allocated, aligned, offset, extent, stride = words[5 * d:5 * d + 5]
        assert allocated == aligned and int(offset, 16) == 0
        assert (int(extent, 16), int(stride, 16)) == (size, 1)
    assert log[launch + 16] == "cuStreamSynchronize stream=0"
    assert log[launch + 17:] == ["cuMemcpyDtoH bytes=256", "cuMemcpyDtoH bytes=256",
                                 "cuMemcpyDtoH bytes=8"]


def test_async_launch_on_a_stream_and_device(fake_driver):
    _, log = _run(fake_driver, """
        import warp_mlir as wm, seed_kernels
        from test_launch_abi import FakeDLPack, TorchStream, STATIC
        c = wm.compile(STATIC, bare_pointers=True, cache=False)
        x = FakeDLPack((64,), device=(2, 1), address=0x100000001000)
        out = FakeDLPack((2,), device=(2, 1), address=0x100000002000)
        wm.launch(c, "scaled_sums", 2, 32, x, out, 0.5, stream=TorchStream(), sync=False)
        print("queued")
        wm.synchronize(TorchStream(), device=1)
        wm.synchronize(device=1)
    """, params=2)
    # Device 1's context (from the arrays), the torch stream's handle, one
    # pointer per array, no synchronization until asked.
    assert "cuDevicePrimaryCtxRetain device=1" in log
    assert "cuDevicePrimaryCtxRetain device=0" not in log
    launch = next(i for i, line in enumerate(log) if line.startswith("cuLaunchKernel"))
    assert log[launch].endswith("stream=0x1234")
    assert log[launch + 1:launch + 3] == ["param 0 = 0x100000001000", "param 1 = 0x100000002000"]
    after = log[launch + 3:]
    assert "cuStreamSynchronize stream=0x1234" in after and "cuCtxSynchronize" in after
    assert not any(line.startswith("cuMem") for line in log)  # in place, no copies


def test_cuda_array_interface_pointers_are_checked_for_their_device(fake_driver):
    out, _ = _run(fake_driver, """
        import warp_mlir as wm, seed_kernels
        from test_launch_abi import FakeCAI
        c = wm.compile(seed_kernels.prog, cache=False)
        on1 = FakeCAI((64,), address=0x100000001000)
        try:
            wm.launch(c, "warp_dot", 2, 32, on1, on1, FakeCAI((2,), address=0x100000002000),
                      device=0)
        except wm.LaunchError as error:
            print("LaunchError:", error)
        try:
            wm.launch(c, "warp_dot", 2, 32, on1, on1, on1, device=5)
        except ValueError as error:
            print("ValueError:", error)
    """)
    assert "LaunchError: argument 0 is on CUDA device 1, the launch on device 0" in out
    assert "ValueError: device 5 does not exist: this machine has 2 CUDA device(s)" in out


def test_launch_sequence_marshals_once_and_launches_each_kernel(fake_driver):
    out, log = _run(fake_driver, """
        import warp_mlir as wm
        from test_launch_abi import FakeDLPack

        prog = wm.Program("two_kernels")

        @prog.kernel(x=wm.memref(wm.f32, (64,)), out=wm.memref(wm.f32, (2,)), scale=wm.f32)
        def first(k, x, out, scale):
            out[k.global_id() // 32] = x[k.global_id()] * scale

        @prog.kernel(x=wm.memref(wm.f32, (64,)), out=wm.memref(wm.f32, (2,)), scale=wm.f32)
        def second(k, x, out, scale):
            out[k.global_id() // 32] = x[k.global_id()] + scale

        @prog.kernel(x=wm.memref(wm.f32, (64,)), out=wm.memref(wm.f32, (2,)), scale=wm.i32)
        def other(k, x, out, scale):
            out[k.global_id() // 32] = x[k.global_id()]

        c = wm.compile(prog, bare_pointers=True, cache=False)
        x = FakeDLPack((64,), address=0x100000001000)
        out = FakeDLPack((2,), address=0x100000002000)
        wm.cuda.launch_sequence(c, [("first", 2, 32), ("second", 1, 64)], x, out, 0.5, sync=False)
        print("dlpack calls", len(x.streams), len(out.streams))
        try:
            wm.cuda.launch_sequence(c, [("first", 2, 32), ("other", 1, 64)], x, out, 0.5)
        except wm.LaunchError as error:
            print("LaunchError:", error)
    """, params=3)
    # One DLPack export per array for both kernels, and a mismatched
    # sequence refused before the driver sees it.
    assert "dlpack calls 1 1" in out
    assert "LaunchError: other does not take the parameters of first" in out
    launches = [i for i, line in enumerate(log) if line.startswith("cuLaunchKernel")]
    assert [log[i] for i in launches] == ["cuLaunchKernel grid=(2,1,1) block=(32,1,1) smem=0 stream=0",
                                          "cuLaunchKernel grid=(1,1,1) block=(64,1,1) smem=0 stream=0"]
    for i in launches:
        assert log[i + 1:i + 3] == ["param 0 = 0x100000001000", "param 1 = 0x100000002000"]
    assert not any(line.startswith(("cuStreamSynchronize", "cuMem")) for line in log)
