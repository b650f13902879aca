#!/usr/bin/env python3
"""PTX modules compared across chips' bundles, all but their .version and
.target lines (build_bundle.py writes one module per family, named the
same for every chip).

    ptx_text.py new BUNDLE --after REF [REF ...]

prints the path of each module of BUNDLE whose text differs from the module
of the same name in every REF. gpu-suite.test assembles only those for a
newer chip: a module whose text ptxas already accepted for an older chip
(REF) assembles for a newer one too, whose PTX ISA is a superset.

    ptx_text.py unlike MODULE.ptx --after REF.ptx [REF.ptx ...] -o OUT.ptx

the same within one module (payload-matrix.test): writes MODULE without
each .entry that a REF with the same text before its first .entry has,
word for word; it prints how many entries it kept and left out."""
import argparse
import os
import re


def split_entries(text):
    """The text before the first .entry, and (name, text) of each .entry
    up to the next one."""
    head, *parts = re.split(r"^(?=\.visible \.entry )", text, flags=re.M)
    return head, [(re.match(r"\.visible \.entry (\w+)", p).group(1), p) for p in parts]


def comparable_preamble(head):
    """The text before the first .entry (declarations, .func bodies)
    without its .version and .target lines."""
    return re.sub(r"^\.(version|target) .*$", "", head, flags=re.M)


def comparable_entry(part):
    """An .entry's text but for the `// .globl` comment naming the next
    one, its branch labels without the function's number ($L__BB7_2 as
    $L__BB_2)."""
    return re.sub(r"\$L__BB\d+_", "$L__BB_", re.sub(r"^\s*// \.globl\s.*$", "", part, flags=re.M))


def ptx_entries(path):
    """A module's comparable preamble and its entries' comparable texts
    by name: what two chips' modules are compared by."""
    with open(path) as f:
        head, parts = split_entries(f.read())
    return comparable_preamble(head), {name: comparable_entry(p) for name, p in parts}


def modules(bundle):
    return sorted(name for name in os.listdir(bundle) if name.endswith(".ptx"))


def new_modules(bundle, references):
    """The modules of `bundle` that no reference bundle has the same."""
    for name in modules(bundle):
        ours = ptx_entries(os.path.join(bundle, name))
        if not any(os.path.exists(os.path.join(ref, name))
                   and ptx_entries(os.path.join(ref, name)) == ours for ref in references):
            yield os.path.join(bundle, name)


def unlike_entries(path, references):
    """MODULE's text without the entries some reference module (with the
    same preamble) has word for word, the entries kept and dropped."""
    with open(path) as f:
        head, parts = split_entries(f.read())
    preamble = comparable_preamble(head)
    seen = [entries for ref_preamble, entries in map(ptx_entries, references)
            if ref_preamble == preamble]
    kept = [p for name, p in parts
            if not any(entries.get(name) == comparable_entry(p) for entries in seen)]
    return head + "".join(kept), len(kept), len(parts) - len(kept)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="modules of BUNDLE unlike those of every REF")
    new.add_argument("bundle")
    new.add_argument("--after", nargs="+", required=True, metavar="REF")
    unlike = sub.add_parser("unlike", help="MODULE without the entries a REF has the same")
    unlike.add_argument("module")
    unlike.add_argument("--after", nargs="+", required=True, metavar="REF")
    unlike.add_argument("-o", dest="output", required=True)
    args = parser.parse_args()
    if args.command == "new":
        for path in new_modules(args.bundle, args.after):
            print(path)
        return
    text, kept, dropped = unlike_entries(args.module, args.after)
    with open(args.output, "w") as f:
        f.write(text)
    print(f"{kept} entries kept, {dropped} the same as in {' '.join(args.after)}")


if __name__ == "__main__":
    main()
