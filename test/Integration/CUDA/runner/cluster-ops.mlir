// Cluster collectives in a kernel without known_cluster_size, launched in
// clusters by gpu.launch_func (cuLaunchKernelEx): the cluster's block count
// is read at run time. 8 blocks of 64 threads in clusters of 4; thread g
// (its global number) holds g, so cluster c holds 256 c .. 256 c + 255.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// The sum of 0..255 is 32640, of 256..511 is 98176; the exclusive and
// inclusive scans are checked in the kernel against the closed form
// (g - 256 c) (256 c + g - 1) / 2 (a one where equal); thread 5 of block
// rank 2 is 133 in cluster 0, 389 in cluster 1; the maximum of a cluster
// as f64 is its last value.
// CHECK: [32640{{(, 32640)+}}, 98176{{(, 98176)+}}]
// CHECK: [1{{(, 1)+}}]
// CHECK: [133{{(, 133)+}}, 389{{(, 389)+}}]
// CHECK: [255{{(, 255)+}}, 511{{(, 511)+}}]

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @cluster(%sum: memref<512xi32>, %ok: memref<512xi32>, %bc: memref<512xi32>,
                      %max: memref<512xf64>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %b, %c64 : index
      %gi = arith.addi %base, %t : index
      %g = arith.index_cast %gi : index to i32
      %s = warp.cluster_reduce <add> %g : i32
      memref.store %s, %sum[%gi] : memref<512xi32>
      %excl, %total = warp.cluster_scan <add> %g exclusive : i32
      %incl, %total2 = warp.cluster_scan <add> %g : i32
      // first = 256 c: sum first .. g-1 = (g - first) (first + g - 1) / 2.
      %c256 = arith.constant 256 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %cl = arith.divui %g, %c256 : i32
      %first = arith.muli %cl, %c256 : i32
      %n = arith.subi %g, %first : i32
      %hi = arith.addi %first, %g : i32
      %hi1 = arith.subi %hi, %c1 : i32
      %p = arith.muli %n, %hi1 : i32
      %want = arith.divui %p, %c2 : i32
      %want_incl = arith.addi %want, %g : i32
      %e1 = arith.cmpi eq, %excl, %want : i32
      %e2 = arith.cmpi eq, %incl, %want_incl : i32
      %e3 = arith.cmpi eq, %total, %s : i32
      %e4 = arith.cmpi eq, %total2, %s : i32
      %e12 = arith.andi %e1, %e2 : i1
      %e34 = arith.andi %e3, %e4 : i1
      %all = arith.andi %e12, %e34 : i1
      %flag = arith.extui %all : i1 to i32
      memref.store %flag, %ok[%gi] : memref<512xi32>
      %r2 = arith.constant 2 : i32
      %t5 = arith.constant 5 : i32
      %v = warp.cluster_broadcast %g, %r2, %t5 : i32
      memref.store %v, %bc[%gi] : memref<512xi32>
      %gf = arith.sitofp %g : i32 to f64
      %m = warp.cluster_reduce <maxnumf> %gf : f64
      memref.store %m, %max[%gi] : memref<512xf64>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %sum = memref.alloc() : memref<512xi32>
    %ok = memref.alloc() : memref<512xi32>
    %bc = memref.alloc() : memref<512xi32>
    %max = memref.alloc() : memref<512xf64>
    %a = memref.cast %sum : memref<512xi32> to memref<*xi32>
    %b = memref.cast %ok : memref<512xi32> to memref<*xi32>
    %c = memref.cast %bc : memref<512xi32> to memref<*xi32>
    %d = memref.cast %max : memref<512xf64> to memref<*xf64>
    gpu.host_register %a : memref<*xi32>
    gpu.host_register %b : memref<*xi32>
    gpu.host_register %c : memref<*xi32>
    gpu.host_register %d : memref<*xf64>
    gpu.launch_func @kernels::@cluster clusters in (%c4, %c1, %c1) blocks in (%c8, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%sum : memref<512xi32>, %ok : memref<512xi32>,
        %bc : memref<512xi32>, %max : memref<512xf64>)
    call @printMemrefI32(%a) : (memref<*xi32>) -> ()
    call @printMemrefI32(%b) : (memref<*xi32>) -> ()
    call @printMemrefI32(%c) : (memref<*xi32>) -> ()
    call @printMemrefF64(%d) : (memref<*xf64>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF64(memref<*xf64>)
}
