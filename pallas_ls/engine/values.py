"""Is the value of an expression None?  Three answers: NONE, VALUE or UNKNOWN.

JAX checks that a kernel's returned pytree is exactly `None`.  A rule reports a return only when
its value is certainly not None (VALUE); anything we cannot be sure of (an unresolvable call, a
method of an unknown object) is UNKNOWN and stays silent.  Precision over recall.
"""

from __future__ import annotations

import ast
import enum
from typing import Iterable, Iterator

from .model import FunctionNode, Loc, ModuleModel, is_generator, own_returns
from .names import MAX_DEPTH, keyword_argument, qualname


class Ret(enum.Enum):
    NONE = "none"
    VALUE = "value"
    UNKNOWN = "unknown"


def combine(results: Iterable[Ret]) -> Ret:
    """Any VALUE makes the whole a value; all NONE is None; otherwise unknown."""
    seen = set(results)
    if Ret.VALUE in seen:
        return Ret.VALUE
    if seen <= {Ret.NONE}:
        return Ret.NONE
    return Ret.UNKNOWN


def _both(results: Iterable[Ret]) -> Ret:
    """For alternatives that both may run (branches of a conditional): agree or unknown."""
    seen = set(results)
    return seen.pop() if len(seen) == 1 else Ret.UNKNOWN


# JAX / Pallas APIs that return None (observed: see pallas-facts §1).
NONE_APIS = frozenset(
    {
        "jax.debug.print",
        "jax.debug.callback",
        "jax.experimental.pallas.debug_print",
        "jax.experimental.pallas.semaphore_signal",
        "jax.experimental.pallas.semaphore_wait",
        "jax.experimental.pallas.tpu.semaphore_signal",
        "jax.experimental.pallas.tpu.semaphore_wait",
        "jax.experimental.pallas.tpu.sync_copy",
        "jax.experimental.pallas.mosaic_gpu.copy_gmem_to_smem",
        "jax.experimental.pallas.mosaic_gpu.copy_smem_to_gmem",
        "jax.experimental.pallas.mosaic_gpu.barrier_wait",
        "jax.experimental.pallas.mosaic_gpu.barrier_arrive",
        "jax.experimental.pallas.mosaic_gpu.commit_smem",
        "jax.experimental.pallas.mosaic_gpu.wait_smem_to_gmem",
        "print",
    }
)
# Methods that return None whatever their receiver (DMA descriptors, semaphores, refs).
NONE_METHODS = frozenset({"wait", "start", "wait_recv", "wait_send", "__setitem__", "signal"})

# Pallas APIs that certainly return a value.
VALUE_APIS = frozenset(
    {
        "jax.experimental.pallas.program_id",
        "jax.experimental.pallas.num_programs",
        "jax.experimental.pallas.load",
        "jax.experimental.pallas.dot",
        "jax.experimental.pallas.ds",
        "jax.experimental.pallas.dslice",
        "jax.experimental.pallas.cdiv",
        "jax.experimental.pallas.multiple_of",
        "jax.experimental.pallas.reciprocal",
        "jax.experimental.pallas.semaphore_read",
        "jax.experimental.pallas.broadcast_to",
        "jax.experimental.pallas.empty",
        "jax.experimental.pallas.empty_like",
        "jax.experimental.pallas.tpu.async_copy",
        "jax.experimental.pallas.tpu.make_async_copy",
        "jax.experimental.pallas.tpu.async_remote_copy",
        "jax.experimental.pallas.tpu.make_async_remote_copy",
        "jax.experimental.pallas.tpu.repeat",
        "jax.experimental.pallas.tpu.roll",
        "jax.experimental.pallas.tpu.bitcast",
        "jax.experimental.pallas.tpu.prng_random_bits",
    }
)
# Whole namespaces whose functions return arrays.
VALUE_PREFIXES = ("jax.numpy.", "jax.random.", "jax.nn.", "jax.scipy.", "numpy.", "math.")

# Control flow whose result is the carry / branch outputs.
_LOOPS_WITH_INIT = {"jax.lax.fori_loop": 3, "jax.lax.while_loop": 2}
_BUILTINS_RETURNING_VALUES = frozenset(
    {"len", "int", "float", "bool", "str", "tuple", "list", "dict", "set", "range", "sum", "max", "min",
     "abs", "zip", "map", "enumerate", "sorted", "reversed", "isinstance", "type", "repr", "round"}
)


class ValueEvaluator:
    """Evaluates, statically, whether expressions and functions of one module give None."""

    def __init__(self, model: ModuleModel):
        self.model = model
        self._function_cache: dict[int, Ret] = {}

    # ----------------------------------------------------------------------- functions
    def function_result(self, function: FunctionNode, depth: int = 0) -> Ret:
        """What calling `function` returns."""
        key = id(function)
        if key in self._function_cache:
            return self._function_cache[key]
        self._function_cache[key] = Ret.UNKNOWN  # recursion guard
        result = self._function_result(function, depth)
        self._function_cache[key] = result
        return result

    def _function_result(self, function: FunctionNode, depth: int) -> Ret:
        if isinstance(function, ast.AsyncFunctionDef) or is_generator(function):
            return Ret.VALUE  # a coroutine / generator object
        if isinstance(function, ast.Lambda):
            return self.evaluate(function.body, self.model.body_loc(function), depth + 1)
        results = [
            Ret.NONE if ret.value is None else self.evaluate(ret.value, self.model.loc(ret), depth + 1)
            for ret in own_returns(function)
        ]
        return combine(results)

    def value_returns(self, function: FunctionNode) -> Iterator[ast.AST]:
        """The function's own returns (or a lambda's body) whose value is certainly not None:
        what PAL001 reports for kernels and PAL006 / PAL007 for callback bodies."""
        model = self.model
        if isinstance(function, ast.Lambda):
            if self.evaluate(function.body, model.body_loc(function)) is Ret.VALUE:
                yield function.body
            return
        for ret in own_returns(function):
            if ret.value is not None and self.evaluate(ret.value, model.loc(ret)) is Ret.VALUE:
                yield ret

    # --------------------------------------------------------------------- expressions
    def evaluate(self, expr: ast.expr, loc: Loc, depth: int = 0) -> Ret:
        if depth > MAX_DEPTH:
            return Ret.UNKNOWN
        if isinstance(expr, ast.Constant):
            return Ret.NONE if expr.value is None else Ret.VALUE
        if isinstance(expr, (ast.Tuple, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp, ast.JoinedStr, ast.Lambda, ast.BinOp, ast.UnaryOp,
                             ast.Compare, ast.Subscript)):
            return Ret.VALUE
        if isinstance(expr, ast.IfExp):
            return _both([self.evaluate(expr.body, loc, depth + 1), self.evaluate(expr.orelse, loc, depth + 1)])
        if isinstance(expr, ast.Name):
            return self._evaluate_name(expr, loc, depth)
        if isinstance(expr, ast.Call):
            return self._evaluate_call(expr, loc, depth)
        if isinstance(expr, ast.NamedExpr):
            return self.evaluate(expr.value, loc, depth + 1)
        return Ret.UNKNOWN  # attributes, bool ops, await, starred, ...

    def _evaluate_name(self, expr: ast.Name, loc: Loc, depth: int) -> Ret:
        bindings = self.model.lookup(expr.id, loc)
        if not bindings:
            return Ret.UNKNOWN
        results = []
        for binding in bindings:
            if binding.kind == "param":
                results.append(Ret.VALUE)  # a kernel's parameter is a Ref (or a pytree of them)
            elif binding.kind in ("def", "class"):
                results.append(Ret.VALUE)
            elif binding.kind == "assign" and binding.value is not None:
                results.append(self.evaluate(binding.value, Loc(binding.scope, binding.stmt), depth + 1))
            else:
                results.append(Ret.UNKNOWN)
        return _both(results)

    def _evaluate_call(self, call: ast.Call, loc: Loc, depth: int) -> Ret:
        func = call.func
        # pl.when(c)(f) applies the decorator: it returns None.
        if isinstance(func, ast.Call) and qualname(func.func, loc, self.model) == "jax.experimental.pallas.when":
            return Ret.NONE
        name = qualname(func, loc, self.model)
        if name is not None:
            return self._evaluate_api_call(name, call, loc, depth)
        if isinstance(func, ast.Name):
            bindings = self.model.lookup(func.id, loc)
            if not bindings:
                if func.id == "print":
                    return Ret.NONE
                return Ret.VALUE if func.id in _BUILTINS_RETURNING_VALUES else Ret.UNKNOWN
            return _both([self._evaluate_callee_binding(b, depth) for b in bindings])
        if isinstance(func, ast.Attribute):
            if func.attr in NONE_METHODS:
                return Ret.NONE
            receiver = self.evaluate(func.value, loc, depth + 1) if isinstance(func.value, ast.Subscript) else None
            if receiver is Ret.VALUE:
                return Ret.VALUE  # a method of an array (x_ref[...].sum()) gives an array
        return Ret.UNKNOWN

    def _evaluate_callee_binding(self, binding, depth: int) -> Ret:
        if binding.kind == "def":
            return self.function_result(binding.node, depth + 1)
        if binding.kind == "assign" and isinstance(binding.value, ast.Lambda):
            return self.function_result(binding.value, depth + 1)
        return Ret.UNKNOWN

    def _evaluate_api_call(self, name: str, call: ast.Call, loc: Loc, depth: int) -> Ret:
        if name in NONE_APIS:
            return Ret.NONE
        if name in VALUE_APIS or name.startswith(VALUE_PREFIXES):
            return Ret.VALUE
        if name in _LOOPS_WITH_INIT:
            index = _LOOPS_WITH_INIT[name]
            init = call.args[index] if len(call.args) > index else keyword_argument(call, "init_val")
            return self.evaluate(init, loc, depth + 1) if init is not None else Ret.UNKNOWN
        if name in ("jax.lax.cond",):
            branches = call.args[1:3]
            return combine(self._callable_result(b, loc, depth) for b in branches) if len(branches) == 2 else Ret.UNKNOWN
        if name == "jax.lax.switch" and len(call.args) >= 2 and isinstance(call.args[1], (ast.List, ast.Tuple)):
            return combine(self._callable_result(b, loc, depth) for b in call.args[1].elts)
        if name == "jax.experimental.pallas.run_scoped" and call.args:
            return self._callable_result(call.args[0], loc, depth)
        if name.startswith("jax.lax.") and name not in ("jax.lax.scan",):
            return Ret.VALUE
        if name == "jax.lax.scan":
            return Ret.VALUE  # (carry, ys): always a tuple
        return Ret.UNKNOWN

    def _callable_result(self, expr: ast.expr, loc: Loc, depth: int) -> Ret:
        """What calling the function an expression denotes returns."""
        if isinstance(expr, ast.Lambda):
            return self.function_result(expr, depth + 1)
        if isinstance(expr, ast.Name):
            return _both([self._evaluate_callee_binding(b, depth) for b in self.model.lookup(expr.id, loc)] or [Ret.UNKNOWN])
        return Ret.UNKNOWN
