// Found by warp-fuzz (option byte '0': sm_70, strategy auto, -O3), minimized
// with -minimize_crash=1; crashes for every chip. An exclusive warp.scan of an
// `index` value: getCombineIdentity calls Type::getIntOrFloatBitWidth() on
// `index` (neither integer nor float) -> SEGV in FloatType::getWidth().
//   #0 mlir::FloatType::getWidth()                       libMLIR.so
//   #1 mlir::Type::getIntOrFloatBitWidth() const         libMLIR.so
//   #2 mlir::warp::getCombineIdentity(CombineKind, Type) lib/Transforms/CombineKinds.cpp:84
//   #3 lowerScan(OpBuilder&, Location, ScanOp)           lib/Transforms/ExpandCollectives.cpp:449
//   #4 ExpandScan::matchAndRewrite                       lib/Transforms/ExpandCollectives.cpp:479
//   ... expandCollectives (ExpandCollectives.cpp:582), WarpExpandCollectivesPass
// Fixed: the identity of an index kind has 64 bits (IndexType's storage).
// RUN: %python %S/../no_crash.py warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa" -o /dev/null
// RUN: %python %S/../no_crash.py warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa" -o /dev/null
gpu.module @m {
  func.func @f(%x: index) -> index { %r = warp.scan <add> %x exclusive :index
 return %r :index}
}
