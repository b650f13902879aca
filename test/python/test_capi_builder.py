"""The C API functions the builder asks instead of keeping Python copies:
warpIsPTXIdentifier (the rule warp-check-lowerable holds symbols to),
warpMMAFragmentLength (the dialect's fragment table) and warpOperationPrint
(one buffer instead of a callback per token). Expected values come from
the PTX ISA, written out here."""
import re

import pytest

import warp_mlir as wm
from warp_mlir import _capi

# PTX ISA, "Identifiers": followsym = [a-zA-Z0-9_$]; an identifier is
# [a-zA-Z]{followsym}* or [_$%]{followsym}+; WARP_SZ is predefined.
PTX_IDENTIFIER = re.compile(r"(?:[a-zA-Z][a-zA-Z0-9_$]*|[_$%][a-zA-Z0-9_$]+)\Z")


def _ref(text: str) -> _capi.MlirStringRef:
    return _capi.MlirStringRef.of(text.encode("utf-8"))


@pytest.mark.parametrize("name", ["k", "k$1", "_k", "$k", "%k", "K_9", "_", "$", "%", "",
                                  "1k", "a-b", "a.b", "é", "WARP_SZ", "warp_sz", "a b", "x\n"])
def test_ptx_identifier_rule(name):
    want = bool(PTX_IDENTIFIER.match(name)) and name != "WARP_SZ"
    assert _capi.lib().warpIsPTXIdentifier(_ref(name)) == want


# PTX ISA, wmma fragments per lane (elements): m16n16k16 a/b f16 16 (8
# .f16x2 registers), bf16 8 (4 .b32 registers), c/d f16 8 (4 .f16x2), f32 8;
# m16n16k8 a/b tf32 4, c/d f32 8.
FRAGMENTS = {("m16n16k16", "a", "f16"): 16, ("m16n16k16", "b", "f16"): 16,
             ("m16n16k16", "a", "bf16"): 8, ("m16n16k16", "b", "bf16"): 8,
             ("m16n16k16", "c", "f16"): 8, ("m16n16k16", "c", "f32"): 8,
             ("m16n16k8", "a", "f32"): 4, ("m16n16k8", "b", "f32"): 4,
             ("m16n16k8", "c", "f32"): 8}


@pytest.mark.parametrize("shape", ["m16n16k16", "m16n16k8", "m8n8k4", ""])
@pytest.mark.parametrize("operand", ["a", "b", "c", "d"])
@pytest.mark.parametrize("element", ["f16", "bf16", "f32", "f64", "i32"])
def test_mma_fragment_lengths(shape, operand, element):
    context = wm.Context()
    element_type = _capi.lib().mlirTypeParseGet(context._handle, _ref(element))
    length = _capi.lib().warpMMAFragmentLength(_ref(shape), _ref(operand), element_type)
    assert length == FRAGMENTS.get((shape, operand, element), 0)


def test_operation_print_is_the_printers_text():
    prog = wm.Program("printed")

    @prog.kernel(x=wm.memref(wm.f32))
    def scan(k, x):
        x[0] = k.scan("add", x[k.thread_id()], width=8)

    module = prog.module()
    L = _capi.lib()
    flags = L.mlirOpPrintingFlagsCreate()
    L.mlirOpPrintingFlagsEnableDebugInfo(flags, True, False)
    try:
        chunks = []
        callback = _capi.StringCallback(lambda ref, _: chunks.append(ref.bytes()))
        L.mlirOperationPrintWithFlags(module.operation, flags, callback, None)
        assert len(chunks) > 1  # mlir-c's printer calls back per token
        once = _capi.collect_string(L.warpOperationPrint, module.operation, flags)
    finally:
        L.mlirOpPrintingFlagsDestroy(flags)
    assert once == b"".join(chunks).decode("utf-8")
    assert "warp.scan <add>" in once and "width 8" in once
