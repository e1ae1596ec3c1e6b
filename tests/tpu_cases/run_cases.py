"""Run each TPU case program in this one process (a TPU start costs seconds) and record what JAX
did: `ok`, or the exception's type and first line.  With --interpret, every pallas_call is made
in interpret mode (what a laptop or CI runs), to show that interpret mode accepts the case.

    python tests/tpu_cases/run_cases.py [--interpret] [--isolate] [--out results.json] [case.py ...]

--isolate runs each case in a process of its own: a kernel that reads past its array halts the
TPU core (PAL105) and spoils every kernel after it in the same process.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import pathlib
import runpy
import subprocess
import sys
import traceback

HERE = pathlib.Path(__file__).resolve().parent


def force_interpret() -> None:
    from jax.experimental import pallas as pl

    original = pl.pallas_call

    @functools.wraps(original)
    def interpreted(*args, **kwargs):
        kwargs["interpret"] = True
        kwargs.pop("compiler_params", None)
        return original(*args, **kwargs)

    pl.pallas_call = interpreted


def run(path: pathlib.Path) -> dict:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(str(path), run_name="__main__")
        return {"outcome": "ok"}
    except BaseException as exc:  # noqa: BLE001 - every case's failure is data
        text = f"{type(exc).__name__}: {exc}"
        return {"outcome": "error", "error": text[:600], "where": traceback.format_exc(limit=-3)[-800:]}


def run_isolated(path: pathlib.Path, interpret: bool) -> dict:
    command = [sys.executable, __file__, "--out", "/dev/stdout", *(["--interpret"] if interpret else []), str(path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return {"outcome": "error", "error": "TimeoutExpired: the case did not finish in 300 s"}
    try:
        return json.loads(done.stdout[: done.stdout.rindex("}") + 1])[f"{path.parent.name}/{path.stem}"]
    except (ValueError, KeyError):
        return {"outcome": "error", "error": f"the process ended with {done.returncode}: {done.stderr[-600:]}"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interpret", action="store_true")
    parser.add_argument("--isolate", action="store_true")
    parser.add_argument("--out")
    parser.add_argument("cases", nargs="*")
    args = parser.parse_args()
    if args.interpret:
        force_interpret()
    paths = [pathlib.Path(c) for c in args.cases] or sorted(HERE.glob("*/*.py"))
    if args.isolate:  # this process must not hold the chip: each case's process takes it in turn
        results: dict = {"isolated": True}
    else:
        import jax

        results = {"backend": jax.default_backend(), "device": str(jax.devices()[0]), "jax": jax.__version__}
    for path in paths:
        outcome = run_isolated(path, args.interpret) if args.isolate else run(path)
        results[f"{path.parent.name}/{path.stem}"] = outcome
        print(path.stem, results[f"{path.parent.name}/{path.stem}"]["outcome"], file=sys.stderr, flush=True)
    text = json.dumps(results, indent=1)
    if args.out and args.out != "/dev/stdout":
        pathlib.Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
