"""An Implementation enum keyed table; config.implementation = Implementation.XLA.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1


KS = {"copy": copy, "bump": bump}


class Implementation(enum.Enum):
    XLA = "xla"
    PALLAS = "pallas"


def _xla(v):
    return v + 0


def _pallas(v):
    return pl.pallas_call(bump, out_shape=S, interpret=True)(v)


_IMPLS = {Implementation.XLA: _xla, Implementation.PALLAS: _pallas}


@dataclasses.dataclass
class Config:
    implementation: Implementation = Implementation.XLA


def op(v, config=Config()):
    return _IMPLS[config.implementation](v)


print(op(x, Config(Implementation.XLA)).sum())
