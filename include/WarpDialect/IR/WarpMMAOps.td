//===- WarpMMAOps.td - warp matrix multiply-accumulate -----*- tablegen -*-===//
//
// Warp-level matrix multiply-accumulate on the tensor cores (PTX wmma) with
// fragments as plain vectors, for the element types upstream's
// !gpu.mma_matrix lacks (bf16). Lowered by convert-warp-mma-to-nvvm to
// LLVM's llvm.nvvm.wmma.* intrinsics.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_DIALECT_IR_WARPMMAOPS_TD
#define WARP_DIALECT_IR_WARPMMAOPS_TD

include "WarpDialect/IR/WarpBase.td"

def Warp_MMAOperandAttr : I32EnumAttr<"MMAOperand",
    "which matrix of D = A x B + C a fragment holds", [
    I32EnumAttrCase<"A", 0, "a">, I32EnumAttrCase<"B", 1, "b">,
    I32EnumAttrCase<"C", 2, "c">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_MMAOperandEnum : EnumAttr<Warp_Dialect, Warp_MMAOperandAttr,
    "mma_operand"> {
  let assemblyFormat = "$value";
}

def Warp_MMALayoutAttr : I32EnumAttr<"MMALayout",
    "how a matrix tile lies in memory", [
    I32EnumAttrCase<"Row", 0, "row">, I32EnumAttrCase<"Col", 1, "col">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_MMALayoutEnum : EnumAttr<Warp_Dialect, Warp_MMALayoutAttr,
    "mma_layout"> {
  let assemblyFormat = "$value";
}

def Warp_MMAShapeAttr : I32EnumAttr<"MMAShape",
    "the m x n x k of a warp matrix multiply", [
    I32EnumAttrCase<"M16N16K16", 0, "m16n16k16">,
    I32EnumAttrCase<"M16N16K8", 1, "m16n16k8">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_MMAShapeEnum : EnumAttr<Warp_Dialect, Warp_MMAShapeAttr,
    "mma_shape"> {
  let assemblyFormat = "$value";
}

/// One lane's fragment: a 1-D vector of f16, bf16 or f32 (tf32 operands are
/// f32 elements).
def Warp_MMAFragment : FixedVectorOfRankAndType<[1], [F16, BF16, F32]>;
/// What a fragment is loaded from or stored to: a 2-D memref in global
/// (default or address space 1) or workgroup memory (the verifier checks
/// the space and that the innermost stride is 1).
def Warp_MMAMemRef : MemRefRankOf<[F16, BF16, F32], [2]>;

def Warp_MMALoadOp : Warp_Op<"mma_load", [Warp_Convergent]> {
  let summary = "load one lane's fragment of a 16x16 (or 16x8) matrix tile";
  let description = [{
    The warp loads the `operand` tile (`a`: m x k, `b`: k x n, `c`: m x n of
    `shape`) whose top-left element is `src[i, j]`, laid out in `src` by
    `layout` (`row`: element (r, c) at `src[i + r, j + c]`; `col`: element
    (r, c) at `src[i + c, j + r]`), and each lane gets its fragment: PTX
    `wmma.load.{a,b,c}.sync.aligned`, CUDA's `wmma::load_matrix_sync`.

    The fragment is a plain `vector<N x T>`, like CUDA's
    `wmma::fragment::x[]`. Which element of the tile lands in which lane
    and position is unspecified (it differs between chips): treat the
    vector as opaque, except that elementwise arithmetic on accumulator
    (`c`) fragments is valid (every position holds one element of the
    tile, the same element in A x B + C's C and D), so `arith.mulf` by a
    splat scales the tile and `arith.constant dense<0.0>` is a fill.

    The leading dimension is the row stride of `src` (static or dynamic,
    from its strided layout); the innermost stride must be 1. `src` is in
    global (default or address space 1) or workgroup memory. Like PTX, the
    tile's first element must be 32-byte aligned and the row stride a
    multiple of 16 bytes; every lane of the warp must execute the op with
    the same `src`, indices and attributes.

    The fragments (elements per lane) by shape and element type, with the
    oldest chip that has them (the lowering checks the chip):

    | shape       | A, B          | C, D          | chip   |
    |-------------|---------------|---------------|--------|
    | `m16n16k16` | 16 x f16      | 8 x f16 or f32| sm_70  |
    | `m16n16k16` | 8 x bf16      | 8 x f32       | sm_80  |
    | `m16n16k8`  | 4 x f32 (tf32)| 8 x f32       | sm_80  |

    ```mlir
    %a = warp.mma_load %A[%i, %k] operand = a layout = row shape = m16n16k16
        : memref<?x?xbf16> -> vector<8xbf16>
    %c = warp.mma_load %C[%i, %j] operand = c layout = row shape = m16n16k16
        : memref<16x16xf32, #gpu.address_space<workgroup>> -> vector<8xf32>
    ```
  }];
  let arguments = (ins Arg<Warp_MMAMemRef, "the matrix", [MemRead]>:$src,
                       Index:$i, Index:$j, Warp_MMAOperandEnum:$matrix,
                       Warp_MMALayoutEnum:$layout, Warp_MMAShapeEnum:$shape);
  let results = (outs Warp_MMAFragment:$result);
  let assemblyFormat = [{
    $src `[` $i `,` $j `]` `operand` `=` `` $matrix `layout` `=` `` $layout
    `shape` `=` `` $shape attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Warp_MMAComputeOp : Warp_Op<"mma_compute",
    [Warp_Convergent, AllTypesMatch<["c", "result"]>,
     AllTypesMatch<["a", "b"]>]> {
  let summary = "D = A x B + C on the warp's fragments (tensor cores)";
  let description = [{
    The warp multiplies the A tile (m x k) by the B tile (k x n) of `shape`
    and adds the C tile (m x n); each lane gets its fragment of D, of C's
    type: PTX `wmma.mma.sync.aligned`, CUDA's `wmma::mma_sync`.
    `a_layout` and `b_layout` must be the layouts the A and B fragments
    were loaded with (`warp.mma_load`'s `layout`): the fragments' register
    contents depend on them. The combinations, as in `warp.mma_load`:
    f16 x f16 + f16 or f32 (`m16n16k16`, sm_70+), bf16 x bf16 + f32
    (`m16n16k16`, sm_80+), tf32 x tf32 + f32 (`m16n16k8`, f32 vectors of 4
    elements, sm_80+; the tensor cores read 10 of each input's 23 mantissa
    bits). Every lane of the warp must execute it.

    ```mlir
    %d = warp.mma_compute %a, %b, %c shape = m16n16k16 a_layout = row
        b_layout = row : vector<8xbf16>, vector<8xf32>
    ```
  }];
  let arguments = (ins Warp_MMAFragment:$a, Warp_MMAFragment:$b,
                       Warp_MMAFragment:$c, Warp_MMAShapeEnum:$shape,
                       Warp_MMALayoutEnum:$a_layout,
                       Warp_MMALayoutEnum:$b_layout);
  let results = (outs Warp_MMAFragment:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c `shape` `=` `` $shape `a_layout` `=` `` $a_layout
    `b_layout` `=` `` $b_layout attr-dict `:` type($a) `,` type($c)
  }];
  let hasVerifier = 1;
}

def Warp_MMAStoreOp : Warp_Op<"mma_store", [Warp_Convergent]> {
  let summary = "store the warp's accumulator fragments as a 16x16 tile";
  let description = [{
    The warp stores the 16 x 16 D (or C) tile whose fragments the lanes
    hold in `value` (a `warp.mma_compute` result, a `warp.mma_load` with
    `operand = c`, or a constant fill) with its top-left element at
    `dst[i, j]`, laid out by `layout` as in `warp.mma_load`: PTX
    `wmma.store.d.sync.aligned`, CUDA's `wmma::store_matrix_sync`. `value`
    is 8 x f16 or 8 x f32; `shape` (default `m16n16k16`) names the wmma
    whose accumulator it is (`m16n16k8`, tf32's, has the same 16 x 16 f32
    tile). Addressing, strides and alignment as in `warp.mma_load`; every
    lane of the warp must execute it.

    ```mlir
    warp.mma_store %d, %C[%i, %j] layout = row
        : vector<8xf32>, memref<?x?xf32>
    ```
  }];
  let arguments = (ins Warp_MMAFragment:$value,
                       Arg<Warp_MMAMemRef, "the matrix", [MemWrite]>:$dst,
                       Index:$i, Index:$j, Warp_MMALayoutEnum:$layout,
                       DefaultValuedAttr<Warp_MMAShapeEnum,
                           "::mlir::warp::MMAShape::M16N16K16">:$shape);
  let assemblyFormat = [{
    $value `,` $dst `[` $i `,` $j `]` `layout` `=` `` $layout
    (`shape` `=` `` $shape^)? attr-dict `:` type($value) `,` type($dst)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// mma.sync and ldmatrix/stmatrix: register fragments with a specified layout
//===----------------------------------------------------------------------===//

def Warp_MMASyncShapeAttr : I32EnumAttr<"MMASyncShape",
    "the m x n x k of a warp.mma_sync", [
    I32EnumAttrCase<"M16N8K4", 0, "m16n8k4">,
    I32EnumAttrCase<"M16N8K8", 1, "m16n8k8">,
    I32EnumAttrCase<"M16N8K16", 2, "m16n8k16">,
    I32EnumAttrCase<"M16N8K32", 3, "m16n8k32">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_MMASyncShapeEnum : EnumAttr<Warp_Dialect, Warp_MMASyncShapeAttr,
    "mma_sync_shape"> {
  let assemblyFormat = "$value";
}

/// One lane's A or B registers of a warp.mma_sync.
def Warp_MMASyncInput : FixedVectorOfRankAndType<[1],
    [F16, BF16, F32, I8, F8E4M3FN, F8E5M2]>;
/// One lane's C or D registers of a warp.mma_sync.
def Warp_MMASyncAccumulator : FixedVectorOfRankAndType<[1], [F16, F32, I32]>;

def Warp_MMASyncOp : Warp_Op<"mma_sync",
    [Warp_Convergent, AllTypesMatch<["c", "result"]>]> {
  let summary = "D = A x B + C on register fragments of a specified layout "
                "(PTX mma.sync)";
  let description = [{
    The warp multiplies the 16 x k A tile by the k x 8 B tile and adds the
    16 x 8 C tile: PTX `mma.sync.aligned.m16n8k<k>.row.col`. Unlike
    `warp.mma_compute`, which element of a tile each lane holds is part of
    the contract, so fragments can be built, read and moved with ordinary
    vector ops, `warp.ldmatrix` and shuffles. With `g = lane / 4` and
    `t = lane % 4`, position `i` of each lane's vector holds:

    | fragment | elements | row | column |
    |----------|----------|-----|--------|
    | C, D (16 x 8) | 4 | `g + 8 * (i / 2)` | `2 * t + i % 2` |
    | A, 16-bit, k = 16 | 8 | `g + 8 * (i / 2 % 2)` | `2 * t + i % 2 + 8 * (i / 4)` |
    | A, 16-bit, k = 8 | 4 | `g + 8 * (i / 2)` | `2 * t + i % 2` |
    | B, 16-bit, k = 16 or 8 | k / 4 | `2 * t + i % 2 + 8 * (i / 2)` | `g` |
    | A, tf32, k = 8 or 4 | k / 2 | `g + 8 * (i % 2)` | `t + 4 * (i / 2)` |
    | B, tf32, k = 8 or 4 | k / 4 | `t + 4 * i` | `g` |
    | A, 8-bit, k = 32 or 16 | k / 2 | `g + 8 * (i / 4 % 2)` | `4 * t + i % 4 + 16 * (i / 8)` |
    | B, 8-bit, k = 32 or 16 | k / 4 | `4 * t + i % 4 + 16 * (i / 4)` | `g` |

    8-bit is i8 and the fp8 types (`f8E4M3FN`, `f8E5M2`): the four
    elements of each 32-bit register are consecutive in k, the lowest
    byte first.

    The combinations (A and B have one element type, except that the two
    fp8 types mix; C and D another):

    | A, B | k | C, D | chip |
    |------|---|------|------|
    | f16  | 8, 16 | f16 or f32 | sm_80 (k = 8: sm_75) |
    | bf16 | 8, 16 | f32 | sm_80 |
    | f32 read as tf32 | 4, 8 | f32 | sm_80 |
    | i8, signed or not (`a_unsigned`, `b_unsigned`) | 16, 32 | i32 | sm_80 |
    | `f8E4M3FN` or `f8E5M2` (PTX e4m3, e5m2) | 32 | f32 (PTX 8.4) or f16 (PTX 8.7) | sm_89 |

    fp8 multiplies need a newer PTX ISA than the chip's own (8.0 on
    sm_90): the lowering raises the PTX version of the gpu.module that
    holds one to 8.4 (f32 accumulators) or 8.7 (f16), so the driver must
    be one that reads that PTX. `f8E4M3FN` has no infinities and one NaN
    per sign (`S.1111.111`; the largest finite value is 448); `f8E5M2` is
    IEEE-like (infinities, NaNs, largest finite 57344); both have
    subnormals.

    Floating-point products are exact; how the k products and C are summed
    (order, intermediate rounding) is the tensor cores' and not IEEE
    sequential f32 arithmetic; tf32 reads the top 19 bits of each f32.
    Integer sums are exact modulo 2^32, or clamped to the i32 range with
    `satfinite`. Every lane of the warp must execute the op with the same
    attributes (PTX's `.aligned`).

    ```mlir
    %d = warp.mma_sync %a, %b, %c shape = m16n8k16
        : vector<8xf16>, vector<4xf16> -> vector<4xf32>
    %e = warp.mma_sync %x, %y, %acc shape = m16n8k32 {a_unsigned}
        : vector<16xi8>, vector<8xi8> -> vector<4xi32>
    %f = warp.mma_sync %p, %q, %acc32 shape = m16n8k32
        : vector<16xf8E4M3FN>, vector<8xf8E5M2> -> vector<4xf32>
    ```
  }];
  let arguments = (ins Warp_MMASyncInput:$a, Warp_MMASyncInput:$b,
                       Warp_MMASyncAccumulator:$c,
                       Warp_MMASyncShapeEnum:$shape,
                       UnitAttr:$a_unsigned, UnitAttr:$b_unsigned,
                       UnitAttr:$satfinite);
  let results = (outs Warp_MMASyncAccumulator:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c `shape` `=` `` $shape attr-dict `:` type($a) `,`
    type($b) `->` type($c)
  }];
  let hasVerifier = 1;
}

/// What ldmatrix and stmatrix move: 16-bit elements in workgroup memory.
def Warp_MatrixMemRef : MemRefOf<[F16, BF16, I16]>;
/// One lane's share of 1, 2 or 4 8x8 matrices.
def Warp_MatrixFragment : FixedVectorOfRankAndType<[1], [F16, BF16, I16]>;

def Warp_LdMatrixOp : Warp_Op<"ldmatrix", [Warp_Convergent]> {
  let summary = "the warp loads 1, 2 or 4 8x8 matrices of 16-bit elements "
                "from workgroup memory (PTX ldmatrix)";
  let description = [{
    The warp loads `count` (1, 2 or 4) matrices of 8 x 8 16-bit elements
    from workgroup memory: PTX `ldmatrix.sync.aligned.m8n8.x<count>.b16`.
    Each lane names one row: lane `8 * m + r` (for `m < count`) gives the
    position of row `r` of matrix `m`, whose 8 elements are
    `src[indices]` and the 7 that follow it in the innermost dimension
    (16 contiguous, 16-byte aligned bytes). Lanes from `8 * count` on take
    part but their indices are not read (they must still be valid
    operands). Rows may lie anywhere (padded or swizzled tiles).

    Each lane gets `2 * count` elements; with `g = lane / 4`,
    `t = lane % 4`, positions `2 * m` and `2 * m + 1` hold matrix `m`'s
    elements (row `g`, columns `2 * t` and `2 * t + 1`), or with
    `transpose` (PTX `.trans`) its elements (rows `2 * t` and `2 * t + 1`,
    column `g`). That is the A, B and C layout of `warp.mma_sync` for
    16-bit elements: four matrices are one lane's A fragment of an
    m16n8k16, two its B fragment. Every lane of the warp must execute the
    op with the same `count` and `transpose` (sm_75 or newer).

    ```mlir
    %a = warp.ldmatrix %tile[%row, %col] count = 4
        : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<8xf16>
    ```
  }];
  let arguments = (ins Arg<Warp_MatrixMemRef, "the matrices", [MemRead]>:$src,
                       Variadic<Index>:$indices,
                       ConfinedAttr<I32Attr, [IntIsOneOf<[1, 2, 4]>]>:$count,
                       UnitAttr:$transpose);
  let results = (outs Warp_MatrixFragment:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` `count` `=` $count (`transpose` $transpose^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Warp_StMatrixOp : Warp_Op<"stmatrix", [Warp_Convergent]> {
  let summary = "the warp stores 1, 2 or 4 8x8 matrices of 16-bit elements "
                "to workgroup memory (PTX stmatrix)";
  let description = [{
    The inverse of `warp.ldmatrix`: each lane holds `2 * count` elements
    laid out as `warp.ldmatrix`'s result (with or without `transpose`),
    and lane `8 * m + r` names where row `r` of matrix `m` goes (8
    contiguous, 16-byte aligned elements at `dst[indices]`): PTX
    `stmatrix.sync.aligned.m8n8.x<count>.b16`, sm_90 or newer. Every lane
    of the warp must execute the op with the same `count` and `transpose`.

    ```mlir
    warp.stmatrix %d, %tile[%row, %col] count = 2
        : vector<4xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Warp_MatrixFragment:$value,
                       Arg<Warp_MatrixMemRef, "the matrices", [MemWrite]>:$dst,
                       Variadic<Index>:$indices,
                       ConfinedAttr<I32Attr, [IntIsOneOf<[1, 2, 4]>]>:$count,
                       UnitAttr:$transpose);
  let assemblyFormat = [{
    $value `,` $dst `[` $indices `]` `count` `=` $count
    (`transpose` $transpose^)? attr-dict `:` type($value) `,` type($dst)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// wgmma: warpgroup MMA with operands in shared memory (sm_90a)
//===----------------------------------------------------------------------===//

def Warp_WgmmaSwizzleAttr : I32EnumAttr<"WgmmaSwizzle",
    "how the 16-byte chunks of a wgmma operand's rows are permuted", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"B128", 1, "b128">,
    I32EnumAttrCase<"B64", 2, "b64">,
    I32EnumAttrCase<"B32", 3, "b32">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_WgmmaSwizzleEnum : EnumAttr<Warp_Dialect, Warp_WgmmaSwizzleAttr,
    "wgmma_swizzle"> {
  let assemblyFormat = "$value";
}

def Warp_WgmmaDescriptorOp : Warp_Op<"wgmma_descriptor", [Pure]> {
  let summary = "the 64-bit shared-memory matrix descriptor of a wgmma "
                "operand";
  let description = [{
    The descriptor `warp.wgmma` reads an operand tile through (PTX ISA,
    "Matrix Descriptor Format"): the shared-memory address of
    `buffer[indices]` (a multiple of 16 bytes), `leading` and `stride`
    (byte offsets, multiples of 16 below 2^18) and the swizzle mode
    (`none`, `b32`, `b64`, `b128`: the 16-byte chunks of each 32-, 64- or
    128-byte row XOR-ed with its row index within an atom of 8 rows;
    atoms must start at a multiple of 8 rows' bytes, 1024 for `b128`).

    The core matrices are 8 rows of 16 bytes. For a K-major operand (the
    16-byte rows run along K) `stride` is the byte distance between
    groups of 8 rows along M (A) or N (B), and `leading`, between core
    matrices along K, is read only without swizzling. For an MN-major
    operand (rows run along M or N, `a_mn_major`/`b_mn_major` of
    `warp.wgmma`) with swizzling, a row holds the swizzle width of
    consecutive M/N elements; `leading` is the distance between such
    column panels along M/N and `stride` between groups of 8 rows along K.
    The op computes the bits; it does not check that the tile behind them
    has the layout they describe.

    ```mlir
    %da = warp.wgmma_descriptor %tile[%row, %c0] swizzle = b128
        {leading = 16, stride = 1024}
        : memref<128x64xf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins MemRefOf<[F16, BF16, F32, I8, F8E4M3FN, F8E5M2]>:$buffer,
                       Variadic<Index>:$indices,
                       Warp_WgmmaSwizzleEnum:$swizzle,
                       I64Attr:$leading, I64Attr:$stride);
  let results = (outs I64:$result);
  let assemblyFormat = [{
    $buffer `[` $indices `]` `swizzle` `=` `` $swizzle attr-dict `:`
    type($buffer)
  }];
  let hasVerifier = 1;
}

def Warp_WgmmaOp : Warp_Op<"wgmma",
    [Warp_Convergent, AllTypesMatch<["acc", "result"]>]> {
  let summary = "D = A x B + D on a warpgroup, A and B in shared memory "
                "(PTX wgmma.mma_async, sm_90a)";
  let description = [{
    The warpgroup (4 consecutive warps, the first a multiple of 4) issues
    the m64 x n x k multiply of the A tile (64 x k) and the B tile (k x n)
    that the descriptors `a` and `b` (`warp.wgmma_descriptor`) describe,
    added to the accumulator `acc`: PTX
    `wgmma.mma_async.sync.aligned.m64n<n>k<k>.<acc>.<input>.<input>`. k is
    32 bytes of the input type, and n is twice the accumulator's length:

    | input | k | accumulator | n |
    |-------|---|-------------|---|
    | f16, bf16 | 16 | f32 | 8 to 256, a multiple of 8 |
    | f32 (read as tf32) | 8 | f32 | 8 to 256, a multiple of 8 |
    | f8E4M3FN, f8E5M2 (PTX e4m3, e5m2) | 32 | f32 | 8 to 256, a multiple of 8 |
    | i8 (s8; u8 with `a_unsigned` / `b_unsigned`) | 32 | i32 | 8, 16, 24, then multiples of 16 to 256 |

    A and B are K-major unless `a_mn_major` / `b_mn_major` say they are M-
    or N-major (PTX's transpose flags, which only 16-bit inputs have).

    Position `i` of thread `t`'s accumulator holds D's element at row
    `16 * (t / 32) + (t % 32) / 4 + 8 * (i / 2 % 2)`, column
    `8 * (i / 4) + 2 * (t % 4) + i % 2` (thread t of the warpgroup).

    The op is asynchronous, as in PTX: `nvvm.wgmma.fence.aligned` must
    come before the first `warp.wgmma` that reads registers written since
    (the accumulator), after fencing shared memory written by ordinary
    stores or cp.async (`nvvm.fence.proxy` async.shared); the result may
    feed another `warp.wgmma` as its accumulator at once, but any other
    use, and any write of the operand tiles, must come after an
    `nvvm.wgmma.commit.group.sync.aligned` and an
    `nvvm.wgmma.wait.group.sync.aligned` that covers it. Every thread of
    the warpgroup must execute the op with the same descriptors and
    attributes.

    ```mlir
    %d = warp.wgmma %da, %db, %acc {b_mn_major} : f16, vector<64xf32>
    ```
  }];
  let arguments = (ins I64:$a, I64:$b,
                       FixedVectorOfRankAndType<[1], [F32, I32]>:$acc,
                       TypeAttrOf<AnyType>:$input,
                       UnitAttr:$a_mn_major, UnitAttr:$b_mn_major,
                       UnitAttr:$a_unsigned, UnitAttr:$b_unsigned);
  let results = (outs FixedVectorOfRankAndType<[1], [F32, I32]>:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` $input `,` type($acc)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The n of the m64 x n x k multiply.
    int64_t getN() { return 2 * getAcc().getType().getNumElements(); }
    /// The k: 32 bytes of the input type.
    int64_t getK() { return 256 / getInput().getIntOrFloatBitWidth(); }
  }];
}

#endif // WARP_DIALECT_IR_WARPMMAOPS_TD
