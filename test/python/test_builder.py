"""Every builder op emits IR that parses, verifies and compiles to PTX that
ptxas accepts."""
import subprocess

import pytest

import warp_mlir as wm

ALL_OPS = wm.Program("ops")


@ALL_OPS.kernel(x=wm.memref(wm.f32), y=wm.memref(wm.i32), h=wm.memref(wm.vector(2, wm.f16)),
                out=wm.memref(wm.f32), iout=wm.memref(wm.i32), n=wm.i32)
def every_op(k, x, y, h, out, iout, n):
    i = k.global_id()
    v, key = x[i], y[i]
    lane, warp = k.lane_id(), k.warp_id()
    linear = k.warp_id(linear=True)
    masks = [k.lanemask(kind) for kind in ("lt", "le", "eq", "ge", "gt")]
    active = k.activemask()
    k.syncwarp()
    k.syncwarp(mask=active)
    s1, ok = k.shuffle("up", v, 1, width=16)
    s2, _ = k.shuffle("down", v, 2, width=8, mask=-1)
    s3, _ = k.shuffle("xor", v, 5)
    s4, _ = k.shuffle("idx", key, 3, width=4)
    pair, _ = k.shuffle("xor", h[i], 1)
    s5, _ = k.shuffle("down", v, 1, bound=k.lane_id() | 3)
    b = k.broadcast(v, 0)
    bf = k.broadcast_first(key)
    keep = v > 0.0
    bits = k.ballot(keep)
    votes = [k.vote(kind, keep) for kind in ("any", "all", "uni")]
    peers = k.match_any(key)
    digit_peers = k.match_any(key, bits=8, strategy="ballots")
    same, all_same = k.match_all(key)
    r1 = k.reduce("add", v)
    r2 = k.reduce("maxnumf", v, cluster_size=8, cluster_stride=2)
    r3 = k.reduce("minsi", key, lanes="first", strategy="tree")
    r4 = k.reduce("add", v, valid_lanes=n)
    r5 = k.reduce("xor", key, mask=-1)
    c1 = k.scan("add", v)
    c2, total = k.scan("add", key, exclusive=True, reverse=True, width=8, init=1, total=True)
    offset, count = k.compact(keep)
    runs = k.scan("add", key, heads=keep)
    popc = k.popc(bits)
    acc = s1 + s2 + s3 + s5 + b + r1 + r2 + r4 + c1 + k.select(ok, 1.0, 0.0, wm.f32)
    out[i] = acc * k.exp(-v) / k.sqrt(k.max(v, 1.0))
    with k.if_(votes[0] & votes[1] | votes[2]):
        total_i = s4 + bf + bits + peers + digit_peers + same + r3 + r5 + c2 + total + offset + count + popc + runs
        for m in masks + [active, warp, linear, lane]:
            total_i = total_i ^ m
        iout[i] = total_i + k.cast(all_same, wm.i32)
    loop = k.loop(0, 4, init=[v])
    with loop as (step, carried):
        loop.yield_(carried * 0.5 + k.cast(k.cast(step, wm.i32), wm.f32))
    out[i] = loop.results[0]
    h[i] = pair


def test_every_op_builds_and_verifies():
    text = str(ALL_OPS)
    for op in ("warp.lane_id", "warp.warp_id linear", "warp.lanemask <gt>", "warp.activemask",
               "warp.syncwarp mask", "warp.shuffle <up>", "warp.shuffle <idx>", "warp.broadcast ",
               "warp.broadcast_first", "warp.ballot", "warp.vote <uni>", "warp.match_any",
               "bits 8 strategy = <ballots>",
               "warp.match_all", "warp.reduce <maxnumf>", "valid_lanes", "strategy = <tree>",
               "warp.scan <add>", "exclusive reverse width 8 init", "heads", "warp.compact",
               "math.ctpop",
               "scf.for", "scf.yield", "scf.if", "vector<2xf16>"):
        assert op in text, op
    wm.Module.parse(text).verify()


def test_every_op_compiles_and_assembles(ptxas, tmp_path):
    compiled = wm.compile(ALL_OPS, chip="sm_90")
    assert set(compiled.kernels) == {"every_op"}
    ptx = tmp_path / "ops.ptx"
    ptx.write_text(compiled.ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(ptx), "-o", str(tmp_path / "ops.cubin")], check=True)
    for instruction in ("shfl.sync.up", "redux.sync", "vote.sync.ballot", "match.any.sync",
                        "activemask", "bar.warp.sync"):
        assert instruction in compiled.ptx, instruction


def test_type_errors_are_python_errors():
    prog = wm.Program()
    with pytest.raises(TypeError, match="type mismatch"):
        @prog.kernel(x=wm.memref(wm.f32), y=wm.memref(wm.i32))
        def bad(k, x, y):
            x[0] = x[0] + y[0]
    with pytest.raises(TypeError, match="no Python truth value"):
        @prog.kernel(x=wm.memref(wm.f32))
        def branchy(k, x):
            if x[0] > 0.0:
                pass
    with pytest.raises(IndexError, match="needs 2 indices"):
        @prog.kernel(x=wm.memref(wm.f32, (-1, 4)))
        def rank(k, x):
            x[0] = 1.0


def test_boolean_widens_to_one():
    prog = wm.Program()

    @prog.kernel(out=wm.memref(wm.i32))
    def flag(k, out):
        out[0] = k.cast(k.lane_id() == 0, wm.i32)

    assert "arith.extui" in str(prog) and "arith.extsi" not in str(prog)


def test_boolean_constants_parse():
    prog = wm.Program()

    @prog.kernel(out=wm.memref(wm.i32))
    def flags(k, out):
        out[0] = k.ballot(k.constant(True, wm.i1)) + k.ballot(k.constant(False, wm.i1))

    wm.Module.parse(str(prog)).verify()
