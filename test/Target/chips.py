"""Lowers one kernel with every kind of warp lowering (shuffles, votes,
matches, activemask, integer and f32 reductions with the automatic strategy,
scans) for every chip LLVM's NVPTX backend knows from sm_70 on, and assembles
the PTX with ptxas where this CUDA targets the chip. The chip list is the one
warp-opt prints for an unknown chip, so the test follows the backend.

    python3 chips.py WARP_OPT OUTDIR [PTXAS]

Prints "chips: N lowered, M assembled" and exits non-zero on any failure.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from probes import ptxas_accepts  # noqa: E402

KERNEL = """
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @every_lowering(%fin: memref<?xf32>, %iin: memref<?xi32>,
                           %fout: memref<?xf32>, %iout: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %f = memref.load %fin[%t] : memref<?xf32>
    %i = memref.load %iin[%t] : memref<?xi32>
    %c1 = arith.constant 1 : i32
    %p = arith.cmpi sgt, %i, %c1 : i32
    %s, %v = warp.shuffle <up> %f, %c1 width 16 : f32
    %mx = warp.reduce <maxnumf> %s : f32
    %sum = warp.reduce <add> %i : i32
    %scan = warp.scan <add> %mx exclusive : f32
    %b = warp.ballot %p : i32
    %any = warp.vote <any> %v : i1
    %m = warp.match_any %f : f32
    %a = warp.activemask : i32
    %bf = warp.broadcast_first %sum : i32
    %x1 = arith.addi %b, %m : i32
    %x2 = arith.addi %x1, %a : i32
    %x3 = arith.addi %x2, %bf : i32
    %anyi = arith.extui %any : i1 to i32
    %x4 = arith.addi %x3, %anyi : i32
    memref.store %scan, %fout[%t] : memref<?xf32>
    memref.store %x4, %iout[%t] : memref<?xi32>
    gpu.return
  }
}
}
"""


def known_chips(warp_opt):
    """The chips warp-opt accepts, from its diagnostic for an unknown one."""
    result = subprocess.run([warp_opt, "-", "--warp-lower-to-ptx=chip=sm_0"],
                            input="", capture_output=True, text=True)
    match = re.search(r"sm_70 or newer \(([^)]*)\)", result.stderr)
    if result.returncode == 0 or not match:
        sys.exit("warp-opt accepted chip sm_0 or printed no chip list:\n" + result.stderr)
    return [c.strip() for c in match.group(1).split(",")]


def main():
    warp_opt, out = sys.argv[1], sys.argv[2]
    ptxas = sys.argv[3] if len(sys.argv) > 3 else None
    os.makedirs(out, exist_ok=True)
    src = os.path.join(out, "kernel.mlir")
    with open(src, "w") as f:
        f.write(KERNEL)
    chips = known_chips(warp_opt)
    failures, lowered, assembled = [], 0, 0
    for chip in chips:
        ptx = os.path.join(out, chip + ".ptx")
        run = subprocess.run([warp_opt, src, "-o", os.devnull,
                              f"--warp-lower-to-ptx=chip={chip} format=isa ptx-output={ptx}"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"{chip}: warp-opt exit {run.returncode}: {run.stderr.strip()[:300]}")
            continue
        lowered += 1
        if ptxas and ptxas_accepts(ptxas, chip):
            asm = subprocess.run([ptxas, f"-arch={chip}", ptx, "-o", ptx + ".cubin"],
                                 capture_output=True, text=True)
            if asm.returncode != 0:
                failures.append(f"{chip}: ptxas: {asm.stderr.strip()[:300]}")
            else:
                assembled += 1
    for failure in failures:
        print("FAIL", failure)
    print(f"chips: {lowered} lowered, {assembled} assembled, of {len(chips)}: {' '.join(chips)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
