"""Checks a page that maps other libraries' collectives to warp ops (such as
docs/CUB.md) against the dialect's generated reference: every `warp.<op>`
the page names is an op of the dialect, and every op of the dialect is on
the page (a new op takes its row). Prints what does not hold and exits 1.

    check_op_table.py PAGE WARPOPS_MD
"""
import re
import sys

OP = re.compile(r"`warp\.([a-z_]+)")
HEADING = re.compile(r"^### `warp\.([a-z_]+)`", re.M)


def main():
    page, reference = (open(p).read() for p in sys.argv[1:3])
    named = set(OP.findall(page))
    ops = set(HEADING.findall(reference))
    problems = [f"names warp.{op}, which is not an op" for op in sorted(named - ops)]
    problems += [f"has no row naming warp.{op}" for op in sorted(ops - named)]
    for problem in problems:
        print(f"{sys.argv[1]}: {problem}")
    print(f"{len(named & ops)} of {len(ops)} ops named, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
