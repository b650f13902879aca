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

#endif // WARP_DIALECT_IR_WARPINTERFACES_TD
