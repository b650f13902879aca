"""compile(): PTX for every chip class, cubin and diagnostics."""
import subprocess

import pytest

import seed_kernels
import warp_mlir as wm


@pytest.mark.parametrize("chip", ["sm_75", "sm_80", "sm_90", "sm_100a"])
def test_seed_kernels_compile_for_chip(chip, ptxas, tmp_path):
    compiled = wm.compile(seed_kernels.prog, chip=chip)
    assert f".target {chip}" in compiled.ptx
    assert set(compiled.kernels) == {"warp_dot", "compact_positive", "block_sum"}
    assert [str(t) for t in compiled.kernels["compact_positive"]] == [
        "memref<?xf32>", "memref<?xf32>", "memref<1xi32>"]
    path = tmp_path / "seeds.ptx"
    path.write_text(compiled.ptx)
    subprocess.run([ptxas, f"-arch={chip}", str(path), "-o", str(tmp_path / "seeds.o")], check=True)


def test_seed_kernel_instruction_sequences():
    ptx = wm.compile(seed_kernels.prog, chip="sm_90").ptx
    dot = ptx[ptx.index(".entry warp_dot"):ptx.index(".entry compact_positive")]
    assert dot.count("shfl.sync.down.b32") == 5 and dot.count("add.rn.f32") == 5
    compact = ptx[ptx.index(".entry compact_positive"):ptx.index(".entry block_sum")]
    assert compact.count("vote.sync.ballot.b32") == 1 and "atom.global.add.u32" in compact


def test_cubin_output(ptxas):
    compiled = wm.compile(seed_kernels.prog, chip="sm_90", format="cubin")
    assert compiled.binary[:4] == b"\x7fELF"
    with pytest.raises(ValueError, match="not PTX"):
        compiled.ptx


def test_compile_errors_raise_mlir_error():
    bad = ("module attributes {gpu.container_module} { gpu.module @k {\n"
           "gpu.func @f(%o: memref<?xi32>) kernel {\n"
           "  %c0 = arith.constant 0 : index\n  %x = arith.constant 1 : i32\n"
           "  %r = warp.reduce <add> %x strategy = <redux> : i32\n"
           "  memref.store %r, %o[%c0] : memref<?xi32>\n  gpu.return\n} } }")
    with pytest.raises(wm.MLIRError) as info:
        wm.compile(bad, chip="sm_75")
    assert "redux.sync needs sm_80+" in str(info.value)
    assert ":5:" in info.value.diagnostics[0].location
    with pytest.raises(wm.MLIRError, match="unknown chip 'sm_42'"):
        wm.compile(seed_kernels.prog, chip="sm_42")
    with pytest.raises(ValueError, match="format must be one of"):
        wm.compile(seed_kernels.prog, format="sass")
