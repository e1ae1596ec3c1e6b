"""One typed Settings object, read from `[tool.pallas-ls]` in pyproject.toml or from a mapping.

The CLI reads pyproject.toml strictly (an invalid setting is an error naming the key); the language
server reuses `Settings.from_mapping` for initializationOptions, where a bad value should produce a
visible warning but never stop the server.  Configuration is data only: no project code is
imported or executed to read it.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from .engine.findings import SYNTAX_ERROR_CODE, UNREADABLE_CODE, Severity
from .rules import RULES

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
    return sorted(set(RULES) | set(PSEUDO_RULES))


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
class Settings:
    select: tuple[str, ...] | None = None  # None: every rule
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)  # per-code overrides
    exclude: tuple[str, ...] = ()  # glob patterns, relative to `root`
    # The files a walked directory yields (as ruff: `include` replaces, `extend-include` adds).
    include: tuple[str, ...] = ("*.py", "*.ipynb")
    extend_include: tuple[str, ...] = ()
    show_syntax_errors: bool = True
    max_file_size: int | None = None  # bytes; None: engine.project.DEFAULT_MAX_FILE_SIZE (issue 15)
    # The Python interpreter or environment directory whose packages imports are followed into
    # (relative to `root`); None: $VIRTUAL_ENV, $CONDA_PREFIX, else the one pallas-ls runs in.
    python: str | None = None
    root: str | None = None  # the directory of the config file (None: the working directory)
    source: str | None = None  # where these settings came from, for messages

    def is_enabled(self, code: str) -> bool:
        """Ruff's semantics: the most specific matching selector wins, ignore wins a tie."""
        code = code.upper()
        if code == SYNTAX_ERROR_CODE and not self.show_syntax_errors:
            return False
        selected = _specificity(self.select if self.select is not None else (ALL_SELECTOR,), code)
        if selected is None:
            return False
        ignored = _specificity(self.ignore, code)
        return ignored is None or selected > ignored

    def severity_for(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code.upper(), default)

    def with_selection(self, select: list[str] | None, ignore: list[str] | None) -> "Settings":
        """Command-line selection on top of the file's: `--select` starts over, `--ignore` adds.

        Raises ConfigError for an unknown selector.
        """
        new_select = self.select if select is None else _checked_selectors(select, "--select")
        base_ignore = () if select is not None else self.ignore
        extra_ignore = _checked_selectors(ignore or [], "--ignore")
        return replace(self, select=new_select, ignore=base_ignore + extra_ignore)

    # ------------------------------------------------------------------------------ reading
    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], root: str | None = None) -> tuple["Settings", list[str]]:
        """Settings from a mapping; each invalid entry is dropped with a warning naming its key."""
        if not isinstance(data, Mapping):
            return cls(root=root), [f"settings must be a table, not {type(data).__name__}"]
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
        return cls(root=root, **values), warnings

    @classmethod
    def from_pyproject(cls, path: str) -> "Settings":
        """Strictly read `[tool.pallas-ls]` of one pyproject.toml (empty settings if absent)."""
        table = _tool_table(_read_toml(path), path)
        settings, warnings = cls.from_mapping(table or {}, root=os.path.dirname(os.path.abspath(path)))
        if warnings:
            raise ConfigError(f"{path}: [tool.{TOOL_TABLE}]: " + "; ".join(warnings))
        return replace(settings, source=path)


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


_PARSERS = {
    "select": _parse_selectors,
    "ignore": _parse_selectors,
    "severity": _parse_severity_table,
    "exclude": _parse_excludes,
    "include": _parse_excludes,
    "extend_include": _parse_excludes,
    "show_syntax_errors": _parse_bool,
    "max_file_size": _parse_size,
    "python": _parse_python,
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
