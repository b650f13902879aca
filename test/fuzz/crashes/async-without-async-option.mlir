// Found by warp-fuzz (third session): async-dialect host code lowered
// without the pipeline's `async` option. gpu-to-llvm "succeeded" but left an
// llvm.func whose argument is still !async.value (invalid IR; the fuzzer
// verifies after every pass). Fixed: the placement check rejects async host
// code unless the pipeline lowers it (async=true; the runner sets it).
// RUN: %python %S/../no_crash.py warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa" -o /dev/null
func.func @from_argument(%v: !async.value<!gpu.async.token>) {
  %r = async.await %v : !async.value<!gpu.async.token>
  gpu.wait [%r]
  return
}
