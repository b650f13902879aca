//===- WarpBase.td - warp dialect definition and enums -----*- tablegen -*-===//
//
// The `warp` dialect: warp-level collectives with CUDA's semantics.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_DIALECT_IR_WARPBASE_TD
#define WARP_DIALECT_IR_WARPBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "WarpDialect/IR/WarpInterfaces.td"

def Warp_Dialect : Dialect {
  let name = "warp";
  let cppNamespace = "::mlir::warp";
  let summary = "Warp-level collectives on NVIDIA GPUs with CUDA's semantics";
  let description = [{
    The `warp` dialect models the collectives that the 32 lanes of an NVIDIA
    warp perform together: lane and warp ids, lane masks, shuffles in the four
    PTX modes with CUDA's `width` segments and member masks, votes, ballots,
    matches, broadcasts, reductions, scans and ballot compaction.

    Every op is specified lane by lane, bit-exact with the CUDA C++ intrinsic
    it corresponds to (`__shfl_*_sync`, `__ballot_sync`, `__reduce_*_sync`,
    ...). Floating-point reductions and scans have a fixed, documented combine
    order, so a result is reproducible run to run and across strategies.

    Collectives are *convergent*: every lane named by the member mask must
    execute the op together. The ops therefore carry a read effect on the
    `::mlir::warp::WarpLanesResource`, which keeps upstream passes (LICM,
    control-flow sinking, speculation, CSE across blocks) from moving them into
    or out of control flow. Lane-local ops (ids, lane masks) are `Pure`.
  }];
  let usePropertiesForAttributes = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Warp_ShuffleModeAttr : I32EnumAttr<"ShuffleMode", "shuffle mode", [
    I32EnumAttrCase<"Idx", 0, "idx">, I32EnumAttrCase<"Xor", 1, "xor">,
    I32EnumAttrCase<"Up", 2, "up">, I32EnumAttrCase<"Down", 3, "down">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_ShuffleModeEnum : EnumAttr<Warp_Dialect, Warp_ShuffleModeAttr, "shuffle_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_VoteKindAttr : I32EnumAttr<"VoteKind", "vote kind", [
    I32EnumAttrCase<"Any", 0, "any">, I32EnumAttrCase<"All", 1, "all">,
    I32EnumAttrCase<"Uni", 2, "uni">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_VoteKindEnum : EnumAttr<Warp_Dialect, Warp_VoteKindAttr, "vote_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_LaneMaskKindAttr : I32EnumAttr<"LaneMaskKind", "lane mask kind", [
    I32EnumAttrCase<"Lt", 0, "lt">, I32EnumAttrCase<"Le", 1, "le">,
    I32EnumAttrCase<"Eq", 2, "eq">, I32EnumAttrCase<"Ge", 3, "ge">,
    I32EnumAttrCase<"Gt", 4, "gt">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_LaneMaskKindEnum : EnumAttr<Warp_Dialect, Warp_LaneMaskKindAttr, "lanemask_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_CombineKindAttr : I32EnumAttr<"CombineKind", "reduction/scan combiner", [
    I32EnumAttrCase<"Add", 0, "add">, I32EnumAttrCase<"Mul", 1, "mul">,
    I32EnumAttrCase<"MinSI", 2, "minsi">, I32EnumAttrCase<"MaxSI", 3, "maxsi">,
    I32EnumAttrCase<"MinUI", 4, "minui">, I32EnumAttrCase<"MaxUI", 5, "maxui">,
    I32EnumAttrCase<"MinNumF", 6, "minnumf">, I32EnumAttrCase<"MaxNumF", 7, "maxnumf">,
    I32EnumAttrCase<"MinimumF", 8, "minimumf">, I32EnumAttrCase<"MaximumF", 9, "maximumf">,
    I32EnumAttrCase<"And", 10, "and">, I32EnumAttrCase<"Or", 11, "or">,
    I32EnumAttrCase<"Xor", 12, "xor">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_CombineKindEnum : EnumAttr<Warp_Dialect, Warp_CombineKindAttr, "kind"> {
  let assemblyFormat = "`<` $value `>`";
}

/// What a warp-aggregated atomic does to memory: a combine kind that PTX's
/// `atom` has, `exch` (the element becomes the value), or a float min/max
/// (`minnumf`, `maxnumf`: a compare-and-swap loop).
def Warp_AtomicKindAttr : I32EnumAttr<"AtomicKind", "warp-aggregated atomic operation", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"MinSI", 1, "minsi">, I32EnumAttrCase<"MaxSI", 2, "maxsi">,
    I32EnumAttrCase<"MinUI", 3, "minui">, I32EnumAttrCase<"MaxUI", 4, "maxui">,
    I32EnumAttrCase<"And", 5, "and">, I32EnumAttrCase<"Or", 6, "or">,
    I32EnumAttrCase<"Xor", 7, "xor">, I32EnumAttrCase<"Exch", 8, "exch">,
    I32EnumAttrCase<"MinNumF", 9, "minnumf">,
    I32EnumAttrCase<"MaxNumF", 10, "maxnumf">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_AtomicKindEnum : EnumAttr<Warp_Dialect, Warp_AtomicKindAttr, "atomic_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

/// The threads an atomic is atomic with respect to (PTX `atom`'s `.scope`;
/// CUDA's `atomicAdd_block`, `atomicAdd`, `atomicAdd_system`).
def Warp_MemoryScopeAttr : I32EnumAttr<"MemoryScope", "scope of an atomic", [
    I32EnumAttrCase<"CTA", 0, "cta">, I32EnumAttrCase<"Cluster", 1, "cluster">,
    I32EnumAttrCase<"GPU", 2, "gpu">, I32EnumAttrCase<"Sys", 3, "sys">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_MemoryScopeEnum : EnumAttr<Warp_Dialect, Warp_MemoryScopeAttr, "memory_scope"> {
  let assemblyFormat = "`<` $value `>`";
}

/// The memory order of an atomic (PTX `atom`'s `.sem`; cuda::atomic_ref's
/// memory_order_relaxed, _acquire, _release, _acq_rel).
def Warp_MemoryOrderAttr : I32EnumAttr<"MemoryOrder", "memory order of an atomic", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">, I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">, I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_MemoryOrderEnum : EnumAttr<Warp_Dialect, Warp_MemoryOrderAttr, "memory_order"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_ResultLanesAttr : I32EnumAttr<"ResultLanes", "lanes that hold a reduction's result", [
    I32EnumAttrCase<"All", 0, "all">, I32EnumAttrCase<"First", 1, "first">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_ResultLanesEnum : EnumAttr<Warp_Dialect, Warp_ResultLanesAttr, "result_lanes"> {
  let assemblyFormat = "`<` $value `>`";
}

def Warp_ReduceStrategyAttr : I32EnumAttr<"ReduceStrategy", "reduction strategy", [
    I32EnumAttrCase<"Butterfly", 0, "butterfly">, I32EnumAttrCase<"Tree", 1, "tree">,
    I32EnumAttrCase<"Redux", 2, "redux">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::warp";
}
def Warp_ReduceStrategyEnum : EnumAttr<Warp_Dialect, Warp_ReduceStrategyAttr, "strategy"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Types and base classes
//===----------------------------------------------------------------------===//

/// Scalars a warp collective can carry.
def Warp_ScalarPayload : AnyTypeOf<[I1, I8, I16, I32, I64, Index, F16, BF16, F32, F64]>;
/// Scalars and fixed-length 1-D vectors of them: what every collective
/// carries (reductions and scans combine them too; the kind decides which
/// element types a reduction takes). Scalable vectors have no per-lane
/// register form and are rejected.
/// A 1-D vector of scalar payloads: a thread's items, or a vector payload.
def Warp_VectorPayload
    : FixedVectorOfRankAndType<[1], [I1, I8, I16, I32, I64, Index, F16, BF16, F32, F64]>;
def Warp_Payload : AnyTypeOf<[Warp_ScalarPayload, Warp_VectorPayload],
    "i1/i8/i16/i32/i64/index/f16/bf16/f32/f64 or a 1-D vector of them">;

/// What match_any/match_all compare, bit for bit.
def Warp_MatchPayload : AnyTypeOf<[I32, I64, F32, F64]>;

/// A segment width, cluster size or cluster stride: a power of two in
/// [1, 32].
def Warp_Width : ConfinedAttr<I32Attr, [IntPositivePowerOf2, IntMaxValue<32>]> {
  let summary = "32-bit integer attribute that is a power of two in [1, 32]";
}

/// The lanes of a logical warp (CUB's LOGICAL_WARP_THREADS): any count in
/// [1, 32]; the ops that take one say which forms need a power of two.
def Warp_LogicalWidth : ConfinedAttr<I32Attr, [IntMinValue<1>, IntMaxValue<32>]> {
  let summary = "32-bit integer attribute in [1, 32]";
}

/// The resource that convergent warp ops read: the other lanes' registers.
def Warp_LanesResource : Resource<"::mlir::warp::WarpLanesResource">;
/// Convergent collective: reads the other lanes, so it is never speculated,
/// hoisted, sunk or merged across blocks, but still erased when unused.
def Warp_Convergent : MemoryEffects<[MemRead<Warp_LanesResource>]>;

class Warp_Op<string mnemonic, list<Trait> traits = []>
    : Op<Warp_Dialect, mnemonic, traits>;

#endif // WARP_DIALECT_IR_WARPBASE_TD
