#!/usr/bin/env python
"""Time `pallas-ls check` on the installed jax package (or on any paths given).

    python benchmarks/bench_check.py                 # every *.py of the installed jax package
    python benchmarks/bench_check.py src/ other.py   # your own code
    python benchmarks/bench_check.py --repeat 5 --json

Measures, each best of --repeat runs:
  engine   the engine API, file by file: read + decode + prefilter (does the text mention
           Pallas?), then analysis (parse, model, kernels, rules) of the files that pass the
           prefilter -- what `check` does.  For reference it also times analysing the files the
           prefilter skips, i.e. the cost the prefilter saves;
  project  `engine.project.Project.check_paths` (adds kernels launched from other files);
  cli      `pallas_ls.cli.main(["check", ...])` in this process, and `python -m pallas_ls check`
           as a subprocess (interpreter start-up and imports included), when the CLI exists.

jax is located with importlib.util.find_spec and never imported.  Nothing here imports or runs the
analysed code.  Every measurement runs in a fresh Python process of its own, so one cannot
leave garbage or caches behind for the next.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib.util
import io
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.names import mentions_pallas
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import run_rules

SKIP_DIRS = {".git", "__pycache__", "node_modules", ".venv", "venv"}


def jax_package_dir() -> pathlib.Path | None:
    spec = importlib.util.find_spec("jax")
    if spec is None or not spec.origin:
        return None
    return pathlib.Path(spec.origin).parent


def python_files(paths: list[str]) -> list[str]:
    files: list[str] = []
    for path in paths:
        if os.path.isfile(path):
            files.append(os.path.abspath(path))
            continue
        for root, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            files += [os.path.abspath(os.path.join(root, n)) for n in sorted(names) if n.endswith(".py")]
    return files


# --------------------------------------------------------------------------------- engine
def bench_engine(files: list[str]) -> dict:
    """One pass over `files` with the engine API, timing each stage.

    `total_s` is what check pays: read + prefilter for every file, analysis for Pallas files.
    `analysis_other_s` (analysing the skipped files anyway) is reported apart, not in the total.
    """
    read = analysis_pallas = analysis_other = 0.0
    lines = pallas_files = pallas_lines = findings = unreadable = 0
    for path in files:
        t0 = time.perf_counter()
        with open(path, "rb") as handle:
            data = handle.read()
        try:
            source = SourceFile.from_bytes(data, path)
        except UnicodeDecodeError:
            unreadable += 1
            read += time.perf_counter() - t0
            continue
        mentions = mentions_pallas(source.text)
        t1 = time.perf_counter()
        found = run_rules(analyze(source))
        t2 = time.perf_counter()
        n = source.text.count("\n") + 1
        read += t1 - t0
        lines += n
        findings += len(found)
        if mentions:
            pallas_files += 1
            pallas_lines += n
            analysis_pallas += t2 - t1
        else:
            analysis_other += t2 - t1
    return {
        "files": len(files),
        "lines": lines,
        "pallas_files": pallas_files,
        "pallas_lines": pallas_lines,
        "unreadable": unreadable,
        "findings": findings,
        "read_prefilter_s": read,
        "analysis_pallas_s": analysis_pallas,
        "analysis_other_s": analysis_other,
        "total_s": read + analysis_pallas,
    }


def bench_project(files: list[str]) -> dict | None:
    try:
        from pallas_ls.lint import Project
    except ImportError:
        return None
    t0 = time.perf_counter()
    results = Project().check_paths(files)
    elapsed = time.perf_counter() - t0
    return {"total_s": elapsed, "findings": sum(len(r.findings) for r in results)}


# ------------------------------------------------------------------------------------ cli
def _cli_args(paths: list[str]) -> list[str]:
    return ["check", "--isolated", "--exit-zero", "--output-format", "json", *paths]


def bench_cli_in_process(paths: list[str]) -> dict | None:
    try:
        from pallas_ls import cli
    except ImportError:
        return None
    out, err = io.StringIO(), io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(_cli_args(paths))
    elapsed = time.perf_counter() - t0
    return {
        "total_s": elapsed,
        "status": status,
        "findings": _count_json(out.getvalue()),
        "stderr": err.getvalue()[-500:],
    }


def bench_cli_subprocess(paths: list[str]) -> dict | None:
    if importlib.util.find_spec("pallas_ls.cli") is None:
        return None
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pallas_ls", *_cli_args(paths)], capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pallas_ls", "--version"], capture_output=True, text=True)
    startup = time.perf_counter() - t0
    return {
        "total_s": elapsed,
        "startup_s": startup,
        "status": proc.returncode,
        "findings": _count_json(proc.stdout),
        "stderr": proc.stderr[-500:],
    }


def _count_json(text: str) -> int | None:
    try:
        return len(json.loads(text))
    except ValueError:
        return None


# ---------------------------------------------------------------------------------- main
MEASUREMENTS = {
    "engine": lambda files, paths: bench_engine(files),
    "engine_gc_disabled": lambda files, paths: _without_gc(bench_engine, files),
    "project": lambda files, paths: bench_project(files),
    "cli_in_process": lambda files, paths: bench_cli_in_process(paths),
    "cli_subprocess": lambda files, paths: bench_cli_subprocess(paths),
}


def _without_gc(fn, *args):
    gc.disable()
    try:
        return fn(*args)
    finally:
        gc.enable()


def run_isolated(name: str, paths: list[str]) -> dict | None:
    """One measurement in a fresh interpreter (the worker mode of this script)."""
    proc = subprocess.run([sys.executable, __file__, "--worker", name, *paths], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"measurement {name} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def best_of(repeat: int, name: str, paths: list[str]) -> tuple[dict | None, list[float]]:
    best, times = None, []
    for _ in range(repeat):
        result = run_isolated(name, paths)
        if result is None:
            return None, []
        times.append(result["total_s"])
        if best is None or result["total_s"] < best["total_s"]:
            best = result
    return best, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="files or directories (default: the installed jax package)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best is reported (default 3)")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI measurements")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--compare-gc", action="store_true", help="also time the engine API with the cyclic garbage collector disabled"
    )
    parser.add_argument("--worker", choices=sorted(MEASUREMENTS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    paths = args.paths
    if not paths:
        jax_dir = jax_package_dir()
        if jax_dir is None:
            parser.error("jax is not installed; give paths to check")
        paths = [str(jax_dir)]
    files = python_files(paths)
    if not files:
        parser.error("no Python files found")
    if args.worker:
        print(json.dumps(MEASUREMENTS[args.worker](files, paths)))
        return 0

    engine, engine_times = best_of(args.repeat, "engine", paths)
    engine_nogc = best_of(args.repeat, "engine_gc_disabled", paths)[0] if args.compare_gc else None
    project, _ = best_of(args.repeat, "project", paths)
    cli_in, cli_sub = None, None
    if not args.no_cli:
        cli_in, _ = best_of(args.repeat, "cli_in_process", paths)
        cli_sub, _ = best_of(args.repeat, "cli_subprocess", paths)

    report = {
        "python": sys.version.split()[0],
        "paths": paths,
        "engine": engine,
        "engine_runs_s": engine_times,
        "engine_gc_disabled": engine_nogc,
        "project": project,
        "cli_in_process": cli_in,
        "cli_subprocess": cli_sub,
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print_report(report)
    return 0


def _rate(n: float, seconds: float) -> str:
    return f"{n / seconds:,.0f}" if seconds > 0 else "inf"


def print_report(report: dict) -> None:
    e = report["engine"]
    files, lines = e["files"], e["lines"]
    other_files = files - e["pallas_files"]
    print(f"pallas-ls check benchmark (Python {report['python']}) on {', '.join(report['paths'])}")
    print(
        f"  {files:,} files, {lines:,} lines; {e['pallas_files']:,} files ({e['pallas_lines']:,} lines) mention pallas;"
        f" {e['unreadable']} unreadable; {e['findings']} findings"
    )
    print()
    print(
        f"engine API, best of {len(report['engine_runs_s'])} "
        f"(runs: {', '.join(f'{t:.2f}' for t in report['engine_runs_s'])} s; median {statistics.median(report['engine_runs_s']):.2f} s)"
    )
    print(
        f"  total                 {e['total_s']:7.3f} s   {_rate(files, e['total_s']):>8} files/s  {_rate(lines, e['total_s']):>10} lines/s"
    )
    print(
        f"  read+decode+prefilter {e['read_prefilter_s']:7.3f} s   ({e['read_prefilter_s'] / e['total_s']:.0%})"
        f"  all {files:,} files, {1000 * e['read_prefilter_s'] / files:.2f} ms/file"
    )
    print(
        f"  analysis              {e['analysis_pallas_s']:7.3f} s   ({e['analysis_pallas_s'] / e['total_s']:.0%})"
        f"  the {e['pallas_files']:,} files that mention pallas:"
        f" {_rate(e['pallas_files'], e['analysis_pallas_s'])} files/s, {_rate(e['pallas_lines'], e['analysis_pallas_s'])} lines/s"
    )
    print(
        f"  (saved by the prefilter: analysing the other {other_files:,} files would take {e['analysis_other_s']:.3f} s,"
        f" {1000 * e['analysis_other_s'] / max(other_files, 1):.2f} ms/file)"
    )
    g = report.get("engine_gc_disabled")
    if g:
        print(
            f"  with gc disabled      {g['total_s']:7.3f} s   {_rate(files, g['total_s']):>8} files/s  {_rate(lines, g['total_s']):>10} lines/s"
            f"  (analysis {g['analysis_pallas_s']:.3f} s; skipped files would take {g['analysis_other_s']:.3f} s)"
        )
    for key, title in (
        ("project", "engine Project.check_paths"),
        ("cli_in_process", "CLI in process (cli.main)"),
        ("cli_subprocess", "CLI subprocess (python -m pallas_ls check)"),
    ):
        r = report[key]
        if r is None:
            print(f"{title}: not available")
            continue
        extra = f"  (interpreter start-up alone: {r['startup_s']:.2f} s)" if "startup_s" in r else ""
        status = f"  exit {r['status']}" if "status" in r else ""
        print(
            f"{title}: {r['total_s']:.3f} s  {_rate(files, r['total_s'])} files/s  {_rate(lines, r['total_s'])} lines/s"
            f"  findings {r['findings']}{status}{extra}"
        )
        if r.get("stderr"):
            print("  stderr: " + r["stderr"].strip().replace("\n", "\n  stderr: "))


if __name__ == "__main__":
    sys.exit(main())
