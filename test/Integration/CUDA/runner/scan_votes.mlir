// Scans, ballot, compaction and match on the GPU.
// REQUIRES: cuda
// RUN: warp-cuda-runner %s --entry-point-result=void | FileCheck %s

// Exclusive add of 1 in every lane: lane i gets i.
// CHECK: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
// Inclusive add in segments of 8, reversed: position p gets 8 - p.
// CHECK: [8, 7, 6, 5, 4, 3, 2, 1, 8, 7, 6, 5, 4, 3, 2, 1, 8, 7, 6, 5, 4, 3, 2, 1, 8, 7, 6, 5, 4, 3, 2, 1]
// Predicate lane % 3 == 0 (lanes 0, 3, ..., 30): ballot 0x49249249.
// CHECK: [1227133513{{(, 1227133513)+}}]
// Compaction offsets: the number of kept lanes below: ceil(lane / 3).
// CHECK: [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11]
// Count: 11 kept lanes.
// CHECK: [11{{(, 11)+}}]
// match_any on lane % 2: even lanes 0x55555555, odd lanes 0xAAAAAAAA (as i32).
// CHECK: [1431655765, -1431655766, 1431655765, -1431655766,

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %excl = memref.alloc() : memref<32xi32>
    %rev = memref.alloc() : memref<32xi32>
    %ballot = memref.alloc() : memref<32xi32>
    %offset = memref.alloc() : memref<32xi32>
    %count = memref.alloc() : memref<32xi32>
    %match = memref.alloc() : memref<32xi32>
    %a = memref.cast %excl : memref<32xi32> to memref<*xi32>
    %b = memref.cast %rev : memref<32xi32> to memref<*xi32>
    %c = memref.cast %ballot : memref<32xi32> to memref<*xi32>
    %d = memref.cast %offset : memref<32xi32> to memref<*xi32>
    %e = memref.cast %count : memref<32xi32> to memref<*xi32>
    %f = memref.cast %match : memref<32xi32> to memref<*xi32>
    gpu.host_register %a : memref<*xi32>
    gpu.host_register %b : memref<*xi32>
    gpu.host_register %c : memref<*xi32>
    gpu.host_register %d : memref<*xi32>
    gpu.host_register %e : memref<*xi32>
    gpu.host_register %f : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %lane = arith.index_cast %tx : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %zero = arith.constant 0 : i32
      %s0 = warp.scan <add> %one exclusive : i32
      memref.store %s0, %excl[%tx] : memref<32xi32>
      %s1 = warp.scan <add> %one reverse width 8 : i32
      memref.store %s1, %rev[%tx] : memref<32xi32>
      %m3 = arith.remui %lane, %three : i32
      %keep = arith.cmpi eq, %m3, %zero : i32
      %bits = warp.ballot %keep : i32
      memref.store %bits, %ballot[%tx] : memref<32xi32>
      %o, %n = warp.compact %keep : i32
      memref.store %o, %offset[%tx] : memref<32xi32>
      memref.store %n, %count[%tx] : memref<32xi32>
      %parity = arith.remui %lane, %two : i32
      %peers = warp.match_any %parity : i32
      memref.store %peers, %match[%tx] : memref<32xi32>
      gpu.terminator
    }
    call @printMemrefI32(%a) : (memref<*xi32>) -> ()
    call @printMemrefI32(%b) : (memref<*xi32>) -> ()
    call @printMemrefI32(%c) : (memref<*xi32>) -> ()
    call @printMemrefI32(%d) : (memref<*xi32>) -> ()
    call @printMemrefI32(%e) : (memref<*xi32>) -> ()
    call @printMemrefI32(%f) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
}
