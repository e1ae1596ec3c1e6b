"""Helpers shared by the real-editor tests (pytest marker `editors`).

`bash .ci/editors-setup.sh VENV` installs what they need. Without it they skip and say what is
missing; with PALLAS_LS_REQUIRE_EDITORS=1 (set it in CI) a missing prerequisite fails instead.
"""

from __future__ import annotations

import ast
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
CACHE = pathlib.Path(os.environ.get("PALLAS_LS_CI_CACHE") or pathlib.Path.home() / ".cache" / "pallas-ls-ci")
ARTIFACTS = pathlib.Path(os.environ.get("PALLAS_LS_TEST_ARTIFACTS") or REPO / "test-artifacts")
SETUP_HINT = f"run `bash .ci/editors-setup.sh {sys.prefix}` to install them"

# A kernel that returns its result instead of writing it to o_ref: PAL001 on line 6.
KERNEL_SOURCE = """\
import jax
from jax.experimental import pallas as pl


def add_one_kernel(x_ref, o_ref):
    return x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""
RETURN_LINE = "    return x_ref[...] + 1"
PAL001_LINE = 6  # 1-based


def require(missing: list[str]) -> None:
    """Skip (or, with PALLAS_LS_REQUIRE_EDITORS=1, fail) when prerequisites are missing."""
    if not missing:
        return
    message = "editor test prerequisites missing: " + "; ".join(missing) + f" ({SETUP_HINT})"
    if os.environ.get("PALLAS_LS_REQUIRE_EDITORS") == "1":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def venv_bin() -> pathlib.Path:
    """The directory of this interpreter's scripts (pallas-ls, nvim)."""
    return pathlib.Path(sys.executable).parent


def server_missing() -> list[str]:
    """The server must run from this interpreter: `python -m pallas_ls serve` (and `pallas-ls`)."""
    probe = subprocess.run(
        [sys.executable, "-c", "import pallas_ls.lsp.server"], capture_output=True, text=True, timeout=120
    )
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        return [f"the language server does not import in {sys.executable} ({last})"]
    return []


def artifacts_dir(name: str) -> pathlib.Path:
    directory = ARTIFACTS / name
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    return directory


def check_fixed(text: str) -> None:
    """The PAL001 fix was applied: the returning line is gone, and the file is still Python.

    Either fix is accepted: "Write the result to o_ref" (`o_ref[...] = x_ref[...] + 1`) or
    "Return None instead".
    """
    assert text != KERNEL_SOURCE, "the file on disk is unchanged"
    assert not any(line.strip().startswith("return x_ref") for line in text.splitlines()), (
        f"the kernel still returns its result:\n{text}"
    )
    ast.parse(text)  # raises SyntaxError with the position if the fix broke the file
    assert "def add_one_kernel(x_ref, o_ref):" in text
    assert "pl.pallas_call(add_one_kernel" in text


def is_pal001_fix(title: str) -> bool:
    """A "pallas-ls (PAL001): ..." quick fix that changes the code (not "Disable PAL001 ...")."""
    return title.startswith("pallas-ls (PAL001): ") and "Disable" not in title and "noqa" not in title


def check_fix_matches_title(title: str, text: str) -> None:
    """When the chosen fix says it writes to o_ref, the write is there."""
    if "o_ref" in title and "Write" in title:
        assert "o_ref[...] = x_ref[...] + 1" in text or "o_ref[...] =" in text, text
