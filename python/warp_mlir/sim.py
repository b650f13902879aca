"""Launch compiled kernels on warp's SIMT simulator instead of a GPU.

`launch(..., backend="sim")` (or `sim.launch`) runs the PTX of a
`compile(..., format="ptx")` module on libWarpSim, the 32-lane interpreter
of PTX that the project's own GPU suite runs on in CI (docs/Simulator.md):
each lane has its own program counter, a `.sync` collective completes when
every lane of its member mask has arrived, and undefined behaviour (a
collective some member never reaches, an undefined value stored, an
out-of-bounds access) is raised as `SimError`, never guessed. It needs no
GPU and no CUDA driver; it is slow (about a million lane instructions a
second), so it suits the small grids of tests and debugging.

Arrays are host arrays (numpy, or anything with the array interface or a
CPU DLPack tensor) that the kernel reads and writes in place; the same
checks as the GPU launch apply to every argument, grid and block. The
library is found at $WARP_SIM_LIBRARY, next to the loaded libWarpCAPI.so
(the package's `_lib`, or the build tree's `lib`), or in the build tree
(_capi.build_directories).
"""
from __future__ import annotations

import ctypes
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Sequence, Union

from . import _capi
from .compiler import CompiledModule
from .cuda import (ArrayArgument, LaunchError, _params, launch_config, marshal_arguments,
                   pack_parameters)

_HERE = Path(__file__).resolve().parent

# Launch flags of warpSimLaunch (include/WarpDialect/Sim/Sim.h).
_ALLOW_UNDEFINED_STORES = 1
_SCHEDULE_HIGHEST_PC = 2
_COUNT_SHARED_BANKS = 4
_NO_RACE_CHECK = 8
_COUNT_GLOBAL_SECTORS = 16
_CORESIDENT_BLOCKS = 32
SCHEDULES = ("lowest-pc", "highest-pc")


class SimError(RuntimeError):
    """The simulator's report of undefined behaviour in a launch, or PTX
    outside the subset it runs."""


@dataclass
class SimStats:
    """What one simulated launch executed."""
    threads: int
    warp_instructions: int
    lane_instructions: int
    undefined_stores: int
    shared_requests: int = 0  # with count_shared_banks
    shared_wavefronts: int = 0
    global_load_requests: int = 0  # with count_global_sectors
    global_load_sectors: int = 0
    global_store_requests: int = 0
    global_store_sectors: int = 0


class _Buffer(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("bytes", ctypes.c_size_t)]


class _Stats(ctypes.Structure):
    _fields_ = [("threads", ctypes.c_uint64), ("warpInstructions", ctypes.c_uint64),
                ("laneInstructions", ctypes.c_uint64), ("undefinedStores", ctypes.c_uint64),
                ("sharedRequests", ctypes.c_uint64), ("sharedWavefronts", ctypes.c_uint64),
                ("globalLoadRequests", ctypes.c_uint64), ("globalLoadSectors", ctypes.c_uint64),
                ("globalStoreRequests", ctypes.c_uint64), ("globalStoreSectors", ctypes.c_uint64)]


def library_candidates() -> List[Path]:
    candidates = []
    if os.environ.get("WARP_SIM_LIBRARY"):
        candidates.append(Path(os.environ["WARP_SIM_LIBRARY"]))
    candidates.append(_HERE / "_lib" / "libWarpSim.so")
    try:
        _capi.lib()
        if _capi.lib_path:
            candidates.append(Path(_capi.lib_path).parent / "libWarpSim.so")
    except ImportError:
        pass
    candidates += [build / "lib" / "libWarpSim.so" for build in _capi.build_directories()]
    return candidates


_lib: Optional[ctypes.CDLL] = None


# Parsed modules by their PTX, the most recently used last: a launch only
# reads its module (the simulator keeps no state in it between launches),
# and a device op's launches reuse one module of up to dozens of kernels,
# which parsing again for each launch made the costliest step.
_MODULES: "OrderedDict[bytes, int]" = OrderedDict()
_MAX_MODULES = 16


def _load(L: ctypes.CDLL, ptx: bytes) -> int:
    """The parsed module of `ptx`, from the cache or parsed now; raises
    SimError where the simulator cannot take the PTX."""
    module = _MODULES.get(ptx)
    if module is not None:
        _MODULES.move_to_end(ptx)
        return module
    error = ctypes.c_void_p()
    module = L.warpSimLoadPTX(ptx, ctypes.byref(error))
    if not module:
        raise SimError(f"the simulator cannot run this PTX: {_take_text(L, error.value)}")
    _MODULES[ptx] = module
    if len(_MODULES) > _MAX_MODULES:
        _, oldest = _MODULES.popitem(last=False)
        L.warpSimUnload(oldest)
    return module


def lib() -> ctypes.CDLL:
    """libWarpSim, loaded once, with its prototypes declared."""
    global _lib
    if _lib is not None:
        return _lib
    L, _ = _capi.load_first(library_candidates(), "warp_mlir.sim: cannot find libWarpSim.so "
                            "(set WARP_SIM_LIBRARY or build the WarpSim target)")
    L.warpSimLoadPTX.restype = ctypes.c_void_p
    L.warpSimLoadPTX.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    L.warpSimUnload.argtypes = [ctypes.c_void_p]
    L.warpSimParamSizes.restype = ctypes.c_int
    L.warpSimParamSizes.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                    ctypes.POINTER(ctypes.c_size_t), ctypes.c_int]
    L.warpSimLaunch.restype = ctypes.c_void_p
    L.warpSimLaunch.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint),
                                ctypes.POINTER(ctypes.c_uint), ctypes.c_uint,
                                ctypes.POINTER(ctypes.c_void_p), ctypes.c_int,
                                ctypes.POINTER(_Buffer), ctypes.c_int, ctypes.c_uint,
                                ctypes.POINTER(_Stats)]
    L.warpSimFree.argtypes = [ctypes.c_void_p]
    _lib = L
    return L


def _take_text(L: ctypes.CDLL, pointer: Optional[int]) -> str:
    text = ctypes.string_at(pointer).decode("utf-8", errors="replace")
    L.warpSimFree(pointer)
    return text


def line_aligned(n: int, dtype: Any, fill: Any = 0, skip: int = 0) -> Any:
    """A numpy array of `n` elements of `fill` starting `skip` elements past
    a 256-byte boundary: as cudaMalloc's arrays start (skip 0), or a view
    into one (numpy's own arrays start on 16 bytes). Kernels that align
    their accesses by address (the selections' copy-out) then see the
    lines that `count_global_sectors` numbers from the array's start."""
    import numpy as np
    item = np.dtype(dtype).itemsize
    buffer = np.full(n + skip + 256 // item, fill, dtype)
    start = (-buffer.ctypes.data % 256) // item + skip
    return buffer[start:start + n]


def launch(compiled: CompiledModule, kernel: str, grid: Union[int, Sequence[int]],
           block: Union[int, Sequence[int]], *args: Any, shared_bytes: int = 0,
           allow_undefined_stores: bool = False, schedule: str = "lowest-pc",
           count_shared_banks: bool = False, count_global_sectors: bool = False,
           race_check: bool = True, coresident: Optional[bool] = None) -> SimStats:
    """Runs `kernel` of `compiled` (PTX) on the simulator, with the
    arguments, grid and block checked as `warp_mlir.launch` checks them.
    Array arguments must be host arrays; the kernel writes them in place.
    `allow_undefined_stores` counts undefined values stored to memory (a
    shuffle from a lane outside its mask) instead of raising; `schedule`
    picks which diverged lanes run first ("lowest-pc" or "highest-pc", both
    legal under independent thread scheduling); `count_shared_banks` also
    counts the shared-memory requests and their bank wavefronts (slower);
    `count_global_sectors` the global-memory loads and stores (per warp)
    and the 32-byte sectors they touch, numbered from each array's start
    (their coalescing);
    `race_check` reports shared-memory accesses of different threads that
    no barrier (between lanes of a warp, also no __syncwarp) orders, one
    of them a write, as undefined behaviour; `coresident` runs a grid of
    blocks without clusters eight at a time, their warps taking turns and
    yielding at each nanosleep (WARP_SIM_CORESIDENT_BLOCKS: blocks that
    wait on each other through global memory, as a look-back, meet
    predecessors midway); by default where the environment sets
    WARP_SIM_CORESIDENT_BLOCKS=1, so that launches made for you (the
    device ops') run so too. Raises SimError with the
    simulator's report on undefined behaviour; returns the launch's
    counts."""
    params = _params(compiled, kernel, len(args))
    grid3, block3 = launch_config(grid, block, shared_bytes)
    if compiled.format != "ptx":
        raise ValueError(f"the simulator runs PTX; {kernel}'s module was compiled to "
                         f"{compiled.format} (compile with format='ptx')")
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, not {schedule!r}")
    if coresident is None:
        coresident = os.environ.get("WARP_SIM_CORESIDENT_BLOCKS") == "1"
    arguments = marshal_arguments(compiled, kernel, args)
    buffers = []
    copies = []  # writable copies of read-only host arrays, alive until the launch ends
    for argument in arguments:
        if not isinstance(argument, ArrayArgument):
            continue
        if argument.host is None:
            raise LaunchError(f"argument {argument.position} is a device array; the simulator "
                              f"takes host arrays (numpy, CPU tensors)")
        address, nbytes = argument.host
        if not argument.writable:
            scratch = ctypes.create_string_buffer(ctypes.string_at(address, nbytes), max(nbytes, 1))
            copies.append(scratch)
            address = ctypes.addressof(scratch)
        argument.pointer = address
        buffers.append(_Buffer(address, nbytes))
    words = pack_parameters(params, arguments, compiled.bare_pointers)

    L = lib()
    module = _load(L, compiled.binary)
    name = kernel.encode()
    sizes = (ctypes.c_size_t * max(len(words), 1))()
    count = L.warpSimParamSizes(module, name, sizes, len(words))
    if count < 0:
        raise SimError(f"the PTX has no entry {kernel}")
    if count != len(words) or any(sizes[i] != ctypes.sizeof(w) for i, w in enumerate(words)):
        raise SimError(f"{kernel}'s PTX parameters ({count}) do not match the "
                       f"{len(words)} words its signature packs")
    pointers = (ctypes.c_void_p * max(len(words), 1))(
        *[ctypes.cast(ctypes.byref(w), ctypes.c_void_p) for w in words])
    flags = (_ALLOW_UNDEFINED_STORES if allow_undefined_stores else 0) | \
            (_SCHEDULE_HIGHEST_PC if schedule == "highest-pc" else 0) | \
            (_COUNT_SHARED_BANKS if count_shared_banks else 0) | \
            (_COUNT_GLOBAL_SECTORS if count_global_sectors else 0) | \
            (0 if race_check else _NO_RACE_CHECK) | \
            (_CORESIDENT_BLOCKS if coresident else 0)
    stats = _Stats()
    report = L.warpSimLaunch(module, name, (ctypes.c_uint * 3)(*grid3),
                             (ctypes.c_uint * 3)(*block3), shared_bytes, pointers,
                             len(words), (_Buffer * max(len(buffers), 1))(*buffers),
                             len(buffers), flags, ctypes.byref(stats))
    if report:
        raise SimError(f"{kernel}: {_take_text(L, report)}")
    return SimStats(stats.threads, stats.warpInstructions, stats.laneInstructions,
                    stats.undefinedStores, stats.sharedRequests, stats.sharedWavefronts,
                    stats.globalLoadRequests, stats.globalLoadSectors,
                    stats.globalStoreRequests, stats.globalStoreSectors)
