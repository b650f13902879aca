// warp.device_reduce and warp.device_scan on the GPU, from host code: the
// runner's pipeline expands them (warp-expand-device-ops) into kernels and
// launches. 10000 elements: 3 scan tiles of 4096 i32/f32, 5 of 2048 i64;
// static and dynamic shapes, an in-place exclusive scan. The host checks
// every element against a closed form and prints the mismatches (0), a few
// elements and the reductions.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// i32, x[i] = i % 7 - 3 (each period of 7 sums to 0): the inclusive sum
// y[i] = P(i % 7) with P(r) = (r + 1)(r - 6) / 2, i.e. -3 -5 -6 -6 -5 -3 0.
// y[0], y[4095] (4095 % 7 = 0), y[4096], y[9999] (9999 % 7 = 3):
// CHECK: scan i32 mismatches: 0
// CHECK-NEXT: -3
// CHECK-NEXT: -3
// CHECK-NEXT: -5
// CHECK-NEXT: -6
// The sum of 10000 = 7 * 1428 + 4 elements: P(3) = -6.
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [-6]
// In place, exclusive: 0, then P((i - 1) % 7); y[4096] = P(0) = -3.
// CHECK-NEXT: exclusive in place i32 mismatches: 0
// CHECK-NEXT: 0
// CHECK-NEXT: -3

// i64 in a memref<?xi64>, x[i] = i: y[i] = i (i + 1) / 2, y[2048] =
// 2098176, y[9999] = 49995000 (also the sum); the max is 9999.
// CHECK-NEXT: scan i64 mismatches: 0
// CHECK-NEXT: 2098176
// CHECK-NEXT: 49995000
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [49995000]
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [9999]

// f32, x[i] = i % 7 - 3 (sums of small integers: exact in any order):
// exclusive sums 0, then P((i - 1) % 7); the minimum is -3.
// CHECK-NEXT: exclusive f32 mismatches: 0
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [-3]

module attributes {gpu.container_module} {
  // P(r) = (r + 1)(r - 6) / 2: x_0 + ... + x_r for x[i] = i % 7 - 3, r < 7.
  func.func @period_sum(%r: index) -> i64 {
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %c6 = arith.constant 6 : i64
    %ri = arith.index_cast %r : index to i64
    %a = arith.addi %ri, %c1 : i64
    %b = arith.subi %ri, %c6 : i64
    %p = arith.muli %a, %b : i64
    %q = arith.divsi %p, %c2 : i64
    return %q : i64
  }

  func.func @print_line(%v: i64) {
    call @printI64(%v) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c2048 = arith.constant 2048 : index
    %c4095 = arith.constant 4095 : index
    %c4096 = arith.constant 4096 : index
    %c9999 = arith.constant 9999 : index
    %n = arith.constant 10000 : index
    %zero = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %three = arith.constant 3 : i32

    // ---- i32, static shapes ------------------------------------------------
    %hx = memref.alloc() : memref<10000xi32>
    %hy = memref.alloc() : memref<10000xi32>
    %hs = memref.alloc() : memref<1xi32>
    scf.for %i = %c0 to %n step %c1 {
      %r = arith.remui %i, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %v = arith.subi %ri, %three : i32
      memref.store %v, %hx[%i] : memref<10000xi32>
    }
    %a0 = gpu.wait async
    %dx, %a1 = gpu.alloc async [%a0] () : memref<10000xi32>
    %dy, %a2 = gpu.alloc async [%a1] () : memref<10000xi32>
    %ds, %a3 = gpu.alloc async [%a2] () : memref<1xi32>
    %a4 = gpu.memcpy async [%a3] %dx, %hx : memref<10000xi32>, memref<10000xi32>
    gpu.wait [%a4]
    warp.device_scan <add> %dx, %dy : memref<10000xi32>, memref<10000xi32>
    warp.device_reduce <add> %dx, %ds : memref<10000xi32>, memref<1xi32>
    %a5 = gpu.wait async
    %a6 = gpu.memcpy async [%a5] %hy, %dy : memref<10000xi32>, memref<10000xi32>
    %a7 = gpu.memcpy async [%a6] %hs, %ds : memref<1xi32>, memref<1xi32>
    gpu.wait [%a7]
    %bad0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %r = arith.remui %i, %c7 : index
      %want = func.call @period_sum(%r) : (index) -> i64
      %g = memref.load %hy[%i] : memref<10000xi32>
      %got = arith.extsi %g : i32 to i64
      %ne = arith.cmpi ne, %got, %want : i64
      %inc = arith.extui %ne : i1 to i64
      %next = arith.addi %acc, %inc : i64
      scf.yield %next : i64
    }
    %m0 = llvm.mlir.addressof @scan_i32 : !llvm.ptr
    llvm.call @printString(%m0) : (!llvm.ptr) -> ()
    call @print_line(%bad0) : (i64) -> ()
    %y0 = memref.load %hy[%c0] : memref<10000xi32>
    %y1 = memref.load %hy[%c4095] : memref<10000xi32>
    %y2 = memref.load %hy[%c4096] : memref<10000xi32>
    %y3 = memref.load %hy[%c9999] : memref<10000xi32>
    %e0 = arith.extsi %y0 : i32 to i64
    %e1 = arith.extsi %y1 : i32 to i64
    %e2 = arith.extsi %y2 : i32 to i64
    %e3 = arith.extsi %y3 : i32 to i64
    call @print_line(%e0) : (i64) -> ()
    call @print_line(%e1) : (i64) -> ()
    call @print_line(%e2) : (i64) -> ()
    call @print_line(%e3) : (i64) -> ()
    %hsu = memref.cast %hs : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%hsu) : (memref<*xi32>) -> ()

    // In place, exclusive.
    warp.device_scan <add> %dx, %dx exclusive : memref<10000xi32>, memref<10000xi32>
    %a8 = gpu.wait async
    %a9 = gpu.memcpy async [%a8] %hy, %dx : memref<10000xi32>, memref<10000xi32>
    gpu.wait [%a9]
    %bad1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %first = arith.cmpi eq, %i, %c0 : index
      %want = scf.if %first -> (i64) {
        scf.yield %zero : i64
      } else {
        %p = arith.subi %i, %c1 : index
        %r = arith.remui %p, %c7 : index
        %w = func.call @period_sum(%r) : (index) -> i64
        scf.yield %w : i64
      }
      %g = memref.load %hy[%i] : memref<10000xi32>
      %got = arith.extsi %g : i32 to i64
      %ne = arith.cmpi ne, %got, %want : i64
      %inc = arith.extui %ne : i1 to i64
      %next = arith.addi %acc, %inc : i64
      scf.yield %next : i64
    }
    %m1 = llvm.mlir.addressof @exclusive_i32 : !llvm.ptr
    llvm.call @printString(%m1) : (!llvm.ptr) -> ()
    call @print_line(%bad1) : (i64) -> ()
    %z0 = memref.load %hy[%c0] : memref<10000xi32>
    %z1 = memref.load %hy[%c4096] : memref<10000xi32>
    %f0 = arith.extsi %z0 : i32 to i64
    %f1 = arith.extsi %z1 : i32 to i64
    call @print_line(%f0) : (i64) -> ()
    call @print_line(%f1) : (i64) -> ()
    %a10 = gpu.wait async
    %a11 = gpu.dealloc async [%a10] %dx : memref<10000xi32>
    %a12 = gpu.dealloc async [%a11] %dy : memref<10000xi32>
    %a13 = gpu.dealloc async [%a12] %ds : memref<1xi32>
    gpu.wait [%a13]

    // ---- i64, a dynamic shape --------------------------------------------
    %hl = memref.alloc(%n) : memref<?xi64>
    %hm = memref.alloc(%n) : memref<?xi64>
    %ht = memref.alloc() : memref<1xi64>
    %hu = memref.alloc() : memref<1xi64>
    scf.for %i = %c0 to %n step %c1 {
      %v = arith.index_cast %i : index to i64
      memref.store %v, %hl[%i] : memref<?xi64>
    }
    %b0 = gpu.wait async
    %dl, %b1 = gpu.alloc async [%b0] (%n) : memref<?xi64>
    %dm, %b2 = gpu.alloc async [%b1] (%n) : memref<?xi64>
    %dt, %b3 = gpu.alloc async [%b2] () : memref<1xi64>
    %du, %b4 = gpu.alloc async [%b3] () : memref<1xi64>
    %b5 = gpu.memcpy async [%b4] %dl, %hl : memref<?xi64>, memref<?xi64>
    gpu.wait [%b5]
    warp.device_scan <add> %dl, %dm : memref<?xi64>, memref<?xi64>
    warp.device_reduce <add> %dl, %dt : memref<?xi64>, memref<1xi64>
    warp.device_reduce <maxsi> %dl, %du : memref<?xi64>, memref<1xi64>
    %b6 = gpu.wait async
    %b7 = gpu.memcpy async [%b6] %hm, %dm : memref<?xi64>, memref<?xi64>
    %b8 = gpu.memcpy async [%b7] %ht, %dt : memref<1xi64>, memref<1xi64>
    %b9 = gpu.memcpy async [%b8] %hu, %du : memref<1xi64>, memref<1xi64>
    gpu.wait [%b9]
    %bad2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %iv = arith.index_cast %i : index to i64
      %i1 = arith.addi %iv, %one : i64
      %pr = arith.muli %iv, %i1 : i64
      %two = arith.constant 2 : i64
      %want = arith.divsi %pr, %two : i64
      %got = memref.load %hm[%i] : memref<?xi64>
      %ne = arith.cmpi ne, %got, %want : i64
      %inc = arith.extui %ne : i1 to i64
      %next = arith.addi %acc, %inc : i64
      scf.yield %next : i64
    }
    %m2 = llvm.mlir.addressof @scan_i64 : !llvm.ptr
    llvm.call @printString(%m2) : (!llvm.ptr) -> ()
    call @print_line(%bad2) : (i64) -> ()
    %w0 = memref.load %hm[%c2048] : memref<?xi64>
    %w1 = memref.load %hm[%c9999] : memref<?xi64>
    call @print_line(%w0) : (i64) -> ()
    call @print_line(%w1) : (i64) -> ()
    %htu = memref.cast %ht : memref<1xi64> to memref<*xi64>
    call @printMemrefI64(%htu) : (memref<*xi64>) -> ()
    %huu = memref.cast %hu : memref<1xi64> to memref<*xi64>
    call @printMemrefI64(%huu) : (memref<*xi64>) -> ()
    %b10 = gpu.wait async
    %b11 = gpu.dealloc async [%b10] %dl : memref<?xi64>
    %b12 = gpu.dealloc async [%b11] %dm : memref<?xi64>
    %b13 = gpu.dealloc async [%b12] %dt : memref<1xi64>
    %b14 = gpu.dealloc async [%b13] %du : memref<1xi64>
    gpu.wait [%b14]

    // ---- f32 -------------------------------------------------------------
    %hf = memref.alloc() : memref<10000xf32>
    %hg = memref.alloc() : memref<10000xf32>
    %hn = memref.alloc() : memref<1xf32>
    scf.for %i = %c0 to %n step %c1 {
      %r = arith.remui %i, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %v = arith.subi %ri, %three : i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %hf[%i] : memref<10000xf32>
    }
    %c0t = gpu.wait async
    %df, %c1t = gpu.alloc async [%c0t] () : memref<10000xf32>
    %dg, %c2t = gpu.alloc async [%c1t] () : memref<10000xf32>
    %dn, %c3t = gpu.alloc async [%c2t] () : memref<1xf32>
    %c4t = gpu.memcpy async [%c3t] %df, %hf : memref<10000xf32>, memref<10000xf32>
    gpu.wait [%c4t]
    warp.device_scan <add> %df, %dg exclusive : memref<10000xf32>, memref<10000xf32>
    warp.device_reduce <minimumf> %df, %dn : memref<10000xf32>, memref<1xf32>
    %c5t = gpu.wait async
    %c6t = gpu.memcpy async [%c5t] %hg, %dg : memref<10000xf32>, memref<10000xf32>
    %c7t = gpu.memcpy async [%c6t] %hn, %dn : memref<1xf32>, memref<1xf32>
    gpu.wait [%c7t]
    %bad3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %first = arith.cmpi eq, %i, %c0 : index
      %want = scf.if %first -> (i64) {
        scf.yield %zero : i64
      } else {
        %p = arith.subi %i, %c1 : index
        %r = arith.remui %p, %c7 : index
        %w = func.call @period_sum(%r) : (index) -> i64
        scf.yield %w : i64
      }
      %wf = arith.sitofp %want : i64 to f32
      %got = memref.load %hg[%i] : memref<10000xf32>
      %ne = arith.cmpf une, %got, %wf : f32
      %inc = arith.extui %ne : i1 to i64
      %next = arith.addi %acc, %inc : i64
      scf.yield %next : i64
    }
    %m3 = llvm.mlir.addressof @exclusive_f32 : !llvm.ptr
    llvm.call @printString(%m3) : (!llvm.ptr) -> ()
    call @print_line(%bad3) : (i64) -> ()
    %hnu = memref.cast %hn : memref<1xf32> to memref<*xf32>
    call @printMemrefF32(%hnu) : (memref<*xf32>) -> ()
    %c8t = gpu.wait async
    %c9t = gpu.dealloc async [%c8t] %df : memref<10000xf32>
    %c10t = gpu.dealloc async [%c9t] %dg : memref<10000xf32>
    %c11t = gpu.dealloc async [%c10t] %dn : memref<1xf32>
    gpu.wait [%c11t]
    return
  }

  llvm.mlir.global internal constant @scan_i32("scan i32 mismatches: \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @exclusive_i32("exclusive in place i32 mismatches: \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @scan_i64("scan i64 mismatches: \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @exclusive_f32("exclusive f32 mismatches: \00") {addr_space = 0 : i32}
  llvm.func @printString(!llvm.ptr)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
}
