"""Enum classes: their members, in body order, by name and by value.

A class deriving from `enum.Enum` (or IntEnum, StrEnum, Flag, IntFlag) makes a member of each plain
assignment in its body (`FAST = "fast"`), but not of functions, descriptors, classes or `_sunder_`
names.  Members are `EnumMember` values: `Mode.FAST`, `Mode("fast")`, `Mode["FAST"]`, `for m in Mode`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from . import bindings, calls, classes, operations
from .domain import (
    EMPTY_ENV,
    NONE,
    BoundMethod,
    Class,
    Const,
    EnumMember,
    External,
    FlagSet,
    Func,
    Seq,
    U,
    Value,
    Wrapped,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter

_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"})


def is_enum(interp: Interpreter, cls: Class, depth: int = 0) -> bool:
    """Whether a class derives from `enum.Enum` (its body's plain assignments are members)."""
    if depth > 8:
        return False
    where = cls.model.loc(cls.node)
    for base in cls.node.bases:
        for value in interp.ev(base, where, EMPTY_ENV, cls.model):
            if isinstance(value, External) and value.qualname in _ENUM_BASES:
                return True
            if isinstance(value, Class) and is_enum(interp, value, depth + 1):
                return True
    return False


def makes_members(values: frozenset[Value], attr: str) -> bool:
    """An enum class body's assignment makes members, but not of functions, descriptors,
    classes, or `_sunder_` / `__dunder__` names."""
    if attr.startswith("_") and attr.endswith("_"):
        return False
    return bool(values) and not any(isinstance(v, (Func, Wrapped, Class)) for v in values)


def members(interp: Interpreter, cls: Class) -> frozenset[Value]:
    """The members of an enum class, for `for op in Op`."""
    return union(v for _, v in members_by_name(interp, cls)) or U


def members_by_name(interp: Interpreter, cls: Class) -> tuple[tuple[object, frozenset[Value]], ...]:
    """(name, member) of each member of an enum class, in body order."""
    scope = cls.model.scope_of_function.get(id(cls.node))
    if scope is None:
        return ()
    found = ((name, operations.class_attribute(interp, cls, name, None)) for name in scope.bindings)
    return tuple(
        (name, members)
        for name, values in found
        if (members := frozenset(v for v in values if isinstance(v, EnumMember)))
    )


def members_in_order(interp: Interpreter, cls: Class) -> Seq | None:
    """The members of an enum class in body order, when no member can be an alias of another
    (each is written as a constant, all different, or all are `auto()`); None otherwise."""
    members = members_by_name(interp, cls)
    if members and all(_is_auto(_written_value(cls, cast(str, name))) for name, _ in members):
        return Seq("tuple", tuple(member for _, member in members))  # auto() values never repeat
    written = {
        target.id: stmt.value
        for stmt in cls.node.body
        if isinstance(stmt, ast.Assign)
        for target in stmt.targets
        if isinstance(target, ast.Name)
    }
    values = [written.get(cast(str, name)) for name, _ in members]
    constants = [v.value for v in values if isinstance(v, ast.Constant)]
    if len(constants) != len(members) or len(set(map(repr, constants))) != len(constants):
        return None
    return Seq("tuple", tuple(member for _, member in members))


def member_by_value(interp: Interpreter, cls: Class, wanted: frozenset[Value]) -> frozenset[Value] | None:
    """`Op("add")` of an enum class: the one member whose value is the constant argument (or
    the member itself, `Op(Op.ADD)`); None when `cls` is not an enum; Unknown when undecided."""
    if not is_enum(interp, cls):
        return None
    arg = next(iter(wanted)) if len(wanted) == 1 else None
    if isinstance(arg, EnumMember) and arg.cls == cls:
        return wanted
    if not isinstance(arg, Const):
        return U
    matches = []
    for member in members(interp, cls):
        if not isinstance(member, EnumMember):
            return U
        value = member_attribute(interp, member, "value")
        const = next(iter(value)) if len(value) == 1 else None
        if not isinstance(const, Const):
            return U  # a member of unknown value might be the one
        if type(const.value) is type(arg.value) and const.value == arg.value:
            matches.append(member)
    if not matches:
        return _missing(interp, cls, wanted)
    return frozenset(matches) if len(matches) == 1 else U


def _missing(interp: Interpreter, cls: Class, wanted: frozenset[Value]) -> frozenset[Value]:
    """No member has the value: what the class's own `_missing_(cls, value)` classmethod gives
    (Python raises ValueError when it gives None, or when the class defines none: no value)."""
    hooks = operations.class_attribute(interp, cls, "_missing_", None)
    if not hooks or any(not isinstance(h, BoundMethod) for h in hooks):
        return U
    made = union(calls.apply(interp, h, [wanted], [], None, None, EMPTY_ENV, cls.model) for h in hooks)
    return frozenset(v for v in made if v != NONE) or U


def is_int_enum(cls: Class) -> bool:
    """A class deriving from `IntEnum` / `IntFlag` by name: its members index as their int values."""
    return any(classes.decorator_name(base) in ("IntEnum", "IntFlag") for base in cls.node.bases)


def _is_mixed_enum(cls: Class) -> bool:
    """An enum whose members are ints or strings too (IntEnum, IntFlag, StrEnum, `class M(int,
    Enum)`): `Level.HIGH - Level.LOW` and `Level.HIGH == 2` compute with their values."""
    return any(
        classes.decorator_name(base) in ("IntEnum", "IntFlag", "StrEnum", "int", "str") for base in cls.node.bases
    )


def as_plain_values(interp: Interpreter, values: frozenset[Value]) -> frozenset[Value]:
    """`values` with each member of an int or str enum as its value, for arithmetic and
    comparisons with plain numbers and strings."""
    for v in values:  # (asked of every operand of arithmetic and comparisons: a plain loop)
        if isinstance(v, EnumMember) and _is_mixed_enum(v.cls):
            break
    else:
        return values
    return union(
        member_attribute(interp, v, "value") if isinstance(v, EnumMember) and _is_mixed_enum(v.cls) else frozenset({v})
        for v in values
    )


def member_attribute(interp: Interpreter, member: EnumMember, attr: str) -> frozenset[Value]:
    """`Op.ADD.value` (what the class body assigned), `Op.ADD.name`, and the enum's methods."""
    if attr == "name":
        return frozenset({Const(member.name)})
    if attr == "value":
        scope = member.cls.model.scope_of_function.get(id(member.cls.node))
        assigned = scope.bindings.get(member.name, []) if scope is not None else []
        model = member.cls.model
        return union(bindings.binding_value(interp, b, EMPTY_ENV, model) for b in model.reaching(assigned, None)) or U
    # methods bind to the member, a property runs its getter on it (`Mode.FAST.kernel`)
    return operations.class_attribute(interp, member.cls, attr, member) or U


def _written_value(cls: Class, name: str) -> ast.expr | None:
    """What the class body assigns to `name` (the last plain assignment)."""
    found = None
    for stmt in cls.node.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            found = stmt.value
    return found


def _is_auto(value: ast.expr | None) -> bool:
    """`enum.auto()` / `auto()`: a value no other member of the class has."""
    return (
        isinstance(value, ast.Call)
        and not value.args
        and not value.keywords
        and classes.decorator_name(value.func) == "auto"
    )


# Flags: `Feature.FAST | Feature.DEBUG`, `Feature.FAST in enabled`, `enabled & Feature.DEBUG`.
_FLAG_BASES = ("Flag", "IntFlag")
_FLAG_OPERATIONS = {ast.BitOr: int.__or__, ast.BitAnd: int.__and__, ast.BitXor: int.__xor__}


def combined_flags(
    interp: Interpreter, op: ast.operator, left: frozenset[Value], right: frozenset[Value]
) -> frozenset[Value] | None:
    """`a | b`, `a & b`, `a ^ b` of members (or combinations) of one Flag class: their bits
    combined; None when the operands are not such, or their bits are not known."""
    operation = _FLAG_OPERATIONS.get(type(op))
    a, b = flag_bits(interp, left), flag_bits(interp, right)
    if operation is None or a is None or b is None or a[0] is not b[0]:
        return None
    return frozenset({FlagSet(a[0], operation(a[1], b[1]))})


def flags_compared(interp: Interpreter, op: ast.cmpop, left: frozenset[Value], right: frozenset[Value]) -> bool | None:
    """`a in b` (all of a's bits are in b), `a == b` of flags of one Flag class; None otherwise."""
    a, b = flag_bits(interp, left), flag_bits(interp, right)
    if a is None or b is None or a[0] is not b[0]:
        return None
    if isinstance(op, (ast.In, ast.NotIn)):
        return (a[1] & b[1] == a[1]) is isinstance(op, ast.In)
    if isinstance(op, (ast.Eq, ast.NotEq)):
        return (a[1] == b[1]) is isinstance(op, ast.Eq)
    return None


def flag_bits(interp: Interpreter, values: frozenset[Value]) -> tuple[Class, int] | None:
    """The class and bits of one member or combination of a Flag class (None: not one)."""
    value = next(iter(values)) if len(values) == 1 else None
    if isinstance(value, FlagSet):
        return value.cls, value.bits
    if not isinstance(value, EnumMember) or not _is_flag(value.cls):
        return None
    members = [cast(str, name) for name, _ in members_by_name(interp, value.cls)]
    written = [_written_value(value.cls, name) for name in members]
    if value.name not in members:
        return None
    if all(_is_auto(w) for w in written):
        return value.cls, 1 << members.index(value.name)  # auto() of a Flag: 1, 2, 4, ...
    constant = written[members.index(value.name)]
    if isinstance(constant, ast.Constant) and type(constant.value) is int:
        return value.cls, constant.value
    return None


def _is_flag(cls: Class) -> bool:
    return any(classes.decorator_name(base) in _FLAG_BASES for base in cls.node.bases)
