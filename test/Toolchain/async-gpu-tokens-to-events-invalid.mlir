// RUN: warp-opt %s --convert-async-gpu-tokens-to-events --split-input-file --verify-diagnostics

// A token value that comes from outside: its producer's stream is unknown.
func.func @from_argument(%v: !async.value<!gpu.async.token>) {
  // expected-error @+1 {{uses a !async.value<!gpu.async.token> that no async.execute in this module produced}}
  %r = async.await %v : !async.value<!gpu.async.token>
  gpu.wait [%r]
  return
}

// -----

func.func private @keep(!async.value<!gpu.async.token>)

func.func @escapes() {
  %t, %v = async.execute -> !async.value<!gpu.async.token> {
    %w = gpu.wait async
    async.yield %w : !gpu.async.token
  }
  // expected-error @+1 {{passes a !async.value<!gpu.async.token> to an op other than async.await or async.execute}}
  func.call @keep(%v) : (!async.value<!gpu.async.token>) -> ()
  return
}
