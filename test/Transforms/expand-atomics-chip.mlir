// What the target chip cannot do with warp.atomic_rmw: the bf16 pair and the
// cluster scope need sm_90 (PTX atom.add.noftz.bf16x2, .cluster); the
// diagnostic is at the op. A bf16 add, with any scope but cluster and any
// order, is warp.lane_atomic_rmw on every chip (below sm_90 a loop of
// atom.cas.b16, as CUDA's atomicAdd(__nv_bfloat16 *)), as the f16 pair is
// from sm_70.
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_80 --warp-expand-collectives -split-input-file -verify-diagnostics
// RUN: warp-opt %s --nvvm-attach-target=chip=sm_90 --warp-expand-collectives -split-input-file | FileCheck %s --check-prefix=SM90

// SM90-LABEL: func @bf16_pair
// SM90: warp.lane_atomic_rmw <add>
gpu.module @m {
func.func @bf16_pair(%v: vector<2xbf16>, %buf: memref<?xvector<2xbf16>>, %i: index) -> vector<2xbf16> {
  // expected-error @+1 {{'warp.atomic_rmw' op on 'vector<2xbf16>' needs sm_90 or newer (PTX atom.add.noftz.bf16x2); the target chip is sm_80}}
  %0 = warp.atomic_rmw <add> %v, %buf[%i] : vector<2xbf16>, memref<?xvector<2xbf16>>
  return %0 : vector<2xbf16>
}
}

// -----

// SM90-LABEL: func @cluster_scope
// SM90: warp.lane_atomic_rmw <add>
gpu.module @m {
func.func @cluster_scope(%v: i32, %buf: memref<?xi32>, %i: index) -> i32 {
  // expected-error @+1 {{'warp.atomic_rmw' op with scope <cluster> needs sm_90 or newer; the target chip is sm_80}}
  %0 = warp.atomic_rmw <add> %v, %buf[%i] scope <cluster> : i32, memref<?xi32>
  return %0 : i32
}
}

// -----

// Fine on sm_80: a bf16 exch, minnumf or maxnumf with any scope and order
// but cluster (a compare-and-swap loop of atom.cas.b16, sm_70 and newer).
// SM90-LABEL: func @bf16_cas
// SM90-COUNT-2: warp.lane_atomic_rmw
gpu.module @m {
func.func @bf16_cas(%v: bf16, %buf: memref<?xbf16>, %i: index) -> (bf16, bf16) {
  %0 = warp.atomic_rmw <exch> %v, %buf[%i] scope <sys> ordering <acq_rel> : bf16, memref<?xbf16>
  %1 = warp.atomic_rmw <maxnumf> %v, %buf[%i] ordering <acquire> : bf16, memref<?xbf16>
  return %0, %1 : bf16, bf16
}
}

// -----

// SM90-LABEL: func @cas_cluster
// SM90: warp.lane_atomic_rmw <exch>
gpu.module @m {
func.func @cas_cluster(%v: i16, %buf: memref<?xi16>, %i: index) -> i16 {
  // expected-error @+1 {{'warp.atomic_rmw' op with scope <cluster> needs sm_90 or newer; the target chip is sm_80}}
  %0 = warp.atomic_rmw <exch> %v, %buf[%i] scope <cluster> : i16, memref<?xi16>
  return %0 : i16
}
}

// -----

// Fine on sm_80: bf16 with the defaults or an order, the f16 pair with any
// scope.
// SM90-LABEL: func @fine
// SM90-COUNT-3: warp.lane_atomic_rmw <add>
gpu.module @m {
func.func @fine(%v: bf16, %buf: memref<?xbf16>, %w: vector<2xf16>, %pbuf: memref<?xvector<2xf16>>, %i: index) -> (bf16, bf16, vector<2xf16>) {
  %0 = warp.atomic_rmw <add> %v, %buf[%i] : bf16, memref<?xbf16>
  %1 = warp.atomic_rmw <add> %v, %buf[%i] ordering <release> : bf16, memref<?xbf16>
  %2 = warp.atomic_rmw <add> %w, %pbuf[%i] scope <sys> : vector<2xf16>, memref<?xvector<2xf16>>
  return %0, %1, %2 : bf16, bf16, vector<2xf16>
}
}
