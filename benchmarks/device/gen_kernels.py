#!/usr/bin/env python3
"""Writes benchmarks/device/*.mlir: device-wide kernels built from warp ops
(reduce, dot, single-pass scan with decoupled look-back, stream compaction,
block reduce/scan micro-kernels), timed by benchmarks/device_bench.py.

    python3 benchmarks/device/gen_kernels.py        # rewrites the .mlir files
    python3 benchmarks/device/gen_kernels.py --check  # fails if they are stale

The kernels are what a frontend would emit; the generator only saves writing
the variants by hand: element type, inclusive/exclusive, block size, and the
three code-shape levers that device_bench.py measures on/off:
  vec     grid-stride loads of vector<4xT> (`vector.load {alignment = 16}`,
          PTX ld.global.v4) instead of one element per load;
  nc      read-only inputs loaded through `llvm.load ... invariant` on the
          aligned pointer (PTX ld.global.nc: the read-only data path);
          *_argattrs kernels get it from the compiler instead: plain loads
          of inputs marked {llvm.noalias, llvm.readonly};
  unroll  U independent accumulators per grid-stride trip (U loads in flight).

ABI of every kernel (what device_bench.py passes): a memref<?xT> is the
expanded descriptor (allocated ptr, aligned ptr, offset, size, stride), an
index is a 64-bit integer. Inputs are contiguous (stride 1) and 16-byte
aligned at aligned ptr + offset (the harness passes offset 0).
"""
import argparse
import contextlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Scan tiles (scan_like_kernel): 256 threads x 16 consecutive items; kernels
# named *_itemsN take N items per thread.
SCAN_THREADS = 256
SCAN_ITEMS = 16
# Look-back pacing (nanoseconds): between polls, and before the first poll.
POLL_NS, SETTLE_NS = 648, 1245
# Blocks per SM the compaction kernels ask for (select_gt_f32_occ4: none,
# 64 registers, 4 blocks).
SELECT_MIN_BLOCKS = 5
# Items per thread of select_kernel's tiles (256 x 24;
# benchmarks/device_bench.py's ANY_N_ITEMS must agree).
SELECT_ITEMS = 24
# Tile status words: (flag << 32) | 32-bit value; flag 0 = not ready,
# 1 = block aggregate only, 2 = inclusive prefix.
FLAG_AGG, FLAG_PREFIX = 1, 2


def kernel_head(name, args, workgroup, threads, min_blocks=None):
    """The first line of a gpu.func kernel of a known 1-D block of
    `threads`: its arguments, its workgroup buffers (none when empty) and,
    with `min_blocks`, the blocks per SM it must fit (`nvvm.minctasm`)."""
    return (f"  gpu.func @{name}({args}) " + (f"workgroup({workgroup}) " if workgroup else "")
            + f"kernel attributes {{known_block_size = array<i32: {threads}, 1, 1>"
            + (f", nvvm.minctasm = {min_blocks} : i32" if min_blocks else "") + "} {")


class Emitter:
    """A tiny SSA text builder: v() names values, emit() appends lines."""

    def __init__(self):
        self.lines = []
        self.count = 0
        self.indent = 2

    def v(self, hint="v"):
        self.count += 1
        return f"%{hint}{self.count}"

    def emit(self, text):
        self.lines.append("  " * self.indent + text)

    def op(self, text, hint="v"):
        name = self.v(hint)
        self.emit(f"{name} = {text}")
        return name

    def const(self, value, ty):
        return self.op(f"arith.constant {value} : {ty}", "c")

    @contextlib.contextmanager
    def region(self, header):
        """`header {`, what the body emits one level in, then `}`."""
        self.emit(header + " {")
        self.indent += 1
        yield
        self.indent -= 1
        self.emit("}")

    def load_if(self, cond, ty, load, otherwise):
        """`load` (an op's text) where `cond` holds, else the value
        `otherwise`: an scf.if with one result."""
        result = self.v()
        with self.region(f"{result} = scf.if {cond} -> {ty}"):
            self.emit(f"scf.yield {self.op(load)} : {ty}")
            self.otherwise()
            self.emit(f"scf.yield {otherwise} : {ty}")
        return result

    def otherwise(self, text="} else {"):
        """Inside region(): closes the first region and opens the next one
        (`} else {` of an scf.if, or `} do {` of an scf.while)."""
        self.indent -= 1
        self.emit(text)
        self.indent += 1

    def idx(self, value):
        return self.const(value, "index")


def zero_of(ty):
    return "0.0" if ty.startswith("f") else "0"


def add_op(ty):
    return "arith.addf" if ty.startswith("f") else "arith.addi"


def element_ptr(e, memref, ty, index64):
    """!llvm.ptr<1> to element `index64` (i64) of memref<?xT> from its
    aligned pointer (the memref's offset is not added: the harness passes 0)."""
    base = e.op(f"memref.extract_aligned_pointer_as_index {memref} : memref<?x{ty}> -> index")
    b64 = e.op(f"arith.index_cast {base} : index to i64")
    ptr = e.op(f"llvm.inttoptr {b64} : i64 to !llvm.ptr<1>")
    return e.op(f"llvm.getelementptr inbounds {ptr}[{index64}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {ty}")


def load(e, memref, ty, index, nc, vec=None):
    """Element `index` of memref<?xT>, or vector<vec x T> from there (then
    16-byte aligned); nc: through an invariant load (ld.global.nc)."""
    vty = f"vector<{vec}x{ty}>" if vec else ty
    align = 4 * (vec or 1)
    if not nc:
        if not vec:
            return e.op(f"memref.load {memref}[{index}] : memref<?x{ty}>")
        return e.op(f"vector.load {memref}[{index}] {{alignment = {align}}} : memref<?x{ty}>, {vty}")
    i64 = e.op(f"arith.index_cast {index} : index to i64")
    ptr = element_ptr(e, memref, ty, i64)
    return e.op(f"llvm.load {ptr} invariant {{alignment = {align} : i64}} : !llvm.ptr<1> -> {vty}")


def warp_and_lane(e, tid):
    """(warp index, lane, lane == 0) of thread `tid` (index) of a 1-D block."""
    c32 = e.idx(32)
    wid = e.op(f"arith.divui {tid}, {c32} : index", "wid")
    lane = e.op(f"arith.remui {tid}, {c32} : index", "lane")
    first = e.op(f"arith.cmpi eq, {lane}, {e.idx(0)} : index")
    return wid, lane, first


def block_reduce_to_first(e, value, ty, tid, threads, smem, store):
    """Block-wide sum of `value`; `store(e, result)` runs in thread 0."""
    c0 = e.idx(0)
    red = e.op(f"warp.reduce <add> {value} lanes = <first> : {ty}", "wsum")
    wid, lane, first = warp_and_lane(e, tid)
    with e.region(f"scf.if {first}"):
        e.emit(f"memref.store {red}, {smem}[{wid}] : memref<{threads // 32}x{ty}, #gpu.address_space<workgroup>>")
    e.emit("gpu.barrier")
    warp0 = e.op(f"arith.cmpi eq, {wid}, {c0} : index")
    with e.region(f"scf.if {warp0}"):
        nw = e.idx(threads // 32)
        live = e.op(f"arith.cmpi ult, {lane}, {nw} : index")
        z = e.const(zero_of(ty), ty)
        part = e.load_if(live, ty, f"memref.load {smem}[{lane}] : memref<{threads // 32}x{ty}, "
                         "#gpu.address_space<workgroup>>", z)
        total = e.op(f"warp.reduce <add> {part} lanes = <first> : {ty}", "bsum")
        with e.region(f"scf.if {first}"):
            store(e, total)


def reduce_kernel(name, ty, dot=False, vec=True, nc=True, unroll=2, threads=256, idx32=False,
                  argattrs=False, even_share=False):
    """Grid-stride partial sums: one value per block into %part[block].
    idx32: the index arithmetic (thread ids, trip counts, loop counters,
    element offsets) in i32, widened only at the address (needs n < 2^31).
    argattrs: the inputs are marked {llvm.noalias, llvm.readonly} (the
    compiler's ld.global.nc, with nc=False: plain loads).
    even_share: each block sums one contiguous range of chunks (CUB's
    even-share grid: ceil(chunks / (grid x threads)) chunks per thread),
    its threads striding by the block size, instead of the grid-stride
    loop over the whole input."""
    e = Emitter()
    it = "i32" if idx32 else "index"

    def ic(value):
        return e.const(value, it)

    def to_it(value):
        return e.op(f"arith.index_castui {value} : index to i32") if idx32 else value
    attrs = " {llvm.noalias, llvm.readonly}" if argattrs else ""
    args = f"%in: memref<?x{ty}>{attrs}, " + (f"%in2: memref<?x{ty}>{attrs}, " if dot else "") + \
        f"%part: memref<?x{ty}>, %n: index"
    head = kernel_head(name, args, f"%sm: memref<{threads // 32}x{ty}, #gpu.address_space<workgroup>>", threads)
    width = 4 if vec else 1
    c0, c1 = ic(0), ic(1)
    cw = ic(width)
    cb = ic(threads)
    tid_index = e.op("gpu.thread_id x", "tid")
    bid_index = e.op("gpu.block_id x", "bid")
    tid, bid = to_it(tid_index), to_it(bid_index)
    grid = to_it(e.op("gpu.grid_dim x", "grid"))
    n = to_it("%n")
    bb = e.op(f"arith.muli {bid}, {cb} : {it}")
    gid = e.op(f"arith.addi {bb}, {tid} : {it}", "gid")
    all_threads = e.op(f"arith.muli {grid}, {cb} : {it}", "stride")
    chunks = e.op(f"arith.divui {n}, {cw} : {it}", "chunks")
    if even_share:
        # Block b: chunks [b S, min(b S + S, chunks)), S = threads x
        # ceil(chunks / (grid x threads)); thread t from b S + t by threads.
        per_thread = e.op(f"arith.ceildivui {chunks}, {all_threads} : {it}")
        share = e.op(f"arith.muli {per_thread}, {cb} : {it}")
        start = e.op(f"arith.muli {bid}, {share} : {it}")
        end = e.op(f"arith.minui {e.op(f'arith.addi {start}, {share} : {it}')}, {chunks} : {it}")
        first_chunk = e.op(f"arith.addi {start}, {tid} : {it}", "first")
        stride, limit = cb, end
    else:
        first_chunk, stride, limit = gid, all_threads, chunks
    # Trips of this thread: ceil((limit - first) / stride) when first < limit.
    inside = e.op(f"arith.cmpi ult, {first_chunk}, {limit} : {it}")
    d = e.op(f"arith.subi {limit}, {first_chunk} : {it}")
    d1 = e.op(f"arith.addi {d}, {stride} : {it}")
    d2 = e.op(f"arith.subi {d1}, {c1} : {it}")
    q = e.op(f"arith.divui {d2}, {stride} : {it}")
    trips = e.op(f"arith.select {inside}, {q}, {c0} : {it}", "trips")
    cu = ic(unroll)
    groups = e.op(f"arith.divui {trips}, {cu} : {it}", "groups")
    main_end = e.op(f"arith.muli {groups}, {cu} : {it}")
    vty = f"vector<{width}x{ty}>" if vec else ty
    zv = e.const(f"dense<{zero_of(ty)}>" if vec else zero_of(ty), vty)
    step_u = e.op(f"arith.muli {stride}, {cu} : {it}")

    def combine(acc, x, y=None):
        if dot:
            return e.op(f"math.fma {x}, {y}, {acc} : {vty}")
        return e.op(f"{add_op(ty)} {acc}, {x} : {vty}")

    def load_at(chunk):
        elem = e.op(f"arith.muli {chunk}, {cw} : {it}")
        if idx32:
            elem = e.op(f"arith.index_castui {elem} : i32 to index")
        if vec:
            a = load(e, "%in", ty, elem, nc, 4)
            b = load(e, "%in2", ty, elem, nc, 4) if dot else None
        else:
            a = load(e, "%in", ty, elem, nc)
            b = load(e, "%in2", ty, elem, nc) if dot else None
        return a, b

    loop_ty = " : i32" if idx32 else ""
    accs = [e.v("acc") for _ in range(unroll)]
    res = e.v("accs")
    k = e.v("k")
    iters = ", ".join(f"{a} = {zv}" for a in accs)
    types = ", ".join([vty] * unroll)
    with e.region(f"{res}:{unroll} = scf.for {k} = {c0} to {groups} step {c1} iter_args({iters}) -> ({types}){loop_ty}"):
        base = e.op(f"arith.muli {k}, {step_u} : {it}")
        first = e.op(f"arith.addi {first_chunk}, {base} : {it}")
        loads = []
        for u in range(unroll):
            off = ic(u)
            su = e.op(f"arith.muli {off}, {stride} : {it}")
            chunk = e.op(f"arith.addi {first}, {su} : {it}")
            loads.append(load_at(chunk))
        outs = [combine(accs[u], *loads[u]) for u in range(unroll)]
        e.emit(f"scf.yield {', '.join(outs)} : {types}")
    parts = [f"{res}#{u}" for u in range(unroll)]
    while len(parts) > 1:
        parts = [e.op(f"{add_op(ty)} {parts[i]}, {parts[i + 1]} : {vty}") for i in range(0, len(parts), 2)]
    acc = parts[0]
    rest = e.v("rest")
    k2 = e.v("k")
    a2 = e.v("a")
    with e.region(f"{rest} = scf.for {k2} = {main_end} to {trips} step {c1} iter_args({a2} = {acc}) -> ({vty}){loop_ty}"):
        m = e.op(f"arith.muli {k2}, {stride} : {it}")
        chunk = e.op(f"arith.addi {first_chunk}, {m} : {it}")
        x, y = load_at(chunk)
        e.emit(f"scf.yield {combine(a2, x, y)} : {vty}")
    if vec:
        kind = "<add>"
        s = e.op(f"vector.reduction {kind}, {rest} : {vty} into {ty}")
    else:
        s = rest
    # Elements past the last whole chunk: one per thread of the first threads.
    done = e.op(f"arith.muli {chunks}, {cw} : {it}")
    tail = e.op(f"arith.subi {n}, {done} : {it}")
    in_tail = e.op(f"arith.cmpi ult, {gid}, {tail} : {it}")
    t = e.v("t")
    with e.region(f"{t} = scf.if {in_tail} -> {ty}"):
        at = e.op(f"arith.addi {done}, {gid} : {it}")
        if idx32:
            at = e.op(f"arith.index_castui {at} : i32 to index")
        tx = e.op(f"memref.load %in[{at}] : memref<?x{ty}>")
        if dot:
            ty2 = e.op(f"memref.load %in2[{at}] : memref<?x{ty}>")
            tx = e.op(f"arith.mulf {tx}, {ty2} : {ty}")
        e.emit(f"scf.yield {tx} : {ty}")
        e.otherwise()
        zs = e.const(zero_of(ty), ty)
        e.emit(f"scf.yield {zs} : {ty}")
    total = e.op(f"{add_op(ty)} {s}, {t} : {ty}")
    block_reduce_to_first(e, total, ty, tid_index, threads, "%sm",
                          lambda e, r: e.emit(f"memref.store {r}, %part[{bid_index}] : memref<?x{ty}>"))
    e.emit("gpu.return")
    return head + "\n" + "\n".join(e.lines) + "\n  }\n"


def finish_kernel(name, ty, threads=1024):
    """One block: %out[0] = sum of %part[0 .. %m)."""
    e = Emitter()
    head = kernel_head(name, f"%part: memref<?x{ty}>, %out: memref<?x{ty}>, %m: index",
                       f"%sm: memref<{threads // 32}x{ty}, #gpu.address_space<workgroup>>", threads)
    c0 = e.idx(0)
    cb = e.idx(threads)
    tid = e.op("gpu.thread_id x", "tid")
    z = e.const(zero_of(ty), ty)
    acc = e.v("acc")
    i = e.v("i")
    a = e.v("a")
    with e.region(f"{acc} = scf.for {i} = {tid} to %m step {cb} iter_args({a} = {z}) -> ({ty})"):
        x = e.op(f"memref.load %part[{i}] : memref<?x{ty}>")
        e.emit(f"scf.yield {e.op(f'{add_op(ty)} {a}, {x} : {ty}')} : {ty}")
    block_reduce_to_first(e, acc, ty, tid, threads, "%sm",
                          lambda e, r: e.emit(f"memref.store {r}, %out[{c0}] : memref<?x{ty}>"))
    e.emit("gpu.return")
    return head + "\n" + "\n".join(e.lines) + "\n  }\n"


def to_bits(e, value, ty):
    """The 32 bits of `value` as i64 (zero-extended)."""
    if ty == "f32":
        value = e.op(f"arith.bitcast {value} : f32 to i32")
    return e.op(f"arith.extui {value} : i32 to i64")


def from_bits(e, word, ty):
    low = e.op(f"arith.trunci {word} : i64 to i32")
    if ty == "f32":
        return e.op(f"arith.bitcast {low} : i32 to f32")
    return low


def publish(e, status, tile64, flag, value, ty, order="release"):
    """status[1 + tile] = (flag << 32) | bits(value), an atomic store with
    memory `order` (the word carries the value: relaxed is enough)."""
    bits = to_bits(e, value, ty)
    hi = e.const(flag << 32, "i64")
    word = e.op(f"arith.ori {bits}, {hi} : i64")
    one = e.const(1, "i64")
    slot = e.op(f"arith.addi {tile64}, {one} : i64")
    p = element_ptr(e, status, "i64", slot)
    e.emit(f'llvm.store {word}, {p} atomic syncscope("device") {order} {{alignment = 8 : i64}} : i64, !llvm.ptr<1>')


def tile_prologue(e, threads, ticket=True):
    """Claims the next tile in launch order (thread 0, atomic counter in
    %status[0]) and shares it through workgroup memory; without `ticket`
    the tile is the block index (CUB's choice: it relies on blocks starting
    in index order)."""
    c0 = e.idx(0)
    tid = e.op("gpu.thread_id x", "tid")
    if not ticket:
        tile = e.op("gpu.block_id x", "tile")
        tile64 = e.op(f"arith.index_cast {tile} : index to i64")
        return tid, tile64, tile
    is0 = e.op(f"arith.cmpi eq, {tid}, {c0} : index")
    with e.region(f"scf.if {is0}"):
        one = e.const(1, "i64")
        got = e.op(f"memref.atomic_rmw addi {one}, %status[{c0}] : (i64, memref<?xi64>) -> i64")
        e.emit(f"memref.store {got}, %tile_sm[{c0}] : memref<1xi64, #gpu.address_space<workgroup>>")
    e.emit("gpu.barrier")
    tile64 = e.op(f"memref.load %tile_sm[{c0}] : memref<1xi64, #gpu.address_space<workgroup>>", "tile")
    tile = e.op(f"arith.index_cast {tile64} : i64 to index")
    return tid, tile64, tile


def look_back(e, ty, tile64, agg, order="acquire", poll_ns=0):
    """Exclusive prefix of tile `tile64` (> 0), run by one whole warp: a
    window of 32 predecessors per step, each lane spinning (loads with
    memory `order`, `poll_ns` of nanosleep between polls) until every
    lane's tile is ready; the window stops at the nearest tile with an
    inclusive prefix."""
    add = add_op(ty)
    z = e.const(zero_of(ty), ty)
    lane32 = e.op("warp.lane_id : i32", "lane")
    lane64 = e.op(f"arith.extui {lane32} : i32 to i64")
    one = e.const(1, "i64")
    zero64 = e.const(0, "i64")
    c32 = e.const(32, "i64")
    mask32 = e.const(0xFFFFFFFF, "i64")
    start = e.op(f"arith.subi {tile64}, {one} : i64")
    res = e.v("lb")
    end, acc = e.v("end"), e.v("acc")
    # scf.while (window end, accumulated, continue?)
    with e.region(f"{res}:2 = scf.while ({end} = {start}, {acc} = {z}) : (i64, {ty}) -> (i64, {ty})"):
        # Before region: read the window, decide whether another one is needed.
        pred = e.op(f"arith.subi {end}, {lane64} : i64")
        valid = e.op(f"arith.cmpi sge, {pred}, {zero64} : i64")
        slot = e.op(f"arith.addi {pred}, {one} : i64")
        # Lanes past tile 0 read nothing: they count as an inclusive prefix of 0.
        none = e.const(FLAG_PREFIX << 32, "i64")
        p = element_ptr(e, "%status", "i64", slot)
        word = e.v("word")
        spin = e.v("spin")
        with e.region(f"{word} = scf.while ({spin} = {zero64}) : (i64) -> i64"):
            w = e.load_if(valid, "i64", f'llvm.load {p} atomic syncscope("device") {order} '
                          '{alignment = 8 : i64} : !llvm.ptr<1> -> i64', none)
            flag = e.op(f"arith.shrui {w}, {c32} : i64")
            waiting = e.op(f"arith.cmpi eq, {flag}, {zero64} : i64")
            anyw = e.op(f"warp.vote <any> {waiting} : i1")
            e.emit(f"scf.condition({anyw}) {w} : i64")
            e.otherwise("} do {")
            e.emit(f"^bb0({e.v('x')}: i64):")
            if poll_ns:
                e.emit(f"nvvm.nanosleep {e.const(poll_ns, 'i32')}")
            e.emit(f"scf.yield {zero64} : i64")
        flag = e.op(f"arith.shrui {word}, {c32} : i64")
        fp = e.const(FLAG_PREFIX, "i64")
        isp = e.op(f"arith.cmpi eq, {flag}, {fp} : i64")
        ballot = e.op(f"warp.ballot {isp} : i32", "ballot")
        zero32 = e.const(0, "i32")
        found = e.op(f"arith.cmpi ne, {ballot}, {zero32} : i32")
        # Lanes up to the nearest inclusive prefix (lowest set lane) count.
        nearest = e.op(f"math.cttz {ballot} : i32")
        upto = e.op(f"arith.cmpi ule, {lane32}, {nearest} : i32")
        low = e.op(f"arith.andi {word}, {mask32} : i64")
        val = from_bits(e, low, ty)
        counted = e.op(f"arith.select {upto}, {val}, {z} : {ty}")
        s = e.op(f"warp.reduce <add> {counted} : {ty}")
        acc2 = e.op(f"{add} {acc}, {s} : {ty}")
        nxt = e.op(f"arith.subi {end}, {c32} : i64")
        more = e.op(f"arith.xori {found}, %true : i1")
        e.emit(f"scf.condition({more}) {nxt}, {acc2} : i64, {ty}")
        e.otherwise("} do {")
        a1, a2 = e.v("e"), e.v("a")
        e.emit(f"^bb0({a1}: i64, {a2}: {ty}):")
        e.emit(f"scf.yield {a1}, {a2} : i64, {ty}")
    return f"{res}#1"


def warp_prefix_and_total(e, wid, nw, ty):
    """After the barrier that follows each warp's lane storing its warp's
    total into %warp_sm[warp]: (sum of the totals of the warps before warp
    `wid`, sum of all `nw`), read by every thread (nw words, no second
    barrier)."""
    add = add_op(ty)
    z = e.const(zero_of(ty), ty)
    wpre = agg = z
    for j in range(nw):
        x = e.op(f"memref.load %warp_sm[{e.idx(j)}] : memref<{nw}x{ty}, #gpu.address_space<workgroup>>")
        before = e.op(f"arith.cmpi ugt, {wid}, {e.idx(j)} : index")
        xb = e.op(f"arith.select {before}, {x}, {z} : {ty}")
        wpre = e.op(f"{add} {wpre}, {xb} : {ty}")
        agg = e.op(f"{add} {agg}, {x} : {ty}")
    return wpre, agg


def tile_prefix(e, tile64, wid, first, agg, ty, relaxed, poll_ns, settle_ns, at_prefix=None):
    """Decoupled look-back of tile `tile64` with aggregate `agg`, run by warp
    0: publishes the aggregate (tile 0: its inclusive prefix), waits
    `settle_ns`, looks back (`relaxed`: monotonic status words, else
    release/acquire; `poll_ns` between polls), publishes the inclusive
    prefix; its lane 0 parks the exclusive prefix in %pre_sm and runs
    at_prefix(e, prefix). Returns the prefix as every thread reads it after
    a barrier."""
    add = add_op(ty)
    c0 = e.idx(0)
    z = e.const(zero_of(ty), ty)
    store_order = "monotonic" if relaxed else "release"
    warp0 = e.op(f"arith.cmpi eq, {wid}, {c0} : index")
    with e.region(f"scf.if {warp0}"):
        zero64 = e.const(0, "i64")
        t0 = e.op(f"arith.cmpi eq, {tile64}, {zero64} : i64")
        pre = e.v("pre")
        with e.region(f"{pre} = scf.if {t0} -> {ty}"):
            with e.region(f"scf.if {first}"):
                publish(e, "%status", tile64, FLAG_PREFIX, agg, ty, store_order)
            e.emit(f"scf.yield {z} : {ty}")
            e.otherwise()
            with e.region(f"scf.if {first}"):
                publish(e, "%status", tile64, FLAG_AGG, agg, ty, store_order)
            if settle_ns:
                e.emit(f"nvvm.nanosleep {e.const(settle_ns, 'i32')}")
            got = look_back(e, ty, tile64, agg, "monotonic" if relaxed else "acquire", poll_ns)
            incl = e.op(f"{add} {got}, {agg} : {ty}")
            with e.region(f"scf.if {first}"):
                publish(e, "%status", tile64, FLAG_PREFIX, incl, ty, store_order)
            e.emit(f"scf.yield {got} : {ty}")
        with e.region(f"scf.if {first}"):
            e.emit(f"memref.store {pre}, %pre_sm[{c0}] : memref<1x{ty}, #gpu.address_space<workgroup>>")
            if at_prefix:
                at_prefix(e, pre)
    e.emit("gpu.barrier")
    return e.op(f"memref.load %pre_sm[{c0}] : memref<1x{ty}, #gpu.address_space<workgroup>>")


def padded(e, at, ty):
    """at + at / 32: one padding word per 32, so that 32 lanes writing or
    reading 16 consecutive words each (stride 16) hit 32 distinct banks."""
    five = e.const(5, ty)
    return e.op(f"arith.addi {at}, {e.op(f'arith.shrui {at}, {five} : {ty}')} : {ty}")


def copy_staged(e, tid, threads, items, prefix, kept, keep_type, slot):
    """out[prefix + i] = %keep_sm[slot(j, i)], the i-th kept item of the tile
    staged in workgroup memory, for i = tid + threads j < kept, j < items
    (unrolled: independent loads and stores in flight)."""
    start = e.op(f"arith.index_cast {prefix} : i32 to index")
    count = e.op(f"arith.index_cast {kept} : i32 to index")
    for j in range(items):
        i = e.op(f"arith.addi {tid}, {e.idx(j * threads)} : index")
        live = e.op(f"arith.cmpi ult, {i}, {count} : index")
        with e.region(f"scf.if {live}"):
            v = e.op(f"memref.load %keep_sm[{slot(j, i)}] : {keep_type}")
            at = e.op(f"arith.addi {start}, {i} : index")
            e.emit(f"memref.store {v}, %out[{at}] : memref<?xf32>")


def store_kept(e, flags, vals, kept_before, base, memref, memref_type, pad=False):
    """memref[base + kept_before[j]] = vals[j] where flags[j] (i32 positions;
    `pad`: at padded positions)."""
    for flag, value, before in zip(flags, vals, kept_before):
        with e.region(f"scf.if {flag}"):
            at = e.op(f"arith.addi {base}, {before} : i32")
            if pad:
                at = padded(e, at, "i32")
            at = e.op(f"arith.index_cast {at} : i32 to index")
            e.emit(f"memref.store {value}, {memref}[{at}] : {memref_type}")


def scan_like_kernel(name, ty, mode, nc=True, items=SCAN_ITEMS, staged=True, exchange="warp",
                     relaxed=True, poll_ns=POLL_NS, settle_ns=SETTLE_NS, ticket=False,
                     min_blocks=None):
    """Single-pass tile scan (mode 'incl' / 'excl') or order-preserving
    selection of x > %thr (mode 'select') with decoupled look-back; a tile is
    256 threads x `items` consecutive items (a multiple of 4). The levers
    (benchmarks/device/scan_probe.cu measured each in CUDA first):
      exchange  "warp": coalesced loads of each warp's 32 x items segment
                (lane l: items l, l + 32, ...) and `warp.exchange` to the
                blocked arrangement, and back for the stores (CUB's
                WARP_TRANSPOSE); "block": the same over the whole tile with
                `warp.block_exchange` (two barriers each way); None: each
                thread loads its own consecutive items with 16-byte vector
                loads;
      relaxed   status words stored and polled relaxed (the word carries the
                value, so no release/acquire is needed), else release/acquire;
      poll_ns   nanosleep between polls of a look-back window;
      settle_ns nanosleep after publishing the aggregate, before the first
                poll (CUB's sm_90 tuning: 648 and 1245 ns);
      ticket    tiles claimed from an atomic counter, else the block index
                (CUB's choice: it relies on blocks starting in index order);
      staged    (select) kept items gathered in workgroup memory in tile
                order and written out by consecutive threads (coalesced),
                instead of each thread storing its own;
      min_blocks blocks per SM the kernel must fit (`nvvm.minctasm`, PTX
                `.minnctapersm`): ptxas caps the registers to match
                (select_probe.cu: 5 blocks of 256 threads, <= 48 registers,
                against 4 at 64 registers closes the gap to CUB)."""
    e = Emitter()
    threads = SCAN_THREADS
    tile_size = threads * items
    nw = threads // 32
    select = mode == "select"
    staged = staged and select
    # Kept items of a tile, staged at padded positions (see padded()).
    keep_type = f"memref<{tile_size + tile_size // 32}xf32, #gpu.address_space<workgroup>>"
    sty = "i32" if select else ty  # type that is scanned
    if select:
        args = ("%in: memref<?xf32>, %out: memref<?xf32>, %num: memref<?xi32>, "
                "%status: memref<?xi64>, %n: index, %thr: f32")
    else:
        args = f"%in: memref<?x{ty}>, %out: memref<?x{ty}>, %status: memref<?xi64>, %n: index"
    head = kernel_head(name, args,
                       f"%tile_sm: memref<1xi64, #gpu.address_space<workgroup>>, "
                       f"%warp_sm: memref<{nw}x{sty}, #gpu.address_space<workgroup>>, "
                       f"%pre_sm: memref<1x{sty}, #gpu.address_space<workgroup>>"
                       + (f", %keep_sm: {keep_type}" if staged else ""), threads, min_blocks)
    e.emit("%true = arith.constant true")
    tid, tile64, tile = tile_prologue(e, threads, ticket)
    c0 = e.idx(0)
    ctile = e.idx(tile_size)
    citems = e.idx(items)
    add = add_op(sty)
    tbase = e.op(f"arith.muli {tile}, {ctile} : index")
    toff = e.op(f"arith.muli {tid}, {citems} : index")
    base = e.op(f"arith.addi {tbase}, {toff} : index", "base")
    ity = "f32" if select else ty
    vals = []
    if exchange:
        # Item j of this thread in the striped arrangement: tile or warp
        # segment start + j * stride + (thread or lane).
        if exchange == "warp":
            wid0, lane0, _ = warp_and_lane(e, tid)
            seg = e.op(f"arith.muli {wid0}, {e.idx(32 * items)} : index")
            seg = e.op(f"arith.addi {tbase}, {seg} : index")
            first_item = e.op(f"arith.addi {seg}, {lane0} : index")
            stride, op_name = 32, "warp.exchange"
        else:
            first_item = e.op(f"arith.addi {tbase}, {tid} : index")
            stride, op_name = threads, "warp.block_exchange"
        striped_at = [e.op(f"arith.addi {first_item}, {e.idx(j * stride)} : index") for j in range(items)]
        elems = [load(e, "%in", ity, at, nc) for at in striped_at]
        vty = f"vector<{items}x{ity}>"
        blocked = e.op(f"vector.from_elements {', '.join(elems)} : {vty}")
        blocked = e.op(f"{op_name} <striped_to_blocked> {blocked} : {vty}")
        vals = [e.op(f"vector.extract {blocked}[{j}] : {ity} from {vty}") for j in range(items)]
    for h in range(0 if exchange else items // 4):
        at = e.op(f"arith.addi {base}, {e.idx(4 * h)} : index")
        v = load(e, "%in", ity, at, nc, 4)
        for j in range(4):
            vals.append(e.op(f"vector.extract {v}[{j}] : {ity} from vector<4x{ity}>"))
    if select:
        flags = [e.op(f"arith.cmpf ogt, {x}, %thr : f32") for x in vals]
        terms = [e.op(f"arith.extui {f} : i1 to i32") for f in flags]
    else:
        terms = vals
    # Thread-local inclusive scan of the items.
    running = [terms[0]]
    for t in terms[1:]:
        running.append(e.op(f"{add} {running[-1]}, {t} : {sty}"))
    thread_total = running[-1]
    wex = e.op(f"warp.scan <add> {thread_total} exclusive : {sty}", "wex")
    wid, lane, first = warp_and_lane(e, tid)
    # Lane 31 knows the warp total: its exclusive prefix plus its own total.
    last = e.op(f"arith.cmpi eq, {lane}, {e.idx(31)} : index")
    with e.region(f"scf.if {last}"):
        wtot = e.op(f"{add} {wex}, {thread_total} : {sty}", "wtot")
        e.emit(f"memref.store {wtot}, %warp_sm[{wid}] : memref<{nw}x{sty}, #gpu.address_space<workgroup>>")
    e.emit("gpu.barrier")
    z = e.const(zero_of(sty), sty)
    wpre, agg = warp_prefix_and_total(e, wid, nw, sty)
    if staged:
        # Tile-local positions need no look-back: stage the kept items now.
        local = e.op(f"arith.addi {wpre}, {wex} : i32")
        store_kept(e, flags, vals, [z] + running[:-1], local, "%keep_sm", keep_type, pad=True)
    def count_selected(e, pre):
        # The last tile knows the number selected.
        ntiles = e.op(f"arith.divui %n, {ctile} : index")
        last = e.op(f"arith.subi {ntiles}, {e.idx(1)} : index")
        is_last = e.op(f"arith.cmpi eq, {tile}, {last} : index")
        with e.region(f"scf.if {is_last}"):
            tot = e.op(f"arith.addi {pre}, {agg} : i32")
            e.emit(f"memref.store {tot}, %num[{c0}] : memref<?xi32>")
    tpre = tile_prefix(e, tile64, wid, first, agg, sty, relaxed, poll_ns, settle_ns,
                       count_selected if select else None)
    p1 = e.op(f"{add} {tpre}, {wpre} : {sty}")
    offset = e.op(f"{add} {p1}, {wex} : {sty}", "offset")
    if staged:
        # out[tile prefix + i] = i-th kept item of the tile, i = tid + 256 j
        # for j < items (unrolled: independent loads and stores in flight).
        copy_staged(e, tid, threads, items, tpre, agg, keep_type,
                    lambda j, i: padded(e, i, "index"))
    elif select:
        # Kept items go to out[offset + number kept before them], in order.
        store_kept(e, flags, vals, [z] + running[:-1], offset, "%out", "memref<?xf32>")
    else:
        outs = running if mode == "incl" else [z] + running[:-1]
        res = [e.op(f"{add} {offset}, {x} : {sty}") for x in outs]
        if exchange:
            vty = f"vector<{items}x{ty}>"
            vec = e.op(f"vector.from_elements {', '.join(res)} : {vty}")
            vec = e.op(f"{op_name} <blocked_to_striped> {vec} : {vty}")
            for j in range(items):
                x = e.op(f"vector.extract {vec}[{j}] : {ty} from {vty}")
                e.emit(f"memref.store {x}, %out[{striped_at[j]}] : memref<?x{ty}>")
        for h in range(0 if exchange else items // 4):
            vec = e.const(f"dense<{zero_of(ty)}>", f"vector<4x{ty}>")
            for j in range(4):
                vec = e.op(f"vector.insert {res[4 * h + j]}, {vec} [{j}] : {ty} into vector<4x{ty}>")
            at = e.op(f"arith.addi {base}, {e.idx(4 * h)} : index")
            e.emit(f"vector.store {vec}, %out[{at}] {{alignment = 16}} : memref<?x{ty}>, vector<4x{ty}>")
    e.emit("gpu.return")
    return head + "\n" + "\n".join(e.lines) + "\n  }\n"


def select_kernel(name, items=SELECT_ITEMS, min_blocks=SELECT_MIN_BLOCKS, adaptive=True, nc=True,
                  poll_ns=POLL_NS, settle_ns=SETTLE_NS, stores="flat"):
    """Order-preserving selection of x > %thr (stream compaction) with
    decoupled look-back, any %n >= 1 (the last tile, partial or not, takes a
    guarded path); a tile is 256 threads x `items` (a multiple of 4, at
    most 32). The configuration select_probe.cu found fastest ("s4d 256x24,
    adaptive, minBlocks 5": 1.25 / 1.18 / 1.08x CUB at 0 / 50 / 100 %
    kept on the H200):
      striped float4 loads: a warp's segment of 32 x items is read as rows
                of 128 items, lane l loading the float4 of items 4l .. 4l + 3
                of each row (ld.global.nc.v4, coalesced); the items stay
                striped: no exchange through workgroup memory;
      ballot ranks: an item's rank in its warp is the kept items of the
                rows before its row, plus, from one warp.compact (a ballot)
                per row and float4 component, those of the lanes below it in
                its row, plus its own earlier components: no per-item scan. The
                warp's count (one warp.reduce of the threads' popcounts)
                and the sum over the warps' counts give the warp's prefix in
                the tile;
      adaptive  (CUB's TWO_PHASE_SCATTER rule) after the look-back, a tile
                that keeps more items than it has threads stages them in tile
                order in workgroup memory and writes them coalesced, else
                each thread stores its kept items at their global rank;
                without it, always the latter;
      stores    "flat": each kept item's two possible stores under their own
                conditions (kept and staging, kept and not), so that ptxas
                predicates them; "nested": `kept` around the staging
                if-else, a branch per item (7-9 % slower at 50 and 100 %
                kept, 2 % faster at 0 %, on the H200);
      min_blocks `nvvm.minctasm` (5 blocks per SM: ptxas keeps the kernel at
                48 registers).
    Tiles by block index, relaxed status words, nanosleep pacing as in
    scan_like_kernel; nc: the input marked {llvm.noalias, llvm.readonly}
    (ld.global.nc from the compiler: the invariant loads of load(nc=True)
    lose .nc on vectors whose lanes are extracted, see ReadOnlyArgs.cpp)."""
    assert items % 4 == 0
    e = Emitter()
    threads = SCAN_THREADS
    tile_size = threads * items
    nw = threads // 32
    rows = items // 4
    keep_type = f"memref<{tile_size + tile_size // 32}xf32, #gpu.address_space<workgroup>>"
    mask_type = f"memref<{threads}xi32, #gpu.address_space<workgroup>>"
    assert items <= 32  # a thread's flags are one i32
    attrs = " {llvm.noalias, llvm.readonly}" if nc else ""
    head = kernel_head(name, f"%in: memref<?xf32>{attrs}, %out: memref<?xf32>, %num: memref<?xi32>, "
                       "%status: memref<?xi64>, %n: index, %thr: f32",
                       f"%warp_sm: memref<{nw}xi32, #gpu.address_space<workgroup>>, "
                       f"%pre_sm: memref<1xi32, #gpu.address_space<workgroup>>, %mask_sm: {mask_type}"
                       + (f", %keep_sm: {keep_type}" if adaptive else ""), threads, min_blocks)
    e.emit("%true = arith.constant true")
    tid, tile64, tile = tile_prologue(e, threads, ticket=False)
    wid, lane, first = warp_and_lane(e, tid)
    c0, c1 = e.idx(0), e.idx(1)
    ctile = e.idx(tile_size)
    tbase = e.op(f"arith.muli {tile}, {ctile} : index")
    # The last tile (ceil(n / tile) - 1) guards its loads and counts the
    # items selected.
    n1 = e.op(f"arith.addi %n, {e.idx(tile_size - 1)} : index")
    ntiles = e.op(f"arith.divui {n1}, {ctile} : index")
    last = e.op(f"arith.subi {ntiles}, {c1} : index")
    is_last = e.op(f"arith.cmpi eq, {tile}, {last} : index", "is_last")
    seg = e.op(f"arith.muli {wid}, {e.idx(32 * items)} : index")
    seg = e.op(f"arith.addi {tbase}, {seg} : index")
    lane4 = e.op(f"arith.muli {lane}, {e.idx(4)} : index")
    first_item = e.op(f"arith.addi {seg}, {lane4} : index")
    # Component k of row r: item first_item + 128 r + k.
    row_at = [e.op(f"arith.addi {first_item}, {e.idx(128 * r)} : index") for r in range(rows)]
    # The thread's flags as a bit mask (bit j: item j kept), built where the
    # items are loaded: one scf.if yields the items and the mask. Whole
    # tiles load float4s unguarded; the last tile loads item by item from
    # min(item, n - 1) (in bounds without a branch per item) and masks out
    # the items past n (not kept, whatever the predicate says), a row's
    # valid components at once. Flags as i1 results instead would be 24
    # predicates live with the 24 items where the branches meet, and
    # per-item guards 24 more in the last tile: both spill at 48 registers.
    def flag_mask(flags):
        mask = e.const(0, "i32")
        for j, f in enumerate(flags):
            bit = e.op(f"arith.shli {e.op(f'arith.extui {f} : i1 to i32')}, {e.const(j, 'i32')} : i32")
            mask = e.op(f"arith.ori {mask}, {bit} : i32")
        return mask

    loaded = e.v("ld")
    types = ", ".join(["f32"] * items + ["i32"])
    with e.region(f"{loaded}:{items + 1} = scf.if {is_last} -> ({types})"):
        vals = []
        n_1 = e.op(f"arith.subi %n, {c1} : index")
        inside = e.const(0, "i32")
        for r in range(rows):
            for k in range(4):
                at = e.op(f"arith.addi {row_at[r]}, {e.idx(k)} : index")
                at = e.op(f"arith.minui {at}, {n_1} : index")
                vals.append(load(e, "%in", "f32", at, False))
            # Bits 4r .. 4r + v - 1, v = clamp(n - row start, 0, 4) items.
            left = e.op(f"arith.subi %n, {row_at[r]} : index")
            left = e.op(f"arith.maxsi {left}, {c0} : index")
            left = e.op(f"arith.minsi {left}, {e.idx(4)} : index")
            left = e.op(f"arith.index_cast {left} : index to i32")
            ones = e.op(f"arith.shli {e.const(1, 'i32')}, {left} : i32")
            ones = e.op(f"arith.subi {ones}, {e.const(1, 'i32')} : i32")
            ones = e.op(f"arith.shli {ones}, {e.const(4 * r, 'i32')} : i32")
            inside = e.op(f"arith.ori {inside}, {ones} : i32")
        flags = [e.op(f"arith.cmpf ogt, {x}, %thr : f32") for x in vals]
        mask = e.op(f"arith.andi {flag_mask(flags)}, {inside} : i32")
        e.emit(f"scf.yield {', '.join(vals + [mask])} : {types}")
        e.otherwise()
        vals = []
        for r in range(rows):
            v = load(e, "%in", "f32", row_at[r], False, 4)
            vals += [e.op(f"vector.extract {v}[{k}] : f32 from vector<4xf32>") for k in range(4)]
        flags = [e.op(f"arith.cmpf ogt, {x}, %thr : f32") for x in vals]
        e.emit(f"scf.yield {', '.join(vals + [flag_mask(flags)])} : {types}")
    vals = [f"{loaded}#{j}" for j in range(items)]
    mask = f"{loaded}#{items}"
    # The warp's count: the popcounts of the masks summed over the lanes (one
    # redux.sync; a ballot per item would keep 24 ballots live until lane 0
    # adds them up). The mask crosses the look-back in workgroup memory: in
    # a register, LLVM folds the flags' later uses back into the 24
    # predicates, live across the look-back (spills); the barriers keep it
    # from forwarding the stored word.
    e.emit(f"memref.store {mask}, %mask_sm[{tid}] : {mask_type}")
    count = e.op(f"warp.reduce <add> {e.op(f'math.ctpop {mask} : i32')} lanes = <first> : i32", "count")
    with e.region(f"scf.if {first}"):
        e.emit(f"memref.store {count}, %warp_sm[{wid}] : memref<{nw}xi32, #gpu.address_space<workgroup>>")
    e.emit("gpu.barrier")
    wpre, agg = warp_prefix_and_total(e, wid, nw, "i32")

    def count_selected(e, pre):
        with e.region(f"scf.if {is_last}"):
            tot = e.op(f"arith.addi {pre}, {agg} : i32")
            e.emit(f"memref.store {tot}, %num[{c0}] : memref<?xi32>")
    tpre = tile_prefix(e, tile64, wid, first, agg, "i32", True, poll_ns, settle_ns, count_selected)

    mask = e.op(f"memref.load %mask_sm[{tid}] : {mask_type}", "mask")
    zero32 = e.const(0, "i32")
    flags = []
    for j in range(items):
        masked = e.op(f"arith.andi {mask}, {e.const(1 << j, 'i32')} : i32")
        flags.append(e.op(f"arith.cmpi ne, {masked}, {zero32} : i32"))
    direct_base = e.op(f"arith.addi {tpre}, {wpre} : i32")
    stage = e.op(f"arith.cmpi sgt, {agg}, {e.const(threads, 'i32')} : i32", "stage") if adaptive else None

    def store_at(rank, value, staged):
        """A kept item, `rank` kept items of its warp before it: to the
        padded position of its rank in the tile's staging buffer, or to
        out[prefix of the tile and the warp + rank]."""
        memref, memref_type, base = (("%keep_sm", keep_type, wpre) if staged
                                     else ("%out", "memref<?xf32>", direct_base))
        i = e.op(f"arith.addi {base}, {rank} : i32")
        i = e.op(f"arith.index_cast {padded(e, i, 'i32') if staged else i} : i32 to index")
        e.emit(f"memref.store {value}, {memref}[{i}] : {memref_type}")

    # The stores' conditions: flat, `kept and stage` and `kept and not
    # stage`, one store each (ptxas predicates them: no branch per item);
    # nested, `kept` around `stage`'s if-else (a divergent branch and a
    # reconvergence point per item).
    direct = e.op(f"arith.xori {stage}, %true : i1") if adaptive and stores == "flat" else None

    def place(rank, value, kept):
        if not adaptive:
            with e.region(f"scf.if {kept}"):
                store_at(rank, value, False)
        elif stores == "flat":
            for staged, when in ((True, stage), (False, direct)):
                with e.region(f"scf.if {e.op(f'arith.andi {kept}, {when} : i1')}"):
                    store_at(rank, value, staged)
        else:
            with e.region(f"scf.if {kept}"):
                with e.region(f"scf.if {stage}"):
                    store_at(rank, value, True)
                    e.otherwise()
                    store_at(rank, value, False)

    # Ranks: rows in order, lanes in order within a row, a lane's 4
    # components in order; one warp.compact (ballot compaction: the lanes
    # below that keep their item, and the warp's count) per row and
    # component, computed after the look-back rather than 24 ranks live
    # across it. One scatter for both destinations: with one per branch of
    # `stage` (select_probe.cu's form), LLVM hoists their common flag
    # arithmetic above the branch, where it is live with the 24 items (28
    # bytes of spills at 48 registers; 3 % slower than `flat` at 50 and
    # 100 % kept on the H200).
    row = e.const(0, "i32")  # kept items of the warp's rows before this one
    for r in range(rows):
        fs = flags[4 * r:4 * r + 4]
        at = row
        for f in fs:
            below, count = e.v("below"), e.v("count")
            e.emit(f"{below}, {count} = warp.compact {f} : i32")
            at = e.op(f"arith.addi {at}, {below} : i32")
            row = e.op(f"arith.addi {row}, {count} : i32")
        for k, f in enumerate(fs):
            place(at, vals[4 * r + k], f)
            if k < 3:
                at = e.op(f"arith.addi {at}, {e.op(f'arith.extui {f} : i1 to i32')} : i32")
    if adaptive:
        with e.region(f"scf.if {stage}"):
            # out[prefix + i] = i-th kept item for i = tid + 256 j (unrolled:
            # independent loads and stores in flight); padded(tid + 256 j) =
            # padded(tid) + 264 j.
            e.emit("gpu.barrier")
            from_at = padded(e, tid, "index")
            copy_staged(e, tid, threads, items, tpre, agg, keep_type,
                        lambda j, i: e.op(f"arith.addi {from_at}, {e.idx(j * (threads + threads // 32))} : index"))
    e.emit("gpu.return")
    return head + "\n" + "\n".join(e.lines) + "\n  }\n"


def block_recurrence(name, threads, rounds, round_op, setup=None, workgroup=""):
    """A block micro-kernel: `rounds` dependent block-wide i32 operations per
    thread, a = 0; repeat: a = round_op((x ^ r) + a); out[gid] = a.
    setup(e, tid) runs before the loop and its result reaches
    round_op(e, v, r, setup_result), which returns the round's value."""
    e = Emitter()
    head = kernel_head(name, "%in: memref<?xi32>, %out: memref<?xi32>", workgroup, threads)
    c0, c1 = e.idx(0), e.idx(1)
    tid = e.op("gpu.thread_id x", "tid")
    bid = e.op("gpu.block_id x", "bid")
    bb = e.op(f"arith.muli {bid}, {e.idx(threads)} : index")
    gid = e.op(f"arith.addi {bb}, {tid} : index", "gid")
    x = e.op(f"memref.load %in[{gid}] : memref<?xi32>", "x")
    context = setup(e, tid) if setup else None
    zero = e.const(0, "i32")
    res, r, a = e.v("res"), e.v("r"), e.v("a")
    with e.region(f"{res} = scf.for {r} = {c0} to {e.idx(rounds)} step {c1} iter_args({a} = {zero}) -> (i32)"):
        r32 = e.op(f"arith.index_cast {r} : index to i32")
        xr = e.op(f"arith.xori {x}, {r32} : i32")
        v = e.op(f"arith.addi {xr}, {a} : i32")
        e.emit(f"scf.yield {round_op(e, v, r, context)} : i32")
    e.emit(f"memref.store {res}, %out[{gid}] : memref<?xi32>")
    e.emit("gpu.return")
    return head + "\n" + "\n".join(e.lines) + "\n  }\n"


def block_micro_kernel(name, kind, threads, rounds):
    """block_recurrence composed of warp ops: block-wide i32 sums (kind
    'reduce', result in every thread) or inclusive scans (kind 'scan') from
    warp.reduce / warp.scan and workgroup words. One barrier per round: the
    per-warp words are double-buffered."""
    nw = threads // 32
    smt = "memref<2x32xi32, #gpu.address_space<workgroup>>"

    def setup(e, tid):
        wid, lane, first = warp_and_lane(e, tid)
        return dict(wid=wid, lane=lane, first=first,
                    last=e.op(f"arith.cmpi eq, {lane}, {e.idx(31)} : index"),
                    live=e.op(f"arith.cmpi ult, {lane}, {e.idx(nw)} : index"),
                    wid32=e.op(f"arith.index_cast {wid} : index to i32"))

    def round_op(e, v, r, c):
        zero = e.const(0, "i32")
        buf = e.op(f"arith.remui {r}, {e.idx(2)} : index")
        if kind == "reduce":
            part = e.op(f"warp.reduce <add> {v} lanes = <first> : i32")
        else:
            # The warp total is the inclusive value of lane 31.
            incl = part = e.op(f"warp.scan <add> {v} : i32", "incl")
        writer = c["first"] if kind == "reduce" else c["last"]
        with e.region(f"scf.if {writer}"):
            e.emit(f"memref.store {part}, %sm[{buf}, {c['wid']}] : {smt}")
        e.emit("gpu.barrier")
        w = e.load_if(c["live"], "i32", f"memref.load %sm[{buf}, {c['lane']}] : {smt}", zero)
        if kind == "reduce":
            return e.op(f"warp.reduce <add> {w} : i32")
        # Prefix of warp `wid`: the inclusive scan of the warp totals at
        # lane wid - 1 (none for warp 0), one shuffle shorter than an
        # exclusive scan.
        inc = e.op(f"warp.scan <add> {w} : i32")
        one = e.const(1, "i32")
        prev = e.op(f"arith.subi {c['wid32']}, {one} : i32")
        src = e.op(f"arith.maxsi {prev}, {zero} : i32")
        got = e.op(f"warp.broadcast {inc}, {src} : i32")
        is0 = e.op(f"arith.cmpi eq, {c['wid32']}, {zero} : i32")
        pre = e.op(f"arith.select {is0}, {zero}, {got} : i32")
        return e.op(f"arith.addi {incl}, {pre} : i32")

    return block_recurrence(name, threads, rounds, round_op, setup, f"%sm: {smt}")


def block_op_kernel(name, kind, threads, rounds, algorithm=None):
    """block_recurrence with the block ops themselves:
    warp.block_reduce / warp.block_scan <add>, with the lowering's
    `algorithm` (None: the op's default for the block size)."""
    alg = f" algorithm = <{algorithm}>" if algorithm else ""
    return block_recurrence(name, threads, rounds,
                            lambda e, v, r, _: e.op(f"warp.block_{kind} <add> {v}{alg} : i32"))


# The rounds of the block micro-kernels: device_bench.py's, which checks
# their results (it runs without this file on the GPU host).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from device_bench import BLOCK_ROUNDS  # noqa: E402

# Block sizes of the block micro-kernels, and each op's algorithms.
BLOCK_SIZES = (32, 48, 64, 128, 256, 1024)
BLOCK_ALGORITHMS = {"reduce": ("warp_reductions", "raking"), "scan": ("warp_scans", "raking")}


def files():
    """{file name: MLIR text}."""
    header = ("// Generated by benchmarks/device/gen_kernels.py: do not edit; see\n"
              "// benchmarks/device_bench.py for the arguments and the checks.\n")

    def module(name, funcs):
        return (header + "module attributes {gpu.container_module} {\n"
                f"gpu.module @{name} {{\n" + "\n".join(funcs) + "}\n}\n")

    reduce = [
        reduce_kernel("sum_f32", "f32"),
        reduce_kernel("sum_i32", "i32"),
        reduce_kernel("dot_f32", "f32", dot=True),
        finish_kernel("finish_f32", "f32"),
        finish_kernel("finish_i32", "i32"),
        # Levers, each one switched off from sum_f32's configuration.
        reduce_kernel("sum_f32_novec", "f32", vec=False),
        reduce_kernel("sum_f32_nonc", "f32", nc=False),
        reduce_kernel("sum_f32_unroll1", "f32", unroll=1),
        reduce_kernel("sum_f32_unroll4", "f32", unroll=4),
        reduce_kernel("sum_f32_idx32", "f32", idx32=True),
        reduce_kernel("sum_f32_idx32_unroll1", "f32", idx32=True, unroll=1),
        reduce_kernel("sum_f32_idx32_unroll4", "f32", idx32=True, unroll=4),
        # sum_f32's ld.global.nc from argument attributes, not invariant loads.
        reduce_kernel("sum_f32_argattrs", "f32", nc=False, argattrs=True),
        # CUB's even-share grid: one contiguous range per block.
        reduce_kernel("sum_f32_evenshare", "f32", even_share=True),
    ]
    scan = [scan_like_kernel(f"scan_{m}_{t}", t, m) for t in ("i32", "f32") for m in ("incl", "excl")]
    scan.append(select_kernel("select_gt_f32"))
    # Variants measured against the kernels above: each lever switched off
    # alone, and the previous configuration (8 vector-loaded items per
    # thread, release/acquire, no pacing, unstaged selection).
    scan.append(scan_like_kernel("scan_incl_i32_direct", "i32", "incl", exchange=None))
    scan.append(scan_like_kernel("scan_incl_i32_blockx", "i32", "incl", exchange="block"))
    scan.append(scan_like_kernel("scan_incl_i32_acqrel", "i32", "incl", relaxed=False))
    scan.append(scan_like_kernel("scan_incl_i32_nopace", "i32", "incl", poll_ns=0, settle_ns=0))
    scan.append(scan_like_kernel("scan_incl_i32_ticket", "i32", "incl", ticket=True))
    scan.append(scan_like_kernel("scan_incl_i32_items8", "i32", "incl", items=8))
    scan.append(scan_like_kernel("scan_incl_i32_old_items8", "i32", "incl", items=8, exchange=None,
                                 relaxed=False, poll_ns=0, settle_ns=0, ticket=True))
    # The compaction: select_gt_f32's lever (stores always direct), and the
    # previous configuration (256 x 16
    # items, warp.exchange to blocked items, thread-local 0/1 scans and a
    # warp.scan, always staged, 5 blocks per SM) with its own levers.
    scan.append(select_kernel("select_gt_f32_direct", adaptive=False))
    scan.append(select_kernel("select_gt_f32_nested", stores="nested"))
    scan.append(scan_like_kernel("select_gt_f32_transpose16", "f32", "select", min_blocks=SELECT_MIN_BLOCKS))
    scan.append(scan_like_kernel("select_gt_f32_occ4", "f32", "select"))
    scan.append(scan_like_kernel("select_gt_f32_unstaged", "f32", "select", staged=False))
    scan.append(scan_like_kernel("select_gt_f32_blockx", "f32", "select", exchange="block"))
    # CUB's sm_90 DeviceSelect tuning polls every 76 ns (settling 1150 ns).
    scan.append(scan_like_kernel("select_gt_f32_poll76", "f32", "select", poll_ns=76, settle_ns=1150))
    scan.append(scan_like_kernel("select_gt_f32_old_items8", "f32", "select", items=8, staged=False,
                                 exchange=None, relaxed=False, poll_ns=0, settle_ns=0, ticket=True))
    # block_{reduce,scan}_i32_B: the block op with its default algorithm;
    # _<algorithm>: the op with that algorithm; _composed: the same
    # recurrence composed of warp.reduce / warp.scan and workgroup memory.
    block = []
    for k in ("reduce", "scan"):
        for b in BLOCK_SIZES:
            block.append(block_op_kernel(f"block_{k}_i32_{b}", k, b, BLOCK_ROUNDS))
            block += [block_op_kernel(f"block_{k}_i32_{b}_{alg}", k, b, BLOCK_ROUNDS, alg)
                      for alg in BLOCK_ALGORITHMS[k]]
            if b % 32 == 0:  # the composed kernel takes whole warps
                block.append(block_micro_kernel(f"block_{k}_i32_{b}_composed", k, b, BLOCK_ROUNDS))
    # For the device-index-bitwidth=32 lever (scripts/gpu-bundle.sh lowers
    # it with that option): the option rejects the pointer-as-index of the
    # invariant-load kernels, so the lever is timed on sum_f32_nonc and, with
    # ld.global.nc, on sum_f32_argattrs.
    reduce_idx32 = [reduce_kernel("sum_f32_nonc", "f32", nc=False),
                    reduce_kernel("sum_f32_argattrs", "f32", nc=False, argattrs=True)]
    return {
        "reduce.mlir": module("reduce", reduce),
        "reduce_idx32.mlir": module("reduce_idx32", reduce_idx32),
        "scan.mlir": module("scan", scan),
        "block.mlir": module("block", block),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if a file differs")
    parser.add_argument("--out", default=HERE)
    args = parser.parse_args()
    stale = []
    for name, text in files().items():
        path = os.path.join(args.out, name)
        if args.check:
            if not os.path.exists(path) or open(path).read() != text:
                stale.append(name)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        sys.exit("stale (rerun gen_kernels.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
