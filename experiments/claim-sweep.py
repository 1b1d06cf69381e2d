#!/usr/bin/env python3
"""claim-sweep.py - every speed claim, at sizes nobody picked.

A speed claim says it holds over a range of sizes: from the size where the
input no longer fits the cache (twice the L2; four times for the hash tables'
slots) up to the largest the option accepts. This script draws --sizes sizes
per experiment from that range (seeded, log-uniform, every other one odd, the
range's two ends always in), runs the experiment at each with only the variants
its claims compare, and reads the claims back from the JSON. It prints, per
claim, the worst ratio seen against its bound and the size it came from, and
fails when any claim failed at any size.

    python3 experiments/claim-sweep.py --bin-dir build/bin [--sizes 8] [--seed 20261125]
    make test-gpu-large          (runs it)

Exit codes: 0 every claim held at every size, 1 one did not, 2 bad arguments,
3 a run failed in a way that is not a verdict, 77 no suitable GPU (said once).
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

# Per sweep: the experiment, the size option, bytes per element of the input
# that the cache bound counts, the cache multiple the claims need, a floor of
# their own (nested-agg's claim starts at 2^26), the largest accepted size, and
# the options that pick the claims' variants.
SWEEPS = {
    "nested-reduce": ("nested-reduce", "--n", 4, 2, 1, 1 << 30, ["--variant", "flat,cub"]),
    "nested-agg": ("nested-reduce", "--n", 4, 2, 1 << 26, 1 << 30, ["--variant", "flat,nested-agg"]),
    "scan": ("scan", "--n", 4, 2, 1, 1 << 30, ["--variant", "hierarchical,decoupled-lookback,cub"]),
    "histogram": ("histogram", "--n", 1, 2, 1, 1 << 31, ["--variant", "best,cub"]),
    # 16 bytes of slots per key at load 0.5 (hash-probing.cu: judged from --keys 4 * L2 / 16)
    "hash-probing": ("hash-probing", "--keys", 16, 4, 1, 1 << 26, []),
}


def draw_sizes(rng, lo, hi, count):
    """count sizes in [lo, hi] (all of them, if the range holds fewer): both ends, the rest
    log-uniform, every other one odd."""
    count = min(count, hi - lo + 1)
    sizes = {lo, hi}
    while len(sizes) < count:
        n = int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))
        n = n | 1 if len(sizes) % 2 == 0 else n & ~1
        sizes.add(min(hi, max(lo, n)))
    return sorted(sizes)


def run(cmd):
    """Run one experiment; its JSON, its exit code and the tail of its output."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        p = subprocess.run(cmd + ["--json", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        data = None
        if os.path.getsize(path) > 0:
            with open(path) as f:
                data = json.load(f)
        return data, p.returncode, p.stdout[-2000:]
    finally:
        os.unlink(path)


def margin(claim):
    """How far a quantitative claim is inside its bound: > 1 inside, < 1 outside."""
    m, b, form = claim.get("measured"), claim.get("predicted"), claim.get("form", "")
    if m is None or b is None or not b or not m:
        return None
    return m / b if form.endswith("at_least") else b / m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", default=os.environ.get("BUILD", "build") + "/bin")
    ap.add_argument("--sizes", type=int, default=8, help="sizes per experiment (at least 2)")
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--repeat", type=int, default=5, help="timed repetitions per size")
    ap.add_argument("--sweeps", default=",".join(SWEEPS), help="comma-separated subset of " + ",".join(SWEEPS))
    args = ap.parse_args()
    names = [e for e in args.sweeps.split(",") if e]
    bad = [e for e in names if e not in SWEEPS]
    if bad or args.sizes < 2 or args.repeat < 1:
        print(f"error: unknown sweep {bad}" if bad else "error: --sizes must be >= 2 and --repeat >= 1",
              file=sys.stderr)
        return 2
    worst = {}  # claim text (size-free) -> (margin, measured, bound, form, experiment, size, verdict)
    failed = 0
    judged = set()  # sweeps in which at least one speed claim was judged, not SKIP
    l2 = None
    for name in names:
        exp, opt, elem, mult, floor, hi, variant_args = SWEEPS[name]
        binary = os.path.join(args.bin_dir, exp)
        if not os.access(binary, os.X_OK):
            print(f"error: {binary} is missing (make all)", file=sys.stderr)
            return 3
        if l2 is None:  # the cache bound comes from the GPU itself, read from one tiny run
            data, rc, out = run([binary, opt, "1000", "--quick"] + variant_args)
            if rc == 77:
                print("SKIP: " + out.strip().splitlines()[0] if out.strip() else "SKIP: no suitable GPU")
                return 77
            if data is None:
                print(f"error: {name} wrote no JSON (exit {rc}):\n{out}", file=sys.stderr)
                return 3
            l2 = int(data["device"]["l2_bytes"])
        lo = min(hi, max(floor, -(-mult * l2 // elem)))
        # Each sweep draws from its own generator, so a subset (--sweeps) draws the same sizes as the whole.
        sizes = draw_sizes(random.Random(f"{args.seed}/{name}"), lo, hi, args.sizes)
        print(f"== {name}: {exp} {opt} from {lo} (at least {mult}x the L2 of {l2 >> 20} MiB) to {hi}: {sizes}", flush=True)
        for n in sizes:
            cmd = [binary, opt, str(n), "--repeat", str(args.repeat)] + variant_args
            t0 = time.monotonic()
            data, rc, out = run(cmd)
            took = time.monotonic() - t0
            if data is None or rc not in (0, 1):
                print(f"not ok - {' '.join(cmd)} ended with exit {rc} and no verdict:\n{out}")
                return 77 if rc == 77 else 3
            claims = [c for r in data["rows"] for c in r.get("claims", [])] + data.get("run_claims", [])
            speed = [c for c in claims if c.get("kind") == "timing" and margin(c) is not None]
            # A wrong result or any other failed claim fails the sweep too, and so does an exit 1 that
            # no FAIL in the report explains.
            others = [c for c in claims if c["verdict"] == "FAIL" and c not in speed]
            for c in others:
                failed += 1
                print(f"  FAIL at {opt} {n}: {c['text']}: {c.get('evidence', '')}")
            if rc == 1 and not others and not any(c["verdict"] == "FAIL" for c in speed):
                failed += 1
                print(f"  FAIL at {opt} {n}: exit 1 with no failed claim in the JSON:\n{out}")
            for c in speed:
                key = f"{exp}: {c['text']}"
                mg = margin(c)
                if c["verdict"] == "FAIL":
                    failed += 1
                    print(f"  FAIL at {opt} {n}: {c['text']}: {c.get('evidence', '')}")
                if c["verdict"] != "SKIP":
                    judged.add(name)
                if c["verdict"] != "SKIP" and (key not in worst or mg < worst[key][0]):
                    worst[key] = (mg, c["measured"], c["predicted"], c["form"], n, c["verdict"])
            print(f"  {opt} {n}: {sum(c['verdict'] == 'PASS' for c in speed)} of {len(speed)} speed claims PASS "
                  f"({took:.0f} s)", flush=True)
    for name in names:
        if name not in judged:
            failed += 1
            print(f"FAIL: {name} judged no speed claim at any size (every one SKIP or absent)")
    print("\n| claim | worst measured | bound | at size | verdict |")
    print("|---|---:|---:|---:|---|")
    for key in sorted(worst):
        mg, measured, bound, form, n, verdict = worst[key]
        rel = ">=" if form.endswith("at_least") else "<="
        print(f"| {key} | {measured:.3f} | {rel} {bound:g} | {n} | {'PASS' if mg >= 1 else 'FAIL'} |")
    print(f"\nclaim sweep: {len(worst)} claims over {args.sizes} sizes each; {failed} failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
