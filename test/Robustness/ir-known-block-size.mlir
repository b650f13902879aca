// known_block_size of a gpu.func: three sizes, each one CUDA can launch.
// The wrong number of values is refused by the gpu.func verifier; zero and
// negative sizes by warp-check-lowerable, the first pass of
// warp-lower-to-ptx. In the generic form, a value of another attribute kind
// is refused by the property conversion. (The custom gpu.func syntax drops
// such a value while parsing, before any verifier can see it.)
// RUN: warp-opt %s -split-input-file -verify-diagnostics --warp-check-lowerable

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op attribute 'known_block_size' failed to satisfy constraint: i32 dense array attribute with 3 elements}}
    gpu.func @k() kernel attributes {known_block_size = array<i32: 32, 1>} { gpu.return }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{failed to satisfy constraint: i32 dense array attribute with 3 elements}}
    gpu.func @k() kernel attributes {known_block_size = array<i32: 32, 1, 1, 1>} { gpu.return }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{block size x = 0 is outside [1, 1024], which CUDA can launch}}
    gpu.func @k() kernel attributes {known_block_size = array<i32: 0, 1, 1>} { gpu.return }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{block size y = -2 is outside [1, 1024], which CUDA can launch}}
    gpu.func @k() kernel attributes {known_block_size = array<i32: 32, -2, 1>} { gpu.return }
  }
}

// -----

"builtin.module"() ({
  "gpu.module"() <{sym_name = "m"}> ({
    // expected-error @+1 {{Invalid attribute `known_block_size` in property conversion: "32"}}
    "gpu.func"() <{function_type = () -> (), known_block_size = "32"}> ({
      "gpu.return"() : () -> ()
    }) {gpu.kernel, sym_name = "k"} : () -> ()
  }) : () -> ()
}) {gpu.container_module} : () -> ()

// -----

"builtin.module"() ({
  "gpu.module"() <{sym_name = "m"}> ({
    // expected-error @+1 {{Invalid attribute `known_block_size` in property conversion: array<i64: 32, 1, 1>}}
    "gpu.func"() <{function_type = () -> (), known_block_size = array<i64: 32, 1, 1>}> ({
      "gpu.return"() : () -> ()
    }) {gpu.kernel, sym_name = "k"} : () -> ()
  }) : () -> ()
}) {gpu.container_module} : () -> ()
