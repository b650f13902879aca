// Found by warp-fuzz (the clean-clone CI run of 2026-12-04, on the new
// device_select_if seed, at the chip the input's first byte picks): every
// device op with a look-back (scans, selections, unique, run-length
// encodings) polls with nanosleep, which LLVM selects only from PTX 6.3 on,
// and sm_70 got PTX 6.2: "Cannot select: intrinsic %llvm.nvvm.nanosleep",
// a fatal error in warp-module-to-binary. Fixed: sm_70 gets PTX 6.3
// (Chip::minPtxVersion), as sm_72 and sm_75 had.
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t/" -o /dev/null
// RUN: cat %t/warp_device_unique_f32.ptx | FileCheck %s
// RUN: %if ptxas-sm70-ptx %{ for f in %t/*.ptx; do %ptxas-accepts -arch=%ptxas-sm70-chip $f -o $f.cubin || exit 1; done %}
// CHECK: .version 6.3
// CHECK: .target sm_70
// CHECK: nanosleep.u32
func.func @f(%x: memref<?xf32>, %y: memref<?xf32>, %c: memref<1xi64>, %k: memref<?xi32>) {
  warp.device_unique %x, %y, %c : memref<?xf32>, memref<?xf32>, memref<1xi64>
  warp.device_scan <add> %k, %k : memref<?xi32>, memref<?xi32>
  warp.device_select_if %x, %y, %c : memref<?xf32>, memref<?xf32>, memref<1xi64> pred(%v: f32) {
    %t = arith.constant 5.000000e-01 : f32
    %keep = arith.cmpf ogt, %v, %t : f32
    warp.yield %keep : i1
  }
  return
}
