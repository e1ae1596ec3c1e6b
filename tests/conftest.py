"""Shared test helpers.

Tiers:
  pytest -m "not jax"   fast tier: no jax needed (the real-code test skips itself without jax)
  pytest -m jax         runs every rule example under real JAX on the CPU (one worker process)
  pytest                both

Tests run in pytest-xdist workers (pyproject's addopts: `-n auto --dist loadgroup`).  A session or
module fixture runs once in each worker that uses it, so the tests that share a costly one, and
those that must not run beside each other, are put in one xdist group below: the jax tier (its
session fixture runs every example under JAX once), the editor tests (one code-server build, one
display), and tests marked `serial`.
"""

from __future__ import annotations

import importlib.util
import io
import pathlib
import sys

import hypothesis_profiles
import pytest

hypothesis_profiles.load()  # derandomized in CI; HYPOTHESIS_PROFILE=explore for a long random run


def jax_package_dir() -> pathlib.Path | None:
    """The installed `jax` package directory, found WITHOUT importing jax (None if not installed)."""
    try:
        spec = importlib.util.find_spec("jax")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return pathlib.Path(spec.origin).parent


# Marker -> xdist group: every test of a group runs in the same worker, in order.
_GROUPS = ("jax", "editors", "serial")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (it renames the tests after them)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        group = next((name for name in _GROUPS if item.get_closest_marker(name)), None)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def jax_dir() -> pathlib.Path:
    directory = jax_package_dir()
    if directory is None:
        pytest.skip("jax is not installed")
    return directory


@pytest.fixture
def run(capsys, monkeypatch, tmp_path):
    """`pallas-ls ARGV` in process (`cli.main`), in `tmp_path` (or `cwd=`), standard input from
    `stdin`: (exit status, stdout, stderr).  The CLI tests' one way to run the CLI (a test module
    may define its own `run` for another way)."""
    from pallas_ls import cli

    def _run(*argv: str, cwd: pathlib.Path | None = None, stdin: bytes | None = None):
        monkeypatch.chdir(cwd or tmp_path)
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        status = cli.main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return _run
