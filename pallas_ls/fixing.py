"""`pallas-ls check --fix` / `--diff`: apply the findings' preferred fixes, like `ruff check --fix`.

Each pass applies, per file, the preferred fix of every selected finding that the options allow
(safe ones; unsafe ones too with `--unsafe-fixes`; display-only ones never), skipping fixes that overlap one already taken;
the files are then checked again and the next pass picks up what was skipped, until nothing more
applies (at most MAX_PASSES). Files are checked together as one project, as `check` does, so a
kernel launched from another file keeps its findings while its file is being fixed.

"Disable CODE for this line" (the noqa fix every finding carries, `Fix.suppression`) is a
suppression, not a fix: it is never applied here. A file whose text does not compile is not fixed; a
result that would not compile is never written (an internal error for that file, which is left as it was). Writes keep the file's
permission bits, owner, group and hard links, its BOM and its line endings (edits never translate
newlines); they are atomic (a rename) unless the file has other links or its owner would change,
when it is rewritten in place.  A file whose bytes on disk are no longer those analysed (saved
meanwhile) is never written: it is skipped with a warning (issue 15).
"""

from __future__ import annotations

import contextlib
import difflib
import logging
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .engine.analysis import analyze
from .engine.edits import apply_edits, compiles, non_overlapping
from .engine.environment import Environment
from .engine.files import FileResult, UnreadableFile, source_from_bytes
from .engine.findings import Edit, Finding, Fix, applicable_fix
from .engine.noqa import noqa_line_edit
from .engine.notebook import Notebook
from .engine.source import BOM, Position, Range, SourceFile, split_lines_keepends
from .lint import Project, RuleRunner, run_rules

log = logging.getLogger("pallas_ls.fixing")

# Like ruff's limit on fix iterations: enough for fixes that overlapped, bounded for fixes that loop.
MAX_PASSES = 10

Select = Callable[[list[Finding]], list[Finding]]


# ------------------------------------------------------------------------- which fix applies
# -------------------------------------------------------------------------------- one pass
def choose_fixes(source: SourceFile, findings: Iterable[Finding], unsafe: bool) -> list[tuple[Finding, Fix]]:
    """The findings' applicable fixes, in order, without those overlapping one taken before."""
    candidates = []
    for finding in findings:
        fix = applicable_fix(finding, unsafe)
        if fix is not None:
            candidates.append((finding, fix))
    return non_overlapping(source, candidates, lambda pair: pair[1])


class FixFailed(Exception):
    """Applying fixes went wrong (a result that does not parse, edits that overlap)."""


def fix_pass(source: SourceFile, findings: Iterable[Finding], unsafe: bool) -> tuple[str, list[Finding]]:
    """One pass over one file: (new text, findings fixed). Raises FixFailed."""
    chosen = choose_fixes(source, findings, unsafe)
    if not chosen:
        return source.text, []
    # choose_fixes left out every fix that overlaps, so applying cannot fail.
    text = apply_edits(source.text, source, [edit for _, fix in chosen for edit in fix.edits])
    if text == source.text:
        return text, []
    if not compiles(text):
        titles = ", ".join(sorted({f"{finding.code}: {fix.title}" for finding, fix in chosen}))
        raise FixFailed(f"the fixed text would not compile (fixes: {titles})")
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
    # A notebook: `original` and `text` are its code cells as one module; its file is the JSON.
    notebook: Notebook | None = None

    @classmethod
    def of(cls, source: SourceFile, path: str | None) -> FixedFile:
        return cls(path, source.text, source.had_bom, source.text, notebook=source.notebook)

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def data(self) -> bytes:
        """The fixed file's bytes: UTF-8 (as it was read), the BOM kept."""
        text = self.notebook.with_python(self.text) if self.notebook else self.text
        return ((BOM if self.had_bom else "") + text).encode("utf-8", "surrogatepass")

    def original_data(self) -> bytes:
        """The bytes that were analysed (strict UTF-8 decoding round-trips exactly)."""
        text = self.notebook.text if self.notebook else self.original
        return ((BOM if self.had_bom else "") + text).encode("utf-8", "surrogatepass")

    def give_up(self, reason: str) -> None:
        log.error("internal error while fixing %s: %s; the file was left unchanged", self.path or "stdin", reason)
        self.text, self.fixed, self.failed = self.original, [], True


@dataclass
class FixOutcome:
    results: list[FileResult]  # what remains after fixing (findings not yet selected)
    files: list[FixedFile]  # every file some fix was tried on
    skipped: list[str] = field(default_factory=list)  # changed on disk since analysed: not written

    @property
    def fixed(self) -> list[Finding]:
        return [f for file in self.files for f in file.fixed]

    @property
    def changed(self) -> list[FixedFile]:
        return [file for file in self.files if file.changed]


# ------------------------------------------------------------------------------ files on disk
def fix_paths(
    paths: list[str],
    select: Select,
    unsafe: bool,
    write: bool,
    environment: Environment | None = None,
    context: list[str] | None = None,
    rules: RuleRunner = run_rules,
) -> FixOutcome:
    """Fix files (checked together as one project); `write=False` only computes the new texts;
    `environment`: where imports beyond the project are followed; `context`: files that may launch
    their kernels, analysed with them but neither reported nor fixed."""
    project = Project(environment=environment, lint=rules)
    paths = [os.path.abspath(p) for p in paths]
    checked = paths + [os.path.abspath(p) for p in context or () if os.path.abspath(p) not in paths]

    def check() -> list[FileResult]:
        return project.check_paths(checked)[: len(paths)]  # the context's own results are not ours

    files: dict[str, FixedFile] = {}
    results = check()
    for _ in range(MAX_PASSES):
        if not _fix_round(project, results, files, select, unsafe):
            break
        results = check()
    outcome = FixOutcome(results, list(files.values()))
    if write:
        unwritten = _write_all(outcome.changed, outcome.skipped)
        for file in unwritten:
            project.set_overlay(file.path, None)  # type: ignore[arg-type]  # files fixed here all have a path
        if unwritten:
            outcome.results = check()
    return outcome


def _fix_round(
    project: Project, results: list[FileResult], files: dict[str, FixedFile], select: Select, unsafe: bool
) -> bool:
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
            if not compiles(source.text):
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


def _write_all(files: list[FixedFile], skipped: list[str]) -> list[FixedFile]:
    """Write every changed file; those that cannot be written (an error) or that changed on disk
    since they were analysed (added to `skipped`) count as unfixed."""
    unwritten = []
    for file in files:
        try:
            write_atomically(file.path, file.data(), expected=file.original_data())  # type: ignore[arg-type]  # files fixed here all have a path
        except FileChanged:
            log.warning("%s changed on disk while it was being checked; it was not fixed (run again)", file.path)
            skipped.append(file.path)  # type: ignore[arg-type]  # files fixed here all have a path
            file.text, file.fixed = file.original, []
            unwritten.append(file)
        except OSError as exc:
            log.error("cannot write the fixed %s: %s", file.path, exc.strerror or exc)
            file.text, file.fixed, file.failed = file.original, [], True
            unwritten.append(file)
    return unwritten


class FileChanged(Exception):
    """The file's bytes on disk are not those that were analysed: writing would lose an edit."""


def _unchanged(fd: int, expected: bytes) -> bool:
    """Whether the open file holds exactly `expected` (read from the start, at most one byte more)."""
    data, offset = [], 0
    while offset <= len(expected):
        chunk = os.pread(fd, len(expected) + 1 - offset, offset)
        if not chunk:
            break
        data.append(chunk)
        offset += len(chunk)
    return b"".join(data) == expected


def write_atomically(path: str, data: bytes, expected: bytes | None = None) -> None:
    """Replace the file's content with `data`, keeping its mode, owner, group and hard links.

    `expected`: the bytes the file must still hold (checked just before the write, and after the
    temporary file is ready, just before the rename); FileChanged otherwise, and nothing is written.
    A temporary file beside it (same mode, owner and group), fsync, rename, unless the file has
    other hard links or its owner or group cannot be given to a new file (e.g. `--fix` run as root
    on a user's file, or by a user on a file of theirs with another group): then it is rewritten in
    place.  A symbolic link is followed: the file it points to is written, the link stays.
    """
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    flags = getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(target, os.O_RDWR | flags)
        writable = True
    except PermissionError:  # a read-only file in a writable directory: the rename can still replace it
        fd = os.open(target, os.O_RDONLY | flags)
        writable = False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{target} is not a regular file")
        if expected is not None and not _unchanged(fd, expected):
            raise FileChanged(target)
        other_owner = hasattr(os, "geteuid") and info.st_uid != os.geteuid()
        if info.st_nlink > 1 or other_owner or not _replace(target, directory, info, data, fd, expected):
            if not writable:
                raise PermissionError(13, "Permission denied (the file has other links or another owner)")
            _write_in_place(fd, data)
    finally:
        os.close(fd)


def _replace(target: str, directory: str, info: os.stat_result, data: bytes, fd: int, expected: bytes | None) -> bool:
    """Write `data` to a temporary file and rename it over `target`; False (nothing done) when the
    temporary file cannot get the target's group."""
    temp_fd, temporary = tempfile.mkstemp(
        prefix=f".{os.path.basename(target)}.", suffix=".pallas-ls.tmp", dir=directory
    )
    try:
        with os.fdopen(temp_fd, "wb") as handle:
            if hasattr(os, "fchown"):
                temp_info = os.fstat(handle.fileno())
                if (temp_info.st_uid, temp_info.st_gid) != (info.st_uid, info.st_gid):
                    try:
                        os.fchown(handle.fileno(), info.st_uid, info.st_gid)
                    except OSError:
                        handle.close()
                        os.unlink(temporary)
                        return False
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        if expected is not None and not _unchanged(fd, expected):  # saved while the temporary was written
            raise FileChanged(target)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_directory(directory)
    return True


def _write_in_place(fd: int, data: bytes) -> None:
    """Overwrite the open file with `data`: its inode (links, owner, group, mode) stays."""
    os.lseek(fd, 0, os.SEEK_SET)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.ftruncate(fd, len(data))
    os.fsync(fd)


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
def fix_bytes(
    data: bytes, path: str | None, select: Select, unsafe: bool, rules: RuleRunner = run_rules
) -> tuple[FileResult, FixedFile | None]:
    """Fix standard input (as if it were `path`): (what remains, the fixed text; None if unreadable)."""
    try:
        source = source_from_bytes(data, path)
    except UnreadableFile as exc:
        return FileResult(path or "-", [exc.finding(path)], exc.reason), None
    file = FixedFile.of(source, path)
    try:
        findings = rules(analyze(source))
        if compiles(source.text):
            for _ in range(MAX_PASSES):
                text, fixed = fix_pass(source, select(findings), unsafe)
                if not fixed:
                    break
                file.text = text
                file.fixed.extend(fixed)
                source = SourceFile.from_text(text, path)
                findings = rules(analyze(source))
    except FixFailed as exc:
        file.give_up(str(exc))
        findings = rules(analyze(SourceFile.from_text(file.original, path)))
    except Exception:  # noqa: BLE001 - one text the engine cannot handle: an error, not a crash
        log.exception("internal error while checking %s", path or "stdin")
        file.text, file.fixed, file.failed = file.original, [], True
        return FileResult(path or "-", [], "internal error"), file
    return FileResult(path or "-", findings), file


# ------------------------------------------------------------------------------------ --diff
def unified_diff(file: FixedFile, shown_path: str) -> str:
    """`--- a/path` / `+++ b/path` and the hunks; a path outside the working directory as it is.
    A notebook shows one diff per changed cell, of its code (`path:cell 3`), as ruff does."""
    if file.notebook is not None:
        fixed = Notebook.parse(file.data().decode("utf-8", "surrogatepass").lstrip(BOM))
        return "".join(
            _diff(before.source, after.source, f"{shown_path}:cell {before.number}")
            for before, after in zip(file.notebook.cells, fixed.cells, strict=False)
            if before.source != after.source
        )
    return _diff(file.original, file.text, shown_path)


def _diff(original: str, text: str, shown_path: str) -> str:
    relative = not os.path.isabs(shown_path) and shown_path != "-"
    old, new = (f"a/{shown_path}", f"b/{shown_path}") if relative else (shown_path, shown_path)
    lines = difflib.unified_diff(split_lines_keepends(original), split_lines_keepends(text), old, new)
    out = []
    for line in lines:
        out.append(line)
        if not line.endswith(("\n", "\r")):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


# -------------------------------------------------------------------------------- --add-noqa
def add_noqa_text(source: SourceFile, findings: Iterable[Finding]) -> tuple[str, int]:
    """The text with a `# noqa` for every finding (the engine's suppression: on the line where a
    comment can silence it, codes added to a noqa already there); (text, directives added)."""
    by_line: dict[int, list[str]] = {}
    for finding in findings:
        fix = next((f for f in finding.fixes if f.suppression and f.edits), None)
        if fix is not None and finding.code not in by_line.setdefault(fix.edits[0].range.start.line, []):
            by_line[fix.edits[0].range.start.line].append(finding.code)
    edits, added = [], 0
    for line, codes in sorted(by_line.items()):
        text = original = source.line_text(line)
        for code in codes:
            edit = noqa_line_edit(text, code)
            if edit is not None:
                start, end, new = edit
                text = text[:start] + new + text[end:]
                added += 1
        if text != original:
            edits.append(Edit(Range(Position(line, 0), Position(line, len(original))), text))
    return apply_edits(source.text, source, edits), added


def add_noqa_paths(paths: list[str], select: Select, rules: RuleRunner = run_rules) -> tuple[int, list[str]]:
    """`check --add-noqa`: silence every selected finding in place; (directives added, files skipped
    because they changed on disk since they were analysed)."""
    project = Project(lint=rules)
    added, skipped = 0, []
    for result in project.check_paths([os.path.abspath(p) for p in paths]):
        findings = [f for f in select(result.findings) if f.path and os.path.abspath(f.path) == result.path]
        if result.error is not None or not findings:
            continue
        source = project.analysis_of(result.path).source
        text, count = add_noqa_text(source, findings)
        if not count or not compiles(text):
            continue
        file = FixedFile(result.path, source.text, source.had_bom, text)
        try:
            write_atomically(result.path, file.data(), expected=file.original_data())
        except FileChanged:
            log.warning("%s changed on disk while it was being checked; no noqa was added (run again)", result.path)
            skipped.append(result.path)
            continue
        except OSError as exc:
            log.error("cannot write %s: %s", result.path, exc.strerror or exc)
            continue
        added += count
    return added, skipped
