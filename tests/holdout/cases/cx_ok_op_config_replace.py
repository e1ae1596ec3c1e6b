"""An Op holding a frozen Config; op.with_config(impl='copy') via dataclasses.replace, then op(x).  JAX: runs."""
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


@dataclasses.dataclass(frozen=True)
class Config:
    impl: str = "copy"
    block: int = 8


class Op:
    def __init__(self, config=Config()):
        self.config = config

    def with_config(self, **changes):
        return Op(dataclasses.replace(self.config, **changes))

    def __call__(self, v):
        return pl.pallas_call(KS[self.config.impl], out_shape=S, interpret=True)(v)


print(Op().with_config(impl='copy')(x).sum())
