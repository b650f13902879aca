"""A lockstep interpreter of expanded warp IR for 32 lanes: straight-line
functions in generic form, as `warp-expand-collectives` leaves reductions
and scans (warp.shuffle/scan_step/ballot/lane_id/lanemask, arith, math bit counts,
the `fns` inline asm). It checks the lowerings' lane semantics without a
GPU. Shuffles follow the PTX rule as reference.py transcribes it; lanes that
do not execute hold no value (POISON), and reading one poisons the reader.
"""
import re

import numpy as np

import reference as ref

WARP = 32
POISON = object()

_CMPI = {0: lambda a, b, s: a == b, 1: lambda a, b, s: a != b,
         2: lambda a, b, s: s(a) < s(b), 3: lambda a, b, s: s(a) <= s(b),
         4: lambda a, b, s: s(a) > s(b), 5: lambda a, b, s: s(a) >= s(b),
         6: lambda a, b, s: a < b, 7: lambda a, b, s: a <= b,
         8: lambda a, b, s: a > b, 9: lambda a, b, s: a >= b}
_CMPF = {1: "eq", 2: "gt", 3: "ge", 4: "lt", 5: "le", 6: "ne"}
_LANEMASKS = {"lt": lambda l: (1 << l) - 1, "le": lambda l: (1 << (l + 1)) - 1,
              "eq": lambda l: 1 << l, "ge": lambda l: (0xFFFFFFFF << l) & 0xFFFFFFFF,
              "gt": lambda l: (0xFFFFFFFF << (l + 1)) & 0xFFFFFFFF}
_OP = re.compile(r'(%\w+)(?::\d+)? = "([\w.]+)"\((.*?)\)(?: <\{(.*)\}>)? : '
                 r'\((.*?)\) -> \(?(.*?)\)?$')


# warp.scan_step's kinds: the arith op of each on integers and on floats.
_SCAN_STEP_OPS = {"add": ("arith.addi", "arith.addf"), "mul": ("arith.muli", "arith.mulf"),
                  "minsi": ("arith.minsi", None), "maxsi": ("arith.maxsi", None),
                  "minui": ("arith.minui", None), "maxui": ("arith.maxui", None),
                  "and": ("arith.andi", None), "or": ("arith.ori", None),
                  "xor": ("arith.xori", None)}


def _compare_floats(predicate, a, b):
    unordered = bool(np.isnan(a) or np.isnan(b))
    if predicate in (7, 14):  # ord, uno
        return unordered == (predicate == 14)
    relation = _CMPF[(predicate - 7) if predicate > 7 else predicate]
    holds = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b,
             "ne": a != b}[relation]
    return (unordered or bool(holds)) if predicate > 7 else (not unordered and bool(holds))


def _maximumf(a, b):
    if np.isnan(a) or np.isnan(b):
        return a if np.isnan(a) else b
    if a == b:
        return b if np.signbit(a) else a
    return a if a > b else b


def _bits(type_name):
    return int(type_name[1:]) if type_name.startswith("i") else None


def _lane_op(op, attrs, xs, bits, in_bits, out_type):
    wrap = (1 << bits) - 1 if bits else None
    signed = lambda v: v - (1 << in_bits) if v >> (in_bits - 1) else v  # noqa: E731
    a = xs[0]
    b = xs[1] if len(xs) > 1 else None
    simple = {
        "arith.addi": lambda: (a + b) & wrap, "arith.subi": lambda: (a - b) & wrap,
        "arith.muli": lambda: (a * b) & wrap, "arith.andi": lambda: a & b,
        "arith.ori": lambda: a | b, "arith.xori": lambda: a ^ b,
        "arith.shli": lambda: (a << b) & wrap if b < bits else 0,
        "arith.shrui": lambda: a >> b if b < in_bits else 0,
        "arith.maxsi": lambda: a if signed(a) >= signed(b) else b,
        "arith.minsi": lambda: a if signed(a) <= signed(b) else b,
        "arith.extui": lambda: a, "arith.trunci": lambda: a & wrap,
        "arith.addf": lambda: type(a)(a + b), "arith.subf": lambda: type(a)(a - b),
        "arith.mulf": lambda: type(a)(a * b), "arith.divf": lambda: type(a)(a / b),
        "arith.maximumf": lambda: _maximumf(a, b),
        "arith.sitofp": lambda: np.float32(signed(a)),
        "math.ctpop": lambda: bin(a).count("1"), "math.ctlz": lambda: 32 - a.bit_length(),
        "math.cttz": lambda: (a & -a).bit_length() - 1 if a else 32,
        "math.exp": lambda: np.float32(np.exp(np.float64(a))),
    }
    if op in simple:
        return simple[op]()
    predicate = int(re.search(r"predicate = (\d+)", attrs).group(1)) if "predicate" in attrs else 0
    if op == "arith.cmpi":
        return int(_CMPI[predicate](a, b, signed))
    if op == "arith.cmpf":
        return int(_compare_floats(predicate, a, b))
    if op == "arith.bitcast":
        if out_type == "f16":
            return np.array([a], np.uint16).view(np.float16)[0]
        return int(np.array([a], np.float16).view(np.uint16)[0])
    raise NotImplementedError(op)


def _constant(attrs):
    value, type_name = re.search(r"value = ([^ ]+) : (\w+)", attrs).groups()
    if type_name.startswith("f"):
        return {"f16": np.float16, "f32": np.float32, "f64": np.float64}[type_name](float(value))
    if value in ("true", "false"):
        return int(value == "true")
    return int(value) & ((1 << _bits(type_name)) - 1)


def run(generic_text, args, active):
    """Runs the function of `generic_text` on 32 lanes: `args` holds one list
    of 32 lane values per argument (integers as unsigned Python ints, floats
    as numpy scalars), `active` the lanes that execute. Returns one list of
    32 lane values per result."""
    env = {}
    for line in generic_text.splitlines():
        line = line.strip()
        entry = re.match(r"\^bb0\((.*)\):", line)
        if entry and not env:
            names = [a.split(":")[0].strip() for a in entry.group(1).split(",")]
            env.update({name: list(values) for name, values in zip(names, args)})
            continue
        if line.startswith('"func.return"'):
            operands = re.match(r'"func.return"\((.*?)\)', line).group(1)
            return [env[name.strip()] for name in operands.split(",")]
        match = _OP.match(line)
        if not match:
            continue
        result, op, operands, attrs, in_types, out_types = match.groups()
        attrs = attrs or ""
        xs = [env[o.strip()] for o in operands.split(",")] if operands.strip() else []
        out_type = out_types.split(",")[0].strip()
        if op == "arith.constant":
            env[result] = [_constant(attrs)] * WARP
        elif op == "warp.lane_id":
            env[result] = list(range(WARP))
        elif op == "warp.lanemask":
            kind = re.search(r"lanemask_kind<(\w+)>", attrs).group(1)
            env[result] = [_LANEMASKS[kind](lane) for lane in range(WARP)]
        elif op == "warp.ballot":
            bits = sum(1 << l for l in active if xs[0][l] is not POISON and xs[0][l])
            env[result] = [bits] * WARP
        elif op == "warp.shuffle":
            mode = re.search(r"shuffle_mode<(\w+)>", attrs).group(1)
            width = int(re.search(r"width = (\d+)", attrs).group(1))
            # Operands: value, offset, [dynamic width], [bound], [mask].
            segments = [int(n) for n in re.search(
                r"operandSegmentSizes = array<i32: ([\d, ]+)>", attrs).group(1).split(",")]
            bounds = xs[2 + segments[2]] if segments[3] else None
            values, valids = [], []
            for lane in range(WARP):
                offset = xs[1][lane]
                bound = bounds[lane] if bounds else None
                if offset is POISON or bound is POISON:
                    values.append(POISON)
                    valids.append(POISON)
                    continue
                source, valid = ref.shuffle_source(mode, lane, offset & 31, width, bound)
                values.append(xs[0][source] if source in active else POISON)
                valids.append(int(valid))
            env[result + "#0"], env[result + "#1"] = values, valids
        elif op == "warp.scan_step":
            # A shuffle up/down by `offset`, then `partner (kind) value`
            # (partner_first) or `value (kind) partner` where it is valid;
            # an invalid shuffle leaves the lane's own value.
            kind = re.search(r"kind<(\w+)>", attrs).group(1)
            mode = re.search(r"shuffle_mode<(\w+)>", attrs).group(1)
            offset = int(re.search(r"offset = (\d+)", attrs).group(1))
            width = int(re.search(r"width = (\d+)", attrs).group(1))
            partner_first = "partner_first" in attrs
            # Operands: value, [bound], [mask].
            segments = [int(n) for n in re.search(
                r"operandSegmentSizes = array<i32: ([\d, ]+)>", attrs).group(1).split(",")]
            bounds = xs[1] if segments[1] else None
            is_float = out_type.startswith("f")
            combine_op = _SCAN_STEP_OPS[kind][1 if is_float else 0]
            values = []
            for lane in range(WARP):
                bound = bounds[lane] if bounds else None
                mine = xs[0][lane]
                if bound is POISON or mine is POISON:
                    values.append(POISON)
                    continue
                source, valid = ref.shuffle_source(mode, lane, offset, width, bound)
                partner = xs[0][source] if source in active else POISON
                if not valid or partner is POISON:
                    values.append(partner)
                    continue
                pair = [partner, mine] if partner_first else [mine, partner]
                values.append(_lane_op(combine_op, "", pair, _bits(out_type),
                                       _bits(out_type) or 32, out_type))
            env[result] = values
        elif op == "llvm.inline_asm":  # fns.b32 d, members, base, nth (1-based)
            found = []
            for lane in range(WARP):
                members, base, nth = (x[lane] for x in xs)
                if POISON in (members, nth):
                    found.append(POISON)
                    continue
                lanes = [q for q in range(base, WARP) if members >> q & 1]
                found.append(lanes[nth - 1] if 1 <= nth <= len(lanes) else 0xFFFFFFFF)
            env[result] = found
        elif op == "arith.select":
            env[result] = [POISON if c is POISON else (t if c else f)
                           for c, t, f in zip(*xs)]
        else:
            in_bits = _bits(in_types.split(",")[0].strip()) or 32
            env[result] = [POISON if any(x[lane] is POISON for x in xs) else
                           _lane_op(op, attrs, [x[lane] for x in xs], _bits(out_type), in_bits,
                                    out_type)
                           for lane in range(WARP)]
    raise ValueError("no func.return")
