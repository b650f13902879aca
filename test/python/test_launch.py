"""launch(): argument checking (everywhere) and results on the GPU."""
import numpy as np
import pytest

import seed_kernels
import warp_mlir as wm
from conftest import BACKENDS, HAS_GPU, requires_gpu, requires_sim


@pytest.fixture(scope="module")
def compiled():
    return wm.compile(seed_kernels.prog, chip="sm_90")


def test_wrong_kernel_arity_dtype_shape(compiled):
    x = np.zeros(64, np.float32)
    with pytest.raises(wm.LaunchError, match="no kernel named 'nope'"):
        wm.launch(compiled, "nope", 1, 32)
    with pytest.raises(wm.LaunchError, match="takes 3 arguments"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x)
    with pytest.raises(wm.LaunchError, match="dtype float64 does not match memref<\\?xf32>"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x.astype(np.float64), x)
    with pytest.raises(wm.LaunchError, match="rank 2 does not match"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x.reshape(2, 32), x)
    with pytest.raises(wm.LaunchError, match="shape \\(2,\\) does not match memref<1xi32>"):
        wm.launch(compiled, "compact_positive", 2, 32, x, x, np.zeros(2, np.int32))
    with pytest.raises(wm.LaunchError, match="expected an array"):
        wm.launch(compiled, "warp_dot", 2, 32, x, 3.0, x)


@pytest.mark.skipif(HAS_GPU, reason="checks the error without a GPU")
def test_no_gpu_is_a_clear_error(compiled):
    x = np.ones(64, np.float32)
    with pytest.raises(wm.CudaError, match="libcuda.so.1"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, np.zeros(2, np.float32))


@pytest.mark.parametrize("backend", BACKENDS)
def test_warp_dot_numpy(compiled, backend):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(4096).astype(np.float32), rng.standard_normal(4096).astype(np.float32)
    out = np.zeros(128, np.float32)
    wm.launch(compiled, "warp_dot", 16, 256, a, b, out, backend=backend)
    np.testing.assert_allclose(out, (a * b).reshape(128, 32).sum(axis=1), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_compaction_numpy(compiled, backend):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(2048).astype(np.float32)
    out, counter = np.zeros(2048, np.float32), np.zeros(1, np.int32)
    wm.launch(compiled, "compact_positive", 8, 256, x, out, counter, backend=backend)
    kept = x[x > 0]
    assert counter[0] == kept.size
    # Warps append in any order; each warp's elements stay in lane order.
    assert sorted(out[:kept.size].tolist()) == sorted(kept.tolist())


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [32, 129, 159, 180, 1024])
def test_block_sum_ragged_blocks(compiled, block, backend):
    x = np.arange(3 * block, dtype=np.float32) % 17 - 8
    out = np.zeros(3, np.float32)
    wm.launch(compiled, "block_sum", 3, block, x, out, backend=backend)
    np.testing.assert_array_equal(out, x.reshape(3, block).sum(axis=1))


@requires_gpu
def test_torch_tensors_in_place(compiled):
    torch = pytest.importorskip("torch")
    a = torch.randn(1024, device="cuda")
    b = torch.randn(1024, device="cuda")
    out = torch.zeros(32, device="cuda")
    wm.launch(compiled, "warp_dot", 4, 256, a, b, out)
    torch.testing.assert_close(out, (a * b).reshape(32, 32).sum(dim=1), rtol=1e-5, atol=1e-5)


FAMILIES = wm.Program("families")


@FAMILIES.kernel(x=wm.memref(wm.i32), out=wm.memref(wm.i32, (8, -1)))
def families(k, x, out):
    """Lane i of each warp writes one result per op family into out[f, i]."""
    i = k.global_id()
    v = x[i]
    out[0, i] = k.shuffle("xor", v, 5, width=8)[0]
    out[1, i] = k.shuffle("up", v, 3, width=16)[0]
    out[2, i] = k.scan("add", v, exclusive=True)
    out[3, i] = k.reduce("maxsi", v, cluster_size=4)
    odd = (v & 1) == 1
    out[4, i] = k.ballot(odd)
    out[5, i] = k.cast(k.vote("any", odd), wm.i32)
    out[6, i] = k.match_any(v & 3)
    out[7, i] = k.broadcast(v, 7)


def _reference_families(x):
    """The same computations by CUDA's rules (semantics.md), per warp."""
    out = np.zeros((8, x.size), np.int64)
    for w in range(x.size // 32):
        v = x[32 * w:32 * w + 32].astype(np.int64)
        for lane in range(32):
            seg8, seg16 = lane - lane % 8, lane - lane % 16
            src = lane ^ 5
            out[0, 32 * w + lane] = v[src] if src <= seg8 + 7 else v[lane]
            out[1, 32 * w + lane] = v[lane - 3] if lane - 3 >= seg16 else v[lane]
            out[2, 32 * w + lane] = v[:lane].sum()
            out[3, 32 * w + lane] = v[lane - lane % 4:lane - lane % 4 + 4].max()
            bits = sum(1 << l for l in range(32) if v[l] & 1)
            out[4, 32 * w + lane] = bits
            out[5, 32 * w + lane] = int(bits != 0)
            out[6, 32 * w + lane] = sum(1 << l for l in range(32) if (v[l] & 3) == (v[lane] & 3))
            out[7, 32 * w + lane] = v[7]
    return out.astype(np.uint32).view(np.int32)


@pytest.mark.parametrize("backend", BACKENDS)
def test_op_families_match_cuda_rules(backend):
    compiled = wm.compile(FAMILIES, chip="sm_90")
    x = np.random.default_rng(3).integers(0, 1000, 256).astype(np.int32)
    out = np.zeros((8, 256), np.int32)
    wm.launch(compiled, "families", 2, 128, x, out, backend=backend)
    np.testing.assert_array_equal(out, _reference_families(x))


RAGGED = wm.Program("ragged")


@RAGGED.kernel(out=wm.memref(wm.i32, (3, -1)))
def live_lanes(k, out):
    """In a block of 48 threads the second warp has 16 lanes: ballot(true)
    and match_any of a uniform value name those 16, not all 32."""
    i = k.global_id()
    out[0, i] = k.ballot(k.constant(True, wm.i1))
    out[1, i] = k.match_any(k.constant(7, wm.i32))
    out[2, i] = k.popc(k.ballot(k.lane_id() >= 0))


def test_ragged_kernel_compiles():
    assert wm.compile(RAGGED, chip="sm_90").ptx.count("vote.sync.ballot") == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_ballot_of_true_is_the_live_lanes(backend):
    compiled = wm.compile(RAGGED, chip="sm_90")
    out = np.zeros((3, 48), np.int32)
    wm.launch(compiled, "live_lanes", 1, 48, out, backend=backend)
    want = np.array([-1] * 32 + [0xFFFF] * 16, np.int32)
    np.testing.assert_array_equal(out[0], want)
    np.testing.assert_array_equal(out[1], want)
    np.testing.assert_array_equal(out[2], [32] * 32 + [16] * 16)


@requires_sim
def test_sim_backend_reports_undefined_behaviour(compiled):
    """The simulator raises its report where a GPU would write out of
    bounds: 2 warps, room for 1 result."""
    x = np.ones(64, np.float32)
    with pytest.raises(wm.sim.SimError, match="warp_dot: .*outside every buffer"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, np.zeros(1, np.float32), backend="sim")


def _neighbours(barrier: bool):
    """Thread t stores t * t in shared word t, then loads word (t + 32) % 64,
    another warp's: in order only with a barrier between."""
    prog = wm.Program("neighbours")

    @prog.kernel(out=wm.memref(wm.i32, (64,)))
    def neighbours(k, out):
        words = k.shared(wm.i32, 64)
        t = k.thread_id("x")
        words[t] = k.cast(t * t, wm.i32)
        if barrier:
            k.barrier()
        out[t] = words[(t + 32) % 64]
    return wm.compile(prog, chip="sm_90")


@requires_sim
def test_sim_backend_reports_shared_memory_races():
    """Without the barrier warp 0 loads words 32.. before warp 1 stores
    them (the simulator runs warp 0 first; a GPU may run them in any
    order): warp 1's store is reported, a write after another warp's read
    that no barrier orders. With race_check=False the launch runs, warp 1
    reading what warp 0 stored; with the barrier every value is right."""
    out = np.zeros(64, np.int32)
    with pytest.raises(wm.sim.SimError, match=r"neighbours: .*`st\.shared.*warp 1, lane 0.*a "
                                              "shared memory race: this write of 4 bytes at "
                                              "offset 128 conflicts with a read of byte 128 by "
                                              "warp 0, lane 0 at line"):
        wm.launch(_neighbours(False), "neighbours", 1, 64, out, backend="sim")
    want = ((np.arange(64) + 32) % 64) ** 2
    wm.sim.launch(_neighbours(False), "neighbours", 1, 64, out, race_check=False)
    np.testing.assert_array_equal(out[32:], want[32:])
    out[:] = 0
    wm.launch(_neighbours(True), "neighbours", 1, 64, out, backend="sim")
    np.testing.assert_array_equal(out, want)


@requires_sim
def test_sim_backend_reads_read_only_arrays(compiled):
    a = np.arange(64, dtype=np.float32)
    a.flags.writeable = False
    out = np.zeros(2, np.float32)
    stats = wm.launch(compiled, "warp_dot", 2, 32, a, a, out, backend="sim")
    np.testing.assert_array_equal(out, (a * a).reshape(2, 32).sum(axis=1))
    assert stats.threads == 64 and stats.lane_instructions >= stats.warp_instructions > 0


def test_sim_backend_options_are_checked(compiled):
    x = np.ones(64, np.float32)
    with pytest.raises(ValueError, match="backend must be 'cuda' or 'sim', not 'gpu'"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, x, backend="gpu")
    with pytest.raises(ValueError, match="no stream, device or sync=False"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, x, backend="sim", sync=False)
    with pytest.raises(wm.LaunchError, match="takes 3 arguments"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, backend="sim")
    with pytest.raises(ValueError, match="block .* has 2048 threads"):
        wm.launch(compiled, "warp_dot", 1, (1024, 2), x, x, x, backend="sim")
