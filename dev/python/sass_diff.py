"""Which kernels two builds compiled differently: SASS compared function by function, before any GPU time is spent.

Session 36 (runs 372-377) found two slow builds of the register-A forward that a look at their code would have caught:
run 374's executed 26% more instructions, its epilogue recompiled and local-memory loads added; run 372's producer was
recompiled. A change meant for one kernel that alters others shows up here first. Functions are matched by mangled
name with the anonymous namespace's per-file hash removed, and with a trailing template argument equal to `--drop-arg`
dropped (a template argument appended with a default, as Session 36's KR = 128). Instructions are compared with
absolute addresses removed; register names are kept, so an allocation change counts as a difference.

  python dev/python/sass_diff.py OLD NEW [--arch sm_90a] [--filter SUBSTR] [--drop-arg Li128E] [--stack]

OLD / NEW: a .so / .o / .cubin, or a .sass text file (cuobjdump -sass output). Prints the counts of equal, changed,
missing and new functions, each changed one with its instruction counts, and with --stack each changed or new
function's stack frame and its LDL / STL count. Exit status 1 when any function differs.
"""
import argparse
import re
import sys

from sass_wgmma_hazard import parse, sass_text


def functions(text, drop_arg):
    """{normalized name: [(predicate, opcode, operands without absolute addresses)]}"""
    out = {}
    for name, ins in parse(text).items():
        name = re.sub(r"_GLOBAL__N__[0-9a-f]+_\d+_(\w+?)_cu_[0-9a-f]{8}", r"NS_\1", name)
        if drop_arg:
            name = name.replace(drop_arg + "EEv", "EEv")
        out[name] = [(pred, op, re.sub(r"0x7f[0-9a-f]{8,}", "ADDR", operands)) for _, pred, op, operands in ins]
    return out


def stack_frame(ins):
    """Bytes the prologue takes off R1 ("VIADD R1, R1, 0xfffffff8" or "IADD3 R1, R1, -0x8, RZ"), 0 for none."""
    for _, op, operands in ins[:8]:
        m = re.match(r"R1, R1, (-?)(0x[0-9a-f]+)", operands)
        if op in ("VIADD", "IADD3") and m:
            v = int(m.group(2), 16)
            return v if m.group(1) else (1 << 32) - v
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--arch", default="sm_90a")
    p.add_argument("--filter", default="", help="only functions whose name contains this")
    p.add_argument("--drop-arg", default="", help="a mangled template argument (e.g. Li128E) dropped from the end of names")
    p.add_argument("--stack", action="store_true", help="stack frame and LDL / STL count of changed and new functions")
    a = p.parse_args()
    old = functions(sass_text(a.old, a.arch), a.drop_arg)
    new = functions(sass_text(a.new, a.arch), a.drop_arg)
    names = [n for n in old if a.filter in n]
    changed = [n for n in names if n in new and old[n] != new[n]]
    missing = [n for n in names if n not in new]
    added = [n for n in new if a.filter in n and n not in old]
    print(f"{len(names) - len(changed) - len(missing)} equal, {len(changed)} changed, {len(missing)} missing, "
          f"{len(added)} new")
    for tag, group in (("changed", changed), ("missing", missing), ("new", added)):
        for n in group:
            counts = f"{len(old[n])} -> {len(new[n])}" if tag == "changed" else str(len((old if tag == "missing" else new)[n]))
            extra = ""
            if a.stack and tag != "missing":
                local = sum(op.split(".")[0] in ("LDL", "STL") for _, op, _ in new[n])
                extra = f"  stack {stack_frame(new[n])} B, {local} LDL/STL"
            print(f"  {tag:7s} {n[:150]}  ({counts} instructions){extra}")
    sys.exit(1 if changed or missing or added else 0)


if __name__ == "__main__":
    main()
