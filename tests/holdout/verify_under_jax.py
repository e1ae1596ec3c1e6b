"""Run every holdout case under real JAX (CPU) and check it does what its markers claim.

A case is `cases/<name>.py` (run with cwd = cases/) or `cases/<name>/main.py` (run with cwd = that
directory; its `_env/site-packages`, if any, is the environment its imports are resolved in, and
main.py adds it with `site.addsitedir`).  `# expect: PAL001[, PAL004]` comments in any of its files are its expected findings; a
case with no marker is VALID and must exit 0.  An INVALID case must exit non-zero with an exception
whose text fits one of its expected rules (JAX raises only the first error it meets).

    python tests/holdout/verify_under_jax.py [-j 2] [--changed] [--record] [NAME ...]

Prints a table and exits 1 on any mismatch.  `--record` writes each verified case's digest (its
files' bytes) with the JAX version to verified_under_jax.json; `--changed` runs only the cases
that file does not vouch for (new or edited since, or verified under another JAX or other error
patterns), which is what the test suite runs: a case's run under the same JAX gives the same
verdict, and the whole corpus costs minutes.  Each case runs with JAX_PLATFORMS=cpu, no other JAX_*
variables, and XLA told to compile quickly (QUICK_COMPILE).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import hashlib
import importlib.metadata
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
TIMEOUT_S = 240
# Runs programs in one process that imports jax once (the rule examples' runner).
RUNNER = HERE.parent / "jax_runner.py"

# A directory case's Python environment (its `site-packages`, and sources its `.pth` files name):
# what the program imports as installed packages, not files of the case.
ENV_DIR = "_env"

EXPECT_RE = re.compile(r"#\s*expect:\s*(PAL\d{3}(?:\s*,\s*PAL\d{3})*)")

# What JAX says for each rule: the `jax_error`s of the rule modules' examples, generalised (the
# PAL004 examples name a kernel and a parameter; any binding TypeError fits).
JAX_ERRORS: dict[str, tuple[str, ...]] = {
    "PAL001": (
        r"should return None",
        r"mutable array references cannot be returned",
        r"object of type 'NoneType' has no len\(\)",
    ),
    "PAL002": (
        r"Cannot pass the same ref into a mpmd map multiple times",
        r"only one reference to a mutable array may be passed",
    ),
    "PAL003": (
        r"captures constants",
        r"captures non-Ref constants",
        r"captures non-scalar constants",
    ),
    "PAL004": (
        r"TypeError: .*(positional argument|required keyword-only argument|got multiple values for argument"
        r"|got an unexpected keyword argument)",
    ),
    "PAL005": (r"object of type 'NoneType' has no len\(\)",),
    "PAL006": (r"The emit_pipeline body function must return None",),
    "PAL007": (r"cond branch outputs must have the same pytree structure",),
}


@dataclasses.dataclass
class Case:
    name: str
    program: pathlib.Path  # the file to run
    files: list[pathlib.Path]  # every .py file of the case
    expected: list[tuple[pathlib.Path, int, str]]  # (file, 1-based line, code)

    @property
    def valid(self) -> bool:
        return not self.expected

    @property
    def codes(self) -> set[str]:
        return {code for _, _, code in self.expected}

    @property
    def root(self) -> pathlib.Path:
        return self.program.parent


def markers(path: pathlib.Path) -> list[tuple[pathlib.Path, int, str]]:
    out = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = EXPECT_RE.search(line)
        if match:
            out.extend((path, lineno, code.strip()) for code in match.group(1).split(","))
    return out


def discover(cases_dir: pathlib.Path = CASES_DIR) -> list[Case]:
    cases = []
    for entry in sorted(cases_dir.iterdir()):
        if entry.name.startswith((".", "_")):
            continue
        if entry.is_file() and entry.suffix == ".py":
            files = [entry]
            program = entry
        elif entry.is_dir() and (entry / "main.py").is_file():
            files = sorted(p for p in entry.rglob("*.py") if not {"__pycache__", ENV_DIR} & set(p.parts))
            program = entry / "main.py"
        else:
            continue
        expected = [m for f in files for m in markers(f)]
        cases.append(Case(entry.stem if entry.is_file() else entry.name, program, files, expected))
    return cases


@dataclasses.dataclass
class Outcome:
    case: Case
    returncode: int
    error: str  # the exception lines of stderr ("" when it ran cleanly)
    seconds: float
    ok: bool
    why: str


def _exception_lines(stderr: str) -> str:
    """stderr without the traceback frames and source lines (which start with spaces)."""
    return "\n".join(line for line in stderr.splitlines() if line and not line.startswith(" "))


# The programs are tiny and each compiles its own kernel: XLA's compile dominates their run, and
# optimising less changes no outcome (4370 cases, the same verdicts with and without, 2026-12-07):
# 81 s -> 65 s for them all on this machine's 2 CPUs.
QUICK_COMPILE = "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"


def _jax_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env["JAX_PLATFORMS"] = "cpu"
    env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} {QUICK_COMPILE}".strip()
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_case(case: Case) -> Outcome:
    env = _jax_env()
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, case.program.name],
            cwd=case.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
        returncode, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired:
        returncode, stderr = -1, f"Timeout: did not finish within {TIMEOUT_S} s"
    seconds = time.perf_counter() - start
    error = _exception_lines(stderr) if returncode != 0 else ""
    return _outcome(case, returncode, error, seconds)


def run_in_one_process(cases: list[Case]) -> list[Outcome]:
    """Single-file cases run one after another by tests/jax_runner.py, which imports jax once and
    resets its config between programs: a case costs its own run, not a Python and a
    jax import each (151 of the suite's 320 s went to those, issue 33).  A runner that dies is
    not a verdict: its cases run again one process each."""
    if not cases:
        return []
    with tempfile.TemporaryDirectory(prefix="pallas-ls-holdout-") as tmp:
        request, result = pathlib.Path(tmp, "request.json"), pathlib.Path(tmp, "result.json")
        request.write_text(json.dumps([_request(c) for c in cases]))
        try:
            subprocess.run(
                [sys.executable, str(RUNNER), str(request), str(result)],
                env=_jax_env(),
                capture_output=True,
                timeout=TIMEOUT_S + 30 * len(cases),
                check=True,
            )
            ran = json.loads(result.read_text(encoding="utf-8"))
        except (subprocess.SubprocessError, OSError, ValueError):
            return [run_case(c) for c in cases]
    by_id = {r["id"]: r for r in ran}
    return [
        _outcome(c, 0 if by_id[c.name]["ok"] else 1, "\n".join(by_id[c.name]["chain"]), by_id[c.name]["seconds"])
        for c in cases
    ]


def _request(case: Case) -> dict[str, str]:
    """What the runner is given: the program's text, and for a program of several modules its
    directory (run from there, as `python main.py`)."""
    request = {"id": case.name, "source": case.program.read_text(encoding="utf-8")}
    if case.program.parent != CASES_DIR:
        request["root"] = str(case.root.resolve())
    return request


def _outcome(case: Case, returncode: int, error: str, seconds: float) -> Outcome:
    """Whether a run is what the case expects: a valid case runs clean; an invalid one raises an
    error that fits one of its codes (JAX_ERRORS)."""
    if case.valid:
        ok = returncode == 0
        why = "ran" if ok else "valid case failed"
    elif returncode == 0:
        ok, why = False, "invalid case ran without error"
    else:
        fits = [code for code in sorted(case.codes) if any(re.search(p, error) for p in JAX_ERRORS[code])]
        ok = bool(fits)
        why = f"fits {','.join(fits)}" if ok else "error does not fit " + ",".join(sorted(case.codes))
    return Outcome(case, returncode, error, seconds, ok, why)


def last_error_line(error: str) -> str:
    lines = [line for line in error.splitlines() if re.match(r"^[\w.]+(Error|Exception|Timeout)\b", line)]
    return (lines[-1] if lines else (error.splitlines() or [""])[-1])[:150]


# The cases verified under JAX, by digest (see `--record`), and what their verdicts depend on.
VERIFIED_FILE = HERE / "verified_under_jax.json"


def digest(case: Case) -> str:
    """The case's files (every file of a directory case, its `_env` included), as bytes."""
    root = case.program.parent if case.program.parent != CASES_DIR else None
    files = (
        sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts) if root else [case.program]
    )
    h = hashlib.sha256()
    for path in files:
        h.update(path.relative_to(root or CASES_DIR).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def verdict_basis() -> dict[str, str]:
    """What a verdict depends on besides the case: the JAX installed (read without importing it)
    and the error patterns a verdict is matched against."""
    versions = {}
    for package in ("jax", "jaxlib"):
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "none"
    patterns = hashlib.sha256(json.dumps(JAX_ERRORS, sort_keys=True).encode()).hexdigest()[:20]
    return {**versions, "error-patterns": patterns}


def unverified(cases: list[Case]) -> list[Case]:
    """The cases VERIFIED_FILE does not vouch for under the JAX installed here."""
    try:
        recorded = json.loads(VERIFIED_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return cases
    if not isinstance(recorded, dict) or recorded.get("basis") != verdict_basis():
        return cases
    digests = recorded.get("cases", {})
    return [c for c in cases if digests.get(c.name) != digest(c)]


def record(outcomes: list[Outcome]) -> None:
    """Vouch for the verified cases in VERIFIED_FILE (kept: entries for other cases, under the same basis)."""
    basis = verdict_basis()
    try:
        recorded = json.loads(VERIFIED_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = {}
    kept = recorded.get("cases", {}) if isinstance(recorded, dict) and recorded.get("basis") == basis else {}
    names = {c.name for c in discover(CASES_DIR)}
    cases = {name: d for name, d in kept.items() if name in names}
    for o in outcomes:
        if o.ok:
            cases[o.case.name] = digest(o.case)
        else:
            cases.pop(o.case.name, None)
    text = json.dumps({"basis": basis, "cases": dict(sorted(cases.items()))}, indent=0, sort_keys=True)
    VERIFIED_FILE.write_text(text + "\n", encoding="utf-8")


def verify(names: list[str] | None = None, jobs: int = 2, out=sys.stdout, changed_only: bool = False) -> list[Outcome]:
    cases = discover()
    if names:
        cases = [c for c in cases if c.name in names]
    if changed_only:
        cases = unverified(cases)
    # Cross-module cases too: the runner runs them from their directories, forgetting their modules.
    chunks = [cases[i::jobs] for i in range(jobs)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        ran = list(pool.map(run_in_one_process, chunks))
    by_name = {o.case.name: o for chunk in ran for o in chunk}
    outcomes = [by_name[c.name] for c in cases]
    width = max((len(o.case.name) for o in outcomes), default=4)
    print(f"{'case':<{width}}  {'expect':<14} {'result':<5} {'secs':>5}  detail", file=out)
    for o in outcomes:
        expect = ",".join(sorted(o.case.codes)) or "valid"
        detail = o.why if o.case.valid and o.ok else f"{o.why}: {last_error_line(o.error)}"
        print(
            f"{o.case.name:<{width}}  {expect:<14} {'ok' if o.ok else 'FAIL':<5} {o.seconds:5.1f}  {detail}", file=out
        )
    bad = [o for o in outcomes if not o.ok]
    valid = sum(o.case.valid for o in outcomes)
    print(
        f"\n{len(outcomes)} cases ({valid} valid, {len(outcomes) - valid} invalid): "
        f"{len(outcomes) - len(bad)} verified, {len(bad)} mismatched",
        file=out,
    )
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="only these cases")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("-v", "--verbose", action="store_true", help="print the error text of mismatches")
    parser.add_argument(
        "--changed", action="store_true", help=f"only the cases {VERIFIED_FILE.name} does not vouch for"
    )
    parser.add_argument("--record", action="store_true", help=f"vouch for the verified cases in {VERIFIED_FILE.name}")
    args = parser.parse_args(argv)
    outcomes = verify(args.names or None, args.jobs, changed_only=args.changed)
    bad = [o for o in outcomes if not o.ok]
    if args.record:
        record(outcomes)
    if args.verbose:
        for o in bad:
            print(f"\n--- {o.case.name}\n{o.error}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
