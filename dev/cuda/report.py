"""Merges fwd_tc_dev's RES lines with bench_cudnn.py's CUDNN lines into one short table."""
import sys
from collections import defaultdict

res = defaultdict(dict)  # (shape, mode) -> cfg -> (ms, rel, verdict)
fails = []
for line in open(sys.argv[1]):
    if not line.startswith("RES,"):
        continue
    _, shape, mode, cfg, ms, rel, nonfin, verdict = line.strip().split(",", 7)
    if verdict.startswith("FAIL") or verdict.startswith("ERR"):
        fails.append(line.strip())
    res[(shape, mode)][cfg] = (float(ms) if ms else None, rel, verdict)
autocfg = {}
for line in open(sys.argv[1]):
    if line.startswith("AUTO,"):
        _, shape, mode, c = line.strip().split(",")
        autocfg[(shape, mode)] = c
cud = {}
for line in open(sys.argv[2]):
    if line.startswith("CUDNN,"):
        _, shape, mode, ms = line.strip().split(",")
        cud[(shape, mode)] = float(ms)
    elif line.startswith("COPY") or line.startswith("torch"):
        print(line.strip())
print("%-22s %-6s %9s %13s %7s %10s %7s %9s" % ("shape", "mode", "cudnn_ms", "auto_ms", "x_auto", "best", "x_best", "relerr"))
for (shape, mode), d in res.items():
    if (shape, mode) not in cud:
        continue
    c = cud[(shape, mode)]
    a = d.get("auto", (None, "", ""))
    timed = [(v[0], k) for k, v in d.items() if v[0] and k != "auto"]
    best = min(timed) if timed else (None, "-")
    f = lambda v: "%.4f" % v if v else "-"
    print("%-22s %-6s %9.4f %13s %7s %10s %7s %9s" % (shape, mode, c, "%s:%s" % (autocfg.get((shape, mode), "?"), f(a[0])), "%.2f" % (c / a[0]) if a[0] else a[2],
          "%s:%s" % (best[1], f(best[0])), "%.2f" % (c / best[0]) if best[0] else "-", a[1]))
checks = [(k, v) for k, v in res.items() if k not in cud]
npass = sum(1 for k, d in checks for c, v in d.items() if v[2] == "PASS")
nns = sum(1 for k, d in checks for c, v in d.items() if v[2] == "NS")
print("correctness trials: %d PASS, %d NS (expected not-supported), %d FAIL/ERR" % (npass, nns, len(fails)))
worst = {}
for k, d in res.items():
    for c, v in d.items():
        if v[2] == "PASS":
            worst[k[1]] = max(worst.get(k[1], 0.0), float(v[1]))
print("worst relerr per mode:", ", ".join("%s %.2e" % kv for kv in sorted(worst.items())))
for f_ in fails[:20]:
    print(f_)
