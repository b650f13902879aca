"""Checks a markdown page against the repository: every fenced block after a
`<!-- quote: PATH -->` line is a run of consecutive lines of PATH (relative
to the repository root), and every relative link names a file or folder
that exists. Prints what does not hold and exits 1.

    check_quotes.py PAGE REPOSITORY_ROOT
"""
import re
import sys
from pathlib import Path

QUOTE = re.compile(r"<!-- quote: (\S+) -->")
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


def quoted_blocks(lines):
    """(line number, path, block lines) of every quote marker."""
    for n, line in enumerate(lines):
        marker = QUOTE.fullmatch(line.strip())
        if not marker:
            continue
        start = n + 1
        if start >= len(lines) or not lines[start].startswith("```"):
            yield n + 1, marker.group(1), None
            continue
        end = next((m for m in range(start + 1, len(lines)) if lines[m].startswith("```")), None)
        yield n + 1, marker.group(1), None if end is None else lines[start + 1:end]


def contains_run(text_lines, block):
    return any(text_lines[i:i + len(block)] == block
               for i in range(len(text_lines) - len(block) + 1))


def main(page: Path, root: Path) -> int:
    lines = page.read_text().splitlines()
    problems = []
    count = 0
    for at, path, block in quoted_blocks(lines):
        source = root / path
        if block is None:
            problems.append(f"{page.name}:{at}: a quote marker without a fenced block after it")
        elif not source.is_file():
            problems.append(f"{page.name}:{at}: quotes {path}, which does not exist")
        elif not contains_run([l.rstrip() for l in source.read_text().splitlines()],
                              [l.rstrip() for l in block]):
            problems.append(f"{page.name}:{at}: the block is no longer in {path} as it stands")
        count += 1
    for n, line in enumerate(lines, 1):
        for link in LINK.finditer(line):
            target = link.group(1)
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                problems.append(f"{page.name}:{n}: link to {target}, which does not exist")
    for problem in problems:
        print(problem)
    if not problems:
        print(f"{page.name}: {count} quotes and every link current")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
