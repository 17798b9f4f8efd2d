"""Summary of an Nsight Compute SASS export (ncu -i rep --page source --csv --print-source sass > f.csv[.gz]):
opcode mix by executed instructions, stall reasons, the instructions with the most stall samples.

    python dev/python/sass_summary.py dev/cuda/results/run46_h200/sass_kernelbench_64_bf16.csv.gz
    python dev/python/sass_summary.py dev/cuda/results/run355_h100/sass_up8_fp16.csv.gz 200

With a block size B after the file: also samples and executed instructions per run of B SASS instructions (those with
1% of the samples or more) and their commonest opcodes, which shows the kernel's regions (Session 33 found the
phase-merged epilogue that way: 43% of upsample_x8 fp16's executed instructions).
"""
import collections
import csv
import gzip
import re
import sys

f = sys.argv[1]
rows = list(csv.reader(gzip.open(f, "rt") if f.endswith(".gz") else open(f)))
hdr = rows[1]; data = rows[2:]
ix = {h: i for i, h in enumerate(hdr)}
def v(r, k):
    try: return float(r[ix[k]])
    except: return 0.0
tot_s = sum(v(r, "Warp Stall Sampling (All Samples)") for r in data)
tot_i = sum(v(r, "Instructions Executed") for r in data)
print("instrs", len(data), "samples", tot_s, "executed", tot_i)
# opcode mix weighted by executed
mix = collections.Counter(); smix = collections.Counter()
for r in data:
    op = r[ix["Source"]].strip()
    op = re.sub(r"^@!?U?P\w+\s+", "", op).split()[0] if op else "?"
    mix[op] += v(r, "Instructions Executed"); smix[op] += v(r, "Warp Stall Sampling (All Samples)")
print("top opcodes by executed:")
for op, n in mix.most_common(25): print(f"  {op:24s} {n/tot_i*100:5.1f}%  stall-samples {smix[op]/tot_s*100:5.1f}%")
stalls = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
st = {h: sum(v(r, h) for r in data) for h in stalls}
print("stall reasons:", ", ".join(f"{h[6:]} {n/tot_s*100:.1f}%" for h, n in sorted(st.items(), key=lambda x: -x[1])[:10]))
print("top instructions by samples:")
top = sorted(range(len(data)), key=lambda i: -v(data[i], "Warp Stall Sampling (All Samples)"))[:25]
for i in sorted(top):
    r = data[i]
    reasons = sorted(((v(r, h), h[6:]) for h in stalls), reverse=True)[:2]
    print(f"  {i:5d} {v(r,'Warp Stall Sampling (All Samples)')/tot_s*100:5.1f}% ex {v(r,'Instructions Executed'):10.0f} {r[ix['Source']].strip()[:60]:60s} {reasons}")
if len(sys.argv) > 2:
    B = int(sys.argv[2])
    tot_e = sum(v(r, "Instructions Executed") for r in data)
    print(f"by runs of {B} instructions (samples, executed, commonest opcodes by executed):")
    for b in range(0, len(data), B):
        ch = data[b:b + B]
        s_ = sum(v(r, "Warp Stall Sampling (All Samples)") for r in ch)
        if s_ < 0.01 * tot_s:
            continue
        ops = collections.Counter()
        for r in ch:
            toks = [t for t in r[ix["Source"]].split() if not t.startswith("@")]
            ops[toks[0].split(".")[0] if toks else "?"] += v(r, "Instructions Executed")
        print(f"  {b:6d}-{b + B:6d} {s_ / tot_s * 100:5.1f}% {sum(v(r, 'Instructions Executed') for r in ch) / tot_e * 100:5.1f}%  "
              + " ".join(f"{o}:{n / 1e6:.1f}M" for o, n in ops.most_common(5)))
