"""A `match` statement's case patterns as the expressions that test them.

`case "fast" | "quick":` is `subject == "fast" or subject == "quick"`, `case (1, _):` is
`isinstance(subject, (list, tuple)) and len(subject) == 2 and subject[0] == 1`, `case Cfg(fast=True):`
is `isinstance(subject, Cfg) and subject.fast is True`: the interpreter evaluates them as it
evaluates an `if`'s test, so a case is decided when its test folds.  A pattern not written out here
tests as an attribute no object has: undecided.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import cast

# Builtin classes whose one positional sub-pattern matches the subject itself (`case int(n):`).
_SELF_MATCHING = frozenset({"bool", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple"})
_UNDECIDED = "__pallas_ls_undecided__"


def pattern_test(subject: ast.expr, pattern: ast.pattern) -> ast.expr | None:
    """An expression true exactly when `subject` matches `pattern`; None when it always matches.
    Made once per pattern and kept on it (the interpreter's caches are keyed by node identity)."""
    if hasattr(pattern, "_pallas_ls_test"):
        return cast("ast.expr | None", pattern._pallas_ls_test)
    made = _test(subject, pattern)
    if made is not None:
        made = ast.fix_missing_locations(ast.copy_location(made, pattern))
    setattr(pattern, "_pallas_ls_test", made)  # noqa: B010  (a cache kept on the node)
    return made


def _test(subject: ast.expr, pattern: ast.pattern) -> ast.expr | None:
    if isinstance(pattern, ast.MatchAs):
        return None if pattern.pattern is None else _test(subject, pattern.pattern)
    if isinstance(pattern, ast.MatchValue):
        return ast.Compare(left=subject, ops=[ast.Eq()], comparators=[pattern.value])
    if isinstance(pattern, ast.MatchSingleton):
        return ast.Compare(left=subject, ops=[ast.Is()], comparators=[ast.Constant(pattern.value)])
    if isinstance(pattern, ast.MatchOr):
        parts = [_test(subject, p) for p in pattern.patterns]
        return None if None in parts else ast.BoolOp(op=ast.Or(), values=[p for p in parts if p is not None])
    if isinstance(pattern, ast.MatchSequence):
        return _all(
            [
                _is_instance(subject, ast.Tuple([_name("list"), _name("tuple")], ast.Load())),
                *_sequence(subject, pattern),
            ]
        )
    if isinstance(pattern, ast.MatchMapping) and pattern.rest is None:
        tests: list[ast.expr | None] = [_is_instance(subject, _name("dict"))]
        for key, sub in zip(pattern.keys, pattern.patterns, strict=True):
            tests.append(ast.Compare(left=key, ops=[ast.In()], comparators=[subject]))
            tests.append(_test(ast.Subscript(subject, key, ast.Load()), sub))
        return _all(tests)
    if isinstance(pattern, ast.MatchClass):
        return _all([_is_instance(subject, pattern.cls), *_class_fields(subject, pattern)])
    return ast.Attribute(value=subject, attr=_UNDECIDED, ctx=ast.Load())


def _sequence(subject: ast.expr, pattern: ast.MatchSequence) -> list[ast.expr | None]:
    """The length test and each element's test of a sequence pattern (`[first, *rest]`)."""
    count = len(pattern.patterns)
    star = next((i for i, p in enumerate(pattern.patterns) if isinstance(p, ast.MatchStar)), None)
    length = ast.Call(_name("len"), [subject], [])
    tests: list[ast.expr | None] = [
        ast.Compare(
            length, [ast.Eq() if star is None else ast.GtE()], [ast.Constant(count if star is None else count - 1)]
        )
    ]
    for i, sub in enumerate(pattern.patterns):
        if isinstance(sub, ast.MatchStar):
            continue
        index = i if star is None or i < star else i - count  # after the star: from the end
        tests.append(_test(ast.Subscript(subject, ast.Constant(index), ast.Load()), sub))
    return tests


def _class_fields(subject: ast.expr, pattern: ast.MatchClass) -> list[ast.expr | None]:
    """The tests of a class pattern's sub-patterns: keyword ones on attributes, positional ones on
    the attributes its `__match_args__` names (the subject itself for `int(n)`, `str(s)`)."""
    tests: list[ast.expr | None] = []
    self_matching = matches_itself(pattern)
    for i, sub in enumerate(pattern.patterns):
        if self_matching and i == 0:
            tests.append(_test(subject, sub))
            continue
        name = ast.Subscript(ast.Attribute(pattern.cls, "__match_args__", ast.Load()), ast.Constant(i), ast.Load())
        tests.append(_test(ast.Call(_name("getattr"), [subject, name], []), sub))
    for attr, sub in zip(pattern.kwd_attrs, pattern.kwd_patterns, strict=True):
        tests.append(_test(ast.Attribute(subject, attr, ast.Load()), sub))
    return tests


def matches_itself(pattern: ast.MatchClass) -> bool:
    """`int(n)`, `str(s)`: a builtin class whose first positional sub-pattern takes the subject."""
    return isinstance(pattern.cls, ast.Name) and pattern.cls.id in _SELF_MATCHING


def _all(tests: Sequence[ast.expr | None]) -> ast.expr | None:
    kept = [t for t in tests if t is not None]
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else ast.BoolOp(op=ast.And(), values=kept)


def _is_instance(subject: ast.expr, cls: ast.expr) -> ast.expr:
    return ast.Call(_name("isinstance"), [subject, cls], [])


def _name(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())
