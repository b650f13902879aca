// Found by warp-fuzz (fourteenth session, input byte '<': sm_70): a memref
// atomic on a cluster's shared memory (address space 7) below sm_90 reached
// the NVPTX backend's instruction selection, a fatal error ("Cannot select:
// AtomicLoadFAdd ... addrspace 7"), reported as "LLVM fatal error". Fixed:
// warp-check-lowerable rejects atomics on memory spaces PTX's atom cannot
// reach on the chip (test/Pipelines/memory-spaces.mlir).
// RUN: %python %S/../no_crash.py warp-opt %s --warp-lower-to-ptx="chip=sm_70 strategy=redux format=isa" -o /dev/null
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @vector_store_and_atomic(%out: memref<8xf32, 7>, %v: vector<4xf32>, %x: f32) kernel {
      %c0 = arith.constant 0 : index
      vector.store %v, %out[%c0] : memref<8xf32, 7>, vector<4xf32>
      %old = memref.atomic_rmw addf %x, %out[%c0] : (f32, memref<8xf32, 7>) -> f32
      gpu.return
    }
  }
}
