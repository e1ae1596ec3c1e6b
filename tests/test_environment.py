"""Imports beyond the workspace (issue 13): a wrapper from an installed or editable package of the
user's Python environment is followed, read as source and never imported; findings stay in the
project's files.

The environment is a real virtual environment made in a temporary directory (`venv`, without
pip), its site-packages holding the team's kernel library in each way packages get there: a
plain install, a `.pth` path line (pip's legacy editable, hatchling's and pdm-backend's default),
setuptools' editable finder (`MAPPING`), the `editables` redirector (`F.map_module`), and a
compiled-only module.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap
import venv

import pytest

from pallas_ls import cli
from pallas_ls.engine import environment as environment_module
from pallas_ls.engine.environment import Environment
from pallas_ls.engine.sitepackages import SearchPath
from pallas_ls.lint import Project

WRAPPERS = """\
import jax
from jax.experimental import pallas as pl


def run_elementwise(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""

# The project file never says "pallas": only the installed wrapper launches its kernel.
OPS = """\
import jax.numpy as jnp
from {module} import run_elementwise


def add_one_kernel(x_ref, o_ref):
    return x_ref[...] + 1


def add_one(x):
    return run_elementwise(add_one_kernel, x)
"""
RETURN_LINE = 6


def write(path: pathlib.Path, text: str) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def site_packages(env_dir: pathlib.Path) -> pathlib.Path:
    found = sorted(env_dir.glob("lib/python3*/site-packages")) or sorted(env_dir.glob("Lib/site-packages"))
    return found[0]


@pytest.fixture(scope="module")
def env_dir(tmp_path_factory) -> pathlib.Path:
    """A real venv whose site-packages holds `teamlib` five ways (see the module docs)."""
    root = tmp_path_factory.mktemp("environment")
    env = root / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(env)
    site = site_packages(env)
    # 1. a plain install
    write(site / "teamlib" / "__init__.py", "from .wrappers import run_elementwise\n")
    write(site / "teamlib" / "wrappers.py", WRAPPERS)
    # 2. a .pth path line to a source tree (src layout)
    write(root / "legacy" / "src" / "legacylib" / "__init__.py", WRAPPERS)
    write(site / "legacylib.pth", f"{root / 'legacy' / 'src'}\n")
    # 3. setuptools' editable finder
    write(root / "finder" / "src" / "finderlib" / "__init__.py", "from .ops import *\n")
    write(root / "finder" / "src" / "finderlib" / "ops.py", "__all__ = ['run_elementwise']\n" + WRAPPERS)
    write(
        site / "__editable__.finderlib-0.1.pth",
        "import __editable___finderlib_0_1_finder; __editable___finderlib_0_1_finder.install()\n",
    )
    write(
        site / "__editable___finderlib_0_1_finder.py",
        f"import sys\nMAPPING: dict[str, str] = {{'finderlib': {str(root / 'finder' / 'src' / 'finderlib')!r}}}\n"
        "NAMESPACES: dict[str, list[str]] = {}\n\ndef install():\n    pass  # the real one adds a finder to sys.meta_path\n",
    )
    # 4. the editables redirector (hatchling, pdm-backend), with a stand-in for `editables`
    write(site / "editables" / "__init__.py", "")
    write(
        site / "editables" / "redirector.py",
        "class RedirectingFinder:\n    install = map_module = classmethod(lambda *args: None)\n",
    )
    write(root / "redirected" / "redirectlib.py", WRAPPERS)
    write(site / "_redirectlib.pth", "import _editable_impl_redirectlib\n")
    write(
        site / "_editable_impl_redirectlib.py",
        "from editables.redirector import RedirectingFinder as F\nF.install()\n"
        f"F.map_module('redirectlib', {str(root / 'redirected' / 'redirectlib.py')!r})\n",
    )
    # 5. compiled only (and its stub): unknown, so silent
    (site / "fastops.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF not really")
    write(site / "fastops.pyi", "def run_elementwise(kernel, x): ...\n")
    return env


@pytest.fixture
def run(capsys, monkeypatch):
    """`pallas-ls ARGS` in process, in `cwd`, with no active environment: (status, stdout, stderr)."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)

    def _run(cwd: pathlib.Path, *argv: str):
        monkeypatch.chdir(cwd)
        status = cli.main(["check", "--no-cache", *argv])
        out, err = capsys.readouterr()
        return status, out, err

    return _run


def project(tmp_path: pathlib.Path, module: str) -> pathlib.Path:
    write(tmp_path / "proj" / "ops.py", OPS.format(module=module))
    return tmp_path / "proj"


@pytest.mark.parametrize("module", ["teamlib", "legacylib", "finderlib", "redirectlib"])
def test_a_wrapper_of_an_installed_package_is_followed(run, env_dir, tmp_path, module):
    proj = project(tmp_path, module)
    status, out, err = run(proj, "--python", str(env_dir), ".")
    assert status == 1, (out, err)
    assert f"ops.py:{RETURN_LINE}:5: PAL001" in out and "add_one_kernel" in out, out
    assert out.count("PAL001") == 1, out


@pytest.mark.parametrize("module", ["teamlib", "finderlib"])
def test_without_the_environment_the_wrapper_is_not_seen(run, env_dir, tmp_path, module):
    proj = project(tmp_path, module)
    assert run(proj, "--no-python-env", ".")[:2] == (0, "All checks passed!\n")
    assert run(proj, ".")[:2] == (0, "All checks passed!\n")  # pallas-ls's own interpreter lacks teamlib


def test_the_environment_comes_from_virtual_env_and_from_the_configuration(run, env_dir, tmp_path, monkeypatch):
    proj = project(tmp_path, "teamlib")
    monkeypatch.setenv("VIRTUAL_ENV", str(env_dir))
    assert run(proj, ".")[0] == 1
    monkeypatch.delenv("VIRTUAL_ENV")
    write(tmp_path / "pyproject.toml", f'[tool.pallas-ls]\npython = "{os.path.relpath(env_dir, tmp_path)}"\n')
    assert run(proj, ".")[0] == 1  # relative to the pyproject.toml's directory
    assert run(proj, "--isolated", ".")[0] == 0


def test_a_compiled_only_module_stays_silent(run, env_dir, tmp_path):
    proj = project(tmp_path, "fastops")
    assert run(proj, "--python", str(env_dir), ".")[:2] == (0, "All checks passed!\n")
    assert Environment.from_directories([str(site_packages(env_dir))]).locate("fastops.run_elementwise") is None


def test_findings_are_reported_in_the_project_only(env_dir, tmp_path):
    """A kernel defined in the installed package and launched from the project: not reported."""
    site = site_packages(env_dir)
    write(tmp_path / "lib" / "badkernels.py", "def bad_kernel(x_ref, o_ref):\n    return x_ref[...]\n")
    write(
        tmp_path / "proj" / "use.py",
        """\
        import jax
        from jax.experimental import pallas as pl
        from badkernels import bad_kernel

        def f(x):
            return pl.pallas_call(bad_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
        """,
    )
    environment = Environment.from_directories([str(site), str(tmp_path / "lib")])
    results = Project(environment=environment).check_paths([str(tmp_path / "proj" / "use.py")])
    assert [(r.path, f.code) for r in results for f in r.findings] == []


def test_a_missing_or_broken_interpreter_is_one_warning(run, tmp_path):
    proj = project(tmp_path, "teamlib")
    status, out, err = run(proj, "--python", str(tmp_path / "nowhere"), ".")
    assert (status, out) == (0, "All checks passed!\n")
    assert err.count("\n") == 1 and err.startswith("pallas-ls: warning: ") and "project only" in err, err
    marker = tmp_path / "ran"
    broken = write(tmp_path / "bin" / "python", f"#!/bin/sh\ntouch {marker}\nexit 3\n")
    broken.chmod(0o755)
    status, out, err = run(proj, "--python", str(broken), ".")
    assert (status, out) == (0, "All checks passed!\n")
    assert err.count("\n") == 1 and "no site-packages" in err, err
    assert not marker.exists()  # read, never run


def test_discover_follows_the_documented_order(env_dir, tmp_path):
    """What the language server calls: explicit, then $VIRTUAL_ENV, then $CONDA_PREFIX, then itself."""
    site = str(site_packages(env_dir))
    assert site in Environment.discover(str(env_dir), env={}).directories
    assert site in Environment.discover(None, env={"VIRTUAL_ENV": str(env_dir)}).directories
    assert site in Environment.discover(None, env={"CONDA_PREFIX": str(env_dir)}).directories
    assert site in Environment.discover(None, env={"VIRTUAL_ENV": str(env_dir), "CONDA_PREFIX": "/nowhere"}).directories
    own = Environment.discover(None, env={})
    assert own.executable == sys.executable and site not in own.directories and own.warning is None
    relative = Environment.discover(os.path.relpath(env_dir, tmp_path), env={}, root=str(tmp_path))
    assert site in relative.directories
    broken = Environment.discover(None, env={"VIRTUAL_ENV": str(tmp_path / "gone")})
    assert broken.directories == () and "VIRTUAL_ENV" in broken.warning


@pytest.fixture
def nothing_runs(monkeypatch):
    """Any attempt to start a process fails the test (issue 35: discovery runs nothing)."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"pallas-ls started a process: {args}")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(os, "system", refuse)


def test_discovery_reads_the_layout_and_runs_nothing(env_dir, tmp_path, monkeypatch, nothing_runs):
    """The environment's interpreter, its `.pth` import lines and `sitecustomize.py` never run; the
    search path is the same whether the environment or its interpreter is named."""
    write(tmp_path / "json.py", "raise SystemExit('user code ran')\n")
    monkeypatch.chdir(tmp_path)
    first = Environment.discover(str(env_dir), env={})
    second = Environment.discover(str(env_dir / "bin" / "python") if os.name != "nt" else str(env_dir), env={})
    assert first.warning is None and first.directories == (str(site_packages(env_dir)),)
    assert second.directories == first.directories
    stdlib = f"lib/python{sys.version_info.major}.{sys.version_info.minor}"
    assert not any(d.endswith((stdlib, "lib-dynload")) for d in first.directories)  # no stdlib


HOSTILE_KERNEL = """\
import jax
from jax.experimental import pallas as pl


def k(x_ref, o_ref):
    return x_ref[...]


def f(x):
    return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""


def hostile_repository(tmp_path: pathlib.Path, python: str) -> tuple[pathlib.Path, pathlib.Path]:
    """A cloned repository whose pyproject names a program as its `python`; (repo, marker that
    exists once anything of the repository ran)."""
    repo, marker = tmp_path / "repo", tmp_path / "PWNED"
    write(repo / "pyproject.toml", f'[tool.pallas-ls]\npython = "{python}"\n')
    write(repo / "evil.sh", f"#!/bin/sh\ntouch {marker}\n").chmod(0o755)
    write(repo / "k.py", HOSTILE_KERNEL)
    env = repo / ".venv"
    site = env / "lib" / "python3.11" / "site-packages"
    write(env / "pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\ninclude-system-site-packages = false\n")
    write(env / "bin" / "python", f"#!/bin/sh\ntouch {marker}\n").chmod(0o755)
    write(site / "sitecustomize.py", f"open({str(marker)!r}, 'w').close()\n")
    write(site / "evil.pth", f"import os; open({str(marker)!r}, 'w').close()\n{repo / 'extra'}\n")
    write(repo / "extra" / "extralib.py", "X = 1\n")
    return repo, marker


@pytest.mark.skipif(os.name == "nt", reason="shell scripts")
@pytest.mark.parametrize("python", ["./evil.sh", "evil.sh", ".venv", ".venv/bin/python"])
def test_a_repository_cannot_make_check_run_its_program(run, tmp_path, python, nothing_runs):
    repo, marker = hostile_repository(tmp_path, python)
    status, out, err = run(repo, ".")
    assert status == 1 and "PAL001" in out, (out, err)
    assert not marker.exists()


@pytest.mark.skipif(os.name == "nt", reason="shell scripts")
def test_a_repository_venv_is_read_as_data(tmp_path, nothing_runs):
    """`.pth` path lines of a repository's venv are followed; its import lines are not run."""
    repo, marker = hostile_repository(tmp_path, ".venv")
    environment = Environment.discover(".venv", env={}, root=str(repo))
    assert environment.locate("extralib") == (str(repo / "extra" / "extralib.py"), [])
    assert environment.warning is None and not marker.exists()
    from pallas_ls.lsp.workspace import workspace_environment

    assert workspace_environment([str(repo)]).locate("extralib") is not None  # the server's path
    assert not marker.exists()


def test_system_site_packages_and_versions_come_from_pyvenv_cfg(tmp_path):
    base, env = tmp_path / "base", tmp_path / "env"
    for version in ("3.10", "3.12"):
        (base / "lib" / f"python{version}" / "site-packages").mkdir(parents=True)
        (env / "lib" / f"python{version}" / "site-packages").mkdir(parents=True)
    (base / "bin").mkdir()
    write(env / "pyvenv.cfg", f"home = {base / 'bin'}\nversion_info = 3.10.4\ninclude-system-site-packages = true\n")
    assert Environment.discover(str(env), env={}).directories == (
        str(env / "lib" / "python3.10" / "site-packages"),
        str(base / "lib" / "python3.10" / "site-packages"),
    )
    (env / "pyvenv.cfg").unlink()
    assert Environment.discover(str(env), env={}).directories == (str(env / "lib" / "python3.12" / "site-packages"),)


# ------------------------------------------------------------------------------ the search path
def test_search_path_precedence(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write(a / "ns" / "one.py", "X = 1\n")  # a namespace package's portion in each directory
    write(b / "ns" / "two.py", "X = 2\n")
    write(a / "mod.py", "")
    write(b / "mod" / "__init__.py", "")  # later on the path: `a/mod.py` wins
    write(a / "both" / "__init__.py", "")
    write(a / "both.py", "")  # same directory: the package wins
    write(a / "stubbed.pyi", "")  # a stub alone is not importable
    write(a / "pkg" / "__init__.py", "")
    (a / "pkg" / "fast.abi3.so").write_bytes(b"")
    write(a / "pkg" / "fast.py", "")  # compiled first, as importlib checks
    search = SearchPath([str(a), str(b)])
    assert search.locate("ns.one.X") == (str(a / "ns" / "one.py"), ["X"])
    assert search.locate("ns.two") == (str(b / "ns" / "two.py"), [])
    assert search.locate("ns") is None and search.locate("ns.three") is None
    assert search.locate("mod") == (str(a / "mod.py"), [])
    assert search.locate("both.f") == (str(a / "both" / "__init__.py"), ["f"])
    assert search.locate("stubbed") is None
    assert search.locate("pkg.fast") is None
    assert search.locate("pkg.other") == (str(a / "pkg" / "__init__.py"), ["other"])


def test_environment_modules_are_parsed_once_per_version(tmp_path):
    path = write(tmp_path / "lib" / "m.py", "X = 1\n")
    first = Environment.none().model_of(str(path))[1]
    assert Environment.none().model_of(str(path))[1] is first  # shared by every project of the process
    path.write_text("X = 22\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))
    assert Environment.none().model_of(str(path))[1] is not first


def test_the_language_server_path_follows_the_environment(env_dir, tmp_path):
    """What the server does with a buffer (Project.findings_for), given the discovered environment."""
    project = Project([str(tmp_path)], environment=Environment.discover(str(env_dir), env={}))
    path = str(tmp_path / "ops.py")
    findings = project.findings_for(path, OPS.format(module="finderlib"))
    assert [(f.code, f.range.start.line + 1) for f in findings] == [("PAL001", RETURN_LINE)]
    assert findings[0].related[0].path.endswith(os.path.join("finderlib", "ops.py"))  # the launch, installed
    assert Project([str(tmp_path)]).findings_for(path, OPS.format(module="finderlib")) == []


def test_a_package_that_never_leads_to_pallas_is_not_parsed(tmp_path):
    """Bounded: scipy-like packages a kernel file calls are not read module after module."""
    site = tmp_path / "site"
    write(site / "plainlib" / "__init__.py", "from .impl import *\n")
    write(site / "plainlib" / "impl.py", "__all__ = ['expm']\n\ndef expm(x):\n    return x\n")
    kernel = write(
        tmp_path / "proj" / "k.py",
        """\
        import jax
        from jax.experimental import pallas as pl
        import plainlib

        def kernel(x_ref, o_ref):
            return x_ref[...]

        def f(x):
            y = plainlib.expm(x)
            return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(y)
        """,
    )
    project = Project(environment=Environment.from_directories([str(site)]))
    assert [f.code for f in project.check_paths([str(kernel)])[0].findings] == ["PAL001"]
    assert not any("plainlib" in path for path in environment_module._PARSED)


def test_the_server_can_change_the_environment(env_dir, tmp_path):
    project = Project([str(tmp_path)])
    path, text = str(tmp_path / "ops.py"), OPS.format(module="teamlib")
    assert project.findings_for(path, text) == []
    project.set_environment(Environment.discover(str(env_dir), env={}))
    assert [f.code for f in project.findings_for(path, text)] == ["PAL001"]
    project.set_environment(None)
    assert project.findings_for(path, text) == []


def test_an_invalid_python_setting_is_a_usage_error(run, tmp_path):
    proj = project(tmp_path, "teamlib")
    write(proj / "pyproject.toml", "[tool.pallas-ls]\npython = 3\n")
    status, _out, err = run(proj, ".")
    assert status == 2 and "invalid `python`" in err, err


def test_the_server_takes_the_workspace_pyproject_python(tmp_path):
    from pallas_ls.lsp.workspace import workspace_environment

    (tmp_path / "pyproject.toml").write_text(f"[tool.pallas-ls]\npython = {str(tmp_path / 'missing')!r}\n")
    assert "broken" in workspace_environment([str(tmp_path)]).description  # one warning, project-only
    (tmp_path / "pyproject.toml").write_text(f"[tool.pallas-ls]\npython = {sys.executable!r}\n")
    assert workspace_environment([str(tmp_path)]).executable == sys.executable
