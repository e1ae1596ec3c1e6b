"""One typed Settings object, read from `[tool.pallas-ls]` in pyproject.toml or from a mapping.

The CLI reads pyproject.toml strictly (an invalid setting is an error naming the key); the language
server reuses `Settings.from_mapping` for initializationOptions, where a bad value should produce a
visible warning but never stop the server.  Configuration is data only: no project code is
imported or executed to read it.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .engine.findings import SYNTAX_ERROR_CODE, UNREADABLE_CODE, Severity
from .rules import RULE_CODES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

TOOL_TABLE = "pallas-ls"

# Codes that are not lint rules but still appear in output and can be selected and ignored.
PSEUDO_RULES: dict[str, tuple[str, str]] = {
    SYNTAX_ERROR_CODE: ("syntax-error", "The file, or part of it, does not parse as Python"),
    UNREADABLE_CODE: ("unreadable-file", "The file cannot be read or is not valid UTF-8"),
}

ALL_SELECTOR = "ALL"


class ConfigError(Exception):
    """An invalid setting; the message names the file and the key."""


def known_codes() -> list[str]:
    return sorted(set(RULE_CODES) | set(PSEUDO_RULES))


def normalise_key(key: str) -> str:
    """`show-syntax-errors`, `show_syntax_errors` and `showSyntaxErrors` are the same key (a dot,
    as in an editor's `a.b`, counts as `_`): the one normalisation, for pyproject.toml and the
    editor's settings alike.

    Kebab case is the pyproject.toml convention, camelCase the LSP one.
    """
    key = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key)
    return key.replace("-", "_").replace(".", "_").lower()


# --------------------------------------------------------------------------------- selectors
def normalise_selector(selector: str) -> str | None:
    """The canonical form of a rule selector (a code, a code prefix or ALL), or None if unknown."""
    sel = selector.strip().upper()
    if not sel:
        return None
    if sel == ALL_SELECTOR:
        return sel
    return sel if any(code.startswith(sel) for code in known_codes()) else None


def _specificity(selectors: tuple[str, ...], code: str) -> int | None:
    """How specific the best selector matching `code` is (ALL: 0, a prefix: its length)."""
    best = None
    for sel in selectors:
        if sel == ALL_SELECTOR:
            score = 0
        elif code.startswith(sel):
            score = len(sel)
        else:
            continue
        best = score if best is None else max(best, score)
    return best


def split_selectors(value: str) -> list[str]:
    """`PAL001,PAL002` or `PAL001 PAL002` (the CLI accepts both)."""
    return [part for part in re.split(r"[\s,]+", value) if part]


# ---------------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class PerFileIgnore:
    """`per-file-ignores` entry: codes ignored in the files a glob matches, as ruff's.

    The pattern matches the file's path relative to the configuration's directory, or its base name
    (`__init__.py`, `test_*.py`); `*` stays within a directory, `**` spans directories; a leading
    `!` ignores the codes in the files the rest of the pattern does not match."""

    pattern: str
    codes: tuple[str, ...]

    @property
    def negated(self) -> bool:
        return self.pattern.startswith("!")

    def applies_to(self, path: str, root: str) -> bool:
        from .discovery import GlobMatcher

        glob = self.pattern[1:] if self.negated else self.pattern
        glob = glob[2:] if glob.startswith("./") else glob
        matcher = GlobMatcher(glob, self.pattern)
        absolute = os.path.abspath(path)
        rel = os.path.relpath(absolute, root).replace(os.sep, "/") if _on_drive_of(absolute, root) else absolute
        matched = matcher.fullmatch(os.path.basename(absolute)) or (
            not rel.startswith("../") and matcher.fullmatch(rel)
        )
        return matched != self.negated


def _on_drive_of(path: str, root: str) -> bool:
    """relpath fails across Windows drives."""
    return os.path.splitdrive(path)[0].lower() == os.path.splitdrive(root)[0].lower()


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None  # None: every rule
    ignore: tuple[str, ...] = ()
    # As ruff: `extend-select` adds to `select` (or to the default, every rule); `extend-ignore`
    # is the same as adding to `ignore`, kept for configurations written for older ruff.
    extend_select: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[PerFileIgnore, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)  # per-code overrides
    exclude: tuple[str, ...] = ()  # glob patterns, relative to `root`
    extend_exclude: tuple[str, ...] = ()  # added to `exclude` (a shared config's `exclude` stays)
    # The files a walked directory yields (as ruff: `include` replaces, `extend-include` adds).
    include: tuple[str, ...] = ("*.py", "*.ipynb")
    extend_include: tuple[str, ...] = ()
    show_syntax_errors: bool = True
    # As ruff: a walked directory skips what .gitignore, .ignore and git's exclude files ignore.
    respect_gitignore: bool = True
    max_file_size: int | None = None  # bytes; None: engine.files.DEFAULT_MAX_FILE_SIZE (issue 15)
    # The Python interpreter or environment directory whose packages imports are followed into
    # (relative to `root`); None: $VIRTUAL_ENV, $CONDA_PREFIX, else the one pallas-ls runs in.
    python: str | None = None
    # The TPU generation kernels are compiled for (engine/target.py GENERATIONS); None: the TPU
    # rules report only what holds on every generation they know.
    tpu_generation: str | None = None
    root: str | None = None  # the directory of the config file (None: the working directory)
    source: str | None = None  # where these settings came from, for messages

    def is_enabled(self, code: str, path: str | None = None) -> bool:
        """Ruff's semantics: the most specific matching selector wins, ignore wins a tie; then a
        `per-file-ignores` entry for `path` drops the code whatever was selected."""
        code = code.upper()
        if code == SYNTAX_ERROR_CODE and not self.show_syntax_errors:
            return False
        base = self.select if self.select is not None else (ALL_SELECTOR,)
        selected = _specificity(base + self.extend_select, code)
        if selected is None:
            return False
        ignored = _specificity(self.ignore + self.extend_ignore, code)
        if ignored is not None and selected <= ignored:
            return False
        return path is None or _specificity(self.ignored_in(path), code) is None

    def ignored_in(self, path: str) -> tuple[str, ...]:
        """The selectors `per-file-ignores` ignores in the file at `path`."""
        root = self.root or os.getcwd()
        return tuple(code for entry in self.per_file_ignores if entry.applies_to(path, root) for code in entry.codes)

    @property
    def all_excludes(self) -> tuple[str, ...]:
        return self.exclude + self.extend_exclude

    def severity_for(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code.upper(), default)

    def with_selection(self, select: list[str] | None, ignore: list[str] | None) -> Settings:
        """Command-line selection on top of the file's: `--select` starts over, `--ignore` adds.

        Raises ConfigError for an unknown selector.
        """
        new_select = self.select if select is None else _checked_selectors(select, "--select")
        if select is not None:  # starting over: the file's ignores and extensions go too
            return replace(
                self,
                select=new_select,
                ignore=_checked_selectors(ignore or [], "--ignore"),
                extend_select=(),
                extend_ignore=(),
            )
        return replace(self, ignore=self.ignore + _checked_selectors(ignore or [], "--ignore"))

    def with_extend_select(self, selectors: list[str] | None) -> Settings:
        """`--extend-select`: added to whatever is selected."""
        if not selectors:
            return self
        return replace(self, extend_select=self.extend_select + _checked_selectors(selectors, "--extend-select"))

    def with_overrides(self, data: Mapping[str, Any], origin: str) -> Settings:
        """`--config KEY=VALUE`: the given settings replace the file's (a ConfigError names a bad one)."""
        values, warnings = _parse_values(data)
        if warnings:
            raise ConfigError(f"{origin}: " + "; ".join(warnings))
        return replace(self, **values)

    # ------------------------------------------------------------------------------ reading
    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], root: str | None = None) -> tuple[Settings, list[str]]:
        """Settings from a mapping; each invalid entry is dropped with a warning naming its key."""
        if not isinstance(data, Mapping):
            return cls(root=root), [f"settings must be a table, not {type(data).__name__}"]
        values, warnings = _parse_values(data)
        return cls(root=root, **values), warnings

    @classmethod
    def from_pyproject(cls, path: str) -> Settings:
        """Strictly read `[tool.pallas-ls]` of one pyproject.toml (empty settings if absent)."""
        table = _tool_table(_read_toml(path), path)
        settings, warnings = cls.from_mapping(table or {}, root=os.path.dirname(os.path.abspath(path)))
        if warnings:
            raise ConfigError(f"{path}: [tool.{TOOL_TABLE}]: " + "; ".join(warnings))
        return replace(settings, source=path)


def _parse_values(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Field name -> parsed value, and a warning naming each key that is unknown or invalid."""
    values: dict[str, Any] = {}
    warnings: list[str] = []
    for raw_key, raw_value in data.items():
        key = normalise_key(str(raw_key))
        parser = _PARSERS.get(key)
        if parser is None:
            warnings.append(f"unknown setting `{raw_key}`")
            continue
        try:
            values[key] = parser(raw_value)
        except ValueError as exc:
            warnings.append(f"invalid `{raw_key}`: {exc}")
    return values, warnings


def _checked_selectors(selectors: list[str], option: str) -> tuple[str, ...]:
    try:
        return _parse_selectors(selectors)
    except ValueError as exc:
        raise ConfigError(f"{option}: {exc}") from None


# ----------------------------------------------------------------------------- value parsers
def _string_list(value: Any) -> list[str]:
    """A list of strings; a single string is split at commas (handy in editor settings)."""
    if isinstance(value, str):
        return split_selectors(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ValueError(f"expected a list of strings, got {value!r}")


def _parse_selectors(value: Any) -> tuple[str, ...]:
    selectors = []
    for item in _string_list(value):
        sel = normalise_selector(item)
        if sel is None:
            raise ValueError(f"unknown rule code or prefix {item!r} (known codes: {', '.join(known_codes())})")
        selectors.append(sel)
    return tuple(selectors)


_SEVERITY_NAMES = {s.value: s for s in Severity} | {"information": Severity.INFO}


def _parse_severity_table(value: Any) -> dict[str, Severity]:
    if not isinstance(value, Mapping):
        raise ValueError(f'expected a table such as {{PAL001 = "warning"}}, got {value!r}')
    table: dict[str, Severity] = {}
    for code, level in value.items():
        if str(code).upper() not in known_codes():
            raise ValueError(f"unknown rule code {code!r}")
        if not isinstance(level, str) or level.lower() not in _SEVERITY_NAMES:
            choices = ", ".join(s.value for s in Severity)
            raise ValueError(f"severity of {code} must be one of {choices}, got {level!r}")
        table[str(code).upper()] = _SEVERITY_NAMES[level.lower()]
    return table


def _parse_per_file_ignores(value: Any) -> tuple[PerFileIgnore, ...]:
    if not isinstance(value, Mapping):
        raise ValueError(f'expected a table such as {{"tests/**" = ["PAL001"]}}, got {value!r}')
    entries = []
    for pattern, codes in value.items():
        _parse_excludes([str(pattern).lstrip("!")])  # an invalid glob is reported here, naming it
        try:
            entries.append(PerFileIgnore(str(pattern), _parse_selectors(codes)))
        except ValueError as exc:
            raise ValueError(f"{pattern!r}: {exc}") from None
    return tuple(entries)


def _parse_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _parse_excludes(value: Any) -> tuple[str, ...]:
    """Glob patterns, each compiled now so that an invalid one is reported where it is given
    (issue 15: `[z-a]` was an internal error in the CLI and silently stopped the server's diagnostics)."""
    from .discovery import GlobMatcher  # discovery imports nothing from here, but keep start-up lean

    patterns = tuple(_string_list(value))
    for pattern in patterns:
        GlobMatcher(pattern)  # raises InvalidGlob (a ValueError) naming the pattern
    return patterns


def _parse_size(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"expected a positive number of bytes, got {value!r}")
    return value


def _parse_python(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected the path of a Python interpreter or environment, got {value!r}")
    return value


def parse_tpu_generation(value: Any) -> str:
    """`"v5e"`, `"V5e"`, `"tpu-v5e"`, `"TPU v5 lite"` (a device kind) -> "v5e"."""
    from .engine.target import GENERATIONS, generation_named

    name = generation_named(value) if isinstance(value, str) else None
    if name is None:
        raise ValueError(f"expected one of {', '.join(sorted(GENERATIONS))}, got {value!r}")
    return name


_PARSERS = {
    "select": _parse_selectors,
    "ignore": _parse_selectors,
    "extend_select": _parse_selectors,
    "extend_ignore": _parse_selectors,
    "per_file_ignores": _parse_per_file_ignores,
    "severity": _parse_severity_table,
    "exclude": _parse_excludes,
    "extend_exclude": _parse_excludes,
    "include": _parse_excludes,
    "extend_include": _parse_excludes,
    "show_syntax_errors": _parse_bool,
    "respect_gitignore": _parse_bool,
    "max_file_size": _parse_size,
    "python": _parse_python,
    "tpu_generation": parse_tpu_generation,
}


# ------------------------------------------------------------------------------- discovery
def _read_toml(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def _tool_table(document: dict[str, Any], path: str) -> Mapping[str, Any] | None:
    table = document.get("tool", {})
    table = table.get(TOOL_TABLE) if isinstance(table, Mapping) else None
    if table is not None and not isinstance(table, Mapping):
        raise ConfigError(f"{path}: [tool.{TOOL_TABLE}] must be a table")
    return table


def find_pyproject(start: str) -> str | None:
    """The nearest pyproject.toml at or above `start` that has a `[tool.pallas-ls]` table.

    Like ruff, a pyproject.toml without our table does not stop the search: a sub-package's
    packaging file should not hide the repository's lint settings.
    """
    directory = os.path.abspath(start)
    if not os.path.isdir(directory):
        directory = os.path.dirname(directory)
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate) and _tool_table(_read_toml(candidate), candidate) is not None:
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def load_settings(start: str) -> Settings:
    """The settings that apply to files under `start` (defaults when no config is found)."""
    path = find_pyproject(start)
    return Settings.from_pyproject(path) if path else Settings()


# --------------------------------------------------------------------------- --show-settings
def _toml_value(value: Any) -> str:
    """A setting's value written back as TOML (JSON's strings, numbers and arrays are TOML too)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Severity):
        return json.dumps(value.value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return (
            "{ " + ", ".join(f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in value.items()) + " }"
            if value
            else "{}"
        )
    return json.dumps(value)


def _shown_fields(settings: Settings) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "select": settings.select if settings.select is not None else (ALL_SELECTOR,),
        "per_file_ignores": {entry.pattern: entry.codes for entry in settings.per_file_ignores},
    }
    for name in (
        "extend_select",
        "ignore",
        "extend_ignore",
        "severity",
        "exclude",
        "extend_exclude",
        "include",
        "extend_include",
        "show_syntax_errors",
        "respect_gitignore",
        "max_file_size",
        "python",
    ):
        shown[name] = getattr(settings, name)
    return shown


def show_settings(settings: Settings, files: list[str]) -> str:
    """What `check --show-settings` prints: where the settings come from and their values, as a
    `[tool.pallas-ls]` table (after the command line's flags and `--config` overrides)."""
    lines = []
    if files:
        lines.append(f"Resolved settings for: {json.dumps(files[0])}")
    lines.append(f"Settings path: {json.dumps(settings.source) if settings.source else 'none (the defaults)'}")
    lines.append(f"Root: {json.dumps(settings.root or os.getcwd())}")
    lines += ["", f"[tool.{TOOL_TABLE}]"]
    for name, value in _shown_fields(settings).items():
        key = name.replace("_", "-")
        if value is None:
            lines.append(f"# {key}: not set (the default)")
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"
