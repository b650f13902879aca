// Found by warp-fuzz (fifteenth session; its dictionary holds the words
// "LLVM fatal error:"): an attribute of an unregistered dialect whose text
// holds those words. The parser's error quotes the text, and the harness
// took any error containing them for an LLVM fatal error that
// warp-module-to-binary had recovered from (a false finding). Fixed: the
// harness and no_crash.py look for the words at the start of an error
// only, where warp-opt reports a real one. The input itself is a clean
// parse error, whose report quotes the line with the words.
// RUN: not warp-opt %s 2>&1 | FileCheck %s
// RUN: %python %S/../no_crash.py warp-opt %s
// CHECK: error: expected attribute value
// CHECK-NEXT: dl_spec<iLLVM fatal error: : i64>
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {dlti.dl_spec = #dlti.dl_spec<iLLVM fatal error: : i64>} {
    gpu.func @k(%a: memref<0xi32>) kernel {
      gpu.return
    }
  }
}
