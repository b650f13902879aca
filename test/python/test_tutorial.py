"""The Python examples of docs/Tutorial.md (examples/python/tutorial_*.py):
what the text says they print and find, so the tutorial cannot rot. The
debugging steps and, without a GPU, the launches run on the SIMT simulator."""
import os
import re
from pathlib import Path

import numpy as np
import pytest

import tutorial_build
import tutorial_debug
import warp_mlir as wm
from conftest import HAS_GPU, requires_gpu, requires_sim


def source_line(module, marker: str) -> int:
    """The line of `module`'s source file that contains `marker`."""
    lines = Path(module.__file__).read_text().splitlines()
    found = [n for n, line in enumerate(lines, 1) if marker in line]
    assert len(found) == 1, (marker, found)
    return found[0]


def op_locations(program: wm.Program, op: str) -> list:
    """(file name, line) of every `op` in the program's IR."""
    return [(os.path.basename(m.group(1)), int(m.group(2)))
            for m in re.finditer(op + r' .* loc\("([^"]+)":(\d+):\d+\)', str(program))]


# ---------------------------------------------------------------- building

def test_build_ops_carry_their_python_line():
    line = source_line(tutorial_build, 'k.reduce("add"')
    assert op_locations(tutorial_build.prog, "warp.reduce <add>") == [("tutorial_build.py", line)]


def test_build_compiles_to_three_shuffles_in_segments_of_8():
    compiled = tutorial_build.compile_kernels("sm_90")
    assert ".visible .entry group_sums(" in compiled.ptx
    shuffles = tutorial_build.shuffles(compiled.ptx)
    # c = (32 - width) << 8 | 31 for shfl.down: 0x181f for width 8.
    assert [re.search(r", (\d+), (\d+), -1;", s).groups() for s in shuffles] == [
        ("4", "6175"), ("2", "6175"), ("1", "6175")]
    assert [(a.element, a.shape) for a in compiled.kernels["group_sums"]] == [
        ("f32", (-1,)), ("f32", (-1,))]


@pytest.mark.skipif(HAS_GPU, reason="checks the run without a GPU")
@requires_sim
def test_build_main_without_gpu_runs_on_the_simulator(capsys):
    tutorial_build.main(1 << 12)
    out = capsys.readouterr().out
    assert "warp.reduce <add>" in out and "shfl.sync.down.b32" in out
    assert "no GPU here (" in out and "): on the simulator instead" in out
    assert "group_sums over 4096 floats: matches numpy" in out


@requires_gpu
def test_build_main_matches_numpy_on_the_gpu(capsys):
    tutorial_build.main(1 << 16)
    assert "group_sums over 65536 floats: matches numpy" in capsys.readouterr().out


# ---------------------------------------------------------------- debugging

X = np.arange(1, 65, dtype=np.int32)


@requires_sim
def test_debug_buggy_kernel_is_wrong_from_the_second_row_of_each_warp():
    out = tutorial_debug.run_kernel(wm.compile(tutorial_debug.buggy), X)
    wrong = np.flatnonzero(out != tutorial_debug.reference(X))
    assert wrong.tolist() == [i for i in range(64) if i % 32 >= 8]
    assert out[8] == sum(range(1, 10))  # the scan ran on across the first row


@requires_sim
def test_debug_fixed_kernel_matches_the_reference():
    out = tutorial_debug.run_kernel(wm.compile(tutorial_debug.fixed), X)
    np.testing.assert_array_equal(out, tutorial_debug.reference(X))


def test_debug_ir_shows_the_whole_warp_scan_at_the_python_line():
    line = source_line(tutorial_debug, "# bug: scans the whole warp")
    # No width: the default, the whole warp.
    assert re.search(r"warp.scan <add> %\w+ : i32", str(tutorial_debug.buggy))
    assert op_locations(tutorial_debug.buggy, "warp.scan <add>") == [("tutorial_debug.py", line)]
    assert "width 8" in str(tutorial_debug.fixed)


def test_debug_ptx_shuffles_tell_the_widths_apart():
    def ups(program):
        ptx = wm.compile(program, chip="sm_90").ptx
        return re.findall(r"shfl\.sync\.up\.b32\s+\S+ \S+, (\d+), (\d+), -1;", ptx)
    # c = (32 - width) << 8 for shfl.up: 0 for the whole warp, 6144 for 8 lanes.
    assert ups(tutorial_debug.buggy) == [("1", "0"), ("2", "0"), ("4", "0"), ("8", "0"),
                                         ("16", "0")]
    assert ups(tutorial_debug.fixed) == [("1", "6144"), ("2", "6144"), ("4", "6144")]


def test_debug_lint_names_the_line_of_the_wrong_mask():
    line = source_line(tutorial_debug, "# bug: 0xFFFF meant")
    [(file, at, message)] = tutorial_debug.lint_warnings(tutorial_debug.typo)
    assert (os.path.basename(file), at) == ("tutorial_debug.py", line)
    assert message.startswith("member mask 0x00000fff splits a segment")
    assert tutorial_debug.lint_warnings(tutorial_debug.fixed) == []


@requires_sim
def test_debug_simulator_reports_the_lane_outside_its_mask():
    compiled = wm.compile(tutorial_debug.typo)
    with pytest.raises(tutorial_debug.UndefinedBehaviour,
                       match=r"lane 12, .*the lane is not in its member mask 0xfff"):
        tutorial_debug.simulate(compiled, "row_prefix", 2, 32, X, np.zeros_like(X))


@requires_sim
def test_debug_main_walks_through_every_step(capsys):
    tutorial_debug.main()
    out = capsys.readouterr().out
    assert "out[8] = 45, expected 9" in out
    assert "matches the reference: True" in out
    assert "tutorial_debug.py:%d: warning: member mask" % source_line(
        tutorial_debug, "# bug: 0xFFFF meant") in out
    assert "undefined behaviour" in out


@requires_gpu
def test_debug_gpu_agrees_with_the_simulator():
    buggy, fixed = wm.compile(tutorial_debug.buggy), wm.compile(tutorial_debug.fixed)
    want = tutorial_debug.reference(X)
    np.testing.assert_array_equal(tutorial_debug.run_kernel(fixed, X, on_gpu=True), want)
    on_gpu = tutorial_debug.run_kernel(buggy, X, on_gpu=True)
    # The whole-warp prefix sums, exactly what the simulator computes.
    np.testing.assert_array_equal(on_gpu, np.cumsum(X.reshape(2, 32), axis=1).reshape(-1))


def test_tutorial_page_names_the_lines_the_examples_have():
    """docs/Tutorial.md shows locations (`tutorial_debug.py":31:14`,
    `tutorial_debug.py:50: warning`); they must be the lines of the calls."""
    path = Path(__file__).resolve().parents[2] / "docs" / "Tutorial.md"
    if not path.is_file():
        pytest.skip("no docs/Tutorial.md here (the GPU bundle carries no docs)")
    page = path.read_text()
    shown = {(m.group(1), int(m.group(2)))
             for m in re.finditer(r'(tutorial_\w+)\.py"?:(\d+):', page)}
    assert shown == {
        ("tutorial_build", source_line(tutorial_build, 'k.reduce("add"')),
        ("tutorial_debug", source_line(tutorial_debug, "# bug: scans the whole warp")),
        ("tutorial_debug", source_line(tutorial_debug, "# bug: 0xFFFF meant")),
    }
    assert f"call on line {source_line(tutorial_debug, '# bug: scans the whole warp')}." in page


def shown_outputs(page: str, script: str) -> list:
    """The blocks of `page` marked `<!-- output: SCRIPT -->`: what the page
    says the script prints."""
    marker = re.escape(f"<!-- output: {script} -->")
    return [m.group(1).splitlines() for m in
            re.finditer(marker + r"\n```\n(.*?)\n```", page, flags=re.S)]


def printed_in_order(excerpt: list, printed: list) -> bool:
    """Whether the excerpt's lines are printed lines in the same order: a
    line `...` stands for any lines left out, `...` inside a line for any
    text (an absolute path)."""
    at = 0
    for line in excerpt:
        if line.strip() == "...":
            continue
        pattern = re.compile(".*".join(map(re.escape, line.split("..."))))
        while at < len(printed) and not pattern.fullmatch(printed[at]):
            at += 1
        if at == len(printed):
            return False
        at += 1
    return True


@requires_sim
def test_tutorial_page_shows_what_the_debug_example_prints(capsys):
    """Every output excerpt of the debugging walk-through is what
    tutorial_debug.py prints now (on the simulator), line for line."""
    path = Path(__file__).resolve().parents[2] / "docs" / "Tutorial.md"
    if not path.is_file():
        pytest.skip("no docs/Tutorial.md here (the GPU bundle carries no docs)")
    excerpts = shown_outputs(path.read_text(), "examples/python/tutorial_debug.py")
    assert len(excerpts) == 5
    tutorial_debug.main()
    printed = capsys.readouterr().out.splitlines()
    for excerpt in excerpts:
        assert printed_in_order(excerpt, printed), "\n".join(excerpt)
    assert not printed_in_order(["   out[8] = 46, expected 9"], printed)
