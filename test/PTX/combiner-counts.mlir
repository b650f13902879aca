// Combiner regions, tuples and segmented reductions: one shuffle per 32-bit
// piece of each value per step, all values in one network; every PTX
// assembles with ptxas for sm_80 and sm_90.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py %t.sm90.ptx | FileCheck %s --match-full-lines
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: %python %S/ptx_histogram.py %t.sm80.ptx | FileCheck %s --match-full-lines
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // argmax over (f32, i32), full warp, every lane: 5 steps x 2 shuffles.
  // CHECK: argmax: shfl.sync.bfly.b32=10
  gpu.func @argmax(%in: memref<32xf32>, %out: memref<32xf32>, %outi: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %i = arith.index_cast %t : index to i32
    %m, %mi = warp.reduce %x, %i commutative : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
      %gt = arith.cmpf ogt, %b, %a : f32
      %eq = arith.cmpf oeq, %b, %a : f32
      %lt = arith.cmpi slt, %bi, %ai : i32
      %tie = arith.andi %eq, %lt : i1
      %takeb = arith.ori %gt, %tie : i1
      %r = arith.select %takeb, %b, %a : f32
      %ri = arith.select %takeb, %bi, %ai : i32
      warp.yield %r, %ri : f32, i32
    }
    memref.store %m, %out[%t] : memref<32xf32>
    memref.store %mi, %outi[%t] : memref<32xi32>
    gpu.return
  }
  // The same with the result in lane 0: a shfl.down tree.
  // CHECK: argmax_first: shfl.sync.down.b32=10
  gpu.func @argmax_first(%in: memref<32xf32>, %out: memref<32xf32>, %outi: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %i = arith.index_cast %t : index to i32
    %m, %mi = warp.reduce %x, %i lanes = <first> commutative : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
      %gt = arith.cmpf ogt, %b, %a : f32
      %r = arith.select %gt, %b, %a : f32
      %ri = arith.select %gt, %bi, %ai : i32
      warp.yield %r, %ri : f32, i32
    }
    memref.store %m, %out[%t] : memref<32xf32>
    memref.store %mi, %outi[%t] : memref<32xi32>
    gpu.return
  }
  // Welford (count, mean, m2): 5 steps x 3 shuffles; the combine is
  // the combine's float arithmetic (its division included) is not pinned.
  // CHECK: welford: {{.*}}shfl.sync.bfly.b32=15{{.*}}
  gpu.func @welford(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %one = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    %n, %mean, %m2 = warp.reduce %one, %x, %zero commutative : i32, f32, f32 combine (%na: i32, %ma: f32, %qa: f32, %nb: i32, %mb: f32, %qb: f32) {
      %nn = arith.addi %na, %nb : i32
      %fa = arith.sitofp %na : i32 to f32
      %fb = arith.sitofp %nb : i32 to f32
      %fn = arith.sitofp %nn : i32 to f32
      %d = arith.subf %mb, %ma : f32
      %w = arith.divf %fb, %fn : f32
      %dm = arith.mulf %d, %w : f32
      %m = arith.addf %ma, %dm : f32
      %dd = arith.mulf %d, %d : f32
      %ab = arith.mulf %fa, %w : f32
      %c = arith.mulf %dd, %ab : f32
      %q0 = arith.addf %qa, %qb : f32
      %q = arith.addf %q0, %c : f32
      warp.yield %nn, %m, %q : i32, f32, f32
    }
    memref.store %m2, %out[%t] : memref<32xf32>
    gpu.return
  }
  // A non-commutative combiner (affine maps) keeps lane order: the same
  // 10 shuffles, the lower lane's pair picked as the left operand.
  // CHECK: affine: shfl.sync.bfly.b32=10
  gpu.func @affine(%ina: memref<32xi32>, %inb: memref<32xi32>, %out: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %a = memref.load %ina[%t] : memref<32xi32>
    %b = memref.load %inb[%t] : memref<32xi32>
    %ra, %rb = warp.reduce %a, %b : i32, i32 combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a2, %a1 : i32
      %m = arith.muli %a2, %b1 : i32
      %b3 = arith.addi %m, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    %s = arith.addi %ra, %rb : i32
    memref.store %s, %out[%t] : memref<32xi32>
    gpu.return
  }
  // A 64-bit value travels in two words: (f64, i32) is 3 shuffles a step.
  // CHECK: f64_pair: shfl.sync.bfly.b32=15
  gpu.func @f64_pair(%in: memref<32xf64>, %out: memref<32xf64>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf64>
    %i = arith.index_cast %t : index to i32
    %m, %mi = warp.reduce %x, %i commutative : f64, i32 combine (%a: f64, %ai: i32, %b: f64, %bi: i32) {
      %gt = arith.cmpf ogt, %b, %a : f64
      %r = arith.select %gt, %b, %a : f64
      %ri = arith.select %gt, %bi, %ai : i32
      warp.yield %r, %ri : f64, i32
    }
    memref.store %m, %out[%t] : memref<32xf64>
    %it = arith.index_cast %mi : i32 to index
    memref.store %m, %out[%it] : memref<32xf64>
    gpu.return
  }
  // (f16, i16): both values share one 32-bit shuffle a step.
  // CHECK: argmax_f16: shfl.sync.bfly.b32=5
  gpu.func @argmax_f16(%in: memref<32xf16>, %out: memref<32xf16>, %outi: memref<32xi16>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf16>
    %i = arith.index_cast %t : index to i16
    %m, %mi = warp.reduce %x, %i : f16, i16 combine (%a: f16, %ai: i16, %b: f16, %bi: i16) {
      %gt = arith.cmpf ogt, %b, %a : f16
      %r = arith.select %gt, %b, %a : f16
      %ri = arith.select %gt, %bi, %ai : i16
      warp.yield %r, %ri : f16, i16
    }
    memref.store %m, %out[%t] : memref<32xf16>
    memref.store %mi, %outi[%t] : memref<32xi16>
    gpu.return
  }
  // Segmented sum by head flags, every lane: one ballot (the popc finds the
  // next head), a 5-step reverse Kogge-Stone (shfl.down) and one shfl.idx
  // from the segment's first lane.
  // CHECK: segmented_sum: add.rn.f32=5 popc.b32=1 shfl.sync.down.b32=5 shfl.sync.idx.b32=1 vote.sync.ballot.b32=1
  gpu.func @segmented_sum(%in: memref<32xf32>, %flags: memref<32xi32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %f = memref.load %flags[%t] : memref<32xi32>
    %c0 = arith.constant 0 : i32
    %h = arith.cmpi ne, %f, %c0 : i32
    %r = warp.reduce <add> %x heads %h : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
  // By tail flags, result in the segment's first lane: no broadcast.
  // CHECK: segmented_sum_tails_first: add.rn.f32=5 popc.b32=1 shfl.sync.down.b32=5 vote.sync.ballot.b32=1
  gpu.func @segmented_sum_tails_first(%in: memref<32xf32>, %flags: memref<32xi32>, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %f = memref.load %flags[%t] : memref<32xi32>
    %c0 = arith.constant 0 : i32
    %h = arith.cmpi ne, %f, %c0 : i32
    %r = warp.reduce <add> %x tails %h lanes = <first> : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
  // Online softmax (max, sum) pairs over a ragged warp: a shfl.down tree
  // over lanes 0..n-1 (2 x 5) and a broadcast of the pair (2).
  // CHECK: softmax_ragged: {{.*}}shfl.sync.down.b32=10 shfl.sync.idx.b32=2{{.*}}
  gpu.func @softmax_ragged(%in: memref<32xf32>, %n: i32, %out: memref<32xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %one = arith.constant 1.0 : f32
    %m, %s = warp.reduce %x, %one valid_lanes %n commutative : f32, f32 combine (%ma: f32, %sa: f32, %mb: f32, %sb: f32) {
      %mx = arith.maximumf %ma, %mb : f32
      %da = arith.subf %ma, %mx : f32
      %db = arith.subf %mb, %mx : f32
      %ea = math.exp %da : f32
      %eb = math.exp %db : f32
      %xa = arith.mulf %sa, %ea : f32
      %xb = arith.mulf %sb, %eb : f32
      %sum = arith.addf %xa, %xb : f32
      warp.yield %mx, %sum : f32, f32
    }
    %r = arith.divf %s, %m : f32
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
  // Scan of affine maps with an init, exclusive: 5 steps x 2 shfl.up, then
  // the shift by one lane (2).
  // CHECK: affine_scan: shfl.sync.up.b32=12
  gpu.func @affine_scan(%ina: memref<32xi32>, %inb: memref<32xi32>, %out: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %a = memref.load %ina[%t] : memref<32xi32>
    %b = memref.load %inb[%t] : memref<32xi32>
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : i32
    %ra, %rb = warp.scan %a, %b exclusive init %c1, %c0 : i32, i32 combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      %a3 = arith.muli %a2, %a1 : i32
      %m = arith.muli %a2, %b1 : i32
      %b3 = arith.addi %m, %b2 : i32
      warp.yield %a3, %b3 : i32, i32
    }
    %s = arith.addi %ra, %rb : i32
    memref.store %s, %out[%t] : memref<32xi32>
    gpu.return
  }
  // Under a run-time mask: the rank-order tree, one shfl.idx per value a
  // step and the broadcast from the cluster's first member.
  // CHECK: argmax_masked: popc.b32=3 shfl.sync.idx.b32=12
  gpu.func @argmax_masked(%in: memref<32xf32>, %mask: i32, %out: memref<32xf32>, %outi: memref<32xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<32xf32>
    %i = arith.index_cast %t : index to i32
    %m, %mi = warp.reduce %x, %i mask %mask commutative : f32, i32 combine (%a: f32, %ai: i32, %b: f32, %bi: i32) {
      %gt = arith.cmpf ogt, %b, %a : f32
      %r = arith.select %gt, %b, %a : f32
      %ri = arith.select %gt, %bi, %ai : i32
      warp.yield %r, %ri : f32, i32
    }
    memref.store %m, %out[%t] : memref<32xf32>
    memref.store %mi, %outi[%t] : memref<32xi32>
    gpu.return
  }
}
}
