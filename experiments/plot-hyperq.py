#!/usr/bin/env python3
"""plot-hyperq.py - record a hyperq sweep and plot measured against model makespan over C.

    python3 experiments/plot-hyperq.py build/sweep/hyperq.json [--csv build/sweep/hyperq.csv] [--out DIR]

Copies the sweep's merged JSON (and CSV) to DIR (default experiments/results/<gpu>/) as
hyperq-sweep.{json,csv}, prints one line per configuration, and draws hyperq-sweep.{png,svg}:
one panel per stream count, one line per order and stream kind, measured solid and model dashed.
Without matplotlib it says how to install it and still succeeds: the numbers are recorded.
"""
import argparse
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gpu_results import gpu_folder  # noqa: E402  (experiments/gpu_results.py)


def value(row, name):
    """The median of a statistic, or a number's value; None when absent."""
    v = row["values"].get(name)
    if v is None:
        return None
    return v.get("median", v.get("value"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json")
    ap.add_argument("--csv")
    ap.add_argument("--out")
    a = ap.parse_args()
    try:
        doc = json.load(open(a.json))
    except (OSError, ValueError) as e:
        print("error: cannot read %s: %s" % (a.json, e), file=sys.stderr)
        return 2
    rows = [r for r in doc["rows"] if r["table"] in ("sweep", "legacy")]
    if not rows:
        print("error: %s has no sweep or legacy rows" % a.json, file=sys.stderr)
        return 2
    out = a.out or os.path.join(HERE, "results", gpu_folder(rows[0]["device"]["name"]))
    os.makedirs(out, exist_ok=True)
    shutil.copyfile(a.json, os.path.join(out, "hyperq-sweep.json"))
    if a.csv:
        shutil.copyfile(a.csv, os.path.join(out, "hyperq-sweep.csv"))

    # series[(panel, label)] = [(C, measured, model)]
    series = {}
    print("%-7s %-12s %4s %12s %12s %8s %14s %14s" % ("table", "variant", "C", "model ms", "measured ms", "error",
                                                      "event model ms", "event ms"))
    for r in rows:
        C = r["params"]["connections"]["value"]
        S = r["params"]["streams"]["value"]
        order = r["params"]["order"]["value"]
        kind = r["params"]["stream_kind"]["value"]
        mk, model = value(r, "makespan"), value(r, "model_makespan")
        ev, model_ev = value(r, "event_makespan"), value(r, "model_event_makespan")
        print("%-7s %-12s %4d %12.3f %12.3f %+7.1f%% %14s %14s" %
              (r["table"], r["variant"], C, model, mk, 100 * (mk - model) / model,
               "%.3f" % model_ev if model_ev is not None else "-", "%.3f" % ev if ev is not None else "-"))
        K = r["params"]["kernels"]["value"]
        T = r["params"]["kernel_us"]["value"]
        panel = "S=%d, K=%d, T=%g us%s" % (S, K, T, ", legacy-stream events" if r["table"] == "legacy" else "")
        series.setdefault((panel, "%s, %s" % (order, kind)), []).append((C, mk, model))
        if ev is not None:
            series.setdefault((panel, "%s, %s, event-timed" % (order, kind)), []).append((C, ev, model_ev))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot skipped: matplotlib is missing. Install it with 'sudo apt install python3-matplotlib' "
              "(Debian, Ubuntu) or 'python3 -m pip install matplotlib'; the results are recorded in %s" % out)
        return 0
    panels = sorted({p for p, _ in series}, key=lambda p: ("legacy" in p, int(re.search(r"S=(\d+)", p).group(1))))
    cols = min(3, len(panels))
    rows_n = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5.2 * cols, 3.9 * rows_n), squeeze=False)
    colors = {}
    for i, panel in enumerate(panels):
        ax = axes[i // cols][i % cols]
        for (p, label), pts in sorted(series.items()):
            if p != panel:
                continue
            pts.sort()
            c = colors.setdefault(label, "C%d" % len(colors))
            xs = [x for x, _, _ in pts]
            ax.plot(xs, [m for _, m, _ in pts], "o-", color=c, label=label + " (measured)")
            ax.plot(xs, [m for _, _, m in pts], "x--", color=c, alpha=0.8, label=label + " (model)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks([1, 2, 4, 8, 16, 32])
        ax.set_xticklabels(["1", "2", "4", "8", "16", "32"])
        ax.set_xlabel("CUDA_DEVICE_MAX_CONNECTIONS (C)")
        ax.set_ylabel("makespan (ms)")
        ax.set_title(panel, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    for j in range(len(panels), rows_n * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle("hyperq on %s: measured (solid) against the scheduling model (dashed)" % rows[0]["device"]["name"])
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, "hyperq-sweep." + ext), dpi=110)
    print("plot: %s/hyperq-sweep.{png,svg}" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
