"""Install pallas_ls and its pure-Python runtime dependencies into bundled/libs.

    python scripts/bundle.py [--python PYTHON]

The extension runs the bundled server as `python -m pallas_ls serve` with PYTHONPATH=bundled/libs,
like Microsoft's ruff and black extensions. Everything installed is pure Python (pygls, lsprotocol,
cattrs, attrs, typing_extensions, plus tomli and exceptiongroup for Python 3.10), so one bundle
serves every interpreter >= 3.10. JAX is never installed: the server does not import it.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CLIENT = HERE.parent
REPO = CLIENT.parent
TARGET = CLIENT / "bundled" / "libs"
# pallas_ls's runtime dependencies (pyproject.toml), with tomli and exceptiongroup (cattrs') for
# Python 3.10. Resolved as py3-none-any wheels for Python 3.10: no compiled speedups (tomli ships
# mypyc builds), so the bundle runs on every platform and every Python >= 3.10.
DEPS = ["pygls>=2.1,<3", "lsprotocol>=2025.0.0", "tomli>=2.0", "exceptiongroup>=1.1"]
PURE = ["--only-binary=:all:", "--platform", "any", "--implementation", "py", "--python-version", "3.10"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable, help="interpreter whose pip installs (default: this one)")
    args = ap.parse_args()
    # Built beside the target and moved into place at the end: a concurrent build (or a failed
    # one) never leaves a half-filled bundled/libs for vsce to package.
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="libs.", dir=TARGET.parent))
    try:
        return build(args.python, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def build(python: str, work: pathlib.Path) -> int:
    pip = [
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-compile",
        "--no-warn-script-location",
        "--target",
        str(work),
    ]
    for cmd in ([*pip, *PURE, *DEPS], [*pip, "--no-deps", str(REPO)]):
        # pip's chatter (e.g. warnings about this machine's index config) only when it fails.
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode:
            print(run.stdout + run.stderr, file=sys.stderr)
            return run.returncode
    # Console scripts and caches are of no use in the bundle.
    for junk in [work / "bin", *work.rglob("__pycache__")]:
        shutil.rmtree(junk, ignore_errors=True)
    native = [p for p in work.rglob("*") if p.suffix in {".so", ".pyd", ".dylib"}]
    if native:
        print(f"bundle.py: native modules would tie the bundle to one platform: {native}", file=sys.stderr)
        return 1
    names = sorted(d.name for d in work.iterdir() if d.suffix == ".dist-info")
    old = TARGET.with_name(f"{TARGET.name}.old-{os.getpid()}")
    if TARGET.exists():
        TARGET.rename(old)
    work.rename(TARGET)
    shutil.rmtree(old, ignore_errors=True)
    print("bundled:", ", ".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
