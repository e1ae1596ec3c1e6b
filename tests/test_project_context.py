"""Files named on the command line are checked in their project's context (issue 18: pre-commit
passes only the changed files, and `check kern.py` used to say "All checks passed!" when kern.py's
kernel is launched from launch.py)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

from pallas_ls.engine.files import project_root
from pallas_ls.engine.text_imports import launching_context

KERNEL = "def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n"
LAUNCH = (
    "import jax\nfrom jax.experimental import pallas as pl\nfrom pkg.kern import add_one\n\n"
    "def run(x):\n    return pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)\n"
)


def make_project(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kern.py").write_text(KERNEL)
    (package / "launch.py").write_text(LAUNCH)
    (package / "other.py").write_text("from jax.experimental import pallas as pl\nimport numpy\n")
    return package


def check(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pallas_ls", "check", "--isolated", "--no-cache", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
    )


def test_root_and_context(tmp_path):
    package = make_project(tmp_path)
    assert project_root(str(package / "kern.py")) == str(tmp_path)
    candidates = [str(p) for p in package.glob("*.py")]
    assert launching_context([str(package / "kern.py")], candidates) == [str(package / "launch.py")]


def test_a_named_file_is_checked_with_the_files_that_launch_its_kernels(tmp_path):
    package = make_project(tmp_path)
    run = check("kern.py", cwd=package)
    assert run.returncode == 1
    assert "kern.py:2:5: PAL001" in run.stdout and "launched by pallas_call in launch.py:6" in run.stdout
    assert "launch.py:" not in run.stdout.replace("in launch.py:6", "")  # the context is not reported
    assert check("--fix", "kern.py", cwd=package).returncode == 0
    assert (package / "kern.py").read_text() == KERNEL.replace("return x_ref", "o_ref[...] = x_ref")
    assert (package / "launch.py").read_text() == LAUNCH


def test_excluded_files_are_no_context(tmp_path):
    package = make_project(tmp_path)
    assert check("--exclude", "launch.py", "kern.py", cwd=package).returncode == 0


def test_imported_files_match_import_paths_not_module_names(tmp_path):
    """A file that never says "pallas" launches through a wrapper only if it imports that very
    module: `from jax._src import core` does not import `jax/_src/pallas/core.py`."""
    from pallas_ls.engine.text_imports import ImportedFiles

    wrap = tmp_path / "lib" / "kernels" / "core.py"
    wrap.parent.mkdir(parents=True)
    wrap.write_text("def launch(k, x): ...\n")
    (tmp_path / "lib" / "__init__.py").write_text("")
    (tmp_path / "lib" / "kernels" / "__init__.py").write_text("from .core import launch\n")
    user = tmp_path / "lib" / "user.py"
    files = ImportedFiles([str(wrap)])
    imports = {
        "import lib.kernels.core": True,
        "from lib.kernels.core import launch": True,
        "from lib.kernels import core": True,
        "from kernels import core as c": True,  # the roots are not known: a path suffix
        "from lib.kernels import launch": True,  # the package re-exports it
        "from .kernels import core": True,
        "from .kernels.core import launch": True,
        "from . import kernels": True,
        "from lib import core": False,
        "from jax._src import core": False,
        "import core_utils": False,
        "from .. import core": False,
    }
    for line, expected in imports.items():
        assert files.imported_by(line + "\n", str(user)) is expected, line


SELECTING = (
    "import jax\nfrom jax.experimental import pallas as pl\n\n"
    "def copy(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n\n"
    "def bump(x_ref, o_ref):\n    return x_ref[...] + 1\n\n"
    "KS = {'copy': copy, 'bump': bump}\n\n"
    "def run(name, x):\n    return pl.pallas_call(KS[name], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)\n\n"
    "run('copy', x)\n"
)


def test_a_quiet_file_calling_a_named_files_launcher_is_context(tmp_path):
    """ops.py's own call decides `run` launches copy; main.py never says "pallas" but calls
    run("bump", x): `check ops.py` (pre-commit) reads it and reports bump's return in ops.py."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "ops.py").write_text(SELECTING)
    (tmp_path / "main.py").write_text("from ops import run\nrun('bump', x)\n")
    (tmp_path / "unrelated.py").write_text("import ops\nprint(ops.__name__)\n")
    candidates = [str(tmp_path / n) for n in ("ops.py", "main.py", "unrelated.py")]
    assert launching_context([str(tmp_path / "ops.py")], candidates) == [str(tmp_path / "main.py")]
    run = check("ops.py", cwd=tmp_path)
    assert run.returncode == 1 and "ops.py:8:5: PAL001" in run.stdout


BASE = (
    "import jax\nfrom jax.experimental import pallas as pl\n\n"
    "def copy(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n\n"
    "def bump(x_ref, o_ref):\n    return x_ref[...] + 1\n\n"
    "class Op:\n    kernel = staticmethod(copy)\n\n"
    "    def run(self, x):\n        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)\n"
)


def test_a_subclass_in_a_quiet_file_and_its_user_are_context(tmp_path):
    """`check base.py`: fancy.py (never says "pallas") derives Fancy from base.Op with bump as its
    kernel, and main.py (nor does it) runs Fancy().run(x): both are read, and bump's return in
    base.py is reported."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "base.py").write_text(BASE)
    (tmp_path / "fancy.py").write_text("import base\n\nclass Fancy(base.Op):\n    kernel = staticmethod(base.bump)\n")
    (tmp_path / "main.py").write_text("import fancy\nfancy.Fancy().run(x)\n")
    candidates = [str(tmp_path / n) for n in ("base.py", "fancy.py", "main.py")]
    assert launching_context([str(tmp_path / "base.py")], candidates) == [
        str(tmp_path / "fancy.py"),
        str(tmp_path / "main.py"),
    ]
    run = check("base.py", cwd=tmp_path)
    assert run.returncode == 1 and "base.py:8:5: PAL001" in run.stdout
