"""`pallas-ls check --fix` / `--diff`: apply the findings' preferred fixes, like `ruff check --fix`.

Each pass applies, per file, the preferred fix of every selected finding that the options allow
(safe ones; unsafe ones too with `--unsafe-fixes`), skipping fixes that overlap one already taken;
the files are then checked again and the next pass picks up what was skipped, until nothing more
applies (at most MAX_PASSES). Files are checked together as one project, as `check` does, so a
kernel launched from another file keeps its findings while its file is being fixed.

"Disable CODE for this line" (the noqa fix every finding carries) is a suppression, not a fix: it is
never applied here. A file whose text does not parse is not fixed; a result that would not parse is
never written (an internal error for that file, which is left as it was). Writes are atomic and keep
the file's permission bits, its BOM and its line endings (edits never translate newlines).
"""

from __future__ import annotations

import contextlib
import difflib
import logging
import os
import stat
import tempfile
from dataclasses import dataclass, field
from typing import Callable, Iterable

from .engine.analysis import analyze, run_rules
from .engine.edits import OverlappingEdits, apply_edits, parses
from .engine.findings import Applicability, Finding, Fix
from .engine.project import FileResult, Project, UnreadableFile, source_from_bytes
from .engine.source import BOM, SourceFile, split_lines_keepends

log = logging.getLogger("pallas_ls.fixing")

# Like ruff's limit on fix iterations: enough for fixes that overlapped, bounded for fixes that loop.
MAX_PASSES = 10

Select = Callable[[list[Finding]], list[Finding]]


# ------------------------------------------------------------------------- which fix applies
def is_suppression(fix: Fix, finding: Finding) -> bool:
    """The "Disable CODE for this line" fix the engine adds to every finding."""
    return fix.title == f"Disable {finding.code} for this line"


def preferred_fix(finding: Finding) -> Fix | None:
    """The finding's preferred fix, unless that is only the noqa suppression."""
    fix = next((f for f in finding.fixes if f.preferred), None)
    return None if fix is None or is_suppression(fix, finding) else fix


def applicable_fix(finding: Finding, unsafe: bool) -> Fix | None:
    """The fix `--fix` applies to `finding` (`unsafe`: `--unsafe-fixes` was given), or None."""
    fix = preferred_fix(finding)
    if fix is None or (fix.applicability is not Applicability.SAFE and not unsafe):
        return None
    return fix


def hidden_unsafe(finding: Finding, unsafe: bool) -> bool:
    """Whether `finding` has a preferred fix that only `--unsafe-fixes` would apply."""
    fix = preferred_fix(finding)
    return not unsafe and fix is not None and fix.applicability is Applicability.UNSAFE


# -------------------------------------------------------------------------------- one pass
def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] == a[1] == b[0] == b[1]:  # two insertions at one point: their order would be arbitrary
        return True
    return a[0] < b[1] and b[0] < a[1]


def choose_fixes(source: SourceFile, findings: Iterable[Finding], unsafe: bool) -> list[tuple[Finding, Fix]]:
    """The findings' applicable fixes, in order, without those overlapping one taken before."""
    taken: list[tuple[int, int]] = []
    chosen = []
    for finding in findings:
        fix = applicable_fix(finding, unsafe)
        if fix is None:
            continue
        spans = [(source.offset(e.range.start), source.offset(e.range.end)) for e in fix.edits]
        if any(_overlaps(span, other) for span in spans for other in taken):
            continue
        taken.extend(spans)
        chosen.append((finding, fix))
    return chosen


class FixFailed(Exception):
    """Applying fixes went wrong (a result that does not parse, edits that overlap)."""


def fix_pass(source: SourceFile, findings: Iterable[Finding], unsafe: bool) -> tuple[str, list[Finding]]:
    """One pass over one file: (new text, findings fixed). Raises FixFailed."""
    chosen = choose_fixes(source, findings, unsafe)
    if not chosen:
        return source.text, []
    try:
        text = apply_edits(source.text, source, [edit for _, fix in chosen for edit in fix.edits])
    except OverlappingEdits as exc:
        raise FixFailed(f"a fix has overlapping edits ({exc})") from None
    if text == source.text:
        return text, []
    if not parses(text):
        titles = ", ".join(sorted({f"{finding.code}: {fix.title}" for finding, fix in chosen}))
        raise FixFailed(f"the fixed text would not parse (fixes: {titles})")
    return text, [finding for finding, _ in chosen]


# ------------------------------------------------------------------------------ fixed files
@dataclass
class FixedFile:
    """One file's text before and after fixing (both without the BOM, which `had_bom` keeps)."""

    path: str | None  # absolute; None for stdin without --stdin-filename
    original: str
    had_bom: bool
    text: str
    fixed: list[Finding] = field(default_factory=list)  # selected findings whose fix was applied
    failed: bool = False  # an internal error: the file is left as it was

    @classmethod
    def of(cls, source: SourceFile, path: str | None) -> FixedFile:
        return cls(path, source.text, source.had_bom, source.text)

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def data(self) -> bytes:
        """The fixed file's bytes: UTF-8 (as it was read), the BOM kept."""
        return ((BOM if self.had_bom else "") + self.text).encode("utf-8", "surrogatepass")

    def give_up(self, reason: str) -> None:
        log.error("internal error while fixing %s: %s; the file was left unchanged", self.path or "stdin", reason)
        self.text, self.fixed, self.failed = self.original, [], True


@dataclass
class FixOutcome:
    results: list[FileResult]  # what remains after fixing (findings not yet selected)
    files: list[FixedFile]  # every file some fix was tried on

    @property
    def fixed(self) -> list[Finding]:
        return [f for file in self.files for f in file.fixed]

    @property
    def changed(self) -> list[FixedFile]:
        return [file for file in self.files if file.changed]


# ------------------------------------------------------------------------------ files on disk
def fix_paths(paths: list[str], select: Select, unsafe: bool, write: bool) -> FixOutcome:
    """Fix files (checked together as one project); `write=False` only computes the new texts."""
    project = Project()
    paths = [os.path.abspath(p) for p in paths]
    files: dict[str, FixedFile] = {}
    results = project.check_paths(paths)
    for _ in range(MAX_PASSES):
        if not _fix_round(project, results, files, select, unsafe):
            break
        results = project.check_paths(paths)
    outcome = FixOutcome(results, list(files.values()))
    if write:
        unwritten = _write_all(outcome.changed)
        for file in unwritten:
            project.set_overlay(file.path, None)  # type: ignore[arg-type]
        if unwritten:
            outcome.results = project.check_paths(paths)
    return outcome


def _fix_round(project: Project, results: list[FileResult], files: dict[str, FixedFile], select: Select, unsafe: bool) -> bool:
    """Apply one pass to every file; whether any text changed."""
    changed = False
    for result in results:
        file = files.get(result.path)
        if result.error is not None or (file is not None and file.failed):
            continue
        findings = [f for f in select(result.findings) if f.path and os.path.abspath(f.path) == result.path]
        if not any(applicable_fix(f, unsafe) for f in findings):
            continue
        try:
            source = project.analysis_of(result.path).source
        except UnreadableFile:
            continue  # gone since it was checked
        if file is None:
            if not parses(source.text):
                continue  # a file that does not parse is not fixed (its syntax errors are reported)
            file = files[result.path] = FixedFile.of(source, result.path)
        try:
            text, fixed = fix_pass(source, findings, unsafe)
        except FixFailed as exc:
            file.give_up(str(exc))
            project.set_overlay(result.path, None)
            changed = True  # its findings must be those of the file as it is
            continue
        if fixed:
            file.text = text
            file.fixed.extend(fixed)
            project.set_overlay(result.path, text)
            changed = True
    return changed


def _write_all(files: list[FixedFile]) -> list[FixedFile]:
    """Write every changed file; those that cannot be written (an error) count as unfixed."""
    unwritten = []
    for file in files:
        try:
            write_atomically(file.path, file.data())  # type: ignore[arg-type]
        except OSError as exc:
            log.error("cannot write the fixed %s: %s", file.path, exc.strerror or exc)
            file.text, file.fixed, file.failed = file.original, [], True
            unwritten.append(file)
    return unwritten


def write_atomically(path: str, data: bytes) -> None:
    """Replace the file's content: a temporary file beside it (same permission bits), fsync, rename.

    A symbolic link is followed: the file it points to is replaced, the link stays.
    """
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".pallas-ls.tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_directory(directory)


def _fsync_directory(directory: str) -> None:
    """Make the rename durable too (best effort: not every platform can open a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ------------------------------------------------------------------------------------ stdin
def fix_bytes(data: bytes, path: str | None, select: Select, unsafe: bool) -> tuple[FileResult, FixedFile | None]:
    """Fix standard input (as if it were `path`): (what remains, the fixed text; None if unreadable)."""
    try:
        source = source_from_bytes(data, path)
    except UnreadableFile as exc:
        return FileResult(path or "-", [exc.finding(path)], exc.reason), None
    file = FixedFile.of(source, path)
    try:
        findings = _findings_of(source)
        if parses(source.text):
            for _ in range(MAX_PASSES):
                text, fixed = fix_pass(source, select(findings), unsafe)
                if not fixed:
                    break
                file.text = text
                file.fixed.extend(fixed)
                source = SourceFile.from_text(text, path)
                findings = _findings_of(source)
    except FixFailed as exc:
        file.give_up(str(exc))
        findings = _findings_of(SourceFile.from_text(file.original, path))
    except Exception:  # noqa: BLE001 - one text the engine cannot handle: an error, not a crash
        log.exception("internal error while checking %s", path or "stdin")
        file.text, file.fixed, file.failed = file.original, [], True
        return FileResult(path or "-", [], "internal error"), file
    return FileResult(path or "-", findings), file


def _findings_of(source: SourceFile) -> list[Finding]:
    return run_rules(analyze(source))


# ------------------------------------------------------------------------------------ --diff
def unified_diff(file: FixedFile, shown_path: str) -> str:
    """`--- a/path` / `+++ b/path` and the hunks; a path outside the working directory as it is."""
    relative = not os.path.isabs(shown_path) and shown_path != "-"
    old, new = (f"a/{shown_path}", f"b/{shown_path}") if relative else (shown_path, shown_path)
    lines = difflib.unified_diff(split_lines_keepends(file.original), split_lines_keepends(file.text), old, new)
    out = []
    for line in lines:
        out.append(line)
        if not line.endswith(("\n", "\r")):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)
