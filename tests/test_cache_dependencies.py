"""Issue 33: the findings cache covers files that read other modules and the cross-module phase.

On a small library in the shapes real ones have (a package re-exporting kernels, ops launching
them, a kernel factory, a wrapper called from a file that never says "pallas"), every step of an
edit session is checked twice, with the cache and without it: the findings must be identical, and
an unchanged tree must cost no analysis at all.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pallas_ls.engine import batch, findings_cache
from pallas_ls.lint import check_files

LIBRARY = {
    "lib/__init__.py": "from .kernels import add\n",
    "lib/kernels.py": (
        "def add(x_ref, o_ref):\n"
        "    return x_ref[...] + 1\n"
        "def double(x_ref, o_ref):\n"
        "    o_ref[...] = x_ref[...] * 2\n"
    ),
    "lib/ops.py": (
        "import jax\n"
        "from jax.experimental import pallas as pl\n"
        "from .kernels import add, double\n"
        "S = jax.ShapeDtypeStruct((8,), 'f4')\n"
        "def run_add(x):\n"
        "    return pl.pallas_call(add, out_shape=S)(x)\n"
        "def run_double(x):\n"
        "    return pl.pallas_call(double, out_shape=S)(x)\n"
    ),
    "lib/factory.py": (
        "def make(offset):\n"
        "    def kernel(x_ref, o_ref):\n"
        "        o_ref[...] = x_ref[...] + offset\n"
        "    return kernel\n"
    ),
    "lib/use_factory.py": (
        "import jax\n"
        "from jax.experimental import pallas as pl\n"
        "from .factory import make\n"
        "def run(x):\n"
        "    return pl.pallas_call(make(1), out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n"
    ),
    "lib/wrap.py": (
        "import jax\n"
        "from jax.experimental import pallas as pl\n"
        "def launch(kernel, x):\n"
        "    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n"
    ),
    "lib/late.py": (
        "import jax\n"
        "from jax.experimental import pallas as pl\n"
        "from .later import kern\n"
        "def run(x):\n"
        "    return pl.pallas_call(kern, out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n"
    ),
    "user.py": (
        "from lib import wrap\n"
        "def kernel(x_ref, o_ref):\n"
        "    return x_ref[...]\n"
        "def main(x):\n"
        "    return wrap.launch(kernel, x)\n"
    ),
}


def write(root: Path, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted(str(p) for p in root.rglob("*.py"))


def described(results) -> list[tuple]:
    """Everything a user sees of the findings, file by file."""
    return [
        (
            os.path.basename(r.path),
            r.error,
            [
                (f.code, f.message, f.range, f.path, [(x.path, x.range, x.message) for x in f.related])
                for f in r.findings
            ],
        )
        for r in results
    ]


def codes(results) -> dict[str, list[str]]:
    return {os.path.relpath(r.path): [f.code for f in r.findings] for r in results}


@pytest.fixture
def counted(monkeypatch):
    """How many files were analysed, and how many groups of the cross-module phase were checked,
    since the last reset."""
    calls = {"files": 0, "across": 0}
    analyse_one, check_each = batch._analyse_one, batch._Across._check_each

    def count_file(path):
        calls["files"] += 1
        return analyse_one(path)

    def count_groups(self, lint, groups, *rest):
        calls["across"] += len(groups)
        return check_each(self, lint, groups, *rest)

    monkeypatch.setattr(batch, "_analyse_one", count_file)
    monkeypatch.setattr(batch._Across, "_check_each", count_groups)
    return calls


def check_both_ways(root: Path, cache: Path, jobs: int = 1):
    paths = sorted(str(p) for p in root.rglob("*.py"))
    cached = check_files(paths, [str(root)], cache_dir=str(cache), jobs=jobs)
    fresh = check_files(paths, [str(root)], cache_dir=None, jobs=jobs)
    assert described(cached) == described(fresh)
    return cached


def test_cached_findings_equal_fresh_ones_through_an_edit_session(tmp_path, counted, monkeypatch):
    root, cache = tmp_path / "project", tmp_path / "cache"
    write(root, LIBRARY)
    monkeypatch.chdir(root)
    first = check_both_ways(root, cache)
    # Not a vacuous comparison: the cross-module findings are there.
    assert codes(first)["lib/kernels.py"] == ["PAL001"]
    assert codes(first)["user.py"] == ["PAL001"]

    counted.update(files=0, across=0)
    check_files(sorted(str(p) for p in root.rglob("*.py")), [str(root)], cache_dir=str(cache), jobs=1)
    assert counted == {"files": 0, "across": 0}, "an unchanged tree is answered from the cache"

    # A dependency changes, not the file reporting: the kernel no longer returns.
    write(root, {"lib/kernels.py": LIBRARY["lib/kernels.py"].replace("return x_ref[...] + 1", "o_ref[...] = 1")})
    assert codes(check_both_ways(root, cache))["lib/kernels.py"] == []
    # The factory's kernel starts returning a value: use_factory.py reads it through an import.
    write(root, {"lib/factory.py": LIBRARY["lib/factory.py"].replace("o_ref[...] = x_ref[...] + offset", "return 1")})
    assert "PAL001" in str(check_both_ways(root, cache))
    # The wrapper stops launching: the file that never says "pallas" has nothing to report.
    write(root, {"lib/wrap.py": "def launch(kernel, x):\n    return kernel\n"})
    assert codes(check_both_ways(root, cache))["user.py"] == []
    write(root, {"lib/wrap.py": LIBRARY["lib/wrap.py"]})
    assert codes(check_both_ways(root, cache))["user.py"] == ["PAL001"]
    # An import that did not resolve now does: late.py launches the kernel of a new module.
    write(root, {"lib/later.py": "def kern(x_ref, o_ref):\n    return x_ref[...]\n"})
    assert codes(check_both_ways(root, cache))["lib/later.py"] == ["PAL001"]
    # A module that was read is gone.
    (root / "lib/factory.py").unlink()
    check_both_ways(root, cache)
    # And with worker processes.
    check_both_ways(root, cache, jobs=2)


def test_a_cache_entry_whose_dependencies_were_tampered_with_is_recomputed(tmp_path, counted, monkeypatch):
    """An entry naming other dependencies than the analysis read cannot be made without the key
    (entries are authenticated); one from another version of a dependency is a miss."""
    root, cache = tmp_path / "project", tmp_path / "cache"
    write(root, LIBRARY)
    monkeypatch.chdir(root)
    check_both_ways(root, cache)
    (root / "lib/factory.py").write_text(LIBRARY["lib/factory.py"] + "\n# touched\n")
    counted.update(files=0, across=0)
    check_both_ways(root, cache)
    assert counted["files"] >= 1  # use_factory.py, which read factory.py, is analysed again


def test_the_analysers_own_sources_are_part_of_every_key(tmp_path):
    """A development checkout changes rules without changing the version: its entries must not
    be reused by the next version of the code (the fingerprint follows each source file)."""
    (tmp_path / "rule.py").write_text("CODE = 1\n")
    before = findings_cache.source_fingerprint(str(tmp_path))
    assert findings_cache.source_fingerprint(str(tmp_path)) == before
    (tmp_path / "rule.py").write_text("CODE = 22\n")
    assert findings_cache.source_fingerprint(str(tmp_path)) != before
    assert findings_cache.analyser_version().startswith(findings_cache.__version__ + "+")


def package_of_its_own(n: int) -> dict[str, str]:
    """A package whose ops module launches its kernels module's `add`, which returns a value."""
    return {
        f"pkg{n}/__init__.py": "",
        f"pkg{n}/kernels.py": "def add(x_ref, o_ref):\n    return x_ref[...]\n",
        f"pkg{n}/ops.py": (
            "import jax\nfrom jax.experimental import pallas as pl\nfrom .kernels import add\n"
            "pl.pallas_call(add, out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(x)\n"
        ),
    }


def test_one_changed_file_costs_the_cross_module_groups_that_read_it(tmp_path, counted, monkeypatch):
    """Four packages that share no file: four groups of the cross-module phase, each cached on its
    own.  Changing one package's kernel checks that package's group again, not the other three."""
    root, cache = tmp_path / "project", tmp_path / "cache"
    for n in range(4):
        write(root, package_of_its_own(n))
    monkeypatch.chdir(root)
    assert codes(check_both_ways(root, cache))["pkg2/kernels.py"] == ["PAL001"]
    counted.update(files=0, across=0)
    check_both_ways(root, cache)
    assert counted["across"] == 4, "the run without the cache checks the four groups; the cached one none"

    write(root, {"pkg2/kernels.py": "def add(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n"})
    counted.update(files=0, across=0)
    found = check_both_ways(root, cache)
    # pkg2/ops.py (it read the kernel) and its group; then, without the cache, the four of each.
    assert counted == {"files": 1 + 4, "across": 1 + 4}
    assert codes(found)["pkg2/kernels.py"] == []
    assert codes(found)["pkg1/kernels.py"] == ["PAL001"]


def package_launching_through_a_shared_helper(n: int) -> dict[str, str]:
    """A package whose ops module launches its kernel through `helpers.run`, a module every
    package reads: its model (and what it may launch) is made once for all the groups of a check."""
    return {
        f"pkg{n}/__init__.py": "",
        f"pkg{n}/kernels.py": "def add(x_ref, o_ref):\n    return x_ref[...]\n",
        f"pkg{n}/ops.py": "import helpers\nfrom jax.experimental import pallas as pl\nfrom .kernels import add\n\nhelpers.run(add, x)\n",
    }


HELPERS = (
    "import jax\nfrom jax.experimental import pallas as pl\n\nS = jax.ShapeDtypeStruct((8,), 'f4')\n\n"
    "def run(kernel, x):\n    return pl.pallas_call(kernel, out_shape=S)(x)\n"
)


def test_a_module_every_group_reads_is_a_dependency_of_each(tmp_path, counted, monkeypatch):
    """Two groups read helpers.py (the second through the model and summary the first made): a
    change to it checks both again, and both see it."""
    root, cache = tmp_path / "project", tmp_path / "cache"
    for n in range(2):
        write(root, package_launching_through_a_shared_helper(n))
    write(root, {"helpers.py": HELPERS})
    monkeypatch.chdir(root)
    first = codes(check_both_ways(root, cache))
    assert first["pkg0/kernels.py"] == first["pkg1/kernels.py"] == ["PAL001"]

    # Two outputs now: the two-parameter kernels are handed three refs.
    write(root, {"helpers.py": HELPERS.replace("out_shape=S", "out_shape=(S, S)")})
    counted.update(files=0, across=0)
    after = codes(check_both_ways(root, cache))
    assert "PAL004" in after["pkg0/kernels.py"] + after["pkg0/ops.py"]
    assert "PAL004" in after["pkg1/kernels.py"] + after["pkg1/ops.py"]
    assert counted["across"] == 2 * 2, "both groups again, with the cache and without it"


def test_a_check_whose_findings_are_all_cached_does_not_load_the_engine(tmp_path):
    """Loading the interpreter and the rules was most of a fully cached run (0.1 s of 0.3 on
    tokamax); a second `check` of an unchanged library imports neither, and says the same."""
    import subprocess
    import sys

    write(tmp_path, LIBRARY)
    probe = (
        "import sys\n"
        "from pallas_ls.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('pallas_ls.engine.analysis', 'pallas_ls.rules.pal')))\n"
        "print('loaded:', loaded, file=sys.stderr)\n"
    )
    command = [
        sys.executable,
        "-c",
        probe,
        "check",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--jobs",
        "1",
        str(tmp_path),
    ]
    cold = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    warm = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "PAL001" in cold.stdout and warm.stdout == cold.stdout
    assert "'pallas_ls.engine.analysis'" in cold.stderr  # the probe sees the engine when it runs
    assert "loaded: []" in warm.stderr, warm.stderr


def test_load_rules_imports_the_engine_and_every_rule_a_server_needs():
    """The language server calls load_rules() at start, so that the import a cached `check` skips
    is not paid by its first didOpen (it was: first diagnostics of jax's lowering.py 6 -> 21 ms)."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from pallas_ls.rule_runner import load_rules\n"
        "before = 'pallas_ls.engine.analysis' in sys.modules\n"
        "load_rules()\n"
        "print(before, 'pallas_ls.engine.analysis' in sys.modules, 'pallas_ls.rules.pal001_kernel_returns_value' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "True", "True"], done.stderr
