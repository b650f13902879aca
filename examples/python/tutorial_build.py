"""Tutorial, Python part 1 (docs/Tutorial.md): build a kernel with the
warp_mlir builder, compile it, read its IR and PTX, launch it.

    python3 examples/python/tutorial_build.py

prints the kernel's MLIR (every op located at the line of this file that
made it), its signature and the shuffles of its PTX; then launches it on
torch or cupy arrays (numpy arrays without either) where a CUDA GPU is, else
(wm.CudaError: no driver, or no device) on the SIMT simulator with a smaller
array, and checks the result against numpy.
"""
import numpy as np

import warp_mlir as wm

GROUP = 8      # lanes summed together
BLOCK = 256    # threads per block

prog = wm.Program("tutorial")


@prog.kernel(x=wm.memref(wm.f32), out=wm.memref(wm.f32))
def group_sums(k, x, out):
    """out[g] = x[8g] + ... + x[8g + 7]; one thread per element of x."""
    i = k.global_id()
    total = k.reduce("add", x[i], cluster_size=GROUP, lanes="first")
    with k.if_(k.lane_id() % GROUP == 0):
        out[i // GROUP] = total


def compile_kernels(chip: str = "sm_90") -> wm.CompiledModule:
    return wm.compile(prog, chip=chip)


def shuffles(ptx: str) -> list:
    """The shuffle instructions of a PTX text, one per line."""
    return [line.strip() for line in ptx.splitlines() if "shfl.sync" in line]


def expected(x: np.ndarray) -> np.ndarray:
    """The result numpy computes (sums of float32 in another order: compare
    with a tolerance)."""
    return x.reshape(-1, GROUP).sum(axis=1, dtype=np.float32)


def launch(compiled: wm.CompiledModule, x: np.ndarray) -> np.ndarray:
    """Runs group_sums on the GPU over x (its size a multiple of BLOCK) and
    returns out as a numpy array."""
    grid = len(x) // BLOCK
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.cuda.is_available():
        x_dev = torch.from_numpy(x).cuda()
        out = torch.empty(len(x) // GROUP, dtype=torch.float32, device="cuda")
        wm.launch(compiled, "group_sums", grid, BLOCK, x_dev, out)
        return out.cpu().numpy()
    try:
        import cupy
    except ImportError:
        cupy = None
    if cupy is not None and cupy.cuda.is_available():
        out = cupy.empty(len(x) // GROUP, dtype=cupy.float32)
        wm.launch(compiled, "group_sums", grid, BLOCK, cupy.asarray(x), out)
        return cupy.asnumpy(out)
    # numpy arrays are copied to the device before and back after the launch.
    out = np.empty(len(x) // GROUP, dtype=np.float32)
    wm.launch(compiled, "group_sums", grid, BLOCK, x, out)
    return out


def main(n: int = 1 << 20) -> None:
    print(prog)                                    # the MLIR the builder wrote
    compiled = compile_kernels("sm_90")
    print("signature:", compiled.kernels["group_sums"])
    print("shuffles in the PTX:", *shuffles(compiled.ptx), sep="\n  ")
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    try:
        out = launch(compiled, x)
    except wm.CudaError as error:
        print(f"no GPU here ({error}): on the simulator instead")
        x = x[:min(n, 1 << 12)]
        out = np.empty(len(x) // GROUP, dtype=np.float32)
        wm.launch(compiled, "group_sums", len(x) // BLOCK, BLOCK, x, out, backend="sim")
    np.testing.assert_allclose(out, expected(x), rtol=1e-5, atol=1e-5)
    print(f"group_sums over {len(x)} floats: matches numpy")


if __name__ == "__main__":
    main()
