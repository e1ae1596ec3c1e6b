"""Editor settings: initializationOptions and `workspace/configuration` over pyproject.toml.

Precedence, lowest first: defaults, `[tool.pallas-ls]` in the nearest pyproject.toml (found from each
document's directory), initializationOptions, then the `pallas-ls` section of
`workspace/configuration`.  Rule settings (`select`, `ignore`, `severity`, `exclude`) are parsed by
`pallas_ls.config.Settings`; the server adds its own keys:

- `showSyntaxErrors` (default false): the user's Python server already reports syntax errors, so
  PAL000 is hidden unless the editor settings turn it on (pyproject's value is for the CLI).
- `debounce` (milliseconds, default 0): how long an edit waits for the next one before analysis.
- `run` (`"onType"`, the default, or `"onSave"`, as ruff's `lint.run`): when a text document is
  analysed again; with `onSave` its diagnostics follow saves, not keystrokes.

A bad value is dropped with a warning (shown to the user); the rest still applies.  A `null` value
means "not set" (VS Code sends its defaults as null).  Keys that only the editor extension uses
(`path`, `interpreter`, `logLevel`, `trace`) are ignored.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ..config import ConfigError, Settings, find_pyproject, normalise_key
from ..discovery import ExcludePattern
from ..engine.findings import Severity

log = logging.getLogger(__name__)

# No delay by default: the worker analyses only the newest text of a document, so an edit storm
# coalesces by itself, and any fixed delay would add straight to every edit's latency.
DEFAULT_DEBOUNCE_MS = 0.0
MAX_DEBOUNCE_MS = 10_000.0

_CLIENT_ONLY = frozenset(
    {
        "path",
        "interpreter",
        "log_level",
        "trace",
        "trace_server",
        "enable",
        "import_strategy",
        # The VS Code extension's own (it filters code actions, shows notifications, passes --log-file).
        "fix_all",
        "code_action",
        "show_notifications",
        "log_file",
    }
)
_NESTED = ("pallas-ls", "pallas_ls", "pallasLs", "settings")


@dataclass(frozen=True)
class RuleOverrides:
    """The editor's values for pyproject's rule settings (config.Settings' fields); None: not set,
    pyproject's value (or the default) applies."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    severity: Mapping[str, Severity] | None = None
    exclude: tuple[str, ...] | None = None
    max_file_size: int | None = None  # bytes (issue 15)
    tpu_generation: str | None = None  # `tpuGeneration` (issue 37): the TPU rules' chip

    def as_fields(self) -> dict[str, Any]:
        """The values set, by Settings field name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}


_RULE_KEYS = frozenset(f.name for f in fields(RuleOverrides))


@dataclass(frozen=True)
class EditorSettings:
    """What the editor asked for, parsed and defaulted."""

    rules: RuleOverrides = RuleOverrides()
    show_syntax_errors: bool = False  # PAL000: the user's Python server already reports syntax errors
    debounce_ms: float = DEFAULT_DEBOUNCE_MS
    run_on_save: bool = False  # `run = "onSave"`: analyse a text document when it is saved, not as it is typed

    @property
    def overrides(self) -> dict[str, Any]:
        """The rule settings the editor set (per-field overrides of pyproject's)."""
        return self.rules.as_fields()

    @property
    def max_file_size(self) -> int | None:
        """`maxFileSize` (bytes; None: the engine's default)."""
        return self.rules.max_file_size


def _unwrap(mapping: Any) -> Any:
    """Accept `{"pallas-ls": {...}}` and `{"settings": {...}}` as well as the bare table."""
    if isinstance(mapping, Mapping):
        for key in _NESTED:
            inner = mapping.get(key)
            if isinstance(inner, Mapping) and len(mapping) == 1:
                return inner
    return mapping


def _merged(layers: tuple[Any, ...], warnings: list[str]) -> dict[str, tuple[str, Any]]:
    """normalised key -> (the key as written, its value), later layers winning; null is "not set"."""
    merged: dict[str, tuple[str, Any]] = {}
    for layer in map(_unwrap, layers):
        if layer is None:
            continue
        if not isinstance(layer, Mapping):
            warnings.append(f"settings must be an object, not {type(layer).__name__}")
            continue
        for key, value in layer.items():
            if value is not None:
                merged[normalise_key(str(key))] = (str(key), value)
    return merged


def _debounce(key: str, value: Any, warnings: list[str]) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= MAX_DEBOUNCE_MS:
        return float(value)
    warnings.append(f"invalid `{key}`: expected milliseconds between 0 and {MAX_DEBOUNCE_MS:g}, got {value!r}")
    return None


RUN_MODES = {"ontype": False, "onsave": True}


def _run_on_save(key: str, value: Any, warnings: list[str]) -> bool | None:
    if isinstance(value, str) and value.replace("_", "").replace("-", "").lower() in RUN_MODES:
        return RUN_MODES[value.replace("_", "").replace("-", "").lower()]
    warnings.append(f'invalid `{key}`: expected "onType" or "onSave", got {value!r}')
    return None


def _flag(key: str, value: Any, warnings: list[str]) -> bool | None:
    if isinstance(value, bool):
        return value
    warnings.append(f"invalid `{key}`: expected true or false, got {value!r}")
    return None


def _rule_setting(norm: str, key: str, value: Any, warnings: list[str]) -> Any:
    """A rule setting parsed as pyproject's would be (None, with a warning, when it is invalid)."""
    try:
        parsed, problems = Settings.from_mapping({key: value})
    except Exception as exc:  # noqa: BLE001 - a settings bug must not stop the server
        parsed, problems = None, [f"invalid `{key}`: {exc}"]
    warnings.extend(problems)
    if problems or parsed is None or norm not in _RULE_KEYS:
        return None
    return getattr(parsed, norm)


def parse_editor_settings(*layers: Any) -> tuple[EditorSettings, list[str]]:
    """Merge setting layers (later wins) into EditorSettings.  A bad value is a warning naming its
    key, and that key keeps its default: the others still apply."""
    warnings: list[str] = []
    rules: dict[str, Any] = {}
    server: dict[str, Any] = {}
    for norm, (key, value) in _merged(layers, warnings).items():
        if norm in _CLIENT_ONLY:
            continue
        if norm in ("debounce", "debounce_ms"):
            server["debounce_ms"] = _debounce(key, value, warnings)
        elif norm == "run":
            server["run_on_save"] = _run_on_save(key, value, warnings)
        elif norm == "show_syntax_errors":
            server["show_syntax_errors"] = _flag(key, value, warnings)
        else:
            rules[norm] = _rule_setting(norm, key, value, warnings)
    server = {name: value for name, value in server.items() if value is not None}
    rules = {name: value for name, value in rules.items() if value is not None}
    return EditorSettings(RuleOverrides(**rules), **server), warnings


@dataclass(frozen=True)
class EffectiveSettings:
    """The settings for one document."""

    rules: Settings
    excludes: tuple[ExcludePattern, ...] = ()
    warnings: tuple[str, ...] = ()

    def is_enabled(self, code: str, path: str | None = None) -> bool:
        """Selected for `path` (per-file-ignores apply when the path is known)."""
        return self.rules.is_enabled(code, path)

    def is_excluded(self, path: str | None) -> bool:
        """Whether the file, or a directory above it (below the pattern's base), is excluded."""
        if not path or not self.excludes:
            return False
        path = os.path.abspath(path)
        for pattern in self.excludes:
            base = os.path.abspath(pattern.base)
            candidate = path
            while True:
                if pattern.matches(candidate):
                    return True
                parent = os.path.dirname(candidate)
                if parent == candidate or not parent.startswith(base) or len(parent) <= len(base):
                    break
                candidate = parent
        return False


class SettingsResolver:
    """Finds and caches each directory's pyproject settings; thread-safe (workers call it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pyproject_of_dir: dict[str, str | None] = {}
        self._parsed: dict[str, tuple[int, Settings | None, str | None]] = {}
        self.workspace_root: str | None = None

    def invalidate(self) -> None:
        with self._lock:
            self._pyproject_of_dir.clear()
            self._parsed.clear()

    def _pyproject_settings(self, path: str | None) -> tuple[Settings, str | None]:
        if not path:
            return Settings(), None
        directory = os.path.dirname(os.path.abspath(path))
        with self._lock:
            if directory in self._pyproject_of_dir:
                pyproject = self._pyproject_of_dir[directory]
            else:
                try:
                    pyproject = find_pyproject(directory)
                except ConfigError as exc:
                    return Settings(), str(exc)
                except OSError:
                    pyproject = None
                self._pyproject_of_dir[directory] = pyproject
            if pyproject is None:
                return Settings(), None
            try:
                mtime = os.stat(pyproject).st_mtime_ns
            except OSError:
                self._pyproject_of_dir.pop(directory, None)
                return Settings(), None
            cached = self._parsed.get(pyproject)
            if cached is None or cached[0] != mtime:
                try:
                    cached = (mtime, Settings.from_pyproject(pyproject), None)
                except ConfigError as exc:
                    cached = (mtime, None, str(exc))
                except Exception as exc:  # noqa: BLE001
                    cached = (mtime, None, f"{pyproject}: {exc}")
                self._parsed[pyproject] = cached
            _, settings, error = cached
            return (settings if settings is not None else Settings()), error

    def resolve(self, path: str | None, editor: EditorSettings) -> EffectiveSettings:
        base, error = self._pyproject_settings(path)
        fields = dict(editor.overrides)
        if "severity" in fields:
            fields["severity"] = {**dict(base.severity), **dict(fields["severity"])}
        editor_excludes = tuple(fields.pop("exclude", ()))
        rules = replace(base, show_syntax_errors=editor.show_syntax_errors, **fields)
        excludes = tuple(ExcludePattern(p, base.root or os.getcwd()) for p in base.exclude)
        if editor_excludes:
            root = self.workspace_root or os.getcwd()
            excludes += tuple(ExcludePattern(p, root) for p in editor_excludes)
        warnings = (f"{error} (using the default settings for it)",) if error else ()
        return EffectiveSettings(rules, excludes, warnings)
