"""`pallas-ls completion bash|zsh|fish`: scripts generated from the CLI's parser, run in a real bash."""

from __future__ import annotations

import shutil
import subprocess

import pytest


def script(run, shell: str) -> str:
    status, out, err = run("completion", shell)
    assert status == 0, err
    return out


def complete(bash_script: str, line: str) -> list[str]:
    """What bash offers for `line` (the word being completed is its last, maybe empty)."""
    words = line.split(" ")
    program = (
        bash_script
        + "\n"
        + "\n".join(
            [
                "COMP_WORDS=(" + " ".join(f"'{w}'" for w in words) + ")",
                f"COMP_CWORD={len(words) - 1}",
                "_pallas_ls",
                'printf "%s\\n" "${COMPREPLY[@]}"',
            ]
        )
    )
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [w for w in done.stdout.splitlines() if w]


pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def test_bash_completes_commands_options_and_their_values(run, tmp_path, monkeypatch):
    bash = script(run, "bash")
    assert complete(bash, "pallas-ls ") == [
        "check",
        "rule",
        "serve",
        "completion",
        "-h",
        "--help",
        "-v",
        "--verbose",
        "--version",
    ]
    assert complete(bash, "pallas-ls ch") == ["check"]
    assert set(complete(bash, "pallas-ls check --fi")) == {"--fix"}
    assert "--add-noqa" in complete(bash, "pallas-ls check --")
    assert complete(bash, "pallas-ls check --output-format gi") == ["github", "gitlab"]
    assert complete(bash, "pallas-ls rule PAL00") == [
        "PAL000",
        "PAL001",
        "PAL002",
        "PAL003",
        "PAL004",
        "PAL005",
        "PAL006",
        "PAL007",
    ]
    assert complete(bash, "pallas-ls completion f") == ["fish"]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kern.py").write_text("")
    assert complete(bash, "pallas-ls check ke") == ["kern.py"]  # paths


def test_every_check_option_completes(run):
    from pallas_ls.cli import build_parser

    check = next(a for a in build_parser()._actions if a.choices and "check" in a.choices).choices["check"]
    offered = set(complete(script(run, "bash"), "pallas-ls check -"))
    assert {o for a in check._actions for o in a.option_strings} <= offered


def test_zsh_and_fish_scripts(run):
    zsh = script(run, "zsh")
    assert "bashcompinit" in zsh and "complete -o filenames -F _pallas_ls pallas-ls" in zsh
    fish = script(run, "fish")
    assert 'complete -c pallas-ls -n "__fish_seen_subcommand_from check" -l fix' in fish
    assert '-l output-format -x -a "full concise' in fish
    for shell, text in (("zsh", zsh), ("fish", fish)):
        if shutil.which(shell):  # syntax-checked where the shell is installed
            done = subprocess.run([shell, "-n"], input=text, capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr


def test_an_unknown_shell_is_a_usage_error(run):
    status, _, err = run("completion", "tcsh")
    assert status == 2 and "invalid choice" in err
