// Collectives in the two arms of a branch stay in their arms, all the way to
// PTX: lanes taking one arm must not execute the other arm's collective with
// them (an activemask would then report both arms' lanes). Region
// simplification merges identical blocks and LLVM's SimplifyCFG hoists and
// sinks identical instructions; neither may touch a collective. Arms are
// near-identical (other buffers) and byte-identical, at -O0 and -O3.
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa opt-level=0 ptx-output=%t.O0.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.O0.ptx
// RUN: warp-opt %s --warp-lower-to-ptx="chip=sm_90 format=isa opt-level=3 ptx-output=%t.O3.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.O3.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.O0.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.O3.ptx -o /dev/null %}

module attributes {gpu.container_module} {
gpu.module @kernels {
  // The warp-aggregated atomic: one leader per arm adds the arm's lane count.
  // CHECK-LABEL: .entry aggregated_atomics_near_identical(
  // CHECK-COUNT-2: activemask.b32
  // CHECK-NOT: activemask.b32
  gpu.func @aggregated_atomics_near_identical(%a: memref<?xi32>, %b: memref<?xi32>,
      %ca: memref<1xi32>, %cb: memref<1xi32>, %pred: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %pw = memref.load %pred[%tid] : memref<?xi32>
    %p = arith.cmpi ne, %pw, %z : i32
    scf.if %p {
      %m = warp.activemask : i32
      %n = math.ctpop %m : i32
      %lane = warp.lane_id : i32
      %first = math.cttz %m : i32
      %leader = arith.cmpi eq, %lane, %first : i32
      scf.if %leader {
        %old = memref.atomic_rmw addi %n, %ca[%c0] : (i32, memref<1xi32>) -> i32
      }
      memref.store %n, %a[%tid] : memref<?xi32>
    } else {
      %m = warp.activemask : i32
      %n = math.ctpop %m : i32
      %lane = warp.lane_id : i32
      %first = math.cttz %m : i32
      %leader = arith.cmpi eq, %lane, %first : i32
      scf.if %leader {
        %old = memref.atomic_rmw addi %n, %cb[%c0] : (i32, memref<1xi32>) -> i32
      }
      memref.store %n, %b[%tid] : memref<?xi32>
    }
    gpu.return
  }

  // CHECK-LABEL: .entry activemask_identical(
  // CHECK-COUNT-2: activemask.b32
  // CHECK-NOT: activemask.b32
  gpu.func @activemask_identical(%out: memref<?xi32>, %pred: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %z = arith.constant 0 : i32
    %pw = memref.load %pred[%tid] : memref<?xi32>
    %p = arith.cmpi ne, %pw, %z : i32
    scf.if %p {
      %m = warp.activemask : i32
      memref.store %m, %out[%tid] : memref<?xi32>
    } else {
      %m = warp.activemask : i32
      memref.store %m, %out[%tid] : memref<?xi32>
    }
    gpu.return
  }

  // broadcast_first (activemask + shuffle) and a vote in both arms.
  // CHECK-LABEL: .entry shuffle_vote_identical(
  // CHECK-COUNT-2: activemask.b32
  // CHECK-NOT: activemask.b32
  gpu.func @shuffle_vote_identical(%out: memref<?xi32>, %votes: memref<?xi32>, %pred: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %z = arith.constant 0 : i32
    %pw = memref.load %pred[%tid] : memref<?xi32>
    %p = arith.cmpi ne, %pw, %z : i32
    %x = arith.index_cast %tid : index to i32
    %q = arith.cmpi sgt, %x, %z : i32
    scf.if %p {
      %b = warp.broadcast_first %x : i32
      memref.store %b, %out[%tid] : memref<?xi32>
      %v = warp.ballot %q : i32
      memref.store %v, %votes[%tid] : memref<?xi32>
    } else {
      %b = warp.broadcast_first %x : i32
      memref.store %b, %out[%tid] : memref<?xi32>
      %v = warp.ballot %q : i32
      memref.store %v, %votes[%tid] : memref<?xi32>
    }
    gpu.return
  }

  // Plain shuffles and reductions (no activemask) in both arms.
  // CHECK-LABEL: .entry reduce_identical(
  // CHECK-COUNT-10: shfl.sync.bfly.b32
  // CHECK-NOT: shfl.sync
  gpu.func @reduce_identical(%out: memref<?xf32>, %pred: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %z = arith.constant 0 : i32
    %pw = memref.load %pred[%tid] : memref<?xi32>
    %p = arith.cmpi ne, %pw, %z : i32
    %xi = arith.index_cast %tid : index to i32
    %x = arith.sitofp %xi : i32 to f32
    scf.if %p {
      %s = warp.reduce <add> %x : f32
      memref.store %s, %out[%tid] : memref<?xf32>
    } else {
      %s = warp.reduce <add> %x : f32
      memref.store %s, %out[%tid] : memref<?xf32>
    }
    gpu.return
  }

  // CHECK-LABEL: .entry vote_redux_identical(
  // CHECK-COUNT-2: vote.sync.any.pred
  // CHECK-NOT: vote.sync
  gpu.func @vote_redux_identical(%out: memref<?xi32>, %pred: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %z = arith.constant 0 : i32
    %pw = memref.load %pred[%tid] : memref<?xi32>
    %p = arith.cmpi ne, %pw, %z : i32
    %x = arith.index_cast %tid : index to i32
    %q = arith.cmpi sgt, %x, %z : i32
    scf.if %p {
      %v = warp.vote <any> %q : i1
      %w = arith.extui %v : i1 to i32
      memref.store %w, %out[%tid] : memref<?xi32>
    } else {
      %v = warp.vote <any> %q : i1
      %w = arith.extui %v : i1 to i32
      memref.store %w, %out[%tid] : memref<?xi32>
    }
    gpu.return
  }

  // A scan step is inline PTX (shfl.sync with a predicated add), which LLVM
  // knows as convergent only from the call's attribute (set from the
  // warp.convergent mark at translation): one scan per arm.
  // CHECK-LABEL: .entry scan_identical(
  // CHECK-COUNT-2: shfl.sync.up.b32 r|p, %r{{[0-9]+}}, 1, 0, -1; @p add.s32
  // CHECK-NOT: shfl.sync.up.b32 r|p, %r{{[0-9]+}}, 1,
  gpu.func @scan_identical(%out: memref<?xi32>, %pred: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %z = arith.constant 0 : i32
    %pw = memref.load %pred[%tid] : memref<?xi32>
    %p = arith.cmpi ne, %pw, %z : i32
    %x = arith.index_cast %tid : index to i32
    scf.if %p {
      %s = warp.scan <add> %x : i32
      memref.store %s, %out[%tid] : memref<?xi32>
    } else {
      %s = warp.scan <add> %x : i32
      memref.store %s, %out[%tid] : memref<?xi32>
    }
    gpu.return
  }
}
}
