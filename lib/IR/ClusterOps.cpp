//===- ClusterOps.cpp - warp.cluster_reduce, warp.cluster_scan -----------===//
//
// The verifiers of the thread-block cluster collectives: the kind's domain
// (the payload types are ODS's). The chip they need is checked where the
// target is known, by warp-expand-cluster-collectives.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/IR/WarpDialect.h"

using namespace mlir;
using namespace mlir::warp;

LogicalResult ClusterReduceOp::verify() {
  return verifyKindMatchesType(*this, getKind(), getValue().getType());
}

LogicalResult ClusterScanOp::verify() {
  return verifyKindMatchesType(*this, getKind(), getValue().getType());
}
