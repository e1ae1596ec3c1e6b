"""Issue 15, the CLI half: one regression test per defect a hostile user reproduced.

No lost edit (`--fix` writes only the bytes it analysed), no code from the cache (plain JSON,
validated; a symlinked or foreign cache is not used), no hang or memory blow-up on special files,
a size limit, linear-time exclude globs, owner/group/mode/hard links kept, and a file seen through
two symlinks counted once.  Each goes through the real CLI (`cli.main` in process, or
`python -m pallas_ls`).
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import pickle
import stat
import sys
import time

import pytest
from test_cli_robustness import FIXED, KERNEL, RETURN_ROW, pallas_ls

from pallas_ls import cli, fixing
from pallas_ls.engine import findings_cache
from pallas_ls.engine.dependencies import Dependencies

needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root (chown)")
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero")


def run(monkeypatch, capsys, cwd: pathlib.Path, *argv: str) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("NO_COLOR", "1")
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ------------------------------------------------------------------------ 1. no lost edit
def test_fix_never_overwrites_a_file_saved_during_the_run(tmp_path, monkeypatch, capsys):
    """The user saves b.py after it was analysed and before --fix writes it: the save is kept."""
    (tmp_path / "a.py").write_text(KERNEL)
    (tmp_path / "b.py").write_text(KERNEL)
    saved = KERNEL + "\n# the user's edit\n"
    real = fixing.write_atomically

    def save_then_write(path, *args, **kwargs):
        if path.endswith("b.py"):
            pathlib.Path(path).write_text(saved)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(fixing, "write_atomically", save_then_write)
    status, _out, err = run(monkeypatch, capsys, tmp_path, "check", "--no-cache", "--fix")
    assert (tmp_path / "b.py").read_text() == saved
    assert (tmp_path / "a.py").read_text() == FIXED
    assert status == 1 and "b.py changed on disk" in err and "not fixed" in err, (status, err)
    assert sorted(os.listdir(tmp_path)) == ["a.py", "b.py"]  # no temporary file left


# ---------------------------------------------------------------- 2. the cache is plain data
class _Planted:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _entry_paths(cache: pathlib.Path, path: pathlib.Path) -> list[pathlib.Path]:
    key = findings_cache.cache_key(str(path), path.read_text())
    base = cache / findings_cache.__version__ / key[:2]
    return [base / key, base / (key + ".json")]  # today's name and the pickle's


def test_a_planted_cache_entry_runs_nothing_and_hides_nothing(tmp_path):
    (tmp_path / "k.py").write_text(KERNEL)
    cache = tmp_path / "cache"
    assert pallas_ls("check", "--cache-dir", str(cache), ".", cwd=tmp_path).returncode == 1
    marker = tmp_path / "pwned"
    for entry in _entry_paths(cache, tmp_path / "k.py"):
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_bytes(pickle.dumps(_Planted(str(marker))))
    result = pallas_ls("check", "--cache-dir", str(cache), ".", cwd=tmp_path)
    assert not marker.exists(), "a cache entry ran code"
    assert result.returncode == 1 and f"k.py:{RETURN_ROW}:5: PAL001" in result.stdout, result


@pytest.mark.parametrize(
    "content",
    [
        b'{"key": 1}',
        b"[]",
        b'{"findings": "x"}',
        b"\xff\xfe",
        b"null",
        b'{"key": "K", "path": "P", "standalone": true, "findings": [{"code": "PAL001", "range": "x"}]}',
    ],
)
def test_a_wrong_cache_entry_is_a_miss(tmp_path, content):
    path = tmp_path / "k.py"
    path.write_text(KERNEL)
    cache = tmp_path / "cache"
    assert pallas_ls("check", "--cache-dir", str(cache), ".", cwd=tmp_path).returncode == 1
    key = findings_cache.cache_key(str(path), KERNEL)
    for entry in _entry_paths(cache, path):
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_bytes(content.replace(b'"K"', f'"{key}"'.encode()).replace(b'"P"', f'"{path}"'.encode()))
    result = pallas_ls("check", "--cache-dir", str(cache), ".", cwd=tmp_path)
    assert result.returncode == 1 and f"k.py:{RETURN_ROW}:5: PAL001" in result.stdout, result


def test_a_wrong_typed_entry_does_not_fail_later_runs(tmp_path):
    """An entry of the old pickle format with a field of the wrong type made every run exit 2."""
    path = tmp_path / "k.py"
    path.write_text(KERNEL)
    cache = tmp_path / "cache"
    for entry in _entry_paths(cache, path):
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_bytes(pickle.dumps(findings_cache.Checked(str(path), 42, True)))  # type: ignore[arg-type]
    result = pallas_ls("check", "--cache-dir", str(cache), ".", cwd=tmp_path)
    assert result.returncode == 1 and f"k.py:{RETURN_ROW}:5: PAL001" in result.stdout, result


def test_an_entry_made_for_a_clean_file_does_not_hide_findings(tmp_path):
    """An entry copied from a clean file (no findings) over a buggy file's entry is a miss."""
    (tmp_path / "clean.py").write_text(FIXED)
    (tmp_path / "k.py").write_text(KERNEL)
    cache = tmp_path / "cache"
    assert pallas_ls("check", "--cache-dir", str(cache), "clean.py", cwd=tmp_path).returncode == 0
    clean_entry = next(p for p in _entry_paths(cache, tmp_path / "clean.py") if p.exists())
    for entry in _entry_paths(cache, tmp_path / "k.py"):
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_bytes(clean_entry.read_bytes())
    result = pallas_ls("check", "--cache-dir", str(cache), "k.py", cwd=tmp_path)
    assert result.returncode == 1 and "PAL001" in result.stdout, result


def test_a_symlinked_cache_directory_is_not_used(tmp_path):
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "k.py").write_text(KERNEL)
    (project / ".pallas-ls-cache").symlink_to(outside)
    result = pallas_ls("check", ".", cwd=project)
    assert result.returncode == 1 and "PAL001" in result.stdout, result
    assert list(outside.iterdir()) == [], "check wrote through the symlinked cache"


@needs_root
def test_a_cache_directory_owned_by_someone_else_is_not_used(tmp_path):
    (tmp_path / "k.py").write_text(KERNEL)
    cache = tmp_path / ".pallas-ls-cache"
    cache.mkdir()
    os.chown(cache, 12345, 12345)
    result = pallas_ls("check", ".", cwd=tmp_path)
    assert result.returncode == 1 and "PAL001" in result.stdout, result
    assert list(cache.iterdir()) == []


# ------------------------------------------------------------------------ 3. special files
@posix_only
def test_a_fifo_named_py_is_skipped_and_reported_when_named(tmp_path):
    (tmp_path / "k.py").write_text(KERNEL)
    os.mkfifo(tmp_path / "pipe.py")
    result = pallas_ls("check", "--no-cache", ".", cwd=tmp_path, timeout=30)
    assert result.returncode == 1 and "pipe.py" not in result.stdout and "PAL001" in result.stdout, result
    result = pallas_ls("check", "--no-cache", "pipe.py", cwd=tmp_path, timeout=30)
    assert result.returncode == 1 and "pipe.py:1:1: PAL900" in result.stdout and "not a regular file" in result.stdout


@posix_only
def test_a_symlink_to_dev_zero_is_never_read(tmp_path):
    (tmp_path / "k.py").write_text(KERNEL)
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    result = pallas_ls("check", "--no-cache", ".", cwd=tmp_path, timeout=30)
    assert result.returncode == 1 and "zero.py" not in result.stdout, result
    result = pallas_ls("check", "--no-cache", "zero.py", cwd=tmp_path, timeout=30)
    assert "zero.py:1:1: PAL900" in result.stdout and "not a regular file" in result.stdout, result


def test_a_file_over_the_size_limit_is_a_pal900(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.pallas-ls]\nmax-file-size = 2000\n")
    (tmp_path / "big.py").write_text(KERNEL + "# " + "x" * 3000 + "\n")
    (tmp_path / "k.py").write_text(KERNEL)
    result = pallas_ls("check", "--no-cache", ".", cwd=tmp_path)
    assert "big.py:1:1: PAL900" in result.stdout and "too large" in result.stdout, result
    assert f"k.py:{RETURN_ROW}:5: PAL001" in result.stdout


def test_the_default_size_limit_stops_a_huge_file(tmp_path):
    (tmp_path / "huge.py").write_bytes(b"# pallas\n" + b"x = 1\n" * (2 << 20))  # 12 MiB
    result = pallas_ls("check", "--no-cache", ".", cwd=tmp_path)
    assert "huge.py:1:1: PAL900" in result.stdout and "too large" in result.stdout, result


# ---------------------------------------------------------------------------------- 5. globs
def test_a_catastrophic_exclude_glob_is_matched_in_linear_time(tmp_path):
    (tmp_path / ("a" * 200 + ".py")).write_text(KERNEL)
    started = time.monotonic()
    result = pallas_ls("check", "--no-cache", "--exclude", "*a*a*a*a*a*a*a*a*a*a*b", ".", cwd=tmp_path, timeout=60)
    assert result.returncode == 1 and "PAL001" in result.stdout, result
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("where", ["cli", "pyproject"])
def test_an_invalid_exclude_glob_is_a_usage_error_naming_it(tmp_path, where):
    (tmp_path / "k.py").write_text(KERNEL)
    argv = ["check", "--no-cache", "."]
    if where == "cli":
        argv += ["--exclude", "[z-a]"]
    else:
        (tmp_path / "pyproject.toml").write_text('[tool.pallas-ls]\nexclude = ["[z-a]"]\n')
    result = pallas_ls(*argv, cwd=tmp_path)
    assert result.returncode == 2 and "'[z-a]'" in result.stderr and "internal error" not in result.stderr, result


# ------------------------------------------------------------- 6. owner, group, mode, links
def test_fix_keeps_hard_links(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "k.py").write_text(KERNEL)
    os.chmod(project / "k.py", 0o640)
    os.link(project / "k.py", tmp_path / "other-name.py")
    result = pallas_ls("check", "--no-cache", "--fix", ".", cwd=project)
    assert result.returncode == 0, result
    assert (tmp_path / "other-name.py").read_text() == FIXED
    assert os.stat(project / "k.py").st_ino == os.stat(tmp_path / "other-name.py").st_ino
    assert stat.S_IMODE(os.stat(project / "k.py").st_mode) == 0o640


@needs_root
def test_fix_as_root_keeps_the_owner_and_group(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(KERNEL)
    os.chmod(path, 0o604)
    os.chown(path, 12345, 23456)
    result = pallas_ls("check", "--no-cache", "--fix", ".", cwd=tmp_path)
    assert result.returncode == 0 and path.read_text() == FIXED, result
    info = os.stat(path)
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (12345, 23456, 0o604)


@needs_root
def test_fix_keeps_the_group_of_a_file_of_ours(tmp_path):
    """Our own file with another group: the atomic rename gives the new file that group too."""
    path = tmp_path / "k.py"
    path.write_text(KERNEL)
    os.chown(path, os.geteuid(), 23456)
    ino = os.stat(path).st_ino
    assert pallas_ls("check", "--no-cache", "--fix", ".", cwd=tmp_path).returncode == 0
    assert os.stat(path).st_gid == 23456 and path.read_text() == FIXED
    assert os.stat(path).st_ino != ino  # written by a rename (atomic), not in place


# ------------------------------------------------------------------- 8. real paths count once
def test_a_file_seen_through_two_symlinks_is_counted_once(tmp_path):
    (tmp_path / "k.py").write_text(KERNEL)
    (tmp_path / "l1.py").symlink_to("k.py")
    (tmp_path / "l2.py").symlink_to("k.py")
    result = pallas_ls("check", "--no-cache", "--fix", ".", cwd=tmp_path)
    assert result.returncode == 0 and "Found 1 error (1 fixed, 0 remaining)." in result.stdout, result
    assert (tmp_path / "k.py").read_text() == FIXED


def test_a_committed_cache_entry_cannot_silence_the_linter(tmp_path):
    """Issue 35: an entry built from public data alone (the key is a hash of version, path and text)
    with empty findings, in the project's own cache directory, is not believed: entries carry an
    HMAC keyed with a secret in the user's cache home, which a repository cannot know."""
    path = tmp_path / "k.py"
    path.write_text(KERNEL)
    key = findings_cache.cache_key(str(path), KERNEL)
    body = json.dumps({"key": key, "path": str(path), "standalone": True, "findings": []}).encode()
    entry = tmp_path / ".pallas-ls-cache" / findings_cache.__version__ / key[:2] / (key + ".json")
    entry.parent.mkdir(parents=True)
    for forged in (body, b"0" * 64 + b"\n" + body, hashlib.sha256(body).hexdigest().encode() + b"\n" + body):
        entry.write_bytes(forged)
        result = pallas_ls("check", ".", cwd=tmp_path)
        assert result.returncode == 1 and f"k.py:{RETURN_ROW}:5: PAL001" in result.stdout, result


def test_the_cache_key_lives_in_the_user_cache_home(tmp_path, monkeypatch):
    home = tmp_path / "home-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(findings_cache, "_SECRETS", {})
    project = tmp_path / "proj"
    project.mkdir()
    (project / "k.py").write_text(KERNEL)
    cache = project / ".pallas-ls-cache"
    cached = findings_cache.FindingsCache(str(cache))
    cached.put("ab" * 20, findings_cache.Checked(str(project / "k.py"), [], True, dependencies=Dependencies()))
    key_file = home / "pallas-ls" / "cache.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and len(key_file.read_text().strip()) == 64
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert cached.get("ab" * 20, str(project / "k.py")) is not None
    monkeypatch.setattr(findings_cache, "_SECRETS", {})
    key_file.write_text("f" * 64 + "\n")  # another user's key: every entry is a miss
    assert cached.get("ab" * 20, str(project / "k.py")) is None
    monkeypatch.setattr(findings_cache, "_SECRETS", {})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "unwritable" / "x"))
    (tmp_path / "unwritable").write_text("a file, not a directory")
    entry = findings_cache.Checked(str(project / "k.py"), [], True, dependencies=Dependencies())
    cached.put("cd" * 20, entry)  # no key: nothing cached
    assert not (cache / findings_cache.__version__ / "cd").exists()


def test_one_pathological_file_hides_no_other_finding(tmp_path):
    """Issue 35: a notebook whose metadata nests 100k lists ended the whole run with exit 2 and no
    findings; a pathological expression must not either.  Each is that file's PAL900 / PAL000."""
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "deep.ipynb").write_text(
        f'{{"cells": [], "metadata": {{"x": {deep}}}, "nbformat": 4, "nbformat_minor": 5}}'
    )
    (tmp_path / "chain.py").write_text("from jax.experimental import pallas as pl\nx = " + "+".join(["1"] * 200_000))
    (tmp_path / "calls.py").write_text("from jax.experimental import pallas as pl\ny = " + "f(" * 5000 + ")" * 5000)
    (tmp_path / "k.py").write_text(KERNEL)
    for extra in ([], ["--fix"]):
        result = pallas_ls("check", "--no-cache", "--output-format", "concise", *extra, ".", cwd=tmp_path)
        assert result.returncode == 1, result
        assert "deep.ipynb:1:1: PAL900" in result.stdout and "nested too deeply" in result.stdout, result.stdout
        assert "chain.py:2:1: PAL000" in result.stdout and "calls.py:2:" in result.stdout, result.stdout
        assert extra or f"k.py:{RETURN_ROW}:5: PAL001" in result.stdout, result.stdout
    assert (tmp_path / "k.py").read_text() == FIXED
