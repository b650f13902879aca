#!/usr/bin/env python3
"""SASS of PTX files or cubins, on the GPU host or on a machine without a GPU.

    python3 disassemble.py FILE.ptx|FILE.cubin [...] [--function REGEX] [--histogram] [--arch sm_90]

With `cuobjdump` on PATH (the GPU host) its `-sass` listing. Without it, the
listing of an `nvdisasm` (the environment's WARP_NVDISASM, else one on
PATH) in cuobjdump's layout (a `Function : NAME` line before each
function), which the other SASS scripts here parse. The nvdisasm that a
machine without a CUDA driver can get (Debian 12's non-free
`nvidia-cuda-toolkit`, CUDA 11.8: `apt-get download nvidia-cuda-toolkit;
dpkg -x nvidia-cuda-toolkit_*.deb DIR`, then DIR/usr/bin/nvdisasm) is
older than the ptxas that made the cubin: it reads the ELF only after its
header is written in the older ABI (version 7, the chip in the flags'
low byte; the copy is patched, the cubin left as it is), and it leaves out
the instructions it cannot decode (some of sm_90's, e.g. the integer
min/max of sorting networks). Such a listing is lossy: `undecoded` counts
each function's missing slots (the gaps in its addresses), which
--histogram prints beside the counts.

PTX files are assembled by `ptxas -arch ARCH` first.
"""
import argparse
import collections
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
NVDISASM_FUNCTION = re.compile(r"^\.text\.(\S+):")
ADDRESS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")

# ELF64 header fields that CUDA 13's cubins write in a newer ABI.
_OSABI, _ABIVERSION, _FLAGS = 7, 8, 0x30
_CUDA_OSABI, _OLD_ABI, _NEW_ABI = 0x33, 7, 8
_ADDRESS_64 = 0x400


def _old_abi(cubin, out):
    """A copy of `cubin` whose ELF header an older nvdisasm reads."""
    data = bytearray(open(cubin, "rb").read())
    if data[:4] != b"\x7fELF":
        raise ValueError(f"{cubin}: not an ELF cubin (a fat binary needs cuobjdump)")
    if data[_ABIVERSION] == _NEW_ABI:
        sm = (struct.unpack_from("<I", data, _FLAGS)[0] >> 8) & 0xFF
        data[_OSABI], data[_ABIVERSION] = _CUDA_OSABI, _OLD_ABI
        struct.pack_into("<I", data, _FLAGS, sm | _ADDRESS_64 | (sm << 16))
    with open(out, "wb") as f:
        f.write(data)


def sass_text(binary):
    """The SASS listing of `binary` in cuobjdump's layout."""
    if shutil.which("cuobjdump"):
        return subprocess.run(["cuobjdump", "-sass", binary], capture_output=True, text=True,
                              check=True, timeout=300).stdout
    tool = os.environ.get("WARP_NVDISASM") or shutil.which("nvdisasm")
    if not tool:
        raise RuntimeError("neither cuobjdump nor nvdisasm (WARP_NVDISASM) is available")
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "old-abi.cubin")
        _old_abi(binary, copy)
        listing = subprocess.run([tool, "-c", copy], capture_output=True, text=True, check=True,
                                 timeout=300).stdout
    lines = []
    for line in listing.splitlines():
        match = NVDISASM_FUNCTION.match(line)
        lines.append(f"\tFunction : {match.group(1)}" if match else line)
    return "\n".join(lines) + "\n"


def functions(text):
    """{function: [(address, opcode with modifiers)]} of a listing."""
    result, current = {}, None
    for line in text.splitlines():
        match = FUNCTION.match(line)
        if match:
            current = result.setdefault(match.group(1), [])
            continue
        match = ADDRESS.search(line)
        if match and current is not None:
            current.append((int(match.group(1), 16), match.group(2)))
    return result


def undecoded(instructions):
    """The slots in a function's address range that the listing leaves out."""
    addresses = sorted(address for address, _ in instructions)
    if not addresses:
        return 0
    return (addresses[-1] - addresses[0]) // 16 + 1 - len(addresses)


def assemble(path, arch, tmp):
    """`path` itself, or for a .ptx file the cubin ptxas makes of it."""
    if not path.endswith(".ptx"):
        return path
    cubin = os.path.join(tmp, os.path.basename(path)[:-4] + ".cubin")
    subprocess.run(["ptxas", f"-arch={arch}", "-O3", path, "-o", cubin], check=True,
                   capture_output=True, timeout=300)
    return cubin


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--function", default=".", help="regex of the functions shown")
    parser.add_argument("--histogram", action="store_true",
                        help="per function: slots, undecoded slots and mnemonic counts")
    parser.add_argument("--arch", default="sm_90")
    args = parser.parse_args()
    wanted = re.compile(args.function)
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.files:
            text = sass_text(assemble(path, args.arch, tmp))
            if not args.histogram:
                keep = False
                for line in text.splitlines():
                    match = FUNCTION.match(line)
                    if match:
                        keep = bool(wanted.search(match.group(1)))
                    if keep:
                        print(line)
                continue
            for name, instructions in functions(text).items():
                if not wanted.search(name):
                    continue
                mix = collections.Counter(op.split(".")[0] for _, op in instructions)
                top = " ".join(f"{op}={count}" for op, count in mix.most_common())
                print(f"{name}: {len(instructions)} decoded, {undecoded(instructions)} undecoded; {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
