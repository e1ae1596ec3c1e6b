"""Shell completion scripts (`pallas-ls completion bash|zsh|fish`), generated from the CLI's own
argument parser, so a new option completes without anyone editing a script."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")


@dataclass
class Command:
    name: str
    options: list[str] = field(default_factory=list)  # every option string, long and short
    choices: dict[str, list[str]] = field(default_factory=dict)  # option -> the values it takes
    positional_choices: list[str] = field(default_factory=list)  # e.g. rule codes for `rule`


def commands(parser: argparse.ArgumentParser, extra_positional: dict[str, list[str]]) -> tuple[Command, list[Command]]:
    """The top level and each subcommand, read from the parser's actions."""
    top = _command("", parser)
    subs: list[Command] = []
    for action in parser._actions:  # argparse has no public API for this; its layout is stable
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                command = _command(name, sub)
                command.positional_choices = extra_positional.get(name, command.positional_choices)
                subs.append(command)
    return top, subs


def _command(name: str, parser: argparse.ArgumentParser) -> Command:
    command = Command(name)
    for action in parser._actions:
        if not action.option_strings and action.choices and not isinstance(action, argparse._SubParsersAction):
            command.positional_choices = [str(c) for c in action.choices]  # `completion bash`
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        command.options.extend(action.option_strings)
        if action.choices:
            for option in action.option_strings:
                command.choices[option] = [str(c) for c in action.choices]
    return command


def script(shell: str, top: Command, subs: list[Command]) -> str:
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](top, subs)


def _bash(top: Command, subs: list[Command]) -> str:
    names = " ".join(c.name for c in subs)
    value_cases = []
    for command in subs:
        for option, values in command.choices.items():
            value_cases.append(
                f'    {command.name}:{option}) COMPREPLY=($(compgen -W "{" ".join(values)}" -- "$cur")); return ;;'
            )
    command_cases = []
    for command in subs:
        words = " ".join(command.options)
        fallback = (
            f'compgen -W "{" ".join(command.positional_choices)}" -- "$cur"'
            if command.positional_choices
            else 'compgen -f -- "$cur"'
        )
        command_cases.append(
            f'    {command.name}) if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "{words}" -- "$cur"));'
            f" else COMPREPLY=($({fallback})); fi ;;"
        )
    return "\n".join(
        [
            '# pallas-ls completion for bash: eval "$(pallas-ls completion bash)"',
            "_pallas_ls() {",
            '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd="" i',
            "  for ((i = 1; i < COMP_CWORD; i++)); do",
            f"    case ${{COMP_WORDS[i]}} in {'|'.join(c.name for c in subs)}) cmd=${{COMP_WORDS[i]}}; break ;; esac",
            "  done",
            '  case "$cmd:$prev" in',
            *value_cases,
            "  esac",
            "  case $cmd in",
            f'    "") COMPREPLY=($(compgen -W "{names} {" ".join(top.options)}" -- "$cur")) ;;',
            *command_cases,
            "  esac",
            "}",
            "complete -o filenames -F _pallas_ls pallas-ls",
            "",
        ]
    )


def _zsh(top: Command, subs: list[Command]) -> str:
    # zsh runs bash completion functions through bashcompinit: one script to keep right.
    return "\n".join(
        [
            '# pallas-ls completion for zsh: eval "$(pallas-ls completion zsh)"',
            "autoload -U +X compinit && compinit",
            "autoload -U +X bashcompinit && bashcompinit",
            _bash(top, subs).split("\n", 1)[1],
        ]
    )


def _fish(top: Command, subs: list[Command]) -> str:
    lines = ["# pallas-ls completion for fish: pallas-ls completion fish | source", "complete -c pallas-ls -f"]
    for command in subs:
        lines.append(f"complete -c pallas-ls -n __fish_use_subcommand -a {command.name}")
    for command in subs:
        when = f'-n "__fish_seen_subcommand_from {command.name}"'
        for option in command.options:
            flag = f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}"
            values = command.choices.get(option)
            lines.append(f"complete -c pallas-ls {when} {flag}" + (f' -x -a "{" ".join(values)}"' if values else ""))
        if command.positional_choices:
            lines.append(f'complete -c pallas-ls {when} -a "{" ".join(command.positional_choices)}"')
        elif command.name == "check":
            lines.append(f"complete -c pallas-ls {when} -F")
    return "\n".join(lines) + "\n"
