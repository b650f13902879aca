// device-index-bitwidth=32 puts the index width in each gpu.module's data
// layout (mma-device-index-bitwidth.mlir); a data layout that gives index
// another width contradicts the option and is an error at the module.
// RUN: warp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32" -o /dev/null

module attributes {gpu.container_module} {
  // expected-error @+1 {{the data layout's index width 64 : i64 contradicts device-index-bitwidth=32}}
  gpu.module @kernels attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i64>} {
    gpu.func @k(%a: memref<32xi32>) kernel {
      gpu.return
    }
  }
}

// -----

// The same width, and other entries, are kept.
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64, i1 = dense<8> : vector<2xi64>>} {
    gpu.func @k(%a: memref<32xi32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<32xi32>
      %s = warp.reduce <add> %x : i32
      memref.store %s, %a[%t] : memref<32xi32>
      gpu.return
    }
  }
}
