// warp-expand-device-ops: each warp.device_reduce / warp.device_scan becomes
// a scratch buffer from gpu.alloc (F + P * max(1, ceil(n / T)) bytes, the
// module's warp.device_scratch = [F, P, T]), one gpu.launch_func per kernel
// of its gpu.module in the module's order (max(1, ceil(n / N)) blocks for a
// kernel's warp.device_grid = N, one block without it; the kernel's
// known_block_size threads), each given (input, output, scratch, n), and a
// gpu.dealloc of the scratch, chained by async tokens and waited for at the
// end. The ops alike (op, kind, element type,
// exclusive) share one gpu.module @warp_device_<op>_<kind>_<type>[_exclusive];
// a static-shaped memref is cast to memref<?xT>, the kernels' type.
// Tiling (DeviceTiling): 256 threads of 64 bytes a tile (4096 4-byte,
// 2048 8-byte elements), 4 tiles a reduce_tiles block; a scan's and an
// i32 reduction's of 128 bytes a thread (8192 4-byte, 4096 8-byte
// elements); a reduction keeps an 8-byte partial a block, a scan 24 bytes
// a tile.
// RUN: warp-opt %s --warp-expand-device-ops=chip=sm_80 --canonicalize --cse | FileCheck %s
// RUN: warp-opt %s --warp-expand-device-ops --canonicalize --cse | FileCheck %s --check-prefix=CLUSTER
// RUN: not warp-opt %s --warp-expand-device-ops=chip=sm_12 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: warp-opt %s --warp-expand-device-ops | grep "gpu.module" | FileCheck %s --check-prefix=MODULES
// RUN: warp-opt %s --warp-expand-device-ops --canonicalize --cse | FileCheck %s --check-prefix=FOLD
// RUN: rm -rf %t && mkdir -p %t/sm_90 %t/sm_80
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/sm_90/" -o /dev/null
// RUN: ls %t/sm_90 | FileCheck %s --check-prefix=FILES
// RUN: cat %t/sm_90/warp_device_reduce_add_f32.ptx %t/sm_90/warp_device_scan_maxsi_i64.ptx | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas-sm_90 %{ for f in %t/sm_90/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t/sm_80/" -o /dev/null
// RUN: %if ptxas-sm_80 %{ for f in %t/sm_80/*.ptx; do %ptxas-accepts -arch=sm_80 $f -o $f.cubin || exit 1; done %}

// Every module once, in the order of the ops that first need it; the
// alike ops of @reduce_again, @scan_static's in-place scan and @kinds'
// second <add> i32 reuse theirs.
// MODULES:      gpu.module @warp_device_reduce_add_f32 attributes
// MODULES-NEXT: gpu.module @warp_device_reduce_mul_f64 attributes
// MODULES-NEXT: gpu.module @warp_device_scan_add_f32 attributes
// MODULES-NEXT: gpu.module @warp_device_scan_add_f32_exclusive attributes
// MODULES-NEXT: gpu.module @warp_device_scan_maxsi_i64 attributes
// MODULES-NEXT: gpu.module @warp_device_scan_maxsi_i64_exclusive attributes
// MODULES-NEXT: gpu.module @warp_device_reduce_add_i32 attributes
// MODULES-NEXT: gpu.module @warp_device_reduce_xor_i32 attributes
// MODULES-NEXT: gpu.module @warp_device_reduce_add_i64 attributes
// MODULES-NEXT: gpu.module @warp_device_scan_minnumf_f64_exclusive attributes
// MODULES-NEXT: gpu.module @warp_device_scan_mul_i32 attributes
// MODULES-NOT:  gpu.module

// One PTX file a module, all four element types.
// FILES:      warp_device_reduce_add_f32.ptx
// FILES-NEXT: warp_device_reduce_add_i32.ptx
// FILES-NEXT: warp_device_reduce_add_i64.ptx
// FILES-NEXT: warp_device_reduce_mul_f64.ptx
// FILES-NEXT: warp_device_reduce_xor_i32.ptx
// FILES-NEXT: warp_device_scan_add_f32.ptx
// FILES-NEXT: warp_device_scan_add_f32_exclusive.ptx
// FILES-NEXT: warp_device_scan_maxsi_i64.ptx
// FILES-NEXT: warp_device_scan_maxsi_i64_exclusive.ptx
// FILES-NEXT: warp_device_scan_minnumf_f64_exclusive.ptx
// FILES-NEXT: warp_device_scan_mul_i32.ptx

// The entries in launch order; the reduction reads its input through the
// read-only path; an 8-byte scan publishes a flag after its value and
// polls the flags, pausing.
// PTX-LABEL: .entry reduce_tiles(
// PTX:       ld.global.nc.v4
// PTX:       .entry reduce_finish(
// PTX-LABEL: .entry scan_init(
// PTX-LABEL: .entry scan(
// PTX:       st.release.gpu.global.b32
// PTX:       nanosleep
// PTX:       ld.acquire.gpu.global.b32

// A reduction over a dynamic input: chunks of 16384 f32 on at most 4096
// blocks, scratch for an 8-byte partial per chunk; the finish kernel runs
// in one block, only where there is more than one chunk (else the one
// block of reduce_tiles wrote the result). The memref<1xf32>
// output is cast, the memref<?xf32> input is taken as it is.
// CHECK-LABEL: func.func @reduce_dynamic
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[SUM:.*]]: memref<1xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C16384:.*]] = arith.constant 16384 : index
// CHECK-DAG: %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-DAG: %[[N:.*]] = memref.dim %[[X]], %[[C0]] : memref<?xf32>
// CHECK-DAG: %[[OUT:.*]] = memref.cast %[[SUM]] : memref<1xf32> to memref<?xf32>
// CHECK-NOT: memref.cast %[[X]]
// CHECK: %[[B0:.*]] = arith.ceildivui %[[N]], %[[C4096]] : index
// CHECK: %[[TILES:.*]] = arith.maxui %[[B0]], %[[C1]] : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[TILES]], %[[C8]] : index
// CHECK: %[[S:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[BYTES]]) : memref<?xi8>
// CHECK-NEXT: %[[CAPPED:.*]] = arith.minui %[[TILES]], %[[C4096]] : index
// CHECK-NEXT: %[[SMALL:.*]] = arith.cmpi ule, %[[N]], %[[C16384]] : index
// CHECK-NEXT: %[[BLOCKS:.*]] = arith.select %[[SMALL]], %[[C1]], %[[CAPPED]] : index
// CHECK-NEXT: %[[FOLDED:.*]] = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_tiles blocks in (%[[BLOCKS]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[X]] : memref<?xf32>, %[[OUT]] : memref<?xf32>, %[[S]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %[[MANY:.*]] = arith.cmpi ugt, %[[BLOCKS]], %[[C1]] : index
// CHECK-NEXT: scf.if %[[MANY]] {
// CHECK-NEXT: %[[FINISH:.*]] = gpu.launch_func async [%[[FOLDED]]] @warp_device_reduce_add_f32::@reduce_finish blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[X]] : memref<?xf32>, %[[OUT]] : memref<?xf32>, %[[S]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %[[FREED:.*]] = gpu.dealloc async [%[[FINISH]]] %[[S]] : memref<?xi8>
// CHECK-NEXT: gpu.wait [%[[FREED]]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[FREED:.*]] = gpu.dealloc async [%[[FOLDED]]] %[[S]] : memref<?xi8>
// CHECK-NEXT: gpu.wait [%[[FREED]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @reduce_dynamic(%x: memref<?xf32>, %sum: memref<1xf32>) {
  warp.device_reduce <add> %x, %sum : memref<?xf32>, memref<1xf32>
  return
}

// The same module again; nothing to cast.
// CHECK-LABEL: func.func @reduce_again
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[SUM:.*]]: memref<?xf32>)
// CHECK-NOT: memref.cast
// CHECK: %[[S:.*]], %{{.*}} = gpu.alloc async
// CHECK-NEXT: arith.minui
// CHECK-NEXT: arith.cmpi ule
// CHECK-NEXT: arith.select
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_tiles {{.*}} args(%[[X]] : memref<?xf32>, %[[SUM]] : memref<?xf32>, %[[S]] : memref<?xi8>, %{{.*}} : index)
// CHECK-NEXT: arith.cmpi ugt
// CHECK-NEXT: scf.if
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_f32::@reduce_finish {{.*}} args(%[[X]] : memref<?xf32>, %[[SUM]] : memref<?xf32>, %[[S]] : memref<?xi8>, %{{.*}} : index)
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %[[S]]
func.func @reduce_again(%x: memref<?xf32>, %sum: memref<?xf32>) {
  warp.device_reduce <add> %x, %sum : memref<?xf32>, memref<?xf32>
  return
}

// 40000 f64: 20 blocks of a tile of 2048 each, 20 partials (160 bytes),
// so both kernels run, no branch; both operands cast.
// CHECK-LABEL: func.func @reduce_static
// CHECK-SAME: (%[[X:.*]]: memref<40000xf64>, %[[P:.*]]: memref<1xf64>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG: %[[C160:.*]] = arith.constant 160 : index
// CHECK-DAG: %[[N:.*]] = arith.constant 40000 : index
// CHECK-DAG: %[[IN:.*]] = memref.cast %[[X]] : memref<40000xf64> to memref<?xf64>
// CHECK-DAG: %[[OUT:.*]] = memref.cast %[[P]] : memref<1xf64> to memref<?xf64>
// CHECK: %[[S:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[C160]]) : memref<?xi8>
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_reduce_mul_f64::@reduce_tiles blocks in (%[[C20]], %[[C1]], %[[C1]]) {{.*}} args(%[[IN]] : memref<?xf64>, %[[OUT]] : memref<?xf64>, %[[S]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_reduce_mul_f64::@reduce_finish blocks in (%[[C1]], %[[C1]], %[[C1]]) {{.*}} args(%[[IN]] : memref<?xf64>, %[[OUT]] : memref<?xf64>, %[[S]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %[[S]]
func.func @reduce_static(%x: memref<40000xf64>, %p: memref<1xf64>) {
  warp.device_reduce <mul> %x, %p : memref<40000xf64>, memref<1xf64>
  return
}

// An unknown chip is an error that lists the known ones.
// CHIP: error: unknown chip 'sm_12'

// On a chip with clusters (sm_90, the default) a scan of 2 to 8 tiles
// (8192 < n <= 65536 f32) is one launch of scan_one_cluster, one cluster
// of 8 blocks, which looks back at no status and so needs no scan_init;
// other sizes are launched as on sm_80 (below). 10000 static i64 (3
// tiles of 4096) fold to that launch alone.
// CLUSTER-LABEL: func.func @scan_dynamic
// CLUSTER-DAG: %[[C8:.*]] = arith.constant 8 : index
// CLUSTER-DAG: %[[C8192:.*]] = arith.constant 8192 : index
// CLUSTER-DAG: %[[C65536:.*]] = arith.constant 65536 : index
// CLUSTER: %[[N:.*]] = memref.dim
// CLUSTER: %[[S:.*]], %[[READY:.*]] = gpu.alloc async
// CLUSTER-NEXT: %[[UPTO:.*]] = arith.cmpi ule, %[[N]], %[[C65536]] : index
// CLUSTER-NEXT: %[[OVER:.*]] = arith.cmpi ugt, %[[N]], %[[C8192]] : index
// CLUSTER-NEXT: %[[ALONE:.*]] = arith.andi %[[UPTO]], %[[OVER]] : i1
// CLUSTER-NEXT: scf.if %[[ALONE]] {
// CLUSTER-NEXT: %{{.*}} = gpu.launch_func async [%[[READY]]] @warp_device_scan_add_f32::@scan_one_cluster blocks in (%[[C8]], %{{.*}}, %{{.*}})
// CLUSTER-NEXT: gpu.dealloc
// CLUSTER-NEXT: gpu.wait
// CLUSTER-NEXT: } else {
// CLUSTER: @warp_device_scan_add_f32::@scan_init
// CLUSTER: @warp_device_scan_add_f32::@scan blocks
// CLUSTER: @warp_device_scan_add_f32_exclusive::@scan_one_cluster blocks in (%[[C8]],
// CLUSTER-LABEL: func.func @scan_static
// CLUSTER-NOT: scan_init
// CLUSTER: @warp_device_scan_maxsi_i64::@scan_one_cluster blocks in (%{{.*}}, %{{.*}}, %{{.*}})
// CLUSTER-NOT: scan_init
// CLUSTER: @warp_device_scan_maxsi_i64_exclusive::@scan_one_cluster
// CLUSTER-LABEL: gpu.module @warp_device_scan_add_f32
// CLUSTER: gpu.func @scan_one_cluster({{.*}}known_cluster_size = array<i32: 8, 1, 1>, warp.device_alone_over = 8192 : i64, warp.device_alone_up_to = 65536 : i64, warp.device_grid = 8192 : i64}
// CLUSTER: warp.cluster_scan <add>
// CLUSTER: gpu.func @scan_init(
// CLUSTER: gpu.func @scan(

// A scan over a dynamic input: 24 * max(1, ceil(n / 8192)) bytes;
// scan_init with a thread per tile (2097152 elements a block), then the
// scan with a block per tile; a scan of one tile skips scan_init (its
// tile looks back at none), launching its one block as such. Inclusive and exclusive: two modules.
// CHECK-LABEL: func.func @scan_dynamic
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[Y:.*]]: memref<?xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C24:.*]] = arith.constant 24 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C8192:.*]] = arith.constant 8192 : index
// CHECK-DAG: %[[CINIT:.*]] = arith.constant 2097152 : index
// CHECK: %[[N:.*]] = memref.dim %[[X]], %[[C0]] : memref<?xf32>
// CHECK: %[[T0:.*]] = arith.ceildivui %[[N]], %[[C8192]] : index
// CHECK: %[[TILES:.*]] = arith.maxui %[[T0]], %[[C1]] : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[TILES]], %[[C24]] : index
// CHECK: %[[S:.*]], %[[READY:.*]] = gpu.alloc async [%{{.*}}] (%[[BYTES]]) : memref<?xi8>
// CHECK-NEXT: %[[MANY:.*]] = arith.cmpi ugt, %[[TILES]], %[[C1]] : index
// CHECK-NEXT: scf.if %[[MANY]] {
// CHECK-NEXT: %[[I0:.*]] = arith.ceildivui %[[N]], %[[CINIT]] : index
// CHECK-NEXT: %[[INIT:.*]] = arith.maxui %[[I0]], %[[C1]] : index
// CHECK-NEXT: %[[CLEARED:.*]] = gpu.launch_func async [%[[READY]]] @warp_device_scan_add_f32::@scan_init blocks in (%[[INIT]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[X]] : memref<?xf32>, %[[Y]] : memref<?xf32>, %[[S]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%[[CLEARED]]] @warp_device_scan_add_f32::@scan blocks in (%[[TILES]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[X]] : memref<?xf32>, %[[Y]] : memref<?xf32>, %[[S]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %[[S]] : memref<?xi8>
// CHECK-NEXT: gpu.wait
// CHECK-NEXT: } else {
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%[[READY]]] @warp_device_scan_add_f32::@scan blocks in (%[[C1]], %[[C1]], %[[C1]])
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %[[S]] : memref<?xi8>
// CHECK: %[[S2:.*]], %{{.*}} = gpu.alloc async
// CHECK: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_add_f32_exclusive::@scan_init
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_add_f32_exclusive::@scan
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %[[S2]]
func.func @scan_dynamic(%x: memref<?xf32>, %y: memref<?xf32>) {
  warp.device_scan <add> %x, %y : memref<?xf32>, memref<?xf32>
  warp.device_scan <add> %x, %y exclusive : memref<?xf32>, memref<?xf32>
  return
}

// 10000 i64: 3 tiles of 4096 (3 * 24 = 72 bytes), one scan_init
// block; the in-place exclusive scan shares the exclusive module. Each op
// has its own scratch.
// CHECK-LABEL: func.func @scan_static
// CHECK-SAME: (%[[X:.*]]: memref<10000xi64>, %[[Y:.*]]: memref<10000xi64>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C72:.*]] = arith.constant 72 : index
// CHECK-DAG: %[[N:.*]] = arith.constant 10000 : index
// CHECK-DAG: %[[IN:.*]] = memref.cast %[[X]] : memref<10000xi64> to memref<?xi64>
// CHECK-DAG: %[[OUT:.*]] = memref.cast %[[Y]] : memref<10000xi64> to memref<?xi64>
// CHECK: %[[S1:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[C72]]) : memref<?xi8>
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_maxsi_i64::@scan_init blocks in (%[[C1]], %[[C1]], %[[C1]]) {{.*}} args(%[[IN]] : memref<?xi64>, %[[OUT]] : memref<?xi64>, %[[S1]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_maxsi_i64::@scan blocks in (%[[C3]], %[[C1]], %[[C1]]) {{.*}} args(%[[IN]] : memref<?xi64>, %[[OUT]] : memref<?xi64>, %[[S1]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %[[S1]]
// CHECK: %[[S2:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[C72]]) : memref<?xi8>
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_maxsi_i64_exclusive::@scan_init {{.*}} args(%[[IN]] : memref<?xi64>, %[[OUT]] : memref<?xi64>, %[[S2]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_maxsi_i64_exclusive::@scan blocks in (%[[C3]], %[[C1]], %[[C1]]) {{.*}} args(%[[IN]] : memref<?xi64>, %[[OUT]] : memref<?xi64>, %[[S2]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %[[S2]]
// CHECK: %[[S3:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[C72]]) : memref<?xi8>
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_maxsi_i64_exclusive::@scan_init {{.*}} args(%[[OUT]] : memref<?xi64>, %[[OUT]] : memref<?xi64>, %[[S3]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_maxsi_i64_exclusive::@scan {{.*}} args(%[[OUT]] : memref<?xi64>, %[[OUT]] : memref<?xi64>, %[[S3]] : memref<?xi8>, %[[N]] : index)
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %[[S3]]
func.func @scan_static(%x: memref<10000xi64>, %y: memref<10000xi64>) {
  warp.device_scan <maxsi> %x, %y : memref<10000xi64>, memref<10000xi64>
  warp.device_scan <maxsi> %x, %y exclusive : memref<10000xi64>, memref<10000xi64>
  warp.device_scan <maxsi> %y, %y exclusive : memref<10000xi64>, memref<10000xi64>
  return
}

// Another kind, another type: another module; the same again: the same.
// CHECK-LABEL: func.func @kinds
// CHECK: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_i32::@reduce_tiles
// CHECK: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_reduce_xor_i32::@reduce_tiles
// CHECK: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_i64::@reduce_tiles
// CHECK: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_reduce_add_i32::@reduce_tiles
// CHECK: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_minnumf_f64_exclusive::@scan_init
// CHECK: %{{.*}} = gpu.launch_func async [%{{.*}}] @warp_device_scan_mul_i32::@scan_init
func.func @kinds(%a: memref<?xi32>, %b: memref<?xi64>, %c: memref<?xf64>, %a1: memref<1xi32>,
                 %b1: memref<1xi64>) {
  warp.device_reduce <add> %a, %a1 : memref<?xi32>, memref<1xi32>
  warp.device_reduce <xor> %a, %a1 : memref<?xi32>, memref<1xi32>
  warp.device_reduce <add> %b, %b1 : memref<?xi64>, memref<1xi64>
  warp.device_reduce <add> %a, %a1 : memref<?xi32>, memref<1xi32>
  warp.device_scan <minnumf> %c, %c exclusive : memref<?xf64>, memref<?xf64>
  warp.device_scan <mul> %a, %a : memref<?xi32>, memref<?xi32>
  return
}

// The modules: their launch rules, their kernels' (input, output,
// scratch, n) signature, 256 threads, the grid rules; a reduction folds
// tiles of 16-byte items with warp.block_reduce and stores output[0], a
// scan takes the tile of its block index and scans its items with
// warp.block_scan (exclusive for the exclusive module).
// CHECK-LABEL: gpu.module @warp_device_reduce_add_f32 attributes {warp.device_scratch = array<i64: 0, 8, 4096>}
// CHECK: gpu.func @reduce_tiles(%{{.*}}: memref<?xf32> {llvm.noalias, llvm.readonly}, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi8>, %{{.*}}: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 4096 : i64, warp.device_grid_max = 4096 : i64, warp.device_grid_single = 16384 : i64}
// CHECK: warp.block_load {{.*}} : memref<?xf32>, vector<4xf32>
// CHECK: warp.block_reduce <add> {{.*}} : vector<4xf32>
// CHECK: gpu.func @reduce_finish(%{{.*}}: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %{{.*}}: memref<?xi8>, %{{.*}}: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_skip_if_single} {
// CHECK: warp.block_reduce <add> {{.*}} : f32
// CHECK: memref.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xf32>
// CHECK-LABEL: gpu.module @warp_device_reduce_mul_f64 attributes {warp.device_scratch = array<i64: 0, 8, 2048>}
// CHECK: gpu.func @reduce_tiles({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 2048 : i64, warp.device_grid_max = 4096 : i64, warp.device_grid_single = 8192 : i64}
// CHECK: warp.block_load {{.*}} : memref<?xf64>, vector<2xf64>
// CHECK: gpu.func @reduce_finish({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_skip_if_single} {
// CHECK-LABEL: gpu.module @warp_device_scan_add_f32 attributes {warp.device_scratch = array<i64: 0, 24, 8192>}
// CHECK: gpu.func @scan_init(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi8>, %{{.*}}: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 2097152 : i64, warp.device_skip_before_single}
// CHECK: gpu.func @scan(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi8>, %{{.*}}: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 8192 : i64}
// CHECK: gpu.block_id x
// CHECK: warp.block_load {{.*}} : memref<?xf32>, vector<32xf32>
// CHECK: warp.block_scan <add> %{{.*}} items : vector<32xf32>, f32
// CHECK: warp.block_store
// CHECK-LABEL: gpu.module @warp_device_scan_add_f32_exclusive attributes {warp.device_scratch = array<i64: 0, 24, 8192>}
// CHECK: warp.block_scan <add> %{{.*}} items exclusive : vector<32xf32>, f32
// CHECK-LABEL: gpu.module @warp_device_scan_maxsi_i64 attributes {warp.device_scratch = array<i64: 0, 24, 4096>}
// CHECK: gpu.func @scan_init({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 1048576 : i64, warp.device_skip_before_single}
// CHECK: gpu.func @scan({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, warp.device_grid = 4096 : i64}
// CHECK: warp.block_scan <maxsi> %{{.*}} items : vector<16xi64>, i64
// CHECK-LABEL: gpu.module @warp_device_scan_maxsi_i64_exclusive
// CHECK: warp.block_scan <maxsi> %{{.*}} items exclusive : vector<16xi64>, i64
// CHECK-LABEL: gpu.module @warp_device_reduce_add_i32 attributes {warp.device_scratch = array<i64: 0, 8, 8192>}
// CHECK-LABEL: gpu.module @warp_device_reduce_xor_i32
// CHECK: warp.block_reduce <xor>
// CHECK-LABEL: gpu.module @warp_device_reduce_add_i64 attributes {warp.device_scratch = array<i64: 0, 8, 2048>}
// CHECK-LABEL: gpu.module @warp_device_scan_minnumf_f64_exclusive attributes {warp.device_scratch = array<i64: 0, 24, 4096>}
// CHECK: warp.block_scan <minnumf> %{{.*}} items exclusive : vector<16xf64>, f64
// CHECK-LABEL: gpu.module @warp_device_scan_mul_i32 attributes {warp.device_scratch = array<i64: 0, 24, 8192>}
// CHECK: warp.block_scan <mul> %{{.*}} items : vector<32xi32>, i32

// The tiles kernel: past its grid (more tiles than blocks) a block folds
// grid-strided chunks of 4 tiles, a fixed 4-trip loop each; else block i
// folds tile i.
// FOLD-LABEL: gpu.func @reduce_tiles(
// FOLD: %[[BID:.*]] = gpu.block_id x
// FOLD-NEXT: %[[GRID:.*]] = gpu.grid_dim x
// FOLD-NEXT: %[[NT:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// FOLD-NEXT: %[[PAST:.*]] = arith.cmpi ugt, %[[NT]], %[[GRID]] : index
// FOLD-NEXT: scf.if %[[PAST]] -> (vector<4xf32>) {
// FOLD-NEXT: %[[CHUNKS:.*]] = arith.ceildivui %[[NT]], %{{.*}} : index
// FOLD-NEXT: scf.for %{{.*}} = %[[BID]] to %[[CHUNKS]] step %[[GRID]]
// FOLD: scf.for %{{.*}} = %c0 to %c4 step %c1
// FOLD: arith.muli %[[BID]], %c4096 : index
