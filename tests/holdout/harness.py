"""Shared by tests/test_holdout.py and benchmarks/bench_recall.py: run pallas-ls on holdout cases.

Findings and expectations are sets of (file relative to the case root, code, 1-based line).
A single-file case is copied into a temporary directory of its own first, so that the other
cases in `cases/` are not part of its project.
"""

from __future__ import annotations

import pathlib
import shutil
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from verify_under_jax import CASES_DIR, ENV_DIR, Case, discover  # noqa: E402

KNOWN_MISSES_FILE = HERE / "known_misses.txt"

Marker = tuple[str, str, int]  # (relative file, code, 1-based line)


def case_root(case: Case) -> pathlib.Path:
    return case.program.parent if case.program.name == "main.py" and case.program.parent != CASES_DIR else CASES_DIR


def expected_markers(case: Case) -> set[Marker]:
    root = case.program.parent
    return {(path.relative_to(root).as_posix(), code, line) for path, line, code in case.expected}


def lint_case(case: Case) -> set[Marker]:
    """The findings pallas-ls reports on `case`, as markers."""

    if case.program.parent != CASES_DIR:  # a directory case
        return _lint_tree(case.program.parent, case.files)
    with tempfile.TemporaryDirectory(prefix=f"holdout-{case.name}-") as tmp:
        copy = pathlib.Path(tmp) / case.program.name
        shutil.copyfile(case.program, copy)
        return _lint_tree(pathlib.Path(tmp), [copy])


def _lint_tree(root: pathlib.Path, files: list[pathlib.Path]) -> set[Marker]:
    from pallas_ls.engine.environment import Environment
    from pallas_ls.lint import Project

    site = root / ENV_DIR / "site-packages"
    environment = Environment.from_directories([str(site)]) if site.is_dir() else None
    project = Project(roots=[str(root)], environment=environment)
    found: set[Marker] = set()
    for result in project.check_paths([str(f) for f in files]):
        rel = pathlib.Path(result.path).resolve().relative_to(root.resolve()).as_posix()
        for finding in result.findings:
            found.add((rel, finding.code, finding.range.start.line + 1))
    return found


def known_misses() -> dict[str, str]:
    """Case name -> reason, from known_misses.txt (`name  reason`; `#` comments)."""
    out: dict[str, str] = {}
    if not KNOWN_MISSES_FILE.exists():
        return out
    for line in KNOWN_MISSES_FILE.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, reason = line.partition(" ")
            out[name] = reason.strip()
    return out


__all__ = ["Case", "case_root", "discover", "expected_markers", "known_misses", "lint_case"]
