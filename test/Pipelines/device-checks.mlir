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

// -----

// A zero-width integer parameter or result: NVPTX aborts ("Empty parameter
// types are not supported"; found by the fuzzer).
module attributes {gpu.container_module} {
gpu.module @kernels {
  // expected-error @+1 {{'func.func' op argument #0 has type 'i0', which PTX cannot pass (zero-width integer)}}
  func.func @takes(%h: i0, %x: f32) { return }
  // expected-error @+1 {{'func.func' op result #0 has type 'vector<2xi0>', which PTX cannot pass}}
  func.func private @gives() -> vector<2xi0>
  // expected-error @+1 {{'gpu.func' op argument #1 has type 'i0'}}
  gpu.func @kernel(%x: f32, %h: i0) kernel { gpu.return }
}
}

// -----

// Async-dialect host code without the pipeline's async option: a
// diagnostic, not invalid IR after gpu-to-llvm (found by the fuzzer).
// expected-error @+1 {{'func.func' op is async-dialect host code, which this pipeline does not lower: add the pipeline option async=true}}
func.func @from_argument(%v: !async.value<!gpu.async.token>) {
  // expected-error @+1 {{'async.await' op is async-dialect host code}}
  %r = async.await %v : !async.value<!gpu.async.token>
  gpu.wait [%r]
  return
}

// -----

// A write through a memref kernel argument marked llvm.readonly (which the
// pipeline would turn into ld.global.nc loads with llvm.noalias): the write
// is the error, before the warp expansions rewrite warp.atomic_rmw.
module attributes {gpu.container_module} {
gpu.module @kernels {
  // expected-note @+1 {{the kernel is declared here}}
  gpu.func @histogram(%hist: memref<?xi32> {llvm.noalias, llvm.readonly}, %bin: index) kernel {
    %one = arith.constant 1 : i32
    // expected-error @+1 {{'warp.atomic_rmw' op writes to the buffer of argument 0 of kernel @histogram, which is marked llvm.readonly}}
    %old = warp.atomic_rmw <add> %one, %hist[%bin] : i32, memref<?xi32>
    gpu.return
  }
}
}

// -----

// convert-gpu-to-nvvm puts workgroup attributions in shared memory and
// private ones on the stack whatever their memref says: another memory
// space is an error at the function (it left invalid IR; found by the
// fuzzer). No memory space and #gpu.address_space<private> are private
// memory.
module attributes {gpu.container_module} {
gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op workgroup attribution #1 has type 'memref<4xvector<3xbf16>>', which is not in workgroup memory: give it the memory space #gpu.address_space<workgroup> (or 3)}}
  gpu.func @workgroup_generic() workgroup(%ok: memref<4xf32, 3>, %w: memref<4xvector<3xbf16>>) kernel {
    gpu.return
  }
  // (gpu.func's verifier rejects #gpu.address_space<workgroup> here, not 3.)
  // expected-error @+1 {{'gpu.func' op private attribution #0 has type 'memref<4xf32, 3>', which is not in private memory: give it no memory space or #gpu.address_space<private>}}
  gpu.func @private_shared() private(%p: memref<4xf32, 3>) kernel {
    gpu.return
  }
  // Local memory by number: upstream allocates it as a generic pointer
  // and left a descriptor of local ones to be built from it, invalid IR
  // (found by the fuzzer, unused as here).
  // expected-error @+1 {{'gpu.func' op private attribution #0 has type 'memref<32xi32, 5>', which is not in private memory: give it no memory space or #gpu.address_space<private>}}
  gpu.func @private_numbered(%out: memref<32xi32>) private(%p: memref<32xi32, 5>) kernel {
    gpu.return
  }
  gpu.func @private_ok(%out: memref<2xf32>) private(%p: memref<2xf32>, %q: memref<2xf32, #gpu.address_space<private>>) kernel {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    memref.store %x, %p[%c0] : memref<2xf32>
    memref.store %x, %q[%c0] : memref<2xf32, #gpu.address_space<private>>
    %y = memref.load %q[%c0] : memref<2xf32, #gpu.address_space<private>>
    memref.store %y, %out[%c0] : memref<2xf32>
    gpu.return
  }
}
}

// -----

// A memref.global becomes a PTX variable of its memory space. Module-scope
// variables exist in global, shared and constant memory only: NVPTX aborts
// on others ("Bad address space found while emitting PTX", found by the
// fuzzer) and ptxas rejects .local ones.
module attributes {gpu.container_module} {
gpu.module @kernels {
  // expected-error @+1 {{'memref.global' op has type 'memref<8xf32, 7>', whose memory space PTX has no module-scope variables in: use global (no memory space or 1), workgroup (3) or constant (4) memory}}
  memref.global "private" @cluster : memref<8xf32, 7>
  // expected-error @+1 {{'memref.global' op has type 'memref<8xf32, #gpu.address_space<private>>', whose memory space}}
  memref.global "private" @local : memref<8xf32, #gpu.address_space<private>>
  memref.global "private" @ok0 : memref<8xf32>
  memref.global "private" @ok1 : memref<8xf32, 1>
  memref.global "private" @ok3 : memref<8xf32, #gpu.address_space<workgroup>>
  memref.global "private" constant @ok4 : memref<8xf32, 4> = dense<1.0>
  gpu.func @k(%x: f32) kernel {
    %c0 = arith.constant 0 : index
    %g = memref.get_global @cluster : memref<8xf32, 7>
    memref.store %x, %g[%c0] : memref<8xf32, 7>
    gpu.return
  }
}
}

// -----

// An atomic on private memory: PTX has none (a fuzz finding: at opt-level=0
// it reached the NVPTX backend's instruction selection, a fatal error).
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @private_atomic(%out: memref<8xf32, 5>, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.atomic_rmw' op is an atomic on 'memref<8xf32, 5>', private memory (address space 5), which PTX's atomics cannot reach}}
    %old = memref.atomic_rmw addf %x, %out[%c0] : (f32, memref<8xf32, 5>) -> f32
    gpu.return
  }
  gpu.func @private_generic_atomic(%out: memref<8xi32, #gpu.address_space<private>>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.generic_atomic_rmw' op is an atomic on 'memref<8xi32, #gpu.address_space<private>>', private memory}}
    %old = memref.generic_atomic_rmw %out[%c0] : memref<8xi32, #gpu.address_space<private>> {
    ^bb0(%v: i32):
      memref.atomic_yield %v : i32
    }
    gpu.return
  }
}
}
