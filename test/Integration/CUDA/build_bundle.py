"""Builds the GPU suite's bundle on the build machine: one MLIR module per
case family (every kernel of cases.py), lowered by warp-opt to PTX for sm_90,
plus manifest.json naming each kernel's case.

    python3 build_bundle.py --warp-opt build/bin/warp-opt --out .gpu-bundle
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402


def memref(elem):
    return f"memref<?x{elem}>"


def load(payload, buf, index, name):
    """Lines loading one lane's payload into %name; i1 travels as i32."""
    p = cases.PAYLOADS[payload]
    if p["mlir"] != "i1":
        return [f"%{name} = memref.load {buf}[{index}] : {memref(p['elem'])}"]
    return [f"%{name}_m = memref.load {buf}[{index}] : {memref(p['elem'])}",
            f"%{name} = arith.trunci %{name}_m : i32 to i1"]


def store(payload, value, buf, index, tag):
    p = cases.PAYLOADS[payload]
    lines = []
    if p["mlir"] == "i1":
        lines.append(f"%{tag}_w = arith.extui {value} : i1 to i32")
        value = f"%{tag}_w"
    lines.append(f"memref.store {value}, {buf}[{index}] : {memref(p['elem'])}")
    return lines


PROLOGUE = [
    "%tid = gpu.thread_id x",
    "%bid = gpu.block_id x",
    "%bdim = gpu.block_dim x",
    "%base = arith.muli %bid, %bdim : index",
    "%i = arith.addi %base, %tid : index",
]


def kernel(name, args, body, attributes=""):
    attributes = f" attributes {{{attributes}}}" if attributes else ""
    lines = [f"  gpu.func @{name}({', '.join(args)}) kernel{attributes} {{"]
    lines += ["    " + l for l in PROLOGUE + body + ["gpu.return"]]
    lines.append("  }")
    return "\n".join(lines)


def shuffle_kernel(case):
    p = cases.PAYLOADS[case["type"]]
    mt = p["mlir"]
    body = load(case["type"], "%in", "%i", "x")
    body.append(f"%r, %v = warp.shuffle <{case['mode']}> %x, %off width {case['width']} : {mt}")
    body += store(case["type"], "%r", "%out", "%i", "r")
    body += ["%vi = arith.extui %v : i1 to i32",
             "memref.store %vi, %valid[%i] : memref<?xi32>"]
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}",
            "%valid: memref<?xi32>", "%off: i32"]
    return kernel(case["name"], args, body)


def only_mask_lanes(body):
    """Wraps `body` in scf.if so lanes outside the runtime %mask do not
    execute it at all."""
    guard = [
        "%c0 = arith.constant 0 : i32",
        "%one = arith.constant 1 : i32",
        "%lane = warp.lane_id : i32",
        "%bit = arith.shrui %mask, %lane : i32",
        "%member_bit = arith.andi %bit, %one : i32",
        "%member = arith.cmpi ne, %member_bit, %c0 : i32",
        "scf.if %member {",
    ]
    return guard + ["  " + line for line in body] + ["}"]


def masked_shuffle_kernel(case):
    body = only_mask_lanes([
        "%x = memref.load %in[%i] : memref<?xi32>",
        f"%r, %v = warp.shuffle <{case['mode']}> %x, %off width {case['width']} mask %mask : i32",
        "memref.store %r, %out[%i] : memref<?xi32>",
        "%vi = arith.extui %v : i1 to i32",
        "memref.store %vi, %valid[%i] : memref<?xi32>",
    ])
    args = ["%in: memref<?xi32>", "%out: memref<?xi32>", "%valid: memref<?xi32>",
            "%off: i32", "%mask: i32"]
    return kernel(case["name"], args, body)


def reduce_kernel(case):
    p = cases.PAYLOADS[case["type"]]
    size, stride = case["cluster"]
    body = load(case["type"], "%in", "%i", "x")
    body.append(f"%r = warp.reduce <{case['kind']}> %x cluster_size = {size} "
                f"cluster_stride = {stride} lanes = <{case['lanes']}> "
                f"strategy = <{case['strategy']}> : {p['mlir']}")
    body += store(case["type"], "%r", "%out", "%i", "r")
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}"]
    return kernel(case["name"], args, body)


def masked_reduce_kernel(case):
    p = cases.PAYLOADS[case["type"]]
    size, stride = case["cluster"]
    body = only_mask_lanes([
        f"%x = memref.load %in[%i] : {memref(p['elem'])}",
        f"%r = warp.reduce <{case['kind']}> %x mask %mask cluster_size = {size} "
        f"cluster_stride = {stride} strategy = <{case['strategy']}> : {p['mlir']}",
        f"memref.store %r, %out[%i] : {memref(p['elem'])}",
    ])
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}", "%mask: i32"]
    return kernel(case["name"], args, body)


def partial_reduce_kernel(case):
    p = cases.PAYLOADS[case["type"]]
    strategy = "" if case["strategy"] == "auto" else f" strategy = <{case['strategy']}>"
    body = load(case["type"], "%in", "%i", "x")
    body.append(f"%r = warp.reduce <{case['kind']}> %x valid_lanes %n{strategy} : {p['mlir']}")
    body += store(case["type"], "%r", "%out", "%i", "r")
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}", "%n: i32"]
    return kernel(case["name"], args, body)


def scan_kernel(case):
    p = cases.PAYLOADS[case["type"]]
    mt = p["mlir"]
    flags = (" exclusive" if case["exclusive"] else "") + (" reverse" if case["reverse"] else "")
    body = load(case["type"], "%in", "%i", "x")
    body.append(f"%r, %t = warp.scan <{case['kind']}> %x{flags} width {case['width']} : {mt}, {mt}")
    body += store(case["type"], "%r", "%out", "%i", "r")
    body += store(case["type"], "%t", "%total", "%i", "t")
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}",
            f"%total: {memref(p['elem'])}"]
    return kernel(case["name"], args, body)


def segmented_scan_kernel(case):
    """With `masks`, only the lanes of the run-time %mask execute the scan
    (only_mask_lanes, which also defines %c0)."""
    p = cases.PAYLOADS[case["type"]]
    mt = p["mlir"]
    masked = bool(case.get("masks"))
    flags = (" exclusive" if case["exclusive"] else "") + (" reverse" if case["reverse"] else "")
    flags += f" width {case['width']}" + (" mask %mask" if masked else "")
    body = load(case["type"], "%in", "%i", "x")
    body += ["%hw = memref.load %heads[%i] : memref<?xi32>"]
    body += [] if masked else ["%c0 = arith.constant 0 : i32"]
    body += ["%h = arith.cmpi ne, %hw, %c0 : i32",
             f"%r, %t = warp.scan <{case['kind']}> %x{flags} heads %h : {mt}, {mt}"]
    body += store(case["type"], "%r", "%out", "%i", "r")
    body += store(case["type"], "%t", "%total", "%i", "t")
    args = [f"%in: {memref(p['elem'])}", "%heads: memref<?xi32>", f"%out: {memref(p['elem'])}",
            f"%total: {memref(p['elem'])}"]
    if masked:
        return kernel(case["name"], args + ["%mask: i32"], only_mask_lanes(body))
    return kernel(case["name"], args, body)


def votes_kernel(case):
    # out[k * n + i]: 0 ballot, 1 any, 2 all, 3 uni, 4 match_any, 5 match_all
    # mask, 6 match_all pred, 7 compact offset, 8 compact count, 9-13 lane
    # masks lt/le/eq/ge/gt, 14 lane id, 15 broadcast from lane `src`,
    # 16 broadcast_first among the lanes with lane % 3 == 1 (others -1),
    # 17 warp_id, 18 warp_id linear.
    body = [
        "%c0 = arith.constant 0 : i32",
        "%c1 = arith.constant 1 : i32",
        "%c3 = arith.constant 3 : i32",
        "%minus1 = arith.constant -1 : i32",
        "%n = memref.dim %in, %c0_index : memref<?xi32>",
        "%pword = memref.load %pred[%i] : memref<?xi32>",
        "%p = arith.cmpi ne, %pword, %c0 : i32",
        "%key = memref.load %in[%i] : memref<?xi32>",
        "%key64 = arith.extsi %key : i32 to i64",
        "%ballot = warp.ballot %p : i32",
        "%any = warp.vote <any> %p : i1",
        "%all = warp.vote <all> %p : i1",
        "%uni = warp.vote <uni> %p : i1",
        "%many = warp.match_any %key : i32",
        "%mall, %mallp = warp.match_all %key64 : i64",
        "%off, %cnt = warp.compact %p : i32",
        "%lt = warp.lanemask <lt> : i32",
        "%le = warp.lanemask <le> : i32",
        "%eq = warp.lanemask <eq> : i32",
        "%ge = warp.lanemask <ge> : i32",
        "%gt = warp.lanemask <gt> : i32",
        "%lane = warp.lane_id : i32",
        "%bc = warp.broadcast %key, %src : i32",
        "%w = warp.warp_id : i32",
        "%wl = warp.warp_id linear : i32",
        "%lmod = arith.remui %lane, %c3 : i32",
        "%sel = arith.cmpi eq, %lmod, %c1 : i32",
        "%bf = scf.if %sel -> i32 {",
        "  %b = warp.broadcast_first %key : i32",
        "  scf.yield %b : i32",
        "} else {",
        "  scf.yield %minus1 : i32",
        "}",
    ]
    body.insert(0, "%c0_index = arith.constant 0 : index")
    values = ["%ballot", "%any", "%all", "%uni", "%many", "%mall", "%mallp", "%off",
              "%cnt", "%lt", "%le", "%eq", "%ge", "%gt", "%lane", "%bc", "%bf", "%w", "%wl"]
    for k, v in enumerate(values):
        if v in ("%any", "%all", "%uni", "%mallp"):
            body.append(f"%e{k} = arith.extui {v} : i1 to i32")
            v = f"%e{k}"
        body.append(f"%k{k} = arith.constant {k} : index")
        body.append(f"%o{k} = arith.muli %k{k}, %n : index")
        body.append(f"%j{k} = arith.addi %o{k}, %i : index")
        body.append(f"memref.store {v}, %out[%j{k}] : memref<?xi32>")
    args = ["%in: memref<?xi32>", "%pred: memref<?xi32>", "%out: memref<?xi32>", "%src: i32"]
    return kernel(case["name"], args, body)


def store_at(values, out, n, index):
    """Stores i32 (or i1, widened) values at out[k * n + index], k = 0, 1, ..."""
    body = []
    for k, (v, ty) in enumerate(values):
        if ty == "i1":
            body.append(f"%e{k} = arith.extui {v} : i1 to i32")
            v = f"%e{k}"
        body.append(f"%k{k} = arith.constant {k} : index")
        body.append(f"%o{k} = arith.muli %k{k}, {n} : index")
        body.append(f"%j{k} = arith.addi %o{k}, {index} : index")
        body.append(f"memref.store {v}, {out}[%j{k}] : memref<?xi32>")
    return body


def arms_arm(out, counter):
    """One arm of the branch: warp-aggregated atomics (one atomic per warp
    adds the count of the lanes in this arm), broadcast_first of the thread
    index and vote any, all over the lanes that took this arm (its
    activemask on entry). Both collectives name those lanes as their mask:
    after the leader-only atomic, an activemask of their own might read only
    the lanes that happen to run together again."""
    return [
        "%m = warp.activemask : i32",
        "%cnt = math.ctpop %m : i32",
        "%lane = warp.lane_id : i32",
        "%first = math.cttz %m : i32",
        "%leader = arith.cmpi eq, %lane, %first : i32",
        "scf.if %leader {",
        f"  %old = memref.atomic_rmw addi %cnt, {counter}[%c0_index] : (i32, memref<?xi32>) -> i32",
        "}",
        f"memref.store %cnt, {out}[%i] : memref<?xi32>",
        "%first_thread = warp.broadcast_first %ti mask %m : i32",
        "memref.store %first_thread, %outbf[%i] : memref<?xi32>",
        # The vote names the arm's lanes: a full-mask vote from divergent
        # code would be the program's bug (CUDA: __any_sync(__activemask(), q)).
        "%some = warp.vote <any> %q mask %m : i1",
        "%some_w = arith.extui %some : i1 to i32",
        "memref.store %some_w, %outv[%i] : memref<?xi32>",
    ]


def arms_kernel(case):
    # `near`: the arms differ only in outa/ca versus outb/cb; `identical`:
    # both arms are the same text (outa, ca).
    other = ("%outb", "%cb") if case["variant"] == "near" else ("%outa", "%ca")
    body = [
        "%c0 = arith.constant 0 : i32",
        "%c0_index = arith.constant 0 : index",
        "%pw = memref.load %pred[%i] : memref<?xi32>",
        "%p = arith.cmpi ne, %pw, %c0 : i32",
        "%qw = memref.load %qin[%i] : memref<?xi32>",
        "%q = arith.cmpi ne, %qw, %c0 : i32",
        "%ti = arith.index_cast %i : index to i32",
        "scf.if %p {",
    ]
    body += ["  " + l for l in arms_arm("%outa", "%ca")]
    body += ["} else {"]
    body += ["  " + l for l in arms_arm(*other)]
    body += ["}"]
    args = ["%pred: memref<?xi32>", "%outa: memref<?xi32>", "%outb: memref<?xi32>",
            "%ca: memref<?xi32>", "%cb: memref<?xi32>", "%qin: memref<?xi32>",
            "%outbf: memref<?xi32>", "%outv: memref<?xi32>"]
    return kernel(case["name"], args, body)


def warp_id_2d_kernel(case):
    # out[k * n + t], t the linear thread index, n the block's thread count:
    # 0 warp_id, 1 broadcast of warp_id from lane 0, 2 reduce maxui,
    # 3 shuffle idx 0, 4 its valid bit, 5 match_all mask, 6 match_all pred,
    # 7 warp_id linear, 8 lane_id.
    body = [
        "%ty = gpu.thread_id y",
        "%bdim_y = gpu.block_dim y",
        "%row = arith.muli %ty, %bdim : index",
        "%t = arith.addi %row, %tid : index",
        "%n = arith.muli %bdim, %bdim_y : index",
        "%c0 = arith.constant 0 : i32",
        "%w = warp.warp_id : i32",
        "%b = warp.broadcast %w, %c0 : i32",
        "%r = warp.reduce <maxui> %w : i32",
        "%s, %ok = warp.shuffle <idx> %w, %c0 : i32",
        "%mm, %mp = warp.match_all %w : i32",
        "%wl = warp.warp_id linear : i32",
        "%lane = warp.lane_id : i32",
    ]
    body += store_at([("%w", "i32"), ("%b", "i32"), ("%r", "i32"), ("%s", "i32"), ("%ok", "i1"),
                      ("%mm", "i32"), ("%mp", "i1"), ("%wl", "i32"), ("%lane", "i32")],
                     "%out", "%n", "%t")
    known = case.get("known")
    attributes = f"known_block_size = array<i32: {', '.join(map(str, known))}>" if known else ""
    return kernel(case["name"], ["%out: memref<?xi32>"], body, attributes)


def run_time_width_kernel(case, shuffle_line):
    """A shuffle whose offset %off and width %w are kernel arguments."""
    p = cases.PAYLOADS[case["type"]]
    body = load(case["type"], "%in", "%i", "x")
    body.append(shuffle_line.format(mode=case["mode"], type=p["mlir"]))
    body += store(case["type"], "%r", "%out", "%i", "r")
    body += ["%vi = arith.extui %v : i1 to i32",
             "memref.store %vi, %valid[%i] : memref<?xi32>"]
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}",
            "%valid: memref<?xi32>", "%off: i32", "%w: i32"]
    return kernel(case["name"], args, body)


def gpu_shuffle_dyn_kernel(case):
    """Upstream gpu.shuffle. Only lanes below the width execute it (its member
    mask is those lanes): each shuffle sits under `scf.if tid < width`.
      dyn: width %w and offset %off are arguments; out[i], valid[i].
      const_width: one shuffle per constant width k of the case, offset %off;
        slot k - 1 (out[32 * slot + lane]).
      const: one per constant width and constant offset, slot
        (k - 1) * len(offsets) + index of the offset."""
    p = cases.PAYLOADS[case["type"]]
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}",
            "%valid: memref<?xi32>", "%off: i32"]
    body = load(case["type"], "%in", "%i", "x")
    if case["variant"] == "dyn":
        args.append("%w: i32")
        body += ["%wi = arith.index_cast %w : i32 to index",
                 "%inside = arith.cmpi ult, %tid, %wi : index",
                 "scf.if %inside {",
                 f"  %r, %v = gpu.shuffle {case['mode']} %x, %off, %w : {p['mlir']}"]
        body += ["  " + l for l in store(case["type"], "%r", "%out", "%i", "r")]
        body += ["  %vi = arith.extui %v : i1 to i32",
                 "  memref.store %vi, %valid[%i] : memref<?xi32>",
                 "}"]
        return kernel(case["name"], args, body)
    if case["variant"] == "const_width":
        shuffles = [(k, None) for k in case["widths"]]
    else:
        shuffles = [(k, off) for k in case["widths"] for off in case["offsets"]]
    for slot, (k, off) in enumerate(shuffles):
        offset = "%off"
        if off is not None:
            body.append(f"%o{slot} = arith.constant {off} : i32")
            offset = f"%o{slot}"
        body += [f"%w{slot} = arith.constant {k} : i32",
                 f"%k{slot} = arith.constant {k} : index",
                 f"%at{slot} = arith.constant {32 * slot} : index",
                 f"%below{slot} = arith.cmpi ult, %tid, %k{slot} : index",
                 f"scf.if %below{slot} {{",
                 f"  %r{slot}, %v{slot} = gpu.shuffle {case['mode']} %x, {offset}, %w{slot} : "
                 f"{p['mlir']}",
                 f"  %j{slot} = arith.addi %at{slot}, %tid : index"]
        body += ["  " + l for l in store(case["type"], f"%r{slot}", "%out", f"%j{slot}", f"r{slot}")]
        body += [f"  %vi{slot} = arith.extui %v{slot} : i1 to i32",
                 f"  memref.store %vi{slot}, %valid[%j{slot}] : memref<?xi32>",
                 "}"]
    return kernel(case["name"], args, body)


def dyn_width_shuffle_kernel(case):
    return run_time_width_kernel(case, "%r, %v = warp.shuffle <{mode}> %x, %off width %w : {type}")


def any_mask_reduce_kernel(case):
    # Auto strategy: the compiler picks a lowering that is right for any mask.
    p = cases.PAYLOADS[case["type"]]
    cluster = "" if case["cluster"] == 32 else f" cluster_size = {case['cluster']}"
    body = only_mask_lanes([
        f"%x = memref.load %in[%i] : {memref(p['elem'])}",
        f"%r = warp.reduce <{case['kind']}> %x mask %mask{cluster} : {p['mlir']}",
        f"memref.store %r, %out[%i] : {memref(p['elem'])}",
    ])
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}", "%mask: i32"]
    return kernel(case["name"], args, body)


def valid_scan_kernel(case):
    p = cases.PAYLOADS[case["type"]]
    mt = p["mlir"]
    flags = (" exclusive" if case["exclusive"] else "") + (" reverse" if case["reverse"] else "")
    mask = " mask %m" if case["execute"] == "ragged" else ""
    scan = [f"%x = memref.load %in[%i] : {memref(p['elem'])}",
            f"%r, %t = warp.scan <{case['kind']}> %x{flags} width {case['width']} "
            f"valid_lanes %n{mask} : {mt}, {mt}",
            f"memref.store %r, %out[%i] : {memref(p['elem'])}",
            f"memref.store %t, %total[%i] : {memref(p['elem'])}"]
    if case["execute"] == "all":
        body = scan
    else:  # only lanes 0..n-1 execute, with m = (1 << n) - 1 as the mask
        body = ["%c32 = arith.constant 32 : i32",
                "%all_ones = arith.constant -1 : i32",
                "%lane = warp.lane_id : i32",
                "%shift = arith.subi %c32, %n : i32",
                "%m = arith.shrui %all_ones, %shift : i32",
                "%live = arith.cmpi ult, %lane, %n : i32",
                "scf.if %live {"] + ["  " + l for l in scan] + ["}"]
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}",
            f"%total: {memref(p['elem'])}", "%n: i32"]
    return kernel(case["name"], args, body)


def match_float_kernel(case):
    # out[k * n + i]: 0 match_any, 1 match_all mask, 2 match_all pred.
    p = cases.PAYLOADS[case["type"]]
    body = [
        "%c0_index = arith.constant 0 : index",
        f"%n = memref.dim %in, %c0_index : {memref(p['elem'])}",
        f"%x = memref.load %in[%i] : {memref(p['elem'])}",
        f"%many = warp.match_any %x : {p['mlir']}",
        f"%mall, %mallp = warp.match_all %x : {p['mlir']}",
    ]
    body += store_at([("%many", "i32"), ("%mall", "i32"), ("%mallp", "i1")], "%out", "%n", "%i")
    args = [f"%in: {memref(p['elem'])}", "%out: memref<?xi32>"]
    return kernel(case["name"], args, body)


def match_bits_kernel(case):
    """out[i] = match_any of in[i]'s low bits over the lanes of %mask; the
    lanes outside it do not execute."""
    p = cases.PAYLOADS[case["type"]]
    strategy = "" if case["strategy"] == "auto" else f" strategy = <{case['strategy']}>"
    body = only_mask_lanes([
        f"%x = memref.load %in[%i] : {memref(p['elem'])}",
        f"%r = warp.match_any %x mask %mask bits {case['bits']}{strategy} : {p['mlir']}",
        "memref.store %r, %out[%i] : memref<?xi32>",
    ])
    args = [f"%in: {memref(p['elem'])}", "%out: memref<?xi32>", "%mask: i32"]
    return kernel(case["name"], args, body)


def broadcast_any_lane_kernel(case):
    p = cases.PAYLOADS[case["type"]]
    body = [f"%x = memref.load %in[%i] : {memref(p['elem'])}",
            f"%r = warp.broadcast %x, %src : {p['mlir']}",
            f"memref.store %r, %out[%i] : {memref(p['elem'])}"]
    args = [f"%in: {memref(p['elem'])}", f"%out: {memref(p['elem'])}", "%src: i32"]
    return kernel(case["name"], args, body)


def shfl_any_offset_kernel(case):
    body = ["%x = memref.load %in[%i] : memref<?xi32>",
            f"%off = arith.constant {case['offset']} : i32",
            f"%r, %v = warp.shuffle <{case['mode']}> %x, %off width {case['width']} : i32",
            "memref.store %r, %out[%i] : memref<?xi32>",
            "%vi = arith.extui %v : i1 to i32",
            "memref.store %vi, %valid[%i] : memref<?xi32>"]
    args = ["%in: memref<?xi32>", "%out: memref<?xi32>", "%valid: memref<?xi32>"]
    return kernel(case["name"], args, body)


def block_ops_kernel(case):
    """Every block op on one value per thread, the block shape set at launch;
    thread t = x + X * (y + Y * z) of block b handles element b * n + t
    (a vector payload is one element of a memref of vectors)."""
    p = cases.block_op_payload(case["type"])
    t, mem = p["mlir"], memref(p["elem"])
    kind = case["kind"]
    algorithm = f" algorithm = <{case['algorithm']}>" if case["algorithm"] else ""
    # The raking cases rake the reduction too, by raking or
    # raking_commutative_only (the scan algorithms' other name, warp_scans,
    # is the reduction's default anyway).
    reduce_algorithm = (f" algorithm = <{case.get('reduce_algorithm') or 'raking'}>"
                        if case["algorithm"] == "raking" else "")
    body = [
        "%ty = gpu.thread_id y", "%tz = gpu.thread_id z",
        "%by = gpu.block_dim y", "%bz = gpu.block_dim z",
        "%gx = gpu.grid_dim x",
        "%yz = arith.muli %by, %tz : index", "%yz1 = arith.addi %ty, %yz : index",
        "%row = arith.muli %bdim, %yz1 : index", "%t = arith.addi %tid, %row : index",
        "%nxy = arith.muli %bdim, %by : index", "%n = arith.muli %nxy, %bz : index",
        "%first = arith.muli %bid, %n : index", "%e = arith.addi %first, %t : index",
        "%total_threads = arith.muli %gx, %n : index",
        f"%x = memref.load %in[%e] : {mem}",
        f"%x0 = memref.load %in[%first] : {mem}",
    ]
    # Each result is stored as soon as it is made (in the order of
    # cases.BLOCK_OP_OUTPUTS), so that few values stay live across the
    # barriers: a kernel without launch bounds that holds them all needs
    # more than 64 registers a thread, too many for 1,024 threads.
    ops = [
        ([f"%r = warp.block_reduce <{kind}> %x{reduce_algorithm} : {t}"], "%r"),
        ([f"%s = warp.block_scan <{kind}> %x{algorithm} : {t}"], "%s"),
        ([f"%ex, %tot = warp.block_scan <{kind}> %x exclusive{algorithm} : {t}, {t}"], "%ex"),
        ([], "%tot"),
        ([f"%exi = warp.block_scan <{kind}> %x exclusive init %x0{algorithm} : {t}"], "%exi"),
        ([f"%b = warp.block_broadcast %x, %src : {t}"], "%b"),
        # Partial tiles: threads 0 .. src-1 (all but the last; src = 0 in a
        # block of one thread counts as 1), and 0 .. src/2 (a cut inside the
        # block, with warps past it).
        (["%c1_i32 = arith.constant 1 : i32", "%c2_i32 = arith.constant 2 : i32",
          "%src_half = arith.divui %src, %c2_i32 : i32",
          "%half = arith.addi %src_half, %c1_i32 : i32",
          f"%pr = warp.block_reduce <{kind}> %x valid_threads %src : {t}"], "%pr"),
        ([f"%ph = warp.block_reduce <{kind}> %x valid_threads %half : {t}"], "%ph"),
        # Block shuffles: the previous thread's value (thread 0 its own),
        # the next one's (the last thread: not valid, so thread 0's), and a
        # rotation by src/2 + 1.
        (["%cm1_i32 = arith.constant -1 : i32",
          f"%sp, %sp_ok = warp.block_shuffle <offset> %x, %cm1_i32 : {t}"], "%sp"),
        ([f"%sn, %sn_ok = warp.block_shuffle <offset> %x, %c1_i32 : {t}",
          f"%sn_or_first = arith.select %sn_ok, %sn, %x0 : {t}"], "%sn_or_first"),
        ([f"%sr, %sr_ok = warp.block_shuffle <rotate> %x, %half : {t}"], "%sr"),
    ]
    for k, (lines, v) in enumerate(ops):
        body += lines + [f"%ko{k} = arith.constant {k} : index",
                         f"%oo{k} = arith.muli %ko{k}, %total_threads : index",
                         f"%jo{k} = arith.addi %oo{k}, %e : index",
                         f"memref.store {v}, %out[%jo{k}] : {mem}"]
    args = [f"%in: {mem}", f"%out: {mem}", "%src: i32"]
    known = case["known"]
    attributes = f"known_block_size = array<i32: {', '.join(map(str, known))}>" if known else ""
    return kernel(case["name"], args, body, attributes)


def block_exchange_kernel(case):
    """in -> block exchange -> out -> exchange back -> back; thread t = x + X
    * (y + Y * z) of block b holds [N * (b * B + t), N * (b * B + t) + N) of
    each buffer (position j of thread t)."""
    p = cases.PAYLOADS[case["type"]]
    n, mt = case["items"], p["mlir"]
    vt = f"vector<{n}x{mt}>"
    inverse = {"blocked_to_striped": "striped_to_blocked",
               "striped_to_blocked": "blocked_to_striped",
               "blocked_to_warp_striped": "warp_striped_to_blocked",
               "warp_striped_to_blocked": "blocked_to_warp_striped"}[case["direction"]]
    body = BLOCK_THREAD_INDEX + [
        f"%cn = arith.constant {n} : index",
        "%o = arith.muli %e, %cn : index",
        f"%x = vector.load %in[%o] : {memref(mt)}, {vt}",
        f"%r = warp.block_exchange <{case['direction']}> %x : {vt}",
        f"vector.store %r, %out[%o] : {memref(mt)}, {vt}",
        f"%b = warp.block_exchange <{inverse}> %r : {vt}",
        f"vector.store %b, %back[%o] : {memref(mt)}, {vt}"]
    args = [f"%in: {memref(mt)}", f"%out: {memref(mt)}", f"%back: {memref(mt)}"]
    known = case["known"]
    attributes = f"known_block_size = array<i32: {', '.join(map(str, known))}>" if known else ""
    return kernel(case["name"], args, body, attributes)


def items_kernel(case, mt, args, body):
    """The case's kernel over %in (memref of `mt`) and `args`, of a block of
    case["block"] threads: thread %i's N items, [N * i, N * i + N) of %in,
    loaded into %x (%o the offset), then `body`."""
    n = case["items"]
    body = [f"%cn = arith.constant {n} : index",
            "%o = arith.muli %i, %cn : index",
            f"%x = vector.load %in[%o] : {memref(mt)}, vector<{n}x{mt}>"] + body
    return kernel(case["name"], [f"%in: {memref(mt)}"] + args, body,
                  f"known_block_size = array<i32: {case['block']}, 1, 1>")


def exchange_kernel(case):
    """in -> exchange -> out -> exchange back -> back, N items per thread at
    [N * i, N * i + N) of each buffer (lane-major: position j of lane l)."""
    p = cases.PAYLOADS[case["type"]]
    n, mt = case["items"], p["mlir"]
    vt = f"vector<{n}x{mt}>"
    inverse = {"blocked_to_striped": "striped_to_blocked",
               "striped_to_blocked": "blocked_to_striped"}[case["direction"]]
    strategy = "" if case["strategy"] == "auto" else f" strategy = <{case['strategy']}>"
    return items_kernel(case, mt, [f"%out: {memref(mt)}", f"%back: {memref(mt)}"], [
        f"%r = warp.exchange <{case['direction']}> %x{strategy} : {vt}",
        f"vector.store %r, %out[%o] : {memref(mt)}, {vt}",
        f"%b = warp.exchange <{inverse}> %r{strategy} : {vt}",
        f"vector.store %b, %back[%o] : {memref(mt)}, {vt}"])


def scatter_kernel(case):
    """in, ranks -> warp.scatter -> out, N items (and ranks) per thread at
    [N * i, N * i + N) of each buffer."""
    mt = cases.PAYLOADS[case["type"]]["mlir"]
    n = case["items"]
    vt, rt = f"vector<{n}x{mt}>", f"vector<{n}xi32>"
    striped = " striped" if case["striped"] else ""
    return items_kernel(case, mt, [f"%ranks: {memref('i32')}", f"%out: {memref(mt)}"], [
        f"%k = vector.load %ranks[%o] : {memref('i32')}, {rt}",
        f"%r = warp.scatter %x, %k{striped} : {vt}, {rt}",
        f"vector.store %r, %out[%o] : {memref(mt)}, {vt}"])


def elect_kernel(case):
    """out[i] = warp.elect as 0/1 for the threads that execute it; with the
    leader's lane as a result, 0/1 + 64 * that lane."""
    def elect(mask):
        operand = f" mask {mask}" if mask else ""
        if not case["leader"]:
            return [f"%e = warp.elect{operand} : i1", "%ew = arith.extui %e : i1 to i32"]
        return [f"%e, %leader = warp.elect{operand} : i1, i32",
                "%flag = arith.extui %e : i1 to i32",
                "%c64 = arith.constant 64 : i32",
                "%lane64 = arith.muli %leader, %c64 : i32",
                "%ew = arith.addi %flag, %lane64 : i32"]
    store = ["memref.store %ew, %out[%i] : memref<?xi32>"]
    args = ["%out: memref<?xi32>"]
    variant = case["variant"]
    if variant == "full":
        body = elect(None) + store
    elif variant in ("mask", "const_mask"):
        body = only_mask_lanes(elect("%mask") + store)
        if variant == "mask":
            args.append("%mask: i32")
        else:
            body.insert(0, f"%mask = arith.constant {case['mask']} : i32")
    else:  # branch: each arm elects among its own lanes
        arm = ["%m = warp.activemask : i32"] + elect("%m")
        body = ["%c0 = arith.constant 0 : i32",
                "%pw = memref.load %pred[%i] : memref<?xi32>",
                "%p = arith.cmpi ne, %pw, %c0 : i32",
                "scf.if %p {"]
        body += ["  " + l for l in arm + ["memref.store %ew, %outa[%i] : memref<?xi32>"]]
        body += ["} else {"]
        body += ["  " + l for l in arm + ["memref.store %ew, %outb[%i] : memref<?xi32>"]]
        body += ["}"]
        args = ["%pred: memref<?xi32>", "%outa: memref<?xi32>", "%outb: memref<?xi32>"]
    return kernel(case["name"], args, body)


def atomic_kernel(case):
    """old[i] = warp.atomic_rmw <kind> of vals[i] to hist[keys[i]] for the
    threads that execute it (all, those whose pred holds, or the lanes of
    %mask)."""
    p = cases.PAYLOADS[case["type"]]
    mt = p["mlir"]
    mask = " mask %mask" if case["execute"] == "masked" else ""
    work = ["%k = memref.load %keys[%i] : memref<?xi32>",
            "%bin = arith.index_cast %k : i32 to index",
            f"%v = memref.load %vals[%i] : {memref(mt)}",
            f"%o = warp.atomic_rmw <{case['kind']}> %v, %hist[%bin]{mask} : {mt}, {memref(mt)}",
            f"memref.store %o, %old[%i] : {memref(mt)}"]
    if case["execute"] == "masked":
        body = only_mask_lanes(work)
    elif case["execute"] == "divergent":
        body = ["%c0 = arith.constant 0 : i32",
                "%pw = memref.load %pred[%i] : memref<?xi32>",
                "%p = arith.cmpi ne, %pw, %c0 : i32",
                "scf.if %p {"] + ["  " + l for l in work] + ["}"]
    else:
        body = work
    args = [f"%hist: {memref(mt)}", "%keys: memref<?xi32>", f"%vals: {memref(mt)}",
            f"%old: {memref(mt)}", "%pred: memref<?xi32>", "%mask: i32"]
    return kernel(case["name"], args, body)


# The combiner regions of cases.COMBINERS: the left tuple is %l0, %l1, ...
# (the lower lane's), the right one %r0, %r1, ...; reference.py holds the
# same functions.
COMBINER_BODIES = {
    "argmax": [
        "%gt = arith.cmpf ogt, %r0, %l0 : f32",
        "%rnan = arith.cmpf uno, %r0, %r0 : f32",
        "%lnum = arith.cmpf ord, %l0, %l0 : f32",
        "%nanwins = arith.andi %rnan, %lnum : i1",
        "%eq = arith.cmpf oeq, %r0, %l0 : f32",
        "%lnan = arith.cmpf uno, %l0, %l0 : f32",
        "%bothnan = arith.andi %lnan, %rnan : i1",
        "%same = arith.ori %eq, %bothnan : i1",
        "%lower = arith.cmpi slt, %r1, %l1 : i32",
        "%tie = arith.andi %same, %lower : i1",
        "%wins = arith.ori %gt, %nanwins : i1",
        "%takeright = arith.ori %wins, %tie : i1",
        "%v = arith.select %takeright, %r0, %l0 : f32",
        "%k = arith.select %takeright, %r1, %l1 : i32",
        "warp.yield %v, %k : f32, i32",
    ],
    "welford": [
        "%n = arith.addi %l0, %r0 : i32",
        "%fa = arith.sitofp %l0 : i32 to f32",
        "%fb = arith.sitofp %r0 : i32 to f32",
        "%fn = arith.sitofp %n : i32 to f32",
        "%d = arith.subf %r1, %l1 : f32",
        "%w = arith.divf %fb, %fn : f32",
        "%dw = arith.mulf %d, %w : f32",
        "%mean = arith.addf %l1, %dw : f32",
        "%dd = arith.mulf %d, %d : f32",
        "%aw = arith.mulf %fa, %w : f32",
        "%c = arith.mulf %dd, %aw : f32",
        "%q0 = arith.addf %l2, %r2 : f32",
        "%q = arith.addf %q0, %c : f32",
        "warp.yield %n, %mean, %q : i32, f32, f32",
    ],
    "affine": [
        "%a = arith.muli %r0, %l0 : i32",
        "%m = arith.muli %r0, %l1 : i32",
        "%b = arith.addi %m, %r1 : i32",
        "warp.yield %a, %b : i32, i32",
    ],
    "softmax": [
        "%m = arith.maximumf %l0, %r0 : f32",
        "%dl = arith.subf %l0, %m : f32",
        "%dr = arith.subf %r0, %m : f32",
        "%el = math.exp %dl : f32",
        "%er = math.exp %dr : f32",
        "%sl = arith.mulf %l1, %el : f32",
        "%sr = arith.mulf %r1, %er : f32",
        "%s = arith.addf %sl, %sr : f32",
        "warp.yield %m, %s : f32, f32",
    ],
}
COMBINER_BODIES["argmax_nc"] = COMBINER_BODIES["argmax"]
COMBINER_BODIES["argmax_f16"] = [l.replace("f32", "f16").replace("i32", "i16")
                                 for l in COMBINER_BODIES["argmax"]]


def region_body(lines):
    """The region's lines with every name it defines prefixed `cb_` (the
    region sees the kernel's names)."""
    defined = [re.match(r"%(\w+) =", l).group(1) for l in lines if re.match(r"%\w+ =", l)]
    pattern = re.compile(r"%(" + "|".join(defined) + r")\b")
    return [pattern.sub(r"%cb_\1", l) for l in lines]


def combiner_kernel(case):
    """in0.. and out0.. hold the tuple's values; flags the segment flags;
    only the lanes of %mask execute (the host passes all ones, the mask, or
    the first n lanes' mask); init0.. the scan's init."""
    comb = cases.COMBINERS[case["combiner"]]
    types = comb["types"]
    n = len(types)
    values = [f"%x{k}" for k in range(n)]
    results = [f"%y{k}" for k in range(n)]
    body = [f"%x{k} = memref.load %in{k}[%i] : {memref(t)}" for k, t in enumerate(types)]
    body += ["%fw = memref.load %flags[%i] : memref<?xi32>",
             "%fzero = arith.constant 0 : i32",
             "%f = arith.cmpi ne, %fw, %fzero : i32"]
    opts = []
    if case["op"] == "reduce":
        if case["segments"]:
            opts.append(f"{case['segments']} %f")
    else:
        if case["exclusive"]:
            opts.append("exclusive")
        if case["reverse"]:
            opts.append("reverse")
        opts.append(f"width {case['width']}")
        if case["init"]:
            opts.append("init " + ", ".join(f"%init{k}" for k in range(n)))
    if case["execution"] == "ragged":
        opts.append("valid_lanes %n")
    if case["execution"] != "full":
        opts.append("mask %mask")
    if case["op"] == "scan" and case["heads"]:
        opts.append("heads %f")
    if case["op"] == "reduce":
        size, stride = case["cluster"]
        opts.append(f"cluster_size = {size} cluster_stride = {stride} lanes = <{case['lanes']}>")
        if case["strategy"]:
            opts.append(f"strategy = <{case['strategy']}>")
        if comb["commutative"] and not comb.get("kind"):
            opts.append("commutative")
    head = f"warp.{case['op']} " + (f"<{comb['kind']}> " if comb.get("kind") else "")
    line = (f"{', '.join(results)} = {head}{', '.join(values)} {' '.join(opts)} : "
            f"{', '.join(types)}")
    if comb.get("kind"):
        body.append(line)
    else:
        args = [f"%l{k}: {t}" for k, t in enumerate(types)] + \
               [f"%r{k}: {t}" for k, t in enumerate(types)]
        body.append(line + f" combine ({', '.join(args)}) {{")
        body += ["  " + l for l in region_body(COMBINER_BODIES[case["combiner"]])]
        body.append("}")
    body += [f"memref.store %y{k}, %out{k}[%i] : {memref(t)}" for k, t in enumerate(types)]
    args = ([f"%in{k}: {memref(t)}" for k, t in enumerate(types)]
            + [f"%out{k}: {memref(t)}" for k, t in enumerate(types)]
            + ["%flags: memref<?xi32>", "%n: i32", "%mask: i32"]
            + [f"%init{k}: {t}" for k, t in enumerate(types)])
    return kernel(case["name"], args, only_mask_lanes(body))


BLOCK_THREAD_INDEX = [
    "%ty = gpu.thread_id y", "%tz = gpu.thread_id z",
    "%by = gpu.block_dim y", "%bz = gpu.block_dim z",
    "%yz = arith.muli %by, %tz : index", "%yz1 = arith.addi %ty, %yz : index",
    "%row = arith.muli %bdim, %yz1 : index", "%t = arith.addi %tid, %row : index",
    "%nxy = arith.muli %bdim, %by : index", "%nb = arith.muli %nxy, %bz : index",
    "%first = arith.muli %bid, %nb : index", "%e = arith.addi %first, %t : index",
]


def block_combiner_kernel(case):
    """in0.. hold the tuple's values (element b * B + t for thread t of block
    b), out0.. the results, then (scans) the block totals; init0.. the
    exclusive scan's init."""
    comb = cases.COMBINERS[case["combiner"]]
    types = comb["types"]
    n = len(types)
    values = ", ".join(f"%x{k}" for k in range(n))
    body = list(BLOCK_THREAD_INDEX)
    body += [f"%x{k} = memref.load %in{k}[%e] : {memref(t)}" for k, t in enumerate(types)]
    if case["op"] == "reduce":
        outs = [f"%y{k}" for k in range(n)]
        opts = " commutative" if comb["commutative"] else ""
        if case["algorithm"]:
            opts += f" algorithm = <{case['algorithm']}>"
        head = f"{', '.join(outs)} = warp.block_reduce {values}{opts} : {', '.join(types)}"
    else:
        outs = [f"%y{k}" for k in range(2 * n)]
        opts = ""
        if case["exclusive"]:
            opts += " exclusive init " + ", ".join(f"%init{k}" for k in range(n))
        opts += f" algorithm = <{case['algorithm']}>"
        head = (f"{', '.join(outs)} = warp.block_scan {values}{opts} : "
                f"{', '.join(types + types)}")
    args = [f"%l{k}: {t}" for k, t in enumerate(types)] + \
           [f"%r{k}: {t}" for k, t in enumerate(types)]
    body.append(head + f" combine ({', '.join(args)}) {{")
    body += ["  " + l for l in region_body(COMBINER_BODIES[case["combiner"]])]
    body.append("}")
    out_types = types * (len(outs) // n)
    body += [f"memref.store {y}, %out{k}[%e] : {memref(t)}"
             for k, (y, t) in enumerate(zip(outs, out_types))]
    args = ([f"%in{k}: {memref(t)}" for k, t in enumerate(types)]
            + [f"%out{k}: {memref(t)}" for k, t in enumerate(out_types)]
            + [f"%init{k}: {t}" for k, t in enumerate(types)])
    return kernel(case["name"], args, body)


def block_items_kernel(case):
    """block_reduce / block_scan with `items`: thread t = x + X * (y + Y * z)
    of block b holds the N elements from (b * B + t) * N of each input (the
    blocked arrangement, vector.load of vector<N x T>); init is the block's
    first element (thread 0's first item) or, for a region with init
    "identity", the map (1, 0). Outputs go to two buffers of T, in sections
    of every thread of the launch: %outs one element per thread (reduce,
    then total: cases.BLOCK_ITEMS_SCALAR_OUTPUTS), %outv N (scan, exclusive,
    exclusive with init: cases.BLOCK_ITEMS_VECTOR_OUTPUTS). A region case
    has two inputs (the affine map's a and b) and one section per value of
    each output (reduce a, b, total a, b; scan a, b, exclusive with init a,
    b) and no exclusive scan without init (a region knows no identity)."""
    n = case["items"]
    region = case.get("combiner")
    t = "i32" if region else cases.PAYLOADS[case["type"]]["mlir"]
    vt, mem = f"vector<{n}x{t}>", memref(t)
    algorithm = f" algorithm = <{case['algorithm']}>" if case["algorithm"] else ""
    body = BLOCK_THREAD_INDEX + [
        "%gx = gpu.grid_dim x",
        "%total_threads = arith.muli %gx, %nb : index",
        f"%cn = arith.constant {n} : index",
        "%total_items = arith.muli %total_threads, %cn : index",
        "%o = arith.muli %e, %cn : index",        # the thread's first item
        "%o0 = arith.muli %first, %cn : index",   # the block's first item
    ]
    stored = {"s": 0, "v": 0}

    def store(value, kind):
        """Lines storing `value` to the next section of %outs (kind "s",
        one element) or %outv ("v", N elements). Each result is stored as
        soon as it is made, so that few values stay live across barriers
        (see block_ops_kernel)."""
        k = stored[kind]
        stored[kind] += 1
        size, index = ("%total_threads", "%e") if kind == "s" else ("%total_items", "%o")
        lines = [f"%k{kind}{k} = arith.constant {k} : index",
                 f"%b{kind}{k} = arith.muli %k{kind}{k}, {size} : index",
                 f"%j{kind}{k} = arith.addi %b{kind}{k}, {index} : index"]
        if kind == "s":
            return lines + [f"memref.store {value}, %out{kind}[%j{kind}{k}] : {mem}"]
        return lines + [f"vector.store {value}, %out{kind}[%j{kind}{k}] : {mem}, {vt}"]

    if not region:
        kind = case["kind"]
        body += [f"%x = vector.load %in[%o] : {mem}, {vt}",
                 f"%x0 = memref.load %in[%o0] : {mem}",
                 f"%r = warp.block_reduce <{kind}> %x items{algorithm} : {vt}"]
        body += store("%r", "s")
        body.append(f"%s = warp.block_scan <{kind}> %x items{algorithm} : {vt}")
        body += store("%s", "v")
        body.append(f"%ex, %tot = warp.block_scan <{kind}> %x items exclusive{algorithm} : "
                    f"{vt}, {t}")
        body += store("%ex", "v") + store("%tot", "s")
        body.append(f"%exi = warp.block_scan <{kind}> %x items exclusive init %x0{algorithm} : "
                    f"{vt}")
        body += store("%exi", "v")
        args = [f"%in: {mem}", f"%outs: {mem}", f"%outv: {mem}"]
    else:
        types = cases.COMBINERS[region]["types"]
        assert types == ["i32", "i32"], "the kernel is written for a pair of i32"
        params = ", ".join([f"%l{k}: i32" for k in range(2)] + [f"%r{k}: i32" for k in range(2)])
        combine = ([f"combine ({params}) {{"]
                   + ["  " + l for l in region_body(COMBINER_BODIES[region])] + ["}"])
        body += [f"%va = vector.load %in0[%o] : {mem}, {vt}",
                 f"%vb = vector.load %in1[%o] : {mem}, {vt}"]
        if case["init"] == "first":
            body += [f"%i0 = memref.load %in0[%o0] : {mem}",
                     f"%i1 = memref.load %in1[%o0] : {mem}"]
        else:
            body += ["%i0 = arith.constant 1 : i32", "%i1 = arith.constant 0 : i32"]
        body.append(f"%ra, %rb = warp.block_reduce %va, %vb items{algorithm} : {vt}, {vt} "
                    + combine[0])
        body += combine[1:] + store("%ra", "s") + store("%rb", "s")
        body.append(f"%sa, %sb = warp.block_scan %va, %vb items{algorithm} : {vt}, {vt} "
                    + combine[0])
        body += combine[1:] + store("%sa", "v") + store("%sb", "v")
        body.append(f"%ea, %eb, %ta, %tb = warp.block_scan %va, %vb items exclusive init "
                    f"%i0, %i1{algorithm} : {vt}, {vt}, {t}, {t} " + combine[0])
        body += (combine[1:] + store("%ta", "s") + store("%tb", "s")
                 + store("%ea", "v") + store("%eb", "v"))
        args = [f"%in0: {mem}", f"%in1: {mem}", f"%outs: {mem}", f"%outv: {mem}"]
    known = case["known"]
    attributes = f"known_block_size = array<i32: {', '.join(map(str, known))}>" if known else ""
    return kernel(case["name"], args, body, attributes)


BUILDERS = {
    "shuffle": shuffle_kernel,
    "masked_shuffle": masked_shuffle_kernel,
    "reduce": reduce_kernel,
    "partial_reduce": partial_reduce_kernel,
    "masked_reduce": masked_reduce_kernel,
    "scan": scan_kernel,
    "segmented_scan": segmented_scan_kernel,
    "votes": votes_kernel,
    "arms": arms_kernel,
    "warp_id_2d": warp_id_2d_kernel,
    "gpu_shuffle_dyn": gpu_shuffle_dyn_kernel,
    "dyn_width_shuffle": dyn_width_shuffle_kernel,
    "any_mask_reduce": any_mask_reduce_kernel,
    "valid_scan": valid_scan_kernel,
    "match_float": match_float_kernel,
    "match_bits": match_bits_kernel,
    "broadcast_any_lane": broadcast_any_lane_kernel,
    "shfl_any_offset": shfl_any_offset_kernel,
    "block_ops": block_ops_kernel,
    "block_exchange": block_exchange_kernel,
    "block_scan_order": block_ops_kernel,
    "block_combiner": block_combiner_kernel,
    "block_items": block_items_kernel,
    "exchange": exchange_kernel,
    "scatter": scatter_kernel,
    "elect": elect_kernel,
    "atomic": atomic_kernel,
    "combiner": combiner_kernel,
}

# Families also built for this older chip, where the lowering differs
# (warp.elect: a ballot instead of elect.sync), so that the GPU checks both.
ALSO_BUILT_FOR = {"elect": "sm_80"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--warp-opt", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--families", default="",
                        help="comma-separated case families to build (default: every one; "
                             "`blocks` brings block_reduce and counts)")
    args = parser.parse_args()
    wanted = set(f for f in args.families.split(",") if f)
    os.makedirs(args.out, exist_ok=True)
    src_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

    by_family = {}
    manifest = []
    sm_version = int(args.chip[3:].rstrip("af"))
    for case in cases.all_cases():
        if wanted and case["family"] not in wanted:
            continue
        if case.get("strategy") == "redux" and sm_version < 80:
            continue  # redux.sync needs sm_80: forcing it is a diagnostic there
        if case["family"] == "blocks":
            case["ptx"] = "block_reduce.ptx"
            manifest.append(case)
            continue
        if case["family"] == "histogram":
            case["ptx"] = "warp_histogram.ptx"
            manifest.append(case)
            continue
        family = case["family"]
        by_family.setdefault(family, []).append(BUILDERS[family](case))
        case["ptx"] = f"{family}.ptx"
        manifest.append(case)

    jobs = [(family, "module attributes {gpu.container_module} {\ngpu.module @kernels {\n"
             + "\n".join(kernels) + "\n}\n}\n", args.chip) for family, kernels in by_family.items()]
    for family, chip in ALSO_BUILT_FOR.items():
        if family in by_family and int(chip[3:]) < sm_version:
            text = next(text for f, text, _ in jobs if f == family)
            jobs.append((f"{family}_{chip}", text, chip))
            for case in [c for c in manifest if c["family"] == family]:
                manifest.append(dict(case, name=f"{case['name']}_{chip}", kernel=case["name"],
                                     ptx=f"{family}_{chip}.ptx"))
    if not wanted or "blocks" in wanted:
        jobs.append(("block_reduce",
                     open(os.path.join(src_root, "examples", "block_reduce.mlir")).read(),
                     args.chip))
        # The instruction-count kernels, for the SASS evidence (cuobjdump there).
        jobs.append(("counts",
                     open(os.path.join(src_root, "test", "PTX", "instruction-counts.mlir")).read(),
                     args.chip))
    if not wanted or "histogram" in wanted:
        jobs.append(("warp_histogram",
                     open(os.path.join(src_root, "examples", "warp_histogram.mlir")).read(),
                     args.chip))
    procs = []
    for family, text, chip in jobs:
        mlir_path = os.path.join(args.out, f"{family}.mlir")
        with open(mlir_path, "w") as f:
            f.write(text)
        ptx_path = os.path.join(args.out, f"{family}.ptx")
        cmd = [args.warp_opt, mlir_path,
               f"--warp-lower-to-ptx=chip={chip} format=isa ptx-output={ptx_path}",
               "-o", os.devnull]
        procs.append((family, subprocess.Popen(cmd)))
    failed = [family for family, proc in procs if proc.wait() != 0]
    if failed:
        sys.exit(f"warp-opt failed for: {', '.join(failed)}")
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    print(f"{len(manifest)} kernels in {len(jobs)} PTX modules under {args.out}")


if __name__ == "__main__":
    main()
