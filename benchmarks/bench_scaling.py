#!/usr/bin/env python
"""Does `check` stay linear in the size of what it reads?  (issue 35: a dict literal of N kernels
whose item is launched took 0.8 s at 5k entries, 11 s at 20k and 47 s at 40k.)

    python benchmarks/bench_scaling.py              # best of 3 per size
    python benchmarks/bench_scaling.py --repeat 5

For each shape, files of N and 2N, 4N, 8N units are checked in process (`--no-cache --jobs 1`);
the time per doubling should stay near 2x (4x is quadratic).  Shapes:
  dict-literal   `D = {0: k, 1: k, ...}` and one `pl.pallas_call(D[5], ...)`;
  launch-sites   N functions each launching `make(i % 50, i)`, a recursive factory.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time

HEAD = "import jax\nfrom jax.experimental import pallas as pl\n\n"
KERNEL = "def k(x_ref, o_ref):\n    return x_ref[...]\n\n"
LAUNCH = "pl.pallas_call({kernel}, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)"
FACTORY = (
    "def make(depth, scale=1):\n    if depth == 0:\n        def k(x_ref, o_ref):\n"
    "            return x_ref[...] * scale\n        return k\n    return make(depth - 1, scale)\n\n"
)


def dict_literal(n: int) -> str:
    entries = "".join(f"    {i}: k,\n" for i in range(n))
    return HEAD + KERNEL + "D = {\n" + entries + "}\n\n\ndef f(x):\n    return " + LAUNCH.format(kernel="D[5]") + "\n"


def launch_sites(n: int) -> str:
    sites = "".join(f"def f{i}(x):\n    return {LAUNCH.format(kernel=f'make({i % 50}, {i})')}\n\n" for i in range(n))
    return HEAD + FACTORY + sites


SHAPES = {"dict-literal": (dict_literal, 5000), "launch-sites": (launch_sites, 500)}


def check_seconds(text: str, directory: str) -> float:
    from pallas_ls import cli

    path = os.path.join(directory, "scaled.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        status = cli.main(["check", "--isolated", "--no-cache", "--jobs", "1", "-q", path])
    seconds = time.perf_counter() - start
    assert status == 1, "the launched kernel's PAL001 is missing"
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as directory:
        for name, (make, base) in SHAPES.items():
            previous = None
            for factor in (1, 2, 4, 8):
                n = base * factor
                text = make(n)
                best = min(check_seconds(text, directory) for _ in range(args.repeat))
                ratio = f"{best / previous:5.2f}x per doubling" if previous else ""
                print(f"{name:<13} N={n:<6} {best * 1000:9.1f} ms  {ratio}")
                previous = best
    return 0


if __name__ == "__main__":
    sys.exit(main())
