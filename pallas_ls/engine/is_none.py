"""Is the value of an expression None?  Three answers: NONE, VALUE or UNKNOWN.

JAX checks that a kernel's returned pytree is exactly `None`.  A rule reports a return only when
its value is certainly not None (VALUE): every possibility the interpreter (`interp`) sees for it
is a value.  A call whose result may be None on some path (`store(o_ref, v)` returning a value
only when a keyword is set), an unresolvable call, a method of an unknown object: UNKNOWN, silent.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterator

from .model import FunctionNode, Loc, ModuleModel
from .values.domain import EMPTY_ENV, NONE, UNKNOWN, ApiResult, Env, Func, Value
from .values.interpreter import Interpreter
from .values.methods import ParamMethod, RefMethod
from .values.returns import reachable_returns, returns_of


class Ret(enum.Enum):
    NONE = "none"
    VALUE = "value"
    UNKNOWN = "unknown"


def classify(values: frozenset[Value]) -> Ret:
    """NONE when every possibility is None, VALUE when none is None or unknown, else UNKNOWN."""
    if not values or UNKNOWN in values:
        return Ret.UNKNOWN
    if all(v == NONE for v in values):
        return Ret.NONE
    if any(v == NONE or isinstance(v, _UNSURE) for v in values):
        return Ret.UNKNOWN
    return Ret.VALUE


# Values that do not say whether they are None: a method of a ref or parameter, and what an API
# not in our tables returned (`plgpu.wgmma(...)` returns None).
_UNSURE = (RefMethod, ParamMethod, ApiResult)


class ValueEvaluator:
    """Answers None-ness questions about one module's functions, through the interpreter."""

    def __init__(self, model: ModuleModel, interp: Interpreter | None = None):
        self.model = model
        self.interp = interp or Interpreter(model)

    def function_result(self, function: FunctionNode, env: Env = EMPTY_ENV) -> Ret:
        """What calling `function` returns."""
        return classify(returns_of(self.interp, Func(function, self.model, env), env))

    def evaluate(self, expr: ast.expr, loc: Loc, env: Env = EMPTY_ENV) -> Ret:
        return classify(self.interp.ev(expr, loc, env, self.model))

    def value_returns(self, function: FunctionNode, env: Env = EMPTY_ENV) -> Iterator[ast.AST]:
        """The function's own returns (or a lambda's body) whose value is certainly not None:
        what PAL001 reports for kernels and PAL006 / PAL007 for callback bodies."""
        model = self.model
        if isinstance(function, ast.Lambda):
            if self.evaluate(function.body, model.body_loc(function), env) is Ret.VALUE:
                yield function.body
            return
        # A return in a branch decided against never runs: by arguments bound
        # (`functools.partial(kernel, fused=False)`) or by module constants (`if DEBUG:`).
        for ret in reachable_returns(self.interp, Func(function, model, env), env):
            if ret.value is not None and self.evaluate(ret.value, model.loc(ret), env) is Ret.VALUE:
                yield ret
