"""Static check of the register-A wgmma hazard in SASS.

A register-A HGMMA reads its A fragment registers asynchronously: until a WARPGROUP.DEPBAR retires its group, no
instruction may write them (PTX ISA, wgmma.mma_async: "accessing the registers ... before wgmma.wait_group ... is
undefined"). ptxas does not always keep that rule across a loop back-edge: Session 27's RX race (runs 297-298) was
a tap's first fragment loads landing in the registers of the previous tap's last, still pending, MMA.

This walks each function's control-flow graph and tracks, per register, how many groups have been committed since
an HGMMA read it as A:
  HGMMA ... R_a, gdesc[..]      reads R_a .. R_a+3 (age 0: its group is still open)
  HGMMA ..., gsb0               closes the group: every age + 1
  WARPGROUP.DEPBAR.LE gsb0, N   at most N groups pending: registers of age > N are free again
At a join the smaller age wins (the later read). Any write to a tracked register is reported.

  python dev/python/sass_wgmma_hazard.py LIB_OR_OBJ [--arch sm_90a] [--filter SUBSTR] [-v]
Exit status 1 when a hazard is found. Needs cuobjdump and nvdisasm (the CUDA toolkit's, or pip's
nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm).
"""
import argparse
import os
import re
import glob
import shutil
import subprocess
import sys
import sysconfig

INS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
REG = re.compile(r"\bR(\d+)\b")
# Opcodes whose first operand is not a register they write.
NO_DEST = ("ST", "STS", "STG", "STL", "STSM", "RED", "BRA", "BRX", "EXIT", "RET", "CALL", "BAR", "BSYNC", "BSSY",
           "WARPSYNC", "NOP", "MEMBAR", "FENCE", "SYNCS", "UTMALDG", "UTMASTG", "UBLKCP", "UTMAPF", "WARPGROUP",
           "DEPBAR", "ERRBAR", "CCTL", "NANOSLEEP", "YIELD", "UCGABAR_ARV", "UCGABAR_WAIT", "ELECT", "ACQBULK",
           "ARRIVES", "REDUX", "UTMACCTL", "BPT", "KILL")


def dest_regs(op, operands):
    """Registers an instruction writes (its first operand, widened by the access size)."""
    base = op.split(".")[0]
    if base in NO_DEST or base.startswith("U") and base not in ("UMOV",):  # uniform datapath: UR registers only
        return set()
    if base == "SYNCS" or base == "HGMMA":
        return set()
    first = operands.split(",")[0].strip()
    m = re.fullmatch(r"R(\d+)", first)
    if not m:
        return set()
    r = int(m.group(1))
    width = 1
    if ".128" in op or (base == "LDSM" and op.endswith(".4")):
        width = 4
    elif ".64" in op or ".WIDE" in op or (base == "LDSM" and op.endswith(".2")) or base in ("DADD", "DMUL", "DFMA"):
        width = 2
    if base.startswith("F2F") and ".F64" in op.split(".")[1:2]:
        width = 2
    return set(range(r, r + width))


def parse(sass):
    """{function: [(addr, pred, op, operands)]} from cuobjdump -sass text."""
    funcs, cur = {}, None
    for line in sass.splitlines():
        if "Function :" in line:
            cur = line.split("Function :")[1].strip()
            funcs[cur] = []
            continue
        m = INS.search(line)
        if not m or cur is None:
            continue
        text = m.group(2)
        pred = ""
        if text.startswith("@"):
            pred, text = text.split(None, 1)
        op, _, operands = text.partition(" ")
        funcs[cur].append((int(m.group(1), 16), pred, op, operands))
    return funcs


def uses_register_a(ins):
    """Whether a function has a register-A HGMMA (its second operand a register, not a descriptor)."""
    return any(op.startswith("HGMMA") and re.match(r"\s*R\d+,\s*R\d+,", opr) for _, _, op, opr in ins)


def check(ins):
    """Hazards in one function: [(addr, text, registers written, {register: groups committed since})]."""
    if not uses_register_a(ins):
        return []
    idx = {a: i for i, (a, _, _, _) in enumerate(ins)}
    # Successors of each instruction.
    succ = []
    for i, (a, pred, op, opr) in enumerate(ins):
        s = []
        base = op.split(".")[0]
        if base in ("BRA",):
            t = re.search(r"0x([0-9a-f]+)\s*$", opr)
            if t and int(t.group(1), 16) in idx:
                s.append(idx[int(t.group(1), 16)])
            if pred and i + 1 < len(ins):
                s.append(i + 1)
        elif base in ("EXIT", "RET", "BRX", "KILL"):
            if pred and i + 1 < len(ins):
                s.append(i + 1)
        elif i + 1 < len(ins):
            s.append(i + 1)
        succ.append(s)
    cap = 8
    state = [None] * len(ins)  # dict reg -> age at entry
    state[0] = {}
    work = [0]
    hazards = {}
    while work:
        i = work.pop()
        st = dict(state[i])
        a, pred, op, opr = ins[i]
        base = op.split(".")[0]
        w = dest_regs(op, opr)
        hit = sorted(r for r in w if r in st)
        if hit:
            hazards[a] = (f"{pred + ' ' if pred else ''}{op} {opr}", hit, {r: st[r] for r in hit})
        if base == "CALL" and st:
            hazards[a] = (f"{op} {opr} (a call while A registers are pending)", sorted(st), {})
        if base == "HGMMA":
            ops = [x.strip() for x in opr.split(",")]
            if re.fullmatch(r"R\d+", ops[1]):
                r = int(ops[1][1:])
                for k in range(4):
                    st[r + k] = 0
            if ops[-1] == "gsb0":
                st = {r: min(g + 1, cap) for r, g in st.items()}
        elif base == "WARPGROUP" and op.startswith("WARPGROUP.DEPBAR"):
            n = int(opr.split(",")[1], 16)
            if not pred:
                st = {r: g for r, g in st.items() if g <= n}
        for j in succ[i]:
            old = state[j]
            if old is None:
                state[j] = st
                work.append(j)
                continue
            merged = dict(old)
            for r, g in st.items():
                merged[r] = min(g, merged.get(r, cap))
            if merged != old:
                state[j] = merged
                work.append(j)
    return [(a,) + hazards[a] for a in sorted(hazards)]


def find_cuobjdump():
    """cuobjdump on the PATH, in CUDA_HOME, or from pip's nvidia-cuda-cuobjdump; None if none."""
    found = shutil.which("cuobjdump")
    if found:
        return found
    cands = [os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "cuobjdump")]
    cands += glob.glob(os.path.join(sysconfig.get_paths()["purelib"], "nvidia", "cu*", "bin", "cuobjdump"))
    return next((c for c in cands if os.path.exists(c)), None)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("binary", help="a .so / .o / .cubin, or a .sass text file")
    p.add_argument("--arch", default="sm_90a")
    p.add_argument("--filter", default="", help="only functions whose mangled name contains this")
    p.add_argument("-v", action="store_true", help="every hazard, not the first 5 per function")
    args = p.parse_args()
    if args.binary.endswith(".sass"):
        sass = open(args.binary).read()
    else:
        tool = find_cuobjdump()
        if tool is None:
            sys.exit("no cuobjdump: install the CUDA toolkit or `pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm`")
        sass = subprocess.run([tool, "-sass", "-arch", args.arch, args.binary], check=True, capture_output=True,
                              text=True).stdout
    funcs = parse(sass)
    checked, bad = 0, 0
    for name, ins in funcs.items():
        if args.filter not in name:
            continue
        hz = check(ins)
        checked += uses_register_a(ins)
        if hz:
            bad += 1
            print(f"HAZARD in {name}")
            for a, text, regs, ages in hz[: (None if args.v else 5)]:
                print(f"  {a:#07x}  {text}   writes {', '.join(f'R{r}' for r in regs)} (pending, groups since: {ages})")
    print(f"{checked} functions with register-A HGMMA checked, {bad} with a hazard")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
