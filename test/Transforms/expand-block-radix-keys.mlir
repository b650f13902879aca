// The custom keys of the block radix ops. warp.block_radix_rank with a
// digit region: the region copied per key where the ranking counts it, its
// i32 masked to the low radix_bits bits (complemented within them with
// `descending`), then the ranking of the image digits (no image). A
// warp.block_radix_sort of a tuple of key members: each member's image,
// then the LSD passes of the last member first (all of its bits), then of
// the member before, ..., each pass exchanging every member and the values
// at the ranks of that pass; one key buffer per member (members of one
// image type take slots of one name), or in the union views of it.
// RUN: warp-opt %s --split-input-file --warp-expand-block-collectives | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t/" -o /dev/null
// RUN: mkdir -p %t/sm70 && warp-opt %s --split-input-file --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t/sm70/" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/digit.ptx
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/digit.ptx -o %t/a.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/tuple.ptx -o %t/b.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t/union_tuple.ptx -o %t/c.cubin %}
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t/sm70/digit.ptx -o %t/d.cubin %}
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t/sm70/tuple.ptx -o %t/e.cubin %}
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t/sm70/union_tuple.ptx -o %t/f.cubin %}

// 64 threads, R = 4: the grid of 9 lanes x 64 threads; each of the N = 2
// keys: the region's shift, the mask 15, the complement (descending), the
// lane (digit & 7) and half (digit >> 3) of its counter, then the count.
// CHECK-LABEL: gpu.module @digit
// CHECK: memref.global "private" @__warp_block_radix_counters : memref<2304xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-NOT: __warp_block_radix_keys
// CHECK-LABEL: gpu.func @rank
// CHECK: %[[HALVES:.*]] = memref.view {{.*}} to memref<1152xi16, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: arith.shrui %{{.*}}, %c3_i32{{.*}} : i32
// CHECK: %[[D0:.*]] = arith.andi %{{.*}}, %c15_i32{{.*}} : i32
// CHECK: %[[C0:.*]] = arith.xori %[[D0]], %c15_i32{{.*}} : i32
// CHECK: arith.andi %[[C0]], %c7_i32
// CHECK: arith.shrui %[[C0]], %c3_i32
// CHECK: memref.load %[[HALVES]]
// CHECK: memref.store %{{.*}}, %[[HALVES]]
// CHECK: arith.shrui %{{.*}}, %c3_i32{{.*}} : i32
// CHECK: %[[D1:.*]] = arith.andi %{{.*}}, %c15_i32{{.*}} : i32
// CHECK: arith.xori %[[D1]], %c15_i32{{.*}} : i32
// CHECK: memref.store %{{.*}}, %[[HALVES]]
// CHECK-NEXT: gpu.barrier
// The prefix's bin: digit 15 - b (descending).
// CHECK: arith.subi %c15_i32{{.*}}, %{{.*}} : i32
// CHECK: gpu.return
// PTX: .shared .align 16 .b8 __warp_block_radix_counters[2304];
// PTX-NOT: __warp_block_radix_keys
gpu.module @digit {
  gpu.func @rank(%io: memref<?xi32>, %p: memref<?xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %o = arith.muli %t, %c2 : index
    %k = vector.load %io[%o] : memref<?xi32>, vector<2xi32>
    %r, %b = warp.block_radix_rank %k descending radix_bits = 4 : vector<2xi32>, vector<1xi32> digit(%a: i32) {
      %c3 = arith.constant 3 : i32
      %d = arith.shrui %a, %c3 : i32
      warp.yield %d : i32
    }
    vector.store %r, %io[%o] : memref<?xi32>, vector<2xi32>
    vector.store %b, %p[%t] : memref<?xi32>, vector<1xi32>
    gpu.return
  }
}

// -----

// (i16, i32, i32) keys with f32 values, 32 threads x 2, R = 8: the
// members' buffers (the two i32 members in two slots of one name), 64 and
// 65 items (one padding i32 per 32), the values'. `signed` flips each
// integer member's sign bit. Ten passes: the last member's bits 0, 8, 16,
// 24, the middle member's, then the first's (i16) bits 0 and 8; each pass
// stores every item's three members and value at its rank.
// CHECK-LABEL: gpu.module @tuple
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys : memref<64xi16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys_0 : memref<65xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_keys_1 : memref<65xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__warp_block_radix_values : memref<65xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @sort
// CHECK: %[[K0:.*]] = memref.get_global @__warp_block_radix_keys :
// CHECK: %[[K1:.*]] = memref.get_global @__warp_block_radix_keys_0 :
// CHECK: %[[K2:.*]] = memref.get_global @__warp_block_radix_keys_1 :
// CHECK: %[[V:.*]] = memref.get_global @__warp_block_radix_values :
// CHECK: %[[A:.*]] = arith.xori %{{.*}}, %c-32768_i16
// CHECK: %[[B:.*]] = arith.xori %{{.*}}, %c-2147483648_i32
// CHECK: %[[C:.*]] = arith.xori %{{.*}}, %c-2147483648_i32
// CHECK: arith.shrui %[[C]], %c0_i32{{.*}} : i32
// CHECK: gpu.barrier
// CHECK: memref.store %[[A]], %[[K0]]
// CHECK: memref.store %[[B]], %[[K1]]
// CHECK: memref.store %[[C]], %[[K2]]
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c8_i32{{.*}} : i32
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c16_i32{{.*}} : i32
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c24_i32{{.*}} : i32
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c0_i32{{.*}} : i32
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c8_i32{{.*}} : i32
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c16_i32{{.*}} : i32
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c24_i32{{.*}} : i32
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c0_i16{{.*}} : i16
// CHECK-COUNT-2: arith.shrui %{{.*}}, %c8_i16{{.*}} : i16
// CHECK-NOT: arith.shrui %{{.*}}, %c{{[0-9]+}}_i16
// CHECK: gpu.return
gpu.module @tuple {
  gpu.func @sort(%a: memref<?xi16>, %b: memref<?xi32>, %c: memref<?xi32>, %v: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %o = arith.muli %t, %c2 : index
    %k0 = vector.load %a[%o] : memref<?xi16>, vector<2xi16>
    %k1 = vector.load %b[%o] : memref<?xi32>, vector<2xi32>
    %k2 = vector.load %c[%o] : memref<?xi32>, vector<2xi32>
    %x = vector.load %v[%o] : memref<?xf32>, vector<2xf32>
    %s:4 = warp.block_radix_sort (%k0, %k1, %k2), %x signed radix_bits = 8 : (vector<2xi16>, vector<2xi32>, vector<2xi32>), vector<2xf32>
    vector.store %s#0, %a[%o] : memref<?xi16>, vector<2xi16>
    vector.store %s#1, %b[%o] : memref<?xi32>, vector<2xi32>
    vector.store %s#2, %c[%o] : memref<?xi32>, vector<2xi32>
    vector.store %s#3, %v[%o] : memref<?xf32>, vector<2xf32>
    gpu.return
  }
}

// -----

// Two i32 members, 1024 threads x 4: two key buffers of 4096 items (+127
// padding) and the grid (9 lanes x 1024 words) would need 69 KiB; their
// union is the grid's 36864 bytes. Both members' buffers are views at its
// start, used by turns: per pass a barrier before the grid is zeroed, the
// grid's two and the scan's, and two per member exchanged.
// CHECK-LABEL: gpu.module @union_tuple
// CHECK: memref.global "private" @__warp_block_radix_union : memref<36864xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-NOT: __warp_block_radix_keys
// CHECK-LABEL: gpu.func @sort
// CHECK-COUNT-2: memref.view {{.*}} to memref<4223xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}} to memref<9216xi32, #gpu.address_space<workgroup>>
gpu.module @union_tuple {
  gpu.func @sort(%a: memref<?xi32>, %b: memref<?xi32>) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %o = arith.muli %t, %c4 : index
    %k0 = vector.load %a[%o] : memref<?xi32>, vector<4xi32>
    %k1 = vector.load %b[%o] : memref<?xi32>, vector<4xi32>
    %s:2 = warp.block_radix_sort (%k0, %k1) radix_bits = 4 : (vector<4xi32>, vector<4xi32>)
    vector.store %s#0, %a[%o] : memref<?xi32>, vector<4xi32>
    vector.store %s#1, %b[%o] : memref<?xi32>, vector<4xi32>
    gpu.return
  }
}
