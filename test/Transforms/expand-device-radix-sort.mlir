// warp.device_radix_sort through the whole pipeline: PTX that ptxas takes,
// for keys of every width, floats and signed integers, descending, a bit
// range of two passes and pairs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas-sm_90 %{ for f in %t/*.ptx; do %ptxas-accepts -arch=sm_90 $f -o $f.cubin || exit 1; done %}
// RUN: warp-opt %s --warp-expand-device-ops | FileCheck %s --check-prefix=EXPAND
// RUN: warp-opt %s --warp-expand-device-ops=radix-sort-max-blocks=3 | FileCheck %s --check-prefix=CAPPED
// RUN: warp-opt %s --warp-expand-device-ops=branch-on-grid=false | FileCheck %s --check-prefix=NOBRANCH

// Without branches in the host code onesweep sorts every size: the single
// tile's kernel is not launched.
// NOBRANCH-LABEL: func.func @s
// NOBRANCH-NOT: scf.if
// NOBRANCH-NOT: @radix_sort_single_tile blocks
// NOBRANCH: gpu.launch_func {{.*}}::@radix_init
// NOBRANCH-NOT: @radix_sort_single_tile blocks
// NOBRANCH: return

// A lower cap (for tests at small sizes): modules of their own, the
// histogram's grid at most 3 blocks.
// CAPPED-LABEL: gpu.module @warp_device_radix_sort_i16_signed_bits4_14_max_blocks3
// CAPPED-SAME: warp.device_scratch = array<i64: 4352, 20480, 8192>
// CAPPED: gpu.func @radix_histogram({{.*}}warp.device_grid = 8192 : i64, warp.device_grid_max = 3 : i64
// CAPPED: arith.constant 3 : index
// CAPPED: gpu.func @radix_onesweep_0({{.*}}warp.device_grid = 8192 : i64}

// The i16 sort of bits [4, 14): a pass of 8 bits, then one of 2 (4
// digits), over tiles of 256 x 32 keys (32 a thread, 128 bytes as for
// 4-byte keys); each tile ranked by the pass's bits in one match-ranking
// pass and scattered as 32-bit items. The scratch: 4352 + 20480 T bytes
// for T tiles (the two passes' totals and tile tickets, 4112 bytes,
// aligned to 256; per tile its two status arrays' words, 4096 bytes, and
// a buffer of its 8192 2-byte keys, 16384).
// EXPAND: %[[N:.*]] = memref.dim %arg2, %{{.*}} : memref<?xi16>
// EXPAND: %[[ONE:.*]] = arith.constant 1 : index
// EXPAND: %[[T:.*]] = arith.maxui %{{.*}}, %{{.*}} : index
// EXPAND: %[[PERTILE:.*]] = arith.constant 20480 : index
// EXPAND: %[[TILES:.*]] = arith.muli %[[PERTILE]], %[[T]] : index
// EXPAND: %[[BYTES:.*]] = arith.addi %{{.*}}, %[[TILES]] : index
// EXPAND: gpu.alloc async [%{{.*}}] (%[[BYTES]]) : memref<?xi8>
// At most a single tile of keys (16 a thread, as 4 bytes: 4096) is one
// launch of one block; more take onesweep's launches.
// EXPAND: %[[ALONE:.*]] = arith.cmpi ule, %[[N]], %c4096{{.*}} : index
// EXPAND-NEXT: scf.if %[[ALONE]] {
// EXPAND: gpu.launch_func {{.*}} @warp_device_radix_sort_i16_signed_bits4_14::@radix_sort_single_tile blocks in (%[[ONE]], %[[ONE]], %[[ONE]])
// EXPAND-NEXT: gpu.dealloc
// EXPAND-NEXT: gpu.wait
// EXPAND-NEXT: } else {
// EXPAND: gpu.launch_func {{.*}} @warp_device_radix_sort_i16_signed_bits4_14::@radix_init
// EXPAND: gpu.launch_func {{.*}}::@radix_histogram
// EXPAND: gpu.launch_func {{.*}}::@radix_digit_starts
// EXPAND: gpu.launch_func {{.*}}::@radix_onesweep_0
// EXPAND: gpu.launch_func {{.*}}::@radix_onesweep_1
// EXPAND-NEXT: gpu.dealloc
// The i32 sort with f64 values (onesweep, below): its launches.
// EXPAND: gpu.launch_func {{.*}} @warp_device_radix_sort_i32_f64_signed::@radix_init
// EXPAND: gpu.launch_func {{.*}}::@radix_histogram
// EXPAND: gpu.launch_func {{.*}}::@radix_digit_starts
// EXPAND: gpu.launch_func {{.*}}::@radix_onesweep_0
// EXPAND: gpu.launch_func {{.*}}::@radix_onesweep_1
// EXPAND: gpu.launch_func {{.*}}::@radix_onesweep_2
// EXPAND: gpu.launch_func {{.*}}::@radix_onesweep_3
// EXPAND-NEXT: gpu.dealloc
// EXPAND-LABEL: gpu.module @warp_device_radix_sort_i16_signed_bits4_14
// EXPAND-SAME: warp.device_scratch = array<i64: 4352, 20480, 8192>
// The single tile: one block radix sort of bits [4, 14) of the whole
// input, padded past n, stored from keys_in (%arg0) to keys_out (%arg1);
// loaded blocked, a whole tile in vectors, a partial one item by item
// (`vectorize` with valid lowers as `direct`; no exchange buffer beside
// the sort's).
// EXPAND: gpu.func @radix_sort_single_tile({{.*}}warp.device_alone_up_to = 4096 : i64
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_load %arg0[%{{.*}}] algorithm = <vectorize> : memref<?xi16>, vector<16xi16>
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_load %arg0[%{{.*}}] valid %{{.*}} default %{{.*}} algorithm = <vectorize> : memref<?xi16>, vector<16xi16>
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_radix_sort %{{.*}} bits 4 to 14 striped : vector<16xi16>
// EXPAND-NOT: gpu.func
// EXPAND: memref.store %{{.*}}, %arg1[%{{.*}}] : memref<?xi16>
// EXPAND: gpu.func @radix_histogram({{.*}}workgroup({{.*}}memref<512xi32, #gpu.address_space<workgroup>>)
// EXPAND: gpu.func @radix_onesweep_0(
// EXPAND: warp.block_load %arg0[%{{.*}}] warp_striped : memref<?xi16>, vector<32xi16>
// EXPAND: warp.block_radix_rank %{{.*}} bits 4 to 12 warp_striped ranking = <match_early> : vector<32xi16>, vector<1xi32> counts(%{{.*}}: vector<1xi32>)
// Keys only: each look-back step loads a window of 4 tiles' words at once.
// EXPAND: scf.while
// EXPAND-COUNT-4: llvm.load {{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// EXPAND-NOT: llvm.load
// EXPAND: nvvm.nanosleep
// EXPAND: arith.extui %{{.*}} : vector<32xi16> to vector<32xi32>
// EXPAND: warp.block_scatter %{{.*}}, %{{.*}} striped : vector<32xi32>, vector<32xi32>
// EXPAND: arith.trunci %{{.*}} : vector<32xi32> to vector<32xi16>
// EXPAND: gpu.func @radix_onesweep_1({{.*}}memref<4xi64, #gpu.address_space<workgroup>>, {{.*}}memref<1xi64, #gpu.address_space<workgroup>>)
// EXPAND: warp.block_radix_rank %{{.*}} bits 12 to 14 warp_striped ranking = <match_early> : vector<32xi16>, vector<1xi32> counts(%{{.*}}: vector<1xi32>)
// EXPAND-NOT: gpu.func
// EXPAND: gpu.module

// 4- and 8-byte keys and values (i32 keys, f64 values: 8 a thread, 64
// bytes of the wider, since keys and values of unequal widths take two
// exchange buffers): onesweep. radix_init (one block) clears every
// pass's digit totals; radix_histogram (at most 1024 blocks, each over
// its share of the tiles) counts every pass's digits in one read of the
// keys and clears the first pass's look-back status; radix_digit_starts
// (one block) scans each pass's totals into its digits' starts; then a
// radix_onesweep kernel per pass, a block per tile: the tile loaded
// warp-striped, its digits counted (workgroup atomics) and thread d's
// count of digit d published at once, the tile ranked (the digit prefix
// gives the tile's digit starts) and scattered to striped rank order, and
// thread d's look-back for digit d (its status words 32 bits wide below
// 2^31 keys, else 64) says where the tile's keys of digit d go.
// Scratch: 4 passes' totals and tile tickets (8224 bytes, aligned to
// 256: 8448), then per tile of 2048 keys its
// two status arrays' words (4096 bytes) and a buffer of its keys and
// values (8192 + 16384 bytes).
// EXPAND-LABEL: gpu.module @warp_device_radix_sort_i32_f64_signed
// EXPAND-SAME: warp.device_scratch = array<i64: 8448, 28672, 2048>
// EXPAND: gpu.func @radix_init({{.*}}kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
// EXPAND: memref.view %arg4[%{{.*}}][%c1028] : memref<?xi8> to memref<?xi64>
// EXPAND-COUNT-4: memref.store {{.*}} : memref<?xi64>
// The passes' tile tickets, elements 1024 to 1027, start at 0.
// EXPAND-NEXT: %[[PASSES:.*]] = arith.constant 4 : index
// EXPAND-NEXT: %[[FEW:.*]] = arith.cmpi ult, %thread_id_x, %[[PASSES]] : index
// EXPAND-NEXT: scf.if %[[FEW]] {
// EXPAND: %[[TICKET:.*]] = arith.constant 1024 : index
// EXPAND-NEXT: arith.addi %thread_id_x, %[[TICKET]] : index
// EXPAND-NEXT: memref.store {{.*}} : memref<?xi64>
// EXPAND-NEXT: }
// EXPAND-NEXT: gpu.return
// EXPAND: gpu.func @radix_histogram({{.*}}workgroup({{.*}}memref<1024xi32, #gpu.address_space<workgroup>>) {{.*}}warp.device_grid = 2048 : i64, warp.device_grid_max = 1024 : i64
// EXPAND: scf.for
// EXPAND: warp.block_load %arg0[%{{.*}}] warp_striped : memref<?xi32>, vector<8xi32>
// EXPAND-COUNT-32: memref.atomic_rmw addi
// EXPAND: llvm.store %{{.*}} : i64, !llvm.ptr<1>
// EXPAND: llvm.store %{{.*}} : i32, !llvm.ptr<1>
// EXPAND: gpu.barrier
// EXPAND-COUNT-4: memref.atomic_rmw addi {{.*}} : (i64, memref<?xi64>) -> i64
// EXPAND: gpu.func @radix_digit_starts({{.*}}kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
// EXPAND-COUNT-4: warp.block_scan <add> %{{.*}} exclusive : i64
// EXPAND: gpu.func @radix_onesweep_0({{.*}}workgroup({{.*}}memref<256xi64, #gpu.address_space<workgroup>>, %[[SLOT:arg[0-9]+]] : memref<1xi64, #gpu.address_space<workgroup>>) {{.*}}nvvm.minctasm = 2 : i32, warp.device_grid = 2048 : i64}
// The tile: thread 0 takes pass 0's ticket (element 1024 of the totals)
// and shares it after a barrier.
// EXPAND: %[[T0:.*]] = arith.constant 1024 : index
// EXPAND-NEXT: %[[TILE:.*]] = memref.atomic_rmw addi %{{.*}}, %{{.*}}[%[[T0]]] : (i64, memref<?xi64>) -> i64
// EXPAND: memref.store %[[TILE]], %[[SLOT]][%{{.*}}] : memref<1xi64, #gpu.address_space<workgroup>>
// EXPAND: gpu.barrier
// EXPAND: memref.load %[[SLOT]]
// EXPAND: warp.block_load %arg0[%{{.*}}] warp_striped : memref<?xi32>, vector<8xi32>
// EXPAND: warp.block_load %arg2[%{{.*}}] warp_striped : memref<?xf64>, vector<8xf64>
// EXPAND-NOT: warp.block_scan
// The tile ranked with CUB's early counts (warp.block_radix_rank
// ranking = <match_early>, the images' bits 0 to 8) whose counts region,
// before the ranking, keeps thread d's count of digit d in the thread's
// slot and publishes it: the next pass's status cleared, then the count
// in a 64-bit word from 2^31 keys, else in a 32-bit one.
// EXPAND: %[[COUNT:.*]] = memref.alloca() : memref<i64>
// EXPAND-NEXT: %{{.*}}, %[[PREFIX:.*]] = warp.block_radix_rank %{{.*}} bits 0 to 8 warp_striped ranking = <match_early> : vector<8xi32>, vector<1xi32> counts(%{{.*}}: vector<1xi32>) {
// EXPAND: memref.store %{{.*}}, %[[COUNT]][] : memref<i64>
// EXPAND: arith.constant 2147483648 : index
// EXPAND: llvm.store %{{.*}} : i64, !llvm.ptr<1>
// EXPAND: llvm.store %{{.*}} : i32, !llvm.ptr<1>
// EXPAND: llvm.store {{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : i64
// EXPAND: llvm.store {{.*}} atomic syncscope("device") monotonic {alignment = 4 : i64} : i32
// EXPAND: warp.yield
// EXPAND-NEXT: }
// EXPAND-NEXT: memref.load %[[COUNT]][] : memref<i64>
// EXPAND-NEXT: vector.extract %[[PREFIX]][0] : i32 from vector<1xi32>
// Then the look-back (before the scatter), which publishes the prefix;
// with values a word a step.
// EXPAND-NOT: warp.block_scatter
// EXPAND: scf.while
// EXPAND: llvm.load {{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// EXPAND-NOT: llvm.load
// EXPAND: nvvm.nanosleep
// EXPAND: llvm.store {{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : i64
// EXPAND-NOT: warp.block_scatter
// EXPAND: scf.while
// EXPAND: llvm.load {{.*}} atomic syncscope("device") monotonic {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// EXPAND: llvm.store {{.*}} atomic syncscope("device") monotonic {alignment = 4 : i64} : i32
// EXPAND-NOT: gpu.func
// EXPAND: warp.block_scatter %{{.*}}, %{{.*}} striped : vector<8xi32>, vector<8xi32>
// EXPAND: arith.bitcast %{{.*}} : vector<8xf64> to vector<8xi64>
// EXPAND: warp.block_scatter %{{.*}}, %{{.*}} striped : vector<8xi64>, vector<8xi32>
// EXPAND: arith.bitcast %{{.*}} : vector<8xi64> to vector<8xf64>
// EXPAND-NOT: gpu.func
// EXPAND: gpu.barrier
// EXPAND-NOT: warp.block_radix_sort
// EXPAND: gpu.func @radix_onesweep_1(
// The last pass clears no status.
// EXPAND: gpu.func @radix_onesweep_3(
// EXPAND: warp.block_radix_rank {{.*}} counts(
// EXPAND-NOT: alignment = 8 : i64} : i64, !llvm.ptr<1>
// EXPAND: llvm.store {{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : i64

// CHECK: warp_device_radix_sort_bf16_descending.ptx
// CHECK-NEXT: warp_device_radix_sort_f64.ptx
// CHECK-NEXT: warp_device_radix_sort_i16_signed_bits4_14.ptx
// CHECK-NEXT: warp_device_radix_sort_i32_f64_signed.ptx
// CHECK-NEXT: warp_device_radix_sort_i8.ptx
func.func @s(%a: memref<?xf64>, %b: memref<?xi8>, %c: memref<?xi16>, %d: memref<?xbf16>,
             %e: memref<?xi32>, %v: memref<?xf64>,
             %a2: memref<?xf64>, %b2: memref<?xi8>, %c2: memref<?xi16>, %d2: memref<?xbf16>,
             %e2: memref<?xi32>, %v2: memref<?xf64>) {
  warp.device_radix_sort %a, %a2 : memref<?xf64>, memref<?xf64>
  warp.device_radix_sort %b, %b2 : memref<?xi8>, memref<?xi8>
  warp.device_radix_sort %c, %c2 signed bits 4 to 14 : memref<?xi16>, memref<?xi16>
  warp.device_radix_sort %d, %d2 descending : memref<?xbf16>, memref<?xbf16>
  warp.device_radix_sort %e, %e2 values %v, %v2 signed
      : memref<?xi32>, memref<?xi32>, memref<?xf64>, memref<?xf64>
  return
}
