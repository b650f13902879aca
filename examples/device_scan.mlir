// A device-wide prefix sum and total from host code: warp.device_scan and
// warp.device_reduce over memrefs in device memory, of any length. The
// pipeline (warp-lower-to-ptx) expands each into kernels made of warp ops
// and their launches, then compiles them like any other kernel:
//
//   warp-opt examples/device_scan.mlir \
//     --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=-" -o /dev/null
//
// From Python the same ops run on torch, cupy or numpy arrays:
// warp_mlir.device.scan(x), warp_mlir.device.reduce(x).
func.func @prefix_sum_and_total(%x: memref<?xf32>, %prefix: memref<?xf32>,
                                %total: memref<1xf32>) {
  warp.device_scan <add> %x, %prefix exclusive : memref<?xf32>, memref<?xf32>
  warp.device_reduce <add> %x, %total : memref<?xf32>, memref<1xf32>
  return
}
