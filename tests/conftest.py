"""Shared test helpers.

Tiers:
  pytest -m "not jax"   fast tier: no jax needed (the real-code test skips itself without jax)
  pytest -m jax         runs every rule example under real JAX on the CPU (one worker process)
  pytest                both
"""

from __future__ import annotations

import importlib.util
import pathlib

import pytest


def jax_package_dir() -> pathlib.Path | None:
    """The installed `jax` package directory, found WITHOUT importing jax (None if not installed)."""
    try:
        spec = importlib.util.find_spec("jax")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return pathlib.Path(spec.origin).parent


@pytest.fixture(scope="session")
def jax_dir() -> pathlib.Path:
    directory = jax_package_dir()
    if directory is None:
        pytest.skip("jax is not installed")
    return directory
