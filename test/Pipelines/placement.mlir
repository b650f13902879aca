// Warp ops in host code are a diagnostic in the full lowering.
// RUN: warp-opt %s --warp-lower-to-ptx="format=isa" -split-input-file -verify-diagnostics

func.func @host(%x: f32) -> f32 {
  // expected-error @+1 {{'warp.reduce' op runs on the GPU but is in host code: put it in a gpu.module function or a gpu.launch body}}
  %r = warp.reduce <add> %x : f32
  return %r : f32
}
