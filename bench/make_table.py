"""Markdown tables from benchmark JSON files (python -m convt1d.bench --out ...).

    python bench/make_table.py bench/results/h100_fwd.json [more.json ...]
    python bench/make_table.py --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd bench/results/h100_fwd_bwd.json

One row per shape, one column group per mode: convt1d ms, cuDNN ms, speedup; plus the run's header.
"""
import json
import sys


def table(path, only=None):
    data = json.load(open(path))
    h = data.get("header", {})
    recs = [r for r in data.get("records", []) if "speedup" in r]
    modes = [m for m in dict.fromkeys(r["mode"] for r in recs) if not only or m in only]
    names = list(dict.fromkeys(r["name"] for r in recs))
    by = {(r["name"], r["mode"]): r for r in recs}
    out = [f"`{path}`: {h.get('gpu', '?')}, torch {h.get('torch', '?')}, cuDNN {h.get('cudnn', '?')}, "
           f"commit {h.get('git_commit', '?')}, copy bandwidth {h.get('copy_bw_gbps', 0) / 1e3:.2f} TB/s. "
           "Cells: convt1d ms / cuDNN ms = speedup (% of copy bandwidth).", ""]
    out.append("| shape | " + " | ".join(modes) + " |")
    out.append("|---" * (len(modes) + 1) + "|")
    for n in names:
        cells = []
        for m in modes:
            r = by.get((n, m))
            if not r:
                cells.append("")
                continue
            bw = f" ({r['pct_copy_bw']:.0f}%)" if r.get("pct_copy_bw") is not None else ""
            cells.append(f"{r['convt1d_ms']:.3f} / {r['cudnn_ms']:.3f} = **{r['speedup']:.2f}x**{bw}")
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    errs = [r for r in data.get("records", []) if "error" in r]
    for r in errs:
        out.append(f"\n{r['name']} {r['mode']}: ERROR {r['error']}")
    return "\n".join(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    only = None
    if args and args[0] == "--modes":  # only these columns (the README's forward+backward table)
        only, args = args[1].split(","), args[2:]
    print("\n\n".join(table(p, only) for p in args))
