// A uniform gpu.all_reduce becomes warp.block_reduce: a named operation, or
// a region that yields one such arith op of its two arguments, as a combine
// kind; any other one-block region as the combiner region. Only a region of
// several blocks stays for upstream's lowering.
// RUN: warp-opt %s --convert-gpu-to-warp | FileCheck %s
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @named
  // CHECK: warp.block_reduce <add> %{{.*}} : f32
  // CHECK: warp.block_reduce <maximumf> %{{.*}} : f32
  // CHECK: warp.block_reduce <minui> %{{.*}} : i32
  // CHECK-NOT: gpu.all_reduce
  // One scratch variable per payload type and kernel (LLVM moves a global
  // used by one kernel into it).
  // PTX-LABEL: .entry named(
  // PTX: .shared .align 16 .b8 __warp_block_scratch{{(_0)?}}[528];
  // PTX: .shared .align 16 .b8 __warp_block_scratch{{(_0)?}}[528];
  // PTX-COUNT-6: bar.sync 0;
  // PTX-NOT: bar.sync
  // PTX: ret;
  gpu.func @named(%in: memref<?xf32>, %iin: memref<?xi32>, %out: memref<?xf32>, %iout: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %i = memref.load %iin[%t] : memref<?xi32>
    %s = gpu.all_reduce add %x uniform {} : (f32) -> f32
    %m = gpu.all_reduce maximumf %s uniform {} : (f32) -> f32
    %u = gpu.all_reduce minui %i uniform {} : (i32) -> i32
    memref.store %m, %out[%t] : memref<?xf32>
    memref.store %u, %iout[%t] : memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @region
  // CHECK: warp.block_reduce <add> %{{.*}} : f32
  // CHECK: warp.block_reduce <maxsi> %{{.*}} : i32
  // CHECK: warp.block_reduce <xor> %{{.*}} : i64
  // CHECK-NOT: gpu.all_reduce
  gpu.func @region(%in: memref<?xf32>, %out: memref<?xf32>, %i: i32, %v: i64,
                   %iout: memref<?xi32>, %vout: memref<?xi64>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<?xf32>
    %s = gpu.all_reduce %x uniform {
    ^bb(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      gpu.yield %c : f32
    } : (f32) -> f32
    // The arguments swapped: the same (every kind is commutative).
    %m = gpu.all_reduce %i uniform {
    ^bb(%a: i32, %b: i32):
      %c = arith.maxsi %b, %a : i32
      gpu.yield %c : i32
    } : (i32) -> i32
    %w = gpu.all_reduce %v uniform {
    ^bb(%a: i64, %b: i64):
      %c = arith.xori %a, %b : i64
      gpu.yield %c : i64
    } : (i64) -> i64
    memref.store %s, %out[%t] : memref<?xf32>
    memref.store %m, %iout[%t] : memref<?xi32>
    memref.store %w, %vout[%t] : memref<?xi64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @other_regions
  // Two ops: the combiner region, gpu.yield now warp.yield.
  // CHECK: %[[A:.*]] = warp.block_reduce %{{.*}} : f32 combine (%[[L:.*]]: f32, %[[R:.*]]: f32) {
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[L]], %[[R]] : f32
  // CHECK-NEXT: %[[D:.*]] = arith.mulf %[[S]], %[[S]] : f32
  // CHECK-NEXT: warp.yield %[[D]] : f32
  // Not a combine kind.
  // CHECK: warp.block_reduce %[[A]] : f32 combine
  // CHECK-NEXT: arith.subf
  // CHECK-NEXT: warp.yield
  // An operand that is not an argument.
  // CHECK: warp.block_reduce %{{.*}} : i32 combine (%[[X:.*]]: i32, %{{.*}}: i32)
  // CHECK-NEXT: arith.addi %[[X]], %[[X]] : i32
  // CHECK-NEXT: warp.yield
  // Several blocks: upstream's.
  // CHECK: gpu.all_reduce %{{.*}} uniform {
  // CHECK: cf.br
  // CHECK-NOT: gpu.all_reduce
  gpu.func @other_regions(%x: f32, %i: i32, %out: memref<?xf32>, %iout: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %a = gpu.all_reduce %x uniform {
    ^bb(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      %d = arith.mulf %s, %s : f32
      gpu.yield %d : f32
    } : (f32) -> f32
    %b = gpu.all_reduce %a uniform {
    ^bb(%l: f32, %r: f32):
      %d = arith.subf %l, %r : f32
      gpu.yield %d : f32
    } : (f32) -> f32
    %c = gpu.all_reduce %i uniform {
    ^bb(%l: i32, %r: i32):
      %d = arith.addi %l, %l : i32
      gpu.yield %d : i32
    } : (i32) -> i32
    %e = gpu.all_reduce %c uniform {
    ^bb(%l: i32, %r: i32):
      %d = arith.addi %l, %r : i32
      cf.br ^done(%d : i32)
    ^done(%v: i32):
      gpu.yield %v : i32
    } : (i32) -> i32
    memref.store %b, %out[%t] : memref<?xf32>
    memref.store %e, %iout[%t] : memref<?xi32>
    gpu.return
  }
}
}
