#!/usr/bin/env python3
"""validate-model.py - the scheduling model checked on shapes and programs nobody picked.

Three populations, each drawn at random (seeded, reproducible), each run with
its own simulation, reporting how far the measured makespan and peak
concurrency fall from the model's:

shapes: false-dependency once per shape, over the domain the issue names:

    S streams 1..256, K kernels 1..16, T 20 us..5 ms (log-uniform),
    blocks 1..2x what the GPU holds at once, threads 32..1024, C 1..32, order.

  A shape whose rough makespan estimate exceeds --max-ms (100) is drawn again,
  so that the whole run stays within a few minutes of GPU time.

events: event-programs, once per C in --event-connections
  (1, 2, 3, 4, 6, 8, 12, 16, 24, 32; the driver reads C once per process),
  --programs (72) random stream-event programs shared out among them: fan-in,
  fan-out, random DAGs, cross-stream waits and legacy-stream programs, S 2..64
  streams, T 50 us..1 ms. Program i has seed --seed + i, and the summary
  prints the command that runs any one of them alone.

copies: event-programs --population copies, once per C in --copies-connections
  (1, 2, 4, 8, 16, 32), --copies-programs (72) programs shared out among them:
  H2D and D2H copies of 4 KiB..256 MiB, pinned and pageable, host functions of
  10 us..2 ms, memsets, D2D copies and kernels on S 2..32 blocking and
  non-blocking streams, some at a stream priority, with cross-stream waits;
  each process measures the copy engines and host functions first (about a
  second), and before each run a program times its pageable copies on its own
  buffers: the model takes those times (the host's memory pace switches).

    make validate-model                     (or: python3 experiments/validate-model.py --bin build/bin/false-dependency)
    (one population: ARGS="--population shapes|events|copies"; both: shapes and events; all, the default: the three)

Writes experiments/results/<gpu>/validate-model.{csv,json,txt} (shapes),
validate-model-events.{csv,json,md} (events) and validate-model-copies.{csv,json,md}
(copies). Exit 0 when the bounds hold for every population run (makespan error
p90 <= 10%, max <= 15%, peak exact in >= 90%; events and copies also: every
edge held in every run, every kernel ran its time), 1 when they do not, 77
without a GPU (said once, at the first run that finds none), 2 on bad
arguments, 3 when a run fails in a way that is not a verdict.
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


def write_results(out_dir, stem, text_ext, lines, summary, key, results):
    """Print a population's summary and record it as stem.csv, stem.json and stem.<text_ext>."""
    text = "\n".join(lines)
    print()
    print(text)
    with open(os.path.join(out_dir, stem + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(results[0].keys()))
        w.writeheader()
        w.writerows(results)
    with open(os.path.join(out_dir, stem + ".json"), "w") as f:
        json.dump({"summary": summary, key: results}, f, indent=1)
    with open(os.path.join(out_dir, stem + "." + text_ext), "w") as f:
        f.write(text + "\n")
    print("results: %s/%s.{csv,json,%s}" % (out_dir, stem, text_ext))


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


# ---- the events and copies populations: random programs through event-programs ----

# C values the programs are shared out among, one process each (the driver reads C once per process).
EVENT_CONNECTIONS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32]
COPIES_CONNECTIONS = [1, 2, 4, 8, 16, 32]
# What the programs are drawn from, passed on every command so that a printed command stays exact
# if event-programs' defaults change: S 2..64, K 1..4, T 50 us..1 ms (event-programs' header); the
# copies programs S 2..32 and copies up to 256 MiB.
EVENT_DRAWS = ["--streams-min", "2", "--streams-max", "64", "--kernels", "4", "--kernel-us", "1000"]
COPIES_DRAWS = ["--population", "copies", "--streams-min", "2", "--streams-max", "32", "--kernels", "4",
                "--kernel-us", "1000", "--copy-mib", "256"]
# Per population: its draws, event-programs' table, its results' stem, its summary's title.
POPULATIONS = {
    "events": (EVENT_DRAWS, "random", "validate-model-events", "random stream-event programs"),
    "copies": (COPIES_DRAWS, "copies", "validate-model-copies",
               "random programs with copies, host functions and priorities"),
}


def events_command(binary, connections, seed, programs, repeat, population="events"):
    """The event-programs command of `programs` random programs of a population from seed at C = connections."""
    return [binary, "--programs", str(programs), "--seed", str(seed),
            "--connections", str(connections)] + POPULATIONS[population][0] + ["--repeat", str(repeat), "--warmup", "1"]


def run_events(binary, connections, seed, programs, repeat, timeout_s, population="events"):
    """Run one event-programs process; returns (exit code, its population's rows or None, output)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = events_command(binary, connections, seed, programs, repeat, population) + ["--json", out]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return 124, None, "timed out after %d s: %s" % (timeout_s, " ".join(cmd))
        if p.returncode not in (0, 1) or not os.path.exists(out):
            return p.returncode, None, p.stdout + p.stderr
        with open(out) as f:
            doc = json.load(f)
        table = POPULATIONS[population][1]
        return p.returncode, [r for r in doc["rows"] if r["table"] == table], p.stdout


# A copies program's own parameters (event-programs' row), as integers or MiB.
COPIES_PARAMS = [("copies", int), ("copy_mib", float), ("largest_mib", float), ("pageable", int), ("hostfns", int),
                 ("priorities", int), ("blocking", int)]


def event_result(row, binary, repeat, population="events"):
    """One program's row of the JSON as a flat record, with the command that runs it alone."""
    p, v = row["params"], row["values"]
    meas, model = v["makespan"]["median"], v["model_makespan"]["median"]
    seed, connections = int(p["seed"]["value"]), int(p["connections"]["value"])
    failed = [c["text"] for c in row["claims"] if c["verdict"] == "FAIL"]
    r = {
        "kind": row["variant"],
        "seed": seed,
        "connections": connections,
        "streams": int(p["streams"]["value"]),
        "kernels": int(p["kernels"]["value"]),
        "kernel_us": p["kernel_us"]["value"],
        "blocks": int(p["blocks"]["value"]),
        "threads": int(p["threads"]["value"]),
        "records": int(p["records"]["value"]),
        "waits": int(p["waits"]["value"]),
        "legacy": int(p["legacy"]["value"]),
        "edges": int(p["edges"]["value"]),
        "makespan_ms": meas,
        "model_ms": model,
        "error_pct": 100.0 * (meas - model) / model,
        "peak": v["peak_concurrency"]["median"],
        "model_peak": v["model_peak"]["median"],
        "start_error_us": v["start_error"]["median"],
        "issue_ms": v["issue_time"]["median"],
        "edge_checks": int(v["edge_checks"]["value"]),
        "edges_held": int(v["edges_held"]["value"]),
        "checks_failed": row["tally"]["checks_failed"],
        "verdict": row["verdict"],
        "failed_claims": len(failed),
    }
    if population == "copies":
        for name, kind in COPIES_PARAMS:
            r[name] = kind(p[name]["value"])
        # the median copy's end against the model's (us), and the pace of the pageable copies the host waited for,
        # as the model took them in the last run (GB/s; NaN without such copies)
        r["copy_end_error_us"] = v["copy_end_error"]["median"] if "copy_end_error" in v else float("nan")
        for d in ("h2d", "d2h"):
            g = v["pageable_" + d]["value"]
            r["pageable_%s_gbps" % d] = float("nan") if g is None else g
        # the model judged takes the pageable copies' pace in the run; this one, their pace timed just before it
        before = v["model_makespan_before"]["median"] if "model_makespan_before" in v else float("nan")
        r["model_before_ms"] = before
        # the driver's thread's wake the model took (us; the run's own where a host function woke it)
        r["wake_us"] = v["wake"]["median"] if "wake" in v else float("nan")
        r["error_before_pct"] = 100.0 * (meas - before) / before if before and math.isfinite(before) else float("nan")
    r["command"] = " ".join(events_command(binary, connections, seed, 1, repeat, population))
    return r


def events_population(args, population="events"):
    """Share a population's programs out among its C values, run one process per C (stopping at the first that
    finds no GPU), then report them."""
    programs, connections = ((args.programs, args.event_connections) if population == "events" else
                             (args.copies_programs, args.copies_connections))
    per_c, extra = divmod(programs, len(connections))
    plan, seed = [], args.seed
    for i, c in enumerate(connections):
        n = per_c + (1 if i < extra else 0)
        if n:
            plan.append((c, seed, n))
            seed += n
    results, device = [], None
    t_start = time.time()
    for c, first_seed, n in plan:
        cmd = " ".join(events_command(args.events_bin, c, first_seed, n, args.repeat, population))
        print("== %s, C=%d: programs %d..%d: %s" % (population, c, first_seed, first_seed + n - 1, cmd), flush=True)
        rc, rows, text = run_events(args.events_bin, c, first_seed, n, args.repeat, 600, population)
        if rc == 77:
            print("SKIP:", skip_line(text))
            return 77
        if rows is None or len(rows) != n:
            print("error: event-programs at C=%d exited %d with %s of %d rows:\n%s" %
                  (c, rc, "none" if rows is None else len(rows), n, text), file=sys.stderr)
            return 3
        device = device or rows[0]["device"]
        if int(rows[0]["device"].get("max_connections", c)) != c:
            print("warning: asked for C=%d, the driver runs with %s" % (c, rows[0]["device"]["max_connections"]),
                  file=sys.stderr)
        for row in rows:
            r = event_result(row, args.events_bin, args.repeat, population)
            results.append(r)
            what = ("legacy=%-2d waits=%-3d" % (r["legacy"], r["waits"]) if population == "events" else
                    "copies=%-3d %7.1f MiB (largest %7.2f, %2d pageable) hostfns=%-2d prio=%-2d" %
                    (r["copies"], r["copy_mib"], r["largest_mib"], r["pageable"], r["hostfns"], r["priorities"]))
            print("%3d  C=%-2d %-7s seed=%-10d S=%-2d kernels=%-3d T=%-7g blocks=%-2d threads=%-3d %s  "
                  "measured %8.3f ms  model %8.3f ms (%+5.1f%%)  peak %2.0f/%-2.0f  edges %d/%d  %s" %
                  (len(results) - 1, r["connections"], r["kind"], r["seed"], r["streams"], r["kernels"],
                   r["kernel_us"], r["blocks"], r["threads"], what, r["makespan_ms"], r["model_ms"],
                   r["error_pct"], r["peak"], r["model_peak"], r["edges_held"], r["edge_checks"], r["verdict"]),
                  flush=True)
    out_dir = args.out or os.path.join(HERE, "results", gpu_folder(device["name"]))
    return report_events(results, args, device["name"], out_dir, time.time() - t_start, population)


def error_stats(rows):
    """|makespan error| median, p90 and max over rows (NaN for none)."""
    errs = [abs(r["error_pct"]) for r in rows]
    if not errs:
        return {"median": float("nan"), "p90": float("nan"), "max": float("nan")}
    return {"median": quantile(errs, 0.5), "p90": quantile(errs, 0.9), "max": max(errs)}


def peak_exact(r):
    """Whether the program's median peak is the simulation's."""
    return round(r["peak"]) == round(r["model_peak"])


# The ranges of a copies program's largest copy, for its table: (up to MiB, name).
LARGEST_COPY = [(1, "up to 1 MiB"), (16, "1 to 16 MiB"), (float("inf"), "over 16 MiB")]


def largest_copy(r):
    """The index in LARGEST_COPY of the range a copies program's largest copy falls in."""
    return next(i for i, (mib, _) in enumerate(LARGEST_COPY) if r["largest_mib"] <= mib)


def report_events(results, args, gpu_name, out_dir, seconds, population="events"):
    """Summarize a population's programs, print the summary, write CSV, JSON and markdown; 0 when the bounds
    hold."""
    os.makedirs(out_dir, exist_ok=True)
    n = len(results)
    exact = sum(1 for r in results if peak_exact(r))
    held = sum(1 for r in results if r["edges_held"] == r["edge_checks"])
    with_edges = sum(1 for r in results if r["edge_checks"] > 0)  # the rest hold by having none
    complete = sum(1 for r in results if r["checks_failed"] == 0)
    seeds = sorted(r["seed"] for r in results)
    starts = [r["start_error_us"] for r in results]
    summary = {
        "programs": n,
        "seeds": [seeds[0], seeds[-1]],
        "repeat": args.repeat,
        "gpu": gpu_name,
        "seconds": round(seconds, 1) if seconds is not None else None,
        "connections": sorted({r["connections"] for r in results}),
        "makespan_error_pct": error_stats(results),
        "start_error_us": {"median": quantile(starts, 0.5), "p90": quantile(starts, 0.9), "max": max(starts)},
        "peak_exact_fraction": exact / n,
        "edges_held_programs": held,
        "programs_with_edges": with_edges,
        "complete_programs": complete,
        "bounds": {"makespan_p90_pct": 10, "makespan_max_pct": 15, "peak_exact_fraction": 0.9,
                   "edges_held": "every program", "complete": "every program"},
    }
    if population == "copies":
        ends = [r["copy_end_error_us"] for r in results if math.isfinite(r["copy_end_error_us"])] or [float("nan")]
        summary["population"] = "copies"
        summary["copy_end_error_us"] = {"median": quantile(ends, 0.5), "p90": quantile(ends, 0.9), "max": max(ends)}
        befores = [abs(r["error_before_pct"]) for r in results
                   if isinstance(r.get("error_before_pct"), float) and math.isfinite(r["error_before_pct"])]
        if befores:
            summary["makespan_error_before_pct"] = {"median": quantile(befores, 0.5), "p90": quantile(befores, 0.9),
                                                    "max": max(befores), "programs": len(befores)}
    m = summary["makespan_error_pct"]
    ok = m["p90"] <= 10 and m["max"] <= 15 and exact / n >= 0.9 and held == n and complete == n
    summary["verdict"] = "PASS" if ok else "FAIL"

    lines = []
    lines.append("# validate-model: " + POPULATIONS[population][3])
    lines.append("")
    lines.append("%d programs (seeds %d..%d, %d repeats each after a warm-up) at C = %s on %s, %s%s" %
                 (n, seeds[0], seeds[-1], args.repeat, ",".join(str(c) for c in summary["connections"]), gpu_name,
                  "%.0f s" % seconds if seconds is not None else "summarized again from the recorded CSV",
                  "" if n >= 60 else " (fewer than 60: the bounds are meant for 60 or more)"))
    lines.append("")
    lines.append("| measure | median | p90 | max | bound |")
    lines.append("|---|---:|---:|---:|---|")
    lines.append("| makespan error vs model (%%) | %.2f | %.2f | %.2f | p90<=10, max<=15 |" % (m["median"], m["p90"], m["max"]))
    s = summary["start_error_us"]
    lines.append("| kernel start error (us) | %.2f | %.2f | %.2f | |" % (s["median"], s["p90"], s["max"]))
    if population == "copies":
        s = summary["copy_end_error_us"]
        lines.append("| copy end error (us; a program's median) | %.2f | %.2f | %.2f | |" %
                     (s["median"], s["p90"], s["max"]))
        if "makespan_error_before_pct" in summary:
            s = summary["makespan_error_before_pct"]
            lines.append("| makespan error vs model with the pageable copies' pace timed before each run (%%) | "
                         "%.2f | %.2f | %.2f | not judged |" % (s["median"], s["p90"], s["max"]))
    lines.append("")
    lines.append("- peak concurrency exact in %d of %d programs (%.0f%%; bound 90%%)" % (exact, n, 100.0 * exact / n))
    lines.append("- every edge (%s) held in every run in %d of %d programs (bound: all; %d of them have edges)" %
                 ("waits, legacy barriers, a DAG's stream order" if population == "events" else
                  "waits, the opening and closing kernels'", held, n, with_edges))
    lines.append("- every kernel ran its time and left its result in every run in %d of %d programs (bound: all)" %
                 (complete, n))
    by_c = (lambda r: r["connections"], "by C", str)
    tables = ((lambda r: r["kind"], "by kind", str), by_c) if population == "events" else \
        (by_c, (largest_copy, "by largest copy", lambda i: LARGEST_COPY[i][1]))
    for key, title, show in tables:
        lines.append("")
        lines.append("| %s | programs | error median %% | p90 %% | max %% | peak exact |" % title)
        lines.append("|---|---:|---:|---:|---:|---:|")
        for value in sorted({key(r) for r in results}):
            group = [r for r in results if key(r) == value]
            g = error_stats(group)
            lines.append("| %s | %d | %.2f | %.2f | %.2f | %d of %d |" %
                         (show(value), len(group), g["median"], g["p90"], g["max"], sum(1 for r in group if peak_exact(r)),
                          len(group)))

    def program_line(r):
        what = ("%d waits, %d legacy" % (r["waits"], r["legacy"]) if population == "events" else
                "%d copies of %.1f MiB (largest %.2f MiB, %d pageable at %.1f/%.1f GB/s), %d host functions (wake "
                "%.0f us), %d waits, streams at a priority: %d" %
                (r["copies"], r["copy_mib"], r["largest_mib"], r["pageable"], r["pageable_h2d_gbps"],
                 r["pageable_d2h_gbps"], r["hostfns"], r.get("wake_us", float("nan")), r["waits"], r["priorities"]))
        return ("%s seed %d, C=%d, S=%d, %d kernels of T=%g us, %d x %d threads, %s: measured %.3f ms, model %.3f ms "
                "(%+.1f%%), peak %.0f vs %.0f, edges %d/%d, issue %.3f ms" %
                (r["kind"], r["seed"], r["connections"], r["streams"], r["kernels"], r["kernel_us"], r["blocks"],
                 r["threads"], what, r["makespan_ms"], r["model_ms"], r["error_pct"], r["peak"], r["model_peak"],
                 r["edges_held"], r["edge_checks"], r["issue_ms"]))

    groups = [("worst programs by makespan error", sorted(results, key=lambda r: -abs(r["error_pct"]))[:args.worst]),
              ("programs whose peak differs", [r for r in results if not peak_exact(r)]),
              ("programs with an edge that did not hold", [r for r in results if r["edges_held"] != r["edge_checks"]]),
              ("programs with a kernel that did not run its time", [r for r in results if r["checks_failed"]])]
    for title, group in groups:
        if not group:
            continue
        lines.append("")
        lines.append("%s (each alone: the command below it):" % title)
        lines.append("")
        for r in group:
            lines.append("- " + program_line(r))
            lines.append("  `%s`" % r["command"])
    lines.append("")
    lines.append("verdict: %s" % summary["verdict"])
    write_results(out_dir, POPULATIONS[population][2], "md", lines, summary, "programs", results)
    return 0 if ok else 1


def read_csv_rows(path):
    """The rows of a recorded CSV, each cell an int, a float or text as it reads; (rows, None) or (None, why)."""
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        return None, "cannot read %s: %s" % (path, e)
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
    return results, None


def resummarize(args):
    """The summary, JSON and text of a recorded CSV, shapes, events or copies by its columns (the GPU and the
    seconds come from --gpu-name and 0)."""
    results, why = read_csv_rows(args.from_csv)
    if results is None:
        print("error: %s" % why, file=sys.stderr)
        return 2
    if not results:
        print("error: %s has no shapes or programs" % args.from_csv, file=sys.stderr)
        return 2
    out_dir = args.out or os.path.dirname(os.path.abspath(args.from_csv))
    if "copies" in results[0]:
        return report_events(results, args, args.gpu_name, out_dir, None, "copies")
    if "kind" in results[0]:
        return report_events(results, args, args.gpu_name, out_dir, None)
    return report(results, args, args.gpu_name, out_dir, None)


def skip_line(text):
    """The run's own "no suitable GPU: ..." line (the reason it gave), else its last line."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    for line in lines:
        if line.startswith("no suitable GPU:"):
            return line
    return "no suitable GPU: " + (lines[-1] if lines else "(the run said nothing)")


def int_list(text):
    """argparse type: "1,2,4" -> [1, 2, 4]."""
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a list of integers" % text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/bin/false-dependency")
    ap.add_argument("--events-bin", default=None,
                    help="event-programs for the events and copies populations (default: beside --bin)")
    ap.add_argument("--population", choices=["shapes", "events", "copies", "both", "all"], default="all",
                    help="which to run: one, both (shapes and events) or all three (the default)")
    ap.add_argument("--shapes", type=int, default=72, help="shapes to draw (the bounds are meant for 60 or more)")
    ap.add_argument("--programs", type=int, default=72,
                    help="random stream-event programs (the bounds are meant for 60 or more)")
    ap.add_argument("--event-connections", type=int_list, default=list(EVENT_CONNECTIONS),
                    help="the C values the programs are shared out among, one event-programs process each")
    ap.add_argument("--copies-programs", type=int, default=72,
                    help="random programs with copies (the bounds are meant for 60 or more)")
    ap.add_argument("--copies-connections", type=int_list, default=list(COPIES_CONNECTIONS),
                    help="the C values the copies programs are shared out among, one process each")
    ap.add_argument("--seed", type=int, default=20261122,
                    help="the shapes' draws; program i of the events (and of the copies) has seed --seed + i")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-ms", type=float, default=100.0, help="redraw shapes estimated to take longer")
    ap.add_argument("--out", default=None, help="results folder (default experiments/results/<gpu>)")
    ap.add_argument("--worst", type=int, default=8, help="worst shapes (and programs) listed")
    ap.add_argument("--gpu-name", default="the GPU of the recorded run", help="with --from-csv: the GPU's name")
    ap.add_argument("--from-csv", metavar="CSV",
                    help="summarize a recorded validate-model.csv, validate-model-events.csv or "
                    "validate-model-copies.csv again, without a GPU")
    args = ap.parse_args()
    if args.events_bin is None:
        args.events_bin = os.path.join(os.path.dirname(args.bin), "event-programs")
    if args.from_csv:
        return resummarize(args)
    if args.shapes < 1 or args.repeat < 1:
        print("error: --shapes and --repeat must be at least 1", file=sys.stderr)
        return 2
    if args.programs < 1:
        print("error: --programs must be at least 1", file=sys.stderr)
        return 2
    if args.copies_programs < 1:
        print("error: --copies-programs must be at least 1", file=sys.stderr)
        return 2
    if not args.max_ms >= 1:
        print("error: --max-ms must be at least 1 (no shape is estimated under about 0.03 ms)", file=sys.stderr)
        return 2
    for name, cs in (("--event-connections", args.event_connections),
                     ("--copies-connections", args.copies_connections)):
        if not cs or any(c < 1 or c > 32 for c in cs) or len(set(cs)) != len(cs):
            print("error: %s must be distinct values in 1..32" % name, file=sys.stderr)
            return 2
    run = {"shapes": ["shapes"], "events": ["events"], "copies": ["copies"], "both": ["shapes", "events"],
           "all": ["shapes", "events", "copies"]}[args.population]
    binaries = ([args.bin] if "shapes" in run else []) + ([args.events_bin] if run != ["shapes"] else [])
    for b in binaries:
        if not os.access(b, os.X_OK):
            print("error: %s is not built (make %s)" % (b, b), file=sys.stderr)
            return 2

    verdicts = []
    for population in run:
        rc = shapes_population(args) if population == "shapes" else events_population(args, population)
        if rc not in (0, 1):
            # A later population's skip or error must not hide an earlier one's FAIL (sweep.c's rule).
            if any(v for _, v in verdicts):
                print("validate-model: %s exited %d after %s FAILed" % (population, rc, ", ".join(
                    name for name, v in verdicts if v)), file=sys.stderr)
                return 1
            return rc
        verdicts.append((population, rc))
    if len(verdicts) > 1:
        print()
        print("validate-model: " + ", ".join("%s %s" % (name, "PASS" if rc == 0 else "FAIL") for name, rc in verdicts))
    return 1 if any(rc for _, rc in verdicts) else 0


def shapes_population(args):
    """Draw and run the shapes, then report them; returns the exit code."""
    # One tiny run first: it says whether there is a GPU, and how many SMs it has.
    rc, row, device, text = run_shape(args.bin, {"streams": 1, "kernels": 1, "kernel_us": 20, "blocks": 1,
                                                 "threads": 32, "connections": 8, "order": "depth"}, 1, 120)
    if rc == 77:
        print("SKIP:", skip_line(text))
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
    write_results(out_dir, "validate-model", "txt", lines, summary, "shapes", results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
