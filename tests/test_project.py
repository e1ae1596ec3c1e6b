"""Kernels defined in one module and launched from another are reported where they are defined."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pallas_ls.lint import Project, check_paths

KERNELS = """\
import jax.numpy as jnp


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def findings_by_file(root: Path, names: list[str]) -> dict[str, list[str]]:
    results = check_paths([str(root / n) for n in names], roots=[str(root)])
    return {Path(r.path).relative_to(root).as_posix(): [f.code for f in r.findings] for r in results}


def test_relative_import(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/kernels.py": KERNELS,
            "pkg/ops.py": "from jax.experimental import pallas as pl\nfrom .kernels import add_one, good\n"
            "pl.pallas_call(add_one, s)(x)\npl.pallas_call(good, s)(x)\n",
        },
    )
    found = findings_by_file(tmp_path, ["pkg/kernels.py", "pkg/ops.py"])
    assert found == {"pkg/kernels.py": ["PAL001"], "pkg/ops.py": []}


def test_absolute_import_with_module_alias(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/kernels.py": KERNELS,
            "pkg/ops.py": "import functools\nfrom jax.experimental import pallas as pl\nimport pkg.kernels as K\n"
            "pl.pallas_call(functools.partial(K.add_one), s)(x)\n",
        },
    )
    results = check_paths([str(tmp_path / "pkg/kernels.py"), str(tmp_path / "pkg/ops.py")])
    [finding] = results[0].findings
    assert "launched by pallas_call in ops.py:4" in finding.message
    assert finding.related[0].path == str(tmp_path / "pkg/ops.py")
    assert finding.related[0].range.start.line == 3


def test_reexport_through_package_init(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from .impl.kernels import add_one\n",
            "pkg/impl/__init__.py": "",
            "pkg/impl/kernels.py": KERNELS,
            "main.py": "from jax.experimental import pallas as pl\nfrom pkg import add_one\npl.pallas_call(add_one, s)\n",
        },
    )
    found = findings_by_file(tmp_path, ["pkg/impl/kernels.py", "main.py"])
    assert found["pkg/impl/kernels.py"] == ["PAL001"]


def test_module_imported_by_from_dot(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/kernels.py": KERNELS,
            "pkg/ops.py": "from jax.experimental import pallas as pl\nfrom . import kernels\npl.pallas_call(kernels.add_one, s)\n",
        },
    )
    assert findings_by_file(tmp_path, ["pkg/kernels.py", "pkg/ops.py"])["pkg/kernels.py"] == ["PAL001"]


WRAPPER = """\
import jax
from jax.experimental import pallas as pl

def launch(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)
"""


def test_wrapper_called_as_an_attribute_of_its_module(tmp_path):
    """`from pkg import wrap; wrap.launch(kernel, x)`: the wrapper reached through the module
    object, from a file that says "pallas" and from one that never does (the prefilter)."""
    caller = "from pkg import wrap\n{extra}def kernel(x_ref, o_ref):\n    return x_ref[...]\nwrap.launch(kernel, x)\n"
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/wrap.py": WRAPPER,
            "loud.py": caller.format(extra="from jax.experimental import pallas as pl\n"),
            "quiet.py": caller.format(extra=""),
            "deep.py": "import pkg.wrap\ndef kernel(x_ref, o_ref):\n    return 1\npkg.wrap.launch(kernel, x)\n",
        },
    )
    found = findings_by_file(tmp_path, ["pkg/wrap.py", "loud.py", "quiet.py", "deep.py"])
    assert found == {"pkg/wrap.py": [], "loud.py": ["PAL001"], "quiet.py": ["PAL001"], "deep.py": ["PAL001"]}


def test_unresolvable_import_is_silent(tmp_path):
    write(
        tmp_path, {"ops.py": "from jax.experimental import pallas as pl\nfrom nowhere import k\npl.pallas_call(k, s)\n"}
    )
    assert findings_by_file(tmp_path, ["ops.py"]) == {"ops.py": []}


def test_open_document_sees_launches_from_indexed_files(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/kernels.py": KERNELS,
            "pkg/ops.py": "from jax.experimental import pallas as pl\nfrom .kernels import add_one\npl.pallas_call(add_one, s)\n",
        },
    )
    project = Project([str(tmp_path)])
    kernels_path = str(tmp_path / "pkg/kernels.py")
    assert project.findings_for(kernels_path, KERNELS) == []  # ops.py not indexed yet
    project.index_file(str(tmp_path / "pkg/ops.py"))
    assert [f.code for f in project.findings_for(kernels_path, KERNELS)] == ["PAL001"]
    assert project.launchers_of(kernels_path) == {str(tmp_path / "pkg/ops.py")}
    edited = KERNELS.replace("return x_ref[...] + 1", "o_ref[...] = x_ref[...] + 1")
    assert project.findings_for(kernels_path, edited) == []


def test_unreadable_file_is_reported_not_raised(tmp_path):
    (tmp_path / "bad.py").write_bytes(b"x = '\xff\xfe'\n")
    [result] = check_paths([str(tmp_path / "bad.py")])
    assert result.error and "UTF-8" in result.error
    assert [f.code for f in result.findings] == ["PAL900"]


def test_vanished_file_is_reported_not_raised(tmp_path):
    [result] = check_paths([str(tmp_path / "gone.py")])
    assert result.error and [f.code for f in result.findings] == ["PAL900"]


def test_import_resolution_is_cached_until_a_consulted_module_changes(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from .impl import add_one\n",
            "pkg/impl.py": KERNELS,
            "pkg/other.py": KERNELS,
            "main.py": "from jax.experimental import pallas as pl\nfrom pkg import add_one\npl.pallas_call(add_one, s)\n",
        },
    )
    project = Project([str(tmp_path)])
    main = str(tmp_path / "main.py")
    project.index_file(main)
    assert project.dependents(main) == {str(tmp_path / "pkg/impl.py")}
    # Editing main.py again does not re-resolve (the answer comes from the cache) ...
    (tmp_path / "pkg/__init__.py").write_text("from .other import add_one\n")
    project.findings_for(main, (tmp_path / "main.py").read_text())
    assert project.dependents(main) == {str(tmp_path / "pkg/impl.py")}
    # ... until the re-exporting module changes in the editor or on disk.
    project.set_overlay(str(tmp_path / "pkg/__init__.py"), "from .other import add_one\n")
    project.findings_for(main, (tmp_path / "main.py").read_text())
    assert project.dependents(main) == {str(tmp_path / "pkg/other.py")}


# ----------------------------------------------------------------------- the launch index
OPS = "from jax.experimental import pallas as pl\nfrom kernels import add_one\npl.pallas_call(add_one, s)(x)\n"


def _indexed_project(root: Path) -> Project:
    write(root, {"kernels.py": KERNELS, "ops.py": OPS})
    project = Project([str(root)])
    for name in ("kernels.py", "ops.py"):
        project.index_file(str(root / name))
    return project


def test_the_reverse_index_follows_every_change(tmp_path):
    project = _indexed_project(tmp_path)
    kernels, ops = str(tmp_path / "kernels.py"), str(tmp_path / "ops.py")
    assert project.launchers_of(kernels) == {ops} and project.launched_files() == {kernels}
    project.findings_for(ops, "x = 1\n")  # no longer launches anything
    assert project.launchers_of(kernels) == set() and project.launched_files() == set()
    project.set_overlay(ops, None)
    project.index_file(ops)
    assert project.launchers_of(kernels) == {ops}
    project.forget_file(ops)
    assert project.launchers_of(kernels) == set() and project.dependents(ops) == set()


def test_kernel_module_loaded_by_importlib(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/kernels.py": KERNELS,
            "pkg/ops.py": "import importlib\nfrom jax.experimental import pallas as pl\n"
            'K = importlib.import_module("pkg.kernels")\npl.pallas_call(K.add_one, s)(x)\n',
        },
    )
    found = findings_by_file(tmp_path, ["pkg/kernels.py", "pkg/ops.py"])
    assert found == {"pkg/kernels.py": ["PAL001"], "pkg/ops.py": []}


def test_kernel_read_through_a_module_getattr(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/kernels.py": KERNELS,
            "pkg/lazy.py": "def __getattr__(name):\n    from . import kernels\n    return getattr(kernels, name)\n",
            "pkg/ops.py": "from jax.experimental import pallas as pl\nfrom . import lazy\npl.pallas_call(lazy.add_one, s)(x)\n",
        },
    )
    found = findings_by_file(tmp_path, ["pkg/kernels.py", "pkg/lazy.py", "pkg/ops.py"])
    assert found == {"pkg/kernels.py": ["PAL001"], "pkg/lazy.py": [], "pkg/ops.py": []}


def test_registry_filled_by_a_module_imported_for_its_side_effect(tmp_path):
    """`import pkg.builtin` runs pkg/builtin.py, whose decorators fill the registry that
    `registry.get(name)` reads: absolute imports run at import time as relative ones do."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/registry.py": "_K = {}\ndef register(name):\n    def wrap(fn):\n        _K[name] = fn\n"
            "        return fn\n    return wrap\ndef get(name):\n    return _K[name]\n",
            "pkg/builtin.py": "from pkg.registry import register\n@register('one')\ndef add_one(x_ref, o_ref):\n"
            "    return x_ref[...] + 1\n",
            "main.py": "from jax.experimental import pallas as pl\nimport pkg.builtin\nfrom pkg import registry\n"
            "pl.pallas_call(registry.get('one'), s)(x)\n",
        },
    )
    found = findings_by_file(tmp_path, ["pkg/builtin.py", "main.py"])
    assert found == {"pkg/builtin.py": ["PAL001"], "main.py": []}


@pytest.mark.parametrize(("flag", "expected"), [("True", ["PAL001"]), ("False", [])])
def test_a_package_init_runs_before_its_submodule_is_imported(tmp_path, flag, expected):
    """`from pkg.ops import pick` runs pkg/__init__.py first: what it stores (a setting a helper of
    pkg.ops reads) is seen though nothing imports a name from it."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": f"from .settings import SETTINGS\nSETTINGS.fast = {flag}\n",
            "pkg/settings.py": "class Settings:\n    fast = False\nSETTINGS = Settings()\n",
            "pkg/ops.py": "from .settings import SETTINGS\n"
            + KERNELS
            + "def pick():\n    return add_one if SETTINGS.fast else good\n",
            "main.py": "from jax.experimental import pallas as pl\nfrom pkg.ops import pick\npl.pallas_call(pick(), s)(x)\n",
        },
    )
    found = findings_by_file(tmp_path, ["pkg/ops.py", "main.py"])
    assert found == {"pkg/ops.py": expected, "main.py": []}


@pytest.mark.parametrize(("key", "expected"), [("one", ["PAL001"]), ("two", [])])
def test_a_name_of_the_package_init_imported_relatively(tmp_path, key, expected):
    """`from . import REGISTRY` in a submodule is the package __init__'s REGISTRY (there is no
    module `.REGISTRY`); the __init__ imports that submodule only for its stores."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "REGISTRY = {}\nfrom . import impls  # noqa: F401\n",
            "pkg/impls.py": "from . import REGISTRY\n"
            + KERNELS
            + "REGISTRY['one'] = add_one\nREGISTRY['two'] = good\n",
            "main.py": f"from jax.experimental import pallas as pl\nfrom pkg import REGISTRY\npl.pallas_call(REGISTRY['{key}'], s)(x)\n",
        },
    )
    found = findings_by_file(tmp_path, ["pkg/impls.py", "main.py"])
    assert found == {"pkg/impls.py": expected, "main.py": []}


@pytest.mark.parametrize(("fused", "expected"), [("True", ["PAL001"]), ("False", []), ("flag", ["PAL001"])])
def test_a_partial_of_another_modules_kernel_decides_its_flags(tmp_path, fused, expected):
    """The keywords a partial in one module binds decide the branches of a kernel defined in another."""
    write(
        tmp_path,
        {
            "kernels.py": "def body(x_ref, o_ref, *, fused):\n    if fused:\n        return x_ref[...]\n"
            "    o_ref[...] = x_ref[...]\n",
            "main.py": "import functools\nfrom jax.experimental import pallas as pl\nfrom kernels import body\n"
            f"pl.pallas_call(functools.partial(body, fused={fused}), s)(x)\n",
        },
    )
    assert findings_by_file(tmp_path, ["kernels.py", "main.py"])["kernels.py"] == expected


@pytest.mark.parametrize(("scale", "expected"), [("jnp.full((8, 128), 2.0)", ["PAL003"]), ("2.0", [])])
def test_a_kernel_captures_an_array_another_module_defines(tmp_path, scale, expected):
    write(
        tmp_path,
        {
            "consts.py": f"import jax.numpy as jnp\nSCALE = {scale}\n",
            "kernels.py": "from jax.experimental import pallas as pl\nfrom consts import SCALE\n"
            "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * SCALE\npl.pallas_call(k, s)(x)\n",
        },
    )
    assert findings_by_file(tmp_path, ["consts.py", "kernels.py"])["kernels.py"] == expected


SELECTING_LAUNCHER = """\
import jax
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

KS = {"copy": copy, "bump": bump}

def run(name, x):
    return pl.pallas_call(KS[name], out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)

run("copy", x)
"""


def test_launcher_decided_by_its_calls_is_checked_with_other_files_calls(tmp_path):
    """ops.py's own call decides `run` launches copy (its generic context is dropped): a file that
    never says "pallas" calling `run("bump", x)` is checked with it, and reports bump in ops.py."""
    write(tmp_path, {"ops.py": SELECTING_LAUNCHER, "main.py": "from ops import run\nrun('bump', x)\n"})
    assert findings_by_file(tmp_path, ["ops.py", "main.py"]) == {"ops.py": ["PAL001"], "main.py": []}
    write(tmp_path, {"main.py": "from ops import run\nrun('copy', x)\n"})
    assert findings_by_file(tmp_path, ["ops.py", "main.py"]) == {"ops.py": [], "main.py": []}


def test_op_class_decided_by_its_calls_is_checked_with_other_files_instances(tmp_path):
    """ops.py's `Op()(x)` decides `Op.__call__` launches copy; a file that never says "pallas"
    making `Op("bump")` is checked with it (it names the class, not `__call__`)."""
    launcher = SELECTING_LAUNCHER.replace(
        "def run(name, x):\n    return pl.pallas_call(KS[name], out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n\nrun(\"copy\", x)\n",
        "class Op:\n    def __init__(self, mode='copy'):\n        self.mode = mode\n\n"
        "    def __call__(self, x):\n        return pl.pallas_call(KS[self.mode], out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n\n"
        "Op()(x)\n",
    )
    assert "class Op" in launcher
    write(tmp_path, {"ops.py": launcher, "main.py": "from ops import Op\nOp('bump')(x)\n"})
    assert findings_by_file(tmp_path, ["ops.py", "main.py"]) == {"ops.py": ["PAL001"], "main.py": []}


def test_a_partial_of_a_launcher_in_a_quiet_file_and_its_user(tmp_path):
    """launch.launch(x, *, kernel) launches its keyword: api.py (never says "pallas") binds it by
    `functools.partial`, and main.py (nor does it) calls api.fast(x): main's call decides."""
    launch = SELECTING_LAUNCHER.replace(
        "def run(name, x):\n    return pl.pallas_call(KS[name], out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n\nrun(\"copy\", x)\n",
        "def launch(x, *, kernel):\n    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n",
    )
    assert "def launch" in launch
    api = "import functools\nimport base\n\nfast = functools.partial(base.launch, kernel=base.KERNEL)\n"
    write(
        tmp_path, {"base.py": launch, "api.py": api.replace("KERNEL", "bump"), "main.py": "import api\napi.fast(x)\n"}
    )
    assert findings_by_file(tmp_path, ["base.py", "api.py", "main.py"]) == {
        "base.py": ["PAL001"],
        "api.py": [],
        "main.py": [],
    }
    write(tmp_path, {"api.py": api.replace("KERNEL", "copy")})
    assert findings_by_file(tmp_path, ["base.py", "api.py", "main.py"])["base.py"] == []


def test_a_subclass_in_a_quiet_file_overriding_the_kernel_a_method_launches(tmp_path):
    """base.Op.run launches `self.kernel` (copy in Op): a subclass in another file that never says
    "pallas" may override it, so files importing base and naming Op or run are checked with it,
    and files importing those and naming what they define (main.py reaches Op through fancy)."""
    base = SELECTING_LAUNCHER.replace(
        "def run(name, x):\n    return pl.pallas_call(KS[name], out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n\nrun(\"copy\", x)\n",
        "class Op:\n    kernel = staticmethod(copy)\n\n"
        "    def run(self, x):\n        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n",
    )
    assert "class Op" in base
    fancy = "import base\n\nclass Fancy(base.Op):\n    kernel = staticmethod(base.KERNEL)\n"
    main = "import fancy\nfancy.Fancy().run(x)\n"
    write(tmp_path, {"base.py": base, "fancy.py": fancy.replace("KERNEL", "bump"), "main.py": main})
    found = findings_by_file(tmp_path, ["base.py", "fancy.py", "main.py"])
    assert found == {"base.py": ["PAL001"], "fancy.py": [], "main.py": []}
    write(tmp_path, {"fancy.py": fancy.replace("KERNEL", "copy")})
    assert findings_by_file(tmp_path, ["base.py", "fancy.py", "main.py"])["base.py"] == []


KERNEL_PAIR = """\
import jax
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1
"""


def test_an_imported_module_is_not_main(tmp_path):
    """lib.kernel is rebound under `if __name__ == "__main__":`, which never runs when main.py
    imports lib: main launches copy, and bump (never launched) is not reported."""
    lib = KERNEL_PAIR + '\nkernel = copy\n\nif __name__ == "__main__":\n    kernel = bump\n'
    main = "from jax.experimental import pallas as pl\nimport lib\npl.pallas_call(lib.kernel, out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n"
    write(tmp_path, {"lib.py": lib, "main.py": main})
    assert findings_by_file(tmp_path, ["lib.py", "main.py"]) == {"lib.py": [], "main.py": []}
    write(tmp_path, {"lib.py": lib.replace("kernel = copy\n\nif", "kernel = bump\n\nif")})
    assert findings_by_file(tmp_path, ["lib.py", "main.py"])["lib.py"] == ["PAL001"]


def test_plugins_imported_relative_to_the_package_by_importlib(tmp_path):
    """plugins/__init__.py imports its submodules with `importlib.import_module(f".{name}", __name__)`
    in a loop; their decorators register kernels that main.py launches by name."""
    init = (
        "import importlib\nREGISTRY = {}\ndef register(name):\n    def deco(fn):\n        REGISTRY[name] = fn\n"
        "        return fn\n    return deco\nfor _name in ('one',):\n    importlib.import_module(f'.{_name}', __name__)\n"
    )
    one = "from . import register\nfrom .kernels import bump\nregister('fast')(bump)\n"
    main = "from jax.experimental import pallas as pl\nimport plugins\npl.pallas_call(plugins.REGISTRY['fast'], out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n"
    write(
        tmp_path,
        {"plugins/__init__.py": init, "plugins/kernels.py": KERNEL_PAIR, "plugins/one.py": one, "main.py": main},
    )
    found = findings_by_file(tmp_path, ["plugins/kernels.py", "main.py"])
    assert found == {"plugins/kernels.py": ["PAL001"], "main.py": []}
