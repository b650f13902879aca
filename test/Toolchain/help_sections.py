"""Checks that `warp-opt --help` lists every pass that the tree's Passes.td
files define in warp's own section and in no other place.

Usage: help_sections.py HELP_TEXT PASSES_TD...
"""
import re
import sys

HEADING = "warp passes and pipelines:"


def entries(lines):
    """Names of the pass and pipeline entries among `lines`."""
    return {m.group(1) for line in lines
            if (m := re.match(r"      --([a-z0-9-]+)", line))}


def main():
    help_lines = open(sys.argv[1]).read().splitlines()
    defined = set()
    for td in sys.argv[2:]:
        defined |= set(re.findall(r'Pass<\s*"([a-z0-9-]+)"', open(td).read()))
    if not defined:
        sys.exit("no pass definitions found in " + " ".join(sys.argv[2:]))
    if HEADING not in help_lines:
        sys.exit("no section '" + HEADING + "' in the help")
    start = help_lines.index(HEADING)
    upstream, warp = entries(help_lines[:start]), entries(help_lines[start:])
    problems = [f"{name}: not in warp's section" for name in sorted(defined - warp)]
    problems += [f"{name}: in upstream's list" for name in sorted(defined & upstream)]
    problems += [f"{name}: in warp's section, not defined by warp"
                 for name in sorted(warp - defined)
                 if not name.startswith("warp-lower-to-")]
    if problems:
        sys.exit("\n".join(problems))
    print(f"{len(defined)} warp passes in their own section")


if __name__ == "__main__":
    main()
