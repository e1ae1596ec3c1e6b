"""Run each TPU case program in this one process (a TPU start costs seconds) and record what JAX
did: `ok`, or the exception's type and first line.  With --interpret, every pallas_call is made
in interpret mode (what a laptop or CI runs), to show that interpret mode accepts the case.

    python tests/tpu_cases/run_cases.py [--interpret] [--out results.json] [case.py ...]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import pathlib
import runpy
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interpret", action="store_true")
    parser.add_argument("--out")
    parser.add_argument("cases", nargs="*")
    args = parser.parse_args()
    if args.interpret:
        force_interpret()
    import jax

    paths = [pathlib.Path(c) for c in args.cases] or sorted(HERE.glob("*/*.py"))
    results = {"backend": jax.default_backend(), "device": str(jax.devices()[0]), "jax": jax.__version__}
    for path in paths:
        results[f"{path.parent.name}/{path.stem}"] = run(path)
        print(path.stem, results[f"{path.parent.name}/{path.stem}"]["outcome"], file=sys.stderr, flush=True)
    text = json.dumps(results, indent=1)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
