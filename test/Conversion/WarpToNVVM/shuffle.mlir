// warp.shuffle to nvvm.shfl.sync: CUDA's c = ((32 - width) << 8) | clamp with
// clamp 0 for up and 31 otherwise, the member mask, and the in-dialect
// payload legalization (one i32 shuffle per 32-bit word; an f32 moves as it
// is) that runs first.
// RUN: warp-opt %s --convert-warp-to-nvvm --canonicalize | FileCheck %s

// CHECK-LABEL: func @modes_and_widths
// CHECK-SAME: (%[[X:.*]]: i32, %[[O:.*]]: i32, %[[M:.*]]: i32)
func.func @modes_and_widths(%x: i32, %o: i32, %m: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  // CHECK-DAG: %[[ALL:.*]] = arith.constant -1 : i32
  // CHECK-DAG: %[[C_IDX32:.*]] = arith.constant 31 : i32
  // CHECK-DAG: %[[C_UP32:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C_UP16:.*]] = arith.constant 4096 : i32
  // CHECK-DAG: %[[C_DOWN8:.*]] = arith.constant 6175 : i32
  // CHECK-DAG: %[[C_XOR4:.*]] = arith.constant 7199 : i32
  // CHECK-DAG: %[[C_IDX2:.*]] = arith.constant 7711 : i32
  // CHECK-DAG: %[[C_UP1:.*]] = arith.constant 7936 : i32
  // CHECK: nvvm.shfl.sync idx %[[ALL]], %[[X]], %[[O]], %[[C_IDX32]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %0:2 = warp.shuffle <idx> %x, %o : i32
  // CHECK: nvvm.shfl.sync up %[[ALL]], %[[X]], %[[O]], %[[C_UP32]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %1:2 = warp.shuffle <up> %x, %o : i32
  // CHECK: nvvm.shfl.sync up %[[M]], %[[X]], %[[O]], %[[C_UP16]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %2:2 = warp.shuffle <up> %x, %o width 16 mask %m : i32
  // CHECK: nvvm.shfl.sync down %[[ALL]], %[[X]], %[[O]], %[[C_DOWN8]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %3:2 = warp.shuffle <down> %x, %o width 8 : i32
  // CHECK: nvvm.shfl.sync bfly %[[ALL]], %[[X]], %[[O]], %[[C_XOR4]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %4:2 = warp.shuffle <xor> %x, %o width 4 : i32
  // CHECK: nvvm.shfl.sync idx %[[ALL]], %[[X]], %[[O]], %[[C_IDX2]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %5:2 = warp.shuffle <idx> %x, %o width 2 : i32
  // CHECK: nvvm.shfl.sync up %[[ALL]], %[[X]], %[[O]], %[[C_UP1]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %6:2 = warp.shuffle <up> %x, %o width 1 : i32
  // CHECK: nvvm.shfl.sync bfly %[[ALL]], %[[X]], %[[O]], %[[C_IDX32]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %7:2 = warp.shuffle <xor> %x, %o : i32
  return %0#0, %1#0, %2#0, %3#0, %4#0, %5#0, %6#0, %7#0 : i32, i32, i32, i32, i32, i32, i32, i32
}

// A bound is the `c` operand itself (segment mask 0, the clamp lane); each
// word of a 64-bit payload takes it.
// CHECK-LABEL: func @bound
// CHECK-SAME: (%[[X:.*]]: i32, %[[L:.*]]: i64, %[[O:.*]]: i32, %[[B:.*]]: i32)
func.func @bound(%x: i32, %l: i64, %o: i32, %b: i32) -> (i32, i64) {
  // CHECK: nvvm.shfl.sync down %{{.*}}, %[[X]], %[[O]], %[[B]] {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  %0:2 = warp.shuffle <down> %x, %o bound %b : i32
  // CHECK-COUNT-2: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[O]], %[[B]] {warp.convergent
  %1:2 = warp.shuffle <up> %l, %o bound %b : i64
  return %0#0, %1#0 : i32, i64
}

// The valid bit is requested only when used, and then from one shuffle.
// CHECK-LABEL: func @valid_bit
func.func @valid_bit(%x: f64, %o: i32) -> (f64, i1) {
  // CHECK: %[[P:.*]] = nvvm.shfl.sync down {{.*}} {return_value_and_is_valid, warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> !llvm.struct<(i32, i1)>
  // CHECK: %[[V:.*]] = llvm.extractvalue %[[P]][1]
  // CHECK: nvvm.shfl.sync down {{.*}} {warp.convergent = distinct[{{[0-9]+}}]<>} : i32 -> i32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: return %{{.*}}, %[[V]]
  %0:2 = warp.shuffle <down> %x, %o : f64
  return %0#0, %0#1 : f64, i1
}

// CHECK-LABEL: func @narrow_scalars
// CHECK-SAME: bf16, %[[F:.*]]: f32, %{{.*}}: i32)
func.func @narrow_scalars(%b: i1, %c: i8, %s: i16, %h: f16, %bf: bf16, %f: f32, %o: i32) -> (i1, i8, i16, f16, bf16, f32) {
  // CHECK: arith.extui %{{.*}} : i1 to i32
  // CHECK: nvvm.shfl.sync
  // CHECK: arith.trunci %{{.*}} : i32 to i1
  %0:2 = warp.shuffle <xor> %b, %o : i1
  // CHECK: arith.extui %{{.*}} : i8 to i32
  // CHECK: nvvm.shfl.sync
  // CHECK: arith.trunci %{{.*}} : i32 to i8
  %1:2 = warp.shuffle <xor> %c, %o : i8
  // CHECK: arith.extui %{{.*}} : i16 to i32
  // CHECK: nvvm.shfl.sync
  // CHECK: arith.trunci %{{.*}} : i32 to i16
  %2:2 = warp.shuffle <xor> %s, %o : i16
  // CHECK: arith.bitcast %{{.*}} : f16 to i16
  // CHECK: arith.extui
  // CHECK: nvvm.shfl.sync
  // CHECK: arith.trunci
  // CHECK: arith.bitcast %{{.*}} : i16 to f16
  %3:2 = warp.shuffle <xor> %h, %o : f16
  // CHECK: arith.bitcast %{{.*}} : bf16 to i16
  // CHECK: nvvm.shfl.sync
  // CHECK: arith.bitcast %{{.*}} : i16 to bf16
  %4:2 = warp.shuffle <xor> %bf, %o : bf16
  // An f32 is one word that shfl.sync takes as it is: no bitcast either way.
  // CHECK-NOT: arith.bitcast
  // CHECK: %[[F32:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[F]], %{{.*}} : f32 -> f32
  // CHECK-NOT: arith.bitcast
  // CHECK: return {{.*}}, %[[F32]] : i1, i8, i16, f16, bf16, f32
  %5:2 = warp.shuffle <xor> %f, %o : f32
  return %0#0, %1#0, %2#0, %3#0, %4#0, %5#0 : i1, i8, i16, f16, bf16, f32
}

// An f32 with its valid bit: one shuffle of the f32 that returns both.
// CHECK-LABEL: func @f32_valid_bit
// CHECK-SAME: (%[[X:.*]]: f32,
func.func @f32_valid_bit(%x: f32, %o: i32) -> (f32, i1) {
  // CHECK: %[[P:.*]] = nvvm.shfl.sync up %{{.*}}, %[[X]], {{.*}} {return_value_and_is_valid, warp.convergent = distinct[{{[0-9]+}}]<>} : f32 -> !llvm.struct<(f32, i1)>
  // CHECK-DAG: %[[R:.*]] = llvm.extractvalue %[[P]][0] : !llvm.struct<(f32, i1)>
  // CHECK-DAG: %[[V:.*]] = llvm.extractvalue %[[P]][1] : !llvm.struct<(f32, i1)>
  // CHECK: return %[[R]], %[[V]] : f32, i1
  %0:2 = warp.shuffle <up> %x, %o : f32
  return %0#0, %0#1 : f32, i1
}

// 64-bit scalars: two 32-bit shuffles, low word first.
// CHECK-LABEL: func @wide_scalars
func.func @wide_scalars(%l: i64, %d: f64, %i: index, %o: i32) -> (i64, f64, index) {
  // CHECK: %[[LO:.*]] = arith.trunci %{{.*}} : i64 to i32
  // CHECK: %[[HI64:.*]] = arith.shrui
  // CHECK: %[[HI:.*]] = arith.trunci %[[HI64]] : i64 to i32
  // CHECK: %[[SLO:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[LO]]
  // CHECK: %[[SHI:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[HI]]
  // CHECK: %[[ELO:.*]] = arith.extui %[[SLO]] : i32 to i64
  // CHECK: %[[EHI:.*]] = arith.extui %[[SHI]] : i32 to i64
  // CHECK: %[[SH:.*]] = arith.shli %[[EHI]]
  // CHECK: arith.ori %[[ELO]], %[[SH]] : i64
  %0:2 = warp.shuffle <idx> %l, %o : i64
  // CHECK: arith.bitcast %{{.*}} : f64 to i64
  // CHECK-COUNT-2: nvvm.shfl.sync
  // CHECK: arith.bitcast %{{.*}} : i64 to f64
  %1:2 = warp.shuffle <idx> %d, %o : f64
  // CHECK: arith.index_cast %{{.*}} : index to i64
  // CHECK-COUNT-2: nvvm.shfl.sync
  // CHECK: arith.index_cast %{{.*}} : i64 to index
  %2:2 = warp.shuffle <idx> %i, %o : index
  return %0#0, %1#0, %2#0 : i64, f64, index
}

// Vectors: packed into 32-bit words where the bits allow it.
// CHECK-LABEL: func @vectors
func.func @vectors(%h2: vector<2xf16>, %b2: vector<2xbf16>, %c4: vector<4xi8>, %h4: vector<4xf16>,
                   %f2: vector<2xf32>, %h3: vector<3xf16>, %p2: vector<2xi1>, %o: i32)
    -> (vector<2xf16>, vector<2xbf16>, vector<4xi8>, vector<4xf16>, vector<2xf32>, vector<3xf16>, vector<2xi1>) {
  // One shuffle for two halves.
  // CHECK: vector.bitcast %{{.*}} : vector<2xf16> to vector<1xi32>
  // CHECK: nvvm.shfl.sync bfly
  // CHECK: vector.bitcast %{{.*}} : vector<1xi32> to vector<2xf16>
  %0:2 = warp.shuffle <xor> %h2, %o : vector<2xf16>
  // CHECK: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
  // CHECK: nvvm.shfl.sync bfly
  // CHECK: vector.bitcast %{{.*}} : vector<1xi32> to vector<2xbf16>
  %1:2 = warp.shuffle <xor> %b2, %o : vector<2xbf16>
  // CHECK: vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
  // CHECK: nvvm.shfl.sync bfly
  // CHECK: vector.bitcast %{{.*}} : vector<1xi32> to vector<4xi8>
  %2:2 = warp.shuffle <xor> %c4, %o : vector<4xi8>
  // Four halves: two words, each from (and back to) a vector<2xf16>, never
  // through a vector<2xi32> (a 64-bit register on sm_100, half of which
  // LLVM left undefined when it put the words back together).
  // CHECK: vector.shuffle %{{.*}} [0, 1] : vector<4xf16>, vector<4xf16>
  // CHECK: vector.bitcast %{{.*}} : vector<2xf16> to vector<1xi32>
  // CHECK: vector.shuffle %{{.*}} [2, 3] : vector<4xf16>, vector<4xf16>
  // CHECK: vector.bitcast %{{.*}} : vector<2xf16> to vector<1xi32>
  // CHECK-COUNT-2: nvvm.shfl.sync bfly
  // CHECK: vector.bitcast %{{.*}} : vector<1xi32> to vector<2xf16>
  // CHECK: vector.bitcast %{{.*}} : vector<1xi32> to vector<2xf16>
  // CHECK: vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf16>
  %3:2 = warp.shuffle <xor> %h4, %o : vector<4xf16>
  // CHECK: vector.bitcast %{{.*}} : vector<2xf32> to vector<2xi32>
  // CHECK-COUNT-2: nvvm.shfl.sync bfly
  // CHECK: vector.bitcast %{{.*}} : vector<2xi32> to vector<2xf32>
  %4:2 = warp.shuffle <xor> %f2, %o : vector<2xf32>
  // 48 bits: a word of the first two halves and one of the third,
  // zero-extended (no bitcast of the odd vector as a whole).
  // CHECK: vector.shuffle %{{.*}} [0, 1] : vector<3xf16>, vector<3xf16>
  // CHECK: vector.bitcast %{{.*}} : vector<2xf16> to vector<1xi32>
  // CHECK: %[[H2:.*]] = vector.extract %{{.*}}[2] : f16 from vector<3xf16>
  // CHECK: %[[H2I:.*]] = arith.bitcast %[[H2]] : f16 to i16
  // CHECK: arith.extui %[[H2I]] : i16 to i32
  // CHECK-COUNT-2: nvvm.shfl.sync bfly
  // CHECK: vector.bitcast %{{.*}} : vector<1xi32> to vector<2xf16>
  // CHECK: arith.trunci %{{.*}} : i32 to i16
  // CHECK: vector.from_elements %{{.*}}, %{{.*}}, %{{.*}} : vector<3xf16>
  %5:2 = warp.shuffle <xor> %h3, %o : vector<3xf16>
  // i1 vectors: element by element.
  // CHECK: vector.extract %{{.*}}[0] : i1 from vector<2xi1>
  // CHECK-COUNT-2: nvvm.shfl.sync bfly
  %6:2 = warp.shuffle <xor> %p2, %o : vector<2xi1>
  return %0#0, %1#0, %2#0, %3#0, %4#0, %5#0, %6#0 : vector<2xf16>, vector<2xbf16>, vector<4xi8>, vector<4xf16>, vector<2xf32>, vector<3xf16>, vector<2xi1>
}

// Three bytes: one word built byte by byte, zero in its high byte, and taken
// apart byte by byte (a bitcast of the vector<3xi8> to i24 left LLVM's
// backend a register with an undefined fourth byte).
// CHECK-LABEL: func @odd_bytes
// CHECK-SAME: (%[[X:.*]]: vector<3xi8>, %[[O:.*]]: i32)
func.func @odd_bytes(%x: vector<3xi8>, %o: i32) -> vector<3xi8> {
  // CHECK-NOT: vector.bitcast
  // CHECK: %[[B0:.*]] = vector.extract %[[X]][0] : i8 from vector<3xi8>
  // CHECK: %[[W0:.*]] = arith.extui %[[B0]] : i8 to i32
  // CHECK: %[[B1:.*]] = vector.extract %[[X]][1] : i8 from vector<3xi8>
  // CHECK: %[[W1:.*]] = arith.extui %[[B1]] : i8 to i32
  // CHECK: %[[S1:.*]] = arith.shli %[[W1]], %c8_i32 : i32
  // CHECK: %[[P01:.*]] = arith.ori %[[W0]], %[[S1]] : i32
  // CHECK: %[[B2:.*]] = vector.extract %[[X]][2] : i8 from vector<3xi8>
  // CHECK: %[[W2:.*]] = arith.extui %[[B2]] : i8 to i32
  // CHECK: %[[S2:.*]] = arith.shli %[[W2]], %c16_i32 : i32
  // CHECK: %[[WORD:.*]] = arith.ori %[[P01]], %[[S2]] : i32
  // CHECK: %[[R:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[WORD]], %[[O]]
  // CHECK: %[[R0:.*]] = arith.trunci %[[R]] : i32 to i8
  // CHECK: %[[R1W:.*]] = arith.shrui %[[R]], %c8_i32 : i32
  // CHECK: %[[R1:.*]] = arith.trunci %[[R1W]] : i32 to i8
  // CHECK: %[[R2W:.*]] = arith.shrui %[[R]], %c16_i32 : i32
  // CHECK: %[[R2:.*]] = arith.trunci %[[R2W]] : i32 to i8
  // CHECK: vector.from_elements %[[R0]], %[[R1]], %[[R2]] : vector<3xi8>
  // CHECK-NOT: vector.bitcast
  %0:2 = warp.shuffle <xor> %x, %o : vector<3xi8>
  return %0#0 : vector<3xi8>
}

// A run-time width: CUDA's c = ((32 - width) << 8) | clamp, computed.
// CHECK-LABEL: func @dynamic_width
// CHECK-SAME: (%[[X:.*]]: i32, %[[O:.*]]: i32, %[[W:.*]]: i32)
func.func @dynamic_width(%x: i32, %o: i32, %w: i32) -> (i32, i1, i32) {
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
  // CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
  // CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
  // CHECK: %[[SEG:.*]] = arith.subi %[[C32]], %[[W]] : i32
  // CHECK: %[[UPC:.*]] = arith.shli %[[SEG]], %[[C8]] : i32
  // CHECK: nvvm.shfl.sync up %{{.*}}, %[[X]], %[[O]], %[[UPC]] {return_value_and_is_valid, warp.convergent = distinct[{{[0-9]+}}]<>}
  %0:2 = warp.shuffle <up> %x, %o width %w : i32
  // CHECK: %[[SEG2:.*]] = arith.subi %[[C32]], %[[W]] : i32
  // CHECK: %[[SH2:.*]] = arith.shli %[[SEG2]], %[[C8]] : i32
  // CHECK: %[[DOWNC:.*]] = arith.ori %[[SH2]], %[[C31]] : i32
  // CHECK: nvvm.shfl.sync down %{{.*}}, %[[X]], %[[O]], %[[DOWNC]]
  %1:2 = warp.shuffle <down> %x, %o width %w : i32
  return %0#0, %0#1, %1#0 : i32, i1, i32
}

// Index payloads travel as i64 (two words), vectors of them too.
// CHECK-LABEL: func @index_vectors
func.func @index_vectors(%v: vector<2xindex>, %o: i32) -> vector<2xindex> {
  // CHECK: %[[WIDE:.*]] = arith.index_cast %{{.*}} : vector<2xindex> to vector<2xi64>
  // CHECK: vector.bitcast %[[WIDE]] : vector<2xi64> to vector<4xi32>
  // CHECK-COUNT-4: nvvm.shfl.sync idx
  // CHECK: vector.bitcast %{{.*}} : vector<4xi32> to vector<2xi64>
  // CHECK: arith.index_cast %{{.*}} : vector<2xi64> to vector<2xindex>
  %0:2 = warp.shuffle <idx> %v, %o : vector<2xindex>
  return %0#0 : vector<2xindex>
}
