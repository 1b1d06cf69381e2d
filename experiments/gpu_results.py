"""gpu_results.py - where the experiments' recorded results go: experiments/results/<gpu>/."""
import re


def gpu_folder(name):
    """The folder of a GPU's results: "NVIDIA H200" -> "h200", "NVIDIA GeForce RTX 4090" -> "geforce-rtx-4090"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("nvidia", "")).strip("-")
