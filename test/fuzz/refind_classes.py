#!/usr/bin/env python3
"""Does the fuzzer find the crash classes of issue 28 again, within the CI
run's budget? (docs/Robustness.md, "Re-finding the crash classes")

For each crash class that WARP_PLANT_BUG can re-introduce
(include/WarpDialect/IR/PlantedBugs.h), runs the sanitized harness as
scripts/test.sh does (JOBS processes, seeds 1..JOBS, SECONDS each, on a
fresh seed corpus from make_corpus.py) with that bug planted, and reports
whether a crash was found, after how many seconds, and what the sanitizer
said. A run with no bug planted comes first: it must find nothing.

    python3 test/fuzz/refind_classes.py --fuzzer build-asan/bin/warp-fuzz \\
        [--seconds 30] [--jobs 2] [--classes NAME,...]

Exits 1 when a planted class is not found or the run without one finds
something.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# WARP_PLANT_BUG value -> the issue 28 class it re-introduces.
CLASSES = {
    "combiner-empty-block": "5: a combine region with no ops",
    "block-scan-self-append": "6: warp.block_scan over 7 or more values",
    "shared-memory-vector-elements": "7: workgroup memrefs of vector elements",
}


def run_class(fuzzer, corpus, planted, seconds, jobs, work):
    """Runs the jobs with `planted` (None: no bug); returns (found, seconds,
    executions, what the first finding said)."""
    run_corpus = os.path.join(work, "corpus")
    findings = os.path.join(work, "findings")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(corpus, run_corpus)
    os.makedirs(findings)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:allow_user_poisoning=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    env.pop("WARP_PLANT_BUG", None)
    if planted:
        env["WARP_PLANT_BUG"] = planted
    logs, procs = [], []
    start = time.monotonic()
    for job in range(1, jobs + 1):
        log = open(os.path.join(work, f"job{job}.log"), "w")
        logs.append(log)
        procs.append(subprocess.Popen(
            [fuzzer, f"-max_total_time={seconds}", "-max_len=4096", "-timeout=30",
             "-rss_limit_mb=4096", "-print_final_stats=1", f"-seed={job}",
             f"-dict={os.path.join(HERE, 'warp.dict')}", f"-artifact_prefix={findings}/",
             run_corpus], stdout=log, stderr=subprocess.STDOUT, env=env))
    found_at = None
    while any(p.poll() is None for p in procs):
        if found_at is None and any(p.returncode not in (None, 0) for p in procs):
            found_at = time.monotonic() - start
            for p in procs:
                if p.poll() is None:
                    p.terminate()
        time.sleep(0.2)
    if found_at is None and any(p.returncode != 0 for p in procs):
        found_at = time.monotonic() - start
    for log in logs:
        log.close()
    texts = [open(log.name, errors="replace").read() for log in logs]
    executions = 0
    for text in texts:
        counts = re.findall(r"^#(\d+)", text, flags=re.M)
        executions += int(counts[-1]) if counts else 0
    what = ""
    for text in texts:
        m = re.search(r"^==\d+==\s*ERROR: (.*)$|^(.*runtime error: .*)$|^(==\d+== ?ERROR: libFuzzer: .*)$",
                      text, flags=re.M)
        if m:
            what = next(g for g in m.groups() if g).strip()
            break
    artifacts = [f for f in os.listdir(findings) if re.match(r"(crash|oom|timeout|leak)-", f)]
    found = found_at is not None or bool(artifacts)
    return found, found_at, executions, what


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fuzzer", required=True, help="the sanitized warp-fuzz")
    ap.add_argument("--seconds", type=int, default=30, help="per job (CI: 30)")
    ap.add_argument("--jobs", type=int, default=2, help="processes side by side (CI: 2)")
    ap.add_argument("--classes", default=",".join(CLASSES),
                    help="comma-separated WARP_PLANT_BUG names")
    args = ap.parse_args()
    classes = [c for c in args.classes.split(",") if c]
    unknown = [c for c in classes if c not in CLASSES]
    if unknown:
        sys.exit(f"unknown class(es): {', '.join(unknown)}; known: {', '.join(CLASSES)}")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "seed-corpus")
        subprocess.run([sys.executable, os.path.join(HERE, "make_corpus.py"), corpus],
                       check=True, stdout=subprocess.DEVNULL)
        print(f"budget: {args.jobs} job(s) x {args.seconds} s, seeds 1..{args.jobs}, "
              f"{len(os.listdir(corpus))} seed inputs")
        print("| planted | issue 28 class | found | seconds | executions | first report |")
        print("| --- | --- | --- | --- | --- | --- |")
        for planted in [None] + classes:
            found, at, execs, what = run_class(args.fuzzer, corpus, planted, args.seconds,
                                               args.jobs, os.path.join(tmp, "run"))
            expected = planted is not None
            ok &= found == expected
            print(f"| {planted or '(none)'} | {CLASSES.get(planted, 'none')} | "
                  f"{'yes' if found else 'no'} | {f'{at:.1f}' if at is not None else '-'} | "
                  f"{execs} | {what or '-'} |", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
