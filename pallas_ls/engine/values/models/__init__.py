"""The standard library as models the interpreter evaluates, written in Python.

A model is a small Python definition of a library function or class, in a file named after the
module it models (`operator.py` models `operator`).  The interpreter never imports these files: it
reads them as source, like the user's code, and evaluates the definition at the call — so
`operator.attrgetter("fwd")(Kernels)` is the `getattr` that the model's `attrgetter` performs, and a
`ChainMap`'s lookup walks its maps as the model's `__getitem__` says.  A library function with no
model (and no native rule in the interpreter) stays Unknown: silence.

Adding a model: write the function or class in the module's file, as plain Python the interpreter
understands (calls, attributes, subscripts, `for`, `if`, `return`, `yield`, classes with dunder
methods), then list it in the README's "What the interpreter models".  Public names are the model;
names starting with `_` are helpers.
"""

from __future__ import annotations

import ast
import functools
import pathlib

from ...model import ModuleModel

_HERE = pathlib.Path(__file__).resolve().parent
MODELLED_MODULES = frozenset(path.stem for path in _HERE.glob("*.py") if not path.stem.startswith("_"))


@functools.cache
def module_model(module: str) -> ModuleModel | None:
    """The parsed model of `module` (shared by every analysis: models are read-only)."""
    if module not in MODELLED_MODULES:
        return None
    tree = ast.parse((_HERE / f"{module}.py").read_text(encoding="utf-8"), filename=f"<model of {module}>")
    return ModuleModel(tree)


def modelled(qualname: str) -> tuple[ModuleModel, str] | None:
    """The model module and name that model `qualname` (`operator.attrgetter`), if any."""
    module, _, name = qualname.rpartition(".")
    module = module or "builtins"  # `filter`: a builtin read by its bare name
    if name.startswith("_"):
        return None
    model = module_model(module)
    if model is None or name not in model.module_scope.bindings:
        return None
    return model, name
