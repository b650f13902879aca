// warp-check-shared-memory: per kernel, the workgroup attributions plus the
// workgroup globals it (or a callee) reads, each rounded up to 16 bytes,
// must fit the 48 KiB (49152 bytes) of static shared memory.
// RUN: warp-opt %s --warp-check-shared-memory -split-input-file -verify-diagnostics -o /dev/null

// Two 30000-byte buffers, each fine alone (as the expansions check them):
// the kernel that reads both is over; the kernels that read one are not.
gpu.module @globals {
  memref.global "private" @a : memref<7500xf32, #gpu.address_space<workgroup>>
  memref.global "private" @b : memref<7500xi32, #gpu.address_space<workgroup>>
  // A global in global memory does not count.
  memref.global "private" @g : memref<100000xf32>
  // expected-error @+1 {{kernel 'both' uses 60000 bytes of static shared memory, more than the 49152 a block can have: @a 30000 bytes, @b 30000 bytes}}
  gpu.func @both() kernel {
    %a = memref.get_global @a : memref<7500xf32, #gpu.address_space<workgroup>>
    %b = memref.get_global @b : memref<7500xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @one() kernel {
    %a = memref.get_global @a : memref<7500xf32, #gpu.address_space<workgroup>>
    %g = memref.get_global @g : memref<100000xf32>
    gpu.return
  }
  // Not a kernel: not checked on its own.
  gpu.func @helper() {
    %a = memref.get_global @a : memref<7500xf32, #gpu.address_space<workgroup>>
    %b = memref.get_global @b : memref<7500xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A callee's global counts for its caller, transitively, and attributions
// count with their 16-byte rounding (4097 bytes -> 4112).
gpu.module @calls {
  memref.global "private" @big : memref<11264xf32, #gpu.address_space<workgroup>>
  func.func @leaf() {
    %b = memref.get_global @big : memref<11264xf32, #gpu.address_space<workgroup>>
    return
  }
  func.func @middle() {
    func.call @leaf() : () -> ()
    return
  }
  // expected-error @+1 {{kernel 'caller' uses 49168 bytes of static shared memory, more than the 49152 a block can have: @big 45056 bytes, workgroup attribution #0 4112 bytes}}
  gpu.func @caller() workgroup(%w: memref<4097xi8, #gpu.address_space<workgroup>>) kernel {
    func.call @middle() : () -> ()
    gpu.return
  }
  // Exactly at the limit: 45056 + 4096.
  gpu.func @fits() workgroup(%w: memref<4096xi8, #gpu.address_space<workgroup>>) kernel {
    func.call @middle() : () -> ()
    gpu.return
  }
}
