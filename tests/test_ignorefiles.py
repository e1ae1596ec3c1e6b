"""`.gitignore`, `.ignore` and git's exclude files in the directory walk (issue 35), as ruff's
`respect-gitignore` (on by default) and ripgrep read them."""

from __future__ import annotations

import os
import pathlib

import pytest

from pallas_ls import cli
from pallas_ls.discovery import discover
from pallas_ls.ignorefiles import parse_ignore_file

KERNEL = """\
import jax
from jax.experimental import pallas as pl


def k(x_ref, o_ref):
    return x_ref[...]


def f(x):
    return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""


def write(path: pathlib.Path, text: str = "x = 1\n") -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def names(root: pathlib.Path, **kwargs) -> list[str]:
    return sorted(os.path.relpath(p, root).replace(os.sep, "/") for p in discover([str(root)], **kwargs))


@pytest.fixture
def repo(tmp_path, monkeypatch) -> pathlib.Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    root = tmp_path / "repo"
    (root / ".git" / "info").mkdir(parents=True)
    return root


def test_gitignore_patterns_as_git_reads_them(repo):
    write(
        repo / ".gitignore",
        "\n".join(
            [
                "# generated code",
                "gen_*.py",
                "/top_only.py",
                "out/",
                "docs/**/conf.py",
                "!gen_keep.py",
                "\\#hash.py",
                "trailing.py   ",
                "[z-a].py",
                "",
            ]
        ),
    )
    for name in (
        "gen_kernels.py",
        "gen_keep.py",
        "top_only.py",
        "sub/top_only.py",
        "sub/gen_x.py",
        "out/a.py",
        "sub/out/b.py",
        "out.py",
        "docs/a/b/conf.py",
        "docs/conf.py",
        "#hash.py",
        "trailing.py",
        "k.py",
    ):
        write(repo / name)
    # `**` spans directories (and zero of them); `[z-a]` is invalid and skipped, as git skips it
    assert names(repo) == ["gen_keep.py", "k.py", "out.py", "sub/top_only.py"]
    assert len(names(repo, respect_gitignore=False)) == 13


def test_nested_gitignore_overrides_and_an_ignored_directory_stays_ignored(repo):
    write(repo / ".gitignore", "*.gen.py\nvendor/\n")
    write(repo / "pkg" / ".gitignore", "!keep.gen.py\nlocal.py\n")
    write(repo / "pkg" / "keep.gen.py")
    write(repo / "pkg" / "drop.gen.py")
    write(repo / "pkg" / "local.py")
    write(repo / "local.py")
    write(repo / "vendor" / "lib.py")
    write(repo / "vendor" / ".gitignore", "!lib.py\n")  # git never looks inside an ignored directory
    assert names(repo) == ["local.py", "pkg/keep.gen.py"]


def test_git_exclude_files_and_dot_ignore(repo, tmp_path):
    write(repo / ".git" / "info" / "exclude", "scratch.py\n")
    write(tmp_path / "config" / "git" / "ignore", "*.local.py\n")
    write(repo / ".ignore", "tmp_*.py\n")
    for name in ("scratch.py", "a.local.py", "tmp_1.py", "k.py"):
        write(repo / name)
    assert names(repo) == ["k.py"]


def test_outside_a_repository_only_dot_ignore_counts(tmp_path):
    root = tmp_path / "plain"
    write(root / ".gitignore", "a.py\n")
    write(root / ".ignore", "b.py\n")
    for name in ("a.py", "b.py"):
        write(root / name)
    assert names(root) == ["a.py"]


def test_a_path_named_explicitly_is_checked_whatever_is_ignored(repo):
    write(repo / ".gitignore", "gen_kernels.py\nbuildout/\n")
    write(repo / "gen_kernels.py")
    write(repo / "buildout" / "x.py")
    assert discover([str(repo / "gen_kernels.py")]) == [str(repo / "gen_kernels.py")]
    assert discover([str(repo / "buildout")]) == [str(repo / "buildout" / "x.py")]


def test_check_skips_a_gitignored_generated_file_and_the_flags_and_setting_turn_it_off(repo, monkeypatch, capsys):
    write(repo / ".gitignore", "gen_kernels.py\n")
    write(repo / "gen_kernels.py", KERNEL)
    monkeypatch.chdir(repo)

    def check(*argv: str) -> tuple[int, str]:
        status = cli.main(["check", "--no-cache", "--output-format", "concise", *argv])
        return status, capsys.readouterr().out

    assert check(".") == (0, "All checks passed!\n")
    status, out = check("--no-respect-gitignore", ".")
    assert status == 1 and "gen_kernels.py" in out
    write(repo / "pyproject.toml", "[tool.pallas-ls]\nrespect-gitignore = false\n")
    assert check(".")[0] == 1
    assert check("--respect-gitignore", ".") == (0, "All checks passed!\n")
    write(repo / "pyproject.toml", "[tool.pallas-ls]\nrespect-gitignore = 'no'\n")
    assert check(".")[0] == 2


def test_an_unreadable_or_odd_ignore_file_is_no_error(tmp_path):
    path = write(tmp_path / ".ignore", "\\\n!\n/\n\n[\n   \n")
    rules = parse_ignore_file(str(path), str(tmp_path))
    assert [r.glob for r in rules] == ["\\", "["]
    assert parse_ignore_file(str(tmp_path / "missing"), str(tmp_path)) == ()


def test_an_enclosing_repository_ignores_nothing_in_a_nested_one(repo):
    """A dotfiles repository at ~ with `.gitignore` `*` must not hide a project cloned under ~."""
    write(repo / ".gitignore", "*\n")
    project = repo / "src" / "project"
    (project / ".git").mkdir(parents=True)
    write(project / "k.py")
    assert names(project) == ["k.py"]
