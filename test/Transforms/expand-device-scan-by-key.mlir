// warp.device_scan with keys (a scan by key): the module of each (kind,
// value type, key type, exclusive), its tiles sized by the wider of values
// and keys, the segmented block scan; then the whole pipeline to PTX that
// ptxas takes for narrow and wide values and keys, floats and integers.
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}

// CHECK-LABEL: func.func @by_key
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_add_i32_by_key_f32::@scan_init
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_add_i32_by_key_f32::@scan
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_maxnumf_f64_by_key_i8_exclusive::@scan
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_add_i8_by_key_i64::@scan
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_minimumf_f16_by_key_bf16_exclusive::@scan
// CHECK: gpu.launch_func {{.*}} @warp_device_scan_add_i32::@scan
func.func @by_key(%x: memref<?xi32>, %y: memref<?xi32>, %kf: memref<?xf32>,
                  %d: memref<?xf64>, %kb: memref<?xi8>,
                  %b: memref<?xi8>, %kl: memref<?xi64>,
                  %h: memref<?xf16>, %kh: memref<?xbf16>) {
  warp.device_scan <add> %x, %y keys %kf : memref<?xi32>, memref<?xi32>, memref<?xf32>
  warp.device_scan <maxnumf> %d, %d keys %kb exclusive : memref<?xf64>, memref<?xf64>, memref<?xi8>
  warp.device_scan <add> %b, %b keys %kl : memref<?xi8>, memref<?xi8>, memref<?xi64>
  warp.device_scan <minimumf> %h, %h keys %kh exclusive : memref<?xf16>, memref<?xf16>, memref<?xbf16>
  // Without keys: a module of its own.
  warp.device_scan <add> %x, %y : memref<?xi32>, memref<?xi32>
  return
}

// Tiles of 4096 4-byte elements, 2048 8-byte ones (f64 values with i8
// keys, i8 values with i64 keys): 64 bytes a thread of the wider type.
// CHECK-LABEL: gpu.module @warp_device_scan_add_i32_by_key_f32 attributes {warp.device_scratch = array<i64: 0, 24, 4096>}
// CHECK: gpu.func @scan(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi8>, %{{.*}}: index)
// The keys: a tile of them, the previous thread's last and the key before
// the tile, compared as floats (unordered or not equal).
// CHECK: warp.block_load {{.*}} : memref<?xf32>, vector<16xf32>
// CHECK: warp.block_shuffle <offset>
// CHECK: arith.cmpf une
// The segmented scan of (head seen, value) pairs.
// CHECK: warp.block_scan %{{.*}}, %{{.*}} items : vector<16xi1>, vector<16xi32>, i1, i32 combine (%[[F:[a-z0-9]+]]: i1, %[[A:[a-z0-9]+]]: i32, %[[G:[a-z0-9]+]]: i1, %[[B:[a-z0-9]+]]: i32) {
// CHECK:   %[[HEADED:.*]] = arith.ori %[[F]], %[[G]] : i1
// CHECK:   %[[SUM:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK:   %[[VALUE:.*]] = arith.select %[[G]], %[[B]], %[[SUM]] : i32
// CHECK:   warp.yield %[[HEADED]], %[[VALUE]] : i1, i32
// CHECK: warp.block_store {{.*}} : vector<16xi32>, memref<?xi32>
// CHECK-LABEL: gpu.module @warp_device_scan_maxnumf_f64_by_key_i8_exclusive attributes {warp.device_scratch = array<i64: 0, 24, 2048>}
// CHECK: warp.block_load {{.*}} : memref<?xi8>, vector<8xi8>
// CHECK: arith.cmpi ne
// CHECK-LABEL: gpu.module @warp_device_scan_add_i8_by_key_i64 attributes {warp.device_scratch = array<i64: 0, 24, 2048>}
// CHECK: warp.block_load {{.*}} : memref<?xi8>, vector<8xi8>
// CHECK: warp.block_load {{.*}} : memref<?xi64>, vector<8xi64>
// CHECK-LABEL: gpu.module @warp_device_scan_add_i32 attributes {warp.device_scratch = array<i64: 0, 24, 8192>}

// FILES: warp_device_scan_add_i32.ptx
// FILES-NEXT: warp_device_scan_add_i32_by_key_f32.ptx
// FILES-NEXT: warp_device_scan_add_i8_by_key_i64.ptx
// FILES-NEXT: warp_device_scan_maxnumf_f64_by_key_i8_exclusive.ptx
// FILES-NEXT: warp_device_scan_minimumf_f16_by_key_bf16_exclusive.ptx
