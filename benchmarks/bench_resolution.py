"""Share of launches whose kernel the engine resolves, on real Pallas code.

Usage: python benchmarks/bench_resolution.py [DIR ...]   (default: the installed jax package)

Each file that mentions Pallas is analysed as a project file (imports of the same tree are read as
source); a launch counts as resolved when at least one kernel function is found for it, defined in
the file itself or in another module of the tree.  Prints launches, resolved, the share, and the
findings (which should be none on jax's own code).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pallas_ls.engine.names import mentions_pallas  # noqa: E402
from pallas_ls.lint import Project  # noqa: E402


def _default_dirs() -> list[str]:
    spec = importlib.util.find_spec("jax")
    if spec is None or not spec.origin:
        sys.exit("jax is not installed; name a directory")
    return [os.path.dirname(spec.origin)]


def _python_files(directory: str) -> list[str]:
    found = []
    for root, _, files in os.walk(directory):
        found += [os.path.join(root, f) for f in files if f.endswith(".py")]
    return sorted(found)


def main(dirs: list[str]) -> None:
    for directory in dirs:
        project = Project([directory])
        launches = resolved = findings = 0
        start = time.perf_counter()
        for path in _python_files(directory):
            with open(path, encoding="utf-8", errors="replace") as handle:
                if not mentions_pallas(handle.read()):
                    continue
            try:
                analysis = project.analysis_of(path)
            except Exception:  # noqa: BLE001 - unreadable files are not launches
                continue
            covered = {id(site.launch) for site in analysis.sites}
            covered |= {id(getattr(item, "launch", None) or item[0]) for item in analysis.imported}
            launches += len(analysis.launches)
            resolved += sum(1 for launch in analysis.launches if id(launch) in covered)
        findings = sum(
            len(r.findings) for r in project.check_paths([p for p in _python_files(directory) if p.endswith(".py")])
        )
        seconds = time.perf_counter() - start
        share = resolved / launches if launches else 1.0
        print(
            f"{directory}: {launches} launches, {resolved} resolved ({share:.1%}), {findings} findings, {seconds:.1f} s"
        )


if __name__ == "__main__":
    main(sys.argv[1:] or _default_dirs())
