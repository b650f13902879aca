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

#endif // WARP_DIALECT_IR_WARPMMAOPS_TD
