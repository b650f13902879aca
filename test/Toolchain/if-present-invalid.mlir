// A pipeline that does not parse is an error where it would have run.
// RUN: warp-opt %s --verify-diagnostics --pass-pipeline="builtin.module(gpu.module(warp-if-present{dialects=scf pipeline=no-such-pass}))" -o /dev/null

// expected-error @+1 {{warp-if-present: bad pipeline 'no-such-pass'}}
gpu.module @loop {
  gpu.func @k(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    gpu.return
  }
}
