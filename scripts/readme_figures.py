#!/usr/bin/env python3
"""Generates the figures README.md quotes from the logs under docs/results.

Every measured figure in README.md (ratios, times, sizes, test counts) sits
between two markers,

    <!-- figures:NAME begin -->
    ...
    <!-- figures:NAME end -->

and this script writes what lies between them from the results files: the
numbers are parsed from the logs and JSON there, never typed in here.

    scripts/readme_figures.py            rewrite README.md in place
    scripts/readme_figures.py --check    exit 1 if README.md differs from
                                         what it would write (test/Docs)
Options: --root DIR (the repository; default: this script's), --readme FILE
(the README to check or rewrite; default: ROOT/README.md).

Outside the blocks a few patterns of measured figures (MB, ms, "N passed",
"±") are refused, so that a new figure goes into a block and a results file.
Standard library only.
"""
import argparse
import difflib
import json
import re
import sys
import textwrap
from pathlib import Path

RESULTS = "docs/results"
STALE = "README.md figures are stale: run scripts/readme_figures.py"
MARKER = re.compile(r"<!-- figures:([\w-]+) begin -->\n(.*?)<!-- figures:\1 end -->",
                    re.DOTALL)
# Measured figures that must not stand outside a generated block.
LOOSE_FIGURES = re.compile(
    r"\b\d[\d,]*(?:\.\d+)?\s?(?:MB|GB|KiB|MiB|GiB|ms|us)\b"
    r"|\b\d[\d,]* (?:passed|failed|skipped|unsupported|mismatches)\b"
    r"|±|\bmillion\b|CPU-minutes?")


class FigureError(Exception):
    pass


class Results:
    def __init__(self, root: Path):
        self.dir = root / RESULTS

    def text(self, name: str) -> str:
        path = self.dir / name
        if not path.is_file():
            raise FigureError(f"{RESULTS}/{name}: missing")
        return path.read_text()

    @staticmethod
    def link(name: str, label: str = "") -> str:
        return f"[{label or name}]({RESULTS}/{name})"

    def search(self, pattern: str, name: str, text: str = None, flat: bool = False):
        """The first match of pattern in the file (flat: whitespace runs as one
        space, for figures in wrapped prose); a missing figure is an error."""
        text = self.text(name) if text is None else text
        if flat:
            text = " ".join(text.split())
        match = re.search(pattern, text)
        if not match:
            raise FigureError(f"{RESULTS}/{name}: no figure matching {pattern!r}")
        return match

    def header(self, name: str):
        """(date, commit) from a log's first line, '# H200 (driver D), DATE[ TIME
        UTC], bundle of commit C; ...'."""
        match = self.search(r"\A# .*?, (\d{4}-\d\d-\d\d)[^,]*, bundle of commit (\w+)", name)
        return match.group(1), match.group(2)


def paragraph(text: str) -> str:
    return textwrap.fill(" ".join(text.split()), width=76, break_long_words=False,
                         break_on_hyphens=False)


# ---------------------------------------------------------------- blocks

# What each warp_bench.py kernel is (prose; the figures come from the log).
BENCH_KERNELS = {
    "warp_sum_f32": "one warp sum per 32 floats (memory-bound)",
    "warp_sum_f32_rows": "rows of 32 floats in Triton's shape",
    "repeated_sum_i32": "dependent i32 warp sums (`redux.sync`)",
    "repeated_sum_f32": "dependent f32 warp sums, result in all lanes",
    "repeated_scan_f32": "dependent f32 inclusive scans",
}


def bench(res: Results) -> str:
    """warp_bench.py's ratios from bench-h200.txt, checked against the times
    in bench-h200.json."""
    name = "bench-h200.txt"
    date, commit = res.header(name)
    rows, columns = [], []
    for line in res.text(name).splitlines()[1:]:
        if not line.strip():
            continue
        kernel = re.match(r"(.+?)\s+warp [\d.]+ ms", line)
        if not kernel:
            raise FigureError(f"{RESULTS}/{name}: unexpected line {line!r}")
        ratios = dict(re.findall(r"(\w+)/warp ([\d.]+)", line))
        columns += [key for key in ratios if key not in columns]
        rows.append((kernel.group(1).strip(), ratios))
    if not rows:
        raise FigureError(f"{RESULTS}/{name}: no kernels")
    timed = {entry["kernel"]: entry for entry in json.loads(res.text("bench-h200.json"))}
    for kernel, ratios in rows:
        entry = timed.get(kernel)
        if entry is None:
            raise FigureError(f"{RESULTS}/bench-h200.json: no {kernel!r} (in {name})")
        for base, ratio in ratios.items():
            from_json = entry[f"{base}_ms"] / entry["warp_ms"]
            if abs(from_json - float(ratio)) > 0.0015:
                raise FigureError(f"{RESULTS}/{name} and bench-h200.json disagree: {kernel} "
                                  f"{base}/warp {ratio} against {from_json:.3f}")
    lines = [paragraph(f"Last H200 run ({date}, bundle of {commit}; {res.link(name)}, "
                       f"{res.link('bench-h200.json', '.json')}):"), "",
             "| kernel | " + " | ".join(f"{c}/warp" for c in columns) + " |",
             "| --- |" + " --- |" * len(columns)]
    for kernel, ratios in rows:
        base, _, shape = kernel.partition(" ")
        label = f"`{base}` {shape}".rstrip()
        if base in BENCH_KERNELS:
            label += f": {BENCH_KERNELS[base]}"
        lines.append(f"| {label} | " + " | ".join(ratios.get(c, "—") for c in columns) + " |")
    return "\n".join(lines) + "\n"  # a blank line ends the table before the marker


def gpu_suite(res: Results) -> str:
    """Runner lit tests, the GPU matrix and pytest on the H200."""
    runner = res.text("runner-tests-h200.txt")
    passed = res.search(r"Passed\s*: (\d+)", "runner-tests-h200.txt", runner).group(1)
    unsupported = re.search(r"Unsupported\s*: (\d+)", runner)
    failed = re.search(r"Failed\s*: (\d+)", runner)
    runner_text = f"{passed} passed"
    if failed:
        runner_text += f", {failed.group(1)} failed"
    if unsupported:
        runner_text += f", {unsupported.group(1)} unsupported (those without a GPU)"

    def matrix(name):
        found = re.findall(r"^gpu: (\d+) passed, (\d+) failed", res.text(name), re.MULTILINE)
        if not found:
            raise FigureError(f"{RESULTS}/{name}: no 'gpu: N passed, M failed' line")
        return f"{int(found[-1][0])} passed, {int(found[-1][1])} failed"

    latest, bundle_run = "gpu-suite-h200-issue26.log", "gpu-suite-h200.log"
    _, bundle_commit = res.header(bundle_run)
    pytest = res.search(r"(?m)^=* ?((?:\d+ \w+(?:, )?)+) in [\d.]+s", "pytest-h200.txt")
    pytest_text = pytest.group(1).rstrip(", ")
    return paragraph(
        f"Last H200 runs: runner tests {runner_text} "
        f"({res.link('runner-tests-h200.txt')}); matrix {matrix(latest)} "
        f"({res.link(latest)}; the bundle of {bundle_commit}: {matrix(bundle_run)}, "
        f"{res.link(bundle_run)}); pytest against the wheel {pytest_text} "
        f"({res.link('pytest-h200.txt')}).")


def sanitizer(res: Results) -> str:
    """compute-sanitizer's runs: tools, programs, matrix cases, findings."""
    name = "compute-sanitizer-h200.txt"
    runs = []  # [tool, program, exit status, matrix cases or None, findings]
    for line in res.text(name).splitlines():
        run = re.match(r"compute-sanitizer (\w+) (\S+): exit (\d+)"
                       r"(?:, gpu: (\d+) passed, (\d+) failed)?", line)
        if run:
            tool, program, status, passed, failed = run.groups()
            runs.append([tool, program, int(status), passed and (int(passed), int(failed)), None])
            continue
        summary = re.search(r"(?:ERROR SUMMARY: (\d+) errors?|RACECHECK SUMMARY: (\d+) hazards?)",
                            line)
        if summary and runs:
            runs[-1][4] = int(summary.group(1) or summary.group(2))
    if not runs:
        raise FigureError(f"{RESULTS}/{name}: no 'compute-sanitizer TOOL PROGRAM: exit N' line")
    tools = list(dict.fromkeys(run[0] for run in runs))
    programs = {run[1] for run in runs if run[3] is None}
    cases = sorted({run[3][0] for run in runs if run[3]})
    covered = f"{len(programs)} runner programs"
    if cases:
        covered += f" and {'/'.join(map(str, cases))} matrix cases"
    bad = [f"{tool} {program}: exit {status}, {found} "
           + ("hazards" if tool == "racecheck" else "errors")
           + (f", {matrix[1]} failed" if matrix and matrix[1] else "")
           for tool, program, status, matrix, found in runs
           if status or found is None or found or (matrix and matrix[1])]
    verdict = ("every one exit 0 with 0 errors and 0 hazards" if not bad
               else "not clean: " + "; ".join(bad))
    tool_list = ", ".join(tools[:-1]) + " and " + tools[-1] if len(tools) > 1 else tools[0]
    return paragraph(
        f"Last compute-sanitizer run ({res.link(name)}): {tool_list}, each over "
        f"{covered}: {len(runs)} runs, {verdict}.")


def static_build(res: Results) -> str:
    """warp-opt's size and start time against warp-opt-dylib, from
    compile-bench.txt's notes."""
    name = "compile-bench.txt"
    start = res.search(r"warp-opt \((\d+) MB\) answers `--version` in ~(\d+) ms against "
                       r"~(\d+) ms for warp-opt-dylib", name, flat=True)
    return paragraph(
        f"`warp-opt` ({start.group(1)} MB) answers `--version` in ~{start.group(2)} ms "
        f"against ~{start.group(3)} ms for `warp-opt-dylib`, whose start is mostly the "
        f"dynamic linker resolving symbols in libMLIR.so and libLLVM.so (notes in "
        f"{res.link(name)}).")


BLOCKS = {
    "static-build": static_build,
    "gpu-suite": gpu_suite,
    "sanitizer": sanitizer,
    "bench": bench,
}


# ---------------------------------------------------------------- driver

def generate(readme: str, res: Results) -> str:
    found = [m.group(1) for m in MARKER.finditer(readme)]
    for block in found:
        if block not in BLOCKS:
            raise FigureError(f"README.md: unknown block figures:{block}")
        if found.count(block) > 1:
            raise FigureError(f"README.md: block figures:{block} twice")
    missing = [block for block in BLOCKS if block not in found]
    if missing:
        raise FigureError("README.md: no block " + ", ".join(f"figures:{b}" for b in missing))
    opened = len(re.findall(r"<!-- figures:[\w-]+ begin -->", readme))
    if opened != len(found):
        raise FigureError("README.md: a figures block without its matching end marker")

    def fill(match):
        block = match.group(1)
        return (f"<!-- figures:{block} begin -->\n{BLOCKS[block](res)}\n"
                f"<!-- figures:{block} end -->")
    return MARKER.sub(fill, readme)


def loose_figures(readme: str):
    """Lines outside the generated blocks and code fences quoting a figure."""
    outside = MARKER.sub(lambda m: "\n" * m.group(0).count("\n"), readme)
    problems, fenced = [], False
    for number, line in enumerate(outside.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced and LOOSE_FIGURES.search(line):
            problems.append(f"  README.md:{number}: {line.strip()}")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if README.md is not what this script writes")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the repository (docs/results and README.md)")
    parser.add_argument("--readme", type=Path, help="the README (default ROOT/README.md)")
    args = parser.parse_args(argv)
    readme_path = args.readme or args.root / "README.md"
    readme = readme_path.read_text()
    try:
        new = generate(readme, Results(args.root))
    except FigureError as error:
        print(f"readme_figures.py: {error}")
        return 1
    loose = loose_figures(new)
    if loose:
        print("README.md quotes figures outside a generated block (move them into one, "
              "generated from docs/results, or link the results file):")
        print("\n".join(loose))
    blocks = len(MARKER.findall(new))
    if args.check:
        if new != readme:
            print(STALE)
            diff = difflib.unified_diff(readme.splitlines(), new.splitlines(),
                                        "README.md", "generated", n=0, lineterm="")
            print("\n".join(list(diff)[:24]))
            return 1
        if not loose:
            print(f"README.md figures are current ({blocks} blocks from {RESULTS})")
        return 1 if loose else 0
    if new != readme:
        readme_path.write_text(new)
        print(f"README.md: {blocks} figure blocks rewritten from {RESULTS}")
    else:
        print(f"README.md figures are current ({blocks} blocks from {RESULTS})")
    return 1 if loose else 0


if __name__ == "__main__":
    sys.exit(main())
