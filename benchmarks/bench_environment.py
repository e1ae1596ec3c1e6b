#!/usr/bin/env python
"""What following imports into the Python environment costs (issue 13).

    python benchmarks/bench_environment.py             # jax's pallas/ops, best of 5
    python benchmarks/bench_environment.py --repeat 9 path/to/code

Measures, each in a fresh interpreter, best of --repeat:
  check     `pallas_ls.cli.main(["check", "--jobs", "1", ...])` in process on the corpus (default: the installed
            jax wheel's `jax/experimental/pallas/ops`, located with find_spec, never imported):
            --no-python-env (project only), the default (the interpreter pallas-ls runs in: its
            sys.path is read in process), and --python of another interpreter (a throw-away venv:
            its site directories read from its layout, nothing run);
  layout    that reading alone (`environment.site_directories`);
  jedi      for comparison, when jedi is installed: `import jedi`, and
            `jedi.create_environment(venv, safe=False).get_sys_path()`, which starts jedi's own
            helper process in the target interpreter.
It also prints how many module names `check` looked up in the environment, and how many modules
of it were parsed.  The variants are run in turns, so that the machine's load hits them alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import venv


def ops_dir() -> str:
    spec = importlib.util.find_spec("jax")
    if spec is None or not spec.origin:
        sys.exit("jax is not installed: give the paths to check")
    return str(pathlib.Path(spec.origin).parent / "experimental" / "pallas" / "ops")


# --------------------------------------------------------------------------- worker side
def _time_check(paths: list[str], extra: list[str]) -> dict:
    import contextlib
    import io

    from pallas_ls import cli
    from pallas_ls.engine import environment, sitepackages

    looked_up = []
    locate = sitepackages.SearchPath.locate
    sitepackages.SearchPath.locate = lambda self, dotted: looked_up.append(dotted) or locate(self, dotted)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(["check", "--isolated", "--no-cache", "--exit-zero", "-q", "--jobs", "1", *extra, *paths])
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "parsed": len(environment._PARSED), "looked_up": len(set(looked_up))}


def _time_layout(executable: str) -> dict:
    from pallas_ls.engine import environment

    start = time.perf_counter()
    environment.site_directories(executable)
    return {"seconds": time.perf_counter() - start}


def _time_jedi(env_dir: str) -> dict:
    start = time.perf_counter()
    import jedi

    imported = time.perf_counter()
    jedi.create_environment(env_dir, safe=False).get_sys_path()
    return {"seconds": imported - start, "sys_path": time.perf_counter() - imported}


def worker(kind: str, argument: str) -> None:
    spec = json.loads(argument)
    if kind == "check":
        result = _time_check(spec["paths"], spec["extra"])
    elif kind == "layout":
        result = _time_layout(spec["executable"])
    else:
        result = _time_jedi(spec["env"])
    print(json.dumps(result))


# --------------------------------------------------------------------------- driver side
def run_once(kind: str, spec: dict) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", kind, json.dumps(spec)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(variants: dict[str, tuple[str, dict]], repeat: int) -> dict[str, dict]:
    """Best of `repeat` fresh interpreters for each variant, taken in turns (a change of the
    machine's load hits every variant alike)."""
    runs: dict[str, list[dict]] = {name: [] for name in variants}
    for _ in range(repeat):
        for name, (kind, spec) in variants.items():
            runs[name].append(run_once(kind, spec))
    return {name: min(found, key=lambda r: r["seconds"]) for name, found in runs.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return 0
    paths = args.paths or [ops_dir()]
    with tempfile.TemporaryDirectory(prefix="bench-env-") as tmp:
        other = os.path.join(tmp, "venv")
        venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(other)
        executable = os.path.join(other, "Scripts" if os.name == "nt" else "bin", "python")
        variants = {
            "check, --no-python-env": ("check", {"paths": paths, "extra": ["--no-python-env"]}),
            "check, the interpreter pallas-ls runs in": ("check", {"paths": paths, "extra": []}),
            "check, --python another venv": ("check", {"paths": paths, "extra": ["--python", other]}),
            "site directories read from the layout": ("layout", {"executable": executable}),
        }
        if importlib.util.find_spec("jedi") is not None:
            variants["jedi"] = ("jedi", {"env": other})
        figures = measure(variants, args.repeat)
        if "jedi" in figures:
            jedi = figures.pop("jedi")
            figures["import jedi"] = {"seconds": jedi["seconds"]}
            figures["jedi create_environment + get_sys_path"] = {"seconds": jedi["sys_path"]}
    print(f"corpus: {', '.join(paths)}   (best of {args.repeat}, each in a fresh interpreter)")
    for name, figure in figures.items():
        parsed = (
            f"   {figure['looked_up']} names looked up, {figure['parsed']} modules parsed" if "parsed" in figure else ""
        )
        print(f"  {name:<44} {figure['seconds'] * 1000:8.1f} ms{parsed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
