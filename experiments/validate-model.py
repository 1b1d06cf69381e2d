#!/usr/bin/env python3
"""validate-model.py - the scheduling model checked on shapes nobody picked.

Draws random (seeded, reproducible) shapes over the domain the issue names,
runs false-dependency once per shape with its own simulation, and reports how
far the measured makespan, peak concurrency and kernel start times fall from
the model's:

    S streams 1..256, K kernels 1..16, T 20 us..5 ms (log-uniform),
    blocks 1..2x what the GPU holds at once, threads 32..1024, C 1..32, order.

A shape whose rough makespan estimate exceeds --max-ms (100) is drawn again,
so that the whole run stays within a few minutes of GPU time.

    make validate-model                     (or: python3 experiments/validate-model.py --bin build/bin/false-dependency)

Writes experiments/results/<gpu>/validate-model.{csv,json,txt}. Exit 0 when
the bounds hold (makespan error p90 <= 10%, max <= 15%, peak exact in >= 90%
of shapes), 1 when they do not, 77 without a GPU, 2 on bad arguments, 3 when
a run fails in a way that is not a verdict.
"""
import argparse
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gpu_results import gpu_folder  # noqa: E402  (experiments/gpu_results.py)


def quantile(xs, q):
    """Nearest-rank quantile of a non-empty list."""
    xs = sorted(xs)
    i = max(0, min(len(xs) - 1, math.ceil(q * len(xs)) - 1))
    return xs[i]


def blocks_per_sm(threads):
    """Rough occupancy of the work kernel on sm_90 (32 blocks, 2048 threads per SM); only for drawing shapes."""
    return max(1, min(32, 2048 // threads))


def estimate_ms(shape, sms, issue_us=5.0):
    """A rough upper estimate of the makespan, to redraw shapes that would take too long."""
    S, K, T, blocks, threads, C, order = (shape[k] for k in ("streams", "kernels", "kernel_us", "blocks", "threads",
                                                               "connections", "order"))
    at_once = blocks_per_sm(threads) * sms
    waves = math.ceil(blocks / at_once)
    serial = (math.ceil(S / C) * (K - 1) + 1) * waves * T if order == "depth" and S > C else K * waves * T
    work = S * K * blocks * T / at_once
    issue = S * K * issue_us + T
    return max(serial, work, issue) / 1e3


def draw(rng, sms):
    """One shape, uniformly or log-uniformly over each parameter's range."""
    threads = rng.choice([32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024])
    at_once = blocks_per_sm(threads) * sms
    return {
        "streams": int(round(math.exp(rng.uniform(0, math.log(256))))),
        "kernels": rng.randint(1, 16),
        "kernel_us": round(math.exp(rng.uniform(math.log(20), math.log(5000))), 1),
        "blocks": max(1, int(round(math.exp(rng.uniform(0, math.log(2 * at_once)))))),
        "threads": threads,
        "connections": rng.choice([1, 2, 3, 4, 6, 8, 12, 16, 24, 32]),
        "order": rng.choice(["depth", "breadth"]),
    }


def run_shape(binary, shape, repeat, timeout_s):
    """Run false-dependency on one shape; returns (exit code, its makespan row, device, output)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [binary, "--quick", "--repeat", str(repeat), "--json", out, "--order", shape["order"],
               "--connections", str(shape["connections"])]
        for k in ("streams", "kernels", "kernel_us", "blocks", "threads"):
            cmd += ["--" + k.replace("_", "-"), str(shape[k])]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return 124, None, None, "timed out after %d s: %s" % (timeout_s, " ".join(cmd))
        if p.returncode not in (0, 1) or not os.path.exists(out):
            return p.returncode, None, None, p.stdout + p.stderr
        doc = json.load(open(out))
        rows = [r for r in doc["rows"] if r["table"] == "makespan"]
        return p.returncode, rows[0] if rows else None, rows[0]["device"] if rows else None, p.stdout


def resummarize(args):
    """The summary, JSON and text of a recorded CSV (the GPU and the seconds come from --gpu-name and 0)."""
    try:
        with open(args.from_csv) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        print("error: cannot read %s: %s" % (args.from_csv, e), file=sys.stderr)
        return 2
    if not rows:
        print("error: %s has no shapes" % args.from_csv, file=sys.stderr)
        return 2
    results = []
    for r in rows:
        x = {}
        for k, v in r.items():
            try:
                x[k] = int(v)
            except ValueError:
                try:
                    x[k] = float(v)
                except ValueError:
                    x[k] = v
        results.append(x)
    out_dir = args.out or os.path.dirname(os.path.abspath(args.from_csv))
    return report(results, args, args.gpu_name, out_dir, None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/bin/false-dependency")
    ap.add_argument("--shapes", type=int, default=72, help="shapes to draw (the bounds are meant for 60 or more)")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-ms", type=float, default=100.0, help="redraw shapes estimated to take longer")
    ap.add_argument("--out", default=None, help="results folder (default experiments/results/<gpu>)")
    ap.add_argument("--worst", type=int, default=8, help="worst shapes listed")
    ap.add_argument("--gpu-name", default="the GPU of the recorded run", help="with --from-csv: the GPU's name")
    ap.add_argument("--from-csv", metavar="CSV", help="summarize a recorded validate-model.csv again, without a GPU")
    args = ap.parse_args()
    if args.from_csv:
        return resummarize(args)
    if args.shapes < 1 or args.repeat < 1:
        print("error: --shapes and --repeat must be at least 1", file=sys.stderr)
        return 2
    if not args.max_ms >= 1:
        print("error: --max-ms must be at least 1 (no shape is estimated under about 0.03 ms)", file=sys.stderr)
        return 2
    if not os.access(args.bin, os.X_OK):
        print("error: %s is not built (make %s)" % (args.bin, args.bin), file=sys.stderr)
        return 2

    # One tiny run first: it says whether there is a GPU, and how many SMs it has.
    rc, row, device, text = run_shape(args.bin, {"streams": 1, "kernels": 1, "kernel_us": 20, "blocks": 1,
                                                 "threads": 32, "connections": 8, "order": "depth"}, 1, 120)
    if rc == 77:
        print("SKIP: no suitable GPU:", text.strip().splitlines()[-1] if text.strip() else "")
        return 77
    if row is None:
        print("error: the first run failed (exit %d):\n%s" % (rc, text), file=sys.stderr)
        return 3
    sms = int(device["sms"])
    gpu = gpu_folder(device["name"])
    out_dir = args.out or os.path.join(HERE, "results", gpu)
    os.makedirs(out_dir, exist_ok=True)

    rng = random.Random(args.seed)
    shapes = []
    while len(shapes) < args.shapes:
        s = draw(rng, sms)
        if estimate_ms(s, sms) <= args.max_ms:
            shapes.append(s)

    results = []
    t_start = time.time()
    for i, s in enumerate(shapes):
        rc, row, _, text = run_shape(args.bin, s, args.repeat, 300)
        if row is None:
            print("error: shape %d %s failed (exit %d):\n%s" % (i, s, rc, text), file=sys.stderr)
            return 3
        v = row["values"]
        meas, model = v["makespan"]["median"], v["model_makespan"]["median"]
        r = dict(s)
        r.update({
            "exit": rc,
            "makespan_ms": meas,
            "model_ms": model,
            "textbook_ms": v["textbook_makespan"]["value"],
            "error_pct": 100.0 * (meas - model) / model,
            "textbook_error_pct": 100.0 * (meas - v["textbook_makespan"]["value"]) / v["textbook_makespan"]["value"],
            "peak": v["peak_concurrency"]["median"],
            "model_peak": v["model_peak"]["median"],
            "start_error_us": v["start_error"]["median"],
            "start_error_p90_us": v["start_error_p90"]["median"],
            "start_error_pct_T": 100.0 * v["start_error"]["median"] / s["kernel_us"],
            "issue_us": v["issue_per_launch"]["median"],
            "verdict": row["verdict"],
        })
        results.append(r)
        print("%3d  S=%-3d K=%-2d T=%-7g blocks=%-5d threads=%-4d C=%-2d %-7s  measured %9.3f ms  model %9.3f ms "
              "(%+5.1f%%)  peak %3.0f/%-3.0f  start err %6.2f us  %s" %
              (i, s["streams"], s["kernels"], s["kernel_us"], s["blocks"], s["threads"], s["connections"], s["order"],
               meas, model, r["error_pct"], r["peak"], r["model_peak"], r["start_error_us"], row["verdict"]),
              flush=True)

    return report(results, args, device["name"], out_dir, time.time() - t_start)


def report(results, args, gpu_name, out_dir, seconds):
    """Summarize the shapes' results, print the summary, write CSV, JSON and text; 0 when the bounds hold."""
    os.makedirs(out_dir, exist_ok=True)
    errs = [abs(r["error_pct"]) for r in results]
    tb = [abs(r["textbook_error_pct"]) for r in results]
    exact = sum(1 for r in results if round(r["peak"]) == round(r["model_peak"]))
    starts = [r["start_error_pct_T"] for r in results]
    summary = {
        "shapes": len(results),
        "seed": args.seed,
        "repeat": args.repeat,
        "gpu": gpu_name,
        "seconds": round(seconds, 1) if seconds is not None else None,
        "makespan_error_pct": {"median": quantile(errs, 0.5), "p90": quantile(errs, 0.9), "max": max(errs)},
        "textbook_error_pct": {"median": quantile(tb, 0.5), "p90": quantile(tb, 0.9), "max": max(tb)},
        "peak_exact_fraction": exact / len(results),
        "start_error_pct_of_T": {"median": quantile(starts, 0.5), "p90": quantile(starts, 0.9), "max": max(starts)},
        "bounds": {"makespan_p90_pct": 10, "makespan_max_pct": 15, "peak_exact_fraction": 0.9},
    }
    ok = (summary["makespan_error_pct"]["p90"] <= 10 and summary["makespan_error_pct"]["max"] <= 15 and
          summary["peak_exact_fraction"] >= 0.9)
    summary["verdict"] = "PASS" if ok else "FAIL"
    worst = sorted(results, key=lambda r: -abs(r["error_pct"]))[:args.worst]

    lines = []
    lines.append("validate-model: %d random shapes (seed %d, %d repeats each) on %s, %s" %
                 (len(results), args.seed, args.repeat, gpu_name,
                  "%.0f s" % seconds if seconds is not None else "summarized again from the recorded CSV"))
    lines.append("")
    lines.append("| measure                          | median | p90    | max    | bound    |")
    lines.append("|----------------------------------|--------|--------|--------|----------|")
    m = summary["makespan_error_pct"]
    lines.append("| makespan error vs model (%%)      | %6.2f | %6.2f | %6.2f | p90<=10, max<=15 |" % (m["median"], m["p90"], m["max"]))
    m = summary["textbook_error_pct"]
    lines.append("| makespan error vs textbook (%%)   | %6.2f | %6.2f | %6.2f |          |" % (m["median"], m["p90"], m["max"]))
    m = summary["start_error_pct_of_T"]
    lines.append("| kernel start error (%% of T)      | %6.2f | %6.2f | %6.2f |          |" % (m["median"], m["p90"], m["max"]))
    lines.append("")
    lines.append("peak concurrency exact in %d of %d shapes (%.0f%%; bound 90%%)" %
                 (exact, len(results), 100.0 * exact / len(results)))
    lines.append("")
    lines.append("worst shapes by makespan error:")
    for r in worst:
        lines.append("  S=%-3d K=%-2d T=%-7g blocks=%-5d threads=%-4d C=%-2d %-7s measured %.3f ms, model %.3f ms "
                     "(%+.1f%%), peak %.0f vs %.0f, issue %.2f us/launch" %
                     (r["streams"], r["kernels"], r["kernel_us"], r["blocks"], r["threads"], r["connections"],
                      r["order"], r["makespan_ms"], r["model_ms"], r["error_pct"], r["peak"], r["model_peak"],
                      r["issue_us"]))
    missed = [r for r in results if round(r["peak"]) != round(r["model_peak"])]
    if missed:
        lines.append("")
        lines.append("shapes whose peak differs:")
        for r in missed:
            lines.append("  S=%-3d K=%-2d T=%-7g blocks=%-5d threads=%-4d C=%-2d %-7s peak %.0f, model %.0f" %
                         (r["streams"], r["kernels"], r["kernel_us"], r["blocks"], r["threads"], r["connections"],
                          r["order"], r["peak"], r["model_peak"]))
    lines.append("")
    lines.append("verdict: %s" % summary["verdict"])
    text = "\n".join(lines)
    print()
    print(text)

    with open(os.path.join(out_dir, "validate-model.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(results[0].keys()))
        w.writeheader()
        w.writerows(results)
    with open(os.path.join(out_dir, "validate-model.json"), "w") as f:
        json.dump({"summary": summary, "shapes": results}, f, indent=1)
    with open(os.path.join(out_dir, "validate-model.txt"), "w") as f:
        f.write(text + "\n")
    print("results: %s/validate-model.{csv,json,txt}" % out_dir)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
