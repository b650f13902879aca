// warp-check-shared-memory sizes workgroup variables with overflow-checked
// arithmetic (issue 28, items 4 and 7). Before, 2^62 f64 took 2^65 bytes,
// which wrapped to 0 in 64 bits and passed; a workgroup attribution of
// dynamic shape passed unsized, and memref.alloc / memref.alloca in workgroup
// memory compiled to a malloc or a stack slot addressed as shared memory.
// Sizes by hand: f64 takes 8 bytes, i1 one byte, index 8 bytes (64 bits
// without a data layout) or 4 (a data layout of 32-bit index); each
// variable is rounded up to 16 bytes; the limit is 49152 bytes.
// RUN: warp-opt %s --warp-check-shared-memory -split-input-file -verify-diagnostics -o /dev/null
// The same errors through the whole pipeline (the pass runs in it).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90" -split-input-file -verify-diagnostics -o /dev/null

// A global of 2^62 f64 (2^65 bytes), used by a kernel.
gpu.module @global_wraps {
  // expected-error @+1 {{cannot size workgroup memory of type 'memref<4611686018427387904xf64, #gpu.address_space<workgroup>>': it takes more bytes than 64 bits can count}}
  memref.global "private" @huge : memref<4611686018427387904xf64, #gpu.address_space<workgroup>>
  gpu.func @k(%out: memref<?xf64>) kernel {
    %c0 = arith.constant 0 : index
    %g = memref.get_global @huge : memref<4611686018427387904xf64, #gpu.address_space<workgroup>>
    %v = memref.load %g[%c0] : memref<4611686018427387904xf64, #gpu.address_space<workgroup>>
    memref.store %v, %out[%c0] : memref<?xf64>
    gpu.return
  }
}

// -----

// The same as a workgroup attribution.
gpu.module @attribution_wraps {
  // expected-error @+1 {{cannot size workgroup memory of type 'memref<4611686018427387904xf64, #gpu.address_space<workgroup>>': it takes more bytes than 64 bits can count}}
  gpu.func @k(%out: memref<?xf64>) workgroup(%w: memref<4611686018427387904xf64, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %w[%c0] : memref<4611686018427387904xf64, #gpu.address_space<workgroup>>
    memref.store %v, %out[%c0] : memref<?xf64>
    gpu.return
  }
}

// -----

// 2^61 - 1 f64 are 2^64 - 8 bytes, which fit in 64 bits, but not once
// rounded up to 16; 2^32 x 2^32 i8 elements are 2^64 (the element count
// alone wraps to 0 as an int64_t product); a vector of 2^62 f64 takes 2^65
// bytes.
gpu.module @rounding_and_shapes {
  // expected-error @+1 {{cannot size workgroup memory of type 'memref<2305843009213693951xf64, #gpu.address_space<workgroup>>': it takes more bytes than 64 bits can count}}
  memref.global "private" @almost : memref<2305843009213693951xf64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{cannot size workgroup memory of type 'memref<4294967296x4294967296xi8, #gpu.address_space<workgroup>>': it takes more bytes than 64 bits can count}}
  memref.global "private" @square : memref<4294967296x4294967296xi8, #gpu.address_space<workgroup>>
  // expected-error @+1 {{cannot size workgroup memory of type 'memref<1xvector<4611686018427387904xf64>, #gpu.address_space<workgroup>>': it takes more bytes than 64 bits can count}}
  memref.global "private" @wide : memref<1xvector<4611686018427387904xf64>, #gpu.address_space<workgroup>>
  gpu.func @k(%f: f64, %i: i8, %v: vector<4611686018427387904xf64>) kernel {
    %c0 = arith.constant 0 : index
    %a = memref.get_global @almost : memref<2305843009213693951xf64, #gpu.address_space<workgroup>>
    memref.store %f, %a[%c0] : memref<2305843009213693951xf64, #gpu.address_space<workgroup>>
    %b = memref.get_global @square : memref<4294967296x4294967296xi8, #gpu.address_space<workgroup>>
    memref.store %i, %b[%c0, %c0] : memref<4294967296x4294967296xi8, #gpu.address_space<workgroup>>
    %c = memref.get_global @wide : memref<1xvector<4611686018427387904xf64>, #gpu.address_space<workgroup>>
    memref.store %v, %c[%c0] : memref<1xvector<4611686018427387904xf64>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Two globals of 2^60 f64, 2^63 bytes each: each fits, their sum does not.
gpu.module @sum_wraps {
  memref.global "private" @a : memref<1152921504606846976xf64, #gpu.address_space<workgroup>>
  memref.global "private" @b : memref<1152921504606846976xf64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{kernel 'k' uses 2^64 or more bytes of static shared memory, more than the 49152 a block can have: @a 9223372036854775808 bytes, @b 9223372036854775808 bytes (}}
  gpu.func @k(%x: f64) kernel {
    %c0 = arith.constant 0 : index
    %a = memref.get_global @a : memref<1152921504606846976xf64, #gpu.address_space<workgroup>>
    memref.store %x, %a[%c0] : memref<1152921504606846976xf64, #gpu.address_space<workgroup>>
    %b = memref.get_global @b : memref<1152921504606846976xf64, #gpu.address_space<workgroup>>
    memref.store %x, %b[%c0] : memref<1152921504606846976xf64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Workgroup memory of dynamic shape: an attribution (memref.global's own
// verifier rejects a dynamic global) and allocation ops.
gpu.module @dynamic {
  // expected-error @+1 {{cannot size workgroup memory of type 'memref<?xf32, #gpu.address_space<workgroup>>': its shape is not static}}
  gpu.func @attribution(%out: memref<?xf32>) workgroup(%w: memref<?xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %w[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%c0] : memref<?xf32>
    gpu.return
  }
  gpu.func @alloc(%out: memref<?xf32>, %n: index, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.alloc' op cannot allocate workgroup memory ('memref<?xf32, #gpu.address_space<workgroup>>'): declare it as a workgroup attribution of the gpu.func or a memref.global in the workgroup address space}}
    %w = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %x, %w[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
    %v = memref.load %w[%n] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%c0] : memref<?xf32>
    gpu.return
  }
  gpu.func @alloca(%out: memref<?xf32>, %n: index, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.alloca' op cannot allocate workgroup memory}}
    %w = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %x, %w[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
    %v = memref.load %w[%n] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%c0] : memref<?xf32>
    gpu.return
  }
  // A static shape does not help: the lowering has no shared variable to
  // make of an allocation op either (address space 3 is workgroup memory).
  gpu.func @alloc_static(%out: memref<?xf32>, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.alloc' op cannot allocate workgroup memory ('memref<16xf32, 3>')}}
    %w = memref.alloc() : memref<16xf32, 3>
    memref.store %x, %w[%c0] : memref<16xf32, 3>
    %v = memref.load %w[%c0] : memref<16xf32, 3>
    memref.store %v, %out[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// index and i1 elements: 6144 index of 8 bytes and 49152 i1 of one byte are
// the limit each; one element more is 16 bytes over.
gpu.module @index_i1 {
  gpu.func @index_at_limit() workgroup(%w: memref<6144xindex, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
  // expected-error @+1 {{kernel 'index_over' uses 49168 bytes of static shared memory, more than the 49152 a block can have: workgroup attribution #0 49168 bytes (}}
  gpu.func @index_over() workgroup(%w: memref<6145xindex, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
  gpu.func @i1_at_limit() workgroup(%w: memref<49152xi1, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
  // expected-error @+1 {{kernel 'i1_over' uses 49168 bytes of static shared memory, more than the 49152 a block can have: workgroup attribution #0 49168 bytes (}}
  gpu.func @i1_over() workgroup(%w: memref<49153xi1, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}

// -----

// With a data layout of 32-bit index, 12288 index are the limit.
gpu.module @index32 attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
  gpu.func @at_limit() workgroup(%w: memref<12288xindex, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
  // expected-error @+1 {{kernel 'over' uses 49168 bytes of static shared memory, more than the 49152 a block can have: workgroup attribution #0 49168 bytes (}}
  gpu.func @over() workgroup(%w: memref<12289xindex, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}

// -----

// The integer address space 3 is shared memory too.
gpu.module @space3 {
  memref.global "private" @g : memref<12289xf32, 3>
  // expected-error @+1 {{kernel 'k' uses 49168 bytes of static shared memory, more than the 49152 a block can have: @g 49168 bytes (}}
  gpu.func @k(%x: f32) kernel {
    %c0 = arith.constant 0 : index
    %g = memref.get_global @g : memref<12289xf32, 3>
    memref.store %x, %g[%c0] : memref<12289xf32, 3>
    gpu.return
  }
}
