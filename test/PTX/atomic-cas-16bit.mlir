// PTX of warp.atomic_rmw <exch> on i16, f16 and bf16 and <minnumf>,
// <maxnumf> on f16 and bf16, per chip: PTX has no atom.exch.b16 (nor a
// scalar 16-bit float min/max), so the group's atomic is a compare-and-swap
// loop of atom.cas.b16 (sm_70 and newer) with the op's .sem and .scope and
// the state space of the pointer, the same on every chip, on the element
// alone (no 32-bit access to its word). Every PTX assembles with ptxas for
// its chip (the sm_70 PTX for sm_75 where ptxas has no sm_70: %ptxas-sm70,
// payload-matrix.test).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefixes=CHECK,SM70 --input-file=%t.sm70.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 --input-file=%t.sm80.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas-accepts -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas-accepts -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

// A relaxed load for the first guess, then the loop: the CAS and a branch
// back while the bits it found differ from the guess.
// CHECK-LABEL: .entry exch_f16(
// CHECK-NOT: {{atom|relaxed}}.{{.*}}b32
// CHECK: ld.relaxed.sys.global.b16 [[GUESS:%rs[0-9]+]], {{\[}}[[P:%rd[0-9]+]]];
// CHECK-NEXT: [[LOOP:\$L__BB[0-9_]+]]:
// CHECK: atom.relaxed.gpu.global.cas.b16 {{%rs[0-9]+}}, {{\[}}[[P]]], {{%rs[0-9]+}}, {{%rs[0-9]+}};
// CHECK: @{{%p[0-9]+}} bra [[LOOP]];
// CHECK-NOT: atom.
// CHECK: ret;

// CHECK-LABEL: .entry exch_ordered(
// CHECK: atom.acq_rel.cta.shared.cas.b16
// CHECK: atom.release.sys.cas.b16
// CHECK-NOT: atom.
// CHECK: ret;

// The min/max of the bits it found and the value inside the loop.
// CHECK-LABEL: .entry minmax(
// CHECK: ld.relaxed.sys.global.b16
// CHECK-NEXT: [[MIN:\$L__BB[0-9_]+]]:
// SM70: min.f32
// SM80: min.f16
// CHECK: atom.relaxed.gpu.global.cas.b16
// CHECK: @{{%p[0-9]+}} bra [[MIN]];
// CHECK: ld.relaxed.sys.global.b16
// CHECK-NEXT: [[MAX:\$L__BB[0-9_]+]]:
// SM70: max.f32
// SM80: max.bf16
// CHECK: atom.acquire.gpu.global.cas.b16
// CHECK: @{{%p[0-9]+}} bra [[MAX]];
// CHECK-NOT: atom.
// CHECK: ret;
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @exch_f16(%buf: memref<?xf16, 1>, %vals: memref<?xf16, 1>, %idx: memref<?xindex, 1>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %vals[%t] : memref<?xf16, 1>
    %i = memref.load %idx[%t] : memref<?xindex, 1>
    %o = warp.atomic_rmw <exch> %v, %buf[%i] : f16, memref<?xf16, 1>
    memref.store %o, %vals[%t] : memref<?xf16, 1>
    gpu.return
  }

  // Workgroup memory gives .shared; generic addresses no state space.
  gpu.func @exch_ordered(%a: memref<?xbf16>, %i: index, %v: i16, %w: bf16) workgroup(%s: memref<64xi16, #gpu.address_space<workgroup>>) kernel {
    %0 = warp.atomic_rmw <exch> %v, %s[%i] scope <cta> ordering <acq_rel> : i16, memref<64xi16, #gpu.address_space<workgroup>>
    %1 = warp.atomic_rmw <exch> %w, %a[%i] scope <sys> ordering <release> : bf16, memref<?xbf16>
    memref.store %0, %s[%i] : memref<64xi16, #gpu.address_space<workgroup>>
    memref.store %1, %a[%i] : memref<?xbf16>
    gpu.return
  }

  // The min/max of the half it found and the value inside the loop.
  gpu.func @minmax(%a: memref<?xf16, 1>, %b: memref<?xbf16, 1>, %i: index, %v: f16, %w: bf16) kernel {
    %0 = warp.atomic_rmw <minnumf> %v, %a[%i] : f16, memref<?xf16, 1>
    %1 = warp.atomic_rmw <maxnumf> %w, %b[%i] ordering <acquire> : bf16, memref<?xbf16, 1>
    memref.store %0, %a[%i] : memref<?xf16, 1>
    memref.store %1, %b[%i] : memref<?xbf16, 1>
    gpu.return
  }
}
}
