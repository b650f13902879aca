// warp.atomic_rmw groups lanes by the element's address, so it needs memory
// every lane addresses alike: global or workgroup. Thread-private, constant
// and unknown address spaces, and stack allocations, are refused by the
// verifier (they used to compile to wrong sums, or abort in the backend).
// RUN: warp-opt %s -split-input-file -verify-diagnostics

func.func @private_int(%v: i32, %m: memref<32xi32, 5>, %i: index) -> i32 {
  // expected-error @+1 {{'warp.atomic_rmw' op needs a memref in global memory (no memory space, 1 or #gpu.address_space<global>) or workgroup memory (3 or #gpu.address_space<workgroup>), not 'memref<32xi32, 5>'}}
  %o = warp.atomic_rmw <add> %v, %m[%i] : i32, memref<32xi32, 5>
  return %o : i32
}

// -----

func.func @private_gpu(%v: f32, %m: memref<32xf32, #gpu.address_space<private>>, %i: index) -> f32 {
  // expected-error @+1 {{needs a memref in global memory}}
  %o = warp.atomic_rmw <add> %v, %m[%i] : f32, memref<32xf32, #gpu.address_space<private>>
  return %o : f32
}

// -----

func.func @constant_space(%v: i64, %m: memref<8xi64, 4>, %i: index) -> i64 {
  // expected-error @+1 {{not 'memref<8xi64, 4>'}}
  %o = warp.atomic_rmw <add> %v, %m[%i] : i64, memref<8xi64, 4>
  return %o : i64
}

// -----

func.func @unknown_int_space(%v: i32, %m: memref<8xi32, 7>, %i: index) -> i32 {
  // expected-error @+1 {{not 'memref<8xi32, 7>'}}
  %o = warp.atomic_rmw <add> %v, %m[%i] : i32, memref<8xi32, 7>
  return %o : i32
}

// -----

func.func @non_integer_space(%v: i32, %m: memref<8xi32, "global">, %i: index) -> i32 {
  // expected-error @+1 {{needs a memref in global memory}}
  %o = warp.atomic_rmw <add> %v, %m[%i] : i32, memref<8xi32, "global">
  return %o : i32
}

// -----

// A private attribution of a kernel.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<32xi32>, %i: index) private(%p: memref<32xi32, #gpu.address_space<private>>) kernel {
      %c1 = arith.constant 1 : i32
      // expected-error @+1 {{needs a memref in global memory}}
      %o = warp.atomic_rmw <add> %c1, %p[%i] : i32, memref<32xi32, #gpu.address_space<private>>
      memref.store %o, %out[%i] : memref<32xi32>
      gpu.return
    }
  }
}

// -----

// A stack allocation has no memory space but is private to each thread.
func.func @alloca(%v: i32, %i: index) -> i32 {
  %a = memref.alloca() : memref<32xi32>
  // expected-error @+1 {{'warp.atomic_rmw' op needs a memref in global or workgroup memory, not a stack allocation (private to each thread)}}
  %o = warp.atomic_rmw <add> %v, %a[%i] : i32, memref<32xi32>
  return %o : i32
}

// -----

// A view of one is too.
func.func @alloca_view(%v: f32, %i: index) -> f32 {
  %a = memref.alloca() : memref<64xf32>
  %s = memref.subview %a[32] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: 32>>
  // expected-error @+1 {{not a stack allocation}}
  %o = warp.atomic_rmw <add> %v, %s[%i] : f32, memref<32xf32, strided<[1], offset: 32>>
  return %o : f32
}

// -----

// Global and workgroup memory in each spelling verify.
func.func @accepted(%v: i32, %i: index,
                    %g0: memref<8xi32>, %g1: memref<8xi32, 1>,
                    %g2: memref<8xi32, #gpu.address_space<global>>,
                    %w0: memref<8xi32, 3>,
                    %w1: memref<8xi32, #gpu.address_space<workgroup>>) {
  %a = warp.atomic_rmw <add> %v, %g0[%i] : i32, memref<8xi32>
  %b = warp.atomic_rmw <add> %v, %g1[%i] : i32, memref<8xi32, 1>
  %c = warp.atomic_rmw <add> %v, %g2[%i] : i32, memref<8xi32, #gpu.address_space<global>>
  %d = warp.atomic_rmw <add> %v, %w0[%i] : i32, memref<8xi32, 3>
  %e = warp.atomic_rmw <add> %v, %w1[%i] : i32, memref<8xi32, #gpu.address_space<workgroup>>
  // A heap allocation is global memory.
  %h = memref.alloc() : memref<8xi32>
  %f = warp.atomic_rmw <add> %v, %h[%i] : i32, memref<8xi32>
  return
}
