"""Robustness of libWarpSim: mutated PTX (tokens inserted, text cut) must be
parsed or refused with an error, and every entry of what parses must run
to completion or to a report, never crash the process (robustness.test).

    fuzz_ptx.py FILE.ptx SEED COUNT
"""
import os
import ctypes
import random
import sys
lib = ctypes.CDLL(os.environ["WARP_SIM_LIBRARY"])
lib.warpSimLoadPTX.restype = ctypes.c_void_p
lib.warpSimLoadPTX.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
lib.warpSimUnload.argtypes = [ctypes.c_void_p]
lib.warpSimFree.argtypes = [ctypes.c_void_p]
src = open(sys.argv[1]).read()
rng = random.Random(int(sys.argv[2]))
toks = sorted(set(src.replace("\n", " ").split(" "))) + [",", ";", "{", "}", "[", "]", "|", "!", "@", ":", "<", ">", "(", ")", "::", ".", "%", "0x", "-", "+", "=", '"']
ok = bad = 0
for i in range(int(sys.argv[3])):
    t = src
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(len(t) + 1)
        op = rng.randrange(3)
        if op == 0:
            t = t[:k] + rng.choice(toks) + t[k:]
        elif op == 1:
            t = t[:k] + t[k + rng.randint(1, 20):]
        else:
            t = t[:k]
    err = ctypes.c_void_p()
    h = lib.warpSimLoadPTX(t.encode(), ctypes.byref(err))
    if h:
        ok += 1
        lib.warpSimUnload(h)
    else:
        bad += 1
        lib.warpSimFree(err.value)
print("parsed", ok, "rejected", bad)

# Execution fuzz: launch every entry of mutated modules that parse.
import re
class Buf(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("bytes", ctypes.c_size_t)]
lib.warpSimParamSizes.restype = ctypes.c_int
lib.warpSimParamSizes.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t), ctypes.c_int]
lib.warpSimLaunch.restype = ctypes.c_void_p
lib.warpSimLaunch.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint * 3, ctypes.c_uint * 3, ctypes.c_uint, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.POINTER(Buf), ctypes.c_int, ctypes.c_uint, ctypes.c_void_p]
names = re.findall(r"\.entry\s+(\w+)", src)
mem = ctypes.create_string_buffer(1 << 16)
runs = reports = 0
for i in range(int(sys.argv[3])):
    t = src
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(t) + 1)
        t = t[:k] + rng.choice(toks) + t[k:] if rng.randrange(2) else t[:k] + t[k + rng.randint(1, 8):]
    err = ctypes.c_void_p()
    h = lib.warpSimLoadPTX(t.encode(), ctypes.byref(err))
    if not h:
        continue
    for name in names:
        sizes = (ctypes.c_size_t * 64)()
        n = lib.warpSimParamSizes(h, name.encode(), sizes, 64)
        if n < 0:
            continue
        keep = []
        for j in range(n):
            if sizes[j] == 8:
                keep.append(ctypes.c_uint64(ctypes.addressof(mem) + 4096))
            else:
                keep.append(ctypes.create_string_buffer(b"\x10" * sizes[j], sizes[j]))
        params = (ctypes.c_void_p * max(1, n))(*[ctypes.cast(ctypes.pointer(k), ctypes.c_void_p) if isinstance(k, ctypes.c_uint64) else ctypes.cast(k, ctypes.c_void_p) for k in keep])
        bufs = (Buf * 1)(Buf(ctypes.addressof(mem), 1 << 16))
        r = lib.warpSimLaunch(h, name.encode(), (ctypes.c_uint * 3)(2, 1, 1), (ctypes.c_uint * 3)(rng.choice([32, 48, 64]), 1, 1), 0, params, n, bufs, 1, rng.randrange(4), None)
        runs += 1
        if r:
            reports += 1
            lib.warpSimFree(r)
    lib.warpSimUnload(h)
print("launched", runs, "reports", reports)
