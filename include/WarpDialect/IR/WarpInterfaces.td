//===- WarpInterfaces.td - warp dialect op interfaces ------*- tablegen -*-===//

#ifndef WARP_DIALECT_IR_WARPINTERFACES_TD
#define WARP_DIALECT_IR_WARPINTERFACES_TD

include "mlir/IR/OpBase.td"

/// A collective executed together by the lanes of a member mask.
def Warp_MemberMaskOpInterface : OpInterface<"MemberMaskOpInterface"> {
  let cppNamespace = "::mlir::warp";
  let description = [{
    A collective that the lanes of an optional i32 member mask (default: all
    32 lanes) execute together, as CUDA's `*_sync(mask, ...)` intrinsics do.
    The lowerings pass the mask to every `.sync` instruction they emit; the
    lint pass checks constant masks.
  }];
  let methods = [
    InterfaceMethod<"The member mask, or null for all 32 lanes.",
                    "::mlir::Value", "getMask">,
  ];
}

/// A collective that combines the values of several lanes: by a built-in
/// combine kind or by a `combine` region.
def Warp_CombiningOpInterface : OpInterface<"CombiningOpInterface"> {
  let cppNamespace = "::mlir::warp";
  let description = [{
    A collective (warp.reduce, warp.scan, warp.block_reduce,
    warp.block_scan) that combines a tuple of values across lanes, either
    with a built-in combine kind (one value) or with a `combine` region
    whose block takes the left tuple, then the right one, and yields the
    combined tuple. The interface verifies what all of them share (one of
    kind and region, the kind's payload types, the region's signature, the
    results' types) and gives the expansions one view of the combiner
    (`Combiner::of`, IR/CombineKinds.h).
  }];
  let methods = [
    InterfaceMethod<"The built-in combine kind, or none with a region.",
                    "::std::optional<::mlir::warp::CombineKind>", "getKind">,
    InterfaceMethod<"The combine region (empty with a kind).",
                    "::mlir::Region &", "getCombiner">,
    InterfaceMethod<"The values combined, one tuple per lane.",
                    "::mlir::Operation::operand_range", "getValues">,
    InterfaceMethod<[{Whether the lowering may change the combine order: a
                      kind, or a reduction's region declared commutative (a
                      scan keeps lane order).}],
                    "bool", "isCommutative">,
    InterfaceMethod<[{The types the combiner takes, one per value: the
                      values' types, or their element types where each
                      value is a vector of a thread's items (the block ops'
                      `items`).}],
                    "::llvm::SmallVector<::mlir::Type>", "getCombinedTypes",
                    (ins), [{}], [{
      return ::llvm::SmallVector<::mlir::Type>(
          $_op.getValues().getTypes());
    }]>,
  ];
  let verify = [{ return ::mlir::warp::verifyCombiningOp($_op); }];
}

#endif // WARP_DIALECT_IR_WARPINTERFACES_TD
