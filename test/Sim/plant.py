"""Plants a known-wrong change into one kernel of a PTX module, for the
tests that prove the simulator's validation catches lowering bugs
(planted-bugs.test). Fails if the change does not apply, so a test can
never pass by planting nothing.

    plant.py IN.ptx OUT.ptx --kernel NAME hoist-activemask
    plant.py IN.ptx OUT.ptx --kernel NAME replace REGEX REPLACEMENT [--nth N]

hoist-activemask: moves the kernel's first `activemask.b32` from inside a
branch arm to before the branch that guards it (what a pass merging or
hoisting a collective across control flow would do).
replace: rewrites the first instruction of the kernel matching REGEX (the
N-th with --nth N).
"""
import argparse
import re
import sys


def kernel_span(lines, name):
    start = next((i for i, l in enumerate(lines) if re.search(r"\.entry\s+%s\b" % re.escape(name), l)), None)
    if start is None:
        sys.exit(f"plant.py: no kernel {name}")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("}"))
    return start, end


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--kernel", required=True)
    parser.add_argument("mutation", choices=["hoist-activemask", "replace"])
    parser.add_argument("args", nargs="*")
    parser.add_argument("--nth", type=int, default=1)
    args = parser.parse_args()
    lines = open(args.input).read().split("\n")
    start, end = kernel_span(lines, args.kernel)
    if args.mutation == "hoist-activemask":
        at = next((i for i in range(start, end) if "activemask.b32" in lines[i]), None)
        if at is None:
            sys.exit("plant.py: no activemask in the kernel")
        branch = next((i for i in range(at - 1, start, -1) if re.match(r"\s*@%p\d+ bra", lines[i])), None)
        if branch is None:
            sys.exit("plant.py: the activemask is not inside a branch arm")
        moved = lines.pop(at)
        lines.insert(branch, moved)
    else:
        if len(args.args) != 2:
            sys.exit("plant.py: replace takes REGEX REPLACEMENT")
        pattern, replacement = args.args
        found = [i for i in range(start, end) if re.search(pattern, lines[i])]
        at = found[args.nth - 1] if len(found) >= args.nth >= 1 else None
        if at is None:
            sys.exit(f"plant.py: nothing matches {pattern!r} in {args.kernel}")
        lines[at] = re.sub(pattern, replacement, lines[at], count=1)
    with open(args.output, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
