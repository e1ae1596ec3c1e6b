"""A kernel registered by `@reg` under its `__name__` is a generator.  JAX: TypeError "not a valid JAX type"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

REG = {}

def reg(fn):
    REG[fn.__name__] = fn
    return fn

@reg
def stream(x_ref, o_ref):  # expect: PAL005
    yield
    o_ref[...] = x_ref[...]

def run(name, x):
    return pl.pallas_call(REG[name], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run("stream", jnp.ones((8, 128), jnp.float32)).sum())
