//===- Networks.h - tuple shuffles and the scan network ----------*- C++
//-*-===//
//
// The building blocks the expansions share: a tuple of values moved between
// lanes with as few warp.shuffle ops as its types allow, and the one
// Kogge-Stone network that every scan (warp.scan, the segmented reduction,
// the block scans built on warp.scan, the aggregated atomics' rank scan) is
// made of.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TRANSFORMS_NETWORKS_H
#define WARPDIALECT_TRANSFORMS_NETWORKS_H

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::warp {

/// The values a collective carries from lane to lane, one per value of its
/// tuple.
using Tuple = SmallVector<Value, 4>;

/// Shuffles a tuple with one warp.shuffle per 32-bit piece: each value of
/// more than 16 bits travels alone (split into words later by the
/// conversion), and neighbouring scalars of at most 16 bits share one i32
/// (e.g. an `(f16, i16)` tuple is one shuffle). Returns the tuple and the
/// valid bit, the same for all. With a `bound` (up and down only: the clamp
/// lane), `width` is ignored and the shuffle spans the whole warp.
std::pair<Tuple, Value> shuffleTuple(OpBuilder &builder, Location loc,
                                     ShuffleMode mode, ValueRange values,
                                     Value offset, unsigned width, Value mask,
                                     Value bound = {});
std::pair<Tuple, Value> shuffleTuple(OpBuilder &builder, Location loc,
                                     ShuffleMode mode, ValueRange values,
                                     int64_t offset, unsigned width, Value mask,
                                     Value bound = {});

/// `condition ? whenTrue : whenFalse`, value by value.
Tuple selectTuple(OpBuilder &builder, Location loc, Value condition,
                  ValueRange whenTrue, ValueRange whenFalse);

/// The partner of one step of a scan network: its tuple and whether it
/// counts for the lane (lies in the lane's segment or group). A partner
/// that does not count must be the lane's own tuple (a shuffle past its
/// segment's edge returns the lane's own value), so that keeping the
/// partner's tuple keeps the lane's.
struct ScanPartner {
  Tuple values;
  Value counts;
};

/// Kogge-Stone: for distances 1, 2, 4, ... below `span`, every lane
/// combines the partner `distance` steps earlier with its own tuple where
/// the partner counts (`combine(partner, own)`), and keeps the partner's
/// tuple (its own) where it does not: every lane's inclusive scan. Where
/// `fusedStep` gives a tuple for a distance, that tuple is the step (one
/// op doing shuffle, test and combine, e.g. warp.scan_step).
Tuple buildKoggeStoneScan(
    OpBuilder &builder, Location loc, ValueRange values, unsigned span,
    function_ref<ScanPartner(ValueRange own, unsigned distance)> partnerAt,
    function_ref<Tuple(ValueRange partner, ValueRange own)> combine,
    function_ref<std::optional<Tuple>(ValueRange own, unsigned distance)>
        fusedStep = nullptr);

} // namespace mlir::warp

#endif // WARPDIALECT_TRANSFORMS_NETWORKS_H
