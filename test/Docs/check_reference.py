"""Fails while the committed reference (docs/reference) differs from the one
the build generates from ODS (build/docs/WarpDialect, the add_mlir_doc
targets): same file names, same bytes. Prints the command that refreshes it
and the first lines that differ.

    check_reference.py GENERATED_DIR COMMITTED_DIR
"""
import difflib
import sys
from pathlib import Path

REFRESH = "cmake --build build --target warp-update-docs"


def main(generated: Path, committed: Path) -> int:
    made = {p.name for p in generated.glob("*.md")} if generated.is_dir() else set()
    kept = {p.name for p in committed.glob("*.md")} if committed.is_dir() else set()
    if not made:
        print(f"no generated reference in {generated}: build the warp-docs target")
        return 1
    problems = []
    for name in sorted(made - kept):
        problems.append(f"{name}: generated, not committed")
    for name in sorted(kept - made):
        problems.append(f"{name}: committed, no longer generated")
    for name in sorted(made & kept):
        new = (generated / name).read_text().splitlines(keepends=True)
        old = (committed / name).read_text().splitlines(keepends=True)
        if new != old:
            diff = list(difflib.unified_diff(old, new, f"docs/reference/{name}",
                                             f"generated/{name}", n=1))
            problems.append(f"{name}: differs\n" + "".join(diff[:40]).rstrip("\n"))
    if not problems:
        print(f"docs/reference is current ({len(made)} files)")
        return 0
    print(f"docs/reference is stale: run {REFRESH}")
    for problem in problems:
        print("  " + problem.replace("\n", "\n    "))
    return 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
