"""The pre-commit hooks of .pre-commit-hooks.yaml, run for real with `pre-commit try-repo` on a
temporary git repository.  pre-commit installs pallas-ls (and pygls, ...) into an environment of
its own from the package index: skipped when pre-commit is not installed or the index cannot be
reached."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from test_cli import PAL001_SRC, REPO, write

pytestmark = pytest.mark.serial  # one environment install, shared by the tests of this module

# What pip prints when it cannot reach the index (offline, a proxy refusing).
OFFLINE_SIGNS = (
    "Could not find a version",
    "No matching distribution",
    "Failed to establish",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "ConnectionError",
)


def _pre_commit() -> list[str]:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (pip install pre-commit)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return [sys.executable, "-m", "pre_commit"]


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory):
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def staged_repo(tmp_path):
    repo = tmp_path / "project"
    write(repo / "kern.py", PAL001_SRC)
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "kern.py"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=repo, check=True)
    return repo


def try_repo(hook: str, repo: pathlib.Path, home: pathlib.Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1", "PRE_COMMIT_COLOR": "never"}
    env.pop("PYTHONPATH", None)  # the hook must run the pallas-ls pre-commit installed, not ours
    result = subprocess.run(
        [*_pre_commit(), "try-repo", str(REPO), hook, "--files", "kern.py"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    failed = result.returncode not in (0, 1) or "An error has occurred" in output
    if failed and any(sign in output or sign in _log(home) for sign in OFFLINE_SIGNS):
        pytest.skip("pre-commit could not install pallas-ls from the package index (offline?)")
    return result


def _log(home: pathlib.Path) -> str:
    log = home / "pre-commit.log"
    return log.read_text(errors="replace") if log.is_file() else ""


def test_check_hook_reports_the_finding(staged_repo, pre_commit_home):
    result = try_repo("pallas-ls", staged_repo, pre_commit_home)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "kern.py:6:5: PAL001" in result.stdout and "Failed" in result.stdout


def test_fix_hook_fixes_the_file(staged_repo, pre_commit_home):
    result = try_repo("pallas-ls-fix", staged_repo, pre_commit_home)
    assert result.returncode == 1, result.stdout + result.stderr  # files were modified
    assert "o_ref[...] = x_ref[...] + 1" in (staged_repo / "kern.py").read_text()
    again = try_repo("pallas-ls", staged_repo, pre_commit_home)
    assert again.returncode == 0 and "Passed" in again.stdout
