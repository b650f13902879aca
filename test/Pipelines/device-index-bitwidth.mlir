// device-index-bitwidth=32: index arithmetic inside the gpu.module is 32-bit
// while the kernel ABI stays the 64-bit one the host lowering passes: index
// parameters and the offset, sizes and strides of memref descriptors are
// .u64 parameters, truncated once at entry; addresses come from 32-bit
// values with mul.wide instead of 64-bit multiplies.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32 ptx-output=%t.ptx" | FileCheck %s --check-prefix=HOST
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// The parameters are exactly those of the default (64-bit) lowering.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.64.ptx" -o /dev/null
// RUN: grep -hE "^[[:space:]]+\.param" %t.ptx > %t.params32
// RUN: grep -hE "^[[:space:]]+\.param" %t.64.ptx > %t.params64
// RUN: diff %t.params32 %t.params64
// Bad values are errors before anything runs.
// RUN: not warp-opt %s --warp-lower-to-ptx="device-index-bitwidth=16" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not warp-opt %s --warp-lower-to-ptx="device-index-bitwidth=wide" 2>&1 | FileCheck %s --check-prefix=NOT-INT

// BAD: error: device-index-bitwidth=16 is not supported: use 32 or 64
// NOT-INT: device-index-bitwidth

// The host is unchanged: i64 index operands, memrefs as 64-bit descriptors.
// HOST: gpu.launch_func @kernels::@scale2d {{.*}} args({{.*}} : i64

// Two 2-D descriptors (allocated, aligned, offset, 2 sizes, 2 strides),
// the index and the i32.
// CHECK-LABEL: .entry scale2d(
// CHECK-NEXT: .param .u64 .ptr .align 1 scale2d_param_0,
// CHECK-NEXT: .param .u64 .ptr .align 1 scale2d_param_1,
// CHECK-NEXT: .param .u64 scale2d_param_2,
// CHECK-NEXT: .param .u64 scale2d_param_3,
// CHECK-NEXT: .param .u64 scale2d_param_4,
// CHECK-NEXT: .param .u64 scale2d_param_5,
// CHECK-NEXT: .param .u64 scale2d_param_6,
// CHECK-NEXT: .param .u64 .ptr .align 1 scale2d_param_7,
// CHECK-NEXT: .param .u64 .ptr .align 1 scale2d_param_8,
// CHECK-NEXT: .param .u64 scale2d_param_9,
// CHECK-NEXT: .param .u64 scale2d_param_10,
// CHECK-NEXT: .param .u64 scale2d_param_11,
// CHECK-NEXT: .param .u64 scale2d_param_12,
// CHECK-NEXT: .param .u64 scale2d_param_13,
// CHECK-NEXT: .param .u64 scale2d_param_14,
// CHECK-NEXT: .param .u32 scale2d_param_15
// CHECK-NEXT: )
// CHECK-NOT: mul.lo.s64
// CHECK-NOT: .entry
// CHECK: mul.wide.{{[su]}}32
// CHECK-NOT: .entry
// CHECK: ret;

// CHECK-LABEL: .entry sums(
// CHECK-NOT: mul.lo.s64
// CHECK: shfl.sync
// CHECK-NOT: .entry
// CHECK: mul.wide.{{[su]}}32
// CHECK-NOT: .entry
// CHECK: ret;

// CHECK-LABEL: .entry block_sum(
// CHECK-NOT: mul.lo.s64
// CHECK: bar.sync
// CHECK-NOT: .entry
// CHECK: ret;

// warp.atomic_rmw groups lanes by a 64-bit address (byte offset widened from
// the 32-bit element offset).
// CHECK-LABEL: .entry histogram(
// CHECK: mul.wide.s32
// CHECK: match.any.sync.b64
// CHECK: atom.global.add.u32
// CHECK: ret;

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // 2-D dynamic memrefs, an index bound and an i32 (which stays .u32).
    gpu.func @scale2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %rows: index, %factor: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r = gpu.block_id x
      %c = gpu.thread_id x
      %cols = memref.dim %in, %c1 : memref<?x?xf32>
      %in_rows = arith.cmpi ult, %r, %rows : index
      %in_cols = arith.cmpi ult, %c, %cols : index
      %ok = arith.andi %in_rows, %in_cols : i1
      scf.if %ok {
        %x = memref.load %in[%r, %c] : memref<?x?xf32>
        %f = arith.sitofp %factor : i32 to f32
        %y = arith.mulf %x, %f : f32
        memref.store %y, %out[%r, %c] : memref<?x?xf32>
      }
      gpu.return
    }

    // 1-D dynamic memrefs, an index count, a warp reduce and a warp scan.
    gpu.func @sums(%in: memref<?xi32>, %totals: memref<?xi32>, %prefix: memref<?xi32>, %n: index) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %inside = arith.cmpi ult, %i, %n : index
      %zero = arith.constant 0 : i32
      %x = scf.if %inside -> i32 {
        %v = memref.load %in[%i] : memref<?xi32>
        scf.yield %v : i32
      } else {
        scf.yield %zero : i32
      }
      %s = warp.reduce <add> %x : i32
      %p = warp.scan <add> %x : i32
      %c32 = arith.constant 32 : index
      %w = arith.divui %i, %c32 : index
      memref.store %s, %totals[%w] : memref<?xi32>
      scf.if %inside {
        memref.store %p, %prefix[%i] : memref<?xi32>
      }
      gpu.return
    }

    // A block collective: its workgroup buffer is addressed with 32-bit
    // index arithmetic too.
    gpu.func @block_sum(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %x = memref.load %in[%i] : memref<?xf32>
      %r = warp.block_reduce <add> %x : f32
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %r, %out[%b] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @histogram(%bins: memref<?xi32>, %keys: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %k = memref.load %keys[%t] : memref<?xi32>
      %bin = arith.index_cast %k : i32 to index
      %one = arith.constant 1 : i32
      %old = warp.atomic_rmw <add> %one, %bins[%bin] : i32, memref<?xi32>
      gpu.return
    }
  }

  func.func @main(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %rows: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 3 : i32
    gpu.launch_func @kernels::@scale2d blocks in (%rows, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?x?xf32>, %rows : index, %f : i32)
    return
  }
}
