#!/usr/bin/env python3
"""Writes the warp-fuzz seed corpus: every MLIR file of the lit suite and of
examples/, split on `// -----` with its comment lines (RUN, CHECK,
expected-error, prose) removed.

Each seed starts with the harness's option byte (tools/warp-fuzz/warp-fuzz.cpp:
bits 0-1 chip, 2-3 strategy, 6 opt-level), rotated over the seeds so every
chip and strategy appears. A snippet of bare `func.func`s (no gpu.module, no
module) is also written wrapped in `gpu.module @fuzz { ... }`, so its warp
ops reach the device lowering instead of the host-code diagnostic.

Then a small op x payload matrix the lit files do not have: for every
payload type (i1 ... f64, index, 1-D vectors), one seed per op family
(reduce, scan, data movement, forced redux) using every kind and clause
that verifies for that type. Text mutations rarely turn `i32` into `index`
or add `exclusive`; these seeds start from there.

Usage: make_corpus.py OUT_DIR [MAX_FILES]   (default 200)
"""
import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SELECTORS = "0123456789:;<=>?@ABCDEFGHIJKLMNO"


# Inputs that reach an LLVM fatal error on purpose (hand-written LLVM dialect
# the backend cannot select): the drivers report them as diagnostics, but the
# harness aborts on every fatal error, which a warp lowering must never cause.
DELIBERATE_FATAL_ERRORS = {os.path.join("test", "Robustness", "Inputs",
                                        "backend-cannot-select.mlir")}


def sources():
    for top in ("test", "examples"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames
                                 if d not in ("fuzz", "__pycache__"))
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                if (name.endswith(".mlir")
                        and os.path.relpath(path, ROOT) not in DELIBERATE_FATAL_ERRORS):
                    yield path


def snippets(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for chunk in re.split(r"^// -----.*$", text, flags=re.M):
        lines = [l for l in chunk.splitlines()
                 if not l.lstrip().startswith("//") and l.strip()]
        body = "\n".join(lines).strip()
        if body:
            yield body + "\n"


def wrapped(body):
    if "gpu.module" in body or re.search(r"^\s*module\b", body, re.M):
        return None
    if "func.func" not in body or "warp." not in body:
        return None
    inner = "\n".join("  " + l for l in body.splitlines())
    return "gpu.module @fuzz {\n" + inner + "\n}\n"


INT_KINDS = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
FLOAT_KINDS = ["add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"]
PAYLOADS = ["i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32",
            "f64", "vector<2xf16>", "vector<2xbf16>", "vector<4xi8>",
            "vector<2xi32>", "vector<3xf32>", "vector<2xi64>"]


def is_float(t):
    return re.search(r"f(16|32|64)>?$", t) is not None


def matrix_seeds():
    """One gpu.module per (payload, op family); every op stores its result."""
    for t in PAYLOADS:
        kinds = FLOAT_KINDS if is_float(t) else INT_KINDS
        k0 = kinds[0]
        families = {
            "reduce": [f"warp.reduce <{k}> %x : {t}" for k in kinds] + [
                f"warp.reduce <{k0}> %x lanes = <first> : {t}",
                f"warp.reduce <{kinds[-1]}> %x cluster_size = 8 : {t}",
                f"warp.reduce <{k0}> %x cluster_size = 4 cluster_stride = 8 : {t}",
                f"warp.reduce <{kinds[2]}> %x valid_lanes %n : {t}",
                f"warp.reduce <{k0}> %x mask %m : {t}",
                f"warp.reduce <{kinds[1]}> %x mask %m cluster_size = 16 lanes = <first> : {t}",
                f"warp.reduce <{k0}> %x strategy = <tree> : {t}",
                f"warp.reduce <{kinds[3]}> %x cluster_size = 2 strategy = <butterfly> : {t}",
            ],
            "scan": [f"warp.scan <{k}> %x exclusive : {t}" for k in kinds] + [
                f"warp.scan <{k0}> %x : {t}",
                f"warp.scan <{kinds[1]}> %x reverse width 8 : {t}",
                f"warp.scan <{k0}> %x exclusive reverse : {t}",
                f"warp.scan <{kinds[2]}> %x init %x : {t}",
                f"warp.scan <{k0}> %x exclusive width 4 init %x : {t}",
                f"warp.scan <{kinds[-1]}> %x valid_lanes %n : {t}",
                f"warp.scan <{k0}> %x mask %m : {t}",
                f"warp.scan <{kinds[3]}> %x heads %h : {t}",
                f"warp.scan <{k0}> %x exclusive heads %h : {t}",
            ],
            "move": [
                f"warp.shuffle <idx> %x, %o : {t}",
                f"warp.shuffle <xor> %x, %o width 16 : {t}",
                f"warp.shuffle <up> %x, %o width %w : {t}",
                f"warp.shuffle <down> %x, %o mask %m : {t}",
                f"warp.shuffle <up> %x, %o bound %n mask %m : {t}",
                f"warp.broadcast %x, %o : {t}",
                f"warp.broadcast %x, %o mask %m : {t}",
                f"warp.broadcast_first %x : {t}",
                f"warp.broadcast_first %x mask %m : {t}",
            ],
        }
        # The verifier allows a forced redux for what redux.sync takes only.
        redux = ([k for k in kinds if k != "mul"] if t in ("i1", "i8", "i16", "i32")
                 else FLOAT_KINDS[2:] if t == "f32" else [])
        if redux:
            families["redux"] = [
                f"warp.reduce <{k}> %x strategy = <redux> : {t}" for k in redux] + [
                f"warp.reduce <{redux[0]}> %x mask %m strategy = <redux> : {t}"]
        for family, ops in families.items():
            body = []
            for i, op in enumerate(ops):
                results = f"%r{i}"
                if op.startswith("warp.shuffle"):
                    results += f", %v{i}"
                body.append(f"    {results} = {op}")
                body.append(f"    memref.store %r{i}, %out[%c0] : memref<4x{t}>")
            text = (
                "gpu.module @fuzz {\n"
                f"  func.func @{family}(%x: {t}, %n: i32, %m: i32, %h: i1, "
                f"%o: i32, %w: i32, %out: memref<4x{t}>) {{\n"
                "    %c0 = arith.constant 0 : index\n"
                + "\n".join(body) + "\n    return\n  }\n}\n")
            yield text


def main():
    out = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    os.makedirs(out, exist_ok=True)
    seeds = []
    for path in sources():
        for body in snippets(path):
            seeds.append(body)
            w = wrapped(body)
            if w:
                seeds.append(w)
    matrix = [m for m in matrix_seeds() if len(m.encode()) < 4095]
    unique = list(dict.fromkeys(seeds))
    # Short seeds first: libFuzzer mutates small inputs faster, and -max_len
    # caps every input at 4096 bytes anyway.
    unique = [s for s in unique if len(s.encode()) < 4095]
    unique.sort(key=len)
    unique = unique[:max(0, limit - len(matrix))] + matrix[:limit]
    seeds += matrix
    for name in os.listdir(out):
        if name.startswith("seed-"):
            os.remove(os.path.join(out, name))
    for i, body in enumerate(unique):
        data = SELECTORS[i % len(SELECTORS)].encode() + body.encode()
        digest = hashlib.sha1(data).hexdigest()[:16]
        with open(os.path.join(out, "seed-" + digest), "wb") as f:
            f.write(data)
    print("corpus: %d seeds in %s (from %d snippets: duplicates, too long or over the limit dropped: %d)"
          % (len(unique), out, len(seeds), len(seeds) - len(unique)))


if __name__ == "__main__":
    main()
