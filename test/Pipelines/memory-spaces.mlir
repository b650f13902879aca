// Device accesses to memory spaces PTX cannot reach on the chip are a
// diagnostic at the op (CheckLowerable.cpp), never the NVPTX backend's
// fatal error, invalid PTX or a dropped store:
// * atomics: a cluster's shared memory (address space 7) before sm_90 (a
//   fuzz finding on sm_70: "Cannot select: AtomicLoadFAdd ... addrspace
//   7"), and the spaces without atomics (param 101, tensor 6, a number
//   NVVM does not name);
// * loads and stores: address space 7 before sm_90 (`st.shared::cluster`,
//   which ptxas rejects for the older target), tensor memory (a 32-bit
//   generic access came out), a number NVPTX does not name (a generic
//   access came out) and writes to param memory (the store was dropped).
// Global, shared and generic memory lower; on sm_90 the cluster's shared
// memory does too (atomic-cluster-shared.mlir).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa" -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @cluster_shared(%out: memref<8xf32, 7>, %v: vector<4xf32>, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'vector.store' op accesses 'memref<8xf32, 7>', a cluster's shared memory (address space 7), which PTX has from sm_90 on; the pipeline's chip is sm_80}}
    vector.store %v, %out[%c0] : memref<8xf32, 7>, vector<4xf32>
    // expected-error @+1 {{'memref.atomic_rmw' op is an atomic on 'memref<8xf32, 7>', a cluster's shared memory (address space 7), which PTX has from sm_90 on; the pipeline's chip is sm_80}}
    %old = memref.atomic_rmw addf %x, %out[%c0] : (f32, memref<8xf32, 7>) -> f32
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @param(%out: memref<8xi32, 101>, %x: i32) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.atomic_rmw' op is an atomic on 'memref<8xi32, 101>', a memory space PTX's atomics cannot reach: use global (1), shared (3) or generic (no memory space) memory}}
    %old = memref.atomic_rmw addi %x, %out[%c0] : (i32, memref<8xi32, 101>) -> i32
    gpu.return
  }
  gpu.func @tensor(%out: memref<8xi32, 6>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.generic_atomic_rmw' op is an atomic on 'memref<8xi32, 6>', a memory space PTX's atomics cannot reach}}
    %old = memref.generic_atomic_rmw %out[%c0] : memref<8xi32, 6> {
    ^bb0(%v: i32):
      memref.atomic_yield %v : i32
    }
    gpu.return
  }
  gpu.func @unnamed(%out: memref<8xi32, 8>, %x: i32) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.atomic_rmw' op is an atomic on 'memref<8xi32, 8>', a memory space PTX's atomics cannot reach}}
    %old = memref.atomic_rmw maxs %x, %out[%c0] : (i32, memref<8xi32, 8>) -> i32
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @reachable(%g: memref<8xf32, 1>, %s: memref<8xf32, 3>, %p: memref<8xf32>, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    %a = memref.atomic_rmw addf %x, %g[%c0] : (f32, memref<8xf32, 1>) -> f32
    %b = memref.atomic_rmw addf %x, %s[%c0] : (f32, memref<8xf32, 3>) -> f32
    %c = memref.atomic_rmw addf %x, %p[%c0] : (f32, memref<8xf32>) -> f32
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @tensor_load(%in: memref<8xi32, 6>, %out: memref<8xi32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.load' op accesses 'memref<8xi32, 6>', tensor memory (address space 6), which loads and stores cannot reach (tcgen05 instructions do)}}
    %x = memref.load %in[%c0] : memref<8xi32, 6>
    memref.store %x, %out[%c0] : memref<8xi32>
    gpu.return
  }
  gpu.func @param_store(%p: memref<8xf32, 101>, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.store' op writes to 'memref<8xf32, 101>', kernel parameter memory (address space 101), which kernels can only read: write to global memory instead}}
    memref.store %x, %p[%c0] : memref<8xf32, 101>
    gpu.return
  }
}
}

// -----

// Memory spaces NVPTX does not name (2, 8) lowered as generic memory
// whatever was meant: an error at the access.
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @unnamed_spaces(%a: memref<4xi32, 2>, %b: memref<4xi32, 8>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.load' op accesses 'memref<4xi32, 2>', memory space 2, which NVPTX does not name (0 generic, 1 global, 3 shared, 4 constant, 5 local, 7 a cluster's shared, 101 kernel parameters): give the memref one of those}}
    %v = memref.load %a[%c0] : memref<4xi32, 2>
    // expected-error @+1 {{'memref.store' op accesses 'memref<4xi32, 8>', memory space 8, which NVPTX does not name}}
    memref.store %v, %b[%c0] : memref<4xi32, 8>
    gpu.return
  }
}
}
