"""Checks of the Python values that end up in attribute text, pass options
and launch parameters, and the exact bits of float constants.

Everything the package pastes into a pipeline string or an attribute's
text goes through here first, so a bad value is a Python exception at the
call that got it, never text that parses into something else. What the IR
may hold is the compiler's to check (its verifiers, at the builder call).
Wrong Python types raise TypeError; values of the right type out of their
range raise ValueError.
"""
from __future__ import annotations

import math
import operator
import re
import struct
from typing import Any, Iterable, Optional, Tuple

# Parameter names: plain ASCII identifiers (they name the kernel's
# arguments in the printed IR).
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def identifier(name: Any, what: str) -> str:
    """`name` when it is a plain ASCII identifier; ValueError (TypeError for
    a non-string) otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a string, not {type(name).__name__}")
    if not _IDENTIFIER.match(name):
        raise ValueError(f"{what} {name!r} is not an identifier: use ASCII letters, digits "
                         f"and '_' (not first a digit)")
    return name


def integer(value: Any, what: str, low: Optional[int] = None, high: Optional[int] = None,
            kind_error: type = TypeError) -> int:
    """`value` when it is a Python int (not a bool, not a float) in
    [low, high]: `kind_error` for another kind of value, ValueError for one
    out of range. Objects with __index__ (numpy integers) count as ints."""
    try:
        if isinstance(value, bool):
            raise TypeError
        value = operator.index(value)
    except TypeError:
        raise kind_error(f"{what} must be an int, not {type(value).__name__} ({value!r})") from None
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low}..{high}" if low is not None and high is not None else (
            f">= {low}" if low is not None else f"<= {high}")
        raise ValueError(f"{what} must be in {bounds}, got {value}")
    return value


def flag(value: Any, what: str) -> bool:
    """`value` when it is a bool (a unit attribute present or not);
    TypeError otherwise."""
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be True or False, not {value!r}")
    return value


def one_of(value: Any, what: str, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(choices)}; got {value!r}")
    return value


_KEYWORD = re.compile(r"[a-z][a-z0-9_]*\Z")


def keyword(value: Any, what: str) -> str:
    """A lower-case keyword pasted into IR (an enum case the dialect
    checks): letters, digits and '_' only, so it cannot change the text
    around it."""
    if not isinstance(value, str) or not _KEYWORD.match(value):
        raise ValueError(f"{what} must be a lower-case keyword such as 'add', got {value!r}")
    return value


def int_range(type_name: str) -> Tuple[int, int]:
    """The Python ints an integer type takes in a constant: its signed or
    its unsigned range (MLIR's rule: -1 and 0xFFFFFFFF are both i32 -1);
    index is a signed 64-bit integer."""
    if type_name == "index":
        return -(1 << 63), (1 << 63) - 1
    bits = int(type_name[1:])
    if bits == 1:
        return 0, 1
    return -(1 << (bits - 1)), (1 << bits) - 1


def int_literal(value: Any, type_name: str) -> int:
    """A Python int for an integer constant of `type_name`: floats and bools
    (outside i1) are TypeErrors, values out of range ValueErrors."""
    low, high = int_range(type_name)
    if type_name == "i1" and isinstance(value, bool):
        return int(value)
    return integer(value, f"a constant of type {type_name}", low, high)


# (exponent bits, explicit mantissa bits) of each float type.
FLOAT_FORMATS = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}


def float_bits(value: Any, type_name: str) -> int:
    """The bit pattern of `value` (a Python float or int) rounded to the
    float type `type_name` (f16, bf16, f32, f64) in one step, to nearest
    with ties to even, as IEEE 754 converts: exact for every finite value,
    subnormals, -0.0, infinities and NaN (sign and leading payload bits kept,
    quiet bit set). A finite value that rounds to infinity raises
    ValueError: write float('inf') for infinity."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"a constant of type {type_name} must be a Python float or int, "
                        f"not {type(value).__name__} ({value!r})")
    exp_bits, man_bits = FLOAT_FORMATS[type_name]
    width = 1 + exp_bits + man_bits
    sign_bit = 1 << (width - 1)
    infinity = ((1 << exp_bits) - 1) << man_bits
    if isinstance(value, float):
        (bits64,) = struct.unpack(">Q", struct.pack(">d", value))
        sign = sign_bit if bits64 >> 63 else 0
        if math.isnan(value):
            if type_name == "f64":
                return bits64
            payload = (bits64 & ((1 << 52) - 1)) >> (52 - man_bits)
            return sign | infinity | (1 << (man_bits - 1)) | payload
        if math.isinf(value):
            return sign | infinity
        if value == 0.0:
            return sign
        mantissa, exponent = math.frexp(abs(value))
        n, k = int(mantissa * (1 << 53)), exponent - 53  # |value| = n * 2**k, exactly
    else:
        if value == 0:
            return 0
        sign = sign_bit if value < 0 else 0
        n, k = abs(value), 0
    bias = (1 << (exp_bits - 1)) - 1
    emin = 1 - bias
    e = n.bit_length() - 1 + k          # 2**e <= |value| < 2**(e+1)
    ulp = max(e, emin) - man_bits       # the exponent of the last mantissa bit
    shift = ulp - k
    if shift <= 0:
        q = n << -shift
    else:
        q, rest = n >> shift, n & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if rest > half or (rest == half and q & 1):
            q += 1
    # A subnormal's bits are q; a normal's are its biased exponent and q
    # without the hidden bit. Rounding up carries into the exponent either way.
    bits = q if e < emin else ((e + bias) << man_bits) + q - (1 << man_bits)
    if bits >= infinity:
        raise ValueError(f"{value!r} is out of range for {type_name} "
                         f"(it rounds to infinity; write float('inf') for that)")
    return sign | bits


def float_literal(value: Any, type_name: str) -> str:
    """An MLIR float literal that parses to exactly float_bits(value): the
    hexadecimal bit pattern (arith.constant 0x7FF8000000000000 : f64)."""
    bits = float_bits(value, type_name)
    digits = (1 + sum(FLOAT_FORMATS[type_name])) // 4
    return f"0x{bits:0{digits}X}"
