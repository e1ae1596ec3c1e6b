"""The Pallas code shipped in the jax wheel is correct code: the engine must report nothing on it.

Runs the engine (statically: jax is located with importlib.util.find_spec and never imported) over
`jax/experimental/pallas/ops/**` and `jax/_src/pallas/**`.  To keep the test from passing
vacuously it also checks that the engine really finds the kernels there: every launch in `ops/`
resolves to a kernel function, and there are many of them.
"""

from __future__ import annotations

import pathlib

import pytest

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.findings import SYNTAX_ERROR_CODE
from pallas_ls.engine.incremental import IncrementalDocument
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import Project, run_rules

pytestmark = pytest.mark.serial  # one worker builds the module fixture (the jax package analysed) once

# The Pallas code that ships in the jax wheel, relative to the `jax` package directory.
JAX_PALLAS_DIRS = ("experimental/pallas/ops", "_src/pallas")

# Lower bounds, from jax 0.10.2 (41 files under ops/, 20 of them with kernels; 29 pallas_call
# launches and 2 core_map launches, 32 kernel sites; 34 kernel sites in all).  Later jax versions
# add kernels, rarely remove them; a big drop means the engine stopped finding them.
MIN_OPS_FILES_WITH_KERNELS = 15
MIN_OPS_PALLAS_CALL_LAUNCHES = 25
MIN_OPS_KERNEL_SITES = 28


def _python_files(jax_dir: pathlib.Path, relative: str) -> list[pathlib.Path]:
    return sorted((jax_dir / relative).rglob("*.py"))


@pytest.fixture(scope="module")
def analyses(jax_dir):
    """(relative path, analysis, findings) for every Python file of jax's Pallas code.

    The files are checked together as one project, the way `pallas-ls check` sees them, so kernels
    launched from another module are checked too.
    """
    files = []
    for relative in JAX_PALLAS_DIRS:
        found = _python_files(jax_dir, relative)
        assert found, f"no Python files under {jax_dir / relative}"
        files += found
    project = Project(roots=[str(jax_dir.parent)])
    results = project.check_paths([str(p) for p in files])
    assert len(results) == len(files)
    out = []
    for path, result in zip(files, results, strict=True):
        assert result.error is None, f"{path}: {result.error}"
        analysis = project.analysis_of(str(path))  # cached by check_paths
        out.append((path.relative_to(jax_dir).as_posix(), analysis, result.findings))
    return out


def test_single_file_analysis_agrees(analyses, jax_dir):
    """analyze_source (one file on its own, as the editor's first pass sees it) finds nothing either."""
    findings = []
    for rel, _, _ in analyses:
        path = jax_dir / rel
        for f in run_rules(analyze(SourceFile.from_bytes(path.read_bytes(), str(path)))):
            findings.append(f"{rel}:{f.range.start.line + 1}:{f.range.start.column + 1}: {f.code} {f.message}")
    assert not findings, "\n".join(findings)


def test_editor_analysis_agrees(analyses, jax_dir):
    """The server's path (an open document: a first look at its kernel slice, then the whole file
    block by block) finds nothing either, and an edit at the end of the file re-parses nothing
    else: every block of the first version is reused."""
    problems = []
    for rel, _, _ in analyses:
        path = jax_dir / rel
        text = path.read_text(encoding="utf-8")
        document = IncrementalDocument()
        findings = run_rules(document.analyze(SourceFile.from_text(text, str(path))))
        problems += [f"{rel}:{f.range.start.line + 1}: {f.code} {f.message}" for f in findings]
        first_look = IncrementalDocument().first_look(SourceFile.from_text(text, str(path)), worth_it=1.0)
        if first_look is not None:  # the kernel slice alone (the server's first diagnostics)
            problems += [f"{rel}:{f.range.start.line + 1}: first look: {f.code}" for f in run_rules(first_look)]
        edited = text + "\n"
        document.analyze(SourceFile.from_text(edited, str(path)))
        blocks = len(document._blocks)
        if document.reused < blocks - 1:
            problems.append(f"{rel}: only {document.reused} of {blocks} blocks reused after an edit at the end")
    assert not problems, "\n".join(problems)


def _is_ops(relative: str) -> bool:
    return relative.startswith("experimental/pallas/ops/")


def test_no_syntax_errors(analyses):
    problems = [
        f"{rel}:{f.range.start.line + 1}: {f.message}"
        for rel, _, findings in analyses
        for f in findings
        if f.code == SYNTAX_ERROR_CODE
    ]
    assert not problems, "\n".join(problems)


def test_no_findings(analyses):
    findings = [
        f"{rel}:{f.range.start.line + 1}:{f.range.start.column + 1}: {f.code} {f.message}"
        for rel, _, file_findings in analyses
        for f in file_findings
    ]
    assert not findings, "false positives on jax's own Pallas code:\n" + "\n".join(findings)


def test_kernels_are_found_in_ops(analyses):
    ops = [(rel, a) for rel, a, _ in analyses if _is_ops(rel)]
    with_kernels = [rel for rel, a in ops if a.sites]
    sites = sum(len(a.sites) for _, a in ops)
    pallas_calls = sum(1 for _, a in ops for launch in a.launches if launch.kind == "pallas_call")
    assert len(with_kernels) >= MIN_OPS_FILES_WITH_KERNELS, with_kernels
    assert pallas_calls >= MIN_OPS_PALLAS_CALL_LAUNCHES
    assert sites >= MIN_OPS_KERNEL_SITES


def test_every_ops_launch_resolves_to_a_kernel(analyses):
    """Each pallas_call / core_map / ... in ops/ passes a kernel the engine can see."""
    unresolved = []
    for rel, analysis, _ in analyses:
        if not _is_ops(rel):
            continue
        covered = {id(site.launch) for site in analysis.sites} | {id(launch) for launch, _ in analysis.imported}
        unresolved += [
            f"{rel}:{launch.line} {launch.kind}" for launch in analysis.launches if id(launch) not in covered
        ]
    assert not unresolved, "launches whose kernel the engine did not resolve:\n" + "\n".join(unresolved)
