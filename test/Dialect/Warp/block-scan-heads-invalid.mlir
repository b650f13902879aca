// warp.block_scan's `heads`: an i1 per thread, or with items one per item;
// no init, prefix region or block totals beside them; the parser gives the
// heads their type.
// RUN: warp-opt %s -split-input-file -verify-diagnostics

gpu.module @m {
  gpu.func @k(%x: i32, %h: i1, %p: i32) kernel {
    // expected-error @+1 {{a segmented scan takes no init (each segment starts afresh)}}
    %r = warp.block_scan <add> %x exclusive heads %h init %p : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32, %h: i1) kernel {
    // expected-error @+1 {{a segmented scan returns no block totals}}
    %r, %t = warp.block_scan <add> %x heads %h : i32, i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32, %h: i1) kernel {
    // expected-error @+1 {{a segmented scan takes no prefix region}}
    %r = warp.block_scan <add> %x exclusive heads %h : i32 prefix(%t: i32) {
      warp.yield %t : i32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: vector<4xi32>, %h: vector<3xi1>) kernel {
    // expected-error @+1 {{heads must be 'vector<4xi1>' (one flag per item), got 'vector<3xi1>'}}
    %r = "warp.block_scan"(%x, %h) <{kind = #warp.kind<add>, items, operandSegmentSizes = array<i32: 1, 0, 1>}> ({}, {}) : (vector<4xi32>, vector<3xi1>) -> vector<4xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32, %h: vector<2xi1>) kernel {
    // expected-error @+1 {{heads must be 'i1' (one flag per thread), got 'vector<2xi1>'}}
    %r = "warp.block_scan"(%x, %h) <{kind = #warp.kind<add>, operandSegmentSizes = array<i32: 1, 0, 1>}> ({}, {}) : (i32, vector<2xi1>) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-note @+1 {{prior use here}}
  gpu.func @k(%x: i32, %h: i32) kernel {
    // expected-error @+1 {{use of value '%h' expects different type than prior uses: 'i1' vs 'i32'}}
    %r = warp.block_scan <add> %x heads %h : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: i32, %b: i32, %h: i1) kernel {
    // expected-error @+1 {{an exclusive scan with a combiner region needs an init}}
    %r:2 = warp.block_scan %a, %b exclusive heads %h : i32, i32
        combine (%a1: i32, %b1: i32, %a2: i32, %b2: i32) {
      warp.yield %a2, %b2 : i32, i32
    }
    gpu.return
  }
}
