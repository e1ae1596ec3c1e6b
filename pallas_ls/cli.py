"""The `pallas-ls` command: `check`, `rule` and `serve`.

Exit status (like ruff): 0 nothing found, 1 findings, 2 a usage error or an internal failure.
After `check --fix` the findings that remain count; `check --diff` exits 1 when it would change a file.
Errors are one line on stderr (`pallas-ls: error: ...`); `--verbose` adds the traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib
import logging
import os
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from . import completion
from . import rules as registry
from .config import PSEUDO_RULES, ConfigError, Settings, load_settings, show_settings, split_selectors
from .discovery import ExcludePattern, InvalidGlob, PathNotFound, discover
from .engine.batch import check_files
from .engine.environment import Environment
from .engine.files import (
    FileResult,
    UnreadableFile,
    project_root,
    read_source,
    set_max_file_size,
    source_from_bytes,
)
from .engine.findings import UNREADABLE_CODE, Finding
from .engine.notebook import CellMap, is_notebook_path
from .engine.text_imports import launching_context
from .output import (
    FORMATS,
    TEXT_FORMATS,
    FixStatus,
    Report,
    display_path,
    rule_url,
    ruledoc,
    tool_version,
    write_report,
)
from .output import text as text_output
from .rule_runner import RuleRunner, rules_for

if TYPE_CHECKING:
    from . import fixing

log = logging.getLogger("pallas_ls.cli")

EXIT_CLEAN, EXIT_FINDINGS, EXIT_FAILURE = 0, 1, 2


class CliError(Exception):
    """A usage error or a failure the user can act on: reported in one line, exit status 2."""


# ------------------------------------------------------------------------------ the engine
def _check_files(
    paths: list[str],
    args: argparse.Namespace | None = None,
    environment: Environment | None = None,
    context: list[str] | None = None,
    rules: RuleRunner | None = None,
) -> list[FileResult]:
    """Check files as one project (kernels launched from one file are checked where defined),
    on every core, reusing cached findings for unchanged files unless --no-cache."""
    cache_dir = None if args is None or args.no_cache else _cache_dir(args)
    return check_files(
        paths,
        cache_dir=cache_dir,
        jobs=getattr(args, "jobs", None),
        environment=environment,
        context=context or (),
        lint=rules or rules_for(None),
    )


def _project_context(
    named: list[str], files: list[str], settings: Settings, args: argparse.Namespace, cwd: str
) -> list[str]:
    """For files named on the command line (pre-commit passes only the changed ones): the other
    files of their projects that may launch their kernels (engine.text_imports.launching_context)."""
    if not named:
        return []
    roots = sorted({project_root(path) for path in named})
    try:
        candidates = discover(
            roots,
            _excludes(settings, args.exclude + args.extend_exclude, cwd),
            _includes(settings, cwd),
            _respect_gitignore(args, settings),
        )
    except PathNotFound:
        return []
    checked = set(files)
    return launching_context(named, [c for c in candidates if c not in checked])


def _environment(args: argparse.Namespace, settings: Settings) -> Environment | None:
    """Where imports beyond the project are followed: `--python`, else the configuration's
    `python` (relative to its file), else the active environment; none with --no-python-env."""
    if args.no_python_env:
        return None
    if args.python:
        return Environment.discover(args.python, os.environ, os.getcwd())
    return Environment.discover(settings.python, os.environ, settings.root)


def _cache_dir(args: argparse.Namespace) -> str:
    return os.path.abspath(args.cache_dir or os.environ.get("PALLAS_LS_CACHE_DIR") or ".pallas-ls-cache")


def _check_bytes(
    data: bytes, path: str | None, modules: dict[str, str] | None = None, rules: RuleRunner | None = None
) -> FileResult:
    """Check standard input (as if it were `path`); a notebook's module goes into `modules`."""
    from .lint import analyze_source  # the engine, loaded only when something is analysed (issue 33)

    try:
        source = source_from_bytes(data, path)
    except UnreadableFile as exc:
        return FileResult(path or "-", [exc.finding(path)], exc.reason)
    if modules is not None and path and source.notebook is not None:
        modules[path] = source.text
    try:
        return FileResult(path or "-", analyze_source(source.text, path, rules or rules_for(None)))
    except Exception:  # noqa: BLE001 - one file the engine cannot handle must not hide the rest
        log.exception("internal error while checking %s", path or "stdin")
        return FileResult(path or "-", [], "internal error")


# ---------------------------------------------------------------------------------- check
def _settings_for(args: argparse.Namespace, paths: list[str]) -> Settings:
    """pyproject.toml settings (nearest to the first path, or `--config FILE`), then `--config
    KEY=VALUE` overrides, then the selection flags on top."""
    config_file, overrides = _config_arguments(args.config)
    try:
        if args.isolated:
            settings = Settings()
        elif config_file:
            settings = Settings.from_pyproject(config_file)
        else:
            start = next((p for p in paths if p != "-"), None) or args.stdin_filename or "."
            settings = load_settings(start)
        for value, table in overrides:
            settings = settings.with_overrides(table, f"--config {value!r}")
        if getattr(args, "tpu_generation", None):
            settings = settings.with_overrides({"tpu-generation": args.tpu_generation}, "--tpu-generation")
        settings = settings.with_selection(_selectors(args.select), _selectors(args.ignore))
        return settings.with_extend_select(_selectors(args.extend_select))
    except ConfigError as exc:
        raise CliError(str(exc)) from None


def _config_arguments(values: list[str] | None) -> tuple[str | None, list[tuple[str, dict]]]:
    """`--config` is, as ruff's, either a configuration file or an inline TOML `KEY = VALUE`
    (repeatable; later ones win).  Returns the file (at most one) and the parsed overrides."""
    from .config import tomllib

    config_file, overrides = None, []
    for value in values or []:
        if os.path.isfile(value):
            if config_file is not None:
                raise CliError(f"--config: only one configuration file can be given ({config_file!r} and {value!r})")
            config_file = value
            continue
        try:
            overrides.append((value, tomllib.loads(value)))
        except tomllib.TOMLDecodeError as exc:
            raise CliError(
                f"--config {value!r} is neither a file nor a TOML `KEY = VALUE` pair (such as "
                f'`select = ["PAL001"]`): {exc}'
            ) from None
    return config_file, overrides


def _selectors(values: list[str] | None) -> list[str] | None:
    """`--select A,B --select C` -> [A, B, C]; None when the option was not given."""
    return None if values is None else [s for value in values for s in split_selectors(value) or [value]]


def _excludes(settings: Settings, cli_patterns: list[str], cwd: str) -> list[ExcludePattern]:
    # Patterns from a config file are relative to that file's directory, ours to the cwd.
    base = settings.root or cwd
    try:
        return [ExcludePattern(p, base) for p in settings.all_excludes] + [ExcludePattern(p, cwd) for p in cli_patterns]
    except InvalidGlob as exc:  # a usage error naming the pattern (issue 15), not an internal error
        raise CliError(f"--exclude: {exc}") from None


def _includes(settings: Settings, cwd: str) -> list[ExcludePattern]:
    base = settings.root or cwd
    return [ExcludePattern(p, base) for p in settings.include + settings.extend_include]


def _read_stdin() -> bytes:
    stream = sys.stdin
    buffer = getattr(stream, "buffer", None)
    return buffer.read() if buffer is not None else stream.read().encode("utf-8")


def _select(findings: list[Finding], settings: Settings) -> list[Finding]:
    """Drop disabled codes, apply severity overrides, and sort by file and position."""
    kept = [
        dataclasses.replace(f, severity=settings.severity_for(f.code, f.severity))
        for f in findings
        if settings.is_enabled(f.code, f.path)
    ]
    return sorted(kept, key=lambda f: (os.path.abspath(f.path) if f.path else "", f.range, f.code, f.message))


def _use_color(choice: str, stream: TextIO | None = None) -> bool:
    if choice != "auto":
        return choice == "always"
    # https://no-color.org: any non-empty NO_COLOR disables colour.
    stream = sys.stdout if stream is None else stream
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _respect_gitignore(args: argparse.Namespace, settings: Settings) -> bool:
    """--respect-gitignore / --no-respect-gitignore over `respect-gitignore` (default true)."""
    flag = getattr(args, "respect_gitignore", None)
    return settings.respect_gitignore if flag is None else flag


def cmd_check(args: argparse.Namespace) -> int:
    cwd = os.getcwd()
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    settings = _settings_for(args, paths)
    set_max_file_size(settings.max_file_size)  # before anything is read (workers are forked after)
    try:
        excludes = _excludes(settings, args.exclude + args.extend_exclude, cwd)
        files = discover(
            [p for p in paths if p != "-"], excludes, _includes(settings, cwd), _respect_gitignore(args, settings)
        )
    except PathNotFound as exc:
        raise CliError(f"no such file or directory: {exc}") from None
    if args.show_files:
        sys.stdout.write("".join(f + "\n" for f in sorted(files)))
        return EXIT_CLEAN
    if args.show_settings:
        sys.stdout.write(show_settings(settings, files))
        return EXIT_CLEAN
    if not files and "-" not in paths:
        log.warning("no Python files found under %s", ", ".join(paths))
    if args.add_noqa:
        return _add_noqa(args, settings, files, "-" in paths)
    environment = _environment(args, settings)
    context = _project_context([p for p in paths if p != "-" and os.path.isfile(p)], files, settings, args, cwd)
    if args.fix or args.diff:
        return _check_and_fix(args, settings, files, "-" in paths, cwd, environment, context)
    results = _check_files(files, args, environment, context, rules_for(settings.tpu_generation))
    modules: dict[str, str] = {}  # a notebook on standard input: its code cells as one module
    sources: dict[str | None, str] = {}  # standard input's text, for the formats that quote it
    if "-" in paths:
        data = _read_stdin()
        results.append(_check_bytes(data, _stdin_path(args), modules, rules_for(settings.tpu_generation)))
        sources[_stdin_path(args)] = _as_text(data)
    findings = _select([f for r in results for f in r.findings], settings)
    _write_findings(args, _in_cells(findings, modules), cwd, sys.stdout, FixStatus(unsafe=args.unsafe_fixes), sources)
    return _exit_status(args, findings)


def _as_text(data: bytes) -> str:
    """Bytes read from stdin as the text whose rows findings count (without a BOM)."""
    return data.decode("utf-8", "replace").removeprefix("\ufeff")


def _in_cells(findings: list[Finding], modules: dict[str, str]) -> list[Finding]:
    """Findings in notebooks located in their cells, as every output format shows them.
    `modules` holds the analysed module of a notebook that is not (or no longer) the file on disk
    (standard input, a fixed text); other notebooks are read again."""
    maps: dict[str, CellMap | None] = {}
    located = []
    for finding in findings:
        path = finding.path
        if not is_notebook_path(path) or finding.code == UNREADABLE_CODE:
            located.append(finding)
            continue
        if path not in maps:
            maps[path] = _cell_map(path, modules)
        cells = maps[path]
        located.append(cells.located(finding) if cells else finding)
    return located


def _cell_map(path: str, modules: dict[str, str]) -> CellMap | None:
    if path in modules:
        return CellMap.of(modules[path])
    try:
        return CellMap.of(read_source(path).text)
    except UnreadableFile:
        return None


def _stdin_path(args: argparse.Namespace) -> str | None:
    return os.path.abspath(args.stdin_filename) if args.stdin_filename else None


def _exit_status(args: argparse.Namespace, findings: list[Finding]) -> int:
    return EXIT_CLEAN if args.exit_zero or not findings else EXIT_FINDINGS


def _output_format(args: argparse.Namespace, stream: TextIO) -> str:
    """The format asked for; by default `full` (ruff's default) on a terminal, and `concise`
    (one line per finding, what scripts and editors' errorformat parse) when piped or captured."""
    if args.output_format:
        return args.output_format
    return "full" if _isatty(stream) else "concise"


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def _write_findings(
    args: argparse.Namespace,
    findings: list[Finding],
    cwd: str,
    stream: TextIO,
    status: FixStatus,
    sources: dict[str | None, str] | None = None,
) -> None:
    if args.output_file:
        _write_to_file(args, findings, cwd, status, sources)
        return
    fmt = _output_format(args, stream)
    color = fmt in TEXT_FORMATS and _use_color(args.color, stream)
    report = Report(
        findings, cwd, color=color, quiet=args.quiet, status=status, sources=sources or {}, show_fixes=args.show_fixes
    )
    write_report(fmt, report, stream, statistics=args.statistics)


def _write_to_file(
    args: argparse.Namespace,
    findings: list[Finding],
    cwd: str,
    status: FixStatus,
    sources: dict[str | None, str] | None,
) -> None:
    """`-o PATH`: the whole report, summary included, goes to the file (as ruff's), never coloured;
    its directory is created. A file is not a terminal: the default format is concise."""
    path = os.path.abspath(args.output_file)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            report = Report(
                findings, cwd, quiet=args.quiet, status=status, sources=sources or {}, show_fixes=args.show_fixes
            )
            write_report(args.output_format or "concise", report, handle, statistics=args.statistics)
    except OSError as exc:
        raise CliError(f"cannot write the report to {args.output_file}: {exc.strerror or exc}") from None


# ------------------------------------------------------------------------------------ fix
def _add_noqa(args: argparse.Namespace, settings: Settings, files: list[str], stdin: bool) -> int:
    """`--add-noqa`: a `# noqa: CODE` for every selected finding, written in place (like ruff's)."""
    from . import fixing  # with the engine: a plain check may need neither (issue 33)

    if stdin or args.fix or args.diff:
        raise CliError("--add-noqa works on files, without --fix or --diff")
    added, skipped = fixing.add_noqa_paths(
        files, functools.partial(_select, settings=settings), rules_for(settings.tpu_generation)
    )
    if not args.quiet:
        sys.stderr.write(f"Added {added} noqa directive{'' if added == 1 else 's'}.\n")
    return EXIT_FINDINGS if skipped else EXIT_CLEAN


def _check_and_fix(
    args: argparse.Namespace,
    settings: Settings,
    files: list[str],
    stdin: bool,
    cwd: str,
    environment: Environment | None = None,
    context: list[str] | None = None,
) -> int:
    """`--fix` (write the fixed files) and `--diff` (show what --fix would change, write nothing)."""
    from . import fixing  # with the engine: a plain check may need neither (issue 33)

    select = functools.partial(_select, settings=settings)
    rules = rules_for(settings.tpu_generation)
    outcome = fixing.fix_paths(
        files, select, args.unsafe_fixes, write=not args.diff, environment=environment, context=context, rules=rules
    )
    fixed_stdin = _fix_stdin(args, select, outcome, rules) if stdin else None
    remaining = _select([f for r in outcome.results for f in r.findings], settings)
    if args.diff:
        return _show_diff(args, outcome, remaining, cwd)
    remaining = _in_cells(remaining, {f.path: f.text for f in outcome.files if f.path and is_notebook_path(f.path)})
    status = FixStatus(args.unsafe_fixes, tuple(outcome.fixed))
    if fixed_stdin is None:
        _write_findings(args, remaining, cwd, sys.stdout, status)
    else:
        # Standard output carries the source, whole; what remains goes to standard error.
        _write_stdout_bytes(fixed_stdin)
        if remaining or (args.show_fixes and outcome.fixed) or args.output_file:
            _write_findings(args, remaining, cwd, sys.stderr, status, {_stdin_path(args): _as_text(fixed_stdin)})
    if outcome.skipped:  # files saved during the run were not fixed (said on stderr): exit 1 (issue 15)
        return EXIT_FINDINGS
    return _exit_status(args, remaining)


def _fix_stdin(args: argparse.Namespace, select: fixing.Select, outcome: fixing.FixOutcome, rules: RuleRunner) -> bytes:
    """Fix standard input into `outcome`; returns the bytes `--fix` prints (the input as it was
    when it cannot be read or fixed)."""
    from . import fixing

    data = _read_stdin()
    result, fixed = fixing.fix_bytes(data, _stdin_path(args), select, args.unsafe_fixes, rules)
    outcome.results.append(result)
    if fixed is None:
        return data
    outcome.files.append(fixed)
    return fixed.data()


def _show_diff(args: argparse.Namespace, outcome: fixing.FixOutcome, remaining: list[Finding], cwd: str) -> int:
    from . import fixing

    changed = outcome.changed
    _write_stdout_bytes("".join(fixing.unified_diff(f, display_path(f.path, cwd)) for f in changed).encode("utf-8"))
    if not args.quiet:
        sys.stderr.write(text_output.diff_summary(outcome.fixed, remaining, args.unsafe_fixes) + "\n")
    return EXIT_CLEAN if args.exit_zero or not changed else EXIT_FINDINGS


def _write_stdout_bytes(data: bytes) -> None:
    """Bytes as they are: no newline translation, no re-encoding (a fixed file, a diff)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(data.decode("utf-8", "surrogateescape"))
    else:
        buffer.write(data)
        buffer.flush()


# ----------------------------------------------------------------------------------- rule
def _pseudo_rule_json(code: str) -> dict:
    name, summary = PSEUDO_RULES[code]
    return {"code": code, "name": name, "severity": "error", "summary": summary, "url": rule_url(code)}


def _pseudo_rule_text(code: str) -> str:
    name, summary = PSEUDO_RULES[code]
    return (
        f"{code} {name} (error)\n\n{summary}. Reported by the checker itself, not by a lint rule.\n\n"
        f"Documentation: {rule_url(code)}\n"
    )


def _find_rule(query: str):
    """A rule by code (any case) or by name; None for a pseudo-code; CliError if unknown."""
    rule = registry.get_rule(query) or next((r for r in registry.RULES.values() if r.name == query.lower()), None)
    if rule is None and query.upper() not in PSEUDO_RULES:
        known = ", ".join(sorted([*registry.RULE_CODES, *PSEUDO_RULES]))
        raise CliError(f"unknown rule {query!r} (known: {known}; see `pallas-ls rule --all`)")
    return rule


def _rule_listing(as_json: bool) -> str:
    rules = sorted(registry.RULES.values(), key=lambda r: r.code)
    if not as_json:
        return ruledoc.rule_list_text(rules, PSEUDO_RULES)
    entries = [ruledoc.rule_json(r, with_examples=False) for r in rules] + [_pseudo_rule_json(c) for c in PSEUDO_RULES]
    return ruledoc.dumps(sorted(entries, key=lambda d: d["code"]))


def _rule_page(query: str, as_json: bool) -> str:
    rule = _find_rule(query)
    if rule is None:
        code = query.upper()
        return ruledoc.dumps(_pseudo_rule_json(code)) if as_json else _pseudo_rule_text(code)
    return ruledoc.dumps(ruledoc.rule_json(rule)) if as_json else ruledoc.rule_text(rule)


def cmd_rule(args: argparse.Namespace) -> int:
    as_json = args.output_format == "json"
    if args.all:
        sys.stdout.write(_rule_listing(as_json))
    elif args.code:
        sys.stdout.write(_rule_page(args.code, as_json))
    else:
        raise CliError("give a rule code (e.g. `pallas-ls rule PAL001`) or --all")
    return EXIT_CLEAN


# ---------------------------------------------------------------------------------- serve
def cmd_serve(args: argparse.Namespace) -> int:
    """Start the language server; imported only now so `check` never pays for pygls."""
    try:
        server = importlib.import_module("pallas_ls.lsp.server")
    except ModuleNotFoundError as exc:
        if exc.name in ("pallas_ls.lsp", "pallas_ls.lsp.server"):
            raise CliError(
                "the language server is not available in this installation (pallas_ls.lsp.server is missing)"
            ) from None
        raise CliError(f"the language server needs the Python package {exc.name!r}, which is not installed") from None
    return int(server.main(args) or 0)


# --------------------------------------------------------------------------------- parser
class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]  # argparse's error returns NoReturn; ours raises CliError
        # One line, and the same `pallas-ls: error:` prefix as every other failure.
        raise CliError(f"{message} (see `{self.prog} --help`)")


def _add_check(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "check",
        parents=[common],
        help="check files and directories for Pallas kernel bugs",
        description="Check Python files for Pallas kernel bugs. Exit status: 0 clean, 1 findings, 2 error.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to check (default: .); - reads stdin")
    p.add_argument(
        "--output-format",
        choices=FORMATS,
        help="how to print findings (default: full on a terminal, else concise; text is concise's old name)",
    )
    p.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="only these codes or prefixes (comma-separated; ALL for every rule)",
    )
    p.add_argument(
        "--extend-select", action="append", metavar="CODES", help="also these codes or prefixes (added to select)"
    )
    p.add_argument("--ignore", action="append", metavar="CODES", help="skip these codes or prefixes (comma-separated)")
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip files and directories matching GLOB (repeatable; added to the configuration's)",
    )
    p.add_argument(
        "--extend-exclude", action="append", default=[], metavar="GLOB", help="the same as --exclude (ruff's name)"
    )
    gitignore = p.add_mutually_exclusive_group()
    gitignore.add_argument(
        "--respect-gitignore",
        dest="respect_gitignore",
        action="store_true",
        default=None,
        help="skip what .gitignore, .ignore and git's exclude files ignore (the default; `respect-gitignore`)",
    )
    gitignore.add_argument(
        "--no-respect-gitignore",
        dest="respect_gitignore",
        action="store_false",
        help="check what .gitignore, .ignore and git's exclude files ignore too",
    )
    p.add_argument("--stdin-filename", metavar="PATH", help="the file name to report for code read from stdin")
    p.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe fixes in place (with stdin: print the fixed source); report what remains",
    )
    p.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, apply the unsafe fixes too")
    p.add_argument("--add-noqa", action="store_true", help="add a `# noqa: CODE` comment for every finding, in place")
    p.add_argument(
        "--diff",
        action="store_true",
        help="print a unified diff of what --fix would change and write nothing (exit 1 when it would change files)",
    )
    p.add_argument("--exit-zero", action="store_true", help="exit with status 0 even when there are findings")
    p.add_argument(
        "--statistics", action="store_true", help="print how many findings each code has instead of the findings"
    )
    p.add_argument(
        "--show-fixes", action="store_true", help="after --fix, list the fixes applied in each file (as ruff)"
    )
    p.add_argument(
        "-o",
        "--output-file",
        metavar="PATH",
        help="write the report (and its summary) to PATH instead of standard output",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print the findings only, no summary line")
    p.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour text output (default: auto, off when NO_COLOR is set)",
    )
    p.add_argument(
        "--config",
        action="append",
        metavar="FILE|KEY=VALUE",
        help="a pyproject.toml to read [tool.pallas-ls] from instead of the nearest one, or a setting as "
        "TOML (`--config 'select = [\"PAL001\"]'`) overriding the file's (repeatable)",
    )
    p.add_argument("--show-settings", action="store_true", help="print the settings that apply, then exit")
    p.add_argument("--show-files", action="store_true", help="print the files that would be checked, then exit")
    p.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    environment = p.add_mutually_exclusive_group()
    environment.add_argument(
        "--python",
        metavar="PATH",
        help="follow imports into this interpreter's packages (an interpreter or an environment directory; "
        "default: the `python` setting, $VIRTUAL_ENV, $CONDA_PREFIX, else the interpreter pallas-ls runs in)",
    )
    environment.add_argument("--no-python-env", action="store_true", help="resolve imports in the checked project only")
    p.add_argument(
        "--tpu-generation",
        metavar="NAME",
        help="the TPU generation kernels are compiled for (v5e, v6e): the TPU rules use its limits "
        "(default: the `tpu-generation` setting, else only what holds on every generation)",
    )
    p.add_argument("--no-cache", action="store_true", help="do not read or write the findings cache")
    p.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where to cache findings of unchanged files (default: $PALLAS_LS_CACHE_DIR or ./.pallas-ls-cache)",
    )
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: one per core; 1: none)")
    p.set_defaults(func=cmd_check)


def _add_rule(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "rule", parents=[common], help="explain a rule", description="Print a rule's documentation and examples."
    )
    p.add_argument("code", nargs="?", metavar="CODE", help="a rule code (PAL001) or name (kernel-returns-value)")
    p.add_argument("--all", action="store_true", help="list every rule")
    p.add_argument("--output-format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_rule)


def _add_serve(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "serve", parents=[common], help="run the language server", description="Run the pallas-ls language server."
    )
    transport = p.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", default=True, help="talk LSP over stdin/stdout (default)")
    transport.add_argument("--tcp", action="store_true", help="listen on a TCP socket instead")
    p.add_argument("--host", default="127.0.0.1", help="TCP host (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=2087, help="TCP port (default: 2087)")
    p.add_argument("--log-file", metavar="PATH", help="write the server log to this file")
    p.add_argument("--log-level", type=str.upper, choices=("DEBUG", "INFO", "WARNING", "ERROR"), default="INFO")
    p.set_defaults(func=cmd_serve)


def _add_completion(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "completion",
        parents=[common],
        help="print a shell completion script",
        description='Print a completion script: eval "$(pallas-ls completion bash)" in ~/.bashrc, the same '
        "with zsh in ~/.zshrc, or pallas-ls completion fish > ~/.config/fish/completions/pallas-ls.fish.",
    )
    p.add_argument("shell", choices=completion.SHELLS)
    p.set_defaults(func=cmd_completion)


def cmd_completion(args: argparse.Namespace) -> int:
    from .config import known_codes

    top, subs = completion.commands(build_parser(), {"rule": known_codes()})
    sys.stdout.write(completion.script(args.shell, top, subs))
    return EXIT_CLEAN


def build_parser() -> argparse.ArgumentParser:
    # SUPPRESS keeps a subcommand's default from overwriting `pallas-ls -v check`.
    common = _Parser(add_help=False)
    common.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="log more; show tracebacks"
    )
    parser = _Parser(
        prog="pallas-ls", parents=[common], description="A linter and language server for JAX Pallas kernels."
    )
    parser.add_argument("--version", action="version", version=f"pallas-ls {tool_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_check(sub, common)
    _add_rule(sub, common)
    _add_serve(sub, common)
    _add_completion(sub, common)
    return parser


# ---------------------------------------------------------------------------------- main
class _StderrLog(logging.Handler):
    """Engine log records on stderr, one line each; counts errors (they make the exit status 2)."""

    def __init__(self, verbose: bool) -> None:
        super().__init__(logging.DEBUG if verbose else logging.WARNING)
        self.verbose = verbose
        self.errors = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            self.errors += 1
        message = record.getMessage()
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            if self.verbose:
                message += "\n" + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip()
            else:
                message += f": {_describe(exc)}"
        sys.stderr.write(f"pallas-ls: {record.levelname.lower()}: {message}\n")


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _run(args: argparse.Namespace, handler: _StderrLog) -> int:
    status = args.func(args)
    if handler.errors:
        hint = "" if handler.verbose else " (run with --verbose for details)"
        sys.stderr.write(
            f"pallas-ls: error: {handler.errors} internal error(s) while checking; results are incomplete{hint}\n"
        )
        return EXIT_FAILURE
    return status


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    verbose = "-v" in argv or "--verbose" in argv  # known before parsing, for parse-time failures
    logger = logging.getLogger("pallas_ls")
    handler = _StderrLog(verbose)
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(handler.level)
    try:
        args = build_parser().parse_args(argv)
        if not getattr(args, "func", None):
            build_parser().print_help(sys.stderr)
            return EXIT_FAILURE
        if args.command == "serve":
            # The server configures its own logging (to a file, at its own level); ours would
            # duplicate every record on stderr and turn a logged error into exit status 2.
            logger.removeHandler(handler)
            logger.setLevel(old_level)
        return _run(args, handler)
    except CliError as exc:
        sys.stderr.write(f"pallas-ls: error: {exc}\n")
        return EXIT_FAILURE
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_FAILURE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()  # `pallas-ls check | head`: the reader left, which is not an error
        return EXIT_FINDINGS
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, exit 2
        if verbose:
            traceback.print_exc()
        hint = "" if verbose else " (run with --verbose for the traceback)"
        sys.stderr.write(f"pallas-ls: error: internal error: {_describe(exc)}{hint}\n")
        return EXIT_FAILURE
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
