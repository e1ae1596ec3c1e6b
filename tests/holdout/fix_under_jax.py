"""How many of the holdout corpus's fixable kernels `pallas-ls check --fix` really fixes.

A fixable case is an INVALID case whose expected findings are all of rules that have fixes
(PAL001, PAL002).  Each is copied to a temporary directory, `python -m pallas_ls check --fix`
(`--unsafe-fixes` too with `--unsafe`) runs on the copy, and the fixed program runs under real JAX
(CPU).  A case counts as fixed when the fix changed it, no PAL001/PAL002 finding remains, and the
program then runs to its end.  (Running is necessary, not sufficient: read the diffs, written with
`--diffs FILE`, to see whether each result is the one meant.)

    PYTHONPATH=. python tests/holdout/fix_under_jax.py [--unsafe] [--diffs FILE] [NAME ...]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from verify_under_jax import CASES_DIR, Case, discover  # noqa: E402

FIXABLE = {"PAL001", "PAL002"}
REPO = HERE.parent.parent


def _copy(case: Case, tmp: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """(the copy's root, the program to run in it)."""
    if case.program.parent != CASES_DIR:
        root = tmp / case.name
        shutil.copytree(case.program.parent, root)
        return root, root / case.program.name
    shutil.copyfile(case.program, tmp / case.program.name)
    return tmp, tmp / case.program.name


def fix_case(case: Case, unsafe: bool) -> dict:
    with tempfile.TemporaryDirectory(prefix="fix-holdout-") as name:
        root, program = _copy(case, pathlib.Path(name))
        before = {p: p.read_bytes() for p in root.rglob("*.py")}
        env = dict(os.environ, PYTHONPATH=str(REPO))
        base = [sys.executable, "-m", "pallas_ls", "check", "--no-cache", "--isolated", "--exit-zero", "-q"]
        extra = ["--unsafe-fixes"] if unsafe else []
        diff = subprocess.run([*base, "--diff", *extra, "."], cwd=root, env=env, capture_output=True, text=True).stdout
        out = subprocess.run([*base, "--fix", *extra, "."], cwd=root, env=env, capture_output=True, text=True).stdout
        changed = any(p.read_bytes() != data for p, data in before.items())
        clean = not any(code in out for code in FIXABLE)
        jax_env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
        jax_env["JAX_PLATFORMS"] = "cpu"
        run = subprocess.run(
            [sys.executable, program.name], cwd=program.parent, env=jax_env, capture_output=True, text=True, timeout=300
        )
        errors = [line for line in run.stderr.splitlines() if re.match(r"^[\w.]+(Error|Exception)\b", line)]
        return {
            "case": case.name,
            "changed": changed,
            "clean": clean,
            "runs": run.returncode == 0,
            "error": (errors or [""])[-1][:110],
            "diff": diff,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--unsafe", action="store_true", help="apply the unsafe fixes too")
    parser.add_argument("--diffs", metavar="FILE", help="write every case's diff to FILE")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    cases = [c for c in discover() if c.expected and c.codes <= FIXABLE and (not args.names or c.name in args.names)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda c: fix_case(c, args.unsafe), cases))
    fixed = 0
    for r in results:
        ok = r["changed"] and r["clean"] and r["runs"]
        fixed += ok
        print(
            f"{r['case']:40} changed={r['changed']!s:5} clean={r['clean']!s:5} runs={r['runs']!s:5} "
            f"{'fixed' if ok else ''} {r['error']}"
        )
    for code in sorted(FIXABLE):
        of_code = [r for r, c in zip(results, cases, strict=False) if code in c.codes]
        print(f"{code}: {sum(r['changed'] and r['clean'] and r['runs'] for r in of_code)}/{len(of_code)} fixed")
    print(f"{fixed}/{len(results)} fixable cases fixed (changed, no finding left, runs under JAX)")
    if args.diffs:
        pathlib.Path(args.diffs).write_text("".join(f"=== {r['case']}\n{r['diff']}" for r in results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
