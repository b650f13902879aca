// A kernel that writes constant memory (memref address space 4, which
// kernels only read) is an error at the write. The NVPTX backend used to
// stop there with an LLVM fatal error ("Cannot store to pointer that points
// to constant memory space"), reported at the gpu.module; the fuzz harness,
// which now counts a recovered fatal error as a finding, found it. Reads of
// constant memory lower as before.
// RUN: warp-opt %s --split-input-file --verify-diagnostics --warp-lower-to-ptx="chip=sm_90 format=isa" -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @store(%out: memref<4xf32, 4>, %v: f32) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'memref.store' op writes to 'memref<4xf32, 4>', constant memory (address space 4), which kernels can only read: write to global memory instead}}
      memref.store %v, %out[%c0] : memref<4xf32, 4>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @vector_store_and_atomic(%out: memref<8xf32, 4>, %v: vector<4xf32>, %x: f32) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'vector.store' op writes to 'memref<8xf32, 4>', constant memory}}
      vector.store %v, %out[%c0] : memref<8xf32, 4>, vector<4xf32>
      // expected-error @+1 {{'memref.atomic_rmw' op writes to 'memref<8xf32, 4>', constant memory}}
      %old = memref.atomic_rmw addf %x, %out[%c0] : (f32, memref<8xf32, 4>) -> f32
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @read(%in: memref<4xf32, 4>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %in[%c0] : memref<4xf32, 4>
      memref.store %v, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
