"""The combine kinds the builder accepts per value domain come from the
dialect's kind table through the C API (warpCombineKindDomains); here they
are checked against semantics.md's list of kinds, written out independently,
and against the builder's type errors."""
import pytest

import warp_mlir as wm
from warp_mlir import _capi

INTEGERS, FLOATS = 1, 2
# semantics.md: add and mul on both; min/max signed and unsigned, and, or,
# xor on integers; min/max float in both NaN policies on floats.
EXPECTED = {
    "add": INTEGERS | FLOATS, "mul": INTEGERS | FLOATS,
    "minsi": INTEGERS, "maxsi": INTEGERS, "minui": INTEGERS, "maxui": INTEGERS,
    "and": INTEGERS, "or": INTEGERS, "xor": INTEGERS,
    "minnumf": FLOATS, "maxnumf": FLOATS, "minimumf": FLOATS, "maximumf": FLOATS,
}


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_kind_domains_from_the_dialect(kind):
    domains = _capi.lib().warpCombineKindDomains(_capi.MlirStringRef.of(kind.encode()))
    assert domains == EXPECTED[kind]


@pytest.mark.parametrize("name", ["", "sum", "ADD", "min", "addf"])
def test_unknown_kind_has_no_domain(name):
    assert _capi.lib().warpCombineKindDomains(_capi.MlirStringRef.of(name.encode())) == 0


@pytest.mark.parametrize("kind", sorted(EXPECTED))
@pytest.mark.parametrize("element", ["i32", "f32"])
def test_builder_refuses_kind_outside_its_domain(kind, element):
    prog = wm.Program(f"kinds_{kind}_{element}")
    dtype = getattr(wm, element)
    takes = EXPECTED[kind] & (FLOATS if element == "f32" else INTEGERS)

    def body(k, x, out):
        i = k.global_id()
        out[i] = k.reduce(kind, x[i])

    if takes:
        prog.kernel(x=wm.memref(dtype), out=wm.memref(dtype))(body)
        assert f"<{kind}>" in str(prog)
    else:
        with pytest.raises(wm.VerificationError, match=f"'warp.reduce' op .*{kind}"):
            prog.kernel(x=wm.memref(dtype), out=wm.memref(dtype))(body)
