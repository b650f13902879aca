// Device code NVPTX or ptxas cannot take is a diagnostic on the op that
// causes it, never an abort or an exit 0 with broken output.
// RUN: warp-opt %s --warp-lower-to-ptx="format=isa" -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
gpu.module @kernels {
  // expected-error @+1 {{symbol name 'my.kernel' cannot be spelled in PTX}}
  gpu.func @"my.kernel"() kernel { gpu.return }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @kernels {
  // expected-error @+1 {{symbol name 'my-kernel' cannot be spelled in PTX}}
  gpu.func @"my-kernel"() kernel { gpu.return }
  // expected-error @+1 {{symbol name 'kérnel' cannot be spelled in PTX}}
  gpu.func @"kérnel"() kernel { gpu.return }
  // expected-error @+1 {{symbol name 'WARP_SZ' cannot be spelled in PTX}}
  gpu.func @WARP_SZ() kernel { gpu.return }
  // expected-error @+1 {{symbol name '_' cannot be spelled in PTX}}
  gpu.func @_() kernel { gpu.return }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @kernels {
  // expected-error @+1 {{'warp.syncwarp' op is outside any function of its gpu.module: put it in a gpu.func}}
  warp.syncwarp
}
}

// -----

module attributes {gpu.container_module} {
  module {
    // expected-error @+1 {{gpu.module is nested in another module, where the pipelines do not lower it}}
    gpu.module @kernels {
      gpu.func @k(%x: f32) kernel {
        %r = warp.reduce <add> %x : f32
        gpu.return
      }
    }
  }
}

// -----

module attributes {gpu.container_module} {
gpu.module @kernels {
  // expected-error @+1 {{block size x = 0 is outside [1, 1024], which CUDA can launch}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 0, 1, 1>} { gpu.return }
  // expected-error @+1 {{block of 2048 threads: CUDA launches at most 1024}}
  gpu.func @k2() kernel attributes {known_block_size = array<i32: 64, 32, 1>} { gpu.return }
  // expected-error @+1 {{grid size y = 70000 is outside [1, 65535]}}
  gpu.func @k3() kernel attributes {known_grid_size = array<i32: 1, 70000, 1>} { gpu.return }
}
}

// -----

func.func @launch_2_31(%x: f32) {
  %c1 = arith.constant 1 : index
  %big = arith.constant 2147483648 : index
  // expected-error @+1 {{grid size x = 2147483648 is outside [1, 2147483647], which CUDA can launch}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %big, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @launch_block_too_big(%x: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %big = arith.constant 2147483647 : index
  // expected-error @+1 {{block size x = 2147483647 is outside [1, 1024]}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %big, %sy = %c2, %sz = %c1) {
    %r = warp.reduce <add> %x : f32
    gpu.terminator
  }
  return
}
