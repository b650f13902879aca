"""warp.ballot and warp.vote of a tile (`width` < 32: cooperative groups'
tiled_partition<w>.ballot / .any / .all) on the simulator (and a GPU),
against reference.tile_ballot / tile_vote, written from the definitions:
each lane's tile is lanes lane - lane % w .. + w - 1, the ballot's bit i
is the tile's lane i, the votes are over the tile's lanes of the mask.
Warp 0 runs with the whole warp (no mask), warp 1 with a random mask, its
members inside a branch; predicates are drawn so that some tiles are all
true, some all false, some mixed."""
import functools
import sys
from pathlib import Path

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Integration" / "CUDA"))
import reference as ref  # noqa: E402

WARP = 32
KINDS = ("any", "all", "uni")


@functools.lru_cache(maxsize=None)
def vote_program(width):
    """Thread t writes its ballot and any/all/uni to out[4t .. 4t+3]: warp 0
    without a mask, warp 1's members (members[t] == 1) with masks[1]."""
    prog = wm.Program(f"tile_votes_{width}")

    @prog.kernel(preds=wm.memref(wm.i32), members=wm.memref(wm.i32),
                 masks=wm.memref(wm.i32), out=wm.memref(wm.i32))
    def votes(k, preds, members, masks, out):
        t = k.thread_id()
        p = preds[t] == 1

        def body(mask):
            out[t * 4] = k.ballot(p, mask=mask, width=width)
            for i, kind in enumerate(KINDS):
                out[t * 4 + 1 + i] = k.cast(k.vote(kind, p, mask=mask, width=width), wm.i32)
        with k.if_(t < WARP):
            body(None)
        with k.if_((t >= WARP) & (members[t] == 1)):
            body(masks[1])
    return prog


def draw(rng, width):
    """Per thread of two warps: a predicate (tiles all true, all false or
    random, by tile) and membership (warp 1 only)."""
    preds = np.zeros(2 * WARP, np.int32)
    for first in range(0, 2 * WARP, width):
        style = rng.integers(0, 3)
        preds[first:first + width] = 1 if style == 0 else 0 if style == 1 else \
            rng.integers(0, 2, width)
    members = np.ones(2 * WARP, np.int32)
    members[WARP:] = rng.random(WARP) < 0.7
    members[WARP + rng.integers(0, WARP)] = 1
    mask = int(sum(1 << lane for lane in range(WARP) if members[WARP + lane]))
    return preds, members, mask


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("width", [1, 2, 4, 8, 16, 32])
def test_tile_votes(backend, width):
    rng = np.random.default_rng(100 + width)
    preds, members, mask = draw(rng, width)
    masks = np.array([-1, np.uint32(mask).view(np.int32)], np.int32)
    out = np.full(4 * 2 * WARP, -5, np.int32)
    wm.launch(wm.compile(vote_program(width), chip="sm_90"), "votes", 1, 2 * WARP,
              preds, members, masks, out, backend=backend)
    got = out.reshape(-1, 4)
    for w, members_mask in ((0, 0xFFFFFFFF), (1, mask)):
        lanes = preds[w * WARP:(w + 1) * WARP]
        want = [ref.tile_ballot(lanes, members_mask, width)] + \
               [ref.tile_vote(kind, lanes, members_mask, width) for kind in KINDS]
        for lane in range(WARP):
            row = got[w * WARP + lane]
            if want[0][lane] is None:
                assert list(row) == [-5] * 4, (w, lane)
                continue
            expect = [want[0][lane]] + [int(v[lane]) for v in want[1:]]
            assert [int(np.uint32(row[0].view(np.uint32)))] + list(row[1:]) == expect, \
                (w, lane, row, expect)


def test_tile_vote_ir_and_errors():
    """The builder writes `width` (not the default 32); a width that is not
    a power of two is the verifier's error at the call."""
    text = str(vote_program(8))
    assert "warp.ballot %" in text and " width 8 : i32" in text
    assert "warp.vote <uni> %" in text and str(vote_program(32)).count(" width ") == 0

    def kernel(k, x):
        k.vote("any", x[0] == 1, width=12)
    with pytest.raises(wm.VerificationError, match="power of two in"):
        wm.Program().kernel(x=wm.memref(wm.i32))(kernel)
