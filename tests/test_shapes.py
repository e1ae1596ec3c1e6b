"""Constant shapes through arithmetic, elementwise functions, reductions and indexing (the value
domain the PAL001 fix and the TPU rules read)."""

from __future__ import annotations

import ast

import pytest

from pallas_ls.engine.model import ModuleModel
from pallas_ls.engine.shapes import broadcast, reduced
from pallas_ls.engine.values.domain import Array, only_value
from pallas_ls.engine.values.interpreter import Interpreter

PRELUDE = "import jax, jax.numpy as jnp\nx = jnp.ones((8, 128), jnp.float32)\nrow = jnp.ones((128,))\n"


def shape_of(expr: str) -> tuple[int, ...] | None:
    tree = ast.parse(PRELUDE + f"probe = {expr}\n")
    model = ModuleModel(tree)
    node = tree.body[-1].value  # type: ignore[attr-defined]
    value = only_value(Interpreter(model).ev(node, model.loc(node)))
    assert isinstance(value, Array), value
    return value.shape


@pytest.mark.parametrize(
    "expr, shape",
    [
        ("jnp.max(x, axis=0, keepdims=True)", (1, 128)),
        ("jnp.sum(x, axis=-1)", (8,)),
        ("jnp.mean(x)", ()),
        ("jnp.sum(x, axis=(0, 1), keepdims=True)", (1, 1)),
        ("x * 2 + jnp.exp(x)", (8, 128)),
        ("x + row", (8, 128)),
        ("jax.nn.gelu(x) - jnp.max(x, axis=1, keepdims=True)", (8, 128)),
        ("x[...]", (8, 128)),
        ("x[0]", (128,)),  # an int drops its axis
        ("x[None, :]", (1, 8, 128)),
        ("x[..., None]", (8, 128, 1)),
        ("row[None, :]", (1, 128)),
        ("x[1:3]", (2, 128)),  # a slice with constant bounds keeps what it selects
        ("x[:, -64:]", (8, 64)),
        ("x[::2, :n]", None),  # a bound that is not a constant: not worked out
        ("x[8]", None),  # out of bounds: not worked out
        ("x[0, 0, 0]", None),
        ("x.mean(axis=0)", (128,)),  # array methods reduce as the jnp functions do
        ("x.sum()", ()),
        ("x.max(axis=1, keepdims=True)", (8, 1)),
        ("jnp.arange(128.0)", (128,)),
        ("jnp.arange(2.5)", (3,)),
        ("jnp.sum(x, axis=k)", None),  # an axis not known
        ("x + unknown", None),
    ],
)
def test_shapes(expr, shape):
    assert shape_of(expr) == shape


def test_broadcast_and_reduced():
    assert broadcast([(8, 1), (1, 128)]) == (8, 128)
    assert broadcast([(8, 128), (3, 128)]) is None
    assert reduced((8, 128), None, keepdims=False) == ()
    assert reduced((8, 128), 2, keepdims=False) is None
