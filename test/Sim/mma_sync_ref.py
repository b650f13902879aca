"""Operands and expected results for mma-sync.test (Inputs/mma-sync.ptx).

    mma_sync_ref.py args CASE    prints the warp-sim arguments of CASE
    mma_sync_ref.py check CASE   reads warp-sim's output on stdin, compares
                                 the result buffer with the expectation;
                                 exit status 1 on a mismatch

The fragments follow the PTX ISA tables ("Matrix fragments for
mma.m16n8k*", ldmatrix, stmatrix), written out here element by element,
independently of the simulator; D = A * B + C is computed with plain Python
arithmetic. Float inputs are small multiples of 1/4, so every sum is exact
in the accumulator type and any correct rounding gives the same bits.
"""
import struct
import sys

LANES = range(32)


def group(lane):
    return lane // 4, lane % 4


# --- element positions: (row, col) of element i of a lane's fragment ---

def pos_c(lane, i):
    g, t = group(lane)
    return g + 8 * (i // 2), 2 * t + i % 2


def pos_a(bits, k, lane, i):
    g, t = group(lane)
    if bits == 16 and k == 16:
        return g + 8 * ((i // 2) % 2), 2 * t + i % 2 + 8 * (i // 4)
    if bits == 16:  # k = 8
        return g + 8 * (i // 2), 2 * t + i % 2
    if bits == 32:  # tf32, k = 8 or 4
        return g + 8 * (i % 2), t + 4 * (i // 2)
    return g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8)  # 8-bit


def pos_b(bits, lane, i):
    g, t = group(lane)
    if bits == 16:
        return 2 * t + i % 2 + 8 * (i // 2), g
    if bits == 32:
        return t + 4 * i, g
    return 4 * t + i % 4 + 16 * (i // 4), g


# --- encodings of one element ---

def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def encode(ty, v, lane=0, i=0):
    if ty == "f16":
        return struct.unpack("<H", struct.pack("<e", v))[0]
    if ty == "bf16":
        bits = f32_bits(v)
        assert bits & 0xFFFF == 0, v
        return bits >> 16
    if ty == "tf32":
        # Low 13 bits the tensor core must ignore.
        return f32_bits(v) | ((lane * 733 + i * 2917 + 1) & 0x1FFF)
    if ty == "f32":
        return f32_bits(v)
    bits = {"s8": 8, "u8": 8, "s32": 32}[ty]
    return v & ((1 << bits) - 1)


WIDTH = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "s8": 8, "u8": 8,
         "s32": 32}


def fragments(ty, lane_elems, pos, matrix):
    """The lanes' registers (lane-major) holding `matrix` in a layout."""
    bits = WIDTH[ty]
    per_reg = 32 // bits
    words = []
    for lane in LANES:
        regs = [0] * (lane_elems // per_reg)
        for i in range(lane_elems):
            r, c = pos(lane, i)
            x = encode(ty, matrix[r][c], lane, i)
            regs[i // per_reg] |= x << (bits * (i % per_reg))
        words += regs
    return words


# --- mma.sync cases: kernel, K, A, B, D (= C) types, .satfinite, values ---

def halves(r, k):
    return ((r * 3 + k) % 7 - 3) / 2


def quarters(k, c):
    return ((k * 5 + c * 2) % 9 - 4) / 4


def small_a(r, k):
    return (r * 3 + k) % 7 - 3


def small_b(k, c):
    return (k * 5 + c * 2) % 9 - 4


def s8_a(r, k):
    return (r * 37 + k * 11) % 256 - 128


def s8_b(k, c):
    return (k * 13 + c * 29) % 256 - 128


def u8_a(r, k):
    return 200 + (r * 7 + k * 3) % 56


def big_c(r, c):
    """Near the s32 limits, so that some sums leave the range."""
    return (2**31 - 1 - 1000 * c) if r % 2 == 0 else (-2**31 + 1000 * c)


MMA = {
    "f16_f32": ("mma_f16_f32", 16, "f16", "f16", "f32", False,
                halves, quarters, lambda r, c: r - 2 * c + 0.5),
    "f16_f32_k8": ("mma_f16_f32_k8", 8, "f16", "f16", "f32", False,
                   halves, quarters, lambda r, c: c * 0.25 - r),
    "f16_f16": ("mma_f16_f16", 16, "f16", "f16", "f16", False,
                small_a, small_b, lambda r, c: r - c),
    "bf16": ("mma_bf16", 16, "bf16", "bf16", "f32", False,
             halves, quarters, lambda r, c: 3 * c - r),
    "bf16_k8": ("mma_bf16_k8", 8, "bf16", "bf16", "f32", False,
                quarters, halves, lambda r, c: r * c / 4),
    "tf32": ("mma_tf32", 8, "tf32", "tf32", "f32", False,
             halves, quarters, lambda r, c: r + c),
    "tf32_k4": ("mma_tf32_k4", 4, "tf32", "tf32", "f32", False,
                quarters, halves, lambda r, c: -r - c),
    "s8": ("mma_s8", 32, "s8", "s8", "s32", False, s8_a, s8_b, big_c),
    "u8s8_satfinite": ("mma_u8s8_satfinite", 32, "u8", "s8", "s32", True,
                       u8_a, s8_b, big_c),
    "s8u8_k16": ("mma_s8u8_k16", 16, "s8", "u8", "s32", False,
                 s8_a, lambda k, c: (k * 13 + c * 29) % 256, big_c),
}


def mma_case(name):
    kernel, k, at, bt, dt, satfinite, fa, fb, fc = MMA[name]
    a = [[fa(r, i) for i in range(k)] for r in range(16)]
    b = [[fb(i, c) for c in range(8)] for i in range(k)]
    c = [[fc(r, j) for j in range(8)] for r in range(16)]
    d = [[c[r][j] + sum(a[r][i] * b[i][j] for i in range(k))
          for j in range(8)] for r in range(16)]
    if dt == "s32":
        inside = [v for row in d for v in row if -2**31 <= v < 2**31]
        assert 0 < len(inside) < 128, "the case must leave the s32 range"
        if satfinite:
            d = [[min(max(v, -2**31), 2**31 - 1) for v in row] for row in d]
    args = [fragments(at, k // 2, lambda l, i: pos_a(WIDTH[at], k, l, i), a),
            fragments(bt, k // 4, lambda l, i: pos_b(WIDTH[bt], l, i), b),
            fragments(dt, 4, pos_c, c)]
    expected = fragments(dt, 4, pos_c, d)
    return kernel, args, expected


# --- ldmatrix / stmatrix: N matrices of 8 rows of 8 b16 in `smem` ---

MOVES = {  # kernel, N, .trans, the kernel's immediate address offset
    "ldmatrix_x4": ("ldmatrix_x4", 4, False, 0),
    "ldmatrix_x2_trans": ("ldmatrix_x2_trans", 2, True, 32),
    "ldmatrix_x1_generic": ("ldmatrix_x1_generic", 1, False, 0),
    "stmatrix_x1": ("stmatrix_x1", 1, False, 0),
    "stmatrix_x4_trans": ("stmatrix_x4_trans", 4, True, 0),
}


def row_offsets(n, offset):
    """Row 8m + r at 16-byte slot 2 + (37 q + 5) % 62 of smem (1024 bytes);
    the lanes past 8n name addresses outside it, which must go unread."""
    slots = [2 + (q * 37 + 5) % 62 for q in range(8 * n)]
    rows = [s * 16 - offset for s in slots] + [0x7FFF0] * (32 - 8 * n)
    return slots, rows


def lane_element(trans, lane, m, half):
    """(matrix, row, col) of the half of lane's register m."""
    g, t = group(lane)
    return (m, 2 * t + half, g) if trans else (m, g, 2 * t + half)


def words_of(halfwords):
    return [halfwords[2 * i] | halfwords[2 * i + 1] << 16
            for i in range(len(halfwords) // 2)]


def move_case(name):
    kernel, n, trans, offset = MOVES[name]
    slots, rows = row_offsets(n, offset)

    def where(m, row, col):  # halfword index in smem
        return slots[8 * m + row] * 8 + col

    if kernel.startswith("ldmatrix"):
        smem = [(h * 7919 + 0x1234) & 0xFFFF for h in range(512)]
        out = [smem[where(*lane_element(trans, lane, m, 0))] |
               smem[where(*lane_element(trans, lane, m, 1))] << 16
               for lane in LANES for m in range(n)]
        return kernel, [words_of(smem), rows], out
    # Every halfword distinct: register q holds 0x1000 + 2q, 0x1001 + 2q.
    regs = [(0x1000 + 2 * q) | (0x1001 + 2 * q) << 16 for q in range(32 * n)]
    smem = [0] * 512
    for lane in LANES:
        for m in range(n):
            for half in (0, 1):
                smem[where(*lane_element(trans, lane, m, half))] = \
                    regs[lane * n + m] >> (16 * half) & 0xFFFF
    return kernel, [regs, rows], words_of(smem)


def case(name):
    return mma_case(name) if name in MMA else move_case(name)


def main():
    mode, name = sys.argv[1], sys.argv[2]
    kernel, inputs, expected = case(name)
    if mode == "args":
        bufs = ["buf:x32:%d=%s" % (len(w), ",".join("0x%x" % x for x in w))
                for w in inputs]
        print(" ".join(["--kernel", kernel] + bufs +
                       ["buf:x32:%d" % len(expected)]))
        return 0
    label = "buf%d:" % len(inputs)
    lines = [ln.split() for ln in sys.stdin if ln.startswith(label)]
    if len(lines) != 1:
        print("%s: no line %s in the output" % (name, label))
        return 1
    got = [int(x, 16) for x in lines[0][1:]]
    bad = [i for i in range(len(expected))
           if i >= len(got) or got[i] != expected[i]]
    for i in bad[:10]:
        print("%s: word %d is %s, expected 0x%08x" % (
            name, i, "0x%08x" % got[i] if i < len(got) else "missing",
            expected[i]))
    if bad or len(got) != len(expected):
        print("%s: %d of %d words differ" % (name, len(bad), len(expected)))
        return 1
    print("%s: %d words match" % (name, len(expected)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
