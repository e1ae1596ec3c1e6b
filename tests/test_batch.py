"""The CLI's batch checker: worker processes, the content-hash cache, cross-module kernels."""

from __future__ import annotations

import os
from pathlib import Path

from pallas_ls.engine import batch
from pallas_ls.engine.project import Project
from pallas_ls.lint import check_files

KERNEL = """\
import jax
from jax.experimental import pallas as pl
S = jax.ShapeDtypeStruct((8,), 'f4')
def k{n}(x_ref, o_ref):
    return x_ref[...] + {n}
pl.pallas_call(k{n}, out_shape=S)(x)
"""


def make_tree(root: Path, count: int) -> list[str]:
    paths = []
    for n in range(count):
        path = root / f"k{n}.py"
        path.write_text(KERNEL.format(n=n))
        paths.append(str(path))
    (root / "plain.py").write_text("def broken(:\n")  # never mentions Pallas: not even parsed
    (root / "pkg").mkdir()
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/kernels.py").write_text("def add(x_ref, o_ref):\n    return x_ref[...]\n")
    (root / "pkg/ops.py").write_text(
        "from jax.experimental import pallas as pl\nfrom .kernels import add\npl.pallas_call(add, s)\n"
    )
    return [*paths, str(root / "plain.py"), str(root / "pkg/kernels.py"), str(root / "pkg/ops.py")]


def codes(results) -> dict[str, list[str]]:
    return {os.path.basename(r.path): [f.code for f in r.findings] for r in results}


def test_workers_give_the_same_findings_as_one_process(tmp_path):
    paths = make_tree(tmp_path, 20)
    one = check_files(paths, jobs=1)
    two = check_files(paths, jobs=2)
    assert codes(one) == codes(two)
    assert codes(two)["k7.py"] == ["PAL001"] and codes(two)["plain.py"] == []
    assert codes(two)["kernels.py"] == ["PAL001"] and codes(two)["ops.py"] == []
    assert [f.message for r in one for f in r.findings] == [f.message for r in two for f in r.findings]


def test_cache_is_used_and_invalidated_by_content(tmp_path, monkeypatch):
    (tmp_path / "src").mkdir()
    paths = make_tree(tmp_path / "src", 3)
    cache_dir = str(tmp_path / "cache")
    first = check_files(paths, cache_dir=cache_dir, jobs=1)
    assert (tmp_path / "cache" / ".gitignore").exists()
    analysed = []
    original = batch._analyse_one
    monkeypatch.setattr(batch, "_analyse_one", lambda path: analysed.append(path) or original(path))
    second = check_files(paths, cache_dir=cache_dir, jobs=1)
    assert codes(first) == codes(second)
    # Every file comes from the cache, the cross-module launcher too (issue 33: its entry holds
    # what it read of kernels.py, which has not changed).
    assert analysed == []
    Path(paths[0]).write_text(KERNEL.format(n=0).replace("return x_ref[...] + 0", "o_ref[...] = x_ref[...]"))
    analysed.clear()
    third = check_files(paths, cache_dir=cache_dir, jobs=1)
    assert codes(third)["k0.py"] == [] and "k0.py" in [os.path.basename(p) for p in analysed]


def test_unwritable_cache_directory_does_not_fail_the_check(tmp_path):
    paths = make_tree(tmp_path, 2)
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory should be")
    assert codes(check_files(paths, cache_dir=str(blocker), jobs=1))["k1.py"] == ["PAL001"]


HELPERS = """\
import jax
from jax.experimental import pallas as pl
S = jax.ShapeDtypeStruct((8,), 'f4')
def run(kernel, x):
    return pl.pallas_call(kernel, out_shape=S)(x)
"""
USER = """\
from jax.experimental import pallas as pl
from lib.helpers import run
def k{n}(x_ref, o_ref):
    return x_ref[...] + {n}
run(k{n}, x)
"""


def test_an_imported_module_is_summarised_once_per_check(tmp_path, monkeypatch):
    """Issue 33: what an imported helper module may launch is found once per check (not once per
    importing file), and the findings are those of analyses that each find it themselves."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib/__init__.py").write_text("")
    (tmp_path / "lib/helpers.py").write_text(HELPERS)
    paths = [str(tmp_path / "lib/helpers.py")]
    for n in range(6):
        (tmp_path / f"user{n}.py").write_text(USER.format(n=n))
        paths.append(str(tmp_path / f"user{n}.py"))
    summarised = []
    real = Project.launching_summary

    def counting(self, model, path, asking):
        if self.share_summaries and path not in self._summaries:
            summarised.append(os.path.basename(path))
        return real(self, model, path, asking)

    monkeypatch.setattr(Project, "launching_summary", counting)
    shared = check_files(paths, jobs=1)
    assert summarised == ["helpers.py"]
    monkeypatch.setattr(batch, "_begin", lambda lint, env: setattr(batch, "_project", Project(lint=lint)))
    alone = check_files(paths, jobs=1)
    assert codes(shared) == codes(alone)
    assert codes(shared)["user3.py"] == ["PAL001"]
    assert [f.message for r in shared for f in r.findings] == [f.message for r in alone for f in r.findings]


GROUP_KERNELS = (
    "def add(x_ref, o_ref):\n    return x_ref[...]\n\ndef copy(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n"
)
GROUP_OPS = (
    "import jax\nfrom jax.experimental import pallas as pl\nfrom .kernels import add, copy\n"
    "S = jax.ShapeDtypeStruct((8,), 'f4')\n\n"
    "def run(kernel, x):\n    return pl.pallas_call(kernel, out_shape=S)(x)\n\n"
    "pl.pallas_call(add, out_shape=S)(x)\n"
)


def make_groups(root: Path, count: int) -> list[str]:
    """`count` packages, each a kernels module and an ops module launching one of its kernels:
    launchers that share no file, so the cross-module phase may check each package on its own."""
    paths = []
    for n in range(count):
        package = root / f"pkg{n}"
        package.mkdir()
        (package / "__init__.py").write_text("")
        (package / "kernels.py").write_text(GROUP_KERNELS)
        (package / "ops.py").write_text(GROUP_OPS)
        paths += [str(package / "kernels.py"), str(package / "ops.py")]
    return paths


def test_independent_launchers_are_checked_in_parallel_with_the_same_findings(tmp_path, monkeypatch):
    paths = make_groups(tmp_path, 4)
    used: list[bool] = []
    check_groups = batch._Across._check_groups

    def spy(self, *args):
        done = check_groups(self, *args)
        used.append(done is not None)
        return done

    monkeypatch.setattr(batch._Across, "_check_groups", spy)
    one = check_files(paths, roots=[str(tmp_path)], jobs=1)
    two = check_files(paths, roots=[str(tmp_path)], jobs=2)
    assert used == [True]  # four groups, checked by workers
    assert [(r.path, [(f.code, f.message) for f in r.findings]) for r in one] == [
        (r.path, [(f.code, f.message) for f in r.findings]) for r in two
    ]
    assert codes(two)["kernels.py"] == ["PAL001"]


def test_groups_that_meet_in_one_file_are_checked_together(tmp_path, monkeypatch):
    """A file that never says "pallas" launches pkg1's `add` through its wrapper `run`, imported
    from the package (a re-export the grouping does not follow): a group of its own, which meets
    pkg1's group in pkg1/kernels.py.  Those two are checked again together, as one project."""
    paths = make_groups(tmp_path, 3)
    (tmp_path / "pkg1/__init__.py").write_text("from .ops import run\n")
    (tmp_path / "quiet.py").write_text("from pkg1 import run\nfrom pkg1.kernels import add\nrun(add, x)\n")
    paths.append(str(tmp_path / "quiet.py"))
    met: list[int] = []
    meeting = batch._meeting

    def spy(done):
        found = meeting(done)
        met.append(len(found))
        return found

    monkeypatch.setattr(batch, "_meeting", spy)
    one = check_files(paths, roots=[str(tmp_path)], jobs=1)
    two = check_files(paths, roots=[str(tmp_path)], jobs=2)
    assert met == [2, 2]  # quiet.py's group and pkg1's, with and without workers
    assert [(r.path, [f.message for f in r.findings]) for r in one] == [
        (r.path, [f.message for f in r.findings]) for r in two
    ]


def test_a_quiet_launcher_goes_with_the_wrappers_it_imports(tmp_path, monkeypatch):
    """quiet.py imports pkg1.ops's wrapper `run` itself: it joins pkg1's group, none meet."""
    paths = make_groups(tmp_path, 3)
    (tmp_path / "quiet.py").write_text("from pkg1.ops import run\nfrom pkg1.kernels import add\nrun(add, x)\n")
    paths.append(str(tmp_path / "quiet.py"))
    met: list[int] = []
    meeting = batch._meeting

    def spy(done):
        found = meeting(done)
        met.append(len(found))
        return found

    monkeypatch.setattr(batch, "_meeting", spy)
    one = check_files(paths, roots=[str(tmp_path)], jobs=1)
    two = check_files(paths, roots=[str(tmp_path)], jobs=2)
    assert met == [0, 0]
    assert [(r.path, [f.message for f in r.findings]) for r in one] == [
        (r.path, [f.message for f in r.findings]) for r in two
    ]
