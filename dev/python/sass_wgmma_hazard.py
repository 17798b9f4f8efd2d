"""Static check of the wgmma register hazards in SASS.

A wgmma (HGMMA) runs asynchronously: until a WARPGROUP.DEPBAR retires its group it reads its A fragment registers
(register-A form) and reads and writes its accumulators, and no other instruction may touch them (PTX ISA,
wgmma.mma_async: "accessing the accumulator register or the input register containing fragment of matrix A ...
without first performing a wgmma.wait_group ... is undefined behavior"). ptxas does not always keep that rule across
a loop back-edge: Session 27's RX race (runs 297-298) was a tap's first fragment loads landing in the registers of the
previous tap's last, still pending, MMA, and Session 28 found the same between two 16-bit ldmatrix taps.

This walks each function's control-flow graph and tracks, per register, how many groups have been committed since
an HGMMA read it as A or used it as an accumulator:
  HGMMA.64xN.. R_d, R_a, gdesc[..]   reads R_a .. R_a+3, accumulates in R_d .. R_d+N/2-1 (age 0: group still open)
  HGMMA ..., gsb0                    closes the group: every age + 1
  WARPGROUP.DEPBAR.LE gsb0, N        at most N groups pending: registers of age > N are free again
At a join the smaller age wins (the later use). Reported: any write to a pending A register, any other instruction
reading or writing a pending accumulator.

  python dev/python/sass_wgmma_hazard.py LIB_OR_OBJ [--arch sm_90a] [--filter SUBSTR] [-v] [--allow-ldsm-taps]
Exit status 1 when a hazard is found. Needs cuobjdump and nvdisasm (the CUDA toolkit's, or pip's
nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm).
"""
import argparse
import os
import glob
import re
import shutil
import subprocess
import sys
import sysconfig

INS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
REG = re.compile(r"\bR(\d+)\b")
# Opcodes whose first operand is not a register they write (HGMMA: its accumulators are tracked on their own).
NO_DEST = ("ST", "STS", "STG", "STL", "STSM", "RED", "BRA", "BRX", "EXIT", "RET", "CALL", "BAR", "BSYNC", "BSSY",
           "WARPSYNC", "NOP", "MEMBAR", "FENCE", "SYNCS", "UTMALDG", "UTMASTG", "UBLKCP", "UTMAPF", "WARPGROUP",
           "DEPBAR", "ERRBAR", "CCTL", "NANOSLEEP", "YIELD", "UCGABAR_ARV", "UCGABAR_WAIT", "ELECT", "ACQBULK",
           "ARRIVES", "REDUX", "UTMACCTL", "BPT", "KILL", "HGMMA")


def dest_regs(op, operands):
    """Registers an instruction writes (its first operand, widened by the access size; UR destinations are not R)."""
    parts = op.split(".")
    base = parts[0]
    m = re.fullmatch(r"R(\d+)", operands.split(",")[0].strip())
    if base in NO_DEST or not m:
        return set()
    r = int(m.group(1))
    width = 1
    if ".128" in op or (base == "LDSM" and op.endswith(".4")):
        width = 4
    elif (".64" in op or ".WIDE" in op or (base == "LDSM" and op.endswith(".2")) or base in ("DADD", "DMUL", "DFMA")
          or (base == "F2F" and parts[1:2] == ["F64"])):
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


def uses_wgmma(ins):
    """Whether a function issues wgmma (HGMMA) at all."""
    return any(op.startswith("HGMMA") for _, _, op, _ in ins)


def uses_register_a(ins):
    """Whether a function has a register-A HGMMA (its second operand a register, not a descriptor)."""
    return any(op.startswith("HGMMA") and re.match(r"\s*R\d+,\s*R\d+,", opr) for _, _, op, opr in ins)


def _successors(ins):
    """Indices each instruction may pass control to."""
    idx = {a: i for i, (a, _, _, _) in enumerate(ins)}
    succ = []
    for i, (a, pred, op, opr) in enumerate(ins):
        s = []
        base = op.split(".")[0]
        if base == "BRA":
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
    return succ


def _blocks(ins, succ):
    """Basic block number of each instruction."""
    leader = [False] * len(ins)
    if ins:
        leader[0] = True
    for i, s in enumerate(succ):
        if s != [i + 1]:
            for j in s:
                leader[j] = True
            if i + 1 < len(ins):
                leader[i + 1] = True
    block, b = [], -1
    for i in range(len(ins)):
        b += leader[i]
        block.append(b)
    return block


def check(ins):
    """Hazards in one function: [(addr, text, registers written, {register: groups committed since}, kind)].

    kind "ldsm_taps": a write to A registers where the write and every pending MMA it meets sit in basic blocks that
    load with ldmatrix, i.e. an ldmatrix tap meeting the previous ldmatrix tap's MMA (fwd_wgmma_rs_kernel: run_rs
    never runs two in a row); "accumulator": a pending MMA's accumulator touched; "other": any other A write."""
    if not uses_wgmma(ins):
        return []
    succ = _successors(ins)
    block = _blocks(ins, succ)
    ldsm_blocks = {block[i] for i, (_, _, op, _) in enumerate(ins) if op.startswith("LDSM")}
    cap = 8
    # state: register -> (groups committed since it was read, the HGMMAs (indices) that read it)
    state = [None] * len(ins)  # per instruction at entry: (A registers, accumulator registers -> groups since)
    state[0] = ({}, {})
    work = [0]
    hazards = {}
    while work:
        i = work.pop()
        st, acc = dict(state[i][0]), dict(state[i][1])
        a, pred, op, opr = ins[i]
        base = op.split(".")[0]
        if base not in ("HGMMA", "WARPGROUP"):
            # A pending MMA's accumulators: no other instruction may read or write them before the wait either.
            touched = {int(x) for x in REG.findall(opr)} | dest_regs(op, opr)
            acc_hit = sorted(r for r in touched if r in acc)
            if acc_hit:
                hazards[a] = (f"{pred + ' ' if pred else ''}{op} {opr}", acc_hit, {r: acc[r] for r in acc_hit},
                              "accumulator")
        hit = sorted(r for r in dest_regs(op, opr) if r in st)
        if hit:
            origins = set().union(*(st[r][1] for r in hit))
            kind = ("ldsm_taps" if block[i] in ldsm_blocks and all(block[o] in ldsm_blocks for o in origins)
                    else "other")
            hazards[a] = (f"{pred + ' ' if pred else ''}{op} {opr}", hit, {r: st[r][0] for r in hit}, kind)
        if base == "CALL" and st:
            hazards[a] = (f"{op} {opr} (a call while A registers are pending)", sorted(st), {}, "other")
        if base == "HGMMA":
            ops = [x.strip() for x in opr.split(",")]
            if re.fullmatch(r"R\d+", ops[1]):
                r = int(ops[1][1:])
                for k in range(4):
                    st[r + k] = (0, frozenset([i]))
            shape = re.match(r"HGMMA\.64x(\d+)x", op)
            if shape and re.fullmatch(r"R\d+", ops[0]):
                d = int(ops[0][1:])
                for k in range(int(shape.group(1)) // 2):
                    acc[d + k] = 0
            if ops[-1] == "gsb0":
                st = {r: (min(g + 1, cap), o) for r, (g, o) in st.items()}
                acc = {r: min(g + 1, cap) for r, g in acc.items()}
        elif base == "WARPGROUP" and op.startswith("WARPGROUP.DEPBAR"):
            n = int(opr.split(",")[1], 16)
            if not pred:
                st = {r: v for r, v in st.items() if v[0] <= n}
                acc = {r: g for r, g in acc.items() if g <= n}
        for j in succ[i]:
            if state[j] is None:
                state[j] = (st, acc)
                work.append(j)
                continue
            old_a, old_acc = state[j]
            merged = dict(old_a)
            for r, (g, o) in st.items():  # the later read (fewer groups since) and every reader
                merged[r] = (min(g, merged[r][0]), merged[r][1] | o) if r in merged else (g, o)
            merged_acc = dict(old_acc)
            for r, g in acc.items():
                merged_acc[r] = min(g, merged_acc.get(r, cap))
            if merged != old_a or merged_acc != old_acc:
                state[j] = (merged, merged_acc)
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


def sass_text(path, arch):
    """cuobjdump -sass text of a .so / .o / .cubin for arch, or a .sass file's own text (also dev/python/sass_diff.py)."""
    if path.endswith(".sass"):
        return open(path).read()
    tool = find_cuobjdump()
    if tool is None:
        sys.exit("no cuobjdump: install the CUDA toolkit or `pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm`")
    return subprocess.run([tool, "-sass", "-arch", arch, path], check=True, capture_output=True, text=True).stdout


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("binary", help="a .so / .o / .cubin, or a .sass text file")
    p.add_argument("--arch", default="sm_90a")
    p.add_argument("--filter", default="", help="only functions whose mangled name contains this")
    p.add_argument("-v", action="store_true", help="every hazard, not the first 5 per function")
    p.add_argument("--allow-ldsm-taps", action="store_true",
                   help="pass hazards between two ldmatrix taps (the register-A forward's host code never runs two in a "
                        "row: run_rs in fwd_wgmma.cu)")
    args = p.parse_args()
    funcs = parse(sass_text(args.binary, args.arch))
    checked, bad, allowed = 0, 0, 0
    for name, ins in funcs.items():
        if args.filter not in name:
            continue
        found = check(ins)
        checked += uses_wgmma(ins)
        if args.allow_ldsm_taps:
            allowed += any(h[4] == "ldsm_taps" for h in found)
            found = [h for h in found if h[4] != "ldsm_taps"]
        if found:
            bad += 1
            print(f"HAZARD in {name}")
            for a, text, regs, ages, kind in found[: (None if args.v else 5)]:
                print(f"  {a:#07x}  {text}   writes {', '.join(f'R{r}' for r in regs)} (pending, groups since: "
                      f"{ages}; {kind})")
    print(f"{checked} functions with HGMMA checked, {bad} with a hazard" +
          (f" ({allowed} with ldmatrix-tap hazards only, passed)" if args.allow_ldsm_taps else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
