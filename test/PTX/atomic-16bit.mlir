// PTX of warp.atomic_rmw on f16, bf16 and their pairs, and with a scope and
// an order, per chip; every PTX assembles with ptxas for its chip. f16 adds
// are native from sm_70 (atom.add.noftz.f16, .f16x2), bf16 from sm_90; a
// bf16 add below sm_90 is a compare-and-swap loop of atom.cas.b16 on the
// element alone (as CUDA's atomicAdd(__nv_bfloat16 *)), never of the 32-bit
// word around it. A bf16 add, a scope or order other than gpu and relaxed,
// and every pair, is inline PTX with its .sem and .scope (LLVM's atomicrmw
// drops both); the other defaults keep memref.atomic_rmw's plain atom
// (relaxed, gpu scope: CUDA's atomicAdd).
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_70 format=isa ptx-output=%t.sm70.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_80 format=isa ptx-output=%t.sm80.ptx" -o /dev/null
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=%t.sm90.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefixes=CHECK,SM70 --input-file=%t.sm70.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 --input-file=%t.sm80.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 --input-file=%t.sm90.ptx
// RUN: %if ptxas-sm70-ptx %{ %ptxas-sm70 %t.sm70.ptx -o %t.sm70.cubin %}
// RUN: %if ptxas-sm_80 %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas-sm_90 %{ %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // CHECK-LABEL: .entry add_f16(
  // CHECK: atom.global.add.noftz.f16
  // CHECK: ret;
  gpu.func @add_f16(%buf: memref<?xf16, 1>, %vals: memref<?xf16, 1>, %idx: memref<?xindex, 1>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %vals[%t] : memref<?xf16, 1>
    %i = memref.load %idx[%t] : memref<?xindex, 1>
    %o = warp.atomic_rmw <add> %v, %buf[%i] : f16, memref<?xf16, 1>
    memref.store %o, %vals[%t] : memref<?xf16, 1>
    gpu.return
  }

  // CHECK-LABEL: .entry add_bf16(
  // SM70-NOT: cas.b32
  // SM70: atom.relaxed.gpu.global.cas.b16
  // SM80-NOT: cas.b32
  // SM80: atom.relaxed.gpu.global.cas.b16
  // SM90: atom.relaxed.gpu.global.add.noftz.bf16
  // CHECK-NOT: cas.b32
  // CHECK: ret;
  gpu.func @add_bf16(%buf: memref<?xbf16, 1>, %vals: memref<?xbf16, 1>, %idx: memref<?xindex, 1>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %vals[%t] : memref<?xbf16, 1>
    %i = memref.load %idx[%t] : memref<?xindex, 1>
    %o = warp.atomic_rmw <add> %v, %buf[%i] : bf16, memref<?xbf16, 1>
    memref.store %o, %vals[%t] : memref<?xbf16, 1>
    gpu.return
  }

  // Generic addresses (no memory space): no state space in the atom. The
  // release and acquire halves of acq_rel: bar.warp.sync before and after.
  // CHECK-LABEL: .entry add_f16x2_acq_rel(
  // CHECK: bar.warp.sync
  // CHECK: atom.acq_rel.cta.add.noftz.f16x2 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
  // CHECK: bar.warp.sync
  // CHECK: ret;
  gpu.func @add_f16x2_acq_rel(%buf: memref<?xvector<2xf16>>, %vals: memref<?xvector<2xf16>>, %idx: memref<?xindex>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %vals[%t] : memref<?xvector<2xf16>>
    %i = memref.load %idx[%t] : memref<?xindex>
    %o = warp.atomic_rmw <add> %v, %buf[%i] scope <cta> ordering <acq_rel> : vector<2xf16>, memref<?xvector<2xf16>>
    memref.store %o, %vals[%t] : memref<?xvector<2xf16>>
    gpu.return
  }

  // CHECK-LABEL: .entry add_f16_sys(
  // CHECK-NOT: bar.warp.sync
  // CHECK: atom.relaxed.sys.global.add.noftz.f16 %rs{{[0-9]+}}, [%rd{{[0-9]+}}], %rs{{[0-9]+}};
  // CHECK-NOT: bar.warp.sync
  // CHECK: ret;
  gpu.func @add_f16_sys(%buf: memref<?xf16, 1>, %vals: memref<?xf16, 1>, %idx: memref<?xindex, 1>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %vals[%t] : memref<?xf16, 1>
    %i = memref.load %idx[%t] : memref<?xindex, 1>
    %o = warp.atomic_rmw <add> %v, %buf[%i] scope <sys> : f16, memref<?xf16, 1>
    memref.store %o, %vals[%t] : memref<?xf16, 1>
    gpu.return
  }

  // Every 32- and 64-bit kind takes a scope and an order too; workgroup
  // memory gives .shared.
  // CHECK-LABEL: .entry kinds_ordered(
  // CHECK: atom.acquire.gpu.global.max.s32
  // CHECK: atom.release.cta.shared.min.u64
  // CHECK: atom.relaxed.sys.global.exch.b32
  // CHECK: atom.acq_rel.gpu.global.add.f64
  // CHECK: ret;
  gpu.func @kinds_ordered(%a: memref<?xi32, 1>, %b: memref<?xf32, 1>, %c: memref<?xf64, 1>, %i: index, %v: i32, %w: i64, %x: f32, %y: f64) workgroup(%s: memref<32xi64, #gpu.address_space<workgroup>>) kernel {
    %0 = warp.atomic_rmw <maxsi> %v, %a[%i] ordering <acquire> : i32, memref<?xi32, 1>
    %1 = warp.atomic_rmw <minui> %w, %s[%i] scope <cta> ordering <release> : i64, memref<32xi64, #gpu.address_space<workgroup>>
    %2 = warp.atomic_rmw <exch> %x, %b[%i] scope <sys> : f32, memref<?xf32, 1>
    %3 = warp.atomic_rmw <add> %y, %c[%i] ordering <acq_rel> : f64, memref<?xf64, 1>
    memref.store %0, %a[%i] : memref<?xi32, 1>
    memref.store %1, %s[%i] : memref<32xi64, #gpu.address_space<workgroup>>
    memref.store %2, %b[%i] : memref<?xf32, 1>
    memref.store %3, %c[%i] : memref<?xf64, 1>
    gpu.return
  }
}
}
