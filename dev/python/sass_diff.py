"""Which kernels two builds compiled differently: SASS compared function by function, before any GPU time is spent.

Session 36 (runs 372-376) found the register-A forward's slow builds were concrete code: the consumers' loop or
epilogue compiled differently (run 374's build executed 26% more instructions) or a stack frame with loads in the
chunk loop. A change meant for one kernel that alters others shows up here first. Functions are matched by mangled
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
import subprocess
import sys

from sass_wgmma_hazard import find_cuobjdump

FUNC = re.compile(r"Function : (\S+)")
INS = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")


def sass_text(path, arch):
    if path.endswith(".sass"):
        return open(path).read()
    tool = find_cuobjdump()
    if tool is None:
        sys.exit("no cuobjdump: install the CUDA toolkit or `pip install nvidia-cuda-cuobjdump`")
    return subprocess.run([tool, "-sass", "-arch", arch, path], check=True, capture_output=True, text=True).stdout


def functions(text, drop_arg):
    """{normalized name: [instruction text without absolute addresses]}"""
    out, name = {}, None
    for line in text.splitlines():
        m = FUNC.search(line)
        if m:
            name = re.sub(r"_GLOBAL__N__[0-9a-f]+_\d+_(\w+?)_cu_[0-9a-f]{8}", r"NS_\1", m.group(1))
            if drop_arg:
                name = name.replace(drop_arg + "EEv", "EEv")
            out[name] = []
            continue
        m = INS.search(line)
        if m and name:
            out[name].append(re.sub(r"0x7f[0-9a-f]{8,}", "ADDR", m.group(1)))
    return out


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
            extra = ""
            if a.stack and tag != "missing":
                ins = new[n]
                local = sum(1 for s in ins if re.match(r"(@!?U?P\w+\s+)?(LDL|STL)\b", s))
                frame = 0  # the prologue's R1 -= frame: "VIADD R1, R1, 0xfffffff8" or "IADD3 R1, R1, -0x8, RZ"
                for s in ins[:8]:
                    m = re.match(r"(?:VIADD|IADD3) R1, R1, (-?)(0x[0-9a-f]+)", s)
                    if m:
                        v = int(m.group(2), 16)
                        frame = v if m.group(1) else (1 << 32) - v
                        break
                extra = f"  stack {frame} B, {local} LDL/STL"
            counts = f"{len(old[n])} -> {len(new[n])}" if tag == "changed" else str(len((old if tag == "missing" else new)[n]))
            print(f"  {tag:7s} {n[:150]}  ({counts} instructions){extra}")
    sys.exit(1 if changed or missing or added else 0)


if __name__ == "__main__":
    main()
