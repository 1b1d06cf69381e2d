#!/usr/bin/env python3
"""torch-job.py - a PyTorch job for the replay to predict: its calls are PyTorch's, not gridlab's.

The replay has to predict programs that gridlab did not write, under the settings their users have. This script is
ours, but every CUDA call in its trace is made by PyTorch: its caching allocator, autograd, cuBLAS, the optimizer's
foreach kernels, its stream pool (non-blocking streams) and its default stream (the legacy one). PyTorch sets
CUDA_MODULE_LOADING=LAZY itself when the environment leaves it unset, so kernels load on first use; the warm-up
runs outside the ranges, as a user profiling a steady state would record it.

Two NVTX ranges, each a program of its own for validate-replay (--split torch="torch "):
  "torch train"     an MLP trained on the default stream. Each batch is prefetched into pinned memory on a side
                    stream (to(non_blocking=True), an event the step waits for); the labels come from pageable
                    memory, a blocking copy, as when a user forgets pin_memory(); every 5th step reads the loss
                    back (loss.item(), a blocking D2H).
  "torch branches"  inference through --branches independent towers, each on its own stream from the pool (the
                    pattern of multi-branch models), joined on the default stream. With fewer hardware queues than
                    branches the towers share queues, so CUDA_DEVICE_MAX_CONNECTIONS shows.

    python3 experiments/torch-job.py [--steps N] [--width W] [--batch N] [--branches B] [--branch-width W]
        [--branch-batch N]

Exit 0 when the losses are finite, 1 when not, 2 on usage errors, 3 on a CUDA error (out of memory), 77 without
PyTorch or a GPU.
"""
import argparse
import math
import sys
import time


def bounded(top):
    """An argparse type: a whole number from 1 to top (beyond, the job would take minutes or the GPU's memory)."""
    def check(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r: not a whole number" % text)
        if not 1 <= v <= top:
            raise argparse.ArgumentTypeError("%s: must be 1 to %d" % (text, top))
        return v
    return check


def towers_pass(towers, streams, x, torch):
    """One pass of the branches: each tower on its stream after x is ready, the sum on the current stream after all."""
    cur = torch.cuda.current_stream()
    outs = []
    for tower, s in zip(towers, streams):
        s.wait_stream(cur)
        with torch.cuda.stream(s):
            y = tower(x)
        y.record_stream(cur)  # freed on the current stream's timeline, where it is read
        outs.append(y)
    for s in streams:
        cur.wait_stream(s)
    return torch.stack(outs).sum(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=bounded(10000), default=20, help="training steps and branch passes in each range")
    ap.add_argument("--branches", type=bounded(64), default=8, help="towers, each on its own stream (default 8)")
    ap.add_argument("--width", type=bounded(16384), default=1024, help="the trained MLP's width (default 1024)")
    ap.add_argument("--batch", type=bounded(65536), default=1024, help="rows per training batch (default 1024)")
    ap.add_argument("--branch-width", type=bounded(16384), default=4096, help="the towers' width (default 4096)")
    ap.add_argument("--branch-batch", type=bounded(65536), default=128, help="rows through the towers (default 128)")
    args = ap.parse_args()
    weights = args.branches * 3 * args.branch_width ** 2 * 4
    if weights > 16 << 30:
        ap.error("--branches %d of width %d: at most 16 GiB of weights (these are %.1f GiB)"
                 % (args.branches, args.branch_width, weights / 2 ** 30))
    pinned = 4 * args.batch * args.width * 4  # four batches in pinned host memory
    if pinned > 4 << 30:
        ap.error("--batch %d of width %d: at most 4 GiB of pinned batches (these are %.1f GiB)"
                 % (args.batch, args.width, pinned / 2 ** 30))
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        print("torch-job.py: skipped: PyTorch is not installed for %s" % sys.executable, file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("torch-job.py: skipped: PyTorch sees no GPU", file=sys.stderr)
        return 77
    try:
        return run(args, torch, F)
    except (torch.cuda.OutOfMemoryError, RuntimeError) as e:  # a CUDA error: what PyTorch said, first line
        print("torch-job.py: CUDA error: %s" % (str(e).splitlines() or ["?"])[0], file=sys.stderr)
        return 3


def run(args, torch, F):
    """The job: warm-up, then each range once; prints the ranges' wall times and the check; returns the exit code."""
    torch.manual_seed(20261129)
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 as written: the kernels PyTorch picks by default
    dev = torch.device("cuda")
    w, n = args.width, args.batch

    model = torch.nn.Sequential(torch.nn.Linear(w, w), torch.nn.ReLU(), torch.nn.Linear(w, w), torch.nn.ReLU(),
                                torch.nn.Linear(w, 10)).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    # a few batches in pinned memory, taken in turn; labels in pageable memory
    pool = [torch.randn(n, w).pin_memory() for _ in range(4)]
    labels = [torch.randint(0, 10, (n,)) for _ in range(4)]
    side = torch.cuda.Stream()

    def train(steps):
        losses = []
        with torch.cuda.stream(side):
            nxt = pool[0].to(dev, non_blocking=True)
        ready = torch.cuda.Event()
        ready.record(side)
        for i in range(steps):
            torch.cuda.current_stream().wait_event(ready)
            x = nxt
            x.record_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):  # the next batch, while this one trains
                nxt = pool[(i + 1) % len(pool)].to(dev, non_blocking=True)
            ready = torch.cuda.Event()
            ready.record(side)
            y = labels[i % len(labels)].to(dev)  # pageable: a blocking copy
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if i % 5 == 4 or i == steps - 1:
                losses.append(loss.item())
        return losses

    # Narrow batches through wide layers: at the defaults each GEMM puts one block on each SM (four fit) for about
    # 170 us, so the towers side by side share the SMs (session 25: 537 us each, five at once).
    bw = args.branch_width
    towers = [torch.nn.Sequential(torch.nn.Linear(bw, bw), torch.nn.ReLU(), torch.nn.Linear(bw, bw), torch.nn.ReLU(),
                                  torch.nn.Linear(bw, bw)).to(dev).eval() for _ in range(args.branches)]
    streams = [torch.cuda.Stream() for _ in range(args.branches)]
    inp = torch.randn(args.branch_batch, bw, device=dev) / math.sqrt(bw)

    def branches(steps):
        total = None
        with torch.no_grad():
            for _ in range(steps):
                out = towers_pass(towers, streams, inp, torch)
                total = out if total is None else total + out
        return total

    # warm-up outside the ranges: the lazy loads, cuBLAS's handles and workspaces, the allocator's first blocks
    train(3)
    branches(2)
    torch.cuda.synchronize()

    t0 = time.perf_counter()
    torch.cuda.nvtx.range_push("torch train")
    losses = train(args.steps)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    t1 = time.perf_counter()
    torch.cuda.nvtx.range_push("torch branches")
    total = branches(args.steps)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    t2 = time.perf_counter()

    check = float(total.abs().mean())
    ok = all(math.isfinite(v) for v in losses) and math.isfinite(check)
    print("torch-job: %d steps: train %.3f ms (losses %s), branches %.3f ms (mean |sum| %.4g): %s"
          % (args.steps, 1e3 * (t1 - t0), " ".join("%.4f" % v for v in losses), 1e3 * (t2 - t1), check,
             "PASS" if ok else "FAIL (not finite)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
