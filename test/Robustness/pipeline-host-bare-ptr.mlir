// host-bare-ptr-memref implies bare-ptr-memref: gpu-to-llvm passes every
// memref launch operand as one pointer under the host convention, so the
// kernel must take one pointer too (it used to keep the five-word memref
// descriptor and read its size and strides from beyond the one pointer
// passed). Host functions take one pointer per memref argument as well
// (they used to keep the descriptor, against the option's description).
// RUN: warp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --warp-lower-to-ptx="chip=sm_90 format=isa host-bare-ptr-memref=true ptx-output=%t.ptx" \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// PTX-LABEL: .visible .entry sum(
// PTX-NEXT: .param .u64 .ptr .align 1 sum_param_0
// PTX-NEXT: )

// The host function takes the pointer alone and launches with it.
// HOST-LABEL: llvm.func @host(
// HOST-SAME: %{{.*}}: !llvm.ptr)
// HOST-NOT: llvm.extractvalue
// HOST: gpu.launch_func @kernels::@sum
// HOST-SAME: args(%{{.*}} : !llvm.ptr)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum(%data: memref<32xi32>) kernel {
      %lane = gpu.thread_id x
      %x = memref.load %data[%lane] : memref<32xi32>
      %s = warp.reduce <add> %x : i32
      memref.store %s, %data[%lane] : memref<32xi32>
      gpu.return
    }
  }
  func.func @host(%data: memref<32xi32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%data : memref<32xi32>)
    return
  }
}

// -----

// A memref the bare convention cannot pass is an error at the function
// (the conversion to LLVM used to fail on it without saying why).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{argument #1 of type 'memref<?xi32>' cannot be passed as a bare pointer (the bare-pointer calling convention of bare-ptr-memref and host-bare-ptr-memref needs memrefs of static shape, strides and offset)}}
    gpu.func @dynamic(%n: index, %data: memref<?xi32>) kernel {
      %lane = gpu.thread_id x
      %x = memref.load %data[%lane] : memref<?xi32>
      %s = warp.reduce <add> %x : i32
      memref.store %s, %data[%lane] : memref<?xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{argument #0 of type 'memref<32xi32, strided<[1], offset: ?>>' cannot be passed as a bare pointer}}
    gpu.func @strided(%data: memref<32xi32, strided<[1], offset: ?>>) kernel {
      %lane = gpu.thread_id x
      %x = memref.load %data[%lane] : memref<32xi32, strided<[1], offset: ?>>
      %s = warp.reduce <add> %x : i32
      memref.store %s, %data[%lane] : memref<32xi32, strided<[1], offset: ?>>
      gpu.return
    }
  }
}

// -----

// Host functions too: a dynamic memref argument or result is an error at
// the host function.
module attributes {gpu.container_module} {
  // expected-error @+1 {{argument #0 of type 'memref<?xi32>' cannot be passed as a bare pointer}}
  func.func @dynamic_host(%data: memref<?xi32>) {
    return
  }
  // expected-error @+1 {{result #0 of type 'memref<*xi32>' cannot be passed as a bare pointer}}
  func.func @unranked_result(%data: memref<4xi32>) -> memref<*xi32> {
    %u = memref.cast %data : memref<4xi32> to memref<*xi32>
    return %u : memref<*xi32>
  }
}
