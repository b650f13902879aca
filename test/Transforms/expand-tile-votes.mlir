// A tile's ballot and votes (`width w` < 32, cooperative groups'
// tiled_partition<w>): the warp's ballot over the same mask, cut to the
// executing lane's tile (first lane `lane & -w`). ballot: shifted right by
// the tile's first lane and masked to w bits; any: the predicate's ballot
// has a bit in the tile; all: the negation's has none; uni: not both.
// Width 32 stays the warp's ballot (test/PTX/tile-votes.mlir: the PTX).
// RUN: warp-opt %s --warp-expand-collectives | FileCheck %s

// CHECK-LABEL: func @tile_ballot
// CHECK-SAME: (%[[P:.*]]: i1, %[[M:.*]]: i32)
// CHECK-DAG: %[[LOW:.*]] = arith.constant 255 : i32
// CHECK-DAG: %[[ALIGN:.*]] = arith.constant -8 : i32
// CHECK: %[[LANE:.*]] = warp.lane_id : i32
// CHECK: %[[FIRST:.*]] = arith.andi %[[LANE]], %[[ALIGN]] : i32
// CHECK: %[[B:.*]] = warp.ballot %[[P]] mask %[[M]] : i32
// CHECK: %[[S:.*]] = arith.shrui %[[B]], %[[FIRST]] : i32
// CHECK: %[[R:.*]] = arith.andi %[[S]], %[[LOW]] : i32
// CHECK: %[[W:.*]] = warp.ballot %[[P]] : i32
// CHECK: return %[[R]], %[[W]]
func.func @tile_ballot(%p: i1, %m: i32) -> (i32, i32) {
  %0 = warp.ballot %p mask %m width 8 : i32
  %1 = warp.ballot %p width 32 : i32
  return %0, %1 : i32, i32
}

// CHECK-LABEL: func @tile_votes
// CHECK-SAME: (%[[P:.*]]: i1)
// CHECK: %[[TILE:.*]] = arith.shli %{{.*}}, %{{.*}} : i32
// CHECK: %[[B:.*]] = warp.ballot %[[P]] : i32
// CHECK: %[[IN:.*]] = arith.andi %[[B]], %[[TILE]] : i32
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[IN]], %{{.*}} : i32
// CHECK: %[[NP:.*]] = arith.xori %[[P]], %{{.*}} : i1
// CHECK: %[[NB:.*]] = warp.ballot %[[NP]] : i32
// CHECK: %[[NIN:.*]] = arith.andi %[[NB]], %{{.*}} : i32
// CHECK: %[[SOMEFALSE:.*]] = arith.cmpi ne, %[[NIN]], %{{.*}} : i32
// CHECK: %[[ALL:.*]] = arith.xori %[[SOMEFALSE]], %{{.*}} : i1
// CHECK: warp.ballot %[[P]] : i32
// CHECK: warp.ballot %{{.*}} : i32
// CHECK: %[[BOTH:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[UNI:.*]] = arith.xori %[[BOTH]], %{{.*}} : i1
// CHECK: return %[[ANY]], %[[ALL]], %[[UNI]]
func.func @tile_votes(%p: i1) -> (i1, i1, i1) {
  %0 = warp.vote <any> %p width 4 : i1
  %1 = warp.vote <all> %p width 16 : i1
  %2 = warp.vote <uni> %p width 2 : i1
  return %0, %1, %2 : i1, i1, i1
}
