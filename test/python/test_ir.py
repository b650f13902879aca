"""Parse, print, verify, pipelines and diagnostics through the C API."""
import re

import pytest

import warp_mlir as wm

REDUCE = """
func.func @f(%x: f32) -> f32 {
  %r = warp.reduce <add> %x lanes = <first> : f32
  return %r : f32
}
"""


def test_round_trip_pretty_and_generic():
    module = wm.Module.parse(REDUCE)
    text = str(module)
    assert "warp.reduce <add> %arg0 lanes = <first> : f32" in text
    generic = module.to_string(generic=True)
    assert '"warp.reduce"' in generic and "#warp.result_lanes<first>" in generic
    # Both forms parse back to the same module.
    assert str(wm.Module.parse(generic)) == text
    assert str(wm.Module.parse(text)) == text


def test_parse_error_carries_location():
    with pytest.raises(wm.MLIRError) as info:
        wm.Module.parse("func.func @f() {\n  %x = warp.frobnicate : i32\n  return\n}")
    [diagnostic] = info.value.diagnostics
    assert diagnostic.severity == "error"
    assert ":2:" in diagnostic.location
    assert "warp.frobnicate" in diagnostic.message


def test_verifier_error_is_an_exception_with_the_message():
    with pytest.raises(wm.MLIRError) as info:
        wm.Module.parse("func.func @f(%x: f32) -> f32 {\n"
                        "  %r = warp.reduce <and> %x : f32\n  return %r : f32\n}")
    assert "kind 'and' needs an integer value" in str(info.value)
    assert ":2:" in info.value.diagnostics[0].location


def test_run_pipeline_anchored_and_not():
    module = wm.Module.parse(REDUCE)
    module.run("builtin.module(warp-expand-collectives)")
    text = str(module)
    assert text.count("warp.shuffle <down>") == 5 and "warp.reduce" not in text
    module.run("convert-warp-to-nvvm,canonicalize")
    assert len(re.findall(r"nvvm\.shfl\.sync\s+down", str(module))) == 5


def test_bad_pipeline_raises():
    module = wm.Module.parse(REDUCE)
    with pytest.raises(wm.MLIRError) as info:
        module.run("no-such-pass")
    assert "no-such-pass" in str(info.value)


def test_pass_failure_raises_with_diagnostic():
    module = wm.Module.parse("gpu.module @m [#nvvm.target<chip = \"sm_75\">] {\n"
                             "func.func @f(%x: i32) -> i32 {\n"
                             "  %r = warp.reduce <add> %x strategy = <redux> : i32\n"
                             "  return %r : i32\n}\n}")
    with pytest.raises(wm.MLIRError) as info:
        module.run("warp-expand-collectives")
    assert "redux.sync needs sm_80+" in str(info.value)


def test_version_and_exports():
    # One source: the project version of the top-level CMakeLists.txt.
    import pathlib
    import re
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", wm.__version__)
    cmake = pathlib.Path(__file__).resolve().parents[2] / "CMakeLists.txt"
    if cmake.exists():  # a source checkout (the GPU bundle has no CMake files)
        project_version = re.search(r"project\(WarpDialect[^)]*VERSION ([0-9.]+)\)",
                                    cmake.read_text()).group(1)
        assert wm.__version__ == project_version
    for name in wm.__all__:
        assert hasattr(wm, name), name


def test_all_upstream_context_parses_other_dialects():
    try:
        context = wm.Context(all_upstream=True)
    except RuntimeError:
        pytest.skip("self-contained library")
    module = wm.Module.parse("func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {\n"
                             "  %r = tosa.abs %t : (tensor<4xf32>) -> tensor<4xf32>\n"
                             "  return %r : tensor<4xf32>\n}", context)
    module.run("builtin.module(canonicalize)")
    assert "tosa.abs" in str(module)
