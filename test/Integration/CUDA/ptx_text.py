#!/usr/bin/env python3
"""PTX modules compared across chips' bundles, all but their .version and
.target lines (build_bundle.py writes one module per family, named the
same for every chip).

    ptx_text.py new BUNDLE --after REF [REF ...]

prints the path of each module of BUNDLE whose text differs from the module
of the same name in every REF. gpu-suite.test assembles only those for a
newer chip: a module whose text ptxas already accepted for an older chip
(REF) assembles for a newer one too, whose PTX ISA is a superset."""
import argparse
import os
import re


def ptx_entries(path):
    """The text before the first .entry without its .version and .target
    lines (declarations, .func bodies), and each .entry with its text up to
    the next one."""
    with open(path) as f:
        text = f.read()
    preamble, *parts = re.split(r"^(?=\.visible \.entry )", text, flags=re.M)
    preamble = re.sub(r"^\.(version|target) .*$", "", preamble, flags=re.M)
    return preamble, {re.match(r"\.visible \.entry (\w+)", p).group(1): p for p in parts}


def modules(bundle):
    return sorted(name for name in os.listdir(bundle) if name.endswith(".ptx"))


def new_modules(bundle, references):
    """The modules of `bundle` that no reference bundle has the same."""
    for name in modules(bundle):
        ours = ptx_entries(os.path.join(bundle, name))
        if not any(os.path.exists(os.path.join(ref, name))
                   and ptx_entries(os.path.join(ref, name)) == ours for ref in references):
            yield os.path.join(bundle, name)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="modules of BUNDLE unlike those of every REF")
    new.add_argument("bundle")
    new.add_argument("--after", nargs="+", required=True, metavar="REF")
    args = parser.parse_args()
    for path in new_modules(args.bundle, args.after):
        print(path)


if __name__ == "__main__":
    main()
