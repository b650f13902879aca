// Found by warp-fuzz (third session, `FUZZ_FORK=1 scripts/fuzz.sh 1800`):
// a device function with an `i0` parameter. NVPTX raised the fatal error
// "Empty parameter types are not supported" in gpu-module-to-binary (warp-opt
// reported it at the module, without a useful location). Fixed: the
// placement check rejects zero-width integer parameters and results at the
// function (test/Pipelines/device-checks.mlir has the diagnostics).
// RUN: %python %S/../no_crash.py warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa" -o /dev/null
gpu.module @fuzz {
  func.func @reduce(%x: f32, %h: i0, %out: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %r = warp.reduce <add> %x : f32
    memref.store %r, %out[%c0] : memref<4xf32>
    return
  }
}
