"""Hover over a rule code in a `# noqa: PAL001` (or `# pallas-ls: noqa: PAL001`, `# ruff: noqa:
PAL001`) comment: that rule's docs from the registry."""

from __future__ import annotations

import re

from ..rules import Rule, get_rule

_NOQA_CODES = re.compile(
    r"#[ \t]*(?:(?:pallas-ls|ruff|flake8)[ \t]*:[ \t]*)?noqa[ \t]*:[ \t]*"
    r"(?P<codes>[A-Za-z]+[0-9]+(?:[ \t]*,?[ \t]*[A-Za-z]+[0-9]+)*)",
    re.IGNORECASE,
)
_CODE = re.compile(r"[A-Za-z]+[0-9]+")


def rule_at(line: str, column: int) -> tuple[Rule, int, int] | None:
    """The rule whose code in a noqa comment of `line` spans `column` (code points), with the
    code's start and end columns."""
    if "noqa" not in line.lower():
        return None
    for comment in _NOQA_CODES.finditer(line):
        for code in _CODE.finditer(line, comment.start("codes"), comment.end("codes")):
            if code.start() <= column <= code.end():
                rule = get_rule(code.group())
                return (rule, code.start(), code.end()) if rule is not None else None
    return None


def render_rule(rule: Rule, markdown: bool) -> str:
    if markdown:
        return f"**{rule.code}** `{rule.name}`: {rule.summary}\n\n{rule.docs}\n\n[Documentation]({rule.url})"
    return f"{rule.code} {rule.name}: {rule.summary}\n\n{rule.docs}\n\n{rule.url}"
