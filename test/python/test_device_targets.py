"""benchmarks/device_targets.py (issue 32's target table and chart from a
device_ops_bench.py run) on hand-made results: the verdicts, the
crossovers and the merge of several runs."""
import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
pytestmark = pytest.mark.skipif(not (BENCHMARKS / "device_targets.py").exists(),
                                reason="the benchmarks are not beside the tests")


@pytest.fixture(scope="module")
def targets():
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("device_targets", BENCHMARKS / "device_targets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def entry(group, log2n, **fields):
    return {"group": group, "log2n": log2n, "n": 1 << log2n, **fields}


def test_every_group_has_a_target(targets):
    import device_ops_bench
    assert {op for op, _, _ in device_ops_bench.GROUPS.values()} <= set(targets.TARGETS)


def test_verdicts(targets):
    scan = targets.TARGETS["scan"]
    # A scan needs both: 1.15x CUB and 85 % of the copy's bandwidth.
    assert targets.verdict(entry("scan_incl_i32", 28, warp_ms=1, ratio_cub=1.2, pct_copy=86),
                           scan) == "met"
    assert targets.verdict(entry("scan_incl_i32", 28, warp_ms=1, ratio_cub=1.2, pct_copy=84.9),
                           scan) == "missed"
    assert targets.verdict(entry("scan_incl_i32", 28, warp_ms=1, ratio_cub=1.149, pct_copy=90),
                           scan) == "missed"
    sums = targets.TARGETS["reduce"]
    assert targets.verdict(entry("reduce_i32", 28, warp_ms=1, ratio_cub=1.02), sums) == "met"
    assert targets.verdict(entry("reduce_i32", 28, warp_ms=1, ratio_cub=1.019), sums) == "missed"
    # No warp time (a failure): no verdict.
    assert targets.verdict(entry("reduce_i32", 28, errors={"warp": "x"}), sums) == "-"


def test_crossover(targets):
    # Warp at least as fast from 2^18 on, though ahead at 2^10 once.
    assert targets.crossover([10, 14, 18, 22], [1.1, 0.9, 1.0, 1.3]) == "2^18"
    assert targets.crossover([10, 14], [1.1, 1.2]) == "2^10 (all)"
    assert targets.crossover([10, 14, 18], [1.1, 1.2, 0.99]) == "none"
    # Sizes without the baseline are left out.
    assert targets.crossover([10, 14, 18], [None, 0.8, 1.0]) == "2^18"
    assert targets.crossover([10], [None]) == "-"


def test_runs_merge_into_tables_and_a_chart(targets, tmp_path):
    first = {"results": [entry("reduce_i32", 20, warp_ms=0.01, ratio_cub=0.9),
                         entry("reduce_i32", 28, warp_ms=0.3, ratio_cub=0.95, pct_copy=106),
                         entry("radix_sort_i32", 28, warp_ms=10.0, ratio_cub=1.05,
                               torch_ms=12.0, ratio_torch=1.2)]}
    # The second run redoes reduce_i32 at 2^28.
    second = {"results": [entry("reduce_i32", 28, warp_ms=0.29, ratio_cub=1.03, pct_copy=107)]}
    paths = []
    for i, run in enumerate((first, second)):
        paths.append(tmp_path / f"run{i}.json")
        paths[-1].write_text(json.dumps(run))
    out, svg = tmp_path / "t.md", tmp_path / "t.svg"
    assert targets.main([str(p) for p in paths] + ["-o", str(out), "--svg", str(svg)]) == 0
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| reduce_i32 | 2^28")]
    assert len(rows) == 1 and "| 1.030 |" in rows[0] and rows[0].endswith("| met |")
    assert "| radix_sort_i32 | 2^28 | 10000.0 |" in text
    assert "met 2, missed 0" in text
    # reduce_i32 at 2^20 and 2^28: behind CUB at 2^20, ahead from 2^28.
    assert "| reduce_i32 | 0.90 | 1.03 | 2^28 | - | - |" in text
    drawing = svg.read_text()
    assert drawing.startswith("<svg") and drawing.count('stroke="#d62728"') == 3  # 2 rows + legend
