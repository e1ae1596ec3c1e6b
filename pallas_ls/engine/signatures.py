"""Function signatures: what a def accepts, how a call binds to it, and where its header is.

JAX calls a kernel as `kernel(*partial_args, *refs, **partial_keywords, **scratch_keywords)`; when
those do not bind, Python raises a plain TypeError while JAX traces.  `bind` predicts that from the
def alone, with CPython's rules (defaults, keyword-only parameters, `*args`, `**kwargs`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .model import FunctionNode
from .source import Position, Range, SourceFile


@dataclass(frozen=True)
class Signature:
    positional: tuple[str, ...]  # positional-only and positional-or-keyword parameters, in order
    required_positional: int  # how many leading positional parameters have no default
    keyword_only: tuple[str, ...]
    required_keyword_only: frozenset[str]
    varargs: bool
    varkw: bool

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.positional) | frozenset(self.keyword_only)

    @property
    def keyword_names(self) -> frozenset[str]:
        """Names a keyword argument may fill (positional-only parameters cannot take keywords)."""
        return frozenset(self.keyword_only) | frozenset(self._positional_or_keyword)

    _positional_or_keyword: tuple[str, ...] = ()


def signature(function: FunctionNode) -> Signature:
    args = function.args
    posonly = [a.arg for a in getattr(args, "posonlyargs", [])]
    positional = posonly + [a.arg for a in args.args]
    kwonly = [a.arg for a in args.kwonlyargs]
    required_kwonly = frozenset(a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None)
    return Signature(
        positional=tuple(positional),
        required_positional=len(positional) - len(args.defaults),
        keyword_only=tuple(kwonly),
        required_keyword_only=required_kwonly,
        varargs=args.vararg is not None,
        varkw=args.kwarg is not None,
        _positional_or_keyword=tuple(a.arg for a in args.args),
    )


@dataclass(frozen=True)
class BindProblem:
    """Why a call cannot bind, as CPython's TypeError would say it.

    kind: "too-many" (more positional arguments than parameters), "missing" (required positional
    parameters left without a value), "multiple" (a parameter filled positionally and by keyword),
    "unexpected" (a keyword no parameter takes), "missing-keyword" (a required keyword-only
    parameter left without a value).
    """

    kind: str
    names: tuple[str, ...] = ()


def bind(sig: Signature, n_positional: int, keywords: frozenset[str]) -> list[BindProblem]:
    """The problems of calling a function of signature `sig` with `n_positional` positional
    arguments and the keyword arguments `keywords` (empty: it binds)."""
    # In CPython's order: keywords first, then the positional count, then what is left unfilled.
    problems: list[BindProblem] = []
    filled = sig.positional[:n_positional]
    multiple = tuple(n for n in filled if n in keywords and n in sig.keyword_names)
    if multiple:
        problems.append(BindProblem("multiple", multiple))
    unexpected = tuple(sorted(k for k in keywords if k not in sig.keyword_names))
    if unexpected and not sig.varkw:
        problems.append(BindProblem("unexpected", unexpected))
    if n_positional > len(sig.positional) and not sig.varargs:
        problems.append(BindProblem("too-many"))
    missing = tuple(
        name
        for index, name in enumerate(sig.positional)
        if index >= n_positional and index < sig.required_positional and name not in keywords
    )
    if missing:
        problems.append(BindProblem("missing", missing))
    missing_kw = tuple(n for n in sig.keyword_only if n in sig.required_keyword_only and n not in keywords)
    if missing_kw:
        problems.append(BindProblem("missing-keyword", missing_kw))
    return problems


# --------------------------------------------------------------------------------- positions
_HEADER = re.compile(r"(?:async\s+)?def\s+([A-Za-z_\w]*)")


def def_header_range(source: SourceFile, function: FunctionNode) -> Range:
    """`def name` / `async def name` of a def (the whole lambda for a lambda)."""
    if isinstance(function, ast.Lambda):
        return source.node_range(function)
    start = source.node_range(function).start
    match = _HEADER.match(source.line_text(start.line), start.column)
    if match is None or match.group(1) != function.name:
        return Range(start, Position(start.line, start.column + 3))
    return Range(start, Position(start.line, match.end()))


def def_name_range(source: SourceFile, function: FunctionNode) -> Range:
    """The name of a def (the whole lambda for a lambda)."""
    header = def_header_range(source, function)
    if isinstance(function, ast.Lambda) or header.end.column - header.start.column <= 3:
        return header
    return Range(Position(header.end.line, header.end.column - len(function.name)), header.end)
