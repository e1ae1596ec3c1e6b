"""Settings: parsing (strict for pyproject.toml, forgiving for the language server) and selection."""

from __future__ import annotations

import pathlib

import pytest

from pallas_ls.config import ConfigError, Settings, find_pyproject, load_settings, normalise_selector
from pallas_ls.engine.findings import Severity


def test_defaults_enable_everything():
    settings = Settings()
    assert all(settings.is_enabled(code) for code in ["PAL000", "PAL001", "PAL002", "PAL900"])
    assert settings.severity_for("PAL001", Severity.ERROR) is Severity.ERROR


def test_from_mapping_accepts_kebab_snake_and_camel_case():
    data = {"select": ["PAL001"], "show-syntax-errors": False}
    for key in ["show-syntax-errors", "show_syntax_errors", "showSyntaxErrors"]:
        settings, warnings = Settings.from_mapping({"select": ["PAL001"], key: False})
        assert warnings == [] and settings.show_syntax_errors is False and settings.select == ("PAL001",)
    assert Settings.from_mapping(data)[0] == Settings.from_mapping({"select": "PAL001", "showSyntaxErrors": False})[0]


def test_from_mapping_drops_bad_entries_with_warnings():
    settings, warnings = Settings.from_mapping(
        {"select": ["PAL001"], "ignore": ["PAL404"], "severity": {"PAL001": "loud"}, "frobnicate": 1}
    )
    assert settings.select == ("PAL001",) and settings.ignore == () and dict(settings.severity) == {}
    assert len(warnings) == 3
    assert any("`ignore`" in w and "PAL404" in w for w in warnings)
    assert any("`severity`" in w and "loud" in w for w in warnings)
    assert "unknown setting `frobnicate`" in warnings


def test_from_mapping_rejects_a_non_mapping():
    settings, warnings = Settings.from_mapping(["PAL001"])  # type: ignore[arg-type]
    assert settings == Settings() and warnings


def test_severity_overrides():
    settings, warnings = Settings.from_mapping({"severity": {"pal001": "Warning", "PAL002": "information"}})
    assert warnings == []
    assert settings.severity_for("PAL001", Severity.ERROR) is Severity.WARNING
    assert settings.severity_for("PAL002", Severity.ERROR) is Severity.INFO
    assert settings.severity_for("PAL000", Severity.ERROR) is Severity.ERROR


@pytest.mark.parametrize(
    ("select", "ignore", "enabled"),
    [
        (None, (), {"PAL000", "PAL001", "PAL002", "PAL900"}),
        (("PAL001",), (), {"PAL001"}),
        (("PAL00",), (), {"PAL000", "PAL001", "PAL002"}),
        (("ALL",), ("PAL9",), {"PAL000", "PAL001", "PAL002"}),
        (("PAL001",), ("PAL",), {"PAL001"}),
        (("PAL",), ("PAL001",), {"PAL000", "PAL002", "PAL900"}),
        (("PAL001",), ("PAL001",), set()),
        ((), (), set()),
    ],
)
def test_is_enabled(select, ignore, enabled):
    settings = Settings(select=select, ignore=ignore)
    assert {c for c in ["PAL000", "PAL001", "PAL002", "PAL900"] if settings.is_enabled(c)} == enabled


def test_show_syntax_errors_false_hides_pal000_only():
    settings = Settings(show_syntax_errors=False)
    assert not settings.is_enabled("PAL000") and settings.is_enabled("PAL001")


def test_with_selection():
    base = Settings(select=("PAL001",), ignore=("PAL002",))
    assert base.with_selection(None, None) == base
    assert base.with_selection(["PAL002"], None) == Settings(select=("PAL002",), ignore=())
    assert base.with_selection(None, ["pal000"]).ignore == ("PAL002", "PAL000")
    with pytest.raises(ConfigError, match="--select: unknown rule code or prefix 'X1'"):
        base.with_selection(["X1"], None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("pal001", "PAL001"), (" PAL ", "PAL"), ("all", "ALL"), ("PAL3", None), ("", None), ("E501", None)],
)
def test_normalise_selector(raw, expected):
    assert normalise_selector(raw) == expected


def _write(path: pathlib.Path, text: str) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_from_pyproject(tmp_path):
    path = _write(
        tmp_path / "pyproject.toml",
        '[tool.pallas-ls]\nselect = ["PAL00"]\nignore = ["PAL002"]\nexclude = ["gen/**"]\n'
        'severity = {PAL001 = "hint"}\nshow-syntax-errors = false\n',
    )
    settings = Settings.from_pyproject(str(path))
    assert settings.select == ("PAL00",) and settings.ignore == ("PAL002",) and settings.exclude == ("gen/**",)
    assert settings.severity_for("PAL001", Severity.ERROR) is Severity.HINT
    assert settings.show_syntax_errors is False
    assert settings.root == str(tmp_path) and settings.source == str(path)


def test_from_pyproject_is_strict(tmp_path):
    path = _write(tmp_path / "pyproject.toml", "[tool.pallas-ls]\nselekt = ['PAL001']\n")
    with pytest.raises(ConfigError, match=r"pyproject.toml: \[tool.pallas-ls\]: unknown setting `selekt`"):
        Settings.from_pyproject(str(path))


def test_find_pyproject_walks_up_past_files_without_our_table(tmp_path):
    ours = _write(tmp_path / "pyproject.toml", "[tool.pallas-ls]\n")
    _write(tmp_path / "a" / "pyproject.toml", "[tool.other]\nx = 1\n")
    deep = tmp_path / "a" / "b" / "c.py"
    _write(deep, "")
    assert find_pyproject(str(deep)) == str(ours)
    assert find_pyproject(str(tmp_path / "a" / "b")) == str(ours)
    nearer = _write(tmp_path / "a" / "b" / "pyproject.toml", "[tool.pallas-ls]\nignore = ['PAL001']\n")
    assert find_pyproject(str(deep)) == str(nearer)
    assert load_settings(str(deep)).ignore == ("PAL001",)


# ------------------------------------------------------------------- ruff's extend-* and per-file
def test_extend_select_adds_to_select_and_the_default():
    settings, warnings = Settings.from_mapping({"select": ["PAL002"], "extend-select": ["PAL001"]})
    assert not warnings
    assert settings.is_enabled("PAL001") and settings.is_enabled("PAL002") and not settings.is_enabled("PAL003")
    assert Settings.from_mapping({"extend-select": ["PAL001"]})[0].is_enabled("PAL003")  # the default stays ALL


def test_extend_ignore_adds_to_ignore():
    settings, _ = Settings.from_mapping({"ignore": ["PAL002"], "extend-ignore": ["PAL003"]})
    assert [settings.is_enabled(c) for c in ("PAL001", "PAL002", "PAL003")] == [True, False, False]


def test_extend_exclude_keeps_exclude():
    settings, _ = Settings.from_mapping({"exclude": ["a/**"], "extendExclude": ["b.py"]})
    assert settings.all_excludes == ("a/**", "b.py")


def test_per_file_ignores_match_paths_under_the_root_or_base_names(tmp_path):
    root = str(tmp_path)
    table = {"tests/**": ["PAL001"], "__init__.py": ["PAL"], "!src/**": ["PAL006"]}
    settings, warnings = Settings.from_mapping({"per-file-ignores": table}, root=root)
    assert not warnings
    at = lambda rel: str(tmp_path / rel)  # noqa: E731
    assert not settings.is_enabled("PAL001", at("tests/unit/test_k.py"))
    assert settings.is_enabled("PAL002", at("tests/unit/test_k.py"))
    assert settings.is_enabled("PAL001", at("src/tests_k.py"))
    assert not settings.is_enabled("PAL003", at("src/pkg/__init__.py"))  # a base name, at any depth
    assert not settings.is_enabled("PAL006", at("scripts/run.py")) and settings.is_enabled("PAL006", at("src/k.py"))
    assert settings.is_enabled("PAL001")  # no path: per-file-ignores do not apply


@pytest.mark.parametrize("value", [["PAL001"], {"x": "PAL999"}, {"[z-a]": ["PAL001"]}])
def test_per_file_ignores_invalid_entries_are_named(value):
    _, warnings = Settings.from_mapping({"per-file-ignores": value})
    assert len(warnings) == 1 and "per-file-ignores" in warnings[0]


def test_with_overrides_replace_the_files_values():
    settings, _ = Settings.from_mapping({"select": ["PAL001"]})
    assert settings.with_overrides({"select": ["PAL002"]}, "--config").select == ("PAL002",)
    with pytest.raises(ConfigError, match="unknown setting `nope`"):
        settings.with_overrides({"nope": 1}, "--config")


def test_show_settings_is_a_toml_table_that_reads_back(tmp_path):
    from pallas_ls.config import show_settings, tomllib

    settings, _ = Settings.from_mapping({"per-file-ignores": {"t/*.py": ["PAL001"]}, "severity": {"PAL006": "error"}})
    text = show_settings(settings, [])
    table = tomllib.loads(text[text.index("[tool.pallas-ls]") :])["tool"]["pallas-ls"]
    again, warnings = Settings.from_mapping(table)
    assert not warnings and again.per_file_ignores == settings.per_file_ignores and again.severity == settings.severity
