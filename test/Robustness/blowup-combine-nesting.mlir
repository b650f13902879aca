// A collective nested in the combine region of a collective is copied once
// per shuffle step of the outer one, so nesting multiplies the code: five
// levels of warp.reduce used to take seconds and twelve ran out of memory.
// The expansion now refuses a collective whose estimated expansion exceeds
// its budget (the larger of a fixed floor and a multiple of its size), with
// the estimate in the message.
// RUN: warp-opt %s --warp-expand-collectives -split-input-file -verify-diagnostics
// RUN: not warp-opt %s --warp-expand-collectives -split-input-file 2>/dev/null | FileCheck %s

// Five levels, one addf and one yield each (15 ops). With 5 steps per reduce
// and 4 ops per step besides the region, the innermost reduce becomes
// 1 + 5 * (2 + 4) = 31 ops, and each level out 1 + 5 * (2 + inner + 4):
// 186, 961, 4836, 24211, over the floor of 8192 and 64 x 15.
func.func @five(%x: f32) -> f32 {
  // expected-error @+1 {{'warp.reduce' op would expand to about 24211 operations from 15: the expansion copies the combine region once per shuffle step (5 here)}}
  %r = warp.reduce %x : f32 combine (%a1: f32, %b1: f32) {
    %s1 = arith.addf %a1, %b1 : f32
  // expected-note @+1 {{nested collective here}}
    %n1 = warp.reduce %s1 : f32 combine (%a2: f32, %b2: f32) {
      %s2 = arith.addf %a2, %b2 : f32
      %n2 = warp.reduce %s2 : f32 combine (%a3: f32, %b3: f32) {
        %s3 = arith.addf %a3, %b3 : f32
        %n3 = warp.reduce %s3 : f32 combine (%a4: f32, %b4: f32) {
          %s4 = arith.addf %a4, %b4 : f32
          %n4 = warp.reduce %s4 : f32 combine (%a5: f32, %b5: f32) {
            %s5 = arith.addf %a5, %b5 : f32
            warp.yield %s5 : f32
          }
          warp.yield %n4 : f32
        }
        warp.yield %n3 : f32
      }
      warp.yield %n2 : f32
    }
    warp.yield %n1 : f32
  }
  return %r : f32
}

// -----

// Three levels stay well within the budget (961 ops) and expand: 5 shuffles
// for the outer reduce, 5 x 5 for the 5 copies of the middle one and
// 25 x 5 for the 25 copies of the innermost one.
// CHECK-LABEL: func @three
// CHECK-NOT: warp.reduce
// CHECK-COUNT-155: warp.shuffle
// CHECK-NOT: warp.shuffle
// CHECK: return
func.func @three(%x: f32) -> f32 {
  %r = warp.reduce %x : f32 combine (%a1: f32, %b1: f32) {
    %s1 = arith.addf %a1, %b1 : f32
    %n1 = warp.reduce %s1 : f32 combine (%a2: f32, %b2: f32) {
      %s2 = arith.addf %a2, %b2 : f32
      %n2 = warp.reduce %s2 : f32 combine (%a3: f32, %b3: f32) {
        %s3 = arith.addf %a3, %b3 : f32
        warp.yield %s3 : f32
      }
      warp.yield %n2 : f32
    }
    warp.yield %n1 : f32
  }
  return %r : f32
}

// -----

// Twelve levels: the first op that exceeds the budget, in the walk from the
// innermost out, is the one that holds five levels (the eighth from the top).
func.func @twelve(%x: f32) -> f32 {
  %r = warp.reduce %x : f32 combine (%a1: f32, %b1: f32) {
    %s1 = arith.addf %a1, %b1 : f32
    %n1 = warp.reduce %s1 : f32 combine (%a2: f32, %b2: f32) {
      %s2 = arith.addf %a2, %b2 : f32
      %n2 = warp.reduce %s2 : f32 combine (%a3: f32, %b3: f32) {
        %s3 = arith.addf %a3, %b3 : f32
        %n3 = warp.reduce %s3 : f32 combine (%a4: f32, %b4: f32) {
          %s4 = arith.addf %a4, %b4 : f32
          %n4 = warp.reduce %s4 : f32 combine (%a5: f32, %b5: f32) {
            %s5 = arith.addf %a5, %b5 : f32
            %n5 = warp.reduce %s5 : f32 combine (%a6: f32, %b6: f32) {
              %s6 = arith.addf %a6, %b6 : f32
              %n6 = warp.reduce %s6 : f32 combine (%a7: f32, %b7: f32) {
                %s7 = arith.addf %a7, %b7 : f32
  // expected-error @+1 {{'warp.reduce' op would expand to about 24211 operations from 15: the expansion copies the combine region once per shuffle step (5 here)}}
                %n7 = warp.reduce %s7 : f32 combine (%a8: f32, %b8: f32) {
                  %s8 = arith.addf %a8, %b8 : f32
  // expected-note @+1 {{nested collective here}}
                  %n8 = warp.reduce %s8 : f32 combine (%a9: f32, %b9: f32) {
                    %s9 = arith.addf %a9, %b9 : f32
                    %n9 = warp.reduce %s9 : f32 combine (%a10: f32, %b10: f32) {
                      %s10 = arith.addf %a10, %b10 : f32
                      %n10 = warp.reduce %s10 : f32 combine (%a11: f32, %b11: f32) {
                        %s11 = arith.addf %a11, %b11 : f32
                        %n11 = warp.reduce %s11 : f32 combine (%a12: f32, %b12: f32) {
                          %s12 = arith.addf %a12, %b12 : f32
                          warp.yield %s12 : f32
                        }
                        warp.yield %n11 : f32
                      }
                      warp.yield %n10 : f32
                    }
                    warp.yield %n9 : f32
                  }
                  warp.yield %n8 : f32
                }
                warp.yield %n7 : f32
              }
              warp.yield %n6 : f32
            }
            warp.yield %n5 : f32
          }
          warp.yield %n4 : f32
        }
        warp.yield %n3 : f32
      }
      warp.yield %n2 : f32
    }
    warp.yield %n1 : f32
  }
  return %r : f32
}

// -----

// Scans copy the region once per step too (5 for the default width of 32,
// no init): the same figures.
func.func @scan_five(%x: f32) -> f32 {
  // expected-error @+1 {{'warp.scan' op would expand to about 24211 operations from 15: the expansion copies the combine region once per shuffle step (5 here)}}
  %r = warp.scan %x : f32 combine (%a1: f32, %b1: f32) {
    %s1 = arith.addf %a1, %b1 : f32
  // expected-note @+1 {{nested collective here}}
    %n1 = warp.scan %s1 : f32 combine (%a2: f32, %b2: f32) {
      %s2 = arith.addf %a2, %b2 : f32
      %n2 = warp.scan %s2 : f32 combine (%a3: f32, %b3: f32) {
        %s3 = arith.addf %a3, %b3 : f32
        %n3 = warp.scan %s3 : f32 combine (%a4: f32, %b4: f32) {
          %s4 = arith.addf %a4, %b4 : f32
          %n4 = warp.scan %s4 : f32 combine (%a5: f32, %b5: f32) {
            %s5 = arith.addf %a5, %b5 : f32
            warp.yield %s5 : f32
          }
          warp.yield %n4 : f32
        }
        warp.yield %n3 : f32
      }
      warp.yield %n2 : f32
    }
    warp.yield %n1 : f32
  }
  return %r : f32
}
